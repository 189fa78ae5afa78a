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
in ``checks``; nothing here knows a rule (the choices come from the book's questions).
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..rules.core import describe, is_text
from .checks import MAX_TYPED, TAPS, typed
from .kinds import KINDS


def _fields_of(q, book, options) -> dict:
    """Each field question ``q`` posts, and its shape: its kind's (form/kinds/)."""
    kind = KINDS.get(q.kind)
    if kind is None:
        return {q.field: typed(MAX_TYPED)}  # a kind without a form of its own yet: one short answer
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
