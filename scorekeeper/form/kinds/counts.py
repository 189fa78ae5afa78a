"""kind "counts": a count for each player (tricks); the last fills itself in as the
total less the others."""

from __future__ import annotations

from ..checks import one_of
from ...rules.core import SEATS
from ..fields import seat_of, whole
from .kind import Kind


def read(q, fields, reading) -> None:
    names = [f"{q.field}_{seat}" for seat in SEATS]
    raw = [fields.get(n) for n in names]
    auto = fields.get(f"{q.field}_auto")
    auto_seat, _, auto_value = auto.partition(":")
    if auto and seat_of(auto_seat) is not None and raw[int(auto_seat)] == auto_value:
        raw[int(auto_seat)] = ""  # still the form's own guess: fill it in again
    counts = [whole(r) if r != "" else None for r in raw]
    reading.values[f"{q.field}_auto"] = ""
    if any(r != "" and (c is None or c > q.total) for r, c in zip(raw, counts)):
        reading.wrong(q, f"Choose 0 to {q.total}.")
        return
    given = [c for c in counts if c is not None]
    if sum(given) > q.total:
        reading.wrong(q, f"{q.title} add up to {sum(given)} already: more than {q.total}.")
        return
    if len(given) == 2:
        seat = counts.index(None)
        counts[seat] = q.total - sum(given)
        reading.values[names[seat]] = str(counts[seat])
        reading.values[f"{q.field}_auto"] = f"{seat}:{counts[seat]}"
    if None in counts:
        reading.missing(q)
    else:
        reading.answer(q, counts)


def write(q, value, answers) -> dict:
    fields = {f"{q.field}_{seat}": str(value[seat]) for seat in SEATS}
    dealer = answers.dealer if answers.dealer is not None else 2
    # the dealer's count fills itself in again when another player's count changes
    fields[f"{q.field}_auto"] = f"{dealer}:{value[dealer]}"
    return fields


def shape(q, book, options) -> dict:
    counts = tuple(map(str, range(q.total + 1)))
    return {
        **{f"{q.field}_{seat}": one_of(counts) for seat in SEATS},
        f"{q.field}_auto": one_of(f"{seat}:{n}" for seat in SEATS for n in counts),
    }


def offers(q, form) -> tuple:
    return (form.values.get(f"{q.field}_auto", ""),)


KIND = Kind("counts", "fields/counts.html", read, write, shape, offers)
