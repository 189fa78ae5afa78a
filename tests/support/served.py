"""The real server as `make run` starts it (``python -m scorekeeper.server.serve``), on a
free loopback port with a temp instance folder (``SCOREKEEPER_INSTANCE``),
killed with its process group at ``stop()``; and a phone that talks to it over
real HTTP, keeping its cookies as a browser does."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from support.front import free_port
from support.web import http_request

ROOT = Path(__file__).resolve().parents[2]


class Served:
    """``python -m scorekeeper.server.serve --host 127.0.0.1 --port N`` as `make run` runs it."""

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
                [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
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


class Phone:
    """One device talking to a served app over real HTTP, a connection a request,
    keeping its cookies as a browser does. ``source``: the loopback address it sends
    from (127.0.0.2 and up are loopback too: another device)."""

    def __init__(self, port: int, source: str = "127.0.0.1"):
        self.port, self.source, self.cookies = port, source, {}

    def request(self, method: str, path: str, fields=None, timeout: float = 30.0) -> tuple[int, dict, str]:
        headers = {"Sec-Fetch-Site": "same-origin"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode(fields, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(self.source, 0))
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    self.cookies.update((key, morsel.value) for key, morsel in SimpleCookie(value).items())
            return response.status, dict(response.getheaders()), response.read().decode()
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, dict, str]:
        return self.request("GET", path)

    def post(self, path: str, fields=None) -> tuple[int, dict, str]:
        return self.request("POST", path, fields or {})
