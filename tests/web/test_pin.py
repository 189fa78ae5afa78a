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
    response = client.post(
        "/sessions", data={"player_0": "A", "player_1": "B", "player_2": "C", "rulebook": "parlett", "pin": "12ab"}
    )
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


# ---------------------------------------------------------------- one PIN guesser cannot lock out everyone


def table_with_pin(app, pin: str) -> str:
    """A session locked by ``pin``, hashed cheaply (the checks here are about
    counting tries, not the hash's cost: 100 of the app's own take a minute)."""
    from werkzeug.security import generate_password_hash

    from scorekeeper import store

    db = store.connect(app.config["DATABASE"])
    session = store.create_session(
        db, load_example("parlett-evening.json"), pin_hash=generate_password_hash(pin, method="pbkdf2:sha256:1")
    )
    db.close()
    return f"/s/{session.id}"


def device(app, address: str):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_a_guessers_wrong_pins_do_not_lock_out_another_device(app):
    url = table_with_pin(app, "2468")
    guesser = device(app, "192.0.2.66")
    for _ in range(5):
        assert guesser.post(url + "/unlock", data={"pin": "0000"}).status_code == 403
    second_phone = device(app, "192.0.2.10")  # the scorer's second phone
    response = second_phone.post(url + "/unlock", data={"pin": "2468"})
    assert response.status_code == 303 and response.headers["Location"] == url
    assert "Unlock to record hands" not in second_phone.get(url).get_data(as_text=True)
    response = guesser.post(url + "/unlock", data={"pin": "2468"})  # the guesser: 5 tries in 15 minutes
    assert response.status_code == 429
    assert "Too many wrong PINs from this device. Try again in 15 minutes." in response.get_data(as_text=True)


def test_the_sessions_ceiling_holds_whatever_the_addresses(app):
    from scorekeeper import store

    url = table_with_pin(app, "2468")
    for n in range(20):  # 20 addresses × 5 wrong tries
        guesser = device(app, f"198.51.100.{n}")
        for _ in range(5):
            assert guesser.post(url + "/unlock", data={"pin": "1111"}).status_code == 403
    assert store.SESSION_PIN_TRIES == 100
    fresh = device(app, "203.0.113.5")  # no failures, but the table has had 100
    response = fresh.post(url + "/unlock", data={"pin": "2468"})
    assert response.status_code == 429
    assert (
        "Too many wrong PINs for this table today, from several devices. Try again in 24 hours; "
        "a phone already unlocked stays unlocked."
    ) in response.get_data(as_text=True)
    other = table_with_pin(app, "1357")  # another table is not held up
    assert fresh.post(other + "/unlock", data={"pin": "1357"}).status_code == 303


def test_pin_tries_are_counted_in_sliding_windows():
    import tempfile

    from scorekeeper import store

    with tempfile.TemporaryDirectory() as folder:
        store.initialise(folder + "/p.db")
        db = store.connect(folder + "/p.db")
        sid = store.create_session(db, load_example("parlett-evening.json"), pin_hash="x").id
        for at in range(5):
            assert store.reserve_pin_try(db, sid, "192.0.2.1", 1000.0 + at).id is not None
        assert store.reserve_pin_try(db, sid, "192.0.2.1", 1010.0) == store.PinTry(None, 890, False)
        assert store.reserve_pin_try(db, sid, "192.0.2.2", 1010.0).id is not None  # another client
        assert store.reserve_pin_try(db, sid, "192.0.2.1", 1900.0).id is not None  # 15 minutes on
        for n in range(93):  # 100 in the day
            assert store.reserve_pin_try(db, sid, f"10.0.{n}.1", 2000.0 + n).id is not None
        assert store.reserve_pin_try(db, sid, "10.9.9.9", 3000.0) == store.PinTry(None, 86_400 - 2000, True)
        assert store.reserve_pin_try(db, sid, "10.9.9.9", 1000.0 + 86_400.5).id is not None  # a day on
        db.close()
