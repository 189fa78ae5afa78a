"""kind "forfeits": the sets the buyer called, had laid out, and was caught in
(optional: nothing posted leaves the key out)."""

from __future__ import annotations

from ..checks import chips
from ...rules.core import SEATS
from .kind import Kind
from .sets import one_set_per_rank, set_names


def read(q, fields, reading) -> None:
    """The sets each seat forfeits (the form shows the buyer's chips only; the
    rule book says it if another seat's are posted)."""
    called = [one_set_per_rank(fields.getlist(f"{q.field}_{seat}")) for seat in SEATS]
    if any(called):
        reading.answer(q, called)


def write(q, value, answers) -> dict:
    return {f"{q.field}_{seat}": list(value[seat]) for seat in SEATS}


def shape(q, book, options) -> dict:
    names = set_names(book)
    return {f"{q.field}_{seat}": chips(names, len(names)) for seat in SEATS}


def offers(q, form) -> tuple:  # the buyer's chips
    return (q.buyer(form.answers), tuple(q.choices(form.answers)))


KIND = Kind("forfeits", "fields/forfeits.html", read, write, shape, offers)
