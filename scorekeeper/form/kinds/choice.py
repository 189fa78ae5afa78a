"""kind "choice": one of the question's chips (a suit, a rank, yes or no)."""

from __future__ import annotations

from ..checks import one_of
from .kind import Kind


def read(q, fields, reading) -> None:
    raw = fields.get(q.field)
    if raw == "":
        reading.missing(q)
    elif raw in q.values:
        reading.answer(q, raw)
    else:
        reading.wrong(q, f"Choose one: {', '.join(c.label for c in q.choices(reading.answers))}.")


def write(q, value, answers) -> dict:
    return {q.field: value}


def shape(q, book, options) -> dict:
    return {q.field: one_of(q.values)}


def word(q, name, value, names):
    return next((c.label for c in q.choices(None) if c.value == value), value)


KIND = Kind("choice", "fields/choice.html", read, write, shape, word=word)
