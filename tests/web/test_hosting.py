"""A club night hosted behind an HTTPS front (the app's side; the real Caddy in
front of the real server is in tests/server/test_https_front.py): forwarded
headers believed only with PROXY_COUNT and only from the front, Secure cookies
and HSTS over https, /healthz, the expiry of untouched sessions with their
backups, and a client address's storage cap."""

from __future__ import annotations

import datetime
import re
import sqlite3

import pytest

from support.web import hand_fields, new_session, post_change, tap
from support.data import load_example

FRONT = {"REMOTE_ADDR": "127.0.0.1"}
STRANGER = {"REMOTE_ADDR": "203.0.113.9"}
VIA_HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org", "X-Forwarded-For": "198.51.100.7"}
NEW = {"player_0": "Ann", "player_1": "Ben", "player_2": "Cat", "rulebook": "parlett", "first_dealer": "0", "stake": ""}


def make_app(tmp_path, **config):
    from scorekeeper import create_app

    return create_app(
        {
            "DATABASE": str(tmp_path / "test.db"),
            "SECRET_KEY": "test",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "backups"),
            **config,
        }
    )


@pytest.fixture
def hosted(tmp_path):
    return make_app(tmp_path, PROXY_COUNT=1, PUBLIC_URL="https://scores.example.org")


def create(client, environ, headers=None, host="localhost"):
    return client.post("/sessions", data=NEW, headers={"Host": host, **(headers or {})}, environ_base=environ)


def test_forwarded_headers_are_never_read_without_proxy_count(client):
    response = create(client, FRONT, VIA_HTTPS)
    assert response.status_code == 303
    assert response.headers["Location"].startswith("/s/")
    cookie = response.headers["Set-Cookie"]
    assert "Secure" not in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Strict-Transport-Security" not in response.headers
    # the Host allow-list reads the real Host: a forged X-Forwarded-Host changes nothing
    assert client.get("/", headers={"Host": "localhost", "X-Forwarded-Host": "evil.example"}).status_code == 200


def test_behind_the_front_https_means_secure_cookies_and_hsts(hosted):
    client = hosted.test_client()
    response = create(client, FRONT, VIA_HTTPS)
    assert response.status_code == 303
    assert "Secure" in response.headers["Set-Cookie"]
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    url = response.headers["Location"]
    page = client.get(url, headers={"Host": "localhost", **VIA_HTTPS}, environ_base=FRONT)
    assert page.status_code == 200
    assert "https://scores.example.org/w/" in page.data.decode()  # the watch link, the QR code's
    # and a hand saved through it
    hand = load_example("parlett-evening.json")["hands"][0]
    saved = client.post(
        url + "/hands",
        data=hand_fields(hand, 1),
        environ_base=FRONT,
        headers={"Host": "localhost", **VIA_HTTPS, "Origin": "https://scores.example.org"},
    )
    assert saved.status_code == 303


def test_forwarded_headers_from_anyone_but_the_front_are_dropped(hosted):
    client = hosted.test_client()
    response = create(client, STRANGER, VIA_HTTPS)
    assert response.status_code == 303
    assert "Secure" not in response.headers["Set-Cookie"]
    assert "Strict-Transport-Security" not in response.headers
    # the same-origin check compares with the real scheme: an https Origin is cross-site over http
    refused = create(client, STRANGER, {**VIA_HTTPS, "Origin": "https://localhost"})
    assert refused.status_code == 403


def test_hsts_is_never_sent_for_localhost_or_an_address(hosted):
    client = hosted.test_client()
    for host in ("localhost:8443", "127.0.0.1:8443"):
        response = client.get(
            "/",
            headers={"Host": "localhost", "X-Forwarded-Proto": "https", "X-Forwarded-Host": host},
            environ_base=FRONT,
        )
        assert response.status_code == 200
        assert "Strict-Transport-Security" not in response.headers


