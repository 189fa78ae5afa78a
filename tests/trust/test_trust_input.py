"""Trust: input that used to get past the door, and is now refused there.

- a lone surrogate (``"\\ud800"``, which ``json.loads`` returns but UTF-8 cannot
  encode) anywhere in a record is refused where it arrives, with a plain line,
  and nothing is stored; ``backup`` never stops at one bad session; ``settle``
  and ``sheet`` print problem lines, never a traceback;
- imports apply the forms' limits (title, note, names) and a client address
  may create only so many sessions a minute (429 with Retry-After);
- every change says which version it was based on, or it is refused (409);
- ``scorekeeper settle`` / ``sheet`` refuse records over the web import's size.
"""

from __future__ import annotations

import copy
import io
import json
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from markupsafe import escape

from support.data import load_example
from support.database import fresh_database
from support.web import hand_fields

from scorekeeper import create_app, store
from scorekeeper.rules.record import validate

ROOT = Path(__file__).resolve().parents[2]
EVENING = load_example("parlett-evening.json")
LONE = "\ud800"


@pytest.fixture
def app(tmp_path, migrated_database):
    return create_app(
        {
            "DATABASE": fresh_database(migrated_database, tmp_path),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


def count(app, table="sessions") -> int:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute(f"select count(*) from {table}").fetchone()[0]
    finally:
        conn.close()


def json_body(record) -> bytes:
    """JSON text as a client sends it: ``\\ud800`` escaped, as json.dumps writes it."""
    return json.dumps(record).encode()


def with_lone_surrogate(where: str) -> dict:
    record = copy.deepcopy(EVENING)
    if where == "players":
        record["players"][1] = "Ben" + LONE
    elif where == "title":
        record["title"] = "Thursday " + LONE
    elif where == "note":
        record["hands"][2]["note"] = LONE + " fell"
    return record


SURROGATE_PROBLEMS = {
    "players": "players: a name contains a character that is not valid text",
    "title": "title: the title contains a character that is not valid text",
    "note": "hand 3: note contains a character that is not valid text",
}


# ---------------------------------------------------------------- 1. lone surrogates


@pytest.mark.parametrize("where", ["players", "title", "note"])
def test_a_lone_surrogate_in_an_import_is_refused_and_nothing_stored(app, client, where):
    response = client.post("/import", data=json_body(with_lone_surrogate(where)), content_type="application/json")
    assert response.status_code == 422, response.status_code
    assert response.json == {"problems": [SURROGATE_PROBLEMS[where]]}
    assert count(app) == 0 and count(app, "hands") == 0
    # the form upload says the same on a page
    response = client.post("/import", data={"record": json_body(with_lone_surrogate(where)).decode()})
    assert response.status_code == 422
    assert SURROGATE_PROBLEMS[where] in response.get_data(as_text=True)
    assert count(app) == 0


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


@pytest.mark.parametrize("name", ["parlett-evening.json", "wits1671-evening.json", "modern-evening.json"])
def test_a_lone_surrogate_anywhere_is_a_problem_line_that_can_be_printed(name):
    """Every value and every key, at every depth: refused, and every problem line
    encodes as UTF-8 (a problem line itself must never crash a later print)."""
    base = load_example(name)
    for path in list(_paths(base)):
        for kind in ("value", "key"):
            record = copy.deepcopy(base)
            parent = record
            for step in path[:-1]:
                parent = parent[step]
            if not path:
                if kind == "key":
                    record[LONE] = 1
                else:
                    continue
            elif kind == "value":
                parent[path[-1]] = LONE
            elif isinstance(parent[path[-1]], dict):
                parent[path[-1]][LONE + "k"] = 1
            else:
                continue
            problems = validate(record)
            assert problems, (path, kind)
            for problem in problems:
                str(problem).encode("utf-8")  # never raises
                assert str(problem).isprintable(), (path, kind, str(problem))


def _insert_session(
    db_path: str, session_id: str, watch_id: str, note: str | None = None, title: str | None = None
) -> None:
    """A session row as an older version of the app could have left it (bypassing
    today's checks): the test's way to have a bad session already stored."""
    conn = sqlite3.connect(db_path)
    hand = dict(EVENING["hands"][0])
    if note is not None:
        hand["note"] = note
    with conn:
        conn.execute(
            "insert into sessions (id, watch_id, rulebook, options, title, first_dealer, "
            "version, created_at, updated_at) values (?, ?, 'parlett', '{}', ?, 0, 1, ?, ?)",
            [session_id, watch_id, title, "2026-01-0%sT00:00:00+00:00" % session_id[-1], "2026-01-01T00:00:00+00:00"],
        )
        conn.executemany(
            "insert into seats (session_id, seat, name) values (?, ?, ?)",
            [(session_id, seat, name) for seat, name in enumerate(["Ann", "Ben", "Cat"])],
        )
        conn.execute(
            "insert into hands (session_id, number, data) values (?, 1, ?)", [session_id, json.dumps(hand)]
        )  # ensure_ascii: the surrogate as \ud800
        conn.execute("insert into history (session_id, action, version, at) values (?, 'create', 1, 'x')", [session_id])
    conn.close()


def test_backup_reports_a_bad_session_and_carries_on(app, tmp_path):
    ids = [f"{'A' * 23}{n}" for n in (1, 2, 3)]
    for n, sid in enumerate(ids):
        _insert_session(app.config["DATABASE"], sid, f"{'W' * 23}{n + 1}", note=LONE + " bad" if n == 1 else "fine")
    out = tmp_path / "full"
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(out)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    assert sorted(p.name for p in out.glob("*.json")) == [f"{ids[0]}.json", f"{ids[2]}.json"]
    lines = result.output.splitlines()
    assert f"session {ids[1]}: not backed up: it holds text that is not valid (a lone surrogate)" in lines
    assert "Backed up 2 session(s) to " + str(out) + "; 1 could not be backed up" in lines
    assert not list(out.glob(".tmp-*"))


@pytest.mark.parametrize("command", ["settle", "sheet"])
@pytest.mark.parametrize("where", ["players", "title", "note"])
def test_settle_and_sheet_print_problem_lines_not_a_traceback(tmp_path, command, where):
    path = tmp_path / "s.json"
    path.write_bytes(json_body(with_lone_surrogate(where)))
    args = [sys.executable, "-m", "scorekeeper", command, str(path)]
    if command == "sheet":
        args += ["-o", str(tmp_path / "out.pdf")]
    result = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [SURROGATE_PROBLEMS[where]]
    assert not (tmp_path / "out.pdf").exists()


# ---------------------------------------------------------------- 7. every change names its version


def import_evening(client) -> str:
    response = client.post("/import", json=EVENING)
    assert response.status_code == 303, response.data
    return response.headers["Location"]


def stored(app, url) -> tuple:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        sid = url.rsplit("/", 1)[1]
        return (
            conn.execute("select version from sessions where id = ?", [sid]).fetchone(),
            conn.execute("select number, data from hands where session_id = ? order by number", [sid]).fetchall(),
            conn.execute("select count(*) from history where session_id = ?", [sid]).fetchone(),
        )
    finally:
        conn.close()


@pytest.mark.parametrize("version", [None, "", "abc", "-1", "1.5", " 2", "0x2"])
@pytest.mark.parametrize("route", ["/hands", "/hands/1", "/hands/4/delete", "/undo"])
def test_a_change_without_a_valid_version_is_refused_with_the_fresh_state(app, client, route, version):
    url = import_evening(client)
    hands = EVENING["hands"]
    assert client.post(url + "/hands", data=hand_fields(hands[-1], 1)).status_code == 303  # now version 2
    before = stored(app, url)
    if route in ("/hands", "/hands/1"):
        fields = hand_fields(dict(hands[-1] if route == "/hands" else hands[0], note="no version"))
    else:
        fields = {}
    if version is not None:
        fields["version"] = version
    response = client.post(url + route, data=fields)
    assert response.status_code == 409, (route, version, response.status_code)
    page = response.get_data(as_text=True)
    assert "Someone else changed this session" in page or "which version" in page
    if route in ("/hands", "/hands/1"):  # the form again, carrying the fresh version
        assert re.search(r'name="version" value="2"', page), page[-2000:]
    assert stored(app, url) == before


def test_the_same_hand_posted_twice_without_a_version_is_never_stored(app, client):
    url = import_evening(client)
    before = stored(app, url)
    hand = EVENING["hands"][-1]
    for _ in range(2):
        assert client.post(url + "/hands", data=hand_fields(hand)).status_code == 409
    assert stored(app, url) == before


def test_store_refuses_a_change_without_a_version(app, client):
    url = import_evening(client)
    sid = url.rsplit("/", 1)[1]
    db = store.connect(app.config["DATABASE"])
    hand = EVENING["hands"][-1]
    for change in (
        lambda: store.add_hand(db, sid, hand, None),
        lambda: store.replace_hand(db, sid, 1, hand, None),
        lambda: store.delete_last_hand(db, sid, None),
        lambda: store.undo(db, sid, None),
    ):
        with pytest.raises(store.StaleEdit):
            change()
    assert store.get_session(db, sid).version == 1


# ---------------------------------------------------------------- 6. the forms' limits, and a rate limit


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda r: r.update(title="x" * 1_900_000), "title: at most 120 characters (this one has 1900000)"),
        (lambda r: r.update(title="x" * 121), "title: at most 120 characters (this one has 121)"),
        (lambda r: r["hands"][1].update(note="n" * 501), "hand 2: note: at most 500 characters (this one has 501)"),
        (lambda r: r["players"].__setitem__(0, "p" * 41), "players: seat 0's name is 41 characters long; at most 40"),
    ],
)
def test_an_import_over_the_forms_limits_is_refused_and_nothing_stored(app, client, change, problem):
    record = copy.deepcopy(EVENING)
    change(record)
    response = client.post("/import", json=record)
    assert response.status_code == 422
    assert response.json == {"problems": [problem]}
    page = client.post("/import", data={"record": json.dumps(record)}).get_data(as_text=True)
    assert str(escape(problem)) in page
    assert count(app) == 0 and count(app, "hands") == 0


