"""What the server keeps between requests, and that it is never stale: a server
thread's SQLite connection (scorekeeper/db.py: never a stale read, never a
transaction or a lowered ``synchronous`` handed on), and the decoded hands
(store._HANDS: read again where they changed, in this process or another)."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from flask import g

from scorekeeper import store
from scorekeeper.db import get_db
from support.web import hand_fields, new_session, version_of

HAND = {
    "dealer": 0,
    "trump": "hearts",
    "turned_up": "9",
    "tiddy": None,
    "auction": {"buyer": 1, "price": 12},
    "ruff": {"winner": 2, "paid": [2, 2, 0]},
    "sets": [[], ["gleek:K"], []],
    "tricks": [5, 4, 3],
    "honours": {"A": 0, "K": 1, "Q": 2, "J": 0},
}


def kept(app):
    return getattr(app.extensions["scorekeeper.connections"].idle, "db", None)


def test_the_connection_is_kept_for_the_next_request_of_the_thread(app, client):
    url = new_session(client)
    client.get(url)
    first = kept(app)
    assert first is not None
    client.get(url)
    assert kept(app) is first
    # another thread gets its own
    seen = []
    thread = threading.Thread(target=lambda: seen.append((app.test_client().get(url).status_code, kept(app))))
    thread.start()
    thread.join()
    assert seen[0][0] == 200 and seen[0][1] is not None and seen[0][1] is not first  # its own
    assert kept(app) is first


def test_a_change_made_elsewhere_between_two_requests_is_seen(app, client):
    url = new_session(client)
    assert "No hands yet" in client.get(url).data.decode()  # the kept connection has read the session
    other = store.connect(app.config["DATABASE"])  # another process's connection, say
    store.add_hand(other, url.rsplit("/", 1)[1], HAND, 1)
    other.close()
    page = client.get(url).data.decode()
    assert "No hands yet" not in page and "#1" in page
    assert version_of(client, url) == 2


def test_a_kept_connection_writes_durably_again_after_a_tap(app, client):
    url = new_session(client)
    fields = hand_fields(HAND)
    fields["draft_version"] = "0"
    assert client.post(url + "/hands/check", data=fields, headers={"HX-Request": "true"}).status_code == 200
    db = kept(app)
    assert db.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL, as every save needs
    assert not db.conn.in_transaction
    assert client.post(url + "/hands", data=hand_fields(HAND, version_of(client, url))).status_code == 303


def test_a_request_that_failed_does_not_hand_its_connection_on(app, client):
    url = new_session(client)
    client.get(url)
    app.config["PROPAGATE_EXCEPTIONS"] = True
    with pytest.raises(RuntimeError):
        with app.test_request_context(url):
            db = get_db()
            db.conn.execute("BEGIN IMMEDIATE")
            raise RuntimeError("halfway")
    assert kept(app) is None  # closed, not kept
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        db.conn.execute("select 1")
    # nothing is locked: the next request writes
    assert client.post(url + "/hands", data=hand_fields(HAND, version_of(client, url))).status_code == 303


def test_a_connection_left_in_a_transaction_is_closed_not_kept(app, client):
    url = new_session(client)
    with app.test_request_context(url):
        db = get_db()
        db.conn.execute("BEGIN")
        assert g.db is db
    assert kept(app) is None
    assert client.get(url).status_code == 200


def test_hands_changed_elsewhere_are_read_again_and_only_they(app, client):
    """The store's decoded hands (store._HANDS): when the version moved on in
    another process (here: written past the store), each hand whose stored text
    changed is decoded again; the others stay the same objects."""
    import json

    import sqlite3

    from support.sessions import long_session

    response = client.post("/import", data=json.dumps(long_session(40)), content_type="application/json")
    sid = response.headers["Location"].rsplit("/", 1)[1]
    db = store.connect(app.config["DATABASE"])
    before = store.get_session(db, sid)
    edited = dict(before.hands[2], note="edited elsewhere")
    raw = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    raw.execute("update hands set data = ? where session_id = ? and number = 3", [json.dumps(edited), sid])
    raw.execute("insert into hands (session_id, number, data) values (?, 41, ?)", [sid, json.dumps(before.hands[0])])
    raw.execute("update sessions set version = version + 1 where id = ?", [sid])
    raw.close()
    after = store.get_session(db, sid)
    assert after.version == before.version + 1
    assert after.hands == before.hands[:2] + [edited] + before.hands[3:] + [before.hands[0]]
    assert all(a is b for i, (a, b) in enumerate(zip(after.hands, before.hands)) if i != 2)
    assert after.hands[2] is not before.hands[2] and after.hands[40] is not before.hands[0]
    # and a change through the store keeps them too
    saved = store.add_hand(db, sid, before.hands[1], after.version)
    again = store.get_session(db, sid)
    assert again.hands[:41] == after.hands and all(a is b for a, b in zip(again.hands, after.hands))
    assert again.hands == saved.hands


def test_the_decoded_hands_kept_are_bounded_by_sessions_and_by_hands():
    from scorekeeper.store import _Hands

    kept = _Hands(size=3, budget=100)
    for n in range(5):
        kept._keep(("db", f"s{n}"), 1, [{}] * 30, [None] * 30)
    assert [key[1] for key in kept.lists] == ["s2", "s3", "s4"]  # at most 3 sessions
    kept._keep(("db", "big"), 1, [{}] * 90, [None] * 90)
    assert [key[1] for key in kept.lists] == ["big"]  # at most 100 hands (but always the newest)
