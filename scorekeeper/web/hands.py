"""The hand form — a new hand and an edit are one code path — its taps, Save,
Cancel, delete, and the hand detail (both links).

A new hand is the session's *hand in progress*: every tap stores its answers
(``store.keep_draft``, versioned so two phones never overwrite each other
blindly), so a reload, another phone or a restarted server brings it back;
Save stores the hand and clears it in one transaction; Cancel discards it as a
change that can be undone."""

from __future__ import annotations

from flask import Blueprint, abort, flash, render_template, request

from ..form import answers
from .. import store
from ..db import get_db
from ..words.localtime import viewer_clock
from ..rules import BOOKS
from ..rules.hand import sheet_words
from .access import editable, on_both_links
from .agreement import card
from .changes import (
    based_on,
    change_or_refuse,
    keep_snapshot,
    not_changed,
    offer_undo,
    reopen_asked,
    reopened_note,
    reopening,
    settled_ask,
)
from .conflicts import conflict, merged, refusal, stale_save, with_use
from .context import settlement_of, table_context
from ..form.fields import whole
from ..form.hand_form import hand_values, raw_values
from .htmx import is_fragment_request, redirect
from .target import Target, form_page
from .change_words import HAND_ACTIONS, balance_changes, with_what_changed

bp = Blueprint("hands", __name__)

NOT_SAVED = "Not saved yet: answer what is marked below, then Save again."
NO_DRAFT_VERSION = (
    "This tap did not say which version of the hand in progress it was based on, so it was "
    "not kept; here is the hand as it is now. Check it and tap again."
)


def target(key: str, number: int | None = None) -> Target:
    table = editable(key)
    if number is None:
        return Target(table, len(table.session.hands) + 1, False)
    if not 1 <= number <= len(table.session.hands):
        abort(404)
    return Target(table, number, True)


def posted_draft_version() -> int | None:
    """The version of the hand in progress the posting page shows (None if not given:
    a tap must say what it was based on, so that one is refused)."""
    return whole(request.form.get("draft_version"))


def asked_first(t: Target):
    """The hand form of a settled evening asks first: reopen it on purpose, then
    on to the form (None when the evening is not settled)."""
    settled = store.settled_evening(get_db(), t.session.id)
    if settled is None:
        return None
    then = request.path.removeprefix(t.table.url())
    return settled_ask(
        t.table,
        settled,
        action=t.table.url("/reopen"),
        fields=[("then", then)],
        button="Reopen the evening",
        status=200,
    )


@bp.get("/s/<key>/hands/new")
def new_hand(key):
    t = target(key)
    asked = asked_first(t)
    if asked is not None:
        return asked
    if len(t.session.hands) >= store.MAX_HANDS:
        flash(f"This session has {store.MAX_HANDS} hands, the most it can hold. Start a new session.")
        return redirect(t.table.url())
    draft = store.get_draft(get_db(), t.session.id)
    if draft is not None and draft.number == t.number:
        return form_page(t, t.parse(draft.answers))
    return form_page(t, t.parse({"dealer": str(t.session.next_dealer())}))


@bp.get("/s/<key>/hands/<int:number>/edit")
def edit_hand(key, number):
    t = target(key, number)
    asked = asked_first(t)
    if asked is not None:
        return asked
    hand = t.session.hands[number - 1]
    return form_page(t, t.parse(hand_values(t.book, t.session.options, hand, t.names, t.hands_before)))


@bp.post("/s/<key>/hands/check", defaults={"number": None})
@bp.post("/s/<key>/hands/<int:number>/check")
def tap(key, number):
    """A tap: check the answers (and keep them, for a new hand); answer with
    what changed on the page. A tap of a conflict's "Use this phone's" button
    (``use``) is this phone's answers put into the hand shown."""
    t = target(key, number)
    data = with_use(request.form)
    draft = None
    if not t.editing:
        shown = whole(data.get("draft_version"))
        if shown is None:  # like a save that does not say its version: never applied
            return as_stored(t, NO_DRAFT_VERSION, 409)
        wrong = answers.problems(t.book, t.session.options, raw_values(data), taps=True)
        if wrong:
            return as_stored(t, "Not kept: " + "; ".join(wrong) + ".", 422)
        on = whole(data.get("number"))
        if on is not None and on != t.number:  # this phone was on a hand saved or cancelled since
            return conflict(t, store.StaleDraft(store.get_draft(get_db(), t.session.id), len(t.session.hands)), data)
    form = t.parse(data)
    if not t.editing:
        if form.refused_call and store.draft_version(get_db(), t.session.id) == shown:
            # a call the rules refuse, or an amount too low, on the hand as it is: said, never kept
            # (a phone a version behind is answered below, with the calls as they are now)
            why, box, typed = form.refused_call
            return as_stored(t, "Not kept: " + why, 422, keep={box: typed} if box else None)
        wrong = answers.problems(t.book, t.session.options, form.values)  # what the tap made of them
        if wrong:
            return as_stored(t, "Not kept: " + "; ".join(wrong) + ".", 422)
        try:
            draft = store.keep_draft(get_db(), t.session.id, t.number, form.values, shown)
        except store.StaleDraft as stale:
            return merged(t, stale, data) or conflict(t, stale, data)
    if data.get("preset") or request.form.get("use") or not is_fragment_request():
        return form_page(t, form)
    context = t.context(form, draft=draft, whole_page=False)
    context["changed"] = form.changed(data)
    context["statuses_changed"] = form.statuses_changed(data, t.names)
    return render_template("_hand_update.html", **context)


