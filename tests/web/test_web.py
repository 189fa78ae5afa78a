"""The table app over real HTTP (Flask's test client) and a real SQLite database."""

import json
import re

import pytest
from werkzeug.datastructures import MultiDict

from support.data import DATA, load_example
from support.web import (
    expected_balances,
    export,
    hand_fields,
    new_session,
    post_change,
    tap,
    shown_balances,
    version_of,
)

SEED_HAND = load_example("parlett-seed-example.json")["hands"][0]
EVENING = load_example("parlett-evening.json")["hands"]


def save(client, url, hand, version=None):
    """Save a hand as the form does: based on the version given, or the current one."""
    return client.post(
        url + "/hands", data=hand_fields(hand, version if version is not None else version_of(client, url))
    )


# ---------------------------------------------------------------- sessions


def test_home_page_offers_a_new_session(client):
    page = client.get("/").data.decode()
    assert "New session" in page
    for book in ("parlett", "wits1671", "modern"):
        assert f'value="{book}"' in page


def test_create_session_then_table(client):
    url = new_session(client, title="Thursday")
    page = client.get(url).data.decode()
    assert "Thursday" in page
    assert "Next hand" in page
    assert shown_balances(client, url) == ["0", "0", "0"]
    assert "Dealer: <strong>Ann</strong>" in page and "Eldest: <strong>Ben</strong>" in page


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"player_1": ""}, "Enter a name."),
        ({"player_1": "Ann"}, "Three different names, please"),
        ({"player_1": "  Ann  "}, "Three different names, please"),
        ({"player_2": "x" * 41}, "At most 40 characters."),
        ({"stake": "money", "stake_amount": "abc", "stake_currency": "EUR"}, "must be a number above 0"),
        ({"stake": "money", "stake_amount": "0", "stake_currency": "EUR"}, "must be a number above 0"),
        ({"stake": "money", "stake_amount": "1", "stake_currency": "XYZ"}, "Choose EUR, GBP or USD."),
        ({"played_on": "2026-02-30"}, "Enter a real date."),
        ({"rulebook": "cotton"}, "Choose a rule book."),
        ({"first_dealer": "5"}, "Choose who deals first."),
        ({"stake": "lots"}, "Choose a stake."),
    ],
)
def test_bad_new_session_is_refused_and_nothing_saved(client, app, fields, message):
    data = {
        "player_0": "Ann",
        "player_1": "Ben",
        "player_2": "Cat",
        "rulebook": "parlett",
        "first_dealer": "0",
        "stake": "",
        **fields,
    }
    response = client.post("/sessions", data=data)
    assert response.status_code == 422
    page = response.data.decode()
    assert message in page
    assert 'value="Ann"' in page  # keeps what was typed
    from scorekeeper import store

    db = store.connect(app.config["DATABASE"])
    assert db["sessions"].count == 0


def test_money_stake_and_option_are_kept(client):
    url = new_session(
        client, rulebook="wits1671", opt_tiddy="off", stake="money", stake_amount="0,05", stake_currency="EUR"
    )
    record = export(client, url)
    assert record["options"] == {"tiddy": False}
    assert record["stake"] == {"per_counter": "0.05", "currency": "EUR"}


def test_two_books_options_of_one_name_are_two_choices_on_the_home_page(client):
    """wits1671 and cotton1674 both have a ``tiddy`` option: one field name for both
    made their chips one radio group, so Wits' showed neither On nor Off chosen."""
    page = client.get("/").get_data(as_text=True)
    checked = dict(re.findall(r'<input type="radio" name="(opt_[a-z0-9]+_[a-z]+)" value="(on|off)" checked', page))
    assert checked == {
        "opt_wits1671_tiddy": "on",
        "opt_modern_simplified": "off",
        "opt_cotton1674_tiddy": "on",
        "opt_cotton1674_towser": "on",
    }
    assert page.count('id="label-opt_wits1671_tiddy"') == 1 and page.count('id="label-opt_cotton1674_tiddy"') == 1
    assert 'name="opt_tiddy"' not in page


