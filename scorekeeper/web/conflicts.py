"""When another phone got there first: a hand in progress changed meanwhile (a
tap merged or refused with the hand as it is now), a session changed under an
open form (a Save seen twice, a hand saved elsewhere, an edit that must not be
saved over another), and Saves the rules refuse — always in the table's words,
and never losing what this phone had."""

from __future__ import annotations

import json

from flask import flash, request
from werkzeug.datastructures import MultiDict

from ..form import answers as shapes
from .. import store
from ..db import get_db
from ..rules.core import RANK_PLURALS, parse_set
from ..rules.hand import sheet_words
from .access import load_table
from .changes import based_on
from ..form.fields import whole
from ..form.hand_form import hand_values, raw_values
from ..form.kinds import KINDS
from .htmx import redirect
from .target import Target, form_page
from .change_words import differences

PADS = {"bid": ("bids", "bid_amount"), "ruff_call": ("ruff_calls", "ruff_amount")}  # a pad's tap: its list, its box


CLASHED = (
    "Another phone changed the same answers a moment ago: the hand shows the other phone's, "
    "and this phone's are beside each question. The rest of this phone's answers are in."
)


def merged(t: Target, stale: store.StaleDraft, data):
    """A tap from a phone a version behind (``data``: what it posted) is added to
    the hand as it is now, answer by answer: each answer it changed (the phone
    says which: ``changed``) that the other phone did not change since that
    version goes in; one both phones changed is a conflict, shown with both
    answers (``conflict`` box: nothing is lost, and "Use this phone's" puts
    this phone's back with one tap). A call on a pad goes on the end of that
    pad's calls as they are now, if it is still one the player may make (it
    names its player, so the same call tapped on both phones is not taken
    twice); an undo or a clear only if the other phone did not move that pad. A
    preset is not merged: it acts on answers that may have moved. A tap for
    another hand than the one in progress (``number``) is never merged."""
    current, names = stale.current, [n for n in data.get("changed", "").split(",") if n]
    taps = [action for action in PADS if data.get(action)]
    number = whole(data.get("number"))
    if (
        current is None
        or current.number != t.number
        or (number is not None and number != t.number)
        or data.get("preset")
        or len(taps) > 1
        or not (names or taps)
    ):
        return None
    based = whole(data.get("draft_version")) or 0
    posted, answers, clashes = raw_values(data), dict(current.answers), []
    pad_lists = {calls for calls, _ in PADS.values()}
    for name in dict.fromkeys(names):
        if name in shapes.TAPS:
            continue
        mine, theirs = posted.get(name), current.answers.get(name)
        if store.same_answer(mine, theirs):
            continue
        if name in pad_lists:  # a pad's calls named as changed: this phone's, as it followed them ("Use
            answers[name] = mine or ""  # this phone's answers" after a refused call); a call tapped: below
        elif current.field_versions.get(name, 0) > based:  # the other phone changed it too, since
            clashes.append((name, theirs, mine))
        elif name in posted:
            answers[name] = mine
        else:
            answers.pop(name, None)  # a chip taken off
    if taps:
        action, (calls, box) = taps[0], PADS[taps[0]]
        tap = data[action]
        if answers.get(calls, "") != data.get(calls, "") and not tap.startswith("["):
            return None  # an undo, a clear or a typed amount, on calls that moved meanwhile
        if already_called(data.get(calls, ""), tap, answers.get(calls, "")):
            taps = []  # the other phone has this very call, in its place: nothing to add
            if not names:
                return form_page(
                    t,
                    t.parse(answers),
                    "The other phone had already recorded that call: here is the hand as it is now.",
                )
        else:
            answers.update({action: tap, box: data.get(box, "")})
    form = t.parse(answers)
    if taps and (form.refused_call or any(state.problem for state in form.pads.values())):
        return None  # the call no longer fits the calls as they are now
    try:
        store.keep_draft(get_db(), t.session.id, t.number, form.values, current.version)
    except store.StaleDraft:
        return None
    if clashes:
        return form_page(t, form, CLASHED, 409, conflict=clash_box(t, clashes))
    return form_page(t, form, "Another phone added answers to this hand meanwhile: they are in, with yours.")


def clash_box(t: Target, clashes: list) -> dict:
    """The conflict box (templates/_conflict.html; each line beside its question,
    templates/_clash.html): each answer both phones
    changed, the other phone's (shown in the form) and this phone's, and the
    answers a "Use this phone's" button puts back (a tap like any other, on the
    hand as it is now: it always works)."""
    lines = [
        {
            "field": name,
            "key": getattr(question_of(t, name), "key", None),
            "title": field_title(t, name),
            "theirs": answer_words(t, name, theirs),
            "mine": answer_words(t, name, mine),
            "use": json.dumps({name: mine if mine is not None else ""}),
        }
        for name, theirs, mine in clashes
    ]
    everything = json.dumps({name: mine if mine is not None else "" for name, _, mine in clashes})
    return {"kind": "answers", "lines": lines, "use_all": everything if len(lines) > 1 else None}


def question_of(t: Target, name: str):
    shape = shapes.shapes(t.book, t.session.options).get(name)
    return next((q for q in t.book.questions if shape and q.key == shape[1]), None)


