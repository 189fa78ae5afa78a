"""The hand form — a new hand and an edit are one code path — its live check,
save, delete, and the hand detail (both links)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, render_template, request

from .. import store
from ..db import get_db
from ..rules import BOOKS
from .access import Table, editable, load_table, on_both_links
from .changes import based_on, change_or_refuse, keep_snapshot, not_changed, offer_undo
from .context import settlement_of, table_context
from .hand_form import hand_values, parse_hand
from .htmx import redirect, render
from .wording import HAND_ACTIONS, balance_changes

bp = Blueprint("hands", __name__)

NOT_SAVED = "Not saved yet: answer what is marked below, then Save again."


@dataclass
class Target:
    """The hand a form is for: the next hand (``number`` = hands + 1) or one to edit."""

    table: Table
    number: int
    editing: bool

    @property
    def session(self) -> store.Session:
        return self.table.session

    @property
    def book(self):
        return BOOKS[self.session.rulebook]

    @property
    def hands_before(self) -> list:
        return self.session.hands[: self.number - 1]

    @property
    def names(self) -> tuple:
        return tuple(self.session.players)

    def url(self, suffix: str = "") -> str:
        return self.table.url(f"/hands/{self.number}{suffix}" if self.editing else f"/hands{suffix}")

    def parse(self, source):
        return parse_hand(self.book, self.session.options, source, self.names, self.hands_before, self.number)


def target(key: str, number: int | None = None) -> Target:
    table = editable(key)
    if number is None:
        return Target(table, len(table.session.hands) + 1, False)
    if not 1 <= number <= len(table.session.hands):
        abort(404)
    return Target(table, number, True)


def form_page(t: Target, form, message: str = "", status: int = 200):
    context = table_context(t.table)
    context.update(form=form, values=form.values, number=t.number, editing=t.editing, message=message,
                   action=t.url(), check_action=t.url("/check"), version=t.session.version,
                   phase_titles={p.id: p.title for p in t.book.phase_info})
    return render("hand_form.html", "_hand_form.html", status=status, **context)


@bp.get("/s/<key>/hands/new")
def new_hand(key):
    t = target(key)
    if len(t.session.hands) >= store.MAX_HANDS:
        flash(f"This session has {store.MAX_HANDS} hands, the most it can hold. Start a new session.")
        return redirect(t.table.url())
    return form_page(t, t.parse({"dealer": str(t.session.next_dealer())}))


@bp.get("/s/<key>/hands/<int:number>/edit")
def edit_hand(key, number):
    t = target(key, number)
    hand = t.session.hands[number - 1]
    values = hand_values(t.book, t.session.options, hand, t.names, t.hands_before)
    return form_page(t, t.parse(values))


@bp.post("/s/<key>/hands/check", defaults={"number": None})
@bp.post("/s/<key>/hands/<int:number>/check")
def check_hand(key, number):
    t = target(key, number)
    return form_page(t, t.parse(request.form))


@bp.post("/s/<key>/hands", defaults={"number": None})
@bp.post("/s/<key>/hands/<int:number>")
def save_hand(key, number):
    t = target(key, number)
    form = t.parse(request.form)
    if request.form.get("preset"):
        return form_page(t, form)
    if not form.complete:
        return form_page(t, form, NOT_SAVED, 422)
    try:
        if t.editing:
            saved = store.replace_hand(get_db(), t.session.id, t.number, form.hand, based_on())
            flash(balance_changes(settlement_of(t.session), settlement_of(saved), t.names))
        else:
            saved = store.add_hand(get_db(), t.session.id, form.hand, based_on())
    except store.StaleEdit as stale:
        return stale_save(t, form, stale)
    except store.Refused as refused:
        return form_page(t, form, refusal(t, refused), 422)
    keep_snapshot(saved)
    offer_undo()
    return redirect(t.table.url())


def stale_save(t: Target, form, stale):
    """Someone changed the session since this form was opened."""
    fresh = load_table(t.table.key, True)
    if t.editing:
        return form_page(Target(fresh, t.number, True), form, str(stale), 409)
    if fresh.session.hands and fresh.session.hands[-1] == form.hand:
        # a second tap of Save, or Back then Save: this very hand is already in
        flash(f"Hand {len(fresh.session.hands)} was already saved; it is not saved twice.")
        response = redirect(t.table.url())
        response.headers["X-Scorekeeper-Unchanged"] = "already-saved"  # for scripts: nothing stored
        return response
    moved = Target(fresh, len(fresh.session.hands) + 1, False)
    values = dict(form.values, dealer=str(fresh.session.next_dealer()))
    message = (f"Another phone saved hand {moved.number - 1} a moment ago, so this is now hand {moved.number} "
               f"and {fresh.session.players[fresh.session.next_dealer()]} deals. Check it, then Save again.")
    return form_page(moved, moved.parse(values), message, 409)


def refusal(t: Target, refused: store.Refused) -> str:
    """Why the store refused the hand; for an edit that would break a later hand, which."""
    lines = "; ".join(refused.lines())
    later = sorted({p.hand for p in refused.problems if p.hand and p.hand != t.number})
    if t.editing and later:
        return (f"Not saved: with this change, hand {later[0]} would be impossible ({lines}). "
                f"Edit hand {later[0]} first, then this one.")
    return "Not saved: " + lines


@bp.post("/s/<key>/hands/<int:number>/delete")
def delete_hand(key, number):
    t = target(key, number)
    if number != len(t.session.hands):
        return not_changed(t.table, f"Only the last hand can be deleted; edit hand {number} instead.", 422)
    return change_or_refuse(t.table, lambda: store.delete_last_hand(get_db(), t.session.id, based_on()))


@on_both_links(bp, "/hands/<int:number>")
def hand_detail(table, number: int):
    session = table.session
    if not 1 <= number <= len(session.hands):
        abort(404)
    hand, book = session.hands[number - 1], BOOKS[session.rulebook]
    context = table_context(table)
    context.update({
        "number": number,
        "hand": hand,
        "result": context["settlement"].hands[number - 1],
        "reasons": book.reasons(hand, session.options, tuple(session.players)),
        "history": store.history(get_db(), session.id, number) if table.can_edit else [],
        "hand_actions": HAND_ACTIONS,
        "is_last": number == len(session.hands),
    })
    return render_template("hand_detail.html", **context)
