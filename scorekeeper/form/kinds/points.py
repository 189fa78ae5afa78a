"""kind "points": each player's card points, typed or from the card counter (how
many of each rank each captured)."""

from __future__ import annotations

from ..checks import MAX_TYPED, one_of, typed
from ...rules.core import RANK_PLURALS, SEATS
from ..fields import amount_or_problem, whole
from .kind import Kind

#: Which players' cards were counted, as the form posts it.
COUNTED = tuple(",".join(map(str, seats)) for seats in ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)))


def read(q, fields, reading) -> None:
    if q.counter:
        read_counts_of_cards(q, fields, reading)
    points, missing = [], False
    for seat in SEATS:
        text = fields.get(f"{q.field}_{seat}").strip()
        if text == "":
            missing = True
            points.append(None)
            continue
        amount, why = amount_or_problem(text, f"{reading.answers.names[seat]}'s {q.title.lower()}")
        if why:
            reading.wrong(q, why)
        points.append(amount)
    if missing:
        reading.missing(q)
    elif q.key not in reading.problems:
        reading.answer(q, points)


def read_counts_of_cards(q, fields, reading) -> None:
    """The counter: how many of each rank each player captured. A player whose
    cards are counted gets his points filled in (in the typed box), and the counts
    are checked (3 cards a trick, at most 4 of a rank)."""
    counts, counted = [{}, {}, {}], []
    for seat in SEATS:
        given = {rank: fields.get(f"count_{seat}_{rank}").strip() for rank in q.counter}
        if not any(given.values()):
            continue
        counted.append(seat)
        for rank, text in given.items():
            n = whole(text)
            if text and (n is None or n > 4):
                reading.wrong(q, f"{reading.answers.who(seat)}: count 0 to 4 {RANK_PLURALS[rank]}.")
                return
            if n:
                counts[seat][rank] = n
    if not counted:
        return
    tricks = reading.hand.get("tricks")
    if tricks is not None:  # a player not counted yet is not held to 3 cards a trick
        tricks = [tricks[s] if s in counted else 0 for s in SEATS]
    for problem in q.count_problems(reading.answers, counts, tricks):
        reading.wrong(q, problem[:1].upper() + problem[1:] + ".")
    points = q.from_counts(reading.answers, counts)
    for seat in counted:
        reading.values[f"{q.field}_{seat}"] = str(points[seat])
    reading.values[f"{q.field}_counted"] = ",".join(map(str, counted))


def write(q, value, answers) -> dict:
    return {f"{q.field}_{seat}": str(value[seat]) for seat in SEATS}


def shape(q, book, options) -> dict:
    short = typed(MAX_TYPED)
    fields = {f"{q.field}_{seat}": short for seat in SEATS}
    if q.counter:
        fields[f"{q.field}_counted"] = one_of(COUNTED)
        fields.update({f"count_{seat}_{rank}": short for seat in SEATS for rank in q.counter})
    return fields


def offers(q, form) -> tuple:  # counted cards fill the totals in
    counted = form.values.get(f"{q.field}_counted", "")
    return (counted,) + tuple(form.values.get(f"{q.field}_{s}", "") for s in counted.split(",") if s)


KIND = Kind("points", "fields/points.html", read, write, shape, offers)
