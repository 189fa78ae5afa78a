"""The standings of a club night across its tables: each player's table placings
(``placings.table_points``) and counters, by round and overall.

Counters are what the tables paid each other; placings compare players across tables
that played different numbers of hands. The organizer ranks by one and the other is
shown beside it. Tiebreaks, in order: the other figure (counters for a ranking by
placings, placings for a ranking by counters), then the tables won (first place
alone), then the name. Exact arithmetic."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Literal, Sequence

from .placings import table_points

RankBy = Literal["placings", "counters"]

TIEBREAKS = {
    "placings": "placing points, then counters, then tables won outright, then name",
    "counters": "counters, then placing points, then tables won outright, then name",
}


@dataclass(frozen=True)
class TableResult:
    """One table of one round: its players in seat order and each one's total in counters."""

    round: int
    table: int
    players: Sequence[str]
    totals: Sequence[Fraction | int]
    hands: int = 0


@dataclass
class Standing:
    name: str
    placings: Fraction = Fraction(0)
    counters: Fraction = Fraction(0)
    tables: int = 0
    won: int = 0
    by_round: dict[int, Fraction] = field(default_factory=dict)
    rank: int = 0


def standings(
    results: Iterable[TableResult], rank_by: RankBy = "placings", players: Sequence[str] = ()
) -> list[Standing]:
    """Every player's standing, best first; ``players`` adds those who have not sat at
    a table yet (a bye, or a late arrival), at nought."""
    rows: dict[str, Standing] = {name: Standing(name) for name in players}
    for result in results:
        points = table_points(result.totals)
        for name, total, point in zip(result.players, result.totals, points):
            row = rows.setdefault(name, Standing(name))
            row.placings += point
            row.counters += Fraction(total)
            row.tables += 1
            row.won += point == 2
            row.by_round[result.round] = row.by_round.get(result.round, Fraction(0)) + point
    first, second = ("placings", "counters") if rank_by == "placings" else ("counters", "placings")

    def key(row: Standing):
        return (-getattr(row, first), -getattr(row, second), -row.won)

    ordered = sorted(rows.values(), key=lambda row: (*key(row), row.name.casefold()))
    for position, row in enumerate(ordered, 1):
        same = position > 1 and key(ordered[position - 2]) == key(row)
        row.rank = ordered[position - 2].rank if same else position
    return ordered


def by_round(results: Iterable[TableResult]) -> dict[int, list[TableResult]]:
    rounds: dict[int, list[TableResult]] = defaultdict(list)
    for result in results:
        rounds[result.round].append(result)
    return {number: sorted(tables, key=lambda t: t.table) for number, tables in sorted(rounds.items())}
