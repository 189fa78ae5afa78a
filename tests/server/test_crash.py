"""Crash safety: the real server (``python -m scorekeeper.server.serve``, as
`make run` starts it: waitress) is killed with SIGKILL at random moments while a
client saves, edits and deletes hands; after every kill the database must hold
exactly what was acknowledged, and once restarted no orphan ``.tmp-*`` snapshot
file is left in the backups.

After each kill (before the restart) the database file is opened directly:
``PRAGMA integrity_check`` is ``ok``, no foreign key dangles, and every session's
hands are exactly the acknowledged ones, plus at most the one change that was in
flight when the server died (committed or not, never half). Each session's
version and history agree with its hands, and its record validates. After the
restart the same is checked over HTTP (export.json). Loopback only.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from werkzeug.datastructures import MultiDict

from support.data import load_example
from support.web import hand_fields, http_request, apply_change

from scorekeeper.rules.record import validate

ROOT = Path(__file__).resolve().parents[2]

# Valid in any order in a parlett session: each has a ruff (never ``null``, so every
# hand's opening stake S is 2) and each loser pays S + 2k.
EVENING = load_example("parlett-evening.json")["hands"]
SEED = load_example("parlett-seed-example.json")["hands"][0]
HANDS = [EVENING[1], EVENING[2], dict(SEED, ruff={"winner": 2, "paid": [2, 4, 0]})]
assert all(h["ruff"] is not None for h in HANDS)

MIN_KILLS = 20
MAX_KILLS = 25
TIME_BUDGET = 60.0  # seconds for the kill loop
CEILING = 300.0  # seconds at most, to reach MIN_KILLS on a machine busy with other work


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _running_in_group(pgid: int) -> list[int]:
    """Processes of group ``pgid`` any of whose threads is not (yet) dead.

    Every thread, not only the first: a process killed while one of its
    threads is inside a system call (``fsync`` of the WAL, under group commit)
    shows its leader as a zombie while that thread still holds the file and
    its locks; reading the database then would misjudge the change in flight."""
    running = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == pgid and _threads_alive(int(entry)):
                running.append(int(entry))
    return running


def _threads_alive(pid: int) -> bool:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for task in tasks:
        try:
            state = Path(f"/proc/{pid}/task/{task}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            return True
    return False


def test_a_process_counts_as_running_while_any_thread_is(tmp_path):
    """The leader of this test's own process is alive, and so is the process."""
    assert _threads_alive(os.getpid())
    assert not _threads_alive(2**22 + 7)  # no such process


