"""The hand form — a new hand and an edit are one code path — its taps, Save,
Cancel, delete, and the hand detail (both links).

A new hand is the session's *hand in progress*: every tap stores its answers
(``store.keep_draft``, versioned so two phones never overwrite each other
blindly), so a reload, another phone or a restarted server brings it back;
Save stores the hand and clears it in one transaction; Cancel discards it as a
change that can be undone."""

from __future__ import annotations

from flask import Blueprint, abort, flash, render_template, request

from .. import store
from ..localtime import viewer_clock
from ..db import get_db
from ..rules import BOOKS
from ..rules.hand import sheet_words
from .access import editable, load_table, on_both_links
from .changes import based_on, change_or_refuse, keep_snapshot, not_changed, offer_undo
from .context import settlement_of, table_context
from .hand_form import hand_values, raw_values
from .htmx import is_fragment_request, redirect, render, retarget
from .kinds import whole
from .target import Target
from .wording import HAND_ACTIONS, balance_changes, differences, with_what_changed

bp = Blueprint("hands", __name__)

NOT_SAVED = "Not saved yet: answer what is marked below, then Save again."


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


def form_page(t: Target, form, message: str = "", status: int = 200, show_summary: bool = False):
    """The whole form (for htmx: its body, in place of the one on the page);
    ``show_summary`` scrolls to the summary, where a refused Save says why."""
    response = render("hand_form.html", "_hand_form.html", status=status, **t.context(form, message))
    if not is_fragment_request():
        return response
    return retarget(response, "#hand-form-body", "show:#hand-summary:top" if show_summary or message else "")


@bp.get("/s/<key>/hands/new")
def new_hand(key):
    t = target(key)
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
    hand = t.session.hands[number - 1]
    return form_page(t, t.parse(hand_values(t.book, t.session.options, hand, t.names, t.hands_before)))


@bp.post("/s/<key>/hands/check", defaults={"number": None})
@bp.post("/s/<key>/hands/<int:number>/check")
def tap(key, number):
    """A tap: check the answers (and keep them, for a new hand); answer with
    what changed on the page."""
    t = target(key, number)
    form, draft = t.parse(request.form), None
    if not t.editing:
        shown = posted_draft_version()
        try:
            draft = store.keep_draft(get_db(), t.session.id, t.number, form.values, -1 if shown is None else shown)
        except store.StaleDraft as stale:
            return merged(t, stale) or conflict(t, stale)
    if request.form.get("preset") or not is_fragment_request():
        return form_page(t, form)
    context = t.context(form, draft=draft, whole_page=False)
    context["changed"] = form.changed(request.form)
    context["statuses_changed"] = form.statuses_changed(request.form, t.names)
    return render_template("_hand_update.html", **context)


ACTIONS = ("preset", "bid", "ruff_call")  # taps that do something to the answers, not answers


def merged(t: Target, stale: store.StaleDraft):
    """A tap from a phone a version behind, on questions the other phone did not
    touch in between, is added to the hand as it is now (the phone says which
    answers it changed: ``changed``). A preset or a call is not merged: it acts on
    answers that may have moved."""
    current, names = stale.current, [n for n in request.form.get("changed", "").split(",") if n]
    if current is None or current.number != t.number or not names or any(request.form.get(a) for a in ACTIONS):
        return None
    posted, answers = raw_values(request.form), dict(current.answers)
    for name in names:
        if name in posted:
            answers[name] = posted[name]
        else:
            answers.pop(name, None)  # a chip taken off
    form = t.parse(answers)
    try:
        store.keep_draft(get_db(), t.session.id, t.number, form.values, current.version)
    except store.StaleDraft:
        return None
    return form_page(t, form, "Another phone added answers to this hand meanwhile: they are in, with yours.")


def conflict(t: Target, stale: store.StaleDraft):
    """Another phone changed, saved or cancelled the hand in progress: show it as it
    is now (this phone keeps its own answers, and can send them again)."""
    fresh = Target(load_table(t.table.key, True), stale.hands + 1, False)
    if stale.current is not None and stale.current.number == fresh.number:
        message = ("Another phone changed this hand a moment ago: here it is as it is now. "
                   "This phone's answers are kept; tap “Use this phone's answers” to send them instead.")
        return form_page(fresh, fresh.parse(stale.current.answers), message, 409)
    if stale.hands >= t.number:
        message = (f"Hand {t.number} was saved on another phone a moment ago, so this is hand {fresh.number}. "
                   "This phone's answers are kept if you want them here.")
    else:
        message = f"Hand {t.number} was cancelled on another phone. This phone's answers are kept if you want them."
    return form_page(fresh, fresh.parse({"dealer": str(fresh.session.next_dealer())}), message, 409)


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
    try:
        if t.editing:
            saved = store.replace_hand(get_db(), t.session.id, t.number, form.hand, based_on())
            flash(balance_changes(settlement_of(t.session), settlement_of(saved), t.names))
        else:
            saved = store.add_hand(get_db(), t.session.id, form.hand, based_on(), draft=token,
                                   draft_version=posted_draft_version())
    except store.StaleDraft as stale:
        return conflict(t, stale)
    except store.StaleEdit as stale:
        return stale_save(t, form, stale, token)
    except store.Refused as refused:
        return form_page(t, form, refusal(t, refused), 422)
    keep_snapshot(saved)
    offer_undo()
    return redirect(t.table.url())