def test_each_book_reads_its_own_option_from_the_whole_form(client):
    """The form posts every book's chips: Wits' Off is kept although Cotton's On came too."""
    url = new_session(
        client,
        rulebook="wits1671",
        opt_wits1671_tiddy="off",
        opt_cotton1674_tiddy="on",
        opt_cotton1674_towser="off",
        opt_modern_simplified="on",
    )
    assert export(client, url)["options"] == {"tiddy": False}
    url = new_session(
        client, rulebook="cotton1674", opt_wits1671_tiddy="off", opt_cotton1674_tiddy="on", opt_cotton1674_towser="off"
    )
    assert export(client, url)["options"] == {"towser": False}
    response = client.post(
        "/sessions",
        data={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "wits1671",
            "first_dealer": "0",
            "opt_wits1671_tiddy": "maybe",
        },
    )
    assert response.status_code == 422 and "Choose on or off." in response.get_data(as_text=True)
    response = client.post(
        "/sessions",
        data={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "wits1671",
            "first_dealer": "0",
            "opt_tiddy": "maybe",
        },
    )
    assert response.status_code == 422 and "Choose on or off." in response.get_data(as_text=True)


def test_unknown_session_is_a_friendly_404(client):
    for path in ("/s/nope", "/w/nope", "/s/nope/hands/new", "/s/nope/export.json", "/s/nope/live"):
        response = client.get(path)
        assert response.status_code == 404
        assert "There is no such page or session here" in response.data.decode()


def test_home_lists_only_this_browsers_sessions(app):
    first, second = app.test_client(), app.test_client()
    new_session(first, title="Mine")
    new_session(second, title="Theirs")
    page = first.get("/").data.decode()
    assert "Mine" in page and "Theirs" not in page


# ---------------------------------------------------------------- hands


def test_save_a_hand_and_see_the_balances(client):
    url = new_session(client)
    response = save(client, url, SEED_HAND)
    assert response.status_code == 303
    assert response.headers["Location"] == url
    record = export(client, url)
    assert record["hands"] == [SEED_HAND]
    assert shown_balances(client, url) == ["+2", "+5", "−7"]
    assert shown_balances(client, url) == expected_balances(record)


def test_check_shows_running_transfers_and_missing_answers(client):
    url = new_session(client)
    fields = [f for f in hand_fields(SEED_HAND).items(multi=True) if not f[0].startswith(("tricks", "honour"))]
    response = tap(client, url, MultiDict(fields))
    assert response.status_code == 200
    page = response.data.decode()
    assert "Still to answer" in page
    assert "How many tricks did each player win?" in page
    assert "−12" in page  # the auction is known already: Ann pays 6 to each


def test_incomplete_hand_is_not_saved(client):
    url = new_session(client)
    fields = [f for f in hand_fields(SEED_HAND, 1).items(multi=True) if f[0] != "ruff_winner"]
    response = client.post(url + "/hands", data=MultiDict(fields))
    assert response.status_code == 422
    assert "Who won the ruff" in response.data.decode()
    assert export(client, url)["hands"] == []


def test_wrong_hand_gets_the_domain_message_and_is_not_saved(client):
    url = new_session(client)
    fields = [f for f in hand_fields(SEED_HAND, 1).items(multi=True) if not f[0].startswith("tricks")]
    fields += [("tricks_0", "5"), ("tricks_1", "4"), ("tricks_2", "2")]
    response = client.post(url + "/hands", data=MultiDict(fields))
    assert response.status_code == 422
    assert "Tricks add up to 11, not 12" in response.data.decode()
    assert export(client, url)["hands"] == []


def test_third_players_tricks_fill_themselves_in(client):
    url = new_session(client)
    fields = [f for f in hand_fields(SEED_HAND, 1).items(multi=True) if f[0] != "tricks_2"]
    page = tap(client, url, MultiDict(fields)).data.decode()
    assert re.search(r'name="tricks_2" value="3" checked', page)
    assert 'name="tricks_auto" value="2:3"' in page
    # saving with the filled-in value stores 12 - 5 - 4
    fields += [("tricks_2", "3"), ("tricks_auto", "2:3")]
    assert client.post(url + "/hands", data=MultiDict(fields)).status_code == 303
    assert export(client, url)["hands"][0]["tricks"] == [5, 4, 3]


