"""Polls answered again without Flask (scorekeeper/server/kept_polls.py): the same
bytes as Flask's answer, never stale, never one made for another kind of request."""

from __future__ import annotations

import re

import pytest
from flask import request_started

from scorekeeper import store
from scorekeeper.server.kept_polls import VERSION_MARK, KeptPolls, poll_question
from support.web import hand_fields, new_session, post_change, version_of

HAND = {
    "dealer": 0,
    "trump": "hearts",
    "turned_up": "9",
    "tiddy": None,
    "auction": {"buyer": 1, "price": 12},
    "ruff": {"winner": 2, "paid": [2, 2, 0]},
    "sets": [[], ["gleek:K"], []],
    "tricks": [5, 4, 3],
    "honours": {"A": 0, "K": 1, "Q": 2, "J": 0},
}
HX = {"HX-Request": "true"}


@pytest.fixture
def flask_answers(app):
    """The paths of the requests that reached Flask."""
    seen = []

    def record(sender, **extra):
        from flask import request

        seen.append(request.full_path.rstrip("?"))

    request_started.connect(record, app)
    yield seen
    request_started.disconnect(record, app)


def watch_link(client, url):
    return re.search(r"/w/[A-Za-z0-9_-]{24}", client.get(url).data.decode()).group(0)


def save(client, url, hand=HAND):
    return client.post(f"{url}/hands", data=hand_fields(hand, version_of(client, url)))


def same_answer(one, other):
    return (one.status, one.data, sorted(one.headers.items())) == (
        other.status,
        other.data,
        sorted(other.headers.items()),
    )


def test_a_second_phone_on_the_link_gets_flasks_answer_without_flask(app, flask_answers):
    scorer, ann, ben = app.test_client(), app.test_client(), app.test_client()
    url = new_session(scorer)
    watch = watch_link(scorer, url)
    ann.get(watch), ben.get(watch)  # each phone opens the table's page (which remembers it), then polls
    flask_answers.clear()
    first = ann.get(f"{watch}/live", headers=HX)
    assert first.status_code == 200 and "No hands yet" in first.data.decode()
    assert flask_answers == [f"{watch}/live"]
    second = ben.get(f"{watch}/live", headers=HX)
    assert same_answer(first, second)
    assert flask_answers == [f"{watch}/live"]  # the second was not Flask's work
    version = re.search(r"/live\?v=([0-9a-z-]+)", first.data.decode()).group(1)
    nothing_new = [ann.get(f"{watch}/live?v={version}", headers=HX) for _ in range(3)]
    assert [r.status_code for r in nothing_new] == [204, 204, 204] and all(r.data == b"" for r in nothing_new)
    assert flask_answers == [f"{watch}/live", f"{watch}/live?v={version}"]


def test_each_change_is_answered_fresh_and_an_undo_too(app, flask_answers):
    scorer, ann = app.test_client(), app.test_client()
    url = new_session(scorer)
    watch = watch_link(scorer, url)
    before = ann.get(f"{watch}/live", headers=HX).data.decode()
    version = re.search(r"/live\?v=([0-9a-z-]+)", before).group(1)
    assert ann.get(f"{watch}/live?v={version}", headers=HX).status_code == 204
    assert save(scorer, url).status_code == 303
    after = ann.get(f"{watch}/live?v={version}", headers=HX)
    assert after.status_code == 200 and "+18" in after.data.decode()
    assert ann.get(f"{watch}/live?v={version}", headers=HX).data == after.data  # kept, the new part
    assert post_change(scorer, url, "/undo").status_code in (200, 303)
    undone = ann.get(f"{watch}/live?v={version}", headers=HX)
    assert undone.status_code == 200 and "No hands yet" in undone.data.decode() and "+18" not in undone.data.decode()


def test_a_change_written_by_another_process_is_seen_at_the_next_poll(app):
    scorer, ann = app.test_client(), app.test_client()
    url = new_session(scorer)
    watch = watch_link(scorer, url)
    assert "No hands yet" in ann.get(f"{watch}/live", headers=HX).data.decode()
    assert "No hands yet" in ann.get(f"{watch}/live", headers=HX).data.decode()  # now kept
    other = store.connect(app.config["DATABASE"])
    store.add_hand(other, url.rsplit("/", 1)[1], HAND, 1)
    other.close()
    page = ann.get(f"{watch}/live", headers=HX).data.decode()
    assert "No hands yet" not in page and "+18" in page


def test_a_player_link_is_kept_too_and_the_scorers_never(app, flask_answers):
    scorer, ann = app.test_client(), app.test_client()
    url = new_session(scorer)
    db = store.connect(app.config["DATABASE"])
    player = "/p/" + store.seat_links(db, url.rsplit("/", 1)[1])[0]
    db.close()
    ann.get(player)
    flask_answers.clear()
    one, two = (ann.get(f"{player}/live", headers=HX) for _ in range(2))
    assert one.status_code == 200 and same_answer(one, two)
    assert flask_answers == [f"{player}/live"]
    flask_answers.clear()
    for _ in range(2):
        assert scorer.get(f"{url}/live", headers=HX).status_code == 200
    assert flask_answers == [f"{url}/live", f"{url}/live"]


