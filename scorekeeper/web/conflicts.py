"""When another phone got there first: a hand in progress changed meanwhile (a
tap merged or refused with the hand as it is now), a session changed under an
open form (a Save seen twice, a hand saved elsewhere, an edit that must not be
saved over another), and Saves the rules refuse — always in the table's words,
and never losing what this phone had."""

from __future__ import annotations

import json

from flask import flash, request

from .. import store
from ..db import get_db
from .access import load_table
from .changes import based_on
from .hand_form import hand_values, raw_values
from .htmx import redirect
from .target import Target, form_page
from .wording import differences

PADS = {"bid": ("bids", "bid_amount"), "ruff_call": ("ruff_calls", "ruff_amount")}  # a pad's tap: its list, its box


def merged(t: Target, stale: store.StaleDraft):
    """A tap from a phone a version behind, on questions the other phone did not
    touch in between, is added to the hand as it is now (the phone says which
    answers it changed: ``changed``). A call on a pad goes on the end of that
    pad's calls as they are now, if it is still one the player may make (it names
    its player, so the same call tapped on both phones is not taken twice); an
    undo or a clear only if the other phone did not move that pad. A preset is
    not merged: it acts on answers that may have moved."""
    current, names = stale.current, [n for n in request.form.get("changed", "").split(",") if n]
    taps = [action for action in PADS if request.form.get(action)]
    if current is None or current.number != t.number or request.form.get("preset") or len(taps) > 1 \
            or not (names or taps):
        return None
    posted, answers = raw_values(request.form), dict(current.answers)
    for name in names:
        if name in posted:
            answers[name] = posted[name]
        else:
            answers.pop(name, None)  # a chip taken off
    if taps:
        action, (calls, box) = taps[0], PADS[taps[0]]
        tap = request.form[action]
        if answers.get(calls, "") != request.form.get(calls, "") and not tap.startswith("["):
            return None  # an undo, a clear or a typed amount, on calls that moved meanwhile
        if already_called(request.form.get(calls, ""), tap, answers.get(calls, "")):
            taps = []  # the other phone has this very call, in its place: nothing to add
            if not names:
                return form_page(t, t.parse(answers), "The other phone had already recorded that call: "
                                                      "here is the hand as it is now.")
        else:
            answers.update({action: tap, box: request.form.get(box, "")})
    form = t.parse(answers)
    if taps and any(state.problem for state in form.pads.values()):
        return None  # the call no longer fits the calls as they are now
    try:
        store.keep_draft(get_db(), t.session.id, t.number, form.values, current.version)
    except store.StaleDraft:
        return None
    return form_page(t, form, "Another phone added answers to this hand meanwhile: they are in, with yours.")


def already_called(seen: str, tap: str, now: str) -> bool:
    """Whether the calls as they are now (``now``) already hold the call this phone
    tapped (``tap``) right after the calls it saw (``seen``): the same call, tapped
    on two phones."""
    try:
        seen_calls, call, now_calls = (json.loads(seen or "[]"), json.loads(tap), json.loads(now or "[]"))
    except ValueError:
        return False
    if not (isinstance(seen_calls, list) and isinstance(now_calls, list)):
        return False
    return now_calls[:len(seen_calls) + 1] == seen_calls + [call]


def conflict(t: Target, stale: store.StaleDraft):
    """Another phone changed, saved or cancelled the hand in progress: show it as it
    is now (this phone keeps its own answers, and can send them again)."""
    fresh = Target(load_table(t.table.key, True), stale.hands + 1, False)
    if stale.current is not None and stale.current.number == fresh.number:
        message = "Another phone changed this hand a moment ago: here it is as it is now."
        return form_page(fresh, fresh.parse(stale.current.answers), message, 409)
    if stale.hands >= t.number:
        message = (f"Hand {t.number} was saved on another phone a moment ago, so this is hand {fresh.number}. "
                   "This phone's answers are kept if you want them here.")
    else:
        message = f"Hand {t.number} was cancelled on another phone. This phone's answers are kept if you want them."
    return form_page(fresh, fresh.parse({"dealer": str(fresh.session.next_dealer())}), message, 409)


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


