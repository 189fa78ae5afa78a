"""A hand entered and saved with no connection, the browser then closed before
the connection came back: the phone's copy (localStorage) holds every answer —
a preset's too — and the Save, and the next page of the app opened with a
connection sends it: the server holds that hand, exactly once.

The network is really cut (tests/support/cut.py: the TCP proxy closed, and
set_offline as well); the phone is a persistent Chromium context, closed and
launched again on the same profile, as a phone's browser quit and reopened."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .browser_ui import FORM, UI, expected
from .test_hand_kept import PLAYERS
from .test_offline import phone, worker_ready
from .test_offline_next import cut, exported, link, served, tap  # noqa: F401 (fixtures)

# Ann deals, 7♣ turned up; the quiet hand and Ben's stock at 12 by the quick buttons.
QUIET = {
    "dealer": 0,
    "trump": "clubs",
    "turned_up": "7",
    "tiddy": None,
    "auction": {"buyer": 1, "price": 12},
    "ruff": None,
    "sets": [[], [], []],
    "tricks": [5, 4, 3],
    "honours": {"A": 0, "K": 1, "Q": 2, "J": 0},
}
KEPT_NEXT = (
    "async () => (await (await (await caches.open('gleek-pages')).match(location.href + '/hands/new'))"
    "?.text() || '').includes('<h1>Hand 1</h1>')"
)


def table_with_next_hand_kept(context, link) -> tuple:
    """A new parlett table opened on the phone, its worker keeping the page Next hand
    opens: ``(page, the table's url)``."""
    page = context.pages[0] if context.pages else context.new_page()
    table = UI(page).start_session(link.url, PLAYERS, "parlett")
    worker_ready(page)
    page.reload()
    for _ in range(100):
        if page.evaluate(KEPT_NEXT):
            break
        page.wait_for_timeout(100)
    return page, table


def next_hand(page) -> None:
    page.get_by_role("link", name="Next hand").click()
    page.wait_for_url("**/hands/new")


def quiet_hand(page) -> None:
    """7 of Clubs, the quick buttons (their answers taken on the phone), tricks, honours."""
    page.locator(FORM).get_by_role("button", name="7 of Clubs").click()
    page.locator(FORM).get_by_role("button", name="Quiet hand: no Tiddy, no ruff contest, no sets").click()
    page.locator(FORM).get_by_role("button", name="Ben (eldest) bought at 12").click()
    for name, value in (
        ("tricks_0", 5),
        ("tricks_1", 4),
        ("honour_A", 0),
        ("honour_K", 1),
        ("honour_Q", 2),
        ("honour_J", 0),
    ):
        tap(page, name, value)


def test_a_hand_saved_offline_is_saved_once_after_the_browser_is_closed_and_opened_again(
    playwright, served, link, tmp_path
):
    direct, _ = served
    profile = tmp_path / "profile"
    context = phone(playwright, profile)
    try:
        page, table = table_with_next_hand_kept(context, link)
        cut(context, link)
        next_hand(page)
        expect(page.locator("#offline-copy")).to_be_visible()
        quiet_hand(page)
        # the presets' answers are on the phone, not only their taps
        for name, value in (
            ("tiddy", "nobody"),
            ("ruff_winner", "nobody"),
            ("sets", "none"),
            ("buyer", "1"),
            ("price", "12"),
        ):
            expect(page.locator(f'{FORM} input[name="{name}"][value="{value}"]')).to_be_checked()
        page.locator(FORM).get_by_role("button", name="Save hand").click()
        expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
        assert exported(direct, table)["hands"] == []
    finally:
        context.close()  # the browser quits with the connection still cut

    link.restore()  # the connection is back; the browser opened again on the same profile
    context = phone(playwright, profile)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(table)
        UI(page).expect_balances(expected("parlett", PLAYERS, [QUIET]))
        assert exported(direct, table)["hands"] == [QUIET]  # that hand, with the presets' answers
        page.reload()  # opened again: not sent twice
        UI(page).expect_balances(expected("parlett", PLAYERS, [QUIET]))
        page.get_by_role("link", name="Next hand").click()
        page.wait_for_url("**/hands/new")
        expect(page.locator(f"{FORM} h1")).to_have_text("Hand 2")
        expect(page.locator("#use-mine")).to_have_count(0)  # nothing left over on the phone
        assert exported(direct, table)["hands"] == [QUIET]
    finally:
        context.close()


def test_a_hand_saved_offline_that_the_server_refuses_after_the_relaunch_stays_on_the_phone(
    playwright, browser, served, link, tmp_path
):
    """Another phone saves hand 1 while this one, closed, holds its own hand 1:
    opened again, the server refuses this phone's Save (409); the phone keeps its
    copy, says so on the table page and offers it on the hand form."""
    direct, _ = served
    profile = tmp_path / "profile"
    context = phone(playwright, profile)
    try:
        page, table = table_with_next_hand_kept(context, link)
        cut(context, link)
        next_hand(page)
        quiet_hand(page)
        page.locator(FORM).get_by_role("button", name="Save hand").click()
        expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
    finally:
        context.close()

    theirs = {**QUIET, "trump": "hearts", "turned_up": "9"}
    other = browser.new_context()  # the other phone, on the server directly, saves hand 1 meanwhile
    try:
        b = other.new_page()
        b.goto(direct + re.sub(r"^https?://[^/]+", "", table))
        ui_b = UI(b)
        ui_b.next_hand()
        ui_b.enter_hand("parlett", theirs, PLAYERS)
        ui_b.save()
    finally:
        other.close()

    link.restore()
    context = phone(playwright, profile)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(table)
        said = page.locator(".kept-hand")
        expect(said).to_contain_text(
            "Hand 1 was entered on this phone with no connection, and the server did not "
            "take it as it was: open it to choose what to keep.",
            timeout=20_000,
        )
        assert exported(direct, table)["hands"] == [theirs]  # the other phone's; this one's not saved over it
        said.get_by_role("link", name="Open hand 1").click()
        page.wait_for_url("**/hands/new")
        expect(page.locator("#use-mine")).to_contain_text(
            "This phone has answers for hand 1 that are not in the hand shown."
        )
        held = page.evaluate(
            "JSON.parse(localStorage.getItem(Object.keys(localStorage).find(k => k.endsWith(':next'))))"
        )
        assert dict(held["held"]["answers"])["tiddy"] == "nobody"  # the preset's answers kept with it
        assert exported(direct, table)["hands"] == [theirs]
    finally:
        context.close()
