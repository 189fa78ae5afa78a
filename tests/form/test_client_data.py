"""The data the phone's scripts get from the server (scorekeeper/form/client.py):
every state a pad offers offline is the rule book's own replay of the calls that
lead there; the third count is what the question's reader fills in."""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules import BOOKS
from scorekeeper.form import client
from scorekeeper.form.hand_form import CONTROL_FIELDS, parse_hand

NAMES = ("Ann", "Ben", "Cat")


def form_for(book, **values):
    return parse_hand(BOOKS[book], {}, {"dealer": "0", "trump": "hearts", "turned_up": "9", **values}, NAMES, [], 1)


def walk(states, replay, start):
    """Each state reached from the first by its calls, checked against the replay."""
    seen, todo = {0}, [(0, start)]
    while todo:
        at, calls = todo.pop()
        state, node = replay(calls), states[at]
        assert node["turn"] == state.turn
        assert [c[0] for c in node["calls"]] == [c.label for c in state.choices]
        for _label, call, child, said in node["calls"]:
            after = replay(calls + [json.loads(call)])
            assert after.problem is None and said in after.line()
            if child >= 0 and child not in seen:
                seen.add(child)
                todo.append((child, calls + [json.loads(call)]))
        if state.turn is None:
            assert node["end"]
    return seen


@pytest.mark.parametrize("book", sorted(BOOKS))
def test_every_state_a_pad_offers_offline_is_the_books_replay(book):
    form = form_for(book)
    for q in BOOKS[book].questions:
        if q.key not in form.pads:
            continue
        states = json.loads(str(client.pad_states(q, form)))
        assert 1 < len(states) <= client.MOST_STATES
        assert walk(states, form.replays[q.key], []) == set(range(len(states)))  # every state reachable, none made up


def test_the_pads_states_start_from_the_calls_so_far_and_reach_the_end():
    form = form_for("parlett", bids=json.dumps([[1, 12], [2, 14]]))
    q = next(q for q in BOOKS["parlett"].questions if q.key == "auction")
    states = json.loads(str(client.pad_states(q, form)))
    assert states[0]["line"] == "Ben bids 12 · Cat 14" and states[0]["who"] == "Ann (dealer)"
    node = states[0]
    for label in ("Pass", "Pass"):  # Ann passes, Ben passes: Cat bought at 14
        node = states[next(c[2] for c in node["calls"] if c[0] == label)]
    assert node["turn"] is None and node["end"] == "Cat bought at 14."
    ruff = next(q for q in BOOKS["parlett"].questions if q.key == "ruff")
    states = json.loads(str(client.pad_states(ruff, form)))
    node = states[0]
    for label in ("Open at 2", "Raise to 4", "Fold", "Match 4"):
        node = states[next(c[2] for c in node["calls"] if c[0] == label)]
    assert node["showing"] == [1, 2] and node["end"].startswith("Showdown: Ben and Cat show")


def test_a_name_cannot_end_the_states_script():
    form = parse_hand(BOOKS["parlett"], {}, {"dealer": "0"}, ("</script><b>", "Ben", "Cat"), [], 1)
    q = next(q for q in BOOKS["parlett"].questions if q.key == "auction")
    text = str(client.pad_states(q, form))
    assert "<" not in text and json.loads(text)[0]["who"] == "Ben (eldest)"


def test_the_third_count_is_what_the_reader_fills_in():
    q = next(q for q in BOOKS["parlett"].questions if q.kind == "counts")
    fills = json.loads(client.counts_fills(q))
    assert fills["0:5,1:4"] == "2:3" and fills["1:0,2:12"] == "0:0"
    assert "0:7,1:6" not in fills  # too many: nothing to fill (the server says why)
    assert len(fills) == 3 * sum(range(1, q.total + 2))


def test_the_control_fields_are_the_servers():
    data = json.loads(client.form_data())
    assert set(CONTROL_FIELDS) <= set(data["control"]) and "number" in data["control"]
    assert data["pads"] == {"bid": "bids", "ruff_call": "ruff_calls"} and data["prefixes"] == ["sig_"]
