"""The call pad: the auction and the ruff followed call by call, as they are spoken.

The form keeps the calls so far as a JSON list in a hidden field (``bids``,
``ruff_calls``); a tap on a call's button posts that call (``bid`` /
``ruff_call``: its JSON form, or ``undo``, ``clear``, or ``more`` with an amount
typed in ``bid_amount`` / ``ruff_amount``). The rule book's own procedure
(``rules.calls``: one implementation for the record's checks and for this pad)
replays them, says whose turn it is and which calls are legal, and once the
bidding or the vying is over, fills in the section: buyer and price; or the
winner (unseen, or at a showdown from the cards shown, or as the table taps
him) and what each loser pays. Nothing here knows a book."""

from __future__ import annotations

import json

from .checks import call_of, calls_of
from ..rules import calls as procedure
from ..rules.core import SEATS

UNDO, CLEAR, MORE = "undo", "clear", "more"
#: Each pad's tap field, and the hidden list of calls it adds to.
PADS = {"bid": "bids", "ruff_call": "ruff_calls"}
FOUR_ACES = procedure.FOUR_ACES


def posted_calls(fields, reading, name: str, action: str, amount: str, replay):
    """The calls after the posted tap (the hidden list, then the tap applied), or
    None with a problem if the list is not one. The tap is consumed: it is not an
    answer to keep."""
    calls = calls_of(fields.get(name))
    if calls is None:
        return None
    tap, typed = fields.get(action), fields.get(amount)  # read before they are consumed
    for key in (action, amount):
        reading.values.pop(key, None)
    if tap == UNDO:
        calls = calls[:-1]
    elif tap == CLEAR:
        calls = []
    elif tap == MORE:
        state, n = replay(calls), _whole(typed)
        if state.more is not None and n is not None and n >= state.more.least:
            calls = calls + [state.more.call(n)]
        else:  # said, and the box kept as typed: never silently ignored
            reading.refused_call = (typed_refused(state, n, reading.answers.names), amount, typed)
    elif tap:
        call = call_of(tap)
        problem = replay(calls + [call]).problem if call is not None else None
        if problem:  # a call out of turn, by a folded player, after calls that no longer fit: never kept
            earlier = replay(calls).problem
            why = problem if not earlier else f"{earlier}; tap Undo last call first"
            reading.refused_call = (why[:1].upper() + why[1:] + ".", None, None)
        elif call is not None:
            calls = calls + [call]
    reading.values[name] = json.dumps(calls) if calls else ""
    return calls


def typed_refused(state, n, names) -> str:
    """Why a typed amount is not a call now ("Ben cannot bid 13: the least is 14.")."""
    more = state.more
    if more is None:
        return "No amount can be called now: tap one of the calls offered."
    who = names[more.seat]
    if n is None:
        return (
            f"Type a whole number of at least {more.least} for {who}, then tap {more.label_for(more.least).split()[0]}."
        )
    said = more.label_for(n)
    return f"{who} cannot {said[:1].lower() + said[1:]}: the least is {more.least}."


def _whole(text):
    text = (text or "").strip()
    return int(text) if text.isdigit() and text.isascii() and len(text) <= 6 else None


def replayed(q, fields, reading, names: tuple, replay, unreadable: str):
    """A pad's calls as posted, the tap applied (``names``: its list, its tap, its
    typed amount), and the book's replay of them, kept for the pad; a problem with
    them is the question's. None (and ``unreadable`` said) if the list is not one."""
    calls = posted_calls(fields, reading, *names, replay)
    if calls is None:
        reading.wrong(q, unreadable)
        return None
    state = replay(calls)
    reading.pads[q.key] = state
    reading.replays[q.key] = replay
    if calls and state.problem:
        reading.wrong(q, state.problem[:1].upper() + state.problem[1:] + ".")
    return calls, state


def read_bids(q, fields, reading) -> bool:
    """The auction from its bids, if the table follows it bid by bid. True when the
    bids answered (or failed) the question, False to read the quick answers."""
    answers = reading.answers
    if answers.dealer is None:
        return False
    replay = lambda calls: procedure.replay_bids(answers.book, answers.dealer, calls, answers.names)  # noqa: E731
    replay.key = ("bids", answers.book.id, answers.dealer, answers.names)  # what it replays with
    followed = replayed(
        q,
        fields,
        reading,
        (PADS["bid"], "bid", "bid_amount"),
        replay,
        "The bids could not be read: tap Clear the bids and start again.",
    )
    if followed is None:
        return True
    calls, state = followed
    if not calls:
        return False
    if state.problem:  # said by replayed()
        return True
    if not state.ended:
        reading.missing(
            q, f"Bidding: {answers.who(state.turn)} to speak ({procedure.options_text(state.choices, state.more)})."
        )
    elif state.buyer is None:
        reading.answer(q, None)  # all three passed: no bids are kept with a null auction
        reading.values[q.field] = "nobody"
    else:
        reading.answer(q, {"buyer": state.buyer, "price": state.price, "bids": calls})
        reading.values.update({q.field: str(state.buyer), "price": str(state.price), "price_other": ""})
    return True


