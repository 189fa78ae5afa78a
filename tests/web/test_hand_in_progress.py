"""The hand on the table is stored as it is entered (so the hand on the table
is never lost): real SQLite, Flask's test client, the app built twice on one
database where a server restart matters."""

from __future__ import annotations

import html
import json
import re
import sqlite3

from werkzeug.datastructures import MultiDict

from scorekeeper import create_app
from support.web import export, hand_fields, new_session, post_change, version_of

SEED_HAND = {
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


def app_on(path, **config):
    return create_app(
        {
            "DATABASE": str(path / "gleek.db"),
            "SECRET_KEY": "same",
            "TESTING": True,
            "BACKUP_DIR": str(path / "backups"),
            **config,
        }
    )


def shown_draft(page: str) -> tuple[int, str]:
    """The version and token of the hand in progress a form page shows."""
    version = int(re.search(r'name="draft_version" value="(\d+)"', page).group(1))
    token = re.search(r'name="draft" value="([^"]*)"', page).group(1)
    return version, token


def post_tap(client, url, fields, draft_version, headers=HX):
    data = MultiDict(fields)
    data["draft_version"] = str(draft_version)
    return client.post(url + "/hands/check", data=data, headers=headers)


def partial(hand, *keep):
    """Only some answers of a hand, as the form posts them."""
    fields = hand_fields(hand)
    return MultiDict([(k, v) for k, v in fields.items(multi=True) if k.split("_")[0] in keep])


def test_every_tap_is_stored_and_comes_back_on_reload(client):
    url = new_session(client)
    assert shown_draft(client.get(url + "/hands/new").data.decode()) == (0, "")
    response = post_tap(client, url, partial(SEED_HAND, "dealer", "trump", "turned", "buyer", "price"), 0)
    assert response.status_code == 200
    page = client.get(url + "/hands/new").data.decode()  # a reload
    version, token = shown_draft(page)
    assert version == 1 and token
    assert re.search(r'name="trump" value="hearts" checked', page)
    assert re.search(r'name="buyer" value="1" checked', page) and re.search(r'name="price" value="12" checked', page)
    assert "−12" in page  # with its running payments: Ben pays 6 to each
    # the table page says so, on both links
    assert "Hand 1 in progress" in client.get(url).data.decode()
    watch = re.search(r'href="[^"]*(/w/[^"]+)"', client.get(url).data.decode()).group(1)
    watched = client.get(watch).data.decode()
    assert "Hand 1 in progress" in watched and "Ben bought at 12, pays 6 to each." in watched


def test_a_second_phone_finds_the_hand_and_two_phones_never_overwrite_blindly(client, app):
    url = new_session(client)
    post_tap(client, url, partial(SEED_HAND, "dealer", "trump"), 0)
    other = app.test_client()  # a second phone with the scorer's link
    page = other.get(url + "/hands/new").data.decode()
    assert re.search(r'name="trump" value="hearts" checked', page)
    assert shown_draft(page)[0] == 1
    assert post_tap(other, url, partial(SEED_HAND, "dealer", "trump", "turned"), 1).status_code == 200
    # the first phone still shows version 1: its tap is refused with the hand as it is now
    response = post_tap(client, url, partial({**SEED_HAND, "trump": "spades"}, "dealer", "trump"), 1)
    assert response.status_code == 409
    page = response.data.decode()
    assert "Another phone changed this hand a moment ago" in page
    assert re.search(r'name="turned_up" value="9" checked', page)  # the other phone's answer, not lost
    assert re.search(r'name="trump" value="hearts" checked', page)
    assert shown_draft(page)[0] == 2


def test_the_hand_in_progress_survives_a_server_restart_and_the_next_day(tmp_path):
    first = app_on(tmp_path).test_client()
    url = new_session(first)
    post_tap(first, url, partial(SEED_HAND, "dealer", "trump", "turned", "tiddy"), 0)
    with sqlite3.connect(tmp_path / "gleek.db") as db:  # left overnight
        db.execute("update drafts set updated_at = '2026-11-30T23:40:00+00:00'")
    restarted = app_on(tmp_path).test_client()
    restarted.set_cookie("session", first.get_cookie("session").value)
    page = restarted.get(url + "/hands/new").data.decode()
    assert re.search(r'name="turned_up" value="9" checked', page)
    assert re.search(r'name="tiddy" value="nobody" checked', page)
    assert shown_draft(page)[0] == 1


def test_a_hand_the_rules_refuse_is_kept_as_it_is_with_its_problems(client):
    url = new_session(client)
    wrong = MultiDict(hand_fields({**SEED_HAND, "tricks": [5, 4, 2]}))
    response = post_tap(client, url, wrong, 0)
    assert response.status_code == 200
    assert "Tricks add up to 11, not 12" in response.data.decode()
    page = client.get(url + "/hands/new").data.decode()
    assert re.search(r'name="tricks_2" value="2" checked', page)
    assert "Tricks add up to 11, not 12" in page
    assert export(client, url)["hands"] == []


def test_a_tap_that_does_not_say_its_version_is_refused(client):
    url = new_session(client)
    response = client.post(url + "/hands/check", data=partial(SEED_HAND, "dealer", "trump"), headers=HX)
    assert response.status_code == 409
    assert shown_draft(client.get(url + "/hands/new").data.decode()) == (0, "")


def test_save_clears_the_hand_in_progress_and_a_lost_answer_is_not_saved_twice(client):
    url = new_session(client)
    post_tap(client, url, hand_fields(SEED_HAND), 0)
    draft, token = shown_draft(client.get(url + "/hands/new").data.decode())
    fields = hand_fields(SEED_HAND, version_of(client, url))
    fields.update({"draft": token, "draft_version": str(draft)})
    assert client.post(url + "/hands", data=fields).status_code == 303
    assert "in progress</h2>" not in client.get(url).data.decode()
    again = client.post(url + "/hands", data=fields)  # the same Save, sent again: its answer was lost
    assert again.status_code == 303 and again.headers["X-Scorekeeper-Unchanged"] == "already-saved"
    assert export(client, url)["hands"] == [SEED_HAND]
    assert shown_draft(client.get(url + "/hands/new").data.decode()) == (0, "")


def test_a_save_over_newer_answers_from_another_phone_is_refused(client, app):
    url = new_session(client)
    post_tap(client, url, hand_fields(SEED_HAND), 0)
    draft, token = shown_draft(client.get(url + "/hands/new").data.decode())
    other = app.test_client()
    post_tap(other, url, hand_fields({**SEED_HAND, "tricks": [6, 3, 3]}), draft)
    fields = hand_fields(SEED_HAND, version_of(client, url))
    fields.update({"draft": token, "draft_version": str(draft)})
    response = client.post(url + "/hands", data=fields)
    assert response.status_code == 409
    assert re.search(r'name="tricks_0" value="6" checked', response.data.decode())
    assert export(client, url)["hands"] == []


def test_a_tap_for_a_hand_saved_meanwhile_says_this_phones_answers_in_words(client, app):
    """A phone's taps for hand 1 (kept while it had no connection) arrive after
    another phone saved hand 1: refused, with the hand shown as it is now, and
    this phone's answers said beside the way to start hand 2 with them."""
    url = new_session(client)
    other = app.test_client()
    post_tap(other, url, hand_fields(SEED_HAND), 0)
    draft, token = shown_draft(other.get(url + "/hands/new").data.decode())
    fields = hand_fields(SEED_HAND, version_of(other, url))
    fields.update({"draft": token, "draft_version": str(draft)})
    assert other.post(url + "/hands", data=fields).status_code == 303
    mine = partial({**SEED_HAND, "trump": "spades"}, "dealer", "trump", "turned", "buyer", "price")
    mine["number"] = "1"
    response = post_tap(client, url, mine, 0)
    assert response.status_code == 409
    page = response.data.decode()
    assert "Hand 1 was saved on another phone a moment ago." in page
    assert '<p class="phone-copy">This phone\'s hand 1: Ann dealt · ♠ Spades · 9 up · Ben bought at 12</p>' in page
    assert "Start hand 2 with this phone&#39;s answers" in page  # (escaped: the server's label)
    assert export(client, url)["hands"] == [SEED_HAND]


def test_cancel_discards_and_undo_brings_it_back(client):
    url = new_session(client)
    post_tap(client, url, partial(SEED_HAND, "dealer", "trump", "turned"), 0)
    assert client.post(url + "/hands/discard", data={"draft_version": "1"}).status_code == 303
    page = client.get(url).data.decode()
    assert "Hand 1 in progress</h2>" not in page and "Undo: cancel of hand 1" in page
    client.get(url + "/rules")  # wander off and back: the undo is still offered
    page = client.get(url).data.decode()
    assert "Undo: cancel of hand 1" in page
    client.post(url + "/undo", data={"version": str(version_of(client, url))})
    page = client.get(url + "/hands/new").data.decode()
    assert re.search(r'name="turned_up" value="9" checked', page)
    assert "Hand 1 in progress" in client.get(url).data.decode()


def test_delete_then_undo_later_and_go_back_in_history(client):
    url = new_session(client)
    for tricks in ([5, 4, 3], [4, 4, 4]):
        hand = {**SEED_HAND, "dealer": len(export(client, url)["hands"]) % 3, "tricks": tricks}
        hand["auction"] = {"buyer": (hand["dealer"] + 1) % 3, "price": 12}
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
    saved = export(client, url)["hands"]
    version = version_of(client, url)
    assert client.post(url + "/hands/2/delete", data={"version": str(version)}).status_code == 303
    client.get(url + "/settle")
    page = client.get(url).data.decode()
    assert "Undo: delete of hand 2" in page
    client.post(url + "/undo", data={"version": str(version_of(client, url))})
    assert export(client, url)["hands"] == saved
    # History: back to the version with one hand, as one more change, itself undoable
    assert client.post(f"{url}/history/2/back", data={"version": str(version_of(client, url))}).status_code == 303
    assert export(client, url)["hands"] == saved[:1]
    assert "Went back to an earlier version" in client.get(url + "/history").data.decode()
    assert "Undo: going back" in client.get(url).data.decode()
    client.post(url + "/undo", data={"version": str(version_of(client, url))})
    assert export(client, url)["hands"] == saved


def test_going_back_to_a_version_that_does_not_exist_changes_nothing(client):
    url = new_session(client)
    response = client.post(f"{url}/history/7/back", data={"version": str(version_of(client, url))})
    assert response.status_code == 422
    assert "There is no earlier version 7 to go back to." in response.data.decode()


def test_a_tap_from_a_phone_a_version_behind_is_added_not_thrown_away(client, app):
    url = new_session(client)
    post_tap(client, url, partial(SEED_HAND, "dealer", "trump"), 0)  # version 1, both phones see it
    other = app.test_client()
    post_tap(other, url, partial(SEED_HAND, "dealer", "trump", "tricks"), 1)  # the other phone: tricks
    mine = partial(SEED_HAND, "dealer", "trump", "honour")
    mine["changed"] = "honour_A,honour_K"  # this phone, still at version 1, tapped two honours
    response = post_tap(client, url, mine, 1)
    assert response.status_code == 200
    page = response.data.decode()
    assert "Another phone added answers to this hand meanwhile: they are in, with yours." in page
    assert re.search(r'name="tricks_0" value="5" checked', page)  # the other phone's answer, kept
    assert re.search(r'name="honour_A" value="0" checked', page) and re.search(
        r'name="honour_K" value="1" checked', page
    )
    assert shown_draft(client.get(url + "/hands/new").data.decode())[0] == 3


def test_a_stale_edit_shows_the_saved_hand_and_what_was_not_saved(client, app):
    url = new_session(client)
    version = version_of(client, url)
    assert client.post(url + "/hands", data=hand_fields(SEED_HAND, version)).status_code == 303
    version = version_of(client, url)
    other = app.test_client()
    assert (
        other.post(url + "/hands/1", data=hand_fields({**SEED_HAND, "tricks": [6, 3, 3]}, version)).status_code == 303
    )
    response = client.post(
        url + "/hands/1", data=hand_fields({**SEED_HAND, "honours": {**SEED_HAND["honours"], "Q": 1}}, version)
    )
    assert response.status_code == 409
    page = response.data.decode()
    assert "here is the hand as it is saved now" in page
    assert (
        "Your answers, not saved: honours played: Tib Ann, King Ben, Queen Ben, Tom Ann (saved: honours "
        "played: Tib Ann, King Ben, Queen Cat, Tom Ann). Make your change again."
    ) in page
    assert re.search(r'name="tricks_0" value="6" checked', page)  # the other phone's edit, shown
    assert export(client, url)["hands"] == [{**SEED_HAND, "tricks": [6, 3, 3]}]


def test_quiet_hand_fills_only_what_is_not_answered_yet(client):
    url = new_session(client)
    fields = partial(SEED_HAND, "dealer", "trump", "turned")
    fields["tiddy"] = "2"
    fields["preset"] = "quiet"
    page = post_tap(client, url, fields, 0, headers={}).data.decode()
    assert re.search(r'name="tiddy" value="2" checked', page)  # Cat holds Tiddy: kept
    assert re.search(r'name="ruff_winner" value="nobody" checked', page)
    assert re.search(r'name="sets" value="none" checked', page)


def test_the_hand_in_progress_moves_with_the_deal_when_a_hand_is_deleted(client):
    url = new_session(client)
    assert client.post(url + "/hands", data=hand_fields(SEED_HAND, version_of(client, url))).status_code == 303
    post_tap(client, url, MultiDict({"dealer": "1", "trump": "spades"}), 0)  # hand 2: Ben deals
    client.post(url + "/hands/1/delete", data={"version": str(version_of(client, url))})
    page = client.get(url + "/hands/new").data.decode()
    assert "<h1>Hand 1</h1>" in page
    assert re.search(r'name="dealer" value="0" checked', page)  # Ann deals hand 1 again
    assert re.search(r'name="trump" value="spades" checked', page)


def test_watchers_see_what_is_recorded_so_far(client):
    url = new_session(client)
    post_tap(client, url, partial(SEED_HAND, "dealer", "trump", "turned"), 0)
    page = client.get(url).data.decode()
    assert "Ann dealt · ♥ Hearts · 9 up" in page
    assert "No hands yet" not in page


def test_watchers_follow_the_calls_as_they_are_spoken(client):
    """While the bidding and the vying go on, the watch link shows the calls and
    whose turn it is; once a phase is settled, its lines alone (not twice)."""
    url = new_session(client)
    start = partial(SEED_HAND, "dealer", "trump", "turned", "tiddy")
    post_tap(client, url, {**start, "bids": "", "bid": "[1, 12]"}, 0)
    post_tap(client, url, {**start, "bids": "[[1, 12]]", "bid": "[2, 14]"}, 1)
    post_tap(client, url, {**start, "bids": "[[1, 12], [2, 14]]", "ruff_calls": "", "ruff_call": '[1, "open"]'}, 2)
    watch = re.search(r'href="[^"]*(/w/[^"]+)"', client.get(url).data.decode()).group(1)
    shown = client.get(watch).data.decode()
    card = " ".join(re.sub(r"<[^>]+>", " ", shown[shown.index('id="in-progress"') :].split("</div>")[0]).split())
    assert "Stock: Ben bids 12 · Cat 14 — Ann to bid" in card
    assert "Ruff: Ben opens 2 — Cat to speak, stake 2" in card
    assert "Now:" not in card and "Tap" not in card  # no instructions for the scorer
    opened = {"ruff_calls": '[[1, "open"]]'}
    post_tap(client, url, {**start, **opened, "bids": "[[1, 12], [2, 14]]", "bid": '[0, "pass"]'}, 3)
    post_tap(client, url, {**start, **opened, "bids": '[[1, 12], [2, 14], [0, "pass"]]', "bid": '[1, "pass"]'}, 4)
    shown = client.get(watch).data.decode()
    card = " ".join(re.sub(r"<[^>]+>", " ", shown[shown.index('id="in-progress"') :].split("</div>")[0]).split())
    assert "Stock: Ben bids 12 · Cat 14 · Ann passes · Ben passes. Cat bought at 14, pays 7 to each." in card
    assert card.count("Ben bids 12") == 1, card  # not told again in the recorded line
    assert "Ruff: Ben opens 2 — Cat to speak, stake 2" in card


def test_calls_tapped_on_two_phones_a_version_apart_are_both_kept(client, app):
    """Phone A follows the stock, phone B (not refreshed) the ruff: both calls go in.
    The same call tapped on both phones goes in once; an undo on calls that moved
    meanwhile is not guessed at."""
    url = new_session(client)
    post_tap(client, url, partial(SEED_HAND, "dealer", "trump", "turned", "tiddy"), 0)  # version 1, both see it
    other = app.test_client()
    assert (
        post_tap(
            other, url, {**partial(SEED_HAND, "dealer", "trump", "turned", "tiddy"), "bids": "", "bid": "[1, 12]"}, 1
        ).status_code
        == 200
    )  # A: Ben bids 12 (version 2)
    response = post_tap(
        client,
        url,
        {**partial(SEED_HAND, "dealer", "trump", "turned", "tiddy"), "ruff_calls": "", "ruff_call": '[1, "check"]'},
        1,
    )  # B, still at version 1: Ben checks
    assert response.status_code == 200
    page = response.data.decode()
    assert "Another phone added answers to this hand meanwhile: they are in, with yours." in page
    assert "Ben bids 12" in page and "Ben checks" in page
    assert re.search(r'name="bids" value="\[\[1, 12\]\]"', page)
    assert re.search(r'name="ruff_calls" value="\[\[1, &#34;check&#34;\]\]"', page)
    assert shown_draft(client.get(url + "/hands/new").data.decode())[0] == 3

    # the same bid again from a phone that missed it: not taken twice, and no conflict either
    again = post_tap(
        other, url, {**partial(SEED_HAND, "dealer", "trump", "turned", "tiddy"), "bids": "", "bid": "[1, 12]"}, 1
    )
    assert again.status_code == 200
    assert "The other phone had already recorded that call: here is the hand as it is now." in again.data.decode()
    assert re.search(r'name="bids" value="\[\[1, 12\]\]"', again.data.decode())
    # a different call for the same player where the other phone has one: a real conflict
    clash = post_tap(
        other, url, {**partial(SEED_HAND, "dealer", "trump", "turned", "tiddy"), "bids": "", "bid": '[1, "pass"]'}, 1
    )
    assert clash.status_code == 409 and "Another phone changed this hand a moment ago" in clash.data.decode()
    # an undo on bids that moved meanwhile: refused, the hand as it is now shown
    undo = post_tap(
        other, url, {**partial(SEED_HAND, "dealer", "trump", "turned", "tiddy"), "bids": "", "bid": "undo"}, 1
    )
    assert undo.status_code == 409
    page = client.get(url + "/hands/new").data.decode()
    assert shown_draft(page)[0] == 3 and "Ben bids 12" in page and "Ben checks" in page


def test_a_typed_bid_is_taken(client):
    """Modern: a jump bid (13 → 20), beyond the chips, typed in the pad's box."""
    url = new_session(client, rulebook="modern")
    start = {"dealer": "0", "trump": "hearts", "tiddy": "nobody"}  # (modern turns no card up)
    response = post_tap(client, url, {**start, "bids": "", "bid": "more", "bid_amount": "20"}, 0)
    assert response.status_code == 200
    page = client.get(url + "/hands/new").data.decode()
    assert re.search(r'name="bids" value="\[\[1, 20\]\]"', page), re.findall(r'name="bids"[^>]*>', page)
    assert re.search(r"<p class=\"calls-line\">Ben bids 20<", page)


def test_a_preset_is_not_offered_over_calls_being_followed_or_answers_given(client):
    url = new_session(client)
    start = partial(SEED_HAND, "dealer", "trump", "turned")
    post_tap(client, url, start, 0)
    page = client.get(url + "/hands/new").data.decode()
    assert "Ben (eldest) bought at 12" in page and "Quiet hand" in page
    post_tap(client, url, {**start, "bids": "", "bid": "[1, 12]", "ruff_calls": "", "ruff_call": '[1, "open"]'}, 1)
    page = client.get(url + "/hands/new").data.decode()
    assert "Ben (eldest) bought at 12" not in page  # it would wipe the bids
    assert "Quiet hand" not in page  # it would wipe the ruff's calls
    post_tap(
        client,
        url,
        {**partial(SEED_HAND, "dealer", "trump", "turned", "tiddy", "buyer", "price", "ruff", "paid", "sets", "set")},
        2,
    )
    page = client.get(url + "/hands/new").data.decode()
    assert "Ben (eldest) bought at 12" not in page and "Quiet hand" not in page  # all answered already


def pieces(html: str, kind: str) -> dict[str, str]:
    """Each ``<div id="<kind>-<section>">…</div>`` of a page or a tap's answer,
    by section, as written (the out-of-band mark taken off)."""
    found = {}
    for match in re.finditer(rf'<div class="[^"]*" id="{kind}-([a-z_]+)"', html):
        depth, at = 0, match.start()
        for tag in re.finditer(r"<div\b|</div>", html[at:]):
            depth += 1 if tag.group() == "<div" else -1
            if depth == 0:
                found[match.group(1)] = html[at : at + tag.end()].replace(' hx-swap-oob="true"', "")
                break
    return found


def test_a_tap_answers_with_the_statuses_that_changed_and_the_page_ends_up_as_fresh(client):
    """Each section's status is sent when what it shows changed (the page keeps
    its hash, sig_status-<section>): after every tap, the page with the answer's
    pieces swapped in shows exactly what a fresh form page shows."""
    url = new_session(client)
    page = client.get(url + "/hands/new").data.decode()
    statuses, fields = pieces(page, "status"), pieces(page, "fields")
    draft_version, sent, left_out = 0, 0, 0
    answers = MultiDict()
    for key, value in hand_fields(SEED_HAND).items(multi=True):
        answers.add(key, value)
        held = "".join(statuses.values()) + "".join(fields.values())
        data = MultiDict(answers)
        for name, hashed in re.findall(r'name="(sig_[a-z_-]+)" value="([0-9a-f]+)"', held):
            data[name] = hashed
        response = post_tap(client, url, data, draft_version)
        assert response.status_code == 200
        answer = response.data.decode()
        draft_version = shown_draft(answer)[0]
        now = pieces(answer, "status")
        sent, left_out = sent + len(now), left_out + len(statuses) - len(now)
        statuses.update(now)
        fields.update(pieces(answer, "fields"))
        fresh = client.get(url + "/hands/new").data.decode()
        assert statuses == pieces(fresh, "status"), key
    assert sent and left_out > sent  # most statuses are not sent again


def test_your_sessions_says_which_hand_is_in_progress(client):
    url = new_session(client, title="Friday")
    assert "in progress" not in client.get("/").data.decode()
    post_tap(client, url, partial(SEED_HAND, "dealer", "trump"), 0)
    home = client.get("/").data.decode()
    assert re.search(r"0 hands · <span class=\"in-progress\">hand 1 in progress</span>", home)
    version, token = shown_draft(client.get(url + "/hands/new").data.decode())
    fields = hand_fields(SEED_HAND)
    fields.update({"draft": token, "draft_version": str(version)})
    assert post_change(client, url, "/hands", fields).status_code in (200, 303)  # saved: no longer in progress
    home = client.get("/").data.decode()
    assert "1 hand" in home and "in progress" not in home


def test_a_showdown_of_all_three_names_them_in_plain_words(client):
    """Wits 1671: all three pass, so all three show; the pad waits for cards or a winner."""
    url = new_session(client, rulebook="wits1671")
    start = {"dealer": "0", "trump": "hearts", "turned_up": "9", "tiddy": "nobody"}
    page = post_tap(
        client, url, {**start, "ruff_calls": json.dumps([[1, "pass"], [2, "pass"]]), "ruff_call": '[0, "pass"]'}, 0
    ).data.decode()
    assert "Showdown: Ben, Cat and Ann show." in page
    assert '<p class="calls-line">Ben passes · Cat passes · Ann passes</p>' in page  # none owes by passing
    assert "or four Aces — or tap the winner." in page or "— or tap the winner." in page
    # the watchers see the showdown waiting, with who shows
    watch = re.search(r'href="[^"]*(/w/[^"]+)"', client.get(url).data.decode()).group(1)
    watched = client.get(watch).data.decode()
    assert "Ben, Cat and Ann show" in watched, watched[watched.find("in progress") :][:800]


def test_each_preset_says_what_it_answers_for_a_phone_with_no_connection(client):
    """The phone takes a preset tapped offline from its button (js/presets.js):
    each question's fields as the server would fill them in."""
    url = new_session(client)
    page = client.get(url + "/hands/new").get_data(as_text=True)
    fills = {
        value: json.loads(html.unescape(said))
        for value, said in re.findall(r'name="preset" value="([^"]+)"[^>]* data-fills="([^"]*)"', page)
    }
    assert fills == {
        "quiet": {
            "every": False,
            "questions": [
                {"tiddy": "nobody"},
                {"ruff_winner": "nobody", "ruff_calls": ""},
                {"sets": "none", "set_0": [], "set_1": [], "set_2": []},
            ],
        },
        "eldest-opening": {"every": True, "questions": [{"buyer": "1", "price": "12", "price_other": "", "bids": ""}]},
    }
