"""`make run-https PORT=N` takes N and N+1 (a port for each of the app's two
processes behind Caddy): its start-up lines say so, so that nobody starts
something else on N+1 and wonders why the server will not start."""

from __future__ import annotations

import http.client

import pytest

from scorekeeper.server.serve import worker_ports
from support.front import RunHttps, have_caddy

pytestmark = pytest.mark.skipif(not have_caddy(), reason="caddy and certutil are needed (make https-deps)")


def health(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status
    finally:
        conn.close()


def test_make_run_https_names_both_of_the_apps_own_ports_when_it_starts(tmp_path):
    server = RunHttps(tmp_path).start()
    try:
        first, second = worker_ports(server.app_port, server.workers)
        assert second == first + 1
        log = (tmp_path / "front.log").read_text()
        line = f"  the app's own ports, for the front:    {first} and {second} on 127.0.0.1 (one a process)\n"
        assert line in log, log
        assert [health(first), health(second)] == [200, 200]  # what it says is what it took
    finally:
        server.stop()
