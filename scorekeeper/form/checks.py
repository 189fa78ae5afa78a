"""The checks the hand form's fields are made of: a chip among its choices, chips
chosen together, a typed box's short text, a call pad's calls and its tap. Each
kind of question (``form/kinds/``) builds its fields' shapes from these;
``answers`` applies them to a whole hand in progress. Nothing here knows a rule."""

from __future__ import annotations

import json

from ..rules.core import SEATS, describe, is_text

MAX_TYPED = 20  # characters in a box where a number is typed (a price, a count, card points)
MAX_CALL = 40  # characters of one call in its JSON form: [2, "vie", 100000]
MAX_CALLS = 60  # calls on one pad (the bidding, the vying) as a hand form posts them
MAX_CALLS_TEXT = MAX_CALLS * (MAX_CALL + 2)
NOBODY, DISCARDED, FOUR_ACES = "nobody", "discarded", "aces"
#: Fields posted once per chip chosen (sets declared, a showdown's cards): a list each.
REPEATED = frozenset(f"{name}_{seat}" for name in ("set", "shown", "forfeits") for seat in SEATS)
#: A pad's tap (and its typed amount): read once, never kept as an answer.
TAPS = ("bid", "bid_amount", "ruff_call", "ruff_amount")
PAD_ACTIONS = ("undo", "clear", "more")


def calls_of(text):
    """A pad's calls from their JSON text: a list of at most ``MAX_CALLS`` calls
    (each ``call_of``), or None if the text is not one (too long, too deep, not
    JSON). Never raises: a stored or posted value is never trusted."""
    if not isinstance(text, str) or len(text) > MAX_CALLS_TEXT:
        return None
    if text == "":
        return []
    try:
        calls = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(calls, list) or len(calls) > MAX_CALLS or not all(map(is_call, calls)):
        return None
    return calls


def call_of(text):
    """One call from its JSON text (``[0, 14]``, ``[1, "pass"]``, ``[2, "vie", 5]``), or None."""
    if not isinstance(text, str) or len(text) > MAX_CALL:
        return None
    try:
        call = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return call if is_call(call) else None


def is_call(call) -> bool:
    """A call's shape: its seat, then one or two words or amounts (the book's
    procedure says whether it is legal)."""
    return (
        isinstance(call, list)
        and 2 <= len(call) <= 3
        and type(call[0]) is int
        and call[0] in SEATS
        and all(
            (type(part) is int and 0 <= part <= 10**6) or (isinstance(part, str) and len(part) <= 20)
            for part in call[1:]
        )
    )


# ------------------------------------------------------------ shapes
# The checks a kind's fields are made of (each kind's ``shape``).


def one_of(values):
    """A chip: one of ``values`` (or nothing chosen)."""
    values = frozenset(values) | {""}

    def check(value):
        if not isinstance(value, str) or value not in values:
            return f"{describe(value)} is not one of its choices"

    return check


def chips(values, most):
    """Chips chosen together (a repeated field): a list of at most ``most`` of ``values``."""
    values = frozenset(values)

    def check(value):
        if not isinstance(value, list) or len(value) > most or not all(v in values for v in value if v != ""):
            return f"{describe(value)} is not a list of its chips"

    return check


def typed(limit):
    """A typed box: text of at most ``limit`` characters."""

    def check(value):
        if not isinstance(value, str) or not is_text(value):
            return f"{describe(value)} is not text"
        if len(value) > limit:
            return f"at most {limit} characters (this one has {len(value)})"

    return check


def calls(value):
    """A call pad's calls so far (its hidden list)."""
    if calls_of(value) is None:
        return f"not a list of at most {MAX_CALLS} calls ({describe(value)})"


def tap(value):
    """A call pad's tap: one call, or undo, clear, more."""
    if not isinstance(value, str) or not (value in ("",) + PAD_ACTIONS or call_of(value) is not None):
        return f"{describe(value)} is not a call"


SEAT_VALUES = tuple(map(str, SEATS))
