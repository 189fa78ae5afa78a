"""Ratings: each player's skill as openskill's Plackett-Luce model estimates it
(``mu``, and ``sigma`` its uncertainty; openskill's defaults, 25 and 25/3 before a
first game). Each evening, or each table of a club night, is a three-player free for
all ranked by the players' totals there (equal totals tie), taken in the order
played. Ratings are estimates, not money: openskill's floats are right for them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Sequence

from openskill.models import PlackettLuce

from .placings import Played, ranks


@dataclass(frozen=True)
class Game:
    """One table's result: the players and their totals, in the same order."""

    players: Sequence[str]
    totals: Sequence[Fraction | int]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """What a standings table can sort by: mu less three sigmas (openskill's ordinal),
        so that a newcomer with one lucky evening does not top the list."""
        return self.mu - 3 * self.sigma

    def as_json(self) -> dict:
        return {"mu": self.mu, "sigma": self.sigma}


def in_date_order(evenings: Iterable) -> list:
    """Evenings (anything with ``played_on``, ``"YYYY-MM-DD"`` or None) by date,
    undated ones last, in the order given among equals."""
    return sorted(evenings, key=lambda e: (e.played_on is None, e.played_on or ""))


def played(evenings: Iterable) -> list:
    """The evenings (or tables) a rating counts, in date order: those with a hand
    saved (anything with ``hands``, ``played_on``). An evening begun, or a club
    night's table drawn, with no hand yet is no three-way tie."""
    return [e for e in in_date_order(evenings) if e.hands]


def unrated() -> Rating:
    """A player's rating before a first game: openskill's defaults (25 and 25/3)."""
    first = PlackettLuce().rating()
    return Rating(first.mu, first.sigma)


def ratings(games: Iterable[Game | Played]) -> dict[str, Rating]:
    """Every player's rating after ``games``, taken in order."""
    first = unrated()
    current: dict[str, Rating] = {}
    for game in games:
        before = tuple(current.get(name, first) for name in game.players)
        for name, after in zip(game.players, rate(before, tuple(ranks(game.totals)))):
            current[name] = after
    return current


@lru_cache(maxsize=16384)
def rate(before: tuple[Rating, ...], places: tuple[int, ...]) -> tuple[Rating, ...]:
    """One game's ratings after, from the players' ratings before and their places:
    openskill's ``rate``, kept. A club night's standings rate every table again at
    each save, and most tables' ratings before and places are as they were."""
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=list(places))
    return tuple(Rating(after.mu, after.sigma) for (after,) in rated)
