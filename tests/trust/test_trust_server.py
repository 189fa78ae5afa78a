"""Issue 8, trust against the real server that `make run` starts
(``python -m scorekeeper.serve``), on a free loopback port with a temp instance
folder (``SCOREKEEPER_INSTANCE``). Loopback only, bounded in connections and
time, and the server is stopped at the end whatever happens.

- 64 half-open connections (half a request line, half a POST body) do not stop
  anyone else being served, and the server drops them after a short idle timeout.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.data import load_example
from support.web import hand_fields, http_request

ROOT = Path(__file__).resolve().parents[2]
HALF_OPEN = 64
IDLE_DROP_BUDGET = 25.0    # seconds: the server's idle timeout plus its clean-up interval, with slack


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """``python -m scorekeeper.serve --host 127.0.0.1 --port N`` as `make run` runs it."""

    def __init__(self, instance: Path, config: str = ""):
        self.instance, self.port = instance, free_port()
        instance.mkdir(parents=True, exist_ok=True)
        if config:
            (instance / "config.py").write_text(config)
        self.log = instance / "serve.log"
        self.proc = None

    def start(self, timeout: float = 30.0) -> str:
        env = dict(os.environ, SCOREKEEPER_INSTANCE=str(self.instance), PYTHONUNBUFFERED="1")
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited: " + self.log.read_text()[-2000:])
            try:
                if self.request("GET", "/manifest.webmanifest", timeout=1)[0] == 200:
                    return self.log.read_text()
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start: " + self.log.read_text()[-2000:])

    def request(self, method, path, fields=None, timeout=10.0):
        return http_request("127.0.0.1", self.port, method, path, fields, timeout)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path / "instance")
    yield server
    server.stop()


def half_open(port: int, n: int) -> socket.socket:
    """A connection that sends half a request and then nothing more."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if n % 2:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    else:
        s.sendall(b"POST /sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\nplayer_0=A")
    return s


def test_half_open_connections_do_not_stop_the_server_and_are_dropped(served):
    output = served.start()
    assert f"http://127.0.0.1:{served.port}/" in output               # what `make run` prints
    assert (served.instance / "scorekeeper.db").exists()              # and the database it creates
    status, headers, _ = served.request("POST", "/sessions", [
        ("player_0", "Ann"), ("player_1", "Ben"), ("player_2", "Cat"), ("rulebook", "parlett"),
        ("first_dealer", "0"), ("stake", "")])
    assert status == 303
    url = "/s/" + headers["Location"].rsplit("/", 1)[1]
    hand = load_example("parlett-evening.json")["hands"][1]

    sockets = [half_open(served.port, n) for n in range(HALF_OPEN)]
    opened = time.monotonic()
    try:
        time.sleep(0.5)   # let every one of them reach the server
        latencies, version = [], 1
        for i in range(12):
            started = time.monotonic()
            if i % 3 == 2:
                status, _, _ = served.request("POST", url + "/hands",
                                              list(hand_fields(hand, version).items(multi=True)), timeout=5)
                assert status == 303
                version += 1
            else:
                status, _, body = served.request("GET", url if i % 3 else "/", timeout=5)
                assert status == 200
            latencies.append(time.monotonic() - started)
        assert max(latencies) < 2.0, latencies
        assert version == 5

        # idle connections are dropped by the server after a short timeout
        dropped = 0
        for s in sockets:
            s.settimeout(max(0.1, IDLE_DROP_BUDGET - (time.monotonic() - opened)))
            try:
                data = s.recv(65536)
                while data and b"\r\n\r\n" not in data:   # a 408/400 answer before the close is fine too
                    data += s.recv(65536)
                dropped += 1
            except ConnectionResetError:
                dropped += 1
            except socket.timeout:
                break
        assert dropped == HALF_OPEN, f"{dropped} of {HALF_OPEN} dropped within {IDLE_DROP_BUDGET} s"
        print(f"\nslow clients: {HALF_OPEN} half-open; normal requests max {max(latencies) * 1000:.0f} ms; "
              f"all dropped after {time.monotonic() - opened:.1f} s")
    finally:
        for s in sockets:
            s.close()


# ---------------------------------------------------------------- PDF sheets never tie up the server

