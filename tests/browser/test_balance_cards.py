"""The balance cards on a 390-px phone: every balance whole inside its card —
"+91½" never cut to "+91/", "+145½" and "−1,237½" never clipped — on the table
page and the settle-up screen, with the money under it adding up."""

import json

import pytest

from support.sessions import big_balances_session, rounding_session

from .browser_ui import assert_fits

EUR = {"per_counter": "0.05", "currency": "EUR"}


def import_record(page, base_url, record) -> str:
    response = page.request.post(
        base_url + "/import", data=json.dumps(record), headers={"Content-Type": "application/json"}, max_redirects=0
    )
    assert response.status == 303, response.text()
    return base_url + response.headers["location"]


def card_boxes(page) -> list[dict]:
    """Each card's box and its amount's: the text's own extent (a Range), not just its element."""
    return page.evaluate("""[...document.querySelectorAll('.balance')].map(card => {
        const amount = card.querySelector('.amount');
        const range = document.createRange();
        range.selectNodeContents(amount);
        const text = range.getBoundingClientRect(), box = card.getBoundingClientRect();
        const style = getComputedStyle(card);
        return {text: amount.textContent, fontSize: parseFloat(getComputedStyle(amount).fontSize),
                left: box.left + parseFloat(style.borderLeftWidth), right: box.right - parseFloat(style.borderRightWidth),
                textLeft: text.left, textRight: text.right, scroll: amount.scrollWidth, client: amount.clientWidth,
                money: (card.querySelector('.money') || {}).textContent || null};
    })""")


@pytest.mark.parametrize(
    "record, amounts, money",
    [
        (dict(rounding_session(EUR)), ["−237", "+145½", "+91½"], ["−€11.85", "+€7.28", "+€4.57"]),
        (big_balances_session(), ["−1,237½", "+1,092", "+145½"], [None, None, None]),
    ],
    ids=["issue-evening", "big-balances"],
)
@pytest.mark.parametrize("path", ["", "/settle"])
def test_every_balance_fits_its_card_at_390px(page, base_url, artifacts, record, amounts, money, path):
    table = import_record(page, base_url, record)
    page.goto(table + path)
    cards = card_boxes(page)
    assert [c["text"] for c in cards] == amounts
    assert [c["money"] for c in cards] == money
    for card in cards:
        assert card["left"] - 0.5 <= card["textLeft"] and card["textRight"] <= card["right"] + 0.5, card
        assert card["scroll"] <= card["client"] + 1, card  # nothing of it overflows (and is clipped)
        assert card["fontSize"] >= 16, card  # still big enough to read across a table
    assert_fits(page)
    name = f"cards-{'settle' if path else 'table'}-{'big' if '1237' in amounts[0] else 'issue'}.png"
    page.locator(".balances").first.screenshot(path=str(artifacts / name))