def read_ruff_calls(q, fields, reading) -> bool:
    """The ruff from its calls (and the showdown), if the table follows the vying.
    True when the calls answered (or failed) the question."""
    answers = reading.answers
    if answers.dealer is None:
        return False
    opening = q.opening(answers)
    replay = lambda calls: procedure.replay_ruff(answers.book, answers.dealer, calls, answers.names, opening)  # noqa: E731
    replay.key = ("ruff", answers.book.id, answers.dealer, answers.names, opening)
    followed = replayed(
        q,
        fields,
        reading,
        (PADS["ruff_call"], "ruff_call", "ruff_amount"),
        replay,
        "The calls could not be read: tap Clear the calls and start again.",
    )
    if followed is None:
        return True
    calls, state = followed
    if not calls:
        return False
    if state.problem:  # said by replayed()
        return True
    if not state.ended:
        stake = f", stake {state.stake}" if state.opened else ""
        reading.missing(
            q, f"Ruff: {answers.who(state.turn)} to speak{stake} ({procedure.options_text(state.choices, state.more)})."
        )
    elif state.end in (procedure.NO_CONTEST, procedure.DOUBLED):
        reading.answer(q, None)  # nobody opened, or the dealer doubled it: no calls are kept with a null ruff
        reading.values[q.field] = "nobody"
    elif state.end == procedure.UNSEEN:
        settle_ruff(q, reading, state, state.winner, calls)
    else:
        read_showdown(q, fields, reading, state, calls)
    return True


def read_showdown(q, fields, reading, state, calls) -> None:
    """At a showdown: each showing player's best suit (the cards tapped, or four
    Aces), read by the rule book (``rules.calls.read_showing``): an impossible
    showing is the only thing said; once every best suit is complete, the winner
    by the book's rule; until then, the winner the table taps, if it does."""
    answers = reading.answers
    cards, totals = [[], [], []], [None, None, None]
    for seat in state.showing:
        cards[seat] = [c for c in fields.getlist(f"shown_{seat}") if c]
        reading.values[f"shown_{seat}"] = cards[seat]
        kept = fields.get(f"shown_total_{seat}")  # a stored hand's total, being edited
        if cards[seat]:
            reading.values.pop(f"shown_total_{seat}", None)
        else:
            totals[seat] = FOUR_ACES if kept == FOUR_ACES else _whole(kept)
    showing = procedure.read_showing(state, cards, totals, answers.hand.get("turned_up"))
    reading.shown[q.key] = showing
    if showing.problem:
        reading.wrong(q, f"Showdown: {showing.problem}.")
        return
    if showing.complete:
        winner = procedure.showdown_winner(answers.dealer, showing.shown)
        settle_ruff(q, reading, state, winner, calls, list(showing.shown))
        return
    tapped = fields.get(q.field)
    winner = int(tapped) if tapped in ("0", "1", "2") and int(tapped) in state.showing else None
    if winner is None:
        reading.missing(q, f"Showdown: {state.outcome()}. Tap the cards of each one's best suit, or tap the winner.")
    else:
        settle_ruff(q, reading, state, winner, calls)


def settle_ruff(q, reading, state, winner: int, calls, shown=None) -> None:
    ruff = {"winner": winner, "paid": state.paid(winner), "calls": calls}
    if shown is not None:
        ruff["shown"] = shown
    reading.answer(q, ruff)
    reading.values[q.field] = str(winner)
    for seat in SEATS:
        if seat != winner:
            reading.values.update({f"paid_{seat}": str(ruff["paid"][seat]), f"paid_{seat}_other": ""})


def pad_shape(q, form) -> tuple:
    """What the pad offers (for the section's signature)."""
    state = form.pads.get(q.key)
    if state is None:
        return ()
    return (
        state.line(),
        state.turn,
        tuple(tuple(c.call) for c in state.choices),
        state.more,
        state.ended,
        tuple(map(tuple, [form.values.get(f"shown_{s}", []) for s in SEATS])),
    )
