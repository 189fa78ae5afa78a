"""Trust: many phones editing one session at once (real HTTP, threaded server).

Each client reads the session (and its version), then saves a new hand, edits
hand 1 or deletes the last hand, carrying the version it read. Afterwards the
stored hands are exactly the acknowledged changes replayed in version order;
every stale change got a 409 (or, for a delete, a refusal) and changed nothing;
no version was acknowledged twice (no lost update); the balances every page
shows are ``settle()`` of the stored record; no 500s anywhere.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time

import pytest
from werkzeug.serving import make_server

from support.data import load_example
from support.web import expected_balances, hand_fields, http_request, apply_change

from scorekeeper import create_app
from scorekeeper.rules.record import validate

EVENING = load_example("parlett-evening.json")["hands"]
SEED = load_example("parlett-seed-example.json")["hands"][0]
# Valid anywhere in a parlett session: all have a ruff, so every opening stake is 2.
HANDS = [EVENING[1], EVENING[2], dict(SEED, ruff={"winner": 2, "paid": [2, 4, 0]})]

CLIENTS = 8
OPS_PER_CLIENT = 15


@pytest.fixture
def live_server(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "c.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(tmp_path / "backups")})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def request(host, method, path, fields=None):
    status, headers, body = http_request(host, None, method, path, fields, timeout=30)
    return status, headers, body.decode()


def page_state(host, url):
    status, _, page = request(host, "GET", url)
    assert status == 200, (url, status)
    version = int(re.search(r'\?v=(\d+)-\d+-\d+-\w+"', page).group(1))
    hands = len(re.findall(r'<th scope="row"><a href="[^"]*/hands/\d+"', page))
    return version, hands, page


def shown_balances(page):
    return re.findall(r'class="amount[^"]*" data-seat="\d">([^<]*)<', page)


def test_concurrent_edits_are_serialised_by_version(live_server):
    host = live_server
    status, headers, _ = request(
        host,
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
    assert status == 303
    url = "/s/" + headers["Location"].rsplit("/", 1)[1]
    first = dict(HANDS[0], note="first")
    status, _, _ = request(host, "POST", url + "/hands", list(hand_fields(first, 1).items(multi=True)))
    assert status == 303
    start_version, _, _ = page_state(host, url)
    assert start_version == 2

    barrier = threading.Barrier(CLIENTS)
    outcomes = []  # (version carried, op, status, acknowledged)
    failures = []
    lock = threading.Lock()

    def client(n):
        rng = random.Random(n)
        barrier.wait()
        for i in range(OPS_PER_CLIENT):
            try:
                version, count, _ = page_state(host, url)
                roll = rng.random()
                hand = dict(rng.choice(HANDS), note=f"client {n} op {i}")
                if roll < 0.25 and count:
                    op, path = ("edit", hand), f"{url}/hands/1"
                    fields = list(hand_fields(hand, version).items(multi=True))
                elif roll < 0.35 and count > 1:
                    op, path = ("delete", None), f"{url}/hands/{count}/delete"
                    fields = [("version", str(version))]
                else:
                    op, path = ("add", hand), f"{url}/hands"
                    fields = list(hand_fields(hand, version).items(multi=True))
                time.sleep(rng.uniform(0, 0.01))  # let the others overtake
                status, headers, body = request(host, "POST", path, fields)
                duplicate = headers.get("X-Scorekeeper-Unchanged") == "already-saved"
                if op[0] == "delete":
                    ok = status == 303
                    clean = status in (303, 404, 409, 422)  # refused: stale, or no longer the last hand
                else:
                    ok = status == 303 and not duplicate  # a stale copy of the last hand stores nothing
                    clean = status in (303, 409)
                if not clean:
                    raise AssertionError((op[0], status, body[-500:]))
                with lock:
                    outcomes.append((version, op, status, ok))
            except BaseException as error:  # noqa: BLE001 - reported below
                with lock:
                    failures.append(repr(error))
                return

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert failures == []
    assert len(outcomes) == CLIENTS * OPS_PER_CLIENT

    acked = sorted((o for o in outcomes if o[3]), key=lambda o: o[0])
    stale = [o for o in outcomes if not o[3]]
    carried = [o[0] for o in acked]
    # no lost update: each version was the base of exactly one acknowledged change,
    # and every version bump is one of them
    assert len(set(carried)) == len(carried), "two changes acknowledged on the same version"
    final_version, _, page = page_state(host, url)
    assert carried == list(range(start_version, final_version))
    assert stale, "no contention happened: the test proved nothing"
    assert all(o[2] in (409, 422, 303, 404) for o in stale)

    expected = [first]
    for _, op, _, _ in acked:
        expected = apply_change(op, expected)
    status, _, body = request(host, "GET", url + "/export.json")
    assert status == 200
    record = json.loads(body)
    assert validate(record) == []
    assert record["hands"] == expected

    # what every page shows is settle() of what is stored
    balances = expected_balances(record)
    assert shown_balances(page) == balances
    watch = re.search(r'href="[^"]*(/w/[A-Za-z0-9_-]+)"', page).group(1)
    _, _, watch_page = page_state(host, watch)
    assert shown_balances(watch_page) == balances
    status, _, live = request(host, "GET", url + "/live?v=0")
    assert status == 200 and shown_balances(live) == balances
    print(
        f"\nconcurrency: {len(acked)} acknowledged, {len(stale)} refused as stale, "
        f"{len(expected)} hands, version {final_version}"
    )


# ---------------------------------------------------------------- the PIN guess limit holds under a burst

BURST = 32


def test_a_burst_of_wrong_pins_gets_at_most_five_checked(live_server):
    host = live_server
    status, headers, _ = request(
        host,
        "POST",
        "/sessions",
        [
            ("player_0", "Ann"),
            ("player_1", "Ben"),
            ("player_2", "Cat"),
            ("rulebook", "parlett"),
            ("first_dealer", "0"),
            ("stake", ""),
            ("pin", "4821"),
        ],
    )
    assert status == 303
    url = "/s/" + headers["Location"].rsplit("/", 1)[1]
    barrier = threading.Barrier(BURST)
    statuses, lock = [], threading.Lock()

    def guess(n):
        barrier.wait()
        status, _, body = request(host, "POST", url + "/unlock", [("pin", f"{1000 + n:04d}")])
        with lock:
            statuses.append((status, "That PIN is not right." in body, "Too many wrong PINs" in body))

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(BURST)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    checked = [s for s in statuses if s[0] == 403]
    refused = [s for s in statuses if s[0] == 429]
    print(f"\nPIN burst: {len(checked)} checked, {len(refused)} refused unchecked")
    assert len(statuses) == BURST and len(checked) + len(refused) == BURST, statuses
    assert 1 <= len(checked) <= 5, statuses
    assert all(s[1] for s in checked) and all(s[2] for s in refused)
    # and the limit holds afterwards, for the right PIN too
    status, _, body = request(host, "POST", url + "/unlock", [("pin", "4821")])
    assert status == 429 and "Too many wrong PINs" in body
