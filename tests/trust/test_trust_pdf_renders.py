"""Hostile clients and the PDF renderer's turns, through the app (scorekeeper/printing/pdf.py,
its renderer a process of its own): sheets beyond its queue are refused at once with a
Retry-After, the scorer's link has a place of its own while four clients keep the renderer
busy, and a client starts only a few renders a minute (on the real server:
tests/trust/test_trust_server.py). Out of the fast loop: each test waits on seconds of
renders it provokes on purpose."""

from __future__ import annotations

import itertools
import re
import time


def test_pdf_sheets_beyond_the_cap_are_refused_at_once_and_others_are_served(tmp_path):
    import threading

    from support.sessions import long_session

    from scorekeeper import create_app

    app = create_app(
        {"DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(tmp_path / "b"), "PDF_WAITING": 1}
    )
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
        from scorekeeper.printing import pdf

        waited = time.monotonic() + 60  # until the first sheet waits for the renderer (seconds for 400 hands)
        while not any(pdf._places.values()) and time.monotonic() < waited:
            time.sleep(0.05)
        response = client.get(urls[1] + "/sheet.pdf")
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "10"
        assert "Other sheets are being printed" in response.get_data(as_text=True)
        assert client.get(urls[1]).status_code == 200  # the table page meanwhile
        assert thread.is_alive(), "the first sheet was already done: the test proved nothing"
    finally:
        thread.join(timeout=120)
    assert first == {"status": 200, "pdf": b"%PDF"}
    assert client.get(urls[1] + "/sheet.pdf").data[:4] == b"%PDF"  # and then it is printed


def pdf_app(tmp_path, **config):
    from scorekeeper import create_app

    return create_app(
        {
            "DATABASE": str(tmp_path / "p.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "b"),
            "SESSIONS_PER_MINUTE": 1000,
            "PDF_WAITING": 1,
            **config,
        }
    )


def device(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_the_scorer_gets_his_sheet_while_four_hostile_clients_ask_for_theirs(tmp_path):
    """A client changing its tz cookie cannot keep the scorer from his sheet:
    four watchers changing their ``tz`` cookie forced a render per request, and
    the scorer asking every 3 s got 503 twenty times in twenty. Now the zone is
    not theirs to choose (one rendering per sheet), the scorer's link has its own
    place and goes first, and a client starts a few renders a minute."""
    import threading

    from support.sessions import long_session
    from support.web import post_change

    app = pdf_app(tmp_path)
    scorer = device(app, "192.0.2.1")
    url = scorer.post("/import", json=dict(long_session(HANDS), title="The scorer's")).headers["Location"]
    watch = "/w/" + re.search(r"/w/([A-Za-z0-9_-]{24})", scorer.get(url).get_data(as_text=True)).group(1)
    laptop = device(app, "192.0.2.99")  # the renderer started (its first sheet takes longer)
    assert laptop.get(url + "/sheet.pdf").status_code == 200
    stop, lock, seen = threading.Event(), threading.Lock(), {"zone": set(), "own": [], "statuses": []}

    def zone_changer(n):  # two watchers of the scorer's table, a new zone every request
        client = device(app, f"198.51.100.{n}")
        for k in itertools.count():
            if stop.is_set():
                return
            client.set_cookie("tz", ZONES[(n * 7 + k) % len(ZONES)])
            response = client.get(watch + "/sheet.pdf")
            with lock:
                seen["statuses"].append(response.status_code)
                if response.status_code == 200:
                    seen["zone"].add(response.data)
            time.sleep(HOSTILE_PAUSE)

    def own_sheets(n):  # two clients printing sheets of their own sessions, each a new render
        client = device(app, f"203.0.113.{n}")
        mine = [
            client.post("/import", json=dict(long_session(HANDS), title=f"Theirs {n}.{i}")).headers["Location"]
            for i in range(8)
        ]
        for k in itertools.count():
            if stop.is_set():
                return
            response = client.get(mine[k % len(mine)] + "/sheet.pdf")
            with lock:
                seen["own"].append((n, response.status_code))
                seen["statuses"].append(response.status_code)
            time.sleep(HOSTILE_PAUSE)

    threads = [threading.Thread(target=zone_changer, args=(n,)) for n in (1, 2)]
    threads += [threading.Thread(target=own_sheets, args=(n,)) for n in (3, 4)]
    for thread in threads:
        thread.start()
    waits = []
    try:
        deadline = time.monotonic() + 120  # they are at it: each had a sheet, and asks on
        while time.monotonic() < deadline and not all(
            (n, 200) in seen["own"] and sum(1 for who, _ in seen["own"] if who == n) >= 5 for n in (3, 4)
        ):
            time.sleep(0.1)
        for _ in range(3):  # the scorer records a change (a new version), then prints
            assert post_change(scorer, url, f"/hands/{len(export_of(scorer, url)['hands'])}/delete").status_code == 303
            started = time.monotonic()
            response = scorer.get(url + "/sheet.pdf")
            waits.append(time.monotonic() - started)
            # every time his sheet, never "busy" (how long it takes is bench/pdf_starvation_bench.py's)
            assert response.status_code == 200 and response.data[:4] == b"%PDF", re.findall(
                r"<p>(.*?)</p>", response.get_data(as_text=True)
            )
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
    assert set(seen["statuses"]) <= {200, 429, 503}
    assert 1 <= len(seen["zone"]) <= 4  # a sheet per version of the table, not per zone
    print(
        f"\npdf: the scorer waited {', '.join(f'{w:.1f}' for w in waits)} s; hostile answers "
        f"{ {s: seen['statuses'].count(s) for s in set(seen['statuses'])} }"
    )


def test_a_client_starts_a_few_renders_a_minute(tmp_path):
    from support.sessions import long_session

    app = pdf_app(tmp_path, PDF_RENDERS_PER_MINUTE=3)
    client = device(app, "198.51.100.9")
    urls = [client.post("/import", json=dict(long_session(8), title=f"Mine {n}")).headers["Location"] for n in range(4)]
    for url in urls[:3]:
        assert client.get(url + "/sheet.pdf").status_code == 200
    assert client.get(urls[0] + "/sheet.pdf").status_code == 200  # rendered already: free
    response = client.get(urls[3] + "/sheet.pdf")  # a fourth render in the minute
    assert response.status_code == 429 and 1 <= int(response.headers["Retry-After"]) <= 61
    assert (
        "This device asked for 3 new sheets in the last minute (session, season and night sheets count together)"
        in response.get_data(as_text=True)
    )
    assert device(app, "198.51.100.10").get(urls[3] + "/sheet.pdf").status_code == 200  # another device


HANDS = 20  # in each session: a render of ~0.3 s here idle, seconds when the machine is busy


HOSTILE_PAUSE = 0.1  # s between a hostile client's requests: 40 a second together (the attack made ~10)


ZONES = (
    "Europe/London",
    "Asia/Tokyo",
    "America/Sao_Paulo",
    "Pacific/Auckland",
    "Africa/Lagos",
    "Australia/Adelaide",
    "America/New_York",
    "Asia/Kolkata",
    "Europe/Lisbon",
    "Etc/GMT+5",
)


def export_of(client, url) -> dict:
    return client.get(url + "/export.json").get_json(force=True)