def test_presets_answer_a_quiet_hand(client):
    url = new_session(client)
    page = tap(client, url, {"dealer": "0", "preset": "quiet"}).data.decode()
    assert re.search(r'name="tiddy" value="nobody" checked', page)
    assert re.search(r'name="ruff_winner" value="nobody" checked', page)
    assert re.search(r'name="sets" value="none" checked', page)
    page = tap(client, url, {"dealer": "0", "preset": "eldest-opening"}).data.decode()
    assert re.search(r'name="buyer" value="1" checked', page)
    assert re.search(r'name="price" value="12" checked', page)
    # a preset posted to save re-renders the form and saves nothing
    response = client.post(url + "/hands", data={"dealer": "0", "preset": "quiet"})
    assert response.status_code == 200
    assert export(client, url)["hands"] == []


def test_turned_up_four_fixes_tiddy_and_turned_up_honour_is_not_asked(client):
    url = new_session(client)
    page = tap(client, url, {"dealer": "0", "turned_up": "4", "trump": "spades"}).data.decode()
    assert "Tiddy turned up: the dealer is paid 4 from each." in page
    page = tap(client, url, {"dealer": "0", "turned_up": "K", "trump": "spades"}).data.decode()
    assert 'name="honour_K"' not in page
    assert "King of trumps turned up: it counts for the dealer." in page


def test_no_mournival_of_the_turned_up_rank_is_offered(client):
    url = new_session(client)
    page = tap(client, url, {"dealer": "0", "turned_up": "K", "trump": "spades", "sets": "some"}).data.decode()
    assert 'value="gleek:K"' in page and 'value="mournival:K"' not in page
    assert 'value="mournival:Q"' in page


def test_dealer_rotates(client):
    url = new_session(client)
    assert save(client, url, EVENING[0]).status_code == 303  # Samuel (seat 0) dealt
    page = client.get(url + "/hands/new").data.decode()
    assert re.search(r'name="dealer" value="1" checked', page)


def test_a_whole_evening_matches_settle(client):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    for hand in EVENING:
        assert save(client, url, hand).status_code == 303
    record = export(client, url)
    assert record["hands"] == EVENING
    expected = json.loads((DATA / "parlett-evening.expected.json").read_text())
    assert shown_balances(client, url) == ["+43", "+3", "−46"] == expected_balances(record)
    assert expected["balances"] == [43, 3, -46]


@pytest.mark.parametrize("rulebook, name", [("wits1671", "wits1671-evening.json"), ("modern", "modern-evening.json")])
def test_other_books_record_their_evenings(client, rulebook, name):
    example = load_example(name)
    url = new_session(client, rulebook=rulebook, players=example["players"])
    for hand in example["hands"]:
        response = save(client, url, hand)
        assert response.status_code == 303, response.data.decode()
    record = export(client, url)
    assert record["hands"] == example["hands"]
    assert shown_balances(client, url) == expected_balances(record)


def test_hand_detail_explains_each_phase(client):
    url = new_session(client)
    save(client, url, EVENING[1])
    page = client.get(url + "/hands/1").data.decode()
    assert "Cat bought at 12, pays 6 to each." in page
    assert "Ben pays Ann 4 for the ruff." in page
    assert "Ann holds Tiddy (the Four of trumps): 2 from each." in page
    assert client.get(url + "/hands/2").status_code == 404


# ---------------------------------------------------------------- fixing mistakes


def test_edit_a_past_hand_recomputes_everything_after_it(client):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    for hand in EVENING:
        save(client, url, hand)
    edited = {**EVENING[0], "tricks": [5, 3, 4]}
    response = post_change(client, url, "/hands/1", hand_fields(edited))
    assert response.status_code == 303
    shown = client.get(url).data.decode()
    assert "Balances: Samuel +43 → +46, Will −46 → −49." in shown
    record = export(client, url)
    assert record["hands"][0]["tricks"] == [5, 3, 4]
    assert shown_balances(client, url) == expected_balances(record) != ["+43", "+3", "−46"]
    history = client.get(url + "/history").data.decode()
    assert "Changed hand 1" in history
    assert "Tricks: 4 · 3 · 5 → 5 · 3 · 4" in history  # what changed, in words
    assert "Tricks: 4 · 3 · 5 → 5 · 3 · 4" in client.get(url + "/hands/1").data.decode()


