"""A settled evening in a real browser at 390 × 844: an evening of a circle is
settled at the table from What is owed while the scorer's table page is still
open; the scorer taps Next hand there and is asked first (nothing changes if he
leaves it settled); the table then says it is settled and offers to reopen it on
purpose; reopened, a third hand is saved and What is owed shows the exact
difference, and the circle calls the evening open. Settled again while the
next hand is being entered, its Save asks in the form, every answer kept."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from support.data import load_example

from .browser_ui import UI, assert_fits
from .test_accessibility import axe_violations
from .test_circle import start_evening

HANDS = load_example("parlett-evening.json")["hands"]  # Ann, Ben, Cat: +20 +2 −22, +32 +1 −33, −9 0 +9
QUESTION = (
    "This evening is settled: payments were marked. Change it anyway? It will be reopened and the "
    "difference shown under What is owed."
)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "bypass_csp": True}  # the app's CSP forbids axe's own script


def test_next_hand_on_a_settled_evening_asks_first_then_owes_the_difference(page, base_url):
    ui = UI(page)
    page.goto(base_url + "/")
    page.locator('input[name="circle_name"]').fill("Friday Gleek")
    page.locator('textarea[name="circle_members"]').fill("Ann\nBen\nCat")
    page.get_by_role("button", name="Make the circle").click()
    page.wait_for_url(re.compile(r"/c/[^/?]+$"))
    circle = page.url
    start_evening(page, ("Ann", "Ben", "Cat"), "2026-11-14")
    table = page.url
    for hand in HANDS[:2]:
        ui.next_hand()
        ui.enter_hand("parlett", hand, ("Ann", "Ben", "Cat"))
        ui.ready()
        ui.save()
    expect(page.locator(".balance .amount")).to_have_text(["+52", "+3", "−55"])

    # on another phone, the evening is settled at the table: its payments marked
    other = page.context.new_page()
    other.goto(circle + "/owed")
    other.locator(".open-evenings li").first.get_by_role("button", name="Settled at the table").click()
    expect(other.locator("#owed")).to_contain_text("Nothing is owed: every evening is settled.")

    # the scorer's page still offers Next hand: tapped, it asks first
    ui.tap(page.get_by_role("link", name="Next hand"))
    expect(page.locator("h1")).to_have_text("This evening is settled")
    expect(page.locator(".settled-ask")).to_contain_text(QUESTION)
    expect(page.locator("#hand-form")).to_have_count(0)
    assert_fits(page)
    assert axe_violations(page) == []
    page.get_by_role("link", name="Leave it settled").click()
    page.wait_for_url(table)
    expect(page.locator("#settled-note")).to_contain_text("This evening is settled: its payments were marked.")
    expect(page.get_by_role("link", name="Next hand")).to_have_count(0)
    expect(page.locator(".undo-bar")).to_have_count(0)
    assert axe_violations(page) == []
    other.goto(circle)
    expect(other.locator("#evenings .meta")).to_have_text([re.compile("settled$")])

    # reopened on purpose: a third hand, and What is owed is the difference
    page.get_by_role("link", name="Reopen to change it").click()
    expect(page.locator(".settled-ask")).to_contain_text(QUESTION)
    page.get_by_role("button", name="Reopen the evening").click()
    page.wait_for_url(re.compile(r"/hands/new$"))
    expect(page.locator(".flash")).to_contain_text("The evening is reopened")
    ui.enter_hand("parlett", HANDS[2], ("Ann", "Ben", "Cat"))
    ui.ready()
    ui.save()
    expect(page.locator(".balance .amount")).to_have_text(["+43", "+3", "−46"])
    expect(page.get_by_role("link", name="Next hand")).to_be_visible()

    other.goto(circle + "/owed")
    expect(other.locator(".debt")).to_have_text(["Ann pays Cat 9d, for 14 Nov"])
    expect(other.locator(".payments li")).to_have_count(2)
    other.goto(circle)
    expect(other.locator("#evenings .meta")).to_have_text([re.compile("open$")])

    # a hand being entered while another phone settles the evening again: Save asks, and nothing typed is lost
    ui.next_hand()
    other.goto(circle + "/owed")
    other.locator(".open-evenings li").first.get_by_role("button", name="Settled at the table").click()
    expect(other.locator("#owed")).to_contain_text("Nothing is owed: every evening is settled.")
    ui.enter_hand("parlett", HANDS[0], ("Ann", "Ben", "Cat"))
    ui.ready()
    ui.tap(ui.button("Save hand"))
    expect(page.locator("#settled-ask")).to_contain_text("Nothing was saved. " + QUESTION)
    expect(page).to_have_url(re.compile(r"/hands/new$"))
    ui.ready()  # every answer still there
    ui.tap(ui.button("Save and reopen the evening"))
    page.wait_for_url(table)
    expect(page.locator(".balance .amount")).to_have_text(["+63", "+5", "−68"])
    other.goto(circle + "/owed")
    expect(other.locator(".debt")).to_have_text(["Cat pays Ann 1s 8d, for 14 Nov", "Cat pays Ben 2d, for 14 Nov"])