class Server:
    """The real server, as `make run` starts it (``python -m scorekeeper.server.serve``), on
    a free loopback port with a temp instance folder (its database and backups)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.instance = folder / "instance"
        self.instance.mkdir()
        # the crash client makes a new session every 150 hands, faster than a table does
        (self.instance / "config.py").write_text("SESSIONS_PER_MINUTE = 10_000\n")
        self.database = self.instance / "scorekeeper.db"
        self.backups = self.instance / "backups"
        self.proc = None
        self.port = None
        self.starts = 0

    def start(self, timeout: float = 20.0) -> None:
        self.port = free_port()
        env = dict(os.environ, SCOREKEEPER_INSTANCE=str(self.instance))
        log = open(self.folder / "server.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        log.close()
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited: " + (self.folder / "server.log").read_text()[-2000:])
            try:
                status, _, _ = self.request("GET", "/manifest.webmanifest", timeout=1)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.03)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL the whole server (and any PDF renderer: its own process group)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)
            # its children die with the group (a dead child may linger as a zombie
            # until init reaps it: it holds no file or lock any more; a thread in an
            # fsync on a slow disk can take seconds to die)
            deadline = time.monotonic() + 30
            while _running_in_group(self.proc.pid) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not _running_in_group(self.proc.pid)
        self.proc = None

    def request(self, method, path, fields=None, timeout=10):
        return http_request("127.0.0.1", self.port, method, path, fields, timeout)


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    yield server
    server.kill()


# ------------------------------------------------- the client (web_helpers.apply_change models what was acknowledged)


class Client:
    """One table saving as fast as it can; knows exactly what the server acknowledged."""

    def __init__(self, server: Server, rng: random.Random):
        self.server, self.rng = server, rng
        self.sessions: dict[str, list] = {}  # id -> acknowledged hands
        self.versions: dict[str, int] = {}
        self.current: str | None = None
        self.inflight = None  # (session id or None, op) sent, no answer yet
        self.orphans: set[str] = set()  # created, killed before the answer: stored, never ours
        self.counter = 0
        self.acked = 0
        self.unexpected = []

    def run(self, stop: threading.Event) -> None:
        try:
            if self.current is None or len(self.sessions[self.current]) > 150:
                self.inflight = (None, ("create", None))
                status, headers, _ = self.server.request(
                    "POST",
                    "/sessions",
                    [
                        ("player_0", "Ann"),
                        ("player_1", "Ben"),
                        ("player_2", "Cat"),
                        ("rulebook", "parlett"),
                        ("first_dealer", "0"),
                        ("stake", ""),
                    ],
                )
                if status != 303:
                    self.unexpected.append(("create", status))
                    return
                sid = headers["Location"].rsplit("/", 1)[1]
                self.sessions[sid], self.versions[sid], self.current = [], 1, sid
                self.inflight = None
                self.acked += 1
            sid = self.current
            while not stop.is_set():
                hands = self.sessions[sid]
                self.counter += 1
                roll = self.rng.random()
                base = dict(self.rng.choice(HANDS), note=f"crash {self.counter}")
                if hands and roll < 0.15:
                    op, path = ("edit", base), f"/s/{sid}/hands/1"
                    fields = hand_fields(base, self.versions[sid])
                elif hands and roll < 0.25:
                    op, path = ("delete", None), f"/s/{sid}/hands/{len(hands)}/delete"
                    fields = {"version": str(self.versions[sid])}
                else:
                    op, path = ("add", base), f"/s/{sid}/hands"
                    fields = hand_fields(base, self.versions[sid])
                items = list(fields.items(multi=True)) if isinstance(fields, MultiDict) else list(fields.items())
                self.inflight = (sid, op)
                status, headers, body = self.server.request("POST", path, items)
                location = headers.get("Location", "")
                if status != 303:
                    text = body.decode(errors="replace")
                    self.unexpected.append(
                        (
                            op[0],
                            status,
                            location,
                            re.findall(r'class="(?:problem|message|todo-note)"[^>]*>([^<]*)<', text) or text[-800:],
                        )
                    )
                    return
                self.sessions[sid] = apply_change(op, hands)
                self.versions[sid] += 1
                self.inflight = None
                self.acked += 1
        except (OSError, http.client.HTTPException):
            return  # the server died under us: whatever was in flight stays in self.inflight


# ---------------------------------------------------------------- checks


def stored_hands(conn, sid) -> list:
    rows = conn.execute("select number, data from hands where session_id = ? order by number", [sid]).fetchall()
    assert [n for n, _ in rows] == list(range(1, len(rows) + 1)), f"{sid}: hand numbers have gaps"
    return [json.loads(d) for _, d in rows]


def check_database(server: Server, client: Client) -> dict:
    """Open the file the dead server left; returns what was found for the in-flight op."""
    conn = sqlite3.connect(server.database, timeout=5)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        stored_ids = {r[0] for r in conn.execute("select id from sessions")}
        known = set(client.sessions)
        extra = stored_ids - known - client.orphans
        in_flight_sid, op = client.inflight if client.inflight else (None, None)
        if op and op[0] == "create":
            assert len(extra) <= 1, extra  # created but not acknowledged: allowed, once
        else:
            assert not extra, extra
        assert known <= stored_ids, known - stored_ids
        outcome = {}
        for sid in known:
            hands = stored_hands(conn, sid)
            acked = client.sessions[sid]
            if sid == in_flight_sid and hands != acked:
                assert hands == apply_change(op, acked), (
                    f"{sid}: neither the acknowledged state nor it plus the change in flight"
                )
                outcome = {"sid": sid, "committed": True}
            else:
                assert hands == acked, f"{sid}: stored hands differ from the acknowledged ones"
            (version,) = conn.execute("select version from sessions where id = ?", [sid]).fetchone()
            players = json.dumps(
                [name for (name,) in conn.execute("select name from seats where session_id = ? order by seat", [sid])]
            )
            history = conn.execute("select count(*), max(version) from history where session_id = ?", [sid]).fetchone()
            assert history == (version, version), (sid, version, history)
            record = {
                "format": "gleek-session/1",
                "rulebook": "parlett",
                "options": {},
                "players": json.loads(players),
                "hands": hands,
            }
            assert validate(record) == []
        for sid in extra:  # a session whose creation was in flight: whole, empty, version 1
            assert stored_hands(conn, sid) == []
            assert conn.execute("select version from sessions where id = ?", [sid]).fetchone() == (1,)
        client.orphans |= extra  # checked once; a later round's own in-flight create is told from them
        return outcome
    finally:
        conn.close()


def test_sigkill_at_random_moments_loses_nothing_acknowledged(server):
    rng = random.Random(5)
    client = Client(server, rng)
    kills = committed_in_flight = lost_in_flight = 0
    started = time.monotonic()
    server.start()
    # at least MIN_KILLS however slow a loaded machine restarts the server (up to a
    # ceiling), then more while the time budget lasts
    while kills < MAX_KILLS and (
        time.monotonic() - started < TIME_BUDGET or (kills < MIN_KILLS and time.monotonic() - started < CEILING)
    ):
        stop = threading.Event()
        worker = threading.Thread(target=client.run, args=(stop,), daemon=True)
        worker.start()
        time.sleep(rng.uniform(0.05, 0.8))
        server.kill()
        kills += 1
        stop.set()
        worker.join(timeout=15)
        assert not worker.is_alive()
        assert client.unexpected == [], client.unexpected

        outcome = check_database(server, client)
        if client.inflight:
            sid, op = client.inflight
            if outcome:
                committed_in_flight += 1
                client.sessions[sid] = apply_change(op, client.sessions[sid])
            else:
                lost_in_flight += 1
            if op[0] == "create":
                client.current = None  # start afresh: an unacknowledged session is not ours
            client.inflight = None

        server.start()
        # start-up removed what the killed server left half-written (no orphan snapshots)
        assert not list(server.backups.rglob(".tmp-*.json")), list(server.backups.rglob(".tmp-*"))
        # the versions to carry on from, and the same hands over HTTP
        for sid in list(client.sessions)[-2:]:
            status, _, body = server.request("GET", f"/s/{sid}/export.json")
            assert status == 200
            record = json.loads(body)
            assert validate(record) == []
            assert record["hands"] == client.sessions[sid]
        for sid in client.sessions:
            conn = sqlite3.connect(server.database)
            client.versions[sid] = conn.execute("select version from sessions where id = ?", [sid]).fetchone()[0]
            conn.close()
    server.kill()
    print(
        f"\ncrash: {kills} kills in {time.monotonic() - started:.1f} s, {client.acked} acknowledged writes, "
        f"{committed_in_flight} in-flight writes committed, {lost_in_flight} lost (never acknowledged), "
        f"{len(client.sessions)} sessions"
    )
    assert kills >= MIN_KILLS
    assert client.acked >= kills  # the client really was saving between kills
    assert committed_in_flight + lost_in_flight >= kills // 2  # most kills landed mid-request


# ---------------------------------------------------------------- found while here (real HTTP only)


def test_export_of_a_title_beyond_latin1_over_the_real_server(server):
    server.start()
    status, headers, _ = server.request(
        "POST",
        "/sessions",
        [
            ("player_0", "Ann"),
            ("player_1", "Ben"),
            ("player_2", "Cat"),
            ("rulebook", "parlett"),
            ("first_dealer", "0"),
            ("stake", ""),
            ("title", "♠ Thursday"),
        ],
    )
    assert status == 303
    sid = headers["Location"].rsplit("/", 1)[1]
    status, _, body = server.request("GET", f"/s/{sid}/export.json")
    assert status == 200
    assert json.loads(body)["title"] == "♠ Thursday"