def test_an_import_at_the_forms_limits_is_stored(app, client):
    record = copy.deepcopy(EVENING)
    record["title"] = "t" * 120
    record["hands"][1]["note"] = "n" * 500
    record["players"][0] = "p" * 40
    assert client.post("/import", json=record).status_code == 303
    assert count(app) == 1


def test_settle_keeps_accepting_any_title_the_spec_allows():
    record = dict(copy.deepcopy(EVENING), title="t" * 5000)
    record["hands"][0]["note"] = "n" * 5000
    assert validate(record) == []  # the app's limits are the store's, not the record format's


def test_an_edit_cannot_carry_a_note_over_the_limit(app, client):
    url = import_evening(client)
    sid = url.rsplit("/", 1)[1]
    db = store.connect(app.config["DATABASE"])
    with pytest.raises(store.Refused) as refused:
        store.replace_hand(db, sid, 1, dict(EVENING["hands"][0], note="n" * 501), 1)
    assert refused.value.lines() == ["hand 1: note: at most 500 characters (this one has 501)"]
    assert store.get_session(db, sid).version == 1


NEW_SESSION = {
    "player_0": "Ann",
    "player_1": "Ben",
    "player_2": "Cat",
    "rulebook": "parlett",
    "first_dealer": "0",
    "stake": "",
}


