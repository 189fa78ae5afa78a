"""kind "seat": one of the players (or nobody, where the question allows it)."""

from __future__ import annotations

from ..checks import SEAT_VALUES, one_of
from ...rules.hand import NOBODY
from ..fields import seat_of, seat_value
from .kind import Kind, seat_word


def read(q, fields, reading) -> None:
    raw = fields.get(q.field)
    if raw == "":
        reading.missing(q)
    elif raw == NOBODY and q.nobody:
        reading.answer(q, None)
    elif seat_of(raw) is not None:
        reading.answer(q, seat_of(raw))
    else:
        reading.wrong(q, "Choose one of the players.")


def write(q, value, answers) -> dict:
    return {q.field: seat_value(value)}


def shape(q, book, options) -> dict:
    return {q.field: one_of(SEAT_VALUES + ((NOBODY,) if q.nobody else ()))}


def offers(q, form) -> tuple:
    return tuple(q.choices(form.answers))


KIND = Kind(
    "seat", "fields/seat.html", read, write, shape, offers, word=lambda q, name, value, names: seat_word(value, names)
)
