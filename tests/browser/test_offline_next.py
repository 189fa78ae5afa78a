"""Offline from the first tap of a hand: the table page open, the connection
gone, "Next hand" opens the next hand (its number, its dealer, its call pads),
drawn by the server beforehand; a whole hand tapped and saved there is saved
once when the connection is back; and when the server refuses what the phone
queued, the phone keeps its copy and offers it, nothing lost.

The network is really cut: a TCP proxy between the browser and the server
(tests/support/cut.py) is closed, and set_offline(True) as well (Chromium's
set_offline alone does not stop the service worker's own fetches). Real
Chromium, a persistent context (a service worker, as on a phone over https)."""

from __future__ import annotations

import json
import re
from urllib.request import urlopen

import pytest
from playwright.sync_api import expect

from support.cut import served_through_a_link

from .browser_ui import FORM, UI, expected
from .conftest import PHONE
from .test_hand_kept import HAND, PLAYERS
from .test_offline import phone, worker_ready

# Hand 2: Ben deals, so Cat is eldest; a quiet hand, Cat buys the stock at 12.
HAND_2 = {
    "dealer": 1,
    "trump": "spades",
    "turned_up": "9",
    "tiddy": None,
    "auction": {"buyer": 2, "price": 12},
    "ruff": None,
    "sets": [[], [], []],
    "tricks": [3, 4, 5],
    "honours": {"A": 2, "K": 0, "Q": 1, "J": 2},
}
THEIRS = {**HAND_2, "trump": "hearts"}  # hand 2 as the other phone saves it
QUIET_TAPS = [
    ("trump", "spades"),
    ("turned_up", "9"),
    ("tiddy", "nobody"),
    ("buyer", 2),
    ("price", 12),
    ("ruff_winner", "nobody"),
    ("sets", "none"),
    ("tricks_0", 3),
    ("tricks_1", 4),
    ("honour_A", 2),
    ("honour_K", 0),
    ("honour_Q", 1),
    ("honour_J", 2),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(the server's own URL, the URL through the link that can be cut, the link)."""
    with served_through_a_link(tmp_path_factory.mktemp("offline-next"), "offline-next-tests") as served:
        yield served


@pytest.fixture
def link(served):
    _, link = served
    yield link
    if link.is_cut:
        link.restore()


def exported(direct: str, table: str) -> dict:
    """The session as the server has it (asked directly, not through the link)."""
    path = re.sub(r"^https?://[^/]+", "", table)
    with urlopen(direct + path + "/export.json", timeout=10) as response:
        return json.loads(response.read())


def cut(context, link) -> None:
    link.cut()
    context.set_offline(True)


def back(context, link) -> None:
    link.restore()
    context.set_offline(False)


def tap(page, name, value) -> None:
    page.locator(f'{FORM} label.chip:has(input[name="{name}"][value="{value}"])').click()


def first_hand_saved_then_next_hand_offline(page, context, link) -> str:
    """Hand 1 entered and saved online; on the table page the connection goes; Next hand."""
    ui = UI(page)
    table = ui.start_session(link.url, PLAYERS, "parlett")
    worker_ready(page)
    ui.next_hand()
    ui.enter_hand("parlett", HAND, PLAYERS)
    ui.save()
    expect(page.get_by_role("link", name="Next hand")).to_be_visible()
    # the worker has fetched and kept the page Next hand opens (asked by the table page once loaded)
    kept_next = (
        "async () => (await (await (await caches.open('gleek-pages')).match(location.href + '/hands/new'))"
        "?.text() || '').includes('<h1>Hand 2</h1>')"
    )
    for _ in range(100):  # (wait_for_function's polling evaluates strings, which the app's CSP refuses)
        if page.evaluate(kept_next):
            break
        page.wait_for_timeout(100)
    assert page.evaluate(kept_next)
    cut(context, link)
    page.get_by_role("link", name="Next hand").click()
    page.wait_for_url("**/hands/new")
    return table


def test_next_hand_offline_is_the_next_hand_and_is_saved_once_when_back(playwright, served, link, tmp_path):
    direct, _ = served
    context = phone(playwright, tmp_path / "profile")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        table = first_hand_saved_then_next_hand_offline(page, context, link)
        # the next hand, drawn by the server before the connection went: hand 2, Ben deals, Cat (eldest) bids first
        expect(page.locator(f"{FORM} h1")).to_have_text("Hand 2")
        expect(page.locator(f'{FORM} input[name="dealer"][value="1"]')).to_be_checked()
        expect(page.locator(f"{FORM} #pad-auction .turn")).to_contain_text("Cat")
        expect(page.locator(f"{FORM} input:checked:not([name=dealer])")).to_have_count(0)  # nothing of hand 1
        save = page.locator(FORM).get_by_role("button", name="Save hand")
        expect(save).to_be_enabled()
        busy = page.locator("#busy")  # the "saving…" badge, shown while a request is on its way
        expect(busy).not_to_have_class(re.compile(r"\bhtmx-request\b"))
        for name, value in QUIET_TAPS:
            tap(page, name, value)
        expect(page.locator(f'{FORM} input[name="tricks_2"][value="5"]')).to_be_checked()
        save.click()
        expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
        expect(busy).not_to_have_class(re.compile(r"\bhtmx-request\b"))
        assert exported(direct, table)["hands"] == [HAND]  # nothing reached the server
        back(context, link)
        page.wait_for_url(re.compile(r"/s/[^/?]+$"), timeout=20_000)  # sent, checked, saved: no further tap
        UI(page).expect_balances(expected("parlett", PLAYERS, [HAND, HAND_2]))
        assert exported(direct, table)["hands"] == [HAND, HAND_2]  # once, with exactly those answers
    finally:
        context.close()


def test_a_queued_hand_the_server_refuses_stays_on_the_phone_to_be_resolved(
    playwright, browser, served, link, tmp_path
):
    """Another phone saves hand 2 while this one enters it offline: back online the
    server refuses what this phone queued (409); the phone keeps its copy, says so
    beside the hand shown, still after a reload, and puts it into hand 3 on a tap."""
    direct, _ = served
    context = phone(playwright, tmp_path / "profile")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        table = first_hand_saved_then_next_hand_offline(page, context, link)
        expect(page.locator(f"{FORM} h1")).to_have_text("Hand 2")
        for name, value in QUIET_TAPS:
            tap(page, name, value)
        page.locator(FORM).get_by_role("button", name="Save hand").click()
        expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
        other = browser.new_context()  # the other phone, on the server directly, saves hand 2 meanwhile
        try:
            b = other.new_page()
            b.goto(direct + re.sub(r"^https?://[^/]+", "", table))
            ui_b = UI(b)
            ui_b.next_hand()
            ui_b.enter_hand("parlett", THEIRS, PLAYERS)
            ui_b.save()
        finally:
            other.close()
        back(context, link)
        box = page.locator('#conflict[data-conflict="saved"]')
        expect(box).to_be_visible(timeout=20_000)
        expect(page.locator("#hand-summary")).to_contain_text("Hand 2 was saved on another phone a moment ago.")
        expect(box.locator(".phone-copy")).to_have_text(
            "This phone's hand 2: Ben dealt · ♠ Spades · 9 up · Tiddy: nobody · Cat bought at 12 · ruff: no contest · "
            "no sets · tricks 3 · 4 · 5 · honours played: Tib Cat, King Ann, Queen Ben, Tom Cat"
        )
        expect(page.locator(f"{FORM} h1")).to_have_text("Hand 3")
        saved = exported(direct, table)["hands"]
        assert saved == [HAND, THEIRS]  # the other phone's hand 2; this one's not saved over it
        held = page.evaluate(
            "JSON.parse(localStorage.getItem(Object.keys(localStorage).find(k => k.endsWith(':next'))))"
        )
        assert dict(held["held"]["answers"])["trump"] == "spades"  # the phone's copy, kept
        # a reload: the server's box is gone, the phone still offers its copy
        page.reload()
        mine = page.locator("#use-mine")
        expect(mine).to_contain_text("This phone has answers for hand 2 that are not in the hand shown.")
        mine.get_by_role("button", name="Use this phone's answers").click()
        expect(box).to_be_visible()  # the server says what became of hand 2
        box.get_by_role("button", name="Start hand 3 with this phone's answers").click()
        expect(page.locator(f'{FORM} input[name="trump"][value="spades"]')).to_be_checked()
        expect(page.locator(f'{FORM} input[name="dealer"][value="2"]')).to_be_checked()  # hand 3's dealer
        expect(page.locator("#conflict")).to_have_count(0)
        expect(page.locator("#use-mine")).to_have_count(0)
        page.reload()  # chosen: no longer offered
        expect(page.locator(f'{FORM} input[name="honour_A"][value="2"]')).to_be_checked()
        expect(page.locator("#use-mine")).to_have_count(0)
        assert exported(direct, table)["hands"] == saved
    finally:
        context.close()


def test_offline_a_call_pad_drawn_for_another_dealer_takes_no_call(browser, served, link):
    """The dealer changed with no connection: the pads, drawn by the server for the
    dealer before, take no call (whose turn it is moved); back online the server
    draws them for the new dealer."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        ui = UI(page)
        ui.start_session(link.url, PLAYERS, "parlett")
        ui.next_hand()
        ui.chip("trump", "hearts")
        ui.chip("turned_up", "9")
        ui.unfold("dealer")
        cut(context, link)
        tap(page, "dealer", 1)  # Ben deals, not Ann: Cat is eldest
        pad = page.locator(f"{FORM} #pad-auction")
        pad.get_by_role("button", name="Bid 12", exact=True).click()  # drawn for Ann dealing: Ben's bid
        expect(pad.locator(".pad-note")).to_have_text(
            "The dealer changed since these calls were drawn: the next call can be tapped once the connection is "
            "back (the server draws them for the new dealer)."
        )
        expect(pad.locator(".pad-offline")).to_have_count(0)  # no call taken
        assert page.locator(f'{FORM} input[name="bids"]').input_value() == ""
        back(context, link)
        expect(pad.locator(".turn")).to_contain_text("Cat (eldest) to bid", timeout=15_000)
        expect(pad.locator(".calls-line")).to_have_count(0)
    finally:
        context.close()


def test_back_to_the_table_after_a_save_offline_offers_to_continue_that_hand(playwright, served, link, tmp_path):
    """The hand form opened online, the connection gone, the hand tapped in and
    saved, then the phone's Back: the table comes back from the browser's memory
    as it was before (no word of the hand), and its "Next hand" opened that hand
    again, where the next tap, meant for the next hand, changed it and called its
    Save off — back online nothing was saved (the trial). It says "Continue hand
    1", as the table shown from the phone's copy does, and the hand is saved once
    when the connection is back."""
    direct, _ = served
    context = phone(playwright, tmp_path / "profile")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        ui = UI(page)
        table = ui.start_session(link.url, PLAYERS, "parlett", first_dealer=1)  # Ben deals: HAND_2's hand
        worker_ready(page)
        page.get_by_role("link", name="Next hand").click()
        page.wait_for_url("**/hands/new")
        expect(page.locator(f"{FORM} h1")).to_have_text("Hand 1")
        cut(context, link)
        for name, value in QUIET_TAPS:
            tap(page, name, value)
        page.locator(FORM).get_by_role("button", name="Save hand").click()
        expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
        page.go_back()
        page.wait_for_url(re.compile(r"/s/[^/?]+$"))
        expect(page.locator(".thumb-bar a[href$='/hands/new']")).to_have_text("Continue hand 1")
        back(context, link)
        page.wait_for_timeout(500)
        page.goto(table)
        UI(page).expect_balances(expected("parlett", PLAYERS, [HAND_2]))
        assert exported(direct, table)["hands"] == [HAND_2]
    finally:
        context.close()
