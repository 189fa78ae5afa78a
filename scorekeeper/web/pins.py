"""Unlocking a table that has a PIN (5 wrong tries per 15 minutes from one
device, 100 a day from all of them, a circle's evenings and the circle itself
counted together: store/pins.py)."""

from __future__ import annotations

import time

from flask import Blueprint, render_template, request
from werkzeug.security import check_password_hash

from .. import store
from ..db import get_db
from .access import is_table_page, load_table, unlock
from .htmx import redirect

bp = Blueprint("pins", __name__)


def refusal(attempt: store.PinTry) -> str:
    minutes = max(1, -(-attempt.wait // 60))  # rounded up: never less than the real wait
    later = f"{minutes} minute{'s' if minutes != 1 else ''}" if minutes < 120 else f"{-(-minutes // 60)} hours"
    if attempt.circle_wide:
        return (
            f"Too many wrong PINs today for this circle and its evenings (they share one PIN), from several "
            f"devices. Try again in {later}; a phone already unlocked stays unlocked."
        )
    if attempt.table_wide:
        return (
            f"Too many wrong PINs for this table today, from several devices. Try again in {later}; "
            "a phone already unlocked stays unlocked."
        )
    return f"Too many wrong PINs from this device. Try again in {later}."


@bp.route("/s/<key>/unlock", methods=["GET", "POST"])
def unlock_table(key):
    table = load_table(key, True)
    session = table.session
    then = request.values.get("then", "")
    then = then if is_table_page(then) else ""  # where to go once unlocked: the page asked for
    if not session.pin_hash:
        return redirect(table.url(then))
    problem, status = "", 200
    if request.method == "POST":
        # a try is counted before it is checked: a burst of wrong PINs gets 5 checked
        attempt = store.reserve_pin_try(get_db(), session.id, request.remote_addr, time.time())
        if attempt.id is None:
            problem, status = refusal(attempt), 429
        elif check_password_hash(session.pin_hash, request.form.get("pin", "")):
            store.forget_pin_try(get_db(), attempt.id)
            unlock(session)
            return redirect(table.url(then))
        else:
            problem, status = "That PIN is not right.", 403
    return render_template(
        "unlock.html", table=table, session=session, names=tuple(session.players), problem=problem, then=then
    ), status
