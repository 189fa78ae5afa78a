"""The home page (this browser's sessions), a new session, import, the rules page."""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, flash, render_template, request, url_for
from werkzeug.security import generate_password_hash

from .. import store
from ..db import get_db
from ..rules import BOOKS, DEFAULT_BOOK, NOT_IMPLEMENTED, InvalidRecord
from ..files.upload import ReaderBusy, load_upload
from . import forms
from .access import remember, remembered, remembered_circles, remembered_nights, unlock
from .changes import keep_snapshot
from .hosting import setting
from .htmx import redirect

bp = Blueprint("home", __name__)


@bp.get("/")
def home():
    return home_page({"rulebook": DEFAULT_BOOK, "played_on": forms.today(), "first_dealer": "0", "stake": ""}, {})


def home_page(values: dict, problems: dict, status: int = 200):
    """This browser's sessions, the new-session form (with what was typed) and import."""
    mine = store.sessions_by_ids(get_db(), remembered())
    circles = store.circles_by_ids(get_db(), remembered_circles())
    nights = store.nights_by_ids(get_db(), remembered_nights())
    return render_template("home.html", mine=mine, editable=set(remembered()), books=BOOKS, values=values,
                           circles=circles, managing=set(remembered_circles()), nights=nights,
                           problems=problems, stakes=forms.STAKE_LABELS, currencies=forms.CURRENCIES), status


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
    hold_off = current_app.extensions.get("scorekeeper.hold_off")   # none without the door (flask run, tests)
    if hold_off is not None:
        hold_off(request.remote_addr, limited.retry_after)
    headers = {"Retry-After": str(limited.retry_after)}
    if request.is_json:
        return {"problems": [str(limited)], "retry_after": limited.retry_after}, 429, headers
    return render_template("error.html", title="Too many new sessions", message=str(limited)), 429, headers


@bp.post("/sessions")
def create_session():
    try:   # every try counts, before any work is done on it: a refused one costs too
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    parsed = forms.parse_new_session(request.form)
    if parsed.record is None:
        return home_page(parsed.values, parsed.problems, 422)
    pin_hash = None
    if parsed.pin:
        pin_hash = generate_password_hash(parsed.pin, method=store.PIN_METHOD)  # the hash a restore accepts
    try:
        session = store.create_session(get_db(), parsed.record, parsed.first_dealer, pin_hash=pin_hash,
                                       scorer=parsed.scorer, owner=creator()[0], keep_limit=keep_limit())
    except store.StorageFull as full:
        return storage_full(full)
    keep_snapshot(session)
    remember(session.id)
    if pin_hash:
        unlock(session)
    return redirect(f"/s/{session.id}")


@bp.post("/import")
def import_record():
    try:   # every import counts, before its upload is even parsed: a refused one costs too
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        text = upload.read()
    elif request.is_json or (request.mimetype or "").endswith("json"):
        text = request.get_data()
    else:
        text = request.form.get("record", "").encode()
    try:  # a JSON record, or a sheet PDF carrying one (read in a child process, under limits)
        record = load_upload(text, isolated=True)
        already = store.same_session(get_db(), [i for i in remembered() if store.is_token(i)], record)
        if already is not None and not request.is_json:
            flash(f"This sheet is already here as {already.title or ' · '.join(already.players)}"
                  f" ({len(already.hands)} hand{'s' if len(already.hands) != 1 else ''}): opened it, no copy made.")
            return redirect(f"/s/{already.id}")
        session = store.create_session(get_db(), record, action="import", owner=creator()[0],
                                       keep_limit=keep_limit())
    except store.StorageFull as full:
        return storage_full(full)
    except ReaderBusy as busy:
        message = "Another PDF is being read right now. Try again in a few seconds."
        headers = {"Retry-After": str(busy.retry_after)}
        if request.is_json:
            return {"problems": [message], "retry_after": busy.retry_after}, 503, headers
        return render_template("error.html", title="Importing", message=message), 503, headers
    except (InvalidRecord, store.Refused) as refused:
        problems = [str(p) for p in refused.problems]
        if request.is_json:
            return {"problems": problems}, 422
        return render_template("import_failed.html", problems=problems), 422
    keep_snapshot(session)
    remember(session.id)
    return redirect(f"/s/{session.id}")


@bp.get("/rules")
def rules():
    return render_template("rules.html", books=BOOKS.values(), not_implemented=NOT_IMPLEMENTED)


@bp.get("/favicon.ico")
def favicon():
    return current_app.send_static_file("icons/icon-192.png")


@bp.get("/manifest.webmanifest")
def manifest():
    icon = {"type": "image/png"}
    data = {
        "name": "Gleek scorekeeper", "short_name": "Gleek", "start_url": "/", "display": "standalone",
        "background_color": "#14231c", "theme_color": "#14231c",
        "icons": [dict(icon, src=url_for("static", filename="icons/icon-192.png"), sizes="192x192"),
                  dict(icon, src=url_for("static", filename="icons/icon-512.png"), sizes="512x512")],
    }
    return Response(json.dumps(data), mimetype="application/manifest+json")
