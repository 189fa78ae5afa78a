"""Round four: slow clients against the real server behind the real HTTPS front
(``serve --front`` and Caddy with the Caddyfile ``scorekeeper.server.front`` writes,
tests/support/front.py), on loopback, bounded in connections and time.

Behind the front every connection to the app is the front's (127.0.0.1), which the
door's cap per address leaves alone, and Caddy passes each request on as it
arrives, on a connection of its own: 2,100 slow uploads from one client held
2,100 of the app's connections, and every normal page from another address
failed. Now the door tells the front's clients apart by the address the front
forwards and lets each send 12 uploads at once per process; and the front has
the door's deadlines (a request's headers, then its whole body, in time).

The hostile client is 127.0.0.2 (loopback too: another device); the normal
requests come from 127.0.0.1.
"""

from __future__ import annotations

import json
import socket
import ssl
import time

import pytest

from support.data import load_example
from support.front import HttpsFront, have_caddy

pytestmark = pytest.mark.skipif(not have_caddy(), reason="caddy and certutil are needed (make test installs them)")

HOSTILE = "127.0.0.2"
SLOW_UPLOADS = 60  # from one client: the app may take 12 at once in each of its 2 processes
ANSWER_BUDGET = 8.0  # seconds for the refusals to come (they come as soon as the headers are in)


def tls_connection(front: HttpsFront, source: str = HOSTILE) -> ssl.SSLSocket:
    raw = socket.create_connection(("127.0.0.1", front.port), timeout=10, source_address=(source, 0))
    return front.context().wrap_socket(raw, server_hostname="localhost")


