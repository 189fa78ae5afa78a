"""A club night's ratings, beside its standings: each player's openskill rating
(``club/ratings.py``), as a circle's statistics page rates its members.

For a circle's night, the members' circle ratings: the circle's evenings in date
order, tonight's tables among them (each an evening of the circle). For a night
from names, tonight's tables alone, from openskill's defaults. Either way a table
with a hand saved is a three-player free for all ranked by its totals; one with
none yet counts for nothing."""

from __future__ import annotations

from typing import Sequence

from .. import store
from ..club.ratings import Game, Rating, played, ratings, unrated
from ..club.standings import TableResult
from .circle_figures import evenings_key, figures, member_key


def circle_of_night(db, night: store.Night) -> store.Circle | None:
    """The night's circle, if it has one still (expiry may have removed it)."""
    if night.circle_id is None:
        return None
    try:
        return store.get_circle(db, night.circle_id)
    except store.NotFound:
        return None


def ratings_key(db, circle: store.Circle | None) -> tuple | None:
    """What a circle night's ratings depend on beyond its own tables: every evening
    of the circle (``circle_figures.evenings_key``); None for a night from names."""
    return evenings_key(db, circle) if circle is not None else None


def night_ratings(
    db, night: store.Night, circle: store.Circle | None, tables: Sequence[TableResult]
) -> dict[str, Rating]:
    """Each of the night's players' rating, by name. ``tables``: tonight's tables
    with a hand saved, in the order played (round by round)."""
    if circle is None:
        rated = ratings(Game(t.players, t.totals) for t in tables)
        return {p.name: rated.get(p.name, unrated()) for p in night.players}
    rated = ratings(games_of_circle(db, night, circle))
    return {p.name: rated.get(who(p), unrated()) for p in night.players}


def who(player: store.NightPlayer) -> str:
    """A night's player as the circle's figures name him: a member by his id (as
    ``#12``), a guest by his name tonight."""
    return member_key(player.member_id) if player.member_id is not None else f"{player.name} (tonight)"


def games_of_circle(db, night: store.Night, circle: store.Circle) -> list[Game]:
    """The circle's evenings with a hand saved, in date order (the statistics page's
    order), tonight's tables with the night's players at their seats."""
    tonight = {t.session_id: tuple(who(night.player(p)) for p in t.seats) for r in night.rounds for t in r.tables}
    return [Game(tonight.get(e.key, e.players), e.totals) for e in played(figures(db, circle.id))]
