"""The optional table PIN: only a browser that unlocked the table can change it,
and wrong PINs are rate-limited."""

from support.data import load_example
from support.web import export, hand_fields, new_session, post_change

HAND = load_example("parlett-seed-example.json")["hands"][0]


def test_the_creator_is_unlocked_and_others_must_unlock(app, client):
    url = new_session(client, pin="2468")
    assert client.post(url + "/hands", data=hand_fields(HAND, 1)).status_code == 303
    stranger = app.test_client()
    page = stranger.get(url).data.decode()
    assert "Unlock to record hands" in page and "+5" in page  # can see, not change
    response = stranger.get(url + "/hands/new")
    assert response.status_code == 303 and response.headers["Location"].endswith("/unlock?then=/hands/new")
    for path in ("/hands", "/hands/check", "/hands/1", "/hands/1/check", "/hands/1/delete", "/undo"):
        assert stranger.post(url + path, data=hand_fields(HAND, 2)).status_code == 403
    assert len(export(client, url)["hands"]) == 1
    assert stranger.post(url + "/unlock", data={"pin": "1111"}).status_code == 403
    response = stranger.post(url + "/unlock", data={"pin": "2468"})
    assert response.status_code == 303
    assert post_change(stranger, url, "/undo").status_code == 303
    assert export(client, url)["hands"] == []


def test_wrong_pins_are_rate_limited(app, client):
    url = new_session(client, pin="2468")
    stranger = app.test_client()
    for _ in range(5):
        assert stranger.post(url + "/unlock", data={"pin": "0000"}).status_code == 403
    response = stranger.post(url + "/unlock", data={"pin": "2468"})  # even the right one, for now
    assert response.status_code == 429
    assert "Too many wrong PINs" in response.data.decode()


def test_pin_must_be_digits(client):
    response = client.post("/sessions", data={"player_0": "A", "player_1": "B", "player_2": "C",
                                              "rulebook": "parlett", "pin": "12ab"})
    assert response.status_code == 422
    assert "A PIN is 4 to 8 digits" in response.data.decode()
    assert "12ab" not in response.data.decode()


def test_no_pin_means_no_lock(app, client):
    url = new_session(client)
    other = app.test_client()
    assert other.post(url + "/hands", data=hand_fields(HAND, 1)).status_code == 303
    assert other.get(url + "/unlock").status_code == 303


def test_unlocking_goes_on_to_the_page_asked_for_and_never_elsewhere(app, client):
    url = new_session(client, pin="2468")
    stranger = app.test_client()
    response = stranger.get(url + "/hands/new")
    assert response.status_code == 303 and response.headers["Location"] == url + "/unlock?then=/hands/new"
    page = stranger.get(response.headers["Location"]).data.decode()
    assert '<input type="hidden" name="then" value="/hands/new">' in page
    assert stranger.post(url + "/unlock", data={"pin": "1111", "then": "/hands/new"}).status_code == 403
    response = stranger.post(url + "/unlock", data={"pin": "2468", "then": "/hands/new"})
    assert response.status_code == 303 and response.headers["Location"] == url + "/hands/new"
    # only a page of this table: another site, another table or a trick path goes to the table
    for then in ("//evil.example/x", "https://evil.example", "/../../s/other", "/hands/%2e%2e", "x"):
        assert stranger.post(url + "/unlock", data={"pin": "2468", "then": then}).headers["Location"] == url
