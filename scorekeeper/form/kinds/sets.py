"""kind "sets": the gleeks and mournivals each player declares (or none)."""

from __future__ import annotations

from ..checks import chips, one_of
from ...rules.core import SEATS, parse_set
from ..fields import RANK_ORDER
from .kind import Kind


def read(q, fields, reading) -> None:
    state = fields.get(q.field)
    declared = [one_set_per_rank(fields.getlist(f"set_{seat}")) for seat in SEATS]
    if state == "none":
        reading.answer(q, [[], [], []])
        reading.values.update({f"set_{seat}": [] for seat in SEATS})
    elif state == "some" or any(declared):
        reading.values[q.field] = "some"
        if any(declared):
            reading.answer(q, declared)
        else:
            reading.missing(q, q.ask_some)
    else:
        reading.missing(q)


def one_set_per_rank(declared: list[str]) -> list[str]:
    """The declared sets in rank order, one per rank. Both chips of one rank lit
    (gleek and mournival) is not a set anybody holds: it is kept as posted, so the
    rule book's check says so ("declares two sets of Aces") instead of dropping one."""
    unique = list(dict.fromkeys(declared))
    return sorted(unique, key=lambda t: RANK_ORDER.get((parse_set(t) or ("", ""))[1], 99))


def write(q, value, answers) -> dict:
    fields = {q.field: "some" if any(value) else "none"}
    fields.update({f"set_{seat}": list(value[seat]) for seat in SEATS})
    return fields


def set_names(book) -> list[str]:
    """Every set chip of the book: "gleek:A", "mournival:A", …"""
    return [f"{k}:{rank}" for rank in book.set_ranks for k in ("gleek", "mournival")]


def shape(q, book, options) -> dict:
    names = set_names(book)
    return {q.field: one_of(("none", "some")), **{f"set_{seat}": chips(names, len(names)) for seat in SEATS}}


def offers(q, form) -> tuple:
    return (form.values.get(q.field, ""), tuple(q.seat_choices(form.answers)))


KIND = Kind("sets", "fields/sets.html", read, write, shape, offers)
