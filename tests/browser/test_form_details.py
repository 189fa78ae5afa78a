"""Details of the hand form that only a real browser shows: the Other box and
its chip agree, and typed fields are checked while typing (no need to leave them)."""

import re

import pytest
from playwright.sync_api import expect

from .browser_ui import FORM, UI


def test_other_box_and_chips_never_disagree(page, base_url):
    ui = UI(page)
    ui.start_session(base_url, ("Ann", "Ben", "Cat"), "parlett")
    ui.next_hand()
    ui.chip("buyer", 1)  # Ben is eldest (Ann deals)
    box = page.locator(f'{FORM} input[name="price_other"]')
    box.fill("34")  # typing picks the Other chip at once
    expect(page.locator(f'{FORM} input[name="price"][value="other"]')).to_be_checked()
    # eldest never buys at 14 (after his 12 his next bid is 16): no such chip
    expect(page.locator(f'{FORM} input[name="price"][value="14"]')).to_have_count(0)
    # the typed 34 is checked while typing (no need to leave the box); its answer is in
    # before the next tap, so the tap is not raced by the page moving under it
    expect(page.locator(f"{FORM} #step-stock .phase-result")).to_contain_text("−34", timeout=5000)
    ui.chip("price", 16)  # a number chip empties the box
    expect(page.locator(f'{FORM} input[name="price_other"]')).to_have_value("")
    expect(page.locator(f"{FORM} #step-stock .phase-result")).to_contain_text("−16")


def test_typed_card_points_are_checked_while_typing(page, base_url):
    ui = UI(page)
    ui.start_session(base_url, ("Ann", "Ben", "Cat"), "modern")
    ui.next_hand()
    for seat, tricks in enumerate((5, 4)):
        ui.chip(f"tricks_{seat}", tricks)
    for seat, points in enumerate((90, 70, 40)):
        page.locator(f'{FORM} input[name="card_points_{seat}"]').fill(str(points))
    # no blur: the debounced check still runs, and the typed values survive the swap
    expect(page.locator(f"{FORM} #hand-summary")).not_to_contain_text("card points", timeout=5000)
    for seat, points in enumerate((90, 70, 40)):
        expect(page.locator(f'{FORM} input[name="card_points_{seat}"]')).to_have_value(str(points))
    page.locator(f'{FORM} input[name="card_points_2"]').fill("140")
    expect(page.locator(f"{FORM} #hand-summary")).to_contain_text(re.compile("more than 33 a trick"), timeout=5000)


def test_nonsense_in_a_number_box_is_called_wrong_while_typing(page, base_url):
    ui = UI(page)
    ui.start_session(base_url, ("Ann", "Ben", "Cat"), "parlett")
    ui.next_hand()
    ui.chip("buyer", 1)
    page.locator(f'{FORM} input[name="price_other"]').fill("abc")
    expect(page.locator(f"{FORM} #step-stock .problem")).to_contain_text("must be a whole number", timeout=5000)
    page.locator(f'{FORM} input[name="price_other"]').fill("16")
    expect(page.locator(f"{FORM} #step-stock .problem")).to_have_count(0, timeout=5000)
    expect(page.locator(f"{FORM} #step-stock .phase-result")).to_contain_text("−16")


def test_leaving_a_typed_box_does_not_move_the_page_under_the_next_tap(page, base_url):
    # A box says "changed" when the scorer taps something else (the pad's Bid, a chip):
    # the answer to that change must not scroll the page, or the tap lands on whatever
    # moved under the thumb (a Bid lost, a chip not taken).
    ui = UI(page)
    ui.start_session(base_url, ("Ann", "Ben", "Cat"), "modern")
    ui.next_hand()
    pad = page.locator(f"{FORM} #pad-auction")
    ui.form_tap(pad.get_by_role("button", name="Bid 13", exact=True))
    box = pad.locator('input[name="bid_amount"]')
    box.fill("20")
    # the stock's section half out of view at the top, its Bid button in view
    page.evaluate("window.scrollBy(0, document.querySelector('#step-stock').getBoundingClientRect().top + 40)")
    before = page.evaluate("window.scrollY")
    assert before > 0
    ui._mark_form()
    box.evaluate("box => box.blur()")  # the change, as a tap elsewhere makes it
    ui._fresh_form()
    page.wait_for_timeout(100)  # past the settle, where the page follows
    assert page.evaluate("window.scrollY") == before
    expect(box).to_have_value("20")
    ui.form_tap(pad.get_by_role("button", name="Bid", exact=True))
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 13 · Cat 20")


def test_a_folded_sections_line_says_each_players_payment_apart(page, base_url):
    """An answered section folds to one line once a tap is made elsewhere; its
    payments there are each player's, apart ("Ann +6Ben −12Cat +6" in the trial)."""
    ui = UI(page)
    ui.start_session(base_url, ("Ann", "Ben", "Cat"), "parlett")
    ui.next_hand()
    ui.chip("buyer", 1)
    ui.chip("price", 12)
    ui.chip("tiddy", "nobody")  # a tap in another section: the answered Stock folds
    expect(page.locator(f"{FORM} #step-stock .fold-line > span").first).to_have_text(
        "Buyer Ben · 12 — Ann +6, Ben −12, Cat +6"
    )


def double_tap(page, locator) -> None:
    """Two taps 300 ms apart at one point of the screen, as a thumb makes them: the second
    lands on whatever is there by then (a locator would follow the chip if it moved)."""
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(300)
    page.touchscreen.tap(x, y)


def chosen(page) -> list:
    """Every answer chosen on the form, in its order."""
    return page.eval_on_selector_all(
        f"{FORM} input:checked", "inputs => inputs.map(input => input.name + '=' + input.value)"
    )


@pytest.mark.parametrize(
    "before, name, value",
    [
        ((), "tiddy", 0),  # Tiddy's Ann: not the stock's 14 that scrolled there
        ((("tiddy", 0), ("price", 18)), "buyer", 2),  # the buyer Eve: not the ruff's winner Eve
        ((("tiddy", 0), ("buyer", 2), ("ruff_winner", 1)), "price", 18),  # the price 18: not what Eve paid the ruff
    ],
)
def test_a_double_tap_chooses_only_what_was_under_the_thumb(page, base_url, before, name, value):
    # Each answer folds what is answered and brings the next section into view: the second
    # tap of a double tap must not land on the next section's chip that moved there.
    ui = UI(page)
    ui.start_session(base_url, ("Ann", "Ben", "Eve"), "parlett")  # Ann deals: Ben is eldest
    ui.next_hand()
    ui.preset("9 of Hearts")
    for answered, answer in before:
        ui.chip(answered, answer)
    chip = page.locator(f'{FORM} label.chip:has(input[name="{name}"][value="{value}"])')
    chip.scroll_into_view_if_needed()
    ui._mark_form()
    double_tap(page, chip)
    ui._fresh_form()
    page.wait_for_timeout(700)  # past a second answer, had the second tap chosen anything
    ui._fresh_form()
    expect(ui.chip_input(name, value)).to_be_checked()
    assert sorted(chosen(page)) == sorted(
        ["dealer=0", "trump=hearts", "turned_up=9", f"{name}={value}", *(f"{a}={b}" for a, b in before)]
    )
