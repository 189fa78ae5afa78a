"""An evening of a circle paid from its Settle up page in a real browser at 390 ×
844: "Mark paid" beside each payment (marked by the payer), tapped once, then
double-tapped: the circle's What is owed shows each debt paid once, and nothing
owed. A mistaken mark is taken back from the same page."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from support.circles import HANDS, members_of
from support.web import hand_fields

from .browser_ui import assert_fits
from .test_accessibility import axe_violations

URLENCODED = {"Content-Type": "application/x-www-form-urlencoded"}


def post(page, url: str, fields) -> str:
    """A form posted from the browser's own context (its cookies): where it leads."""
    response = page.request.post(url, data=urlencode(fields, doseq=True), headers=URLENCODED, max_redirects=0)
    assert response.status == 303, response.text()
    return response.headers["location"]


def an_evening_of_a_circle(page, base_url) -> tuple[str, str]:
    """A circle (Ann, Ben, Cat) and an evening of two parlett hands at 1d a counter:
    the circle's manage link and the evening's scorer's link."""
    circle = base_url + post(
        page, base_url + "/circles", {"circle_name": "Friday Gleek", "circle_members": "Ann\nBen\nCat"}
    )
    ids = members_of(page.request.get(circle).text())
    session = base_url + post(
        page,
        circle + "/sessions",
        {
            "seat_0": ids["Ann"],
            "seat_1": ids["Ben"],
            "seat_2": ids["Cat"],
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "1d",
            "played_on": "2026-11-14",
        },
    )
    for version, hand in enumerate(HANDS[:2], 1):
        post(page, session + "/hands", list(hand_fields(hand, version).items(multi=True)))
    return circle, session


@pytest.fixture
def page(browser, browser_context_args):
    """A phone whose requests the test may hold, as a slow connection would: no
    service worker (the page's routes do not see what a worker fetches); axe-core
    added to its pages (past the app's CSP)."""
    context = browser.new_context(**browser_context_args, service_workers="block", bypass_csp=True)
    yield context.new_page()
    context.close()


def test_mark_paid_on_settle_up_tapped_and_double_tapped_pays_each_debt_once(page, base_url):
    circle, session = an_evening_of_a_circle(page, base_url)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/settle/pay") else None)

    page.goto(session + "/settle")
    lines = page.locator(".payments li")
    expect(lines).to_have_count(2)
    expect(lines.nth(0)).to_contain_text("Cat pays Ann 52 counters = 4s 4d")
    expect(lines.nth(1)).to_contain_text("Cat pays Ben 3 counters = 3d")
    for line in lines.all():
        assert line.get_by_label("Marked by").locator("option:checked").inner_text() == "Cat"  # the payer
    assert_fits(page)
    assert axe_violations(page) == []

    lines.nth(0).get_by_role("button", name="Mark paid").tap()
    expect(page.locator(".flash")).to_have_text("Cat paid Ann 4s 4d.")
    expect(lines.nth(0)).to_contain_text("Paid ·")
    expect(lines.nth(0)).to_contain_text("marked by Cat")
    expect(lines.nth(0).get_by_role("button", name="Mark paid")).to_have_count(0)

    # a double tap on a slow connection: the first tap's post is held on its way (the browser
    # gives up on it for the second's), then reaches the server after the second
    held, answers = [], []
    page.on(
        "response",
        lambda r: (
            answers.append((r.status, r.text() if r.status == 409 else ""))
            if r.request.method == "POST" and r.url.endswith("/settle/pay")
            else None
        ),
    )
    page.route("**/settle/pay", lambda route: held.append(route) if not held else route.continue_())
    button = lines.nth(1).get_by_role("button", name="Mark paid")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    for _ in range(2):  # the screen tapped where the button is (a locator would wait for the page to change)
        with page.expect_request("**/settle/pay"):
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator(".flash")).to_have_text("Cat paid Ben 3d. Settled: 14 Nov.")
    page.unroute("**/settle/pay")
    late = held[0].fetch(max_redirects=0)  # the first tap's post, as the browser sent it
    answers.append((late.status, late.text()))
    assert len(posts) == 3, posts
    assert [status for status, _ in answers[-2:]] == [303, 409], answers
    assert re.search(
        r"Cat paying Ben 3d is marked paid already \(by Cat, on [0-9-]+\): nothing was marked twice\.", answers[-1][1]
    )
    expect(page.locator(".payments li").nth(1)).to_contain_text("Paid ·")

    page.goto(circle + "/owed")
    expect(page.locator("#owed")).to_contain_text("Nothing is owed: every evening is settled.")
    paid = page.locator("#paid .payments li")
    expect(paid).to_have_count(2)
    expect(paid).to_have_text(
        [re.compile(r"^Cat paid Ben 3d, for 14 Nov"), re.compile(r"^Cat paid Ann 4s 4d, for 14 Nov")]
    )

    # Ben's marked by mistake: taken back on the Settle up page, it is owed again
    page.goto(session + "/settle")
    expect(page.locator(".small-print").last).to_contain_text("Settled in Friday Gleek")
    assert axe_violations(page) == []
    page.locator(".payments li").nth(1).get_by_role("button", name="Take back").tap()
    expect(page.locator(".flash")).to_have_text("That payment is taken back: the evening is open again.")
    expect(page.locator(".payments li").nth(1).get_by_role("button", name="Mark paid")).to_have_count(1)
    page.goto(circle + "/owed")
    expect(page.locator(".debt")).to_have_text(["Cat pays Ben 3d, for 14 Nov"])
