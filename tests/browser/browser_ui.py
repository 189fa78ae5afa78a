"""Driving the app like a player does: tapping chips, one tap at a time.

Every click goes through ``UI.tap`` so a test can count the taps a flow needs.
The hand form is re-rendered by htmx on every change (``hx-swap="outerHTML"``):
before each tap the current form is marked stale, and the tap is done when a
fresh form (without the mark) has been swapped in and settled. Elements are
always located afresh after a tap.
"""

from __future__ import annotations

import copy
import re
from fractions import Fraction

from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import BOOKS
from scorekeeper.rules.record import settle, validate

FORM = "#hand-form"
# The form stays; htmx swaps its body. A body without our mark is the server's fresh answer.
# Every answer to a tap replaces the summary (out of band, or with the whole form body).
FRESH_FORM = "#hand-form:not(.htmx-request) #hand-summary:not([data-stale]):not(.htmx-settling):not(.htmx-swapping)"
TIMEOUT = 5_000
#: The page is still at x, y: it has not just moved another control under the last tap there.
MOVED_THERE = (
    "([x, y]) => !(window.Gleek && Gleek.sections && Gleek.sections.movedThere && Gleek.sections.movedThere(x, y))"
)


# ------------------------------------------------------------ amounts as shown


def counters(text: str) -> Fraction:
    """``+19``, ``−6½``, ``½``, ``−1,237½`` → an exact amount (the app's own way of writing)."""
    text = text.strip().replace("−", "-").replace("+", "").replace(",", "")
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("-")
    half = text.endswith("½")
    whole = text.rstrip("½")
    amount = Fraction(int(whole) if whole else 0) + (Fraction(1, 2) if half else 0)
    return sign * amount


def shown(amount) -> str:
    """An amount as the table shows it (independent of the app's formatter)."""
    amount = Fraction(amount)
    sign = "+" if amount > 0 else ("−" if amount < 0 else "")
    whole, part = divmod(abs(amount), 1)
    assert part in (0, Fraction(1, 2)), amount
    if part == 0:
        return f"{sign}{whole:,}"
    return f"{sign}{f'{whole:,}' if whole else ''}½"


def assert_fits(page: Page) -> None:
    """Nothing wider than the phone: a wider page moves the fixed thumb bar off-screen."""
    widths = page.evaluate("[document.documentElement.scrollWidth, window.visualViewport.width]")
    assert widths[0] <= widths[1], f"page is {widths[0]}px wide on a {widths[1]}px screen: {page.url}"


# ------------------------------------------------------------ records


def record(rulebook: str, players, hands, options=None) -> dict:
    rec = {
        "format": "gleek-session/1",
        "rulebook": rulebook,
        "options": options or {},
        "players": list(players),
        "hands": copy.deepcopy(hands),
    }
    problems = validate(rec)
    assert not problems, [str(p) for p in problems]
    return rec


def expected(rulebook: str, players, hands, options=None):
    """settle() of the same hands: what the table must show."""
    return settle(record(rulebook, players, hands, options))


# ------------------------------------------------------------ the player at the table


