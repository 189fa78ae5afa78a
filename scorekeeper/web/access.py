"""Who may do what with a link.

A session has two links: the scorer's (``/s/<id>``), which can change the
scores, and the watch link (``/w/<watch id>``), which only reads. A view gets a
``Table``: the session as that link sees it. Read-only pages are registered on
both links at once (``on_both_links``); pages that change something are only
under ``/s/`` and go through ``editable`` (which also honours a table PIN), so
the watch link is read-only by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, make_response, render_template, request, session as cookie

from .. import store
from ..db import get_db
from .htmx import redirect

REMEMBERED = 30  # sessions a browser lists on its home page


@dataclass
class Table:
    """A session as one of its two links sees it."""

    session: store.Session
    can_edit: bool

    @property
    def key(self) -> str:
        return self.session.id if self.can_edit else self.session.watch_id

    @property
    def prefix(self) -> str:
        return "s" if self.can_edit else "w"

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

        bp.add_url_rule(f"/s/<key>{rule}", name, scorer, methods=["GET"])
        bp.add_url_rule(f"/w/<key>{rule}", f"watch_{name}", watcher, methods=["GET"])
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


def remember(key: str) -> None:
    """The home page lists only the sessions this browser created or opened."""
    mine = cookie.get("mine", [])
    if mine[:1] == [key]:
        return  # already the newest: leave the cookie as it is (no new Set-Cookie)
    cookie["mine"] = [key] + [k for k in mine if k != key][: REMEMBERED - 1]
    cookie.permanent = True


def remembered() -> list[str]:
    return cookie.get("mine", [])


def is_unlocked(session: store.Session) -> bool:
    return not session.pin_hash or session.id in cookie.get("unlocked", [])


def unlock(session: store.Session) -> None:
    """This browser may now change the session (it knew the PIN, or set it)."""
    others = [k for k in cookie.get("unlocked", []) if k != session.id]
    cookie["unlocked"] = [session.id] + others[:REMEMBERED]


def editable(key: str) -> Table:
    """The scorer's link; with a table PIN, only in a browser that unlocked it."""
    table = load_table(key, True)
    if not is_unlocked(table.session):
        if request.method == "GET":
            abort(redirect(table.url("/unlock")))
        abort(make_response(render_template("error.html", title="Locked",
                                            message="This table has a PIN: unlock it to make changes."), 403))
    return table
