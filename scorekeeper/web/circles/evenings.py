"""A circle's evenings: a new one started from the circle (three members at the
seats, the home page's new-session options), one played elsewhere attached (by its
scorer's link, or its file or sheet PDF imported) with its names matched to members,
one detached; and the whole circle as one archive, exported and imported."""

from __future__ import annotations

import re

from flask import abort, flash, make_response, render_template, request
from werkzeug.datastructures import MultiDict

from ... import store
from ...db import get_db
from ...files.upload import ReaderBusy, checked_record, parsed_upload
from ...rules import BOOKS, InvalidRecord
from ...rules.record import NotJSON, decode_json
from .. import forms
from ..access import remember, remembered, unlock
from ..changes import keep_snapshot
from ..creating import creator, keep_limit, storage_full, too_many_sessions
from ..htmx import redirect
from .links import bp, managed, member_id, on_circle_links, pin_hash_of, remember_circle
from .page import circle_page, refused_here


@bp.post("/c/<key>/sessions")
def start_session(key):
    """A new evening: three members picked for the seats, in the order they sit, and the
    home page's new-session options (the same form fields and reader, ``forms.parse_new_session``)."""
    view = managed(key)
    circle = view.circle
    try:
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    ids = [member_id(request.form.get(f"seat_{s}")) for s in range(3)]
    problems = store.seat_members_problems(circle, ids)
    if problems:
        return refused_here(view, store.Refused(problems), "seats")
    fields = MultiDict(request.form)
    for seat, mid in enumerate(ids):
        fields[f"player_{seat}"] = circle.member(mid).name
    parsed = forms.parse_new_session(fields)
    if parsed.record is None:
        problems = forms.Problems()
        for field, lines in parsed.problems.items():
            for line in lines:
                problems.bad("seats" if field.startswith("player_") else field, line)
        return circle_page(view, dict(problems), dict(request.form.items()), 422)
    # the table's PIN: the one typed, else the circle's
    pin_hash = pin_hash_of(parsed.pin) if parsed.pin else circle.pin_hash
    try:
        session = store.create_session(
            get_db(),
            parsed.record,
            parsed.first_dealer,
            pin_hash=pin_hash,
            scorer=parsed.scorer,
            owner=creator()[0],
            keep_limit=keep_limit(),
            circle=(circle.id, ids),
        )
    except store.StorageFull as full:
        return storage_full(full)
    keep_snapshot(session)
    remember(session.id)
    if pin_hash:
        unlock(session)  # the circle's PIN is the table's (this phone knew it), or it was typed here
    return redirect(f"/s/{session.id}")


SESSION_LINK = re.compile(r"(?:^|/)s/([A-Za-z0-9_-]{24})(?:[/?#]|\Z)|\A([A-Za-z0-9_-]{24})\Z")


@bp.post("/c/<key>/attach")
def attach_by_link(key):
    """An evening already played here, by its scorer's link: on to matching its names to members."""
    view = managed(key)
    raw = request.form.get("link", "").strip()
    match = SESSION_LINK.search(raw)
    session_id = (match.group(1) or match.group(2)) if match else None
    try:
        session = store.get_session(get_db(), session_id) if session_id else None
    except store.NotFound:
        session = None
    if session is None:
        line = (
            "That is a watch link: paste the scorer's link (it has /s/ in it)."
            if "/w/" in raw
            else "Paste the scorer's link of a session here (it has /s/ in it)."
        )
        return refused_here(view, store.Refused([line]), "attach")
    return redirect(view.url(f"/attach/{session.id}"))


@bp.post("/c/<key>/import")
def attach_import(key):
    """A session file or sheet PDF, imported as a session, then matched to members; or
    a club night's sheet (or its record), imported as a night of the circle."""
    view = managed(key)
    try:
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    upload = request.files.get("file")
    text = upload.read() if upload is not None and upload.filename else b""
    try:
        parsed = parsed_upload(text, isolated=True)
        if store.is_night_document(parsed):
            return import_night(view, parsed)
        record = checked_record(parsed)
        already = store.same_session(get_db(), [i for i in remembered() if store.is_token(i)], record)
        session = already or store.create_session(
            get_db(), record, action="import", owner=creator()[0], keep_limit=keep_limit()
        )
    except store.StorageFull as full:
        return storage_full(full)
    except ReaderBusy:
        return refused_here(
            view, store.Refused(["Another PDF is being read right now. Try again in a few seconds."]), "import"
        )
    except (InvalidRecord, store.Refused) as refused:
        return refused_here(view, store.Refused([str(p) for p in refused.problems]), "import")
    if already is None:
        keep_snapshot(session)
    remember(session.id)
    return redirect(view.url(f"/attach/{session.id}"))


def import_night(view, data: dict):
    """A club night's record as a night of the circle (its players matched to the members
    by name, its tables evenings of the circle); the organizer's page (which keeps it in
    this browser). The same record imported again opens the night the first import made. Where
    a player is no member, the night is imported on its own and the next page asks who
    each such player is (``attach_night``), as an attached session's names are asked."""
    circle = view.circle
    imported = store.import_circle_night(get_db(), circle.id, data, owner=creator()[0], keep_limit=keep_limit())
    night = imported.night  # its organizer's page, opened next, keeps it in this browser
    if imported.strangers:
        return redirect(view.url(f"/nights/{night.id}/attach"))
    if imported.already:
        flash(f"{night.name} is already a night of {circle.name}: opened it, no copy made.")
        return redirect(f"/night/{night.id}")
    tables = sum(len(r.tables) for r in night.rounds)
    flash(
        f"{night.name} is imported as a night of {circle.name}: {len(night.players)} players, "
        f"{len(night.rounds)} round{'s' * (len(night.rounds) != 1)} drawn, {tables} table{'s' * (tables != 1)}, "
        "each a new evening of the circle with a link of its own. Keep this page's link: it runs the night."
    )
    return redirect(f"/night/{night.id}")


