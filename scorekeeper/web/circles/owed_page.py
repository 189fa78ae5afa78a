"""What is owed in a circle (under both links): the fewest payments over the evenings
not yet settled, the payments marked, the evenings reopened since; marking a payment
paid, an evening settled at the table, a payment taken back (the manage link only;
``web/owed.py`` does the marking, once however often it is posted)."""

from __future__ import annotations

from flask import abort, flash, render_template
from markupsafe import Markup

from ... import store
from ...db import get_db
from ...words.wording import and_list, evening_names
from .. import forms
from ..circle_figures import PAGES, evenings_key, member_key, member_of, open_debts, owed_alone
from ..htmx import redirect
from ..owed import NotOwed, mark_paid as mark, paid_line, posted, settle_evening as settle, taken_back_line
from .links import CircleView, bp, circle_unlocked, managed, on_circle_links
from .page import who_in


@on_circle_links("/owed")
def owed_page(view):
    return owed_response(view)


def owed_response(view: CircleView, problems: dict | None = None, status: int = 200):
    """The owed page; its part kept by the versions it comes from (not when it says a problem)."""
    db = get_db()
    if problems:  # after a refused change: the circle as it is now (its version is what the forms carry)
        view = CircleView(store.get_circle(db, view.circle.id), view.can_manage, view.unlocked)
    key = (*evenings_key(db, view.circle), view.kind, forms.today())
    context = None

    def make():
        nonlocal context
        context = owed_context(view, problems)
        return render_template("_circle_owed.html", **context)

    html = make() if problems else PAGES.get(("owed", *key), make)
    return render_template("circle_owed.html", part=Markup(html), view=view, circle=view.circle), status


def owed_context(view: CircleView, problems: dict | None = None) -> dict:
    db, circle = get_db(), view.circle
    who = who_in(circle)
    debts, open_figures = open_debts(db, circle)
    open_ids = {f.key for f in open_figures}
    closed = store.closed_evenings(db, circle.id)
    named = evening_names(store.evening_links(db, circle.id))
    paid = store.payments(db, circle.id)
    # an evening changed after payments were marked for it alone (reopened): what it
    # still owes by itself, so the difference is said beside it, not its whole balance
    paid_alone = {p.evenings[0] for p in paid if len(p.evenings) == 1}
    reopened = {f.key: owed_alone(f, paid) for f in open_figures if f.key in paid_alone}
    return {
        "view": view,
        "circle": circle,
        "debts": debts,
        "open_figures": open_figures,
        "who": who,
        "reopened": reopened,
        "version": circle.version,
        "payer_of": payer_of(open_figures),
        "member_of": member_of,
        "evening_names": named,
        "closed": closed,
        "paid": sorted(paid, key=lambda p: p.id, reverse=True),
        "open_ids": open_ids,
        "member_key": member_key,
        "unlocked": circle_unlocked(circle),
        "problems": problems or {},
        "today": forms.today(),
        "for_text": for_text(named),
        "OPEN_LISTED": 30,
    }


def payer_of(open_figures) -> dict:
    """Each open evening's biggest loser (a member id): who "Settled at the table" is marked by, unless changed."""
    return {f.key: member_of(min(zip(f.money if f.money else f.totals, f.players))[1]) for f in open_figures}


def for_text(named: dict):
    """ "14 Nov and 21 Nov" (``evening_names``); a long run of evenings as its first and
    last ("14 Nov … 3 Mar, 40 evenings")."""
    order = {session_id: number for number, session_id in enumerate(named)}

    def text(ids) -> str:
        days = [named.get(i, "an evening") for i in sorted(ids, key=lambda i: order.get(i, len(order)))]
        if len(days) > 4:
            return f"{days[0]} … {days[-1]}, {len(days)} evenings"
        return and_list(days)

    return text


@bp.post("/c/<key>/owed/pay")
def mark_paid(key):
    """A payment still owed, marked paid (by whom, on which day): once, however often it is posted."""
    view = managed(key)
    db, circle = get_db(), view.circle
    try:
        till = mark(db, circle, posted(circle))
    except NotOwed as stale:
        return owed_response(view, {"stale": [stale.line]}, 409)
    except store.Refused as refused:
        return owed_response(view, {"pay": refused.lines()}, 422)
    flash(paid_line(circle, till))
    return redirect(view.url("/owed"))


@bp.post("/c/<key>/owed/<session_id>/settle")
def settle_evening(key, session_id):
    """An evening settled at the table: its own payments marked paid, and it closes."""
    view = managed(key)
    db, circle = get_db(), view.circle
    if store.circle_of_session(db, session_id) != circle.id:
        abort(404)
    try:
        till = settle(db, circle, session_id, posted(circle))
    except NotOwed as stale:
        return owed_response(view, {"stale": [stale.line]}, 409)
    except store.Refused as refused:
        return owed_response(view, {f"settle_{session_id}": refused.lines()}, 422)
    flash(paid_line(circle, till))
    return redirect(view.url("/owed"))


@bp.post("/c/<key>/owed/payments/<int:payment_id>/undo")
def undo_payment(key, payment_id):
    view = managed(key)
    try:
        store.undo_payment(get_db(), view.circle.id, payment_id)
    except store.NotFound:
        return owed_response(view, {"stale": [taken_back_line()]}, 409)
    flash("That payment is taken back: its evenings are open again.")
    return redirect(view.url("/owed"))
