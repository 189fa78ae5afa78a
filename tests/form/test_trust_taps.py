"""Trust in taps: a tap cannot break the table, and a hand in
progress obeys a saved hand's limits. A tap stores only answers of the book's
own shapes (anything else is refused with a line, nothing stored), and nothing
stored can make a page fail: an answer stored by an older release that no
longer fits is shown as unreadable, never a 500."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from werkzeug.datastructures import MultiDict

from support.web import hand_fields, new_session

HX = {"HX-Request": "true"}
DEEP = "[" * 1000 + "]" * 1000


def draft_row(app, url):
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute(
            "select answers, version from drafts where session_id = ?", [url.rsplit("/", 1)[1]]
        ).fetchone()
    finally:
        conn.close()


def every_page(client, url) -> dict[str, int]:
    """The table, watch, live, players', settle, hand, history and form pages of a session."""
    table = client.get(url).get_data(as_text=True)
    watch = re.search(r'href="[^"]*(/w/[^"?]+)"', table).group(1)
    paths = [
        url,
        url + "/live",
        watch,
        watch + "/live",
        url + "/settle",
        watch + "/settle",
        url + "/history",
        url + "/hands/1",
        watch + "/hands/1",
        url + "/hands/new",
        url + "/sheet",
    ]
    paths += re.findall(r'<a href="https?://[^"/]+(/p/[^"]+)">', table)  # the players' links
    return {path: client.get(path).status_code for path in paths}


@pytest.fixture
def table(client, example):
    """A confirm session (players' links too) with one hand saved."""
    url = new_session(client, confirm="on", scorer="0")
    hand = example("parlett-evening.json")["hands"][0]
    assert client.post(url + "/hands", data=hand_fields(dict(hand, dealer=0), 1)).status_code == 303
    return url


