"""What the phone's scripts (static/app.js, static/js/) need from the server, as
data on the page, so that no rule of the game is written a second time in
JavaScript:

- ``form_data()``: the form fields that are not answers (``hand_form.CONTROL_FIELDS``
  and the ``sig_`` prefix), the taps that are actions (a preset, a pad's call) and
  each pad's list of calls: ``data-client`` on the hand form;
- ``counts_fills(q)``: for a "counts" question (tricks), what the form fills in
  once two seats are chosen, read by the question's own reader (``kinds/counts.py``)
  for every pair of counts: ``{"0:5,1:4": "2:3", …}``;
- ``pad_drawn_for(form)``: the answers a pad's states were drawn from (the
  dealer: whose turn each call is), so that the phone offline never takes a
  call from states drawn for another dealer;
- ``pad_states(q, form)``: a call pad's next states, from the rule book's own
  replay (``rules.calls``), breadth first from the calls so far: each state with
  its calls line, whose turn, its legal calls and the state each leads to (states
  the same for the rules are one), bounded (``MOST_STATES``); past the bound a
  call is kept unchecked until the connection is back.
"""

from __future__ import annotations

import json
from functools import lru_cache

from markupsafe import Markup

from .checks import TAPS
from .callpad import PADS
from .fields import Fields, Reading
from .hand_form import CONTROL_FIELDS, CONTROL_PREFIXES
from .kinds import KINDS

#: The scripts under static/js/, in the order base.html loads them (after static/app.js).
MODULES = ("chips", "counts", "store", "conflicts", "pads", "presets", "sections", "queue", "zone")
MOST_STATES = (
    120  # a pad's states kept on the page (a whole parlett auction and ruff, in practice: 16–40 kB before gzip)
)


def form_data() -> str:
    """``data-client`` of the hand form (JSON)."""
    return json.dumps(
        {
            "control": list(CONTROL_FIELDS) + [t for t in TAPS if t in PADS],
            "prefixes": list(CONTROL_PREFIXES),
            "actions": ["preset", *PADS],
            "pads": PADS,
        },
        separators=(",", ":"),
    )


def counts_fills(q) -> str:
    """What the question's reader fills in for each pair of counts (JSON)."""
    return _fills(q.kind, q.field, q.total, q)


@lru_cache(maxsize=16)
def _fills(kind, field, total, q) -> str:
    fills = {}
    for a in range(3):
        for b in range(a + 1, 3):
            for x in range(total + 1):
                for y in range(total + 1 - x):
                    reading = Reading(_Nothing(), {})
                    KINDS[kind].read(q, Fields({f"{field}_{a}": str(x), f"{field}_{b}": str(y)}), reading)
                    auto = reading.values.get(f"{field}_auto")
                    if auto:
                        fills[f"{a}:{x},{b}:{y}"] = auto
    return json.dumps(fills, separators=(",", ":"))


class _Nothing:
    """The answers a counts reader is given (it reads none)."""

    hand: dict = {}


def pad_drawn_for(form) -> str:
    """``data-drawn-for`` of a call pad (JSON, field → the answer the states were drawn with)."""
    fields = [q.field for q in form.book.questions if q.key == "dealer"]
    return json.dumps({f: form.values.get(f, "") for f in fields}, separators=(",", ":"))


def pad_states(q, form) -> str:
    """A pad's states from the calls so far (JSON list; the first is now)."""
    state, replay = form.pads.get(q.key), form.replays.get(q.key)
    if state is None or replay is None:
        return Markup("[]")
    names = form.answers.names
    marks = {c.value: c.mark for c in form.answers.seat_choices()}
    return _states(
        replay,
        tuple(map(tuple, state.calls)),
        names,
        tuple(sorted(marks.items())),
        "bid" if q.kind == "purchase" else "speak",
    )


def _key(state) -> tuple:
    """What the rules know of a state (two orders of calls that leave the same are one)."""
    names = ("turn", "least", "highest", "bidder", "passes", "stake", "opened", "left", "waiting", "doubled", "end")
    return tuple(repr(getattr(state, n, None)) for n in names) + tuple(
        repr(list(getattr(state, n, ()) or ())) for n in ("out", "at", "committed", "showing")
    )


_NODES: dict = {}  # (the replay's key, marks, a state's key) -> (what the pad shows there, its calls)
MOST_NODES = 20_000  # kept in the process, across taps and hands (a tap's next states are mostly known)


def _node(replay, marks: dict, verb: str, key: tuple, calls: list):
    """What the pad shows at one state, and each legal call: (label, call, said, next state's key, calls)."""
    cache_key = (replay.key, tuple(sorted(marks.items())), verb, key)
    found = _NODES.get(cache_key)
    if found is not None:
        return found
    state, names = replay(calls), replay.key[3]
    node = {"turn": state.turn, "verb": verb}
    if state.turn is not None:
        node["who"] = names[state.turn] + (f" ({marks[state.turn]})" if marks.get(state.turn) else "")
    else:
        node["end"] = _outcome(state, names)
        if getattr(state, "end", None) == "showdown":
            node["showing"] = list(state.showing)
        elif getattr(state, "end", None) == "unseen":
            node["winner"] = state.winner
    more = state.more if state.turn is not None else None
    if more is not None:
        node["more"] = {"seat": more.seat, "word": more.word, "least": more.least, "label": more.label}
    line, edges = state.line(), []
    for choice in state.choices:
        after = replay(state.calls + [choice.call])
        if after.problem is None:
            edges.append(
                (
                    choice.label,
                    json.dumps(choice.call),
                    after.line()[len(line) :].lstrip(" ·"),
                    _key(after),
                    after.calls,
                )
            )
    if len(_NODES) > MOST_NODES:
        _NODES.clear()
    found = _NODES[cache_key] = (node, edges)
    return found


def _states(replay, calls: tuple, names, marks: tuple, verb: str) -> str:
    marks = dict(marks)
    first = replay([list(c) for c in calls])
    index, queue, nodes = {_key(first): 0}, [(_key(first), first.calls)], [None]
    at = 0
    while at < len(queue):
        key, calls_there = queue[at]
        node, edges = _node(replay, marks, verb, key, calls_there)
        shown = dict(node, calls=[])
        if at == 0:
            shown["line"] = first.line()
        for label, call, said, after, after_calls in edges:
            child = index.get(after)
            if child is None and len(queue) < MOST_STATES:
                child = index[after] = len(queue)
                queue.append((after, after_calls))
                nodes.append(None)
            shown["calls"].append([label, call, -1 if child is None else child, said])
        nodes[at] = shown
        at += 1
    return _script_safe(json.dumps(nodes, separators=(",", ":"), ensure_ascii=False))


def _script_safe(text: str) -> Markup:
    """JSON inside <script type="application/json">: a name such as "</script>" cannot end it."""
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


def _outcome(state, names) -> str:
    """How the pad ended, as its page says it (templates/fields/purchase.html and ruff.html)."""
    end = getattr(state, "end", None)
    if end is None:
        text = state.outcome()
        return text[:1].upper() + text[1:] + "."
    if end == "no contest":
        return "No contest: nobody opened, so nobody pays for the ruff."
    if end == "unseen":
        return f"{names[state.winner]} is left alone in and wins the ruff unseen."
    if end == "showdown":
        return f"Showdown: {state.outcome()}. Tap the winner."
    return state.outcome() + "."