def test_edit_that_breaks_a_later_hand_is_refused(client):
    """Hand 3's ruff stakes (2 and 2) rely on hand 2 having had a contest: with
    no contest in hands 1 and 2, parlett's opening stake for hand 3 doubles twice, to 8."""
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    for hand in EVENING:
        save(client, url, hand)
    edited = {**EVENING[1], "ruff": None}
    response = post_change(client, url, "/hands/2", hand_fields(edited))
    assert response.status_code == 422
    page = response.data.decode()
    assert "hand 3: ruff: Samuel paid 2, but the opening stake this hand is 8" in page
    assert "Edit hand 3 first, then this one." in page
    assert export(client, url)["hands"] == EVENING


def test_delete_last_hand_and_undo(client):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    for hand in EVENING[:2]:
        save(client, url, hand)
    assert post_change(client, url, "/hands/1/delete").status_code == 422
    assert len(export(client, url)["hands"]) == 2  # only the last can go
    assert post_change(client, url, "/hands/2/delete").status_code == 303
    assert export(client, url)["hands"] == EVENING[:1]
    post_change(client, url, "/undo")
    assert export(client, url)["hands"] == EVENING[:2]


def test_undo_right_after_save_and_after_edit(client):
    url = new_session(client)
    save(client, url, SEED_HAND)
    page = client.get(url).data.decode()
    assert "Hand 1 saved." in page and "Undo" in page
    assert "Undo: save of hand 1" in client.get(url).data.decode()  # offered until a newer change
    post_change(client, url, "/undo")
    assert export(client, url)["hands"] == []
    post_change(client, url, "/undo")  # the undo is undone
    assert export(client, url)["hands"] == [SEED_HAND]
    post_change(client, url, "/hands/1", hand_fields({**SEED_HAND, "tricks": [4, 5, 3]}))
    post_change(client, url, "/undo")
    assert export(client, url)["hands"] == [SEED_HAND]


def test_undoing_a_delete_and_going_back_say_so(client):
    url = new_session(client)
    for hand in EVENING[:2]:
        save(client, url, hand)
    post_change(client, url, "/hands/2/delete")
    post_change(client, url, "/undo")
    page = client.get(url).data.decode()
    assert "Undone: the delete of hand 2." in page and ">Redo: delete of hand 2</button>" in page
    post_change(client, url, f"/history/{version_of(client, url) - 1}/back")
    post_change(client, url, "/undo")
    page = client.get(url).data.decode()
    assert "Undone: going back." in page and ">Redo: going back</button>" in page and "None" not in page
    history = client.get(url + "/history").data.decode()
    assert "Undid going back" in history and "Undid the delete of hand 2" in history


def test_nothing_to_undo(client):
    url = new_session(client)
    response = post_change(client, url, "/undo")
    assert response.status_code == 422
    assert "There is nothing to undo." in response.data.decode()


def test_undo_offer_names_the_real_last_change_and_redo(client):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    for hand in EVENING[:2]:
        save(client, url, hand)
    page = client.get(url).data.decode()
    assert "Hand 2 saved." in page
    post_change(client, url, "/undo")
    page = client.get(url).data.decode()
    assert "Undone: the save of hand 2." in page and ">Redo: save of hand 2</button>" in page
    post_change(client, url, "/undo")
    assert export(client, url)["hands"] == EVENING[:2]
    history = client.get(url + "/history").data.decode()
    assert "Undid the save of hand 2" in history and "Redid the save of hand 2" in history


def test_stale_undo_is_refused(client):
    url = new_session(client)
    version = version_of(client, url)
    save(client, url, SEED_HAND)
    response = client.post(url + "/undo", data={"version": str(version)})
    assert response.status_code == 409
    assert len(export(client, url)["hands"]) == 1