def field_title(t: Target, name: str) -> str:
    """A field in the table's words: "Trump", "Tricks, Ben", "Sets, Cat"."""
    q = question_of(t, name)
    title = q.title if q is not None else name
    seat = name.rsplit("_", 1)[-1] if "_" in name else ""
    if seat in ("0", "1", "2") and name != getattr(q, "field", None):
        return f"{title}, {t.names[int(seat)]}"
    return title


def answer_words(t: Target, name: str, value) -> str:
    """An answer as the table says it: a player's name for a seat, a chip's label."""
    if value in (None, "", []):
        return "no answer"
    q = question_of(t, name)
    kind = KINDS.get(q.kind) if q is not None else None

    def one(v: str) -> str:
        said = kind.word(q, name, v, t.names) if kind is not None else None
        if said is not None:
            return said
        if parse_set(v):
            kind_of_set, rank = parse_set(v)
            return f"{kind_of_set} of {RANK_PLURALS[rank]}"
        return v

    return ", ".join(map(one, value)) if isinstance(value, list) else one(value)


def with_use(data):
    """The posted form with a conflict's "Use this phone's" answers put in
    (``use``: a JSON object, field → answer), as if this phone had tapped them
    on the hand shown; the names go in ``changed`` too. Anything else posted
    in ``use`` is not an answer: the form as posted."""
    text = data.get("use")
    if not text:
        return data
    try:
        chosen = json.loads(text) if len(text) <= 20_000 else None
    except (ValueError, RecursionError):
        chosen = None
    if not (isinstance(chosen, dict) and all(isinstance(v, (str, list)) for v in chosen.values())):
        return MultiDict([(k, v) for k, v in data.items(multi=True) if k != "use"])
    out = MultiDict([(k, v) for k, v in data.items(multi=True) if k != "use" and k not in chosen and k != "changed"])
    for name, value in chosen.items():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                out.add(name, item)
    changed = [n for n in data.get("changed", "").split(",") if n]
    out["changed"] = ",".join(dict.fromkeys(changed + list(chosen)))
    return out


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
    return now_calls[: len(seen_calls) + 1] == seen_calls + [call]


def conflict(t: Target, stale: store.StaleDraft, data=None):
    """Another phone changed, saved or cancelled the hand in progress: show it as
    it is now, say what happened, and offer only what can be done: for a hand
    saved elsewhere, open it, or start the next hand with this phone's answers;
    for one cancelled, start it again with them (``conflict`` box; this phone
    keeps its own answers meanwhile)."""
    data = request.form if data is None else data
    fresh = Target(load_table(t.table.key, True), stale.hands + 1, False)
    number = whole(data.get("number")) or t.number  # the hand this phone was on
    current = stale.current if stale.current is not None and stale.current.number == fresh.number else None
    if current is not None and number == fresh.number:
        message = "Another phone changed this hand a moment ago: here it is as it is now."
        return form_page(fresh, fresh.parse(current.answers), message, 409)
    form = fresh.parse(current.answers if current is not None else {"dealer": str(fresh.session.next_dealer())})
    mine, _ = shapes.readable(
        fresh.book,
        fresh.session.options,
        {k: v for k, v in raw_values(data).items() if k not in shapes.TAPS and v not in ("", [])},
    )
    said = in_words(Target(fresh.table, min(number, fresh.number), False), mine)
    if number <= stale.hands:
        mine.pop("dealer", None)  # the next hand has its own dealer
        message = f"Hand {number} was saved on another phone a moment ago."
        box = {
            "kind": "saved",
            "hand": number,
            "open": fresh.table.url(f"/hands/{number}"),
            "mine": said,
            "use": json.dumps(mine) if mine else None,
            "use_label": f"Start hand {fresh.number} with this phone's answers"
            if current is None
            else f"Put this phone's answers into hand {fresh.number}",
        }
    else:
        message = f"Hand {number} was cancelled on another phone a moment ago."
        box = {
            "kind": "cancelled",
            "hand": number,
            "table": fresh.table.url(),
            "mine": said,
            "use": json.dumps(mine) if mine else None,
            "use_label": f"Start hand {fresh.number} again with this phone's answers",
        }
    return form_page(fresh, form, message, 409, conflict=box)


def in_words(t: Target, answers: dict) -> list[str]:
    """A phone's answers for hand ``t.number`` in the sheet's words ("Ben dealt",
    "♠ Spades", "Cat bought at 12", …), what could be read of them."""
    form = t.parse(answers)
    hand = {k: v for k, v in form.hand.items() if k not in form.problems}
    options = t.book.resolved_options(t.session.options)
    return sheet_words(t.book, hand, options, t.names, form.known)


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
    message = (
        str(stale)
        if stale.missing
        else (
            f"Another phone saved hand {moved.number - 1} a moment ago, so this is now hand {moved.number} "
            f"and {fresh.session.players[fresh.session.next_dealer()]} deals. Check it, then Save again."
        )
    )
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
        return (
            f"Not saved: with this change, hand {later[0]} would be impossible ({lines}). "
            f"Edit hand {later[0]} first, then this one."
        )
    return "Not saved: " + lines