def night_attach_context(view, night, problems=None, chosen=None):
    circle = view.circle
    return {
        "view": view,
        "circle": circle,
        "night": night,
        "books": BOOKS,
        "problems": problems or {},
        "guess": dict(
            zip((p.id for p in night.players), store.likely_members(circle, [p.name for p in night.players]))
        ),
        "chosen": chosen or {},
    }


@bp.route("/c/<key>/nights/<night_id>/attach", methods=["GET", "POST"])
def attach_night(key, night_id):
    """A club night imported here whose players are not all members: who each of those is
    (a member, a new member of that name, or a guest), then the night is the circle's."""
    view = managed(key)
    db, circle = get_db(), view.circle
    try:
        night = store.get_night(db, night_id)
    except store.NotFound:
        abort(404)
    if night.pin_hash:  # an imported night has none; one with a PIN is asked about on its own page, not here
        abort(404)
    if request.method == "GET":
        return render_template("circle_night_attach.html", **night_attach_context(view, night))
    guess = store.likely_members(circle, [p.name for p in night.players])
    chosen = {p.id: request.form.get(f"player_{p.id}", "") for p, g in zip(night.players, guess) if g is None}
    wanted = [
        g
        if g is not None
        else p.name
        if chosen[p.id] == "new"
        else None
        if chosen[p.id] == "guest"
        else member_id(chosen[p.id]) or -1  # anything else: said as a problem
        for p, g in zip(night.players, guess)
    ]
    try:
        night = store.attach_night(db, circle.id, night.id, wanted)
    except store.Refused as refused:
        problems = forms.Problems()
        for line in refused.lines():
            problems.bad("players", line)
        return render_template(
            "circle_night_attach.html", **night_attach_context(view, night, dict(problems), chosen)
        ), 422
    tables = sum(not t.session_gone for r in night.rounds for t in r.tables)
    flash(
        f"{night.name} is now a night of {circle.name}: its {tables} table{'s' * (tables != 1)} "
        f"{'are evenings' if tables != 1 else 'is an evening'} of the circle. Keep this page's link: it runs "
        "the night."
    )
    return redirect(f"/night/{night.id}")


def attach_context(view, session, problems=None, chosen=None):
    circle = view.circle
    guess = store.likely_members(circle, session.players)
    return {
        "view": view,
        "circle": circle,
        "session": session,
        "books": BOOKS,
        "problems": problems or {},
        "chosen": chosen or ["" if g is None else str(g) for g in guess],
        "held": store.circle_of_session(get_db(), session.id),
    }


@bp.route("/c/<key>/attach/<session_id>", methods=["GET", "POST"])
def attach_session(key, session_id):
    """Each name as played, matched to a member (or a new member of that name)."""
    view = managed(key)
    try:
        session = store.get_session(get_db(), session_id)
    except store.NotFound:
        abort(404)
    if request.method == "GET":
        return render_template("circle_attach.html", **attach_context(view, session))
    chosen = [request.form.get(f"seat_{s}", "") for s in range(3)]
    db, circle = get_db(), view.circle
    wanted = [session.players[seat] if raw == "new" else member_id(raw) for seat, raw in enumerate(chosen)]
    try:
        store.attach_session(db, circle.id, session.id, wanted)
    except store.Refused as refused:
        problems = forms.Problems()
        for line in refused.lines():
            problems.bad("seats", line)
        return render_template("circle_attach.html", **attach_context(view, session, dict(problems), chosen)), 422
    except store.NotFound:
        abort(404)
    flash(f"{session.title or ' · '.join(session.players)} is now an evening of {circle.name}.")
    return redirect(view.url())


@bp.post("/c/<key>/evenings/<session_id>/detach")
def detach_session(key, session_id):
    view = managed(key)
    try:
        store.detach_session(get_db(), view.circle.id, session_id)
    except store.NotFound:
        abort(404)
    except store.Refused as refused:
        return refused_here(view, refused, "evenings")
    flash("That evening is no longer one of the circle's (the session itself is kept).")
    return redirect(view.url())


@on_circle_links("/export.json")
def export(view):
    response = make_response(store.archive(get_db(), view.circle))
    response.headers["Content-Type"] = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="circle-{safe_name(view.circle.name)}.json"'
    return response


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "circle"


@bp.post("/circles/import")
def import_circle():
    """A circle's archive (``gleek-circle/1``), as a new circle with new links."""
    try:
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    upload = request.files.get("file")
    data = upload.read(MAX_ARCHIVE_BYTES + 1) if upload is not None and upload.filename else b""
    problems = []
    if len(data) > MAX_ARCHIVE_BYTES:
        problems = [f"That archive is too large (at most {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB)."]
    else:
        try:
            found = decode_json(data)
        except NotJSON as why:
            problems = [f"That is not a circle's archive: not valid JSON ({why})."]
    if not problems:
        try:
            circle = store.import_archive(
                get_db(),
                found,
                owner=creator()[0],
                keep_limit=keep_limit("CIRCLES_PER_ADDRESS"),
                sessions_limit=keep_limit(),
            )
        except store.StorageFull as full:
            return storage_full(full)
        except store.Refused as refused:
            problems = refused.lines()
    if problems:
        return render_template("import_failed.html", problems=problems), 422
    remember_circle(circle.id)
    flash(f"{circle.name} is imported, with its {len(circle.members)} members and its evenings.")
    return redirect(f"/c/{circle.id}")


MAX_ARCHIVE_BYTES = 32 * 1024 * 1024