def test_a_second_save_of_the_same_hand_is_not_a_duplicate(client):
    url = new_session(client)
    version = version_of(client, url)
    assert save(client, url, SEED_HAND, version).status_code == 303
    response = save(client, url, SEED_HAND, version)  # a double tap, or Back then Save
    assert response.status_code == 303
    assert "Hand 1 was already saved" in client.get(url).data.decode()
    assert len(export(client, url)["hands"]) == 1


def test_a_hand_saved_meanwhile_by_another_phone_is_a_stale_new_hand(client):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    version = version_of(client, url)
    assert save(client, url, EVENING[0], version).status_code == 303
    response = save(client, url, EVENING[1], version)  # based on the old version
    assert response.status_code == 409
    page = response.data.decode()
    assert "Another phone saved hand 1 a moment ago, so this is now hand 2" in page
    assert re.search(r'name="dealer" value="1" checked', page)
    assert len(export(client, url)["hands"]) == 1


def test_stale_edit_is_refused_with_the_fresh_state(client):
    url = new_session(client)
    version = version_of(client, url)
    assert save(client, url, SEED_HAND, version).status_code == 303
    response = client.post(url + "/hands/1", data=hand_fields({**SEED_HAND, "tricks": [4, 5, 3]}, version))
    assert response.status_code == 409
    assert "Someone else changed this session" in response.data.decode()
    assert export(client, url)["hands"] == [SEED_HAND]


# ---------------------------------------------------------------- live view


def test_live_updates_only_when_something_changed(client):
    url = new_session(client)
    version = version_of(client, url)
    assert client.get(f"{url}/live?v={version}-0-0-n").status_code == 204
    save(client, url, SEED_HAND)
    response = client.get(f"{url}/live?v={version}-0-0-n", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "+5" in response.data.decode()
    assert "HX-Request" in response.headers["Vary"]


def test_watchers_share_the_live_part_and_it_follows_each_change(app):
    """The phones on one watch link poll the same part: it is made once per change
    (a club night: hundreds of watchers) and still follows each save and each undo."""
    scorer, ann, ben = app.test_client(), app.test_client(), app.test_client()
    url = new_session(scorer)
    watch = re.search(r'href="http://[^"]*(/w/[^"/]+)"', scorer.get(url).data.decode()).group(1)

    def live(client, query=""):
        response = client.get(f"{watch}/live{query}", headers={"HX-Request": "true"})
        assert response.status_code == 200
        return response.data.decode()

    before = live(ann)
    assert "No hands yet" in before and live(ben) == before
    save(scorer, url, SEED_HAND)
    after = live(ann)
    assert "+5" in after and "No hands yet" not in after and live(ben) == after
    assert "&amp;all=1" in live(ben, "?all=1") and "all=1" not in after  # its own variant
    assert post_change(scorer, url, "/undo").status_code in (200, 303)
    undone = live(ben)
    assert "No hands yet" in undone and "+5" not in undone and live(ann) == undone


def test_live_part_is_made_once_for_both_server_processes(app, tmp_path):
    """With the folder `serve.run` shares between its processes, a change's live
    part made by one process is the one the other serves (before, each process
    made each change's part itself); a part made for an older version never is."""
    from flask import template_rendered

    from scorekeeper.web.cache import LIVE

    app.config["SHARED_PARTS"] = str(tmp_path / "shared")
    (tmp_path / "shared").mkdir(mode=0o700)
    scorer, watcher = app.test_client(), app.test_client()
    url = new_session(scorer)
    watch = re.search(r'href="http://[^"]*(/w/[^"/]+)"', scorer.get(url).data.decode()).group(1)
    made = []

    def record(sender, template, context, **extra):
        made.append(template.name)

    template_rendered.connect(record, app)  # (held weakly: ``record`` lives as long as the test)

    def live():
        response = watcher.get(f"{watch}/live", headers={"HX-Request": "true"})
        assert response.status_code == 200
        return response.data.decode()

    save(scorer, url, SEED_HAND)
    first = live()
    assert "+5" in first and made.count("_live.html") == 1
    LIVE._values.clear()  # the other process: its own cache is empty
    assert live() == first and made.count("_live.html") == 1  # read, not made again
    assert len(list((tmp_path / "shared").iterdir())) == 1  # one file for the link

    assert post_change(scorer, url, "/undo").status_code in (200, 303)
    LIVE._values.clear()
    undone = live()  # the file holds the older version's part: made anew
    assert "No hands yet" in undone and "+5" not in undone and made.count("_live.html") == 2
    LIVE._values.clear()
    assert live() == undone and made.count("_live.html") == 2


def test_a_killed_servers_shared_parts_are_removed_at_the_next_start(tmp_path):
    """serve.run's folder of shared live parts is named by its process: one a
    server killed outright left behind goes at the next start; a running one's stays."""
    import os
    import subprocess
    import sys

    from scorekeeper.server.serve import remove_left_parts

    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    ).stdout.strip()
    left = tmp_path / f"scorekeeper-live-{gone}-abc123"
    running = tmp_path / f"scorekeeper-live-{os.getppid()}-def456"
    other = tmp_path / "scorekeeper-live-notapid-x"
    for folder in (left, running, other):
        folder.mkdir()
        (folder / "part").write_text("1\n<section></section>")
    assert remove_left_parts(tmp_path) == [left]
    assert not left.exists() and running.exists() and other.exists()