def test_the_host_allow_list_holds_behind_the_front(hosted):
    client = hosted.test_client()
    foreign = client.get(
        "/",
        headers={"Host": "localhost", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"},
        environ_base=FRONT,
    )
    assert foreign.status_code == 400
    assert "does not answer to that address" in foreign.data.decode()
    assert client.get("/", headers={"Host": "scores.example.org"}).status_code == 200  # PUBLIC_URL's name


def test_the_client_address_is_the_one_the_front_saw(hosted):
    """Behind the front every request comes from 127.0.0.1: the per-address
    limits must count the phone's address (X-Forwarded-For), not the front's."""
    hosted.config["SESSIONS_PER_MINUTE"] = 2
    client = hosted.test_client()
    for _ in range(2):
        assert create(client, FRONT, {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.1"}).status_code == 303
    assert create(client, FRONT, {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.1"}).status_code == 429
    assert create(client, FRONT, {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.2"}).status_code == 303


def test_healthz_says_whether_the_database_answers(app, client, tmp_path):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json == {"database": "ok"}
    assert response.headers["Cache-Control"] == "no-store"
    app.config["DATABASE"] = str(tmp_path / "missing" / "folder" / "x.db")  # a database that cannot open
    client.application.extensions["scorekeeper.connections"].idle.db = None
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json["database"] == "not answering"


def age(path, session_id, days, drafts=False):
    stamp = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=days)).isoformat(timespec="seconds")
    con = sqlite3.connect(path)
    with con:
        con.execute("update sessions set updated_at = ? where id = ?", [stamp, session_id])
        if drafts:
            con.execute("update drafts set updated_at = ? where session_id = ?", [stamp, session_id])
    con.close()


def test_untouched_sessions_expire_with_their_backups_when_hosted(hosted, tmp_path):
    from scorekeeper import store

    client = hosted.test_client()
    urls = [new_session(client) for _ in range(3)]
    ids = [u.rsplit("/", 1)[1] for u in urls]
    hand = load_example("parlett-evening.json")["hands"][0]
    assert post_change(client, urls[0], "/hands", hand_fields(hand)).status_code == 303
    assert tap(client, urls[0], {"version": "2", "trump": "hearts"}).status_code == 200  # a hand in progress
    assert tap(client, urls[2], {"version": "1", "trump": "hearts"}).status_code == 200
    backups = tmp_path / "backups"
    assert all((backups / i).is_dir() for i in ids)
    db_path = tmp_path / "test.db"
    age(db_path, ids[0], 400, drafts=True)  # untouched for 400 days, hand in progress too
    age(db_path, ids[1], 364)  # not yet a year
    age(db_path, ids[2], 400)  # its hand in progress was touched today
    hosted.extensions["scorekeeper.expiry"].last = -1e9  # due now
    response = client.get("/")
    response.close()  # the check runs once the response has gone
    assert client.get(urls[0]).status_code == 404
    assert not (backups / ids[0]).exists()
    assert client.get(urls[1]).status_code == 200 and (backups / ids[1]).is_dir()
    assert client.get(urls[2]).status_code == 200
    con = sqlite3.connect(db_path)
    for table in ("hands", "history", "drafts"):
        assert con.execute(f"select count(*) from {table} where session_id = ?", [ids[0]]).fetchone()[0] == 0
    con.close()
    db = store.connect(db_path)
    assert store.expire(db, 365, backups) == []  # nothing more to do
    db.close()


def test_on_a_lan_sessions_never_expire_by_default(app, client, tmp_path):
    url = new_session(client)
    age(tmp_path / "test.db", url.rsplit("/", 1)[1], 5000)
    app.extensions["scorekeeper.expiry"].last = -1e9
    client.get("/").close()
    assert client.get(url).status_code == 200


def test_expiry_can_be_set_on_a_lan(tmp_path):
    app = make_app(tmp_path, EXPIRE_AFTER_DAYS=30)
    client = app.test_client()
    url = new_session(client)
    age(tmp_path / "test.db", url.rsplit("/", 1)[1], 31)
    app.extensions["scorekeeper.expiry"].last = -1e9
    client.get("/").close()
    assert client.get(url).status_code == 404


def test_one_address_keeps_at_most_its_share_of_sessions(tmp_path):
    app = make_app(tmp_path, PROXY_COUNT=1, PUBLIC_URL="https://scores.example.org", SESSIONS_PER_ADDRESS=2)
    client = app.test_client()
    phone = {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.1"}
    for _ in range(2):
        assert create(client, FRONT, phone).status_code == 303
    full = create(client, FRONT, phone)
    assert full.status_code == 507
    assert "This address already keeps 2 sessions here, the most one address may." in full.data.decode()
    imported = client.post(
        "/import", json=load_example("parlett-evening.json"), environ_base=FRONT, headers={"Host": "localhost", **phone}
    )
    assert imported.status_code == 507 and "already keeps 2 sessions" in imported.json["problems"][0]
    assert create(client, FRONT, {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.2"}).status_code == 303
    assert sqlite3.connect(tmp_path / "test.db").execute("select count(*) from sessions").fetchone()[0] == 3


def test_the_front_gets_a_public_certificate_only_for_a_public_name(tmp_path):
    from scorekeeper.server import front

    assert front.sites("https://scores.example.org", 8443, "192.0.2.2") == (["scores.example.org"], True)
    assert front.sites(None, 8443, "192.0.2.2") == (["https://localhost:8443", "https://192.0.2.2:8443"], False)
    assert front.sites("https://gleek.local", 8443, None) == (
        ["https://localhost:8443", "https://gleek.local:8443"],
        False,
    )
    assert front.sites("http://192.0.2.2:5000", 8443, None) == (["https://localhost:8443"], False)
    lan = front.caddyfile(["https://localhost:8443"], False, "127.0.0.1:5000", tmp_path)
    assert "\ttls internal\n" in lan and "skip_install_trust" in lan and "admin off" in lan
    public = front.caddyfile(["scores.example.org"], True, "127.0.0.1:5000", tmp_path)
    assert "tls internal" not in public and "scores.example.org {\n\treverse_proxy 127.0.0.1:5000\n}" in public


def test_the_front_sends_each_request_to_the_process_with_the_fewest_in_hand(tmp_path):
    """Behind the front each waitress process has its own port (serve --front),
    and Caddy balances between them, the polls it answers itself included."""
    from scorekeeper.server import front
    from scorekeeper.server.serve import worker_ports

    assert worker_ports(5000, 2) == [5000, 5001] and worker_ports(5000, 1) == [5000]
    text = front.caddyfile(
        ["https://localhost:8443"], False, ["127.0.0.1:5000", "127.0.0.1:5001"], tmp_path, tmp_path / "polls"
    )
    balanced = "reverse_proxy 127.0.0.1:5000 127.0.0.1:5001 {\n\t\t+lb_policy least_conn\n\t+}"
    assert "\n\t" + balanced.replace("+", "") in text  # every other request
    assert "\n\t\t" + balanced.replace("+", "\t") in text  # a poll the app answers
    assert "reverse_proxy 127.0.0.1:5000\n" not in text


def test_a_poll_does_not_write_the_cookie_again(client):
    """The cookie (this browser's tables) is written when it changes: a phone
    polling every 3 s is not sent a newly signed cookie each time."""
    url = new_session(client)
    page = client.get(url)
    watch = re.search(r"/w/[A-Za-z0-9_-]{24}", page.data.decode()).group(0)
    assert "Set-Cookie" in client.get(watch).headers  # a new table for this browser: remembered
    live = client.get(watch + "/live").data.decode()
    key = re.search(r"/live\?v=([0-9a-z-]+)", live).group(1)
    poll = client.get(f"{watch}/live?v={key}")
    assert poll.status_code == 204 and "Set-Cookie" not in poll.headers
    again = client.get(watch)
    assert again.status_code == 200 and "Set-Cookie" not in again.headers  # already the newest: as it is
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.max_age is None and cookie.expires is not None


def test_the_worker_names_every_static_file_by_its_version(client):
    import json as json_module

    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    head = worker.data.decode().split("\n", 2)
    assert head[0].startswith('const VERSION = "')
    assets = json_module.loads(head[1].removeprefix("const ASSETS = ").rstrip(";"))
    app_js = [a for a in assets if a.startswith("/static/app.js?v=")]
    assert len(app_js) == 1 and "/static/sw.js" not in " ".join(assets)
    page = client.get("/").data.decode()
    assert app_js[0] in page  # the page asks for the very file the worker keeps
    assert client.get("/sw.js", headers={"If-None-Match": worker.headers["ETag"]}).status_code == 304
    kept = client.get(app_js[0])
    assert kept.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "immutable" not in client.get("/static/app.js?v=stale").headers["Cache-Control"]


CIRCLE = {"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat"}


def new_circle(client, phone):
    return client.post("/circles", data=CIRCLE, environ_base=FRONT, headers={"Host": "localhost", **phone})


def test_one_address_keeps_at_most_its_share_of_circles(tmp_path):
    """Hosted, one address keeps at most CIRCLES_PER_ADDRESS circles, made on the home
    page or imported."""
    import io

    app = make_app(tmp_path, PROXY_COUNT=1, PUBLIC_URL="https://scores.example.org", CIRCLES_PER_ADDRESS=2)
    client = app.test_client()
    phone = {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.1"}
    made = [new_circle(client, phone) for _ in range(2)]
    assert [m.status_code for m in made] == [303, 303]
    full = new_circle(client, phone)
    assert full.status_code == 507
    page = full.data.decode()
    assert "Too many circles kept" in page
    assert "This address already keeps 2 circles here, the most one address may." in page
    archive = client.get(
        made[0].headers["Location"] + "/export.json", environ_base=FRONT, headers={"Host": "localhost", **phone}
    ).data
    imported = client.post(
        "/circles/import",
        data={"file": (io.BytesIO(archive), "circle.json")},
        environ_base=FRONT,
        headers={"Host": "localhost", **phone},
    )
    assert imported.status_code == 507 and "already keeps 2 circles" in imported.data.decode()
    assert new_circle(client, {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.2"}).status_code == 303
    assert sqlite3.connect(tmp_path / "test.db").execute("select count(*) from circles").fetchone()[0] == 3


def test_new_circles_count_against_an_address_tries_a_minute(hosted):
    hosted.config["SESSIONS_PER_MINUTE"] = 2
    client = hosted.test_client()
    phone = {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.1"}
    assert new_circle(client, phone).status_code == 303
    assert create(client, FRONT, phone).status_code == 303
    refused = new_circle(client, phone)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert new_circle(client, {**VIA_HTTPS, "X-Forwarded-For": "198.51.100.2"}).status_code == 303
