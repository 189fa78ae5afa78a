"""The real server (``python -m scorekeeper.server.serve --front``, as `make run-https`
starts it) behind a real Caddy (the Caddyfile ``scorekeeper.server.front`` writes,
``tls internal``), both on free loopback ports with a temp instance folder.

Bounded: each process runs under ``timeout`` (it stops by itself even if the
test run dies), and ``stop()`` kills both. Caddy's local CA is
``root_certificate``: ``context()`` is an SSL context that trusts it, and
``nss_home()`` a $HOME whose NSS database does, for Chromium."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

from scorekeeper.server import front, serve
from scorekeeper.server import front_polls

ROOT = Path(__file__).resolve().parents[2]
LIFETIME = 900  # seconds: the most either process lives, whatever happens to the test run


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(count: int) -> int:
    """A free port whose ``count - 1`` next ones are free too (serve --front: a port a process)."""
    while True:
        first = free_port()
        try:
            for port in range(first + 1, first + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue


class HttpsFront:
    def __init__(self, folder: Path, config: str = "", workers: int = 2, root: Path = ROOT):
        self.folder, self.workers, self.root = folder, workers, root  # root: the copy of the project served
        self.instance = folder / "instance"
        self.instance.mkdir(parents=True, exist_ok=True)
        (self.instance / "config.py").write_text(config)
        self.config = config
        self.app_port, self.port = free_ports(workers), free_port()
        self.url = f"https://localhost:{self.port}"
        self.storage = folder / "caddy"
        self.polls = front_polls.default_folder(self.instance)  # serve --front's default
        self.root_certificate = front.root_certificate(self.storage)
        self.procs: list[subprocess.Popen] = []

    def start(self, timeout: float = 40.0) -> "HttpsFront":
        env = dict(os.environ, SCOREKEEPER_INSTANCE=str(self.instance), PYTHONUNBUFFERED="1", PYTHONPATH=str(self.root))
        caddyfile = self.folder / "Caddyfile"
        caddyfile.write_text(self.caddyfile())
        bounded = ["timeout", "-s", "KILL", str(LIFETIME)]
        with open(self.folder / "serve.log", "wb") as log:
            self.procs.append(
                subprocess.Popen(
                    bounded
                    + [
                        sys.executable,
                        "-m",
                        "scorekeeper.server.serve",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(self.app_port),
                        "--workers",
                        str(self.workers),
                        "--front",
                        self.url,
                    ],
                    cwd=self.root,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        with open(self.folder / "caddy.log", "wb") as log:
            self.procs.append(
                subprocess.Popen(
                    bounded + front.caddy_command(caddyfile),
                    cwd=self.folder,
                    env=dict(os.environ, HOME=str(self.folder)),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        self.wait_until_answered(
            timeout,
            [(self.procs[0], "serve.log", "serve.log"), (self.procs[1], "caddy.log", "caddy.log")],
            self.stop,
            "the front",
        )
        return self

    def wait_until_answered(self, timeout: float, watched: list, give_up, what: str) -> None:
        """Until /healthz answers 200 through the front. A watched process (``(process, its
        log's name, what to call it)``) that exits, or the ``timeout``, gives up
        (``give_up()``) and raises with the end of its log."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for proc, log, called in watched:
                if proc.poll() is not None:
                    give_up()
                    raise RuntimeError(f"{called} exited: " + (self.folder / log).read_text()[-2000:])
            try:
                if self.root_certificate.exists() and self.request("GET", "/healthz", timeout=2)[0] == 200:
                    return
            except (OSError, ssl.SSLError, http.client.HTTPException):
                pass
            time.sleep(0.1)
        give_up()
        raise RuntimeError(f"{what} did not start: " + (self.folder / watched[-1][1]).read_text()[-2000:])

    def upstream(self) -> list[str]:
        return [f"127.0.0.1:{port}" for port in serve.worker_ports(self.app_port, self.workers)]

    def caddyfile(self) -> str:
        """The Caddyfile ``scorekeeper.server.front`` writes for this app (its deadlines from config.py)."""
        settings: dict = {}
        exec(self.config, settings)  # the instance's config.py, read as the app reads it (Flask's from_pyfile)
        return front.caddyfile(
            [self.url],
            False,
            self.upstream(),
            self.storage,
            self.polls,
            settings.get("HEADER_DEADLINE", serve.HEADER_DEADLINE),
            settings.get("REQUEST_DEADLINE", serve.REQUEST_DEADLINE),
        )

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None, timeout: float = 10.0
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One request through the front (https, verified against its CA)."""
        conn = http.client.HTTPSConnection("localhost", self.port, context=self.context(), timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def direct(
        self, method: str, path: str, headers: dict, source: str = "127.0.0.1", body: bytes | None = None
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One plain-http request straight to the app, from the loopback address ``source``."""
        conn = http.client.HTTPConnection("127.0.0.1", self.app_port, timeout=10, source_address=(source, 0))
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def nss_home(self) -> Path:
        """A $HOME whose NSS database trusts the front's CA (Chromium reads it)."""
        home = self.folder / "browser-home"
        db = home / ".pki" / "nssdb"
        if not db.exists():
            db.mkdir(parents=True)
            subprocess.run(["certutil", "-d", f"sql:{db}", "-N", "--empty-password"], check=True)
            subprocess.run(
                [
                    "certutil",
                    "-d",
                    f"sql:{db}",
                    "-A",
                    "-t",
                    "C,,",
                    "-n",
                    "caddy-local",
                    "-i",
                    str(self.root_certificate),
                ],
                check=True,
            )
        return home

    def stop(self) -> None:
        for proc in self.procs:  # asked to stop first, as a service manager does: a server then clears up
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # whatever of its group is left
            except ProcessLookupError:
                pass
            proc.wait(timeout=10)
        self.procs = []
        front_polls.remove_memory_folder(self.polls)  # if its server was killed before it could


def have_caddy() -> bool:
    return shutil.which("caddy") is not None and shutil.which("certutil") is not None


class RunHttps(HttpsFront):
    """What `make run-https` starts: ``flask init-db``, then ``python -m
    scorekeeper.server.front`` (the app's two processes, Caddy and, with ``REPLICA`` in
    the config, litestream), on free ports with this temp instance folder.
    ``stop()`` asks it to stop as a terminal or a service manager does (SIGTERM
    to ``scorekeeper.server.front`` alone: it stops its children itself)."""

    def __init__(self, folder: Path, config: str = ""):
        super().__init__(folder, config)
        self.storage = self.instance / "front" / "caddy"  # front.py's own (front.plan)
        self.root_certificate = front.root_certificate(self.storage)
        self.env = dict(os.environ, SCOREKEEPER_INSTANCE=str(self.instance), PYTHONUNBUFFERED="1")
        self.exit_code: int | None = None

    def start(self, timeout: float = 40.0, tries: int = 3) -> "RunHttps":
        """Started on free ports, chosen again at each start, and again if one was
        taken before the server bound it (other tests, other servers: a port the
        kernel gave one's outgoing connection cannot be bound)."""
        for attempt in range(tries):
            self.app_port, self.port = free_ports(self.workers), free_port()
            self.url = f"https://localhost:{self.port}"
            try:
                return self._start(timeout)
            except RuntimeError as error:
                if "address already in use" not in str(error) or attempt == tries - 1:
                    raise
        raise AssertionError("unreachable")

    def _start(self, timeout: float) -> "RunHttps":
        subprocess.run(
            [sys.executable, "-m", "flask", "--app", "scorekeeper", "init-db"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            timeout=60,
        )
        (self.folder / "front.log").unlink(missing_ok=True)
        with open(self.folder / "front.log", "ab") as log:
            self.procs = [
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "scorekeeper.server.front",
                        "--port",
                        str(self.app_port),
                        "--https-port",
                        str(self.port),
                    ],
                    cwd=ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            ]
        self.wait_until_answered(timeout, [(self.procs[0], "front.log", "make run-https")], self.kill, "make run-https")
        return self

    def stop(self, timeout: float = 60.0) -> int | None:
        """SIGTERM to scorekeeper.server.front, then its exit code (what is left of its group is killed after)."""
        if self.procs:
            self.procs[0].terminate()
            try:
                self.exit_code = self.procs[0].wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.exit_code = None
        self.kill()
        return self.exit_code

    def kill(self) -> float:
        """Everything it started, at once (SIGKILL: the machine lost), litestream
        first (its own process group; it would stop by itself, syncing, once its
        parent is gone). Returns the moment of the kill (``time.monotonic()``)."""
        litestreams = processes_running(
            "litestream replicate", str(self.instance)
        )  # found first: the kills come together
        moment = time.monotonic()
        for pid in litestreams:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for proc in self.procs:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for proc in self.procs:
            proc.wait(timeout=10)
        self.procs = []
        front_polls.remove_memory_folder(self.polls)
        return moment


def processes_running(*words: str) -> list[int]:
    """The ids of the processes whose command line holds every one of ``words``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if all(word in command for word in words):
            found.append(int(entry.name))
    return found