def as_stored(t: Target, message: str, status: int, keep: dict | None = None):
    """A tap not kept: the form as the hand in progress is stored now, and why
    (``keep``: boxes shown as this phone typed them, a refused amount)."""
    draft = store.get_draft(get_db(), t.session.id)
    if draft is not None and draft.number == t.number:
        form = t.parse(draft.answers)
    else:
        form = t.parse({"dealer": str(t.session.next_dealer())})
    form.values.update(keep or {})
    return form_page(t, form, message, status)


@bp.post("/s/<key>/hands", defaults={"number": None})
@bp.post("/s/<key>/hands/<int:number>")
def save_hand(key, number):
    t = target(key, number)
    form = t.parse(request.form)
    if request.form.get("preset"):
        return form_page(t, form)
    if not form.complete:
        return form_page(t, form, NOT_SAVED, 422)
    token = request.form.get("draft") or None
    reopens = reopening(t.session.id)
    try:
        if t.editing:
            saved = store.replace_hand(get_db(), t.session.id, t.number, form.hand, based_on(), reopen=reopen_asked())
            flash(balance_changes(settlement_of(t.session), settlement_of(saved), t.names))
        else:
            saved = store.add_hand(
                get_db(),
                t.session.id,
                form.hand,
                based_on(),
                draft=token,
                draft_version=posted_draft_version(),
                reopen=reopen_asked(),
            )
    except store.EveningSettled as settled:  # settled since this form was drawn: asked now, nothing lost
        return form_page(t, form, status=409, settled_ask=str(settled))
    except store.StaleDraft as stale:
        return conflict(t, stale)
    except store.StaleEdit as stale:
        return stale_save(t, form, stale, token)
    except store.Refused as refused:
        return form_page(t, form, refusal(t, refused), 422)
    keep_snapshot(saved)
    if reopens:
        reopened_note()
    offer_undo()
    return redirect(t.table.url())


@bp.post("/s/<key>/hands/discard")
def discard(key):
    """Cancel the hand in progress (undoably), and go back to the table."""
    t = target(key)
    version = posted_draft_version()
    if not store.draft_version(get_db(), t.session.id) and not version:
        return redirect(t.table.url())  # nothing was kept: nothing to cancel
    reopens = reopening(t.session.id)
    try:
        keep_snapshot(store.discard_draft(get_db(), t.session.id, version or 0, reopen=reopen_asked()))
    except store.EveningSettled as settled:  # the hand in progress as kept, asked about
        draft = store.get_draft(get_db(), t.session.id)
        return form_page(t, t.parse(draft.answers if draft else request.form), status=409, settled_ask=str(settled))
    except store.StaleDraft as stale:
        return conflict(t, stale)
    if reopens:
        reopened_note()
    offer_undo()
    return redirect(t.table.url())


@bp.post("/s/<key>/hands/<int:number>/delete")
def delete_hand(key, number):
    t = target(key, number)
    if number != len(t.session.hands):
        return not_changed(t.table, f"Only the last hand can be deleted; edit hand {number} instead.", 422)
    return change_or_refuse(
        t.table, lambda: store.delete_last_hand(get_db(), t.session.id, based_on(), reopen=reopen_asked())
    )


@on_both_links(bp, "/hands/<int:number>")
def hand_detail(table, number: int):
    session = table.session
    if not 1 <= number <= len(session.hands):
        abort(404)
    hand, book = session.hands[number - 1], BOOKS[session.rulebook]
    context = table_context(table)
    context.update(
        {
            "number": number,
            "hand": hand,
            "result": context["settlement"].hands[number - 1],
            "reasons": book.reasons(hand, session.options, tuple(session.players)),
            "recorded": sheet_words(
                book,
                hand,
                book.resolved_options(session.options),
                tuple(session.players),
                context["settlement"].hands[number - 1].phases,
            ),
            "history": with_what_changed(store.history(get_db(), session.id, number), book, tuple(session.players))
            if table.can_edit
            else [],
            "hand_actions": HAND_ACTIONS,
            "clock": viewer_clock(request.cookies),  # the history's times in the viewer's zone
            "is_last": number == len(session.hands),
            "agreed": card(session, context["settlement"], number, store.agreement(session, [number])[number - 1])
            if session.confirm
            else None,
        }
    )
    return render_template("hand_detail.html", **context)
