"""Paying what is owed: a debt marked paid (under the circle's What is owed, or
beside an evening's own payment on its Settle up page), an evening settled at
the table, a payment taken back.

Each is idempotent: what is owed is read inside the one write transaction that
records (``store.paying``, ``BEGIN IMMEDIATE``), and each form carries the
circle's version and the debt its page showed (payer, payee, amount, unit,
evenings). A second tap, or a form whose debt is no longer owed exactly so, marks
nothing and is answered 409 with the page as it is now and a line saying why;
a payment taken back twice is taken back once.

The evening's Settle up page (``/s/<id>/settle``, the scorer's link only) marks
the evening's own payments: what it owes by itself, less the payments marked for
it alone; once they are all marked it closes, as when it is settled at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, request

from .. import store
from ..db import get_db
from . import forms
from .access import editable
from .circle_figures import figures, member_of, open_debts
from .evening_debts import evening_debts
from .htmx import redirect
from ..words.wording import amount_text, evening_names
from .sheets import settle_page

bp = Blueprint("owed", __name__)


class NotOwed(Exception):
    """What the form was based on is not what is owed now: nothing was marked."""

    def __init__(self, line: str):
        super().__init__(line)
        self.line = line


@dataclass(frozen=True)
class Posted:
    """A Mark-paid (or Settled-at-the-table) form as posted: the circle's version
    its page showed, the debt it was for, who marks it and on which day."""

    based_on: int | None
    due: store.Due | None
    paid_by: str | None  # the member's name, None if the form named nobody
    paid_on: str


def number(raw) -> int | None:
    return int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) < 12 else None


def posted(circle: store.Circle) -> Posted:
    form = request.form
    payer, payee = member_of(form.get("payer", "")), member_of(form.get("payee", ""))
    amount = store.amount_of(form.get("amount", ""))
    evenings = tuple(sorted(e for e in form.get("evenings", "").split(",") if e))
    due = None
    if payer is not None and payee is not None and amount is not None and evenings:
        due = store.Due(payer, payee, amount, form.get("currency") or "counters", evenings)
    return Posted(
        number(form.get("based_on")),
        due,
        circle.names().get(number(form.get("paid_by"))),
        form.get("paid_on", "").strip(),
    )


def due_of(debt) -> store.Due:
    """A debt as the season computes it (members as ``#id``), as the store marks it paid."""
    return store.Due(
        member_of(debt.payer),
        member_of(debt.payee),
        debt.amount,
        debt.currency or "counters",
        tuple(sorted(debt.evenings)),
    )


def settled_now(db, circle: store.Circle, evening: str | None = None) -> list[str]:
    """After a payment: the open evenings it settles. A currency (or counters) with
    nothing left owed closes its open evenings; ``evening``, once its own payments
    are all marked."""
    debts, open_figures = open_debts(db, circle)
    owing = {d.currency for d in debts}
    done = [f.key for f in open_figures if (f.stake.currency if f.stake is not None else None) not in owing]
    if evening is not None and not evening_debts(db, circle, evening):
        done.append(evening)
    return done


def mark_paid(db, circle: store.Circle, form: Posted, evening: str | None = None) -> store.Paying:
    """The form's debt marked paid, in one transaction with what it settles closed,
    if it is owed now exactly as its page showed it and was not marked from that
    page already (``NotOwed`` otherwise, nothing marked). Another debt marked from
    the same page meanwhile does not stop it, when this one is still owed the same.
    ``evening``: one of that evening's own payments (its Settle up page)."""
    if form.paid_by is None:
        raise store.Refused(["Say who marks it paid."])
    if form.due is None or form.based_on is None:
        raise NotOwed(changed_line())
    figures(db, circle.id)  # settled before the write lock is taken; inside it they are read back from memory
    with store.paying(db, circle.id, form.based_on, exact=False) as till:
        done = till.marked_already(form.due)
        if done is not None:
            raise NotOwed(marked_line(circle, form.due, done))
        debts = evening_debts(db, circle, evening) if evening is not None else open_debts(db, circle)[0]
        if form.due not in {due_of(d) for d in debts}:
            raise NotOwed(stale_line(db, circle, form.due))
        till.record(form.due, form.paid_by, form.paid_on)
        till.close(settled_now(db, circle, evening))
    return till


def settle_evening(db, circle: store.Circle, session_id: str, form: Posted) -> store.Paying:
    """An evening settled at the table: its own payments still owed marked paid, and
    it closes, in one transaction (``NotOwed`` if it is settled already, or what is
    owed changed since the page was shown)."""
    if form.paid_by is None:
        raise store.Refused(["Say who marks it paid."])
    if form.based_on is None:
        raise NotOwed(changed_line())
    figures(db, circle.id)
    try:
        with store.paying(db, circle.id, form.based_on) as till:
            if session_id not in store.open_evening_ids(db, circle.id):
                raise NotOwed(settled_line(db, circle, session_id))
            for debt in evening_debts(db, circle, session_id):
                till.record(due_of(debt), form.paid_by, form.paid_on or forms.today())
            till.close([session_id])
    except store.StaleEdit:
        if session_id not in store.open_evening_ids(db, circle.id):
            raise NotOwed(settled_line(db, circle, session_id)) from None
        raise NotOwed(changed_line()) from None
    return till


def changed_line() -> str:
    return (
        "What is owed changed since this page was shown (a payment was marked, or a hand saved): "
        "nothing was marked. Here is what is owed now; mark it again if it is still owed."
    )


def stale_line(db, circle: store.Circle, due: store.Due) -> str:
    """Why a debt no longer owed was not marked: marked already (another phone), or what is owed changed."""
    done = store.payment_for(db, circle.id, due)
    return changed_line() if done is None else marked_line(circle, due, done)


def marked_line(circle: store.Circle, due: store.Due, done: store.Payment) -> str:
    names = circle.names()
    return (
        f"{names.get(due.payer, '?')} paying {names.get(due.payee, '?')} "
        f"{amount_text(due.amount, None if due.unit == 'counters' else due.unit)} is marked paid already "
        f"(by {done.paid_by}, on {done.paid_on}): nothing was marked twice."
    )


def settled_line(db, circle: store.Circle, session_id: str) -> str:
    name = evening_names(store.evening_links(db, circle.id)).get(session_id, "That evening")
    return f"{name} is settled already: nothing was marked twice."


def taken_back_line() -> str:
    return "That payment is taken back already: nothing changed."


def paid_line(circle: store.Circle, till: store.Paying) -> str:
    """ "Cat paid Ann 4s 4d." for each payment marked, and the evenings it settled."""
    names = circle.names()
    lines = [
        f"{names[p.payer]} paid {names[p.payee]} {amount_text(p.amount, None if p.unit == 'counters' else p.unit)}."
        for p in till.marked
    ]
    if till.closed:
        named = evening_names(store.evening_links(get_db(), circle.id))
        lines.append(f"Settled: {'; '.join(name for key, name in named.items() if key in till.closed)}.")
    return " ".join(lines)


# ------------------------------------------------------------------ an evening's Settle up page


def evening_circle(table) -> store.Circle:
    circle_id = store.circle_of_session(get_db(), table.session.id)
    if circle_id is None:
        abort(404)
    return store.get_circle(get_db(), circle_id)


@bp.post("/s/<key>/settle/pay")
def pay_on_settle_up(key):
    """One of the evening's own payments marked paid, from its Settle up page."""
    table = editable(key)
    db, circle = get_db(), evening_circle(table)
    try:
        till = mark_paid(db, circle, posted(circle), evening=table.session.id)
    except NotOwed as stale:
        return settle_page(table, [stale.line], 409)
    except store.Refused as refused:
        return settle_page(table, refused.lines(), 422)
    flash(paid_line(circle, till))
    return redirect(table.url("/settle"))


@bp.post("/s/<key>/settle/payments/<int:payment_id>/undo")
def undo_on_settle_up(key, payment_id):
    """A payment marked by mistake on the Settle up page, taken back (the evening opens again)."""
    table = editable(key)
    db, circle = get_db(), evening_circle(table)
    try:
        store.undo_payment(db, circle.id, payment_id, evening=table.session.id)
    except store.NotFound:
        return settle_page(table, [taken_back_line()], 409)
    flash("That payment is taken back: the evening is open again.")
    return redirect(table.url("/settle"))