def stale_save(t: Target, form, stale, token: str | None):
    """Someone changed the session since this form was opened."""
    fresh = load_table(t.table.key, True)
    if t.editing:
        return stale_edit(Target(fresh, t.number, True), form, stale)
    already = store.saved_from(get_db(), t.session.id, token) if token else None
    if already is None and not stale.missing and fresh.session.hands and fresh.session.hands[-1] == form.hand:
        already = len(fresh.session.hands)
    if already is not None:
        # a second tap of Save, or a Save whose answer was lost: this very hand is already in
        flash(f"Hand {already} was already saved; it is not saved twice.")
        response = redirect(t.table.url())
        response.headers["X-Scorekeeper-Unchanged"] = "already-saved"  # for scripts: nothing stored
        return response
    moved = Target(fresh, len(fresh.session.hands) + 1, False)
    values = dict(form.values, dealer=str(fresh.session.next_dealer()))
    message = str(stale) if stale.missing else (
        f"Another phone saved hand {moved.number - 1} a moment ago, so this is now hand {moved.number} "
        f"and {fresh.session.players[fresh.session.next_dealer()]} deals. Check it, then Save again.")
    return form_page(moved, moved.parse(values), message, 409)


def stale_edit(fresh: Target, form, stale):
    """Another phone saved a change to the session since this edit began: show the
    hand as it is saved now (never save over it blindly), and say what this phone
    had changed, so that nothing is lost."""
    if fresh.number > len(fresh.session.hands):
        return form_page(fresh, form, "Someone else changed this session a moment ago: this hand is gone.", 409)
    saved = fresh.session.hands[fresh.number - 1]
    if stale.missing:  # no version to compare with: all its answers are this phone's
        began, message = {}, str(stale)
    else:
        was = store.hands_at(get_db(), fresh.session, based_on())
        began = was[fresh.number - 1] if fresh.number <= len(was) else {}
        message = "Someone else changed this session a moment ago; here is the hand as it is saved now."
    changed = {k: v for k, v in form.hand.items() if began.get(k) != v}  # what this phone changed
    mine = differences(fresh.book, changed, saved, fresh.names)
    message += f" Your answers, not saved: {mine}. Make your change again." if mine else " Nothing was lost."
    values = hand_values(fresh.book, fresh.session.options, saved, fresh.names, fresh.hands_before)
    return form_page(fresh, fresh.parse(values), message, 409, show_summary=True)


def refusal(t: Target, refused: store.Refused) -> str:
    """Why the store refused the hand; for an edit that would break a later hand, which."""
    lines = "; ".join(refused.lines())
    later = sorted({p.hand for p in refused.problems if p.hand and p.hand != t.number})
    if t.editing and later:
        return (f"Not saved: with this change, hand {later[0]} would be impossible ({lines}). "
                f"Edit hand {later[0]} first, then this one.")
    return "Not saved: " + lines


@bp.post("/s/<key>/hands/discard")
def discard(key):
    """Cancel the hand in progress (undoably), and go back to the table."""
    t = target(key)
    version = posted_draft_version()
    if not store.draft_version(get_db(), t.session.id) and not version:
        return redirect(t.table.url())  # nothing was kept: nothing to cancel
    try:
        keep_snapshot(store.discard_draft(get_db(), t.session.id, version or 0))
    except store.StaleDraft as stale:
        return conflict(t, stale)
    offer_undo()
    return redirect(t.table.url())


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
        "recorded": sheet_words(book, hand, book.resolved_options(session.options), tuple(session.players),
                                context["settlement"].hands[number - 1].phases),
        "history": with_what_changed(store.history(get_db(), session.id, number), book, tuple(session.players))
        if table.can_edit else [],
        "hand_actions": HAND_ACTIONS,
        "clock": viewer_clock(request.cookies),  # the history's times in the viewer's zone
        "is_last": number == len(session.hands),
    })
    return render_template("hand_detail.html", **context)
