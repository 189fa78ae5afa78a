"""A circle's two links: the manage link (``/c/<id>``) and the members' read-only
link (``/cw/<watch id>``), the blueprint they share, the PIN that guards the manage
link, and the circles this browser remembers.

Pages that only read are registered under both links (``on_circle_links``); every POST
is under ``/c/`` only and goes through ``managed`` (which honours the circle's PIN), so
the members' link can change nothing, by construction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from flask import Blueprint, abort, make_response, render_template, request, session as cookie
from werkzeug.security import check_password_hash, generate_password_hash

from ... import store
from ...db import get_db
from ..access import REMEMBERED, remembered_circles
from ..htmx import redirect
from ..pins import refusal

bp = Blueprint("circles", __name__)


@dataclass
class CircleView:
    """A circle as one of its links sees it: the manage link (``can_manage``),
    unlocked in this browser or not, or the members' link."""

    circle: store.Circle
    can_manage: bool
    unlocked: bool = False

    @property
    def sees_scorer_links(self) -> bool:
        """Whether the pages may link to each evening's scorer's link: only the
        manage link, and where the circle has a PIN only once this browser
        unlocked it (else its pages are the members' link's, watch links)."""
        return self.can_manage and self.unlocked

    @property
    def kind(self) -> str:
        """What a page kept for this link is kept by: "manage", "locked" or "members"."""
        return ("manage" if self.unlocked else "locked") if self.can_manage else "members"

    def evening_url(self, session_id: str, watch_id: str) -> str:
        return f"/s/{session_id}" if self.sees_scorer_links else f"/w/{watch_id}"

    @property
    def key(self) -> str:
        return self.circle.id if self.can_manage else self.circle.watch_id

    def url(self, suffix: str = "") -> str:
        return f"/{'c' if self.can_manage else 'cw'}/{self.key}{suffix}"

    @property
    def watch_url(self) -> str:
        return f"/cw/{self.circle.watch_id}"


def on_circle_links(rule: str):
    """A read-only page under the manage link and the members' link."""

    def register(view):
        name = view.__name__.lstrip("_")
        bp.add_url_rule(f"/c/<key>{rule}", name, lambda key, **kw: view(load_circle(key, True), **kw), methods=["GET"])
        bp.add_url_rule(
            f"/cw/<key>{rule}", f"watch_{name}", lambda key, **kw: view(load_circle(key, False), **kw), methods=["GET"]
        )
        return view

    return register


def load_circle(key: str, can_manage: bool) -> CircleView:
    try:
        circle = (store.get_circle if can_manage else store.get_circle_by_watch_id)(get_db(), key)
    except store.NotFound:
        abort(404)
    remember_circle(circle.id if can_manage else circle.watch_id)
    return CircleView(circle, can_manage, can_manage and circle_unlocked(circle))


def remember_circle(key: str) -> None:
    mine = cookie.get("circles", [])
    if mine[:1] != [key]:
        cookie["circles"] = [key] + [k for k in mine if k != key][: REMEMBERED - 1]
        cookie.permanent = True


def circle_unlocked(circle: store.Circle) -> bool:
    return not circle.pin_hash or circle.id in cookie.get("circles_unlocked", [])


def unlock_circle(circle: store.Circle) -> None:
    cookie["circles_unlocked"] = [circle.id] + [k for k in cookie.get("circles_unlocked", []) if k != circle.id][
        :REMEMBERED
    ]


def managed(key: str) -> CircleView:
    """The manage link; with a PIN, only in a browser that unlocked it."""
    view = load_circle(key, True)
    if not circle_unlocked(view.circle):
        if request.method == "GET":
            abort(redirect(view.url("/unlock")))
        abort(
            make_response(
                render_template(
                    "error.html", title="Locked", message="This circle has a PIN: unlock it to make changes."
                ),
                403,
            )
        )
    return view


def circle_of(session_id: str) -> dict | None:
    """For a session's pages: the circle holding it, as this browser may open it
    (the manage link if this browser has it, else the members' link)."""
    db = get_db()
    circle_id = store.circle_of_session(db, session_id)
    if circle_id is None:
        return None
    circle = store.get_circle(db, circle_id)
    url = f"/c/{circle.id}" if circle.id in remembered_circles() else f"/cw/{circle.watch_id}"
    return {"name": circle.name, "url": url}


def pin_hash_of(pin: str) -> str:
    """A PIN as it is kept (the hash a restore accepts): the circle's, or a new evening's table's."""
    return generate_password_hash(pin, method=store.PIN_METHOD)


def member_id(raw) -> int | None:
    """A member's id as a form posts it; anything else None (said as a problem, never an error page)."""
    return int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) < 12 else None


@bp.route("/c/<key>/unlock", methods=["GET", "POST"])
def unlock_page(key):
    view = load_circle(key, True)
    circle = view.circle
    if not circle.pin_hash:
        return redirect(view.url())
    problem, status = "", 200
    if request.method == "POST":
        attempt = store.reserve_pin_try(get_db(), circle.id, request.remote_addr, time.time(), kind="circle")
        if attempt.id is None:
            problem, status = refusal(attempt).replace("this table", "this circle"), 429
        elif check_password_hash(circle.pin_hash, request.form.get("pin", "")):
            store.forget_pin_try(get_db(), attempt.id, kind="circle")
            unlock_circle(circle)
            return redirect(view.url())
        else:
            problem, status = "That PIN is not right.", 403
    return render_template("circle_unlock.html", view=view, circle=circle, problem=problem), status