def test_pdf_sheets_beyond_the_cap_are_refused_at_once_and_others_are_served(tmp_path):
    import threading

    from support.sessions import long_session

    from scorekeeper import create_app

    app = create_app({"DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(tmp_path / "b"),
                      "PDF_WAITING": 1})
    client = app.test_client()
    urls = []
    for n in range(2):
        record = dict(long_session(400), title=f"Long {n}")
        response = client.post("/import", json=record)
        assert response.status_code == 303
        urls.append(response.headers["Location"])
    first = {}

    def render_first():
        response = app.test_client().get(urls[0] + "/sheet.pdf")
        first.update(status=response.status_code, pdf=response.data[:4])

    thread = threading.Thread(target=render_first)
    thread.start()
    try:
        time.sleep(0.3)    # the first sheet is now waiting for the renderer (seconds for 400 hands)
        started = time.monotonic()
        response = client.get(urls[1] + "/sheet.pdf")
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "10"
        assert "Other sheets are being printed" in response.get_data(as_text=True)
        assert client.get(urls[1]).status_code == 200          # the table page meanwhile
        assert time.monotonic() - started < 1.0
        assert thread.is_alive(), "the first sheet was already done: the test proved nothing"
    finally:
        thread.join(timeout=120)
    assert first == {"status": 200, "pdf": b"%PDF"}
    assert client.get(urls[1] + "/sheet.pdf").data[:4] == b"%PDF"   # and then it is printed


# ---------------------------------------------------------------- 11. no link in the log; the files are the owner's

def modes(root: Path) -> dict:
    """Every folder and file under ``root`` (itself included) -> its permission bits."""
    found = {root: root.stat().st_mode & 0o777}
    for path in root.rglob("*"):
        found[path] = path.stat().st_mode & 0o777
    return found


def test_no_link_in_the_log_after_a_500_and_the_files_are_the_owners(tmp_path, monkeypatch):
    """Issue 18: every 500 logged ``Exception on /s/<scorer id>/…``, and the
    database and backups were 0644 (the snapshot folders, named by the scorer's
    id, 0755)."""
    import sqlite3

    from scorekeeper import create_app, store

    # an instance folder as an earlier release left it: everything readable by everyone
    instance = tmp_path / "instance"
    served = Served(instance, config="SESSIONS_PER_MINUTE = 1000\n")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    earlier = create_app()
    assert earlier.test_client().post("/import", json=load_example("parlett-evening.json")).status_code == 303
    earlier.extensions["scorekeeper.keeper"].close()
    monkeypatch.undo()
    for path in modes(instance):
        path.chmod(0o755 if path.is_dir() else 0o644)
    try:
        served.start()
        private = {path: mode for path, mode in modes(instance).items() if path.name != "serve.log"}
        assert instance / "scorekeeper.db" in private and instance / "secret_key" in private
        assert any(path.parent.name == "backups" and path.is_dir() for path in private)   # a snapshot folder
        assert {path: mode for path, mode in private.items()
                if mode != (0o700 if path.is_dir() else 0o600)} == {}, "fixed at start-up"

        status, headers, _ = served.request("POST", "/sessions", [
            ("player_0", "Ann"), ("player_1", "Ben"), ("player_2", "Cat"), ("rulebook", "parlett"),
            ("first_dealer", "0"), ("stake", ""), ("confirm", "on")])
        assert status == 303
        sid = headers["Location"].rsplit("/", 1)[1]
        db = store.connect(instance / "scorekeeper.db")
        watch, players = store.get_session(db, sid).watch_id, store.seat_links(db, sid)
        db.close()
        result = subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "backup"], cwd=ROOT,
                                env=dict(os.environ, SCOREKEEPER_INSTANCE=str(instance)), capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0 and "Backed up 2 session(s)" in result.stdout, result.stderr
        made = {path: mode for path, mode in modes(instance).items() if path.name != "serve.log"}
        assert instance / "backups" / sid in made                                  # its snapshots
        assert any(path.name.startswith("full-") for path in made)                # the full backup
        assert {path: mode for path, mode in made.items() if mode != (0o700 if path.is_dir() else 0o600)} == {}

        conn = sqlite3.connect(instance / "scorekeeper.db")   # a fault the server cannot help: a 500
        conn.execute("drop table history")
        conn.execute("drop table verdicts")
        conn.commit()
        conn.close()
        for url in (f"/s/{sid}", f"/s/{sid}/history?from={sid}", f"/w/{watch}", f"/p/{players[1]}"):
            status, _, body = served.request("GET", url)
            assert status == 500, url
            assert b"Something went wrong" in body
        time.sleep(0.3)   # the workers' stderr reaches the log
        log = served.log.read_text()
    finally:
        served.stop()
    assert log.count("Exception on /s/<id:") == 2 and log.count("Exception on /w/<id:") == 1
    assert log.count("Exception on /p/<id:") == 1 and "no such table" in log            # the cause is kept
    for secret in (sid, watch, *players):
        assert secret not in log