def test_the_shared_parts_live_in_memory_where_there_is_tmpfs(monkeypatch):
    """serve.run writes one shared part at every change of every table: in
    /dev/shm where the machine has it (Linux), else the temporary folder."""
    import os
    import tempfile

    from scorekeeper.server.serve import parts_folder_parent, share_live_parts

    expected = "/dev/shm" if os.access("/dev/shm", os.W_OK | os.X_OK) else tempfile.gettempdir()
    assert str(parts_folder_parent()) == expected
    monkeypatch.delenv("SCOREKEEPER_SHARED_PARTS", raising=False)
    folder = share_live_parts(2)
    try:
        assert os.path.dirname(folder) == expected and os.stat(folder).st_mode & 0o777 == 0o700
    finally:
        os.rmdir(folder)


def test_live_part_is_compressed_once_for_every_phone(app):
    """The phones polling a link get the same brotli bytes until the part changes
    (kept by flask-compress's cache, for the live parts only), and the new part after."""
    import brotli

    scorer, ann, ben = app.test_client(), app.test_client(), app.test_client()
    url = new_session(scorer)
    watch = re.search(r'href="http://[^"]*(/w/[^"/]+)"', scorer.get(url).data.decode()).group(1)
    kept = app.extensions["scorekeeper.compress"].cache.kept

    def live(client):
        response = client.get(f"{watch}/live", headers={"HX-Request": "true", "Accept-Encoding": "br, gzip"})
        assert response.status_code == 200 and response.headers["Content-Encoding"] == "br"
        assert "Accept-Encoding" in response.headers["Vary"]
        return response.data

    save(scorer, url, SEED_HAND)
    first = live(ann)
    assert "+5" in brotli.decompress(first).decode() and live(ben) == first
    assert len(kept._values) == 1  # one part, one encoding
    assert scorer.get(url, headers={"Accept-Encoding": "br"}).headers["Content-Encoding"] == "br"
    assert len(kept._values) == 1  # the table page is compressed, never kept
    assert post_change(scorer, url, "/undo").status_code in (200, 303)
    undone = brotli.decompress(live(ben)).decode()
    assert "No hands yet" in undone and "+5" not in undone and len(kept._values) == 2


def test_watch_link_is_read_only(client):
    url = new_session(client)
    save(client, url, SEED_HAND)
    page = client.get(url).data.decode()
    watch = re.search(r'href="http://[^"]*(/w/[^"]+)"', page).group(1)
    view = client.get(watch).data.decode()
    assert "Watching" in view and "Next hand" not in view and "+5" in view
    hand_page = client.get(watch + "/hands/1").data.decode()
    assert "Edit hand" not in hand_page
    for path in ("/hands", "/hands/check", "/hands/1", "/hands/1/delete", "/undo"):
        assert client.post(watch + path, data=hand_fields(SEED_HAND)).status_code in (404, 405)
    assert client.get(watch + "/hands/new").status_code == 404
    assert len(export(client, url)["hands"]) == 1


