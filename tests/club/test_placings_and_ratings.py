"""Table placings against figures worked by hand; ratings against openskill itself."""

from __future__ import annotations

from fractions import Fraction

import pytest
from openskill.models import PlackettLuce

from scorekeeper.club.placings import ranks, table_points
from scorekeeper.club.ratings import Game, Rating, ratings


@pytest.mark.parametrize(
    "totals, points",
    [
        ((12, -4, -8), (2, 1, 0)),
        ((-8, 12, -4), (0, 2, 1)),
        ((6, 6, -12), (Fraction(3, 2), Fraction(3, 2), 0)),
        ((12, -6, -6), (2, Fraction(1, 2), Fraction(1, 2))),
        ((0, 0, 0), (1, 1, 1)),
        ((Fraction(1, 2), 0, Fraction(-1, 2)), (2, 1, 0)),
    ],
)
def test_table_points_share_the_places_a_tie_spans(totals, points):
    assert table_points(totals) == list(points)
    assert sum(table_points(totals)) == 3


def test_ranks_share_the_best_place_of_a_tie():
    assert ranks((6, 6, -12)) == [1, 1, 3]
    assert ranks((-12, 6, 6)) == [3, 1, 1]


def test_a_table_is_three_players():
    with pytest.raises(ValueError, match="a table has 3 players, not 2"):
        table_points((1, -1))


def test_ratings_are_openskills_plackett_luce_game_by_game():
    games = [
        Game(("Ann", "Ben", "Cat"), (12, -4, -8)),
        Game(("Cat", "Dan", "Ann"), (6, 6, -12)),
        Game(("Ben", "Dan", "Cat"), (Fraction(-1, 2), Fraction(1, 2), 0)),
    ]
    model = PlackettLuce()
    expected = {name: model.rating(name=name) for name in ("Ann", "Ben", "Cat", "Dan")}
    for players, order in (
        (("Ann", "Ben", "Cat"), [1, 2, 3]),
        (("Cat", "Dan", "Ann"), [1, 1, 3]),
        (("Ben", "Dan", "Cat"), [3, 1, 2]),
    ):
        rated = model.rate([[expected[p]] for p in players], ranks=order)
        for p, (after,) in zip(players, rated):
            expected[p] = after
    got = ratings(games)
    assert got == {p: Rating(r.mu, r.sigma) for p, r in expected.items()}
    assert got["Dan"].mu > 25 and got["Ben"].mu < 25


def test_a_player_who_has_not_played_starts_at_openskills_defaults():
    got = ratings([Game(("Ann", "Ben", "Cat"), (0, 0, 0))])
    assert got["Ann"] == got["Ben"] == got["Cat"]
    assert got["Ann"].mu == pytest.approx(25)
    assert got["Ann"].sigma < 25 / 3
