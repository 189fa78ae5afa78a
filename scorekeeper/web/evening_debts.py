"""What an evening of a circle still owes by itself, and its payments as its Settle
up page shows them (each still owed, or marked paid for it alone): shared by
paying what is owed (``owed``) and the Settle up page (``sheets``)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import store
from ..db import get_db
from . import forms
from .circle_figures import figures, member_of, owed_alone


def evening_debts(db, circle: store.Circle, session_id: str) -> list:
    """What an open evening still owes by itself: its own payments less those marked
    for it alone (none once it is closed)."""
    if session_id not in store.open_evening_ids(db, circle.id):
        return []
    evening = next(f for f in figures(db, circle.id) if f.key == session_id)
    return owed_alone(evening, store.payments(db, circle.id))


@dataclass(frozen=True)
class Line:
    """One payment of the evening's Settle up page, as its circle knows it: the debt
    still owed (a Mark paid form) or the payment marked for it (a Take back)."""

    payer: int  # the member who pays (who marks it paid, unless changed)
    due: object | None  # the season's ``Debt``, still owed by this evening alone
    paid: store.Payment | None


def evening_payments(table, settlement) -> dict:
    """For the Settle up page of an evening a circle holds: each of its payments'
    ``Line`` (by the settlement's payments, in order), the circle's version and
    members, and whether the evening is closed. Empty for a session of no circle."""
    db = get_db()
    session = table.session
    circle_id = store.circle_of_session(db, session.id)
    if circle_id is None:
        return {}
    circle = store.get_circle(db, circle_id)
    members = [seat.member_id for seat in store.seats_of(db, session.id)]
    debts = {(member_of(d.payer), member_of(d.payee)): d for d in evening_debts(db, circle, session.id)}
    marked = {}
    for p in store.payments(db, circle.id):
        if p.evenings == (session.id,):
            marked[(p.payer, p.payee)] = p  # the last one marked
    lines = []
    for p in settlement.payments:
        pair = (members[p.payer], members[p.payee])
        lines.append(Line(pair[0], debts.get(pair), marked.get(pair)))
    return {
        "circle_pay": {
            "circle": circle,
            "lines": lines,
            "version": circle.version,
            "closed": session.id not in store.open_evening_ids(db, circle.id),
            "members": circle.members,
            "today": forms.today(),
        }
    }
