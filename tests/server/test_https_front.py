"""Hosted: the real server behind a real Caddy (tls internal, its own local
CA), both started here on loopback and stopped at the end (tests/support/front.py):
an https session created and a hand saved through the front, Secure cookies,
forwarded headers believed only from the front, the Host allow-list."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

from support.data import load_example
from support.front import HttpsFront, have_caddy
from support.web import hand_fields

pytestmark = pytest.mark.skipif(not have_caddy(), reason="Caddy and certutil are installed by `make test`")


@pytest.fixture(scope="module")
def https(tmp_path_factory):
    server = HttpsFront(tmp_path_factory.mktemp("https-front")).start()
    yield server
    server.stop()


def form(fields) -> bytes:
    return urlencode(fields).encode()


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_a_session_is_created_and_a_hand_saved_over_https(https):
    status, headers, body = https.request("GET", "/")
    assert status == 200 and b"New session" in body
    assert "Strict-Transport-Security" not in headers  # never for localhost (make run's http would break)
    origin = {"Origin": https.url, **FORM}
    status, headers, _ = https.request(
        "POST",
        "/sessions",
        form(
            {
                "player_0": "Ann",
                "player_1": "Ben",
                "player_2": "Cat",
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
            }
        ),
        origin,
    )
    assert status == 303
    cookie = headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    url = headers["Location"]
    assert url.startswith("/s/")
    jar = {"Cookie": cookie.split(";", 1)[0]}
    status, _, page = https.request("GET", url, headers=jar)
    assert status == 200
    assert f"{https.url}/w/".encode() in page  # the table link (QR code) is the https one
    hand = load_example("parlett-evening.json")["hands"][0]
    status, headers, _ = https.request(
        "POST", url + "/hands", form(list(hand_fields(hand, 1).items(multi=True))), {**origin, **jar}
    )
    assert status == 303
    status, _, exported = https.request("GET", url + "/export.json", headers=jar)
    assert status == 200 and json.loads(exported)["hands"] == [hand]
    # a cross-site change through the front is still refused
    status, _, _ = https.request(
        "POST",
        url + "/hands",
        form(list(hand_fields(hand, 2).items(multi=True))),
        {**FORM, **jar, "Origin": "https://evil.example"},
    )
    assert status == 403


def test_forwarded_headers_count_only_from_the_front(https):
    forged = {"Host": "localhost", "X-Forwarded-Proto": "https", "X-Forwarded-Host": f"localhost:{https.port}", **FORM}
    fields = form(
        {
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
        }
    )
    # from another address than the front's (127.0.0.2): plain http, whatever the headers say
    status, headers, _ = https.direct("POST", "/sessions", forged, source="127.0.0.2", body=fields)
    assert status == 303
    assert "Secure" not in headers["Set-Cookie"]
    # and its same-origin check compares with plain http: an https Origin is another site
    status, _, _ = https.direct("POST", "/sessions", {**forged, "Origin": https.url}, source="127.0.0.2", body=fields)
    assert status == 403
    # from the front's own address the same headers are believed (so the line above could fail)
    status, headers, _ = https.direct("POST", "/sessions", forged, source="127.0.0.1", body=fields)
    assert status == 303 and "Secure" in headers["Set-Cookie"]
    # a client cannot pass its own X-Forwarded-Host through the front
    status, _, _ = https.request("GET", "/", headers={"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http"})
    assert status == 200


def test_the_host_allow_list_holds_behind_the_front(https):
    for headers in (
        {"Host": "evil.example"},
        {"Host": "localhost", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"},
    ):
        status, _, body = https.direct("GET", "/", headers)
        assert status == 400 and b"does not answer to that address" in body
    status, _, body = https.request("GET", "/healthz")
    assert status == 200 and json.loads(body) == {"database": "ok"}


def renewed_by_the_front(ask, within: float = 5.0):
    """The answer once the front gives it (the app leaves a changed link's part
    from a thread of its own, just after the change: a poll may come first)."""
    import time

    deadline = time.monotonic() + within
    while True:
        answer = ask()
        if answer[1] == "front" or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def test_a_watch_poll_is_answered_by_the_front_until_its_table_changes(https):
    """server/front_polls.py: the app's last answer for a watch link, sent again by
    Caddy itself (``X-Answered-By: front``), forgotten the moment a hand is saved."""
    import brotli
    import re

    origin = {"Origin": https.url, **FORM}
    _, headers, _ = https.request(
        "POST",
        "/sessions",
        form(
            {
                "player_0": "Ann",
                "player_1": "Ben",
                "player_2": "Cat",
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
            }
        ),
        origin,
    )
    url, jar = headers["Location"], {"Cookie": headers["Set-Cookie"].split(";", 1)[0]}
    _, _, page = https.request("GET", url, headers=jar)
    watch = re.search(rb"/w/([A-Za-z0-9_-]+)", page).group(1).decode()
    hx = {"HX-Request": "true"}

    def poll(version, **more):
        status, headers, body = https.request("GET", f"/w/{watch}/live?v={version}", headers={**hx, **more})
        return status, headers.get("X-Answered-By", "app"), body

    # a new session's part is left for the front by its creating request, before any poll
    status, server, first = renewed_by_the_front(lambda: poll("0"))
    assert (status, server) == (200, "front")
    version = re.search(rb"live\?v=([0-9a-z-]+)", first).group(1).decode()
    assert poll("0") == (200, "front", first)
    assert poll(version) == (204, "front", b"")
    status, headers, squeezed = https.request("GET", f"/w/{watch}/live?v=0", headers={**hx, "Accept-Encoding": "br"})
    assert headers["X-Answered-By"] == "front" and headers["Content-Encoding"] == "br"
    assert brotli.decompress(squeezed) == first
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    # anything but a plain htmx poll of a watch link is the app's
    assert https.request("GET", f"/w/{watch}/live?v=0")[1].get("X-Answered-By") is None
    assert https.request("GET", f"/w/{watch}/live?v=0&all=1", headers=hx)[1].get("X-Answered-By") is None
    assert https.request("GET", f"/w/{watch}/live?v=../../x", headers=hx)[1].get("X-Answered-By") is None

    hand = load_example("parlett-evening.json")["hands"][0]
    status, _, _ = https.request(
        "POST", url + "/hands", form(list(hand_fields(hand, 1).items(multi=True))), {**origin, **jar}
    )
    assert status == 303
    status, server, after = poll(version)  # no 204 for the version now past: the part with the hand
    assert status == 200 and after != first and b"No hands yet." not in after
    assert renewed_by_the_front(lambda: poll(version)) == (200, "front", after)  # left by the app, unasked
    newer = re.search(rb"live\?v=([0-9a-z-]+)", after).group(1).decode()
    assert newer != version
    assert poll(version) == (200, "front", after)
    assert poll(newer) == (204, "front", b"")

    # the hand undone: forgotten again, and the app's answer has no hand
    status, _, _ = https.request("POST", url + "/undo", form({"version": newer.split("-")[0]}), {**origin, **jar})
    assert status in (200, 303)
    status, server, undone = poll(newer)
    assert status == 200 and undone != after and b"No hands yet." in undone
    assert renewed_by_the_front(lambda: poll(newer)) == (200, "front", undone)


def test_each_process_behind_the_front_has_its_own_port(https):
    """serve --front: a port a waitress process (``serve.worker_ports``), each
    answering by itself, as the front's ``least_conn`` balancing needs."""
    import http.client

    from scorekeeper.server.serve import worker_ports

    answered = set()
    for port in worker_ports(https.app_port, https.workers):
        for _ in range(2):  # each port, on connections of its own
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/healthz", headers={"Host": "localhost"})
            response = conn.getresponse()
            assert response.status == 200 and json.loads(response.read()) == {"database": "ok"}
            conn.close()
        answered.add(port)
    assert answered == {https.app_port, https.app_port + 1}
    assert https.request("GET", "/healthz")[0] == 200  # and the front reaches them
