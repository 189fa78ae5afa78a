"""The emailed PDF is all anyone needs: downloaded from the settle-up screen and
picked in the home page's Import form, it restores the same session."""

import json

from playwright.sync_api import expect

from .conftest import PHONE

from support.sessions import rounding_session


def test_import_the_sheet_pdf_through_the_form(page, base_url, tmp_path, artifacts, browser):
    record = rounding_session({"per_counter": "0.05", "currency": "EUR"})
    response = page.request.post(
        base_url + "/import", data=json.dumps(record), headers={"Content-Type": "application/json"}, max_redirects=0
    )
    assert response.status == 303
    table = base_url + response.headers["location"]
    exported = page.request.get(table + "/export.json").body()
    page.goto(table + "/settle")
    with page.expect_download() as download:
        page.evaluate(
            "url => { const a = document.createElement('a'); a.href = url; a.download = 'sheet.pdf';"
            " document.body.append(a); a.click(); }",
            table + "/sheet.pdf",
        )
    pdf = tmp_path / "sheet.pdf"
    download.value.save_as(pdf)
    assert pdf.read_bytes()[:5] == b"%PDF-"

    # on another phone (the PDF emailed round): the same session, restored
    other = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        phone = other.new_page()
        phone.goto(base_url + "/")
        phone.locator("#import-file").set_input_files(str(pdf))
        phone.get_by_role("button", name="Import", exact=True).click()
        phone.wait_for_url(lambda url: "/s/" in url and url != table)
        expect(phone.locator(".balance .money")).to_have_text(["−€11.85", "+€7.28", "+€4.57"])
        restored = phone.request.get(phone.url.split("?")[0] + "/export.json").body()
        assert restored == exported
        phone.screenshot(path=str(artifacts / "imported-from-pdf.png"))
    finally:
        other.close()
    # on the phone that has the session already: it opens it, no second copy
    page.goto(base_url + "/")
    page.locator("#import-file").set_input_files(str(pdf))
    page.get_by_role("button", name="Import", exact=True).click()
    page.wait_for_url(table)
    expect(page.locator(".flash").first).to_contain_text("This sheet is already here as")