@pytest.mark.parametrize(
    "field, value, line",
    [
        ("set_0", "x", 'set_0: ["x"] is not a list of its chips'),  # the six-byte tap
        ("trump", "bogus", 'trump: "bogus" is not one of its choices'),
        ("bids", DEEP, "bids: not a list of at most 60 calls"),
        ("ruff_calls", DEEP, "ruff_calls: not a list of at most 60 calls"),
        ("bid", DEEP, 'bid: "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[… is not a call'),
        ("ruff_call", DEEP, 'ruff_call: "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[… is not a call'),
        ("bid", '{"a":' * 1000 + "1" + "}" * 1000, "is not a call"),
    ],
)
def test_a_tap_of_an_unknown_shape_is_refused_and_every_page_still_answers(app, client, table, field, value, line):
    before = client.post(
        table + "/hands/check", data={"dealer": "1", "trump": "hearts", "draft_version": "0"}, headers=HX
    )
    assert before.status_code == 200
    stored = draft_row(app, table)
    response = client.post(
        table + "/hands/check",
        data={"dealer": "1", "trump": "hearts", field: value, "draft_version": str(stored[1])},
        headers=HX,
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Not kept: " in page and line in page.replace("&#34;", '"')
    assert draft_row(app, table) == stored  # nothing stored
    assert set(every_page(client, table).values()) == {200}
    # a Save with it is refused too, never a 500
    assert client.post(table + "/hands", data={"dealer": "1", field: value, "version": "2"}).status_code == 422


def test_a_stored_answer_that_no_longer_fits_is_shown_as_unreadable_never_a_500(app, client, table):
    """As an older release let a tap store them: every page still answers."""
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute(
            "insert into drafts (session_id, token, number, answers, version, started_at, updated_at) "
            "values (?, ?, 2, ?, 4, 'x', 'x')",
            [
                table.rsplit("/", 1)[1],
                "D" * 24,
                json.dumps(
                    {
                        "dealer": "1",
                        "trump": "hearts",
                        "set_0": ["x"],
                        "sets": "some",
                        "bids": DEEP,
                        "ruff_calls": "[" * 5000 + "]" * 5000,
                        "junk": "1",
                        "tricks_0": "99",
                    }
                ),
            ],
        )
    conn.close()
    assert set(every_page(client, table).values()) == {200}
    assert "Some of its answers could not be read and are left out" in client.get(table).get_data(as_text=True)
    form = client.get(table + "/hands/new").get_data(as_text=True)
    assert "An answer here could not be read, so it was left out: answer it again." in form
    assert re.search(r'name="trump" value="hearts" checked', form)  # what could be read is kept


def test_a_tap_obeys_a_saved_hands_limits(app, client):
    url = new_session(client)
    start = {"dealer": "0", "trump": "hearts", "draft_version": "0"}
    assert client.post(url + "/hands/check", data=start, headers=HX).status_code == 200
    stored = draft_row(app, url)
    refused = [
        ({"note": "n" * 1_500_000}, "note: at most 500 characters (this one has 1500000)"),
        ({"note": "n" * 501}, "note: at most 500 characters (this one has 501)"),
        ({f"junk_{n}": "x" for n in range(5000)}, '"junk_0": not a field of this rule book'),
        ({"bids": json.dumps([[1, 12]] * 61)}, "bids: not a list of at most 60 calls"),
        ({"price_other": "9" * 21}, "price_other: at most 20 characters (this one has 21)"),
        ({"turned_up": "9", "card_points_0": "80"}, '"card_points_0": not a field of this rule book'),
    ]
    for fields, line in refused:
        response = client.post(
            url + "/hands/check", data={**start, **fields, "draft_version": str(stored[1])}, headers=HX
        )
        assert response.status_code == 422, line
        assert line in response.get_data(as_text=True).replace("&#34;", '"').replace("&#39;", "'"), line
        assert draft_row(app, url) == stored, line
    fine = client.post(
        url + "/hands/check", data={**start, "note": "n" * 500, "draft_version": str(stored[1])}, headers=HX
    )
    assert fine.status_code == 200
    assert len(draft_row(app, url)[0]) < 1000


@pytest.mark.parametrize("version", [None, "abc", "", "-1", "1.0"])
def test_a_tap_that_does_not_say_its_version_is_refused_like_a_save(app, client, version):
    """A stale tap is never merged blindly into the hand in progress."""
    url = new_session(client)
    assert (
        client.post(
            url + "/hands/check", data={"dealer": "0", "trump": "hearts", "draft_version": "0"}, headers=HX
        ).status_code
        == 200
    )
    stored = draft_row(app, url)
    data = MultiDict({"dealer": "0", "trump": "spades", "changed": "trump"})
    if version is not None:
        data["draft_version"] = version
    response = client.post(url + "/hands/check", data=data, headers=HX)
    assert response.status_code == 409
    assert "did not say which version of the hand in progress it was based on" in response.get_data(as_text=True)
    assert draft_row(app, url) == stored


def test_undo_takes_back_a_call_an_older_release_kept_though_the_rules_refused_it(app, client):
    """The pad never gets stuck: calls stored with a refused one (Ben passes out of turn)
    still let the pad go on: Undo takes it back, then the next call is taken."""
    url = new_session(client)
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute(
            "insert into drafts (session_id, token, number, answers, version, started_at, updated_at) "
            "values (?, ?, 1, ?, 2, 'x', 'x')",
            [
                url.rsplit("/", 1)[1],
                "D" * 24,
                json.dumps(
                    {"dealer": "0", "trump": "hearts", "turned_up": "9", "bids": json.dumps([[1, 12], [1, "pass"]])}
                ),
            ],
        )
    conn.close()
    page = client.get(url + "/hands/new").get_data(as_text=True)
    assert "Undo last call" in page
    data = {
        "dealer": "0",
        "trump": "hearts",
        "turned_up": "9",
        "bids": json.dumps([[1, 12], [1, "pass"]]),
        "draft_version": "2",
        "number": "1",
    }
    refused = client.post(url + "/hands/check", data={**data, "bid": '[2, "pass"]'}, headers=HX)
    assert refused.status_code == 422 and "Not kept: " in refused.get_data(as_text=True)
    undone = client.post(url + "/hands/check", data={**data, "bid": "undo"}, headers=HX)
    assert undone.status_code == 200
    assert json.loads(json.loads(draft_row(app, url)[0])["bids"]) == [[1, 12]]
    taken = client.post(
        url + "/hands/check", data={**data, "bids": "[[1, 12]]", "bid": '[2, "pass"]', "draft_version": "3"}, headers=HX
    )
    assert taken.status_code == 200
    assert json.loads(json.loads(draft_row(app, url)[0])["bids"]) == [[1, 12], [2, "pass"]]


def test_each_answer_of_a_hand_in_progress_remembers_the_version_that_changed_it(app):
    """Two phones' taps merge answer by answer: the store keeps, per answer, the version that last
    changed it (what a tap a version behind is merged by)."""
    from scorekeeper import store
    from support.web import PLAYERS

    db = store.connect(app.config["DATABASE"])
    session = store.create_session(
        db, {"format": "gleek-session/1", "rulebook": "parlett", "options": {}, "players": list(PLAYERS), "hands": []}
    )
    store.keep_draft(db, session.id, 1, {"dealer": "0", "trump": "hearts"}, 0)
    store.keep_draft(db, session.id, 1, {"dealer": "0", "trump": "hearts", "turned_up": "9"}, 1)
    draft = store.keep_draft(db, session.id, 1, {"dealer": "0", "trump": "spades", "turned_up": "9", "note": ""}, 2)
    assert draft.field_versions == {"dealer": 1, "trump": 3, "turned_up": 2}
    assert store.get_draft(db, session.id).field_versions == draft.field_versions
    try:
        store.keep_draft(db, session.id, 1, {"trump": "clubs"}, 2)
    except store.StaleDraft as stale:
        assert stale.current.version == 3 and stale.current.field_versions["trump"] == 3
    else:
        raise AssertionError("a tap a version behind was written")