class UI:
    def __init__(self, page: Page, js: bool = True):
        self.page = page
        self.page.set_default_timeout(10_000)
        self.js = js
        self.taps = 0

    # -- taps
    def tap(self, locator: Locator) -> None:
        """One tap (counted), once the page is still where it is tapped: a player looks
        before tapping where the page has just moved another control (the form does not
        take a tap there for half a second, as it would be the second of a double tap)."""
        if self.js:
            box = locator.bounding_box()
            if box:
                middle = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
                self.page.wait_for_function(MOVED_THERE, arg=middle, polling=50)
        locator.click()
        self.taps += 1

    def _mark_form(self) -> None:
        self.page.evaluate("document.querySelector('#hand-summary').setAttribute('data-stale', '1')")

    def _fresh_form(self) -> None:
        self.page.wait_for_selector(FRESH_FORM, timeout=TIMEOUT)

    def form_tap(self, locator: Locator) -> None:
        """A tap that changes the hand form: wait for htmx to swap in the new one."""
        if not self.js:
            self.tap(locator)
            return
        self._mark_form()
        self.tap(locator)
        self._fresh_form()

    def chip_input(self, name: str, value) -> Locator:
        return self.page.locator(f'{FORM} input[name="{name}"][value="{value}"]')

    def has_chip(self, name: str, value) -> bool:
        return self.chip_input(name, value).count() == 1

    def unfold(self, name: str) -> None:
        """Open the section of field ``name`` if it is folded (answered): one tap on its line."""
        if not self.js:
            return
        line = self.page.locator(f'{FORM} section.step.folded:has([name="{name}"]) > .fold-line')
        if line.count():
            self.tap(line)
            expect(line).to_be_hidden()

    def chip(self, name: str, value) -> None:
        """Tap the chip ``value`` of ``name`` (unless it is already on)."""
        field = self.chip_input(name, value)
        expect(field).to_have_count(1)
        if field.is_checked():
            return
        self.unfold(name)
        self.form_tap(self.page.locator(f'{FORM} label.chip:has(input[name="{name}"][value="{value}"])'))
        expect(self.chip_input(name, value)).to_be_checked()

    def type_in(self, name: str, value) -> None:
        """The few typed fields (card points, an 'other' amount): type, then leave the field."""
        field = self.page.locator(f'{FORM} input[name="{name}"]')
        if not self.js:
            field.fill(str(value))
            return
        self.unfold(name)
        self._mark_form()
        field.fill(str(value))
        field.press("Tab")  # change fires on leaving the field
        self._fresh_form()
        expect(self.page.locator(f'{FORM} input[name="{name}"]')).to_have_value(str(value))

    def amount(self, name: str, value) -> None:
        """A chip if the amount is offered, else the 'other' field."""
        if self.has_chip(name, value):
            self.chip(name, value)
        else:
            self.type_in(f"{name}_other", value)

    def button(self, text) -> Locator:
        return self.page.locator(FORM).get_by_role("button", name=text)

    def preset(self, text) -> None:
        self.form_tap(self.button(text))

    # -- whole steps
    def start_session(
        self, base_url: str, players, rulebook: str, first_dealer: int = 0, options: dict | None = None, screenshot=None
    ) -> str:
        page = self.page
        page.goto(base_url + "/")
        for seat, name in enumerate(players):
            page.locator(f'input[name="player_{seat}"]').fill(name)
        page.locator(f'input[name="rulebook"][value="{rulebook}"]').check()
        if options:
            page.locator("details.options summary").click()
            for name, on in options.items():
                page.locator(
                    f'label.chip:has(input[name="opt_{rulebook}_{name}"][value="{"on" if on else "off"}"])'
                ).click()
        page.locator(f'label.chip:has(input[name="first_dealer"][value="{first_dealer}"])').click()
        if screenshot:
            screenshot("home")
        page.get_by_role("button", name="Start the session").click()
        page.wait_for_url(re.compile(r"/s/[^/?]+$"))
        expect(page.locator(".balance .amount")).to_have_count(3)
        return page.url

    def next_hand(self) -> None:
        self.tap(self.page.get_by_role("link", name="Next hand"))
        self.page.wait_for_url(re.compile(r"/hands/new$"))
        expect(self.page.locator(FORM)).to_be_visible()

    def enter_hand(self, rulebook: str, hand: dict, players) -> None:
        """Tap in a whole hand, question by question in the order of the form (the
        book's own declaration: any book's questions, by their kind)."""
        taps = {
            "seat": self._seat,
            "choice": self._choice,
            "purchase": self._purchase,
            "ruff": self._ruff_q,
            "sets": self._sets_q,
            "forfeits": self._forfeits,
            "counts": self._counts,
            "honours": self._honours,
            "points": self._points,
        }
        for q in BOOKS[rulebook].questions:
            if q.kind in taps and (q.key in hand or q.optional):
                taps[q.kind](q, hand)

    def _asked(self, field: str) -> bool:
        """The question is on the form (the rules did not fix its answer)."""
        return self.page.locator(f'{FORM} input[type="radio"][name="{field}"]').count() > 0

    def _seat(self, q, hand):
        if self._asked(q.field):
            self.chip(q.field, "nobody" if hand[q.key] is None else hand[q.key])
        else:
            assert hand[q.key] is None, (q.key, "fixed by the rules, so nobody's")

    def _choice(self, q, hand):
        self.chip(q.field, hand[q.key])

    def _purchase(self, q, hand):
        self._auction(hand)

    def _ruff_q(self, q, hand):
        self._ruff(hand)

    def _sets_q(self, q, hand):
        self._sets(hand)

    def _forfeits(self, q, hand):
        for seat, called in enumerate(hand.get(q.key) or ()):
            for text in called:
                self.chip(f"{q.field}_{seat}", text)

    def _counts(self, q, hand):
        self._tricks(hand)

    def _honours(self, q, hand):
        for rank, seat in hand[q.key].items():
            self.chip(f"{q.field}_{rank}", "discarded" if seat is None else seat)

    def _points(self, q, hand):
        for seat in range(3):
            self.type_in(f"{q.field}_{seat}", hand[q.key][seat])

    def _tiddy(self, hand):
        if self.page.locator(f'{FORM} input[name="tiddy"]').count():
            self.chip("tiddy", "nobody" if hand["tiddy"] is None else hand["tiddy"])
        else:
            assert hand["tiddy"] is None

    def _auction(self, hand):
        auction = hand["auction"]
        if auction is None:
            self.chip("buyer", "nobody")
        else:
            self.chip("buyer", auction["buyer"])
            self.amount("price", auction["price"])

    def _ruff(self, hand):
        ruff = hand["ruff"]
        if ruff is None:
            self.chip("ruff_winner", "nobody")
            return
        self.chip("ruff_winner", ruff["winner"])
        for seat in range(3):
            if seat != ruff["winner"]:
                self.amount(f"paid_{seat}", ruff["paid"][seat])

    def _sets(self, hand):
        if not any(hand["sets"]):
            self.chip("sets", "none")
            return
        self.chip("sets", "some")
        for seat, sets in enumerate(hand["sets"]):
            for text in sets:
                self.chip(f"set_{seat}", text)

    def _tricks(self, hand):
        tricks = hand["tricks"]
        self.chip("tricks_0", tricks[0])
        self.chip("tricks_1", tricks[1])
        if self.js:  # the third fills itself in
            expect(self.chip_input("tricks_2", tricks[2])).to_be_checked()
        else:
            self.chip("tricks_2", tricks[2])

    def ready(self) -> None:
        expect(self.page.locator("#hand-summary .ready")).to_have_text(re.compile("Ready to save"))

    def save(self, editing: bool = False) -> None:
        self.tap(self.button("Save changes" if editing else "Save hand"))
        self.page.wait_for_url(re.compile(r"/s/[^/?]+$"))

    # -- the table
    def expect_balances(self, settlement, page: Page | None = None, timeout: int = TIMEOUT) -> None:
        page = page or self.page
        for seat, balance in enumerate(settlement.balances):
            amount = page.locator(f'.balance .amount[data-seat="{seat}"]')
            expect(amount).to_have_text(shown(balance), timeout=timeout)
            assert counters(amount.inner_text()) == balance

    def expect_hand_rows(self, settlement, page: Page | None = None) -> None:
        page = page or self.page
        rows = page.locator("table.hands tbody tr")
        expect(rows).to_have_count(len(settlement.hands))
        for result in settlement.hands:
            row = rows.nth(len(settlement.hands) - result.number)  # newest first
            expect(row.locator("th")).to_contain_text(f"#{result.number}")
            cells = row.locator("td")
            assert [counters(t) for t in cells.all_inner_texts()] == list(result.total)