def test_table_page_has_a_qr_code_of_the_watch_link(client):
    url = new_session(client)
    page = client.get(url).data.decode()
    assert "<svg" in page and "/w/" in page


# ---------------------------------------------------------------- export / import


def test_export_import_round_trip_is_lossless(client):
    record = load_example("wits1671-evening.json")
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 303
    url = response.headers["Location"]
    assert export(client, url) == record


def test_import_by_upload(client):
    from io import BytesIO

    text = (DATA / "modern-evening.json").read_bytes()
    response = client.post(
        "/import", data={"file": (BytesIO(text), "evening.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 303
    assert export(client, response.headers["Location"]) == json.loads(text)


def test_invalid_import_creates_nothing(client, app):
    text = (DATA / "invalid-parlett.json").read_text()
    response = client.post("/import", data=text, content_type="application/json")
    assert response.status_code == 422
    assert "hand 2: tricks add up to 11, not 12" in response.json["problems"]
    from io import BytesIO

    response = client.post("/import", data={"file": (BytesIO(b"{nope"), "x.json")}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "record: not valid JSON" in response.data.decode()
    from scorekeeper import store

    assert store.connect(app.config["DATABASE"])["sessions"].count == 0


# "Ann" and "ann", or "Zoë" typed as one letter and as e + a combining diaeresis: one name to the app
ALIKE = [
    ("Ann", "ann", '"Ann" and "ann" are one name here'),
    ("Zo\u00eb", " Zoe\u0308 ", '"Zo\u00eb" and "Zoe\u0308" are one name here'),
]


@pytest.mark.parametrize("first, second, line", ALIKE)
def test_a_new_session_refuses_two_players_named_alike(client, app, first, second, line):
    data = {
        "player_0": first,
        "player_1": "Ben",
        "player_2": second,
        "rulebook": "parlett",
        "first_dealer": "0",
        "stake": "",
    }
    response = client.post("/sessions", data=data)
    assert response.status_code == 422
    problems = re.findall(r'<p class="problem" role="alert">(.*?)</p>', response.data.decode())
    assert problems == [
        "Three different names, please: "
        + line.replace('"', "&#34;")
        + " (capitals, accents typed either way and spaces round a name do not count): "
        "give each player a different name"
    ]
    from scorekeeper import store

    assert store.connect(app.config["DATABASE"])["sessions"].count == 0


@pytest.mark.parametrize("first, second, line", ALIKE)
def test_an_import_refuses_two_players_named_alike(client, app, first, second, line):
    from io import BytesIO

    record = load_example("parlett-evening.json")
    record["players"] = [first, "Ben", second]
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 422
    assert response.json["problems"] == [
        f"players: {line} (capitals, accents typed either way and spaces round a name do not count): "
        "give each player a different name"
    ]
    response = client.post(
        "/import",
        data={"file": (BytesIO(json.dumps(record).encode()), "evening.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and line.replace('"', "&#34;") in response.data.decode()
    from scorekeeper import store

    assert store.connect(app.config["DATABASE"])["sessions"].count == 0


def test_import_too_large_is_a_clear_413(client):
    response = client.post("/import", data=b"x" * (3 * 1024 * 1024), content_type="application/json")
    assert response.status_code == 413
    assert "too large" in response.data.decode()


# ---------------------------------------------------------------- rules page, manifest, security


def test_rules_page_shows_every_decision(client):
    from scorekeeper.rules import BOOKS

    page = client.get("/rules").data.decode()
    from markupsafe import escape

    for book in BOOKS.values():
        assert escape(book.source) in page
        for decision in book.decisions:
            assert escape(decision.title) in page
            assert escape(decision.text) in page


def test_manifest_and_icons(client):
    manifest = client.get("/manifest.webmanifest").json
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"]


@pytest.mark.parametrize(
    "headers", [{"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "same-site"}]
)
def test_cross_site_posts_are_refused(client, headers):
    url = new_session(client)
    response = client.post(url + "/hands", data=hand_fields(SEED_HAND, 1), headers=headers)
    assert response.status_code == 403
    assert export(client, url)["hands"] == []


def test_same_origin_posts_are_allowed(client):
    url = new_session(client)
    response = client.post(
        url + "/hands",
        data=hand_fields(SEED_HAND, 1),
        headers={"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},
    )
    assert response.status_code == 303


def test_htmx_save_redirects_with_hx_redirect(client):
    url = new_session(client)
    response = client.post(url + "/hands", data=hand_fields(SEED_HAND, 1), headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response.headers["HX-Redirect"] == url


# ---------------------------------------------------------------- settle up and the sheet


def test_settle_up_screen_agrees_with_settle(client):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"), stake="12d")
    for hand in EVENING:
        save(client, url, hand)
    page = client.get(url + "/settle").data.decode()
    text = re.sub(r"<[^>]+>", "", page)
    assert "Will pays Samuel 43 counters = £2 3s" in text
    assert "Will pays Elizabeth 3 counters = 3s" in text
    assert re.findall(r'class="amount[^"]*" data-seat="\d">([^<]*)<', page) == ["+43", "+3", "−46"]
    assert "<svg" in page  # the running-balance chart
    # the phase breakdown: tiddy totals over the evening are 8+4-2, -4-2+4, -4-2-2
    assert re.search(r"Tiddy</th><td[^>]*>\+10</td><td[^>]*>−2</td><td[^>]*>−8</td>", page)


def test_settle_up_with_nothing_played(client):
    url = new_session(client)
    page = client.get(url + "/settle").data.decode()
    assert "All square" in page


def test_sheet_html_and_pdf(client):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    for hand in EVENING:
        save(client, url, hand)
    html = client.get(url + "/sheet")
    assert html.status_code == 200 and "Samuel" in html.data.decode()
    assert f'<a href="{url}">← Back to the table</a>' in html.data.decode()
    for paper, size in (("a4", {595, 842}), ("letter", {612, 792})):
        response = client.get(url + f"/sheet.pdf?paper={paper}")
        assert response.status_code == 200
        assert response.mimetype == "application/pdf"
        from io import BytesIO
        from pypdf import PdfReader

        reader = PdfReader(BytesIO(response.data))
        box = reader.pages[0].mediabox
        assert {round(float(box.width)), round(float(box.height))} == size
        assert "Elizabeth" in reader.pages[0].extract_text()
    assert client.get(url + "/sheet.pdf?paper=legal").status_code == 404


def test_table_lists_the_recent_hands_and_can_show_all(client):
    from support.sessions import long_session

    response = client.post("/import", data=json.dumps(long_session(30)), content_type="application/json")
    url = response.headers["Location"]
    page = client.get(url).data.decode()
    assert page.count('<tr class="">') + page.count('<tr class="new">') == 24
    assert "Show all 30 hands" in page
    page = client.get(url + "?all=1").data.decode()
    assert page.count("dealt</small>") == 30
    assert "&amp;all=1" in page  # the live poll keeps showing all


def test_the_hand_tables_columns_are_headed_by_short_names(client):
    players = ("Bartholomew Fitzwilliam-Montgomery III Q", "Ann 🃏 de la Tour", "佐藤花子")
    record = dict(load_example("parlett-evening.json"), players=list(players))
    url = client.post("/import", json=record).headers["Location"]
    page = client.get(url).data.decode()
    head = page[page.index("<thead>") : page.index("</thead>")]
    assert '<abbr title="Bartholomew Fitzwilliam-Montgomery III Q">Bartholomew</abbr>' in head
    assert '<abbr title="Ann 🃏 de la Tour">Ann</abbr>' in head and '">佐藤花子</span></span></th>' in head
    assert "Bartholomew Fitzwilliam-Montgomery III Q" in page  # in full on the balance cards
