"""kind "honours": who holds each of the book's honours (or nobody, where one may be
discarded)."""

from __future__ import annotations

from ..checks import DISCARDED, SEAT_VALUES, one_of
from ...rules.hand import NOBODY
from ..fields import seat_value
from .kind import Kind, seat_word


def read(q, fields, reading) -> None:
    if q.needs not in reading.hand:
        reading.missing(q, q.ask_first)
        return
    honours, missing = {}, False
    for line in q.lines(reading.answers):
        if line.fixed:
            continue
        raw = fields.get(f"{q.field}_{line.rank}")
        allowed = {seat_value(c.value): c.value for c in line.choices}
        if raw == "":
            missing = True
        elif raw == NOBODY and None in allowed.values():
            honours[line.rank] = None
        elif raw == DISCARDED and None in allowed.values():
            honours[line.rank] = None
        elif raw in allowed:
            honours[line.rank] = allowed[raw]
        else:
            reading.wrong(q, "Choose a player.")
            return
    if missing:
        reading.missing(q)
    else:
        reading.answer(q, honours)


def write(q, value, answers) -> dict:
    return {f"{q.field}_{rank}": DISCARDED if seat is None else str(seat) for rank, seat in value.items()}


def shape(q, book, options) -> dict:
    """Each honour of the book's: who has it (or nobody, where it may be discarded)."""
    return {
        f"{q.field}_{card.rank}": one_of(SEAT_VALUES + ((NOBODY, DISCARDED) if card.nobody else ()))
        for card in q.rules.cards
    }


def offers(q, form) -> tuple:
    return tuple(q.lines(form.answers))


KIND = Kind(
    "honours",
    "fields/honours.html",
    read,
    write,
    shape,
    offers,
    word=lambda q, name, value, names: seat_word(value, names),
)
