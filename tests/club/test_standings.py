"""Standings across tables against figures worked by hand."""

from __future__ import annotations

from fractions import Fraction

from scorekeeper.club.standings import TableResult, by_round, standings

# Round 1: two tables; round 2: two tables; Gus sits out round 2.
RESULTS = [
    TableResult(1, 1, ("Ann", "Ben", "Cat"), (12, -4, -8), hands=6),
    TableResult(1, 2, ("Dan", "Eve", "Fay"), (30, -15, -15), hands=9),
    TableResult(2, 1, ("Ann", "Dan", "Gus"), (-2, 1, 1), hands=4),
    TableResult(2, 2, ("Ben", "Eve", "Cat"), (Fraction(5, 2), Fraction(-5, 2), 0), hands=5),
]


def rows(ordered):
    return [(r.rank, r.name, r.placings, r.counters) for r in ordered]


def test_ranked_by_placings_with_counters_beside():
    # Ann 2 + 0 = 2 (10); Dan 2 + 1.5 = 3.5 (31); Gus 1.5 (1); Ben 1 + 2 = 3 (-1.5);
    # Cat 0 + 1 = 1 (-8); Eve 0.5 + 0 = 0.5 (-17.5); Fay 0.5 (-15); Hal has not played.
    assert rows(standings(RESULTS, players=["Hal"])) == [
        (1, "Dan", Fraction(7, 2), 31),
        (2, "Ben", 3, Fraction(-3, 2)),
        (3, "Ann", 2, 10),
        (4, "Gus", Fraction(3, 2), 1),
        (5, "Cat", 1, -8),
        (6, "Fay", Fraction(1, 2), -15),
        (7, "Eve", Fraction(1, 2), Fraction(-35, 2)),
        (8, "Hal", 0, 0),
    ]


def test_ranked_by_counters_with_placings_as_the_tiebreak():
    ordered = standings(RESULTS, rank_by="counters")
    assert [r.name for r in ordered] == ["Dan", "Ann", "Gus", "Ben", "Cat", "Fay", "Eve"]


def test_equal_on_every_tiebreak_share_a_rank_and_are_listed_by_name():
    ordered = standings([TableResult(1, 1, ("Cat", "ann", "Ben"), (0, 0, 0))])
    assert [(r.rank, r.name) for r in ordered] == [(1, "ann"), (1, "Ben"), (1, "Cat")]


def test_points_by_round_and_tables_won():
    dan = next(r for r in standings(RESULTS) if r.name == "Dan")
    assert dan.by_round == {1: 2, 2: Fraction(3, 2)}
    assert (dan.tables, dan.won) == (2, 1)
    assert list(by_round(RESULTS)) == [1, 2]
