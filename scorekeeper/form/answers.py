"""What a hand in progress may hold: the hand form's answers, field by field, in
the shapes the rule book's questions post them. One definition for a tap (what
it may store), for reading a stored hand in progress (what is left out as
unreadable), for ``flask backup`` (what it may write) and for ``flask restore``
(what it accepts), so a backup always restores.

A shape is only what a field can hold at all: a chip's value among the book's
chips, a typed box's short text, a call pad's list of calls. Whether an answer
fits the hand so far (a Kiss with a Tib, a bid out of turn) is the rule book's
to say, through the form, as for any tap. Each kind of question says its own
fields and their shapes (``form/kinds/``, one module per kind), from the checks
below; nothing here knows a rule (the choices come from the book's questions).
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..rules.core import SEATS, describe, is_text

MAX_TYPED = 20          # characters in a box where a number is typed (a price, a count, card points)
MAX_CALL = 40           # characters of one call in its JSON form: [2, "vie", 100000]
MAX_CALLS = 60          # calls on one pad (the bidding, the vying) as a hand form posts them
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
    return (isinstance(call, list) and 2 <= len(call) <= 3 and type(call[0]) is int and call[0] in SEATS
            and all((type(part) is int and 0 <= part <= 10 ** 6) or (isinstance(part, str) and len(part) <= 20)
                    for part in call[1:]))


# ------------------------------------------------------------ shapes
# The checks a kind's fields are made of (each kind's ``shape``, form/kinds/).

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


def _fields_of(q, book, options) -> dict:
    """Each field question ``q`` posts, and its shape: its kind's (form/kinds/)."""
    from .kinds import KINDS   # here, not at the top: the kinds' shapes are made of the checks above

    kind = KINDS.get(q.kind)
    if kind is None:
        return {q.field: typed(MAX_TYPED)}   # a kind without a form of its own yet: one short answer
    return kind.shape(q, book, options)


@lru_cache(maxsize=64)
def _shapes(book, options_json: str) -> dict:
    options = book.resolved_options(json.loads(options_json))
    shapes = {}
    for q in book.questions:
        for name, check in _fields_of(q, book, options).items():
            shapes[name] = (check, q.key)
    return shapes


def shapes(book, options: dict) -> dict:
    """Every field the book's hand form posts: name -> (check, the question's key).
    ``check(value)`` is None for a value of the field's shape, else why not."""
    return _shapes(book, json.dumps(options, sort_keys=True))


def problems(book, options: dict, answers, taps: bool = False) -> list[str]:
    """Every field of ``answers`` (a dict: a list for a repeated field, else text)
    that the book's form never posts, or not in its shape: one line each
    ("set_0: "x" is not a list of its chips"). ``taps``: the pads' taps may be
    there too (a posted tap); they are never kept. Empty if it may be stored."""
    if not isinstance(answers, dict):
        return [f"the answers must be the hand form's fields, not {describe(answers)}"]
    known, lines = shapes(book, options), []
    for name, value in answers.items():
        if not isinstance(name, str) or not is_text(name) or len(name) > 40 or name not in known:
            lines.append(f"{describe(name)}: not a field of this rule book's hand form")
        elif name in TAPS and not taps:
            lines.append(f"{name}: a call tapped is not kept as an answer")
        else:
            why = known[name][0](value)
            if why:
                lines.append(f"{name}: {why}")
        if len(lines) >= 10:
            lines.append("… (more not listed)")
            break
    return lines


def readable(book, options: dict, answers: dict) -> tuple[dict, list[str]]:
    """The answers that fit their field (a stored hand in progress, read again),
    and the question keys of those left out: a stored answer that no longer fits
    (an older release's, a hand-edited backup's) is unreadable, never an error."""
    known, kept, left_out = shapes(book, options), {}, []
    for name, value in answers.items():
        shape = known.get(name) if isinstance(name, str) else None
        if shape is None:
            continue  # not a field of this form: nothing a question reads
        if shape[0](value) is None:
            kept[name] = value
        elif shape[1] not in left_out:
            left_out.append(shape[1])
    return kept, left_out
