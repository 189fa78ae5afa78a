"""kind "text": a short note in the table's own words."""

from __future__ import annotations

from ..checks import typed
from .kind import Kind


def read(q, fields, reading) -> None:
    text = fields.get(q.field).strip()
    if len(text) > q.limit:
        reading.wrong(q, f"At most {q.limit} characters.")
    elif text:
        reading.answer(q, text)


def write(q, value, answers) -> dict:
    return {q.field: value or ""}


def shape(q, book, options) -> dict:
    return {q.field: typed(q.limit)}


KIND = Kind("text", "fields/text.html", read, write, shape)
