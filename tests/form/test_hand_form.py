"""The hand form's answers and messages, through real HTTP to the app (each
question's words, what a choice fixes, nothing silently dropped)."""

from __future__ import annotations

import re

from support.web import new_session, tap


def test_a_gleek_and_a_mournival_of_one_rank_are_never_silently_dropped(client):
    url = new_session(client)
    page = tap(
        client,
        url,
        {"dealer": "0", "trump": "spades", "turned_up": "9", "sets": "some", "set_0": ["gleek:A", "mournival:A"]},
    ).data.decode()
    assert "Ann declares two sets of Aces" in page
    assert re.search(r'name="set_0" value="gleek:A" checked', page)
    assert re.search(r'name="set_0" value="mournival:A" checked', page)


def test_kiss_then_a_suit_again_keeps_tib_tom_and_tiddy(client):
    url = new_session(client, rulebook="modern")
    answers = {"dealer": "0", "buyer": "1", "price": "13", "tiddy": "2", "tib": "0", "tom": "1"}
    page = tap(client, url, {**answers, "trump": "none"}).data.decode()
    assert "Kiss: no trumps, so no Tib or Tom." in page
    assert 'name="tib" value="0"' in page and 'name="tiddy" value="2"' in page  # kept in the page
    page = tap(client, url, {**answers, "trump": "hearts"}).data.decode()
    assert re.search(r'name="tib" value="0" checked', page)
    assert re.search(r'name="tom" value="1" checked', page)
    assert re.search(r'name="tiddy" value="2" checked', page)


def test_two_counts_already_over_the_total_are_called_wrong_at_once(client):
    url = new_session(client)
    page = tap(client, url, {"dealer": "0", "tricks_0": "7", "tricks_1": "7"}).data.decode()
    assert "Tricks add up to 14 already: more than 12." in page


def test_problems_use_the_tables_words_not_the_records_keys(client):
    url = new_session(client, rulebook="modern")
    page = tap(
        client,
        url,
        {
            "dealer": "0",
            "tricks_0": "0",
            "tricks_1": "6",
            "tricks_2": "6",
            "card_points_0": "10",
            "card_points_1": "70",
            "card_points_2": "75",
        },
    ).data.decode()
    assert "Card points add up to 155, less than 192 (the captured cards are worth 192 to 252)" in page
    assert "Ann has 10 card points but won no trick" in page
    assert "card_points" not in re.sub(r'name="card_points_\d"|id="card_points_\d"', "", page)


def test_each_book_asks_about_tiddy_in_its_own_words(client):
    asked = {}
    for book in ("parlett", "wits1671", "modern"):
        url = new_session(client, rulebook=book)
        asked[book] = client.get(url + "/hands/new").data.decode()
    assert "Who holds it in the play?" in asked["parlett"]
    assert "Who holds it after the stock exchange?" in asked["wits1671"]
    assert "Who holds it in the play?" not in asked["wits1671"]
    assert "Who was dealt it?" in asked["modern"]


def test_prices_no_bidding_reaches_are_not_offered(client):
    url = new_session(client)  # Ann deals: Ben is eldest, Cat middle
    eldest = tap(client, url, {"dealer": "0", "buyer": "1"}).data.decode()
    assert re.findall(r'name="price" value="(\d+)"', eldest)[:4] == ["12", "16", "18", "20"]
    middle = tap(client, url, {"dealer": "0", "buyer": "2"}).data.decode()
    assert re.findall(r'name="price" value="(\d+)"', middle)[:4] == ["14", "18", "20", "22"]
    dealer = tap(client, url, {"dealer": "0", "buyer": "0"}).data.decode()
    assert re.findall(r'name="price" value="(\d+)"', dealer)[:3] == ["14", "16", "18"]


def test_wits1671_a_vie_says_what_each_owes_and_an_impossible_showing_is_all_that_is_said(client):
    """The pad says what passing costs: after Ann vies 4, passing now costs Ben and Cat the 2 they
    had in, seeing 4 (not "Ben risks 4"); at the showdown, four Aces for Ann and an
    Ace for Ben cannot both be: that alone is said, with no winner and no payments."""
    url = new_session(client, rulebook="wits1671")
    start = {"dealer": "2", "trump": "hearts", "turned_up": "9", "tiddy": "nobody", "buyer": "0", "price": "13"}
    page = tap(client, url, {**start, "ruff_calls": "", "ruff_call": '[0, "vie"]'}).data.decode()
    assert '<p class="owes">Ann risks 4 · Ben: pass now 2, see 4 · Cat: pass now 2, see 4</p>' in page
    calls = {**start, "ruff_calls": '[[0, "vie"], [1, "see"], [2, "pass"]]'}

    def ruff_part(page):
        status = re.search(r'id="status-ruff".*?(?=<div class="step-status|</form>|$)', page, re.S).group(0)
        return status, page[page.index('id="pad-ruff"') :]

    page = tap(client, url, {**calls, "shown_0": "aces", "shown_1": ["A", "K", "Q"]}).data.decode()
    status, pad = ruff_part(page)
    assert "Showdown: Ann shows four Aces, so Ben cannot show an Ace." in status
    assert "phase-result" not in status and "Winner by the cards" not in pad and 'name="ruff_winner"' not in pad
    page = tap(client, url, {**calls, "shown_0": "aces", "shown_1": ["aces"]}).data.decode()
    assert "Showdown: Ann and Ben both show four Aces, but there are only four Aces." in page
    assert "Winner by the cards" not in page
    # one card tapped for Ann is no best suit yet: no winner named while the cards are tapped
    page = tap(client, url, {**calls, "shown_0": ["A"], "shown_1": ["K", "Q", "J"]}).data.decode()
    status, pad = ruff_part(page)
    assert "Winner by the cards" not in pad and "phase-result" not in status
    page = tap(client, url, {**calls, "shown_0": ["A", "K", "Q"], "shown_1": ["K", "Q", "J"]}).data.decode()
    status, pad = ruff_part(page)
    assert "Winner by the cards: <strong>Ann</strong>" in pad and "phase-result" in status