def test_unknown_links_and_other_questions_go_to_flask(app, flask_answers):
    client = app.test_client()
    url = new_session(client)
    watch = watch_link(client, url)
    flask_answers.clear()
    for _ in range(2):
        assert client.get("/w/nosuchlinkatallnosuchlink/live").status_code == 404
        assert client.get(f"{watch}/live?x=1").status_code == 200
    assert len(flask_answers) == 4
    assert poll_question({"REQUEST_METHOD": "POST", "PATH_INFO": f"{watch}/live"}) is None
    assert poll_question({"REQUEST_METHOD": "GET", "PATH_INFO": f"{watch}/live", "QUERY_STRING": "v=a&v=b"}) is None
    assert poll_question({"REQUEST_METHOD": "GET", "PATH_INFO": f"{watch}/live", "QUERY_STRING": "all=1&v=3-0"}) == (
        "w",
        watch[3:],
        True,
        "3-0",
    )


def test_plain_and_htmx_and_compressed_answers_are_kept_apart(app, flask_answers):
    client = app.test_client()
    url = new_session(client)
    watch = watch_link(client, url)
    client.get(watch)
    asks = [{}, HX, {**HX, "Accept-Encoding": "gzip"}, {**HX, "Accept-Encoding": "br"}]
    flask_answers.clear()
    first = [client.get(f"{watch}/live", headers=headers) for headers in asks]
    again = [client.get(f"{watch}/live", headers=headers) for headers in asks]
    assert len(flask_answers) == len(asks)  # each kind made once, then kept
    assert [r.headers.get("Content-Encoding") for r in first] == [None, None, "gzip", "br"]
    assert all(same_answer(one, other) for one, other in zip(first, again))


def test_turned_off_every_poll_reaches_flask(app, flask_answers):
    app.config["KEPT_POLLS"] = False
    client = app.test_client()
    url = new_session(client)
    watch = watch_link(client, url)
    flask_answers.clear()
    for _ in range(3):
        assert client.get(f"{watch}/live", headers=HX).status_code == 200
    assert flask_answers == [f"{watch}/live"] * 3


@pytest.mark.parametrize(
    "front_address, configured",
    [
        ("127.0.0.1", ["127.0.0.1", "::1"]),
        ("::1", ["0:0:0:0:0:0:0:1"]),  # the front's address as the config spells it: the same one to FromTheFront
    ],
)
def test_behind_the_front_an_answer_to_the_front_is_never_given_to_a_stranger(tmp_path, front_address, configured):
    from scorekeeper import create_app

    app = create_app(
        {
            "DATABASE": str(tmp_path / "test.db"),
            "SECRET_KEY": "test",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "backups"),
            "PROXY_COUNT": 1,
            "PROXY_FROM": configured,
            "PUBLIC_URL": "https://scores.example.org",
        }
    )
    reached = []
    request_started.connect(lambda sender, **extra: reached.append(1), app, weak=False)
    client = app.test_client()
    url = new_session(client)
    watch = watch_link(client, url)
    forwarded = {**HX, "X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org"}
    from_front = {"REMOTE_ADDR": front_address}
    client.get(watch, headers=forwarded, environ_base=from_front)
    reached.clear()
    front = client.get(f"{watch}/live", headers=forwarded, environ_base=from_front)
    again = client.get(f"{watch}/live", headers=forwarded, environ_base=from_front)
    assert front.status_code == 200 and same_answer(front, again) and len(reached) == 1
    stranger = client.get(f"{watch}/live", headers=forwarded, environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert len(reached) == 2  # its own answer, made by Flask
    assert stranger.status_code in (200, 400)


def wsgi_answering(status, headers, version):
    def app(environ, start_response):
        environ[VERSION_MARK] = version
        start_response(status, headers)
        return [b"part"]

    return app


@pytest.mark.parametrize(
    "status, headers, kept",
    [
        ("200 OK", [("Content-Type", "text/html")], True),
        ("204 NO CONTENT", [], False),  # a 204 kept only when it answered the current version
        ("200 OK", [("Set-Cookie", "session=x")], False),
        ("500 INTERNAL SERVER ERROR", [], False),
    ],
)
def test_only_a_cookieless_part_or_nothing_new_is_kept(app, status, headers, kept):
    client = app.test_client()
    url = new_session(client)
    watch = watch_link(client, url)
    middleware = KeptPolls(app, wsgi_answering(status, headers, "7-0-0-n"))
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": f"{watch}/live",
        "QUERY_STRING": "",
        "wsgi.url_scheme": "http",
        "HTTP_HOST": "localhost",
    }
    said = []
    body = middleware(dict(environ), lambda s, h, e=None: said.append((s, h)))
    assert b"".join(body) == b"part" and said[0][0] == status
    assert (len(middleware.kept) > 0) is kept
