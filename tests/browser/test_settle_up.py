"""The end of the evening in a real browser: the settle-up screen and the printed
sheet agree with settle to the half counter."""

import json
import re
from io import BytesIO

from playwright.sync_api import expect
from pypdf import PdfReader

from scorekeeper.rules.core import format_counters, signed_counters
from scorekeeper.rules.record import settle

from .browser_ui import assert_fits

from support.data import DATA


def test_settle_up_screen_and_sheet_agree_with_settle(page, base_url, artifacts):
    record = json.loads((DATA / "wits1671-evening.json").read_text())
    record["stake"] = {"per_counter": "1", "currency": "d"}
    response = page.request.post(
        base_url + "/import", data=json.dumps(record), headers={"Content-Type": "application/json"}, max_redirects=0
    )
    assert response.status == 303
    table = response.headers["location"]
    expected = settle(record)

    page.goto(base_url + table)
    page.locator(".balance").first.click()  # a balance explains itself: the settle-up "why"
    page.wait_for_url(re.compile(r"/settle#why$"))
    for seat, balance in enumerate(expected.balances):
        expect(page.locator(f'.balance .amount[data-seat="{seat}"]')).to_have_text(signed_counters(balance))
    payments = page.locator(".payments li")
    expect(payments).to_have_count(len(expected.payments))
    for row, payment in zip(payments.all(), expected.payments):
        text = row.inner_text()
        assert f"{expected.players[payment.payer]} pays {expected.players[payment.payee]}" in text
        assert f"{format_counters(payment.amount)} counter" in text
    expect(payments.first).to_contain_text("Harry pays Tom 18 counters = 1s 6d")
    expect(page.locator(".chart svg polyline")).to_have_count(3)
    assert_fits(page)
    page.screenshot(path=str(artifacts / "settle-up.png"), full_page=True)

    pdf = page.request.get(base_url + table + "/sheet.pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(BytesIO(pdf.body())).pages)
    for name in expected.players:
        assert name in text
    assert "18" in text and "8½" in text and "26½" in text

    # the sheet's own page on this phone points to the phone's layout of the same figures
    page.goto(base_url + table + "/sheet")
    expect(page.locator(".on-a-phone")).to_be_visible()
    page.locator(".on-a-phone").get_by_role("link", name="Settle up").click()
    page.wait_for_url(re.compile(r"/settle$"))
