"""Where a club night's players sit next, on their table's pages.

A club night's table is an ordinary session; its pages (the scorer's, the watch
link's and each player's own link) say which night, round and table it is, link
the night's standings and, once a later round is drawn, where each player sits
in it: "Next: round 2, table 3, seat 1 (deals first)", or "sitting out round 2".
A player's own link says his line only, linked to his own link at that table, so
a player can follow the night from link to link. The lines are polled (``/night``
under each link, 204 while the night's version is unchanged), outside the
table's live part: a round drawn changes the night, not this table's session.
Once the night is deleted, the poll answers lines that say so and poll no more."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, current_app, make_response, render_template, request

from .. import store
from ..db import get_db
from .access import Table, on_both_links
from .context import public_base_url, qr_svg
from .nights import NIGHT_DELETED

bp = Blueprint("night_seats", __name__)


@dataclass(frozen=True)
class NextSeat:
    """Where one player sits in a round drawn after this table's."""

    player: str
    round: int
    table: int | None  # None: at no table in that round
    seat: int | None  # 1 to 3; 1 deals first
    sitting_out: bool
    gone: bool = False  # the table's session was deleted since it was drawn
    link: str | None = None  # the player's own link at that table, where it has one

    @property
    def words(self) -> str:
        if self.table is not None:
            return (
                f"round {self.round}, table {self.table}, seat {self.seat}"
                + (" (deals first)" if self.seat == 1 else "")
                + (" (its session was deleted)" if self.gone else "")
            )
        if self.sitting_out:
            return f"sitting out round {self.round}"
        return f"not seated in round {self.round} (left the night)"


@dataclass(frozen=True)
class NightPlace:
    """A table of a club night as its pages show it."""

    night: store.Night
    round: int
    table: int
    standings_url: str
    next_round: int | None  # the latest round drawn after this table's (None: none yet)
    next: tuple[NextSeat | None, ...]  # per seat of this table (None: no later round drawn)
    own_links: tuple[str, ...]  # each seat's own link at this table (empty for an older table)

    @property
    def last_round(self) -> bool:
        return self.next_round is None and self.round >= self.night.rounds_planned


def night_place(table: Table) -> NightPlace | None:
    """The night, round and table this session plays, and where its players sit next
    (None: an ordinary session, or its night was deleted)."""
    db = get_db()
    where = store.night_table_of(db, table.session.id)
    if where is None:
        return None
    try:
        night = store.get_night(db, where.night_id)
    except store.NotFound:  # deleted a moment ago
        return None
    this = next(t for t in night.round(where.round).tables if t.number == where.table)
    later = [r for r in night.rounds if r.number > where.round]
    upcoming = later[-1] if later else None
    base = public_base_url()
    own = store.seat_links(db, table.session.id, make=False) or ()
    return NightPlace(
        night,
        where.round,
        where.table,
        f"{base}/n/{night.watch_id}",
        upcoming.number if upcoming else None,
        tuple(next_seat(night, upcoming, p, base) if upcoming else None for p in this.seats),
        tuple(f"{base}/p/{token}" for token in own),
    )


def next_seat(night: store.Night, drawn: store.NightRound, player_id: int, base: str) -> NextSeat:
    name = night.name_of(player_id)
    for t in drawn.tables:
        if player_id in t.seats:
            seat = t.seats.index(player_id)
            links = None if t.session_gone else store.seat_links(get_db(), t.session_id, make=False)
            return NextSeat(
                name,
                drawn.number,
                t.number,
                seat + 1,
                False,
                t.session_gone,
                f"{base}/p/{links[seat]}" if links else None,
            )
    return NextSeat(name, drawn.number, None, None, player_id in drawn.byes)


def poll_seconds() -> int:
    return current_app.config.get("NIGHT_SEAT_POLL_SECONDS", 5)


@on_both_links(bp, "/night")
def night_part(table: Table):
    """The night's lines of a table's page, or 204 while the night is unchanged since ``v``."""
    place = night_place(table)
    if place is None and request.args.get("v") is None:  # an ordinary session: no night to speak of
        return make_response("", 204)
    if place is None:  # a page that showed the night's lines (at version ``v``), the night deleted since:
        response = make_response(render_template("_night_seat_gone.html", message=NIGHT_DELETED))
        response.headers["Vary"] = "HX-Request"
        return response
    if request.args.get("v") == str(place.night.version):
        return make_response("", 204)
    response = make_response(
        render_template("_night_seat.html", place=place, table=table, poll_seconds=poll_seconds(), part_only=True)
    )
    response.headers["Vary"] = "HX-Request"
    return response


def own_link_codes(place: NightPlace) -> list[dict]:
    """Each player's own link with its QR code, for the scorer's page of a table
    whose hands need no OKs (with OKs, the page shows them already)."""
    return [{"url": url, "qr": qr_svg(url)} for url in place.own_links]
