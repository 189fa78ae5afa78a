"""Table placings: at each table of a round, the highest total gets 2 points, the
next 1, the last 0; tied players share the points of the places they span (two tied
first get 1½ each, three tied 1 each). Tables play different numbers of hands, so the
placings compare players across tables where counters cannot. Exact arithmetic."""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Protocol, Sequence

PLACE_POINTS = (2, 1, 0)


def ranks(totals: Sequence[Fraction | int]) -> list[int]:
    """Each player's place at the table (1 is the highest total); tied players share
    the best of the places they span."""
    return [1 + sum(other > total for other in totals) for total in totals]


def table_points(totals: Sequence[Fraction | int]) -> list[Fraction]:
    """The placing points of each player at one table, in the order of ``totals``."""
    if len(totals) != len(PLACE_POINTS):
        raise ValueError(f"a table has {len(PLACE_POINTS)} players, not {len(totals)}")
    points = []
    for total, place in zip(totals, ranks(totals)):
        tied = sum(other == total for other in totals)
        spanned = PLACE_POINTS[place - 1 : place - 1 + tied]
        points.append(Fraction(sum(spanned), tied))
    return points


class Played(Protocol):
    """What a placing needs of one table's result (a season's ``EveningFigures`` is one)."""

    players: Sequence[str]
    totals: Sequence[Fraction | int]


def placings(tables: Iterable[Played]) -> dict[str, Fraction]:
    """Each player's table points summed over ``tables`` (an evening is one table)."""
    summed: dict[str, Fraction] = {}
    for table in tables:
        for name, points in zip(table.players, table_points(table.totals)):
            summed[name] = summed.get(name, Fraction(0)) + points
    return summed
