"""server/warm.py: each server process follows the changes the other made, and at
start warms the evening's sessions, so no request pays for a session it has not
seen. "The other process" here is a real one: a Python started by the test, with
its own app on the same SQLite file (its caches are not this process's); `serve` itself warming
each of its processes: tests/server/test_warm_server.py."""

from __future__ import annotations

import os
import time

from support.data import load_example
from support.other_process import in_the_other_process, page_templates
from support.web import export, hand_fields, new_session, version_of

HANDS = load_example("parlett-evening.json")["hands"]


def stored_version(app, url) -> int:
    import sqlite3

    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("select version from sessions where id = ?", [url.rsplit("/", 1)[1]]).fetchone()[0]


def kept_settlement(app, url, version):
    from scorekeeper.web.cache import SETTLEMENTS

    return SETTLEMENTS.peek((app.config["DATABASE"], url.rsplit("/", 1)[1], version))


def test_a_change_made_by_the_other_process_is_followed_here(app, client):
    from scorekeeper.rules.record import settle
    from scorekeeper.server.warm import Follower

    url = new_session(client)
    for hand in HANDS[:2]:
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
    follower = Follower(app)
    assert follower.follow_once() == 0  # where it starts following: nothing yet
    assert follower.follow_once() == 0
    in_the_other_process(app, HANDS[2:4], [url])
    version = stored_version(app, url)  # read without settling it here
    assert kept_settlement(app, url, version) is None  # this process has not seen it
    assert follower.follow_once() == 1
    settled = kept_settlement(app, url, version)
    record = export(client, url)
    assert [str(b) for b in settled.balances] == [str(b) for b in settle(record).balances]
    assert len(settled.hands) == len(record["hands"]) == 3
    assert follower.follow_once() == 0  # followed once


def test_a_change_made_here_is_not_settled_again(app, client):
    from scorekeeper.server.warm import Follower

    url = new_session(client)
    follower = Follower(app)
    follower.follow_once()
    assert client.post(url + "/hands", data=hand_fields(HANDS[0], version_of(client, url))).status_code == 303
    client.get(url)  # the table page settles it here
    assert follower.follow_once() == 0


def test_at_start_the_evening_s_sessions_are_warmed_newest_first(app):
    import sqlite3

    from scorekeeper.server.warm import Follower

    old, middle, newest = in_the_other_process(app, HANDS[:2], new=3)
    database = app.config["DATABASE"]
    with sqlite3.connect(database) as conn:
        for url, stamp in (
            (old, "2020-01-01T20:00:00+00:00"),
            (middle, time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - 60))),
        ):
            conn.execute("update sessions set updated_at = ? where id = ?", [stamp, url.rsplit("/", 1)[1]])
    follower = Follower(app)
    assert follower.warm_recent(limit=1) == 1
    version = stored_version(app, newest)
    assert kept_settlement(app, newest, version) is not None and kept_settlement(app, middle, version) is None
    assert follower.warm_recent() == 1  # the middle one; the newest is warm already
    assert kept_settlement(app, middle, version) is not None
    assert kept_settlement(app, old, version) is None  # changed two days ago: not this evening
    assert follower.follow_once() == 0  # it follows from the newest change at its start


def test_a_session_gone_after_its_change_is_passed_over(app):
    """(Expired between the pass reading its change and warming it.)"""
    from scorekeeper.db import get_db
    from scorekeeper.server.warm import Follower

    with app.app_context():
        assert Follower(app).warm(get_db(), "Xx0123456789abcdefABCDEF") is False


def test_every_template_is_compiled_before_serving_and_kept_for_the_next_start(app, tmp_path):
    from scorekeeper import create_app
    from scorekeeper.server.warm import compile_templates

    app.instance_path = str(tmp_path / "instance")
    assert compile_templates(app) == len(page_templates())
    assert sorted(name for _, name in app.jinja_env.cache.keys()) == page_templates()
    kept = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "instance" / "cache" / "templates").glob("*.cache")}
    assert len(kept) == len(page_templates())

    again = create_app({"DATABASE": app.config["DATABASE"], "SECRET_KEY": "test", "TESTING": True})
    again.instance_path = app.instance_path
    assert compile_templates(again) == len(page_templates())
    # read from what the first start kept, none compiled and written again
    assert {
        p.name: p.stat().st_mtime_ns for p in (tmp_path / "instance" / "cache" / "templates").glob("*.cache")
    } == kept
    assert "Gleek" in again.test_client().get("/").get_data(as_text=True)


def watch_ids(app, urls) -> list[str]:
    """The watch link of each of these sessions (their scorer's URLs)."""
    import sqlite3

    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return [
            conn.execute("select watch_id from sessions where id = ?", [url.rsplit("/", 1)[1]]).fetchone()[0]
            for url in urls
        ]


def test_at_start_behind_the_front_the_evening_s_live_parts_are_left_for_it(app, front_files):
    """The front's folder is emptied when the server starts: without this, each
    link's first poll after a restart waits for the app."""
    from scorekeeper import store
    from scorekeeper.db import get_db
    from scorekeeper.server.warm import Follower

    files = front_files
    watches = watch_ids(app, in_the_other_process(app, HANDS[:2], new=2))
    assert not any(files.has_part(watch) for watch in watches)
    assert Follower(app).warm_recent() == 2
    with app.app_context():
        for watch in watches:
            folder = files.of(watch)
            assert (folder / f"same-{store.live_version(get_db(), watch, 'w')}").exists()
            assert b"#2" in (folder / "part.html").read_bytes()
    assert Follower(app).leave_for_the_front(watches) == 0  # there already: not made again


def test_at_start_one_process_leaves_the_parts_and_another_at_the_same_moment_none(app, front_files):
    """Both processes start together and share the front's folder: the one that
    finds the other leaving the parts leaves none (they were made twice before)."""
    import fcntl

    from scorekeeper.server import front_polls
    from scorekeeper.server.warm import Follower

    files = front_files
    watches = watch_ids(app, in_the_other_process(app, HANDS[:1], new=2))
    other = os.open(files.folder / front_polls.LOCK, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the other process, leaving them now
        assert Follower(app).leave_for_the_front(watches) == 0
        assert not any(files.has_part(watch) for watch in watches)
    finally:
        os.close(other)  # done (or gone: its lock goes with it)
    assert Follower(app).leave_for_the_front(watches) == 2
    assert all(files.has_part(watch) for watch in watches)


def test_templates_are_compiled_where_the_instance_folder_cannot_keep_them(app, tmp_path):
    """An instance folder that cannot be written (here: under a file, which even
    root cannot make a folder in): compiled all the same, kept nowhere."""
    from scorekeeper.server.warm import compile_templates

    (tmp_path / "a-file").write_text("")
    app.instance_path = str(tmp_path / "a-file" / "instance")
    assert compile_templates(app) == len(page_templates())
    assert app.jinja_env.bytecode_cache is None
    assert "Gleek" in app.test_client().get("/").get_data(as_text=True)
