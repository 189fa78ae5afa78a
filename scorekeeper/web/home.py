"""The home page (this browser's sessions), a new session, import, the rules page."""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, flash, render_template, request, url_for
from werkzeug.security import generate_password_hash

from .. import store
from ..db import get_db
from ..rules import BOOKS, DEFAULT_BOOK, NOT_IMPLEMENTED, InvalidRecord
from ..files.upload import ReaderBusy, checked_record, parsed_upload
from . import forms
from .access import remember, remembered, unlock
from .changes import keep_snapshot
from .creating import creator, home_page, keep_limit, storage_full, too_many_sessions
from .htmx import redirect
from .nights import remember_night

bp = Blueprint("home", __name__)


@bp.get("/")
def home():
    return home_page({"rulebook": DEFAULT_BOOK, "played_on": forms.today(), "first_dealer": "0", "stake": ""}, {})


@bp.post("/sessions")
def create_session():
    try:  # every try counts, before any work is done on it: a refused one costs too
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
        session = store.create_session(
            get_db(),
            parsed.record,
            parsed.first_dealer,
            pin_hash=pin_hash,
            scorer=parsed.scorer,
            owner=creator()[0],
            keep_limit=keep_limit(),
        )
    except store.StorageFull as full:
        return storage_full(full)
    keep_snapshot(session)
    remember(session.id)
    if pin_hash:
        unlock(session)
    return redirect(f"/s/{session.id}")


@bp.post("/import")
def import_record():
    try:  # every import counts, before its upload is even parsed: a refused one costs too
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
        parsed = parsed_upload(text, isolated=True)
        if store.is_night_document(parsed):  # a club night's record, or its sheet
            return import_night(parsed)
        record = checked_record(parsed)
        already = store.same_session(get_db(), [i for i in remembered() if store.is_token(i)], record)
        if already is not None and not request.is_json:
            flash(
                f"This sheet is already here as {already.title or ' · '.join(already.players)}"
                f" ({len(already.hands)} hand{'s' if len(already.hands) != 1 else ''}): opened it, no copy made."
            )
            return redirect(f"/s/{already.id}")
        session = store.create_session(get_db(), record, action="import", owner=creator()[0], keep_limit=keep_limit())
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


def import_night(data: dict):
    """A club night from its record: a new night, new links, its tables new sessions
    (counted against the sessions this address may keep); the organizer's page, which
    this browser keeps. A circle's night comes back without its circle: the page says so."""
    night = store.import_night(get_db(), data, owner=creator()[0], keep_limit=keep_limit())
    remember_night(night.id)
    tables = sum(len(r.tables) for r in night.rounds)
    flash(
        f"{night.name} is imported: {len(night.players)} players, {len(night.rounds)} round"
        f"{'s' * (len(night.rounds) != 1)} drawn, {tables} table{'s' * (tables != 1)}, each a new session with "
        "a link of its own. Keep this page's link: it runs the night."
    )
    if "circle" in data:
        flash(
            f"This was a night of the circle {data['circle']}: it is imported as a night of its own, "
            "without the circle (its tables are not evenings of the circle here)."
        )
    return redirect(f"/night/{night.id}")


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
        "name": "Gleek scorekeeper",
        "short_name": "Gleek",
        "start_url": "/",
        "display": "standalone",
        "background_color": "#14231c",
        "theme_color": "#14231c",
        "icons": [
            dict(icon, src=url_for("static", filename="icons/icon-192.png"), sizes="192x192"),
            dict(icon, src=url_for("static", filename="icons/icon-512.png"), sizes="512x512"),
        ],
    }
    return Response(json.dumps(data), mimetype="application/manifest+json")
