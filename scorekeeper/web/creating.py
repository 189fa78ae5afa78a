"""What making something new shares, for the home page's and the circles' and club
nights' forms alike: who is making it (the per-address limits), the refusals (429 too
many tries, 507 too many kept), and the home page the new-session and new-circle forms
are on (re-shown with what was typed and its problems)."""

from __future__ import annotations

from flask import current_app, render_template, request

from .. import store
from ..db import get_db
from ..rules import BOOKS
from . import forms
from .access import remembered, remembered_circles, remembered_nights
from .hosting import setting


def home_page(values: dict, problems: dict, status: int = 200):
    """This browser's sessions, the new-session form (with what was typed) and import."""
    mine = store.sessions_by_ids(get_db(), remembered())
    circles = store.circles_by_ids(get_db(), remembered_circles())
    nights = store.nights_by_ids(get_db(), remembered_nights())
    return render_template(
        "home.html",
        mine=mine,
        editable=set(remembered()),
        books=BOOKS,
        values=values,
        circles=circles,
        managing=set(remembered_circles()),
        nights=nights,
        problems=problems,
        stakes=forms.STAKE_LABELS,
        currencies=forms.CURRENCIES,
    ), status


def creator() -> tuple[str, int]:
    """Who is trying to create a session, for the per-address limit: (address, tries a minute)."""
    return request.remote_addr or "unknown", current_app.config["SESSIONS_PER_MINUTE"]


def keep_limit(what: str = "SESSIONS_PER_ADDRESS") -> int | None:
    """How many sessions (``what``: or ``"CIRCLES_PER_ADDRESS"``, circles) one client
    address may keep (a hosted server's cap)."""
    return setting(current_app, what)


def storage_full(full: store.StorageFull):
    """507: this address keeps the most sessions (or circles) it may."""
    if request.is_json:
        return {"problems": [str(full)]}, 507
    return render_template("error.html", title=f"Too many {full.what} kept", message=str(full)), 507


def too_many_sessions(limited: store.RateLimited):
    """429, saying when to try again (Retry-After too); the server's door refuses
    this address's uploads meanwhile before their body is read (server/door.py:
    the server gives the app its ``hold_off`` when it serves it)."""
    hold_off = current_app.extensions.get("scorekeeper.hold_off")  # none without the door (flask run, tests)
    if hold_off is not None:
        hold_off(request.remote_addr, limited.retry_after)
    headers = {"Retry-After": str(limited.retry_after)}
    if request.is_json:
        return {"problems": [str(limited)], "retry_after": limited.retry_after}, 429, headers
    return render_template("error.html", title="Too many new sessions", message=str(limited)), 429, headers
