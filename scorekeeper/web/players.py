"""The other players agree each hand, where the session asks for it: on the
scorer's phone passed round (the verification card after Save), or each on his
own link (``/p/<token>``), whose one power is to agree to, or dispute, hands
for his seat. An OK counts for the hand as it was seen: an edit of the hand
clears it (``store.fingerprint``). The table never waits for OKs."""

from __future__ import annotations

from flask import Blueprint, abort, flash, request

from .. import store
from ..db import get_db
from ..limits import MAX_REASON
from ..rules.core import is_text
from .access import editable, load_player_table
from .htmx import redirect
from ..form.fields import seat_of

bp = Blueprint("players", __name__)


@bp.post("/p/<key>/hands/<int:number>/ok")
def ok(key, number):
    table = load_player_table(key)
    return give(table, number, table.seat, "ok")


@bp.post("/p/<key>/hands/<int:number>/dispute")
def dispute(key, number):
    table = load_player_table(key)
    reason = " ".join(request.form.get("reason", "").split())
    if not reason or len(reason) > MAX_REASON or not is_text(reason):
        flash(f"Say in a few words what is wrong with hand {number} (at most {MAX_REASON} characters).")
        return redirect(table.url(f"#hand-{number}"))
    return give(table, number, table.seat, "dispute", reason)


@bp.post("/s/<key>/hands/<int:number>/agree")
def agree(key, number):
    """A player taps his own name on the verification card, on the scorer's phone."""
    table = editable(key)
    seat = seat_of(request.form.get("seat"))
    if seat is None:
        abort(400)
    return give(table, number, seat, "ok")


@bp.post("/s/<key>/scorer")
def scorer(key):
    """Who keeps the score (or nobody in particular), changed on the table page."""
    table = editable(key)
    if not table.session.confirm:
        abort(404)
    chosen = request.form.get("scorer", "")
    seat = None if chosen == "none" else seat_of(chosen)
    if seat is None and chosen != "none":
        flash("Choose who keeps the score, or “None of us”.")
        return redirect(table.url())
    session = store.set_scorer(get_db(), table.session.id, seat)
    names = session.players
    if seat is None:
        flash("Nobody in particular keeps the score: any two players' OKs agree a hand.")
    else:
        others = [names[s] for s in range(3) if s != seat]
        flash(f"{names[seat]} keeps the score: {others[0]}'s and {others[1]}'s OKs agree each hand.")
    return redirect(table.url())


def give(table, number: int, seat: int, verdict: str, reason: str = ""):
    session = table.session
    if not session.confirm or not 1 <= number <= len(session.hands):
        abort(404)
    if verdict == "ok" and seat == session.scorer:  # his own OK does not count: none is recorded
        flash(f"{session.players[seat]} keeps the score: the other two players agree each hand.")
        return redirect(table.url())
    try:
        store.give_verdict(get_db(), session.id, number, seat, request.form.get("seen", ""), verdict, reason)
    except store.StaleVerdict:
        flash(f"Hand {number} was changed since you looked at it: check it again.")
        return redirect(table.url())
    name = session.players[seat]
    flash(f"{name} agreed to hand {number}." if verdict == "ok" else f"{name} disputed hand {number}: {reason}")
    return redirect(table.url())
