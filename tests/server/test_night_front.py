"""A club night behind the real front: the real server (two processes) and a
real Caddy on loopback (tests/support/front.py), the night made, its round drawn
and a hand saved through https. The big screen's and the standings' polls are
answered by Caddy from the app's files (``X-Answered-By: front``, a header only
the front's Caddyfile sets) while nothing changed, and a save at one table
changes what the front answers, without a poll asking the app for it
(server/front_polls.py, scorekeeper/server/front.py)."""

from __future__ import annotations

import re
import time
from urllib.parse import urlencode

import brotli
import pytest

from support.data import load_example
from support.front import HttpsFront, have_caddy
from support.web import hand_fields

pytestmark = pytest.mark.skipif(not have_caddy(), reason="Caddy and certutil are installed by `make test`")

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
HX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def https(tmp_path_factory):
    server = HttpsFront(tmp_path_factory.mktemp("night-front")).start()
    yield server
    server.stop()


def answered_by_the_front(ask, within: float = 5.0, until=lambda answer: True):
    """The answer once the front gives it, and it is the one awaited (the app leaves
    the night's files just after a change has been answered: a poll may come first)."""
    deadline = time.monotonic() + within
    while True:
        answer = ask()
        if (answer[1] == "front" and until(answer)) or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def key_in(part: bytes) -> str:
    return re.search(rb"live\?v=([0-9a-z-]+)", part).group(1).decode()


def night_through_the_front(https) -> tuple[str, dict, str, str]:
    """A night of six made and its round 1 drawn through https: the organizer's link,
    the headers its POSTs need (origin and cookie), its watch id and a table's session."""
    origin = {"Origin": https.url, **FORM}
    status, headers, _ = https.request(
        "POST",
        "/nights",
        urlencode(
            {
                "name": "Friday club",
                "players": "Ann\nBen\nCat\nDan\nEve\nFay",
                "rounds": "2",
                "rulebook": "parlett",
                "stake": "1d",
                "played_on": "2026-12-04",
                "rank_by": "placings",
            }
        ).encode(),
        origin,
    )
    assert status == 303
    organizer, jar = headers["Location"], {"Cookie": headers["Set-Cookie"].split(";", 1)[0]}
    status, _, _ = https.request("POST", organizer + "/rounds", urlencode({"round": "1"}).encode(), {**origin, **jar})
    assert status == 303
    _, _, page = https.request("GET", organizer, headers=jar)
    watch = re.search(rb"/n/([A-Za-z0-9_-]+)", page).group(1).decode()
    table = re.search(rb"/s/([A-Za-z0-9_-]+)", page).group(1).decode()
    return organizer, {**origin, **jar}, watch, table


def poller(https, watch: str):
    def poll(key, screen=True, **more):
        path = f"/n/{watch}{'/screen' if screen else ''}/live?v={key}"
        status, headers, body = https.request("GET", path, headers={**HX, **more})
        return status, headers.get("X-Answered-By", "app"), body

    return poll


def test_the_big_screens_poll_is_answered_by_the_front_until_a_table_saves(https):
    _, origin, watch, table = night_through_the_front(https)
    poll = poller(https, watch)

    status, server, shown = answered_by_the_front(lambda: poll("0"))
    assert (status, server) == (200, "front") and b"Round 1 of 2" in shown and b' screen"' in shown
    key = key_in(shown)
    assert poll(key) == (204, "front", b"")  # unchanged: Caddy answers, the app never sees it
    assert poll(key, screen=False) == (204, "front", b"")
    status, server, standings = poll("0", screen=False)
    assert (status, server) == (200, "front") and b' screen"' not in standings and key_in(standings) == key
    status, headers, squeezed = https.request(
        "GET", f"/n/{watch}/screen/live?v=0", headers={**HX, "Accept-Encoding": "br"}
    )
    assert headers["X-Answered-By"] == "front" and headers["Content-Encoding"] == "br"
    assert brotli.decompress(squeezed) == shown
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")
    # anything but a plain htmx poll of the standings is the app's
    assert https.request("GET", f"/n/{watch}/screen/live?v={key}")[1].get("X-Answered-By") is None
    assert https.request("GET", f"/n/{watch}/screen/live?v=../../x", headers=HX)[1].get("X-Answered-By") is None
    assert https.request("GET", f"/n/{watch}/screen", headers=HX)[1].get("X-Answered-By") is None

    hand = load_example("parlett-evening.json")["hands"][0]
    status, _, _ = https.request(
        "POST", f"/s/{table}/hands", urlencode(list(hand_fields(hand, 1).items(multi=True))).encode(), origin
    )
    assert status == 303
    # the save acknowledged: the front has the new standings as soon as the app renewed its files, unasked
    status, server, after = answered_by_the_front(lambda: poll(key), until=lambda answer: answer[0] == 200)
    assert (status, server) == (200, "front") and key_in(after) != key
    assert re.search(rb"<td>2</td>\s*<td>20</td>", after)  # the first seat dealt it: 20, 2, -22
    newer = key_in(after)
    assert poll(newer) == (204, "front", b"")
    assert poll(newer, screen=False) == (204, "front", b"")


def test_a_deleted_nights_screens_are_told_so_by_the_front_and_poll_no_more(https):
    """The night deleted while its big screen and standings are open: the deletion's
    renewal leaves the part saying so, and the front answers their next poll with it
    (200, no hx-trigger: htmx swaps it in and polls no more), whatever key they hold."""
    organizer, headers, watch, _ = night_through_the_front(https)
    poll = poller(https, watch)
    status, server, shown = answered_by_the_front(lambda: poll("0"))
    assert (status, server) == (200, "front")
    key = key_in(shown)
    assert https.request("POST", organizer + "/delete", b"", headers)[0] == 303
    for screen, part in ((True, b' screen"'), (False, b'night-gone"')):
        status, server, gone = answered_by_the_front(lambda: poll(key, screen), until=lambda a: a[0] == 200)
        assert (status, server) == (200, "front")
        assert b'<p class="night-round">This club night was deleted by its organizer.</p>' in gone and part in gone
        assert b"hx-trigger" not in gone and b"hx-get" not in gone
