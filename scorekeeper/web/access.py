"""Who may do what with a link.

A session has the scorer's link (``/s/<id>``), which can change the scores, the
watch link (``/w/<watch id>``), which only reads, and — where each hand needs
the other players' OK — a link per player (``/p/<token>``), which reads like
the watch link and can do one thing more: agree to, or dispute, hands for that
seat. A view gets a ``Table``: the session as that link sees it. Read-only pages
are registered on every link at once (``on_both_links``); pages that change
something are only under ``/s/`` and go through ``editable`` (which also honours
a table PIN), and a player's OK only under ``/p/`` (``players.py``), so the
watch link is read-only and a player's link can never edit, by construction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import abort, make_response, render_template, request, session as cookie

from .. import store
from ..db import get_db
from .htmx import redirect

REMEMBERED = 30  # sessions a browser lists on its home page


@dataclass
class Table:
    """A session as one of its links sees it (``seat``: a player's own link)."""

    session: store.Session
    can_edit: bool
    seat: int | None = None
    token: str = ""

    @property
    def key(self) -> str:
        if self.seat is not None:
            return self.token
        return self.session.id if self.can_edit else self.session.watch_id

    @property
    def prefix(self) -> str:
        return "p" if self.seat is not None else ("s" if self.can_edit else "w")

    def url(self, suffix: str = "") -> str:
        return f"/{self.prefix}/{self.key}{suffix}"


def on_both_links(bp, rule: str):
    """Register a read-only page under the scorer's link (/s/<key>…) and the
    watchers' link (/w/<key>…); the view gets the ``Table`` as that link sees it."""

    def register(view):
        name = view.__name__.lstrip("_")

        def scorer(key, **kwargs):
            return view(load_table(key, True), **kwargs)

        def watcher(key, **kwargs):
            return view(load_table(key, False), **kwargs)

        def player(key, **kwargs):
            return view(load_player_table(key), **kwargs)

        bp.add_url_rule(f"/s/<key>{rule}", name, scorer, methods=["GET"])
        bp.add_url_rule(f"/w/<key>{rule}", f"watch_{name}", watcher, methods=["GET"])
        bp.add_url_rule(f"/p/<key>{rule}", f"player_{name}", player, methods=["GET"])
        return view

    return register


def load_table(key: str, can_edit: bool) -> Table:
    try:
        if can_edit:
            session = store.get_session(get_db(), key)
        else:
            session = store.get_session_by_watch_id(get_db(), key)
    except store.NotFound:
        abort(404)
    remember(session.id if can_edit else session.watch_id)
    return Table(session, can_edit)


def load_player_table(token: str) -> Table:
    """A player's own link: the table as watchers see it, for that seat."""
    try:
        session, seat = store.session_by_seat_link(get_db(), token)
    except store.NotFound:
        abort(404)
    remember(session.watch_id)  # the home page lists it as watching
    return Table(session, False, seat, token)


def remember(key: str) -> None:
    """The home page lists only the sessions this browser created or opened."""
    mine = cookie.get("mine", [])
    if mine[:1] == [key]:
        return  # already the newest: leave the cookie as it is (no new Set-Cookie)
    cookie["mine"] = [key] + [k for k in mine if k != key][: REMEMBERED - 1]
    cookie.permanent = True


def remembered() -> list[str]:
    return cookie.get("mine", [])


def remembered_circles() -> list[str]:
    """The circles this browser made or manages (the home page lists them)."""
    return cookie.get("circles", [])


def remembered_nights() -> list[str]:
    """The club nights this browser made or organizes (the home page lists them)."""
    return cookie.get("nights", [])


def is_unlocked(session: store.Session) -> bool:
    return not session.pin_hash or session.id in cookie.get("unlocked", [])


def unlock(session: store.Session) -> None:
    """This browser may now change the session (it knew the PIN, or set it)."""
    others = [k for k in cookie.get("unlocked", []) if k != session.id]
    cookie["unlocked"] = [session.id] + others[:REMEMBERED]


TABLE_PAGE = re.compile(r"(/[a-z0-9_.-]+)*\Z")  # "/hands/new", "/hands/3", "/settle": a page of one table


def is_table_page(suffix: str) -> bool:
    """A page under a table's own link (never another site, or another table)."""
    return bool(TABLE_PAGE.match(suffix)) and ".." not in suffix and suffix != "/unlock"


def editable(key: str) -> Table:
    """The scorer's link; with a table PIN, only in a browser that unlocked it."""
    table = load_table(key, True)
    if not is_unlocked(table.session):
        if request.method == "GET":  # then back to the page asked for
            then = request.path.removeprefix(table.url())
            abort(redirect(table.url("/unlock") + (f"?then={then}" if is_table_page(then) and then else "")))
        abort(
            make_response(
                render_template(
                    "error.html", title="Locked", message="This table has a PIN: unlock it to make changes."
                ),
                403,
            )
        )
    return table
