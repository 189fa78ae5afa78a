"""With no connection the hand form says so in a banner above the thumb bar, and
marks each section tapped meanwhile "Not checked yet": the banner must not cover
that line. The network is really cut (a TCP proxy closed, tests/support/cut.py,
and set_offline as well); real Chromium at 390×844."""

from __future__ import annotations


import pytest
from playwright.sync_api import expect

from support.cut import served_through_a_link

from .browser_ui import FORM, UI
from .conftest import PHONE

PLAYERS = ("Ann", "Ben", "Cat")


@pytest.fixture
def link(tmp_path):
    """The link through which the phone reaches a server of its own, to be cut."""
    with served_through_a_link(tmp_path, "offline-banner-tests") as (_, link):
        yield link


def tap(page, name, value) -> None:
    page.locator(f'{FORM} label.chip:has(input[name="{name}"][value="{value}"])').click()


def covered(page, line) -> float:
    """How many pixels of ``line`` the connection banner covers (0: none)."""
    return page.evaluate(
        """(line) => {
        const a = line.getBoundingClientRect(), b = document.getElementById('connection').getBoundingClientRect();
        return Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
    }""",
        line.element_handle(),
    )


def test_the_offline_banner_leaves_the_not_checked_yet_line_of_the_last_section_visible(browser, link):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        ui = UI(page)
        ui.start_session(link.url, PLAYERS, "parlett")
        ui.next_hand()
        link.cut()
        context.set_offline(True)
        for name, value in (
            ("trump", "spades"),
            ("turned_up", "9"),
            ("tiddy", "nobody"),
            ("buyer", 1),
            ("price", 12),
            ("ruff_winner", "nobody"),
            ("sets", "none"),
            ("tricks_0", 3),
            ("tricks_1", 4),
            ("honour_A", 2),
            ("honour_K", 0),
            ("honour_Q", 1),
            ("honour_J", 2),
        ):
            tap(page, name, value)
        banner = page.locator("#connection")
        expect(banner).to_contain_text("No connection")
        note = page.locator(f"{FORM} #step-play .unchecked-note")
        expect(note).to_have_text("Not checked yet: checked when the connection is back.")
        expect(page.locator(f"{FORM} #step-play.unchecked")).to_have_count(1)
        page.wait_for_timeout(600)  # the page settled: no answer is on its way
        assert covered(page, note) == 0
        box, bottom = note.bounding_box(), banner.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= bottom["y"]  # both on the screen, the line above
        assert bottom["y"] + bottom["height"] <= page.locator(".thumb-bar").bounding_box()["y"]
        # the last answer tapped is still on the screen above them
        tom = page.locator(f'{FORM} label.chip:has(input[name="honour_J"][value="2"])').bounding_box()
        assert tom["y"] >= 0
    finally:
        context.close()
