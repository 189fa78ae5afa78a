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
QUIET = {"dealer": 0, "trump": "clubs", "turned_up": "7", "tiddy": None,
         "auction": {"buyer": 1, "price": 12}, "ruff": None, "sets": [[], [], []],
         "tricks": [5, 4, 3], "honours": {"A": 0, "K": 1, "Q": 2, "J": 0}}
KEPT_NEXT = ("async () => (await (await (await caches.open('gleek-pages')).match(location.href + '/hands/new'))"
             "?.text() || '').includes('<h1>Hand 1</h1>')")


def test_a_hand_saved_offline_is_saved_once_after_the_browser_is_closed_and_opened_again(
        playwright, served, link, tmp_path):
    direct, _ = served
    profile = tmp_path / "profile"
    context = phone(playwright, profile)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        ui = UI(page)
        table = ui.start_session(link.url, PLAYERS, "parlett")
        worker_ready(page)
        page.reload()
        for _ in range(100):   # the worker keeps the page Next hand opens
            if page.evaluate(KEPT_NEXT):
                break
            page.wait_for_timeout(100)
        cut(context, link)
        page.get_by_role("link", name="Next hand").click()
        page.wait_for_url("**/hands/new")
        expect(page.locator("#offline-copy")).to_be_visible()
        page.locator(FORM).get_by_role("button", name="7 of Clubs").click()
        page.locator(FORM).get_by_role("button", name="Quiet hand: no Tiddy, no ruff contest, no sets").click()
        page.locator(FORM).get_by_role("button", name="Ben (eldest) bought at 12").click()
        for name, value in (("tricks_0", 5), ("tricks_1", 4), ("honour_A", 0), ("honour_K", 1), ("honour_Q", 2),
                            ("honour_J", 0)):
            tap(page, name, value)
        # the presets' answers are on the phone, not only their taps
        for name, value in (("tiddy", "nobody"), ("ruff_winner", "nobody"), ("sets", "none"), ("buyer", "1"),
                            ("price", "12")):
            expect(page.locator(f'{FORM} input[name="{name}"][value="{value}"]')).to_be_checked()
        page.locator(FORM).get_by_role("button", name="Save hand").click()
        expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
        assert exported(direct, table)["hands"] == []
    finally:
        context.close()   # the browser quits with the connection still cut

    link.restore()   # the connection is back; the browser opened again on the same profile
    context = phone(playwright, profile)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(table)
        UI(page).expect_balances(expected("parlett", PLAYERS, [QUIET]))
        assert exported(direct, table)["hands"] == [QUIET]          # that hand, with the presets' answers
        page.reload()                                               # opened again: not sent twice
        UI(page).expect_balances(expected("parlett", PLAYERS, [QUIET]))
        page.get_by_role("link", name="Next hand").click()
        page.wait_for_url("**/hands/new")
        expect(page.locator(f"{FORM} h1")).to_have_text("Hand 2")
        expect(page.locator("#use-mine")).to_have_count(0)          # nothing left over on the phone
        assert exported(direct, table)["hands"] == [QUIET]
    finally:
        context.close()