@pytest.fixture
def limited(tmp_path):
    return create_app(
        {
            "DATABASE": str(tmp_path / "l.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 3,
        }
    )


def test_sessions_created_per_address_per_minute_are_limited(limited):
    client = limited.test_client()
    assert client.post("/import", json=EVENING).status_code == 303
    assert client.post("/sessions", data=NEW_SESSION).status_code == 303
    # (another evening: the same one again would open the session the first import made)
    assert client.post("/import", data={"record": json.dumps(dict(EVENING, title="Another"))}).status_code == 303
    response = client.post("/import", json=EVENING)  # the fourth in a minute
    assert response.status_code == 429
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= 60
    assert response.json == {
        "problems": [
            f"Too many new sessions from this address (at most 3 a minute, imports and refused tries included). "
            f"Try again in {wait} seconds."
        ],
        "retry_after": wait,
    }
    response = limited.test_client().post("/sessions", data=NEW_SESSION)  # another browser, same address
    assert response.status_code == 429 and 1 <= int(response.headers["Retry-After"]) <= 60
    assert "Too many new sessions from this address" in response.get_data(as_text=True)
    assert count(limited) == 3
    # another address is not held up
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert other.post("/sessions", data=NEW_SESSION).status_code == 303
    assert count(limited) == 4


def test_refused_imports_and_forms_count_toward_the_same_limit(limited):
    """Refusals are counted too: 3,004 refused imports in 30 s from one address slowed everyone
    (each was parsed and refused). Every try counts, before its upload is read."""
    from support.hostile import many_attachments_pdf

    client = limited.test_client()
    bad = {"player_0": "Ann", "player_1": "", "player_2": "Cat", "rulebook": "parlett", "first_dealer": "0"}
    assert client.post("/import", data={"record": "{not json"}).status_code == 422
    assert (
        client.post(
            "/import",
            data={"file": (io.BytesIO(many_attachments_pdf()), "sheet.pdf")},
            content_type="multipart/form-data",
        ).status_code
        == 422
    )
    assert client.post("/sessions", data=bad).status_code == 422
    for attempt in ({"json": EVENING}, {"data": NEW_SESSION}, {"data": {"record": "{not json"}}):
        path = "/sessions" if attempt.get("data") is NEW_SESSION else "/import"
        response = client.post(path, **attempt)  # good or bad: the minute's 3 tries are used
        assert response.status_code == 429, (path, attempt)
        assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert count(limited) == 0
    other = limited.test_client()  # another address is not held up
    other.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert other.post("/import", json=EVENING).status_code == 303
    db = store.connect(limited.config["DATABASE"])
    assert db.execute("select count(*) from creations").fetchone()[0] == 4  # 429s are not even counted


def test_the_creation_limit_is_a_sliding_minute(limited):
    db = store.connect(limited.config["DATABASE"])
    record = {k: v for k, v in EVENING.items() if k != "hands"} | {"hands": []}
    for at in (1000.0, 1010.0, 1020.0):
        store.create_session(db, record, creator=("192.0.2.1", 3), at=at)
    with pytest.raises(store.RateLimited) as limited_error:
        store.create_session(db, record, creator=("192.0.2.1", 3), at=1030.0)
    assert limited_error.value.retry_after == 30  # when the one at 1000 is a minute old
    store.create_session(db, record, creator=("192.0.2.1", 3), at=1060.5)
    assert db.execute("select count(*) from sessions").fetchone()[0] == 4


# ---------------------------------------------------------------- 9. settle and sheet refuse what the web import refuses


def run_cli(tmp_path, command, path, stdin=None):
    args = [sys.executable, "-m", "scorekeeper", command, str(path)]
    if command == "sheet":
        args += ["-o", str(tmp_path / "out.pdf")]
    return subprocess.run(args, capture_output=True, cwd=ROOT, timeout=60, input=stdin)


@pytest.mark.parametrize("command", ["settle", "sheet"])
def test_a_record_over_the_size_limit_is_refused_at_once(tmp_path, command):
    from support.sessions import long_session

    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps(long_session(100_000)))  # ~30 MB: sheet ran past 3 minutes
    started = time.monotonic()
    result = run_cli(tmp_path, command, huge)
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().splitlines() == [
        "record: the file is larger than 2 MB, the most a session record may be (as the web import)"
    ]
    assert time.monotonic() - started < 10
    # the same from standard input
    result = run_cli(tmp_path, command, "-", stdin=huge.read_bytes())
    assert result.returncode == 1 and b"larger than 2 MB" in result.stderr
    assert not (tmp_path / "out.pdf").exists()


@pytest.mark.parametrize("command", ["settle", "sheet"])
def test_a_record_over_the_hand_limit_is_refused(tmp_path, command):
    from support.sessions import long_session

    record = long_session(1001)
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record, separators=(",", ":")))
    assert path.stat().st_size < 2 * 1024 * 1024
    result = run_cli(tmp_path, command, path)
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().splitlines() == [
        "hands: a session holds at most 1000 hands, not 1001 (as the web import)"
    ]


def test_a_record_at_the_limits_still_settles(tmp_path):
    from support.sessions import long_session

    path = tmp_path / "long.json"
    path.write_text(json.dumps(long_session(1000)))
    result = run_cli(tmp_path, "settle", path)
    assert result.returncode == 0, result.stderr
    assert len(json.loads(result.stdout)["hands"]) == 1000


def test_the_limits_are_in_the_help():
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=30
    )
    assert "at most 2 MB and 1,000 hands" in " ".join(result.stdout.split())