def upload_head(front: HttpsFront, length: int = 1_000_000) -> bytes:
    """An import's head, as a phone's browser sends it, the body still to come."""
    return (
        f"POST /import HTTP/1.1\r\nHost: localhost:{front.port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def read_so_far(s: ssl.SSLSocket) -> bytes | None:
    """What the front has answered on ``s`` so far, b"" once it is closed
    (answered or not), None while it is open and silent."""
    s.settimeout(0.0)
    got = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return got
            got += chunk
    except (ssl.SSLWantReadError, BlockingIOError):
        return got or None
    except (ConnectionResetError, BrokenPipeError, ssl.SSLError):
        return got


def test_slow_uploads_through_the_front_are_capped_per_client(tmp_path):
    """60 uploads from one client that send their head and then their body a byte
    at a time: at most 12 a process are taken, every other one is answered with a
    429 (its body never sent), and a phone at another address imports a session
    meanwhile. (The front passes the 429 on at the client's next byte: Go's
    server does not write an answer while a read of the request's body waits.)"""
    front = HttpsFront(tmp_path, config="CLEANUP_INTERVAL = 0.25\n").start()
    slow: list[ssl.SSLSocket] = []
    try:
        for _ in range(SLOW_UPLOADS):
            s = tls_connection(front)
            s.sendall(upload_head(front) + b"{" + b" " * 99)
            slow.append(s)
        answers: dict[int, bytes] = {}
        deadline = time.monotonic() + ANSWER_BUDGET
        while time.monotonic() < deadline and len(answers) < SLOW_UPLOADS - 2 * 12:
            time.sleep(0.25)
            for n, s in enumerate(slow):
                if n in answers:
                    continue
                got = read_so_far(s)
                if got is not None and (not got or b"\r\n\r\n" in got):
                    answers[n] = got
                    continue
                try:
                    s.settimeout(5)
                    s.sendall(b" ")  # a byte of the body now and then: the upload trickles on
                except OSError:
                    answers[n] = b""
        held = SLOW_UPLOADS - len(answers)
        status, headers, _ = front.request(
            "POST",
            "/import",
            body=json.dumps(load_example("parlett-evening.json")),
            headers={"Content-Type": "application/json"},
        )
        assert status == 303, status  # another client is not held up by them
    finally:
        for s in slow:
            s.close()
        front.stop()
    assert held <= 2 * 12, f"{held} of {SLOW_UPLOADS} slow uploads from one client held after {ANSWER_BUDGET} s"
    for got in answers.values():
        assert got.startswith(b"HTTP/1.1 429 "), got[:300]
        assert got.endswith(b"Too many uploads at once from this address. Try again in 10 seconds.\n"), got[-300:]
        assert b"\r\nRetry-After: 10\r\n" in got


def test_a_slow_request_through_the_front_has_the_doors_deadlines(tmp_path):
    """The front held trickled headers itself, for ever, and nothing but the app
    cut a slow body. Now a request must be in whole in time through the front as
    without it (made short here: 1.5 s for the headers, 3 s for the whole request),
    however busy the client keeps its connection."""
    front = HttpsFront(tmp_path, config="HEADER_DEADLINE = 1.5\nREQUEST_DEADLINE = 3\nCLEANUP_INTERVAL = 0.25\n")
    front.start()
    head = upload_head(front)
    trickles = {"headers": (tls_connection(front), head), "body": (tls_connection(front), head + b" " * 1000)}
    closed_at: dict[str, float] = {}
    try:
        trickles["body"][0].sendall(head)  # its head at once, its body a byte at a time
        sent = {"headers": 0, "body": len(head)}
        started = time.monotonic()
        while time.monotonic() - started < 8.0 and len(closed_at) < len(trickles):
            for name, (s, data) in trickles.items():
                if name in closed_at:
                    continue
                if read_so_far(s) is not None:
                    closed_at[name] = time.monotonic() - started
                    continue
                try:
                    s.settimeout(5)
                    s.sendall(data[sent[name] : sent[name] + 1])  # a byte every 0.2 s: never idle
                    sent[name] += 1
                except OSError:
                    closed_at[name] = time.monotonic() - started
            time.sleep(0.2)
    finally:
        for s, _ in trickles.values():
            s.close()
        front.stop()
    assert closed_at.get("headers", 99) < 1.5 + 1.5, closed_at  # the headers' deadline, and some slack
    assert closed_at.get("body", 99) < 3 + 1.5, closed_at


def test_behind_the_front_an_address_told_to_wait_has_its_uploads_refused_before_their_body(tmp_path):
    """The door held off an address the app had told to wait by the connection's
    address, which behind the front is always the front's: nothing matched, and
    every refused upload was read whole. Now it goes by the forwarded address, as
    the app's own count does (here a circle's import: counted as a new session)."""
    front = HttpsFront(tmp_path, config="SESSIONS_PER_MINUTE = 2\nCLEANUP_INTERVAL = 0.25\n").start()
    try:
        answers = []
        for _ in range(3):  # two refused tries, then the app's 429
            with tls_connection(front) as s:
                body = b'--x\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n{\r\n--x--\r\n'
                s.sendall(
                    f"POST /circles/import HTTP/1.1\r\nHost: localhost:{front.port}\r\nConnection: close\r\n"
                    f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                s.settimeout(10)
                answers.append(s.recv(65536).split(b"\r\n", 1)[0])
        assert answers == [b"HTTP/1.1 422 Unprocessable Entity"] * 2 + [b"HTTP/1.1 429 Too Many Requests"]
        with tls_connection(front) as s:
            s.sendall(upload_head(front).replace(b"/import", b"/circles/import") + b" " * 100_000)
            got, deadline = None, time.monotonic() + ANSWER_BUDGET
            while time.monotonic() < deadline and not got:
                s.settimeout(5)
                s.sendall(b" ")  # the body trickles on, 0.1 MB of 1 MB sent
                time.sleep(0.25)
                got = read_so_far(s)
        assert got and got.startswith(b"HTTP/1.1 429 "), got
        assert b"Too many new sessions from this address." in got
        status, _, _ = front.request(
            "POST",
            "/import",
            body=json.dumps(load_example("parlett-evening.json")),
            headers={"Content-Type": "application/json"},
        )
        assert status == 303  # a phone at another address is not held up
    finally:
        front.stop()
