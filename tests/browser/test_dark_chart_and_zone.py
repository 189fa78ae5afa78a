"""The chart in dark mode takes the page's colours (no white panel); printed it
stays black on white. The browser tells the server its time zone (app.js sets
the ``tz`` cookie), and History is then in the viewer's own time."""

import json
import re

from playwright.sync_api import expect

from support.data import load_example


def import_evening(page, base_url) -> str:
    response = page.request.post(
        base_url + "/import",
        data=json.dumps(load_example("parlett-evening.json")),
        headers={"Content-Type": "application/json"},
        max_redirects=0,
    )
    assert response.status == 303
    return base_url + response.headers["location"]


def chart_colours(page) -> dict:
    return page.evaluate("""(() => {
        const svg = document.querySelector('.chart svg');
        const line = svg.querySelector('polyline'), label = svg.querySelector('.labels text');
        const hollow = svg.querySelector('[fill="#fff"]');
        return {background: getComputedStyle(svg).backgroundColor, line: getComputedStyle(line).stroke,
                label: getComputedStyle(label).fill, hollow: hollow && getComputedStyle(hollow).fill,
                ink: getComputedStyle(document.body).color,
                card: getComputedStyle(document.querySelector('.card')).backgroundColor};
    })()""")


def test_chart_follows_dark_mode_on_screen_only(page, base_url, artifacts):
    table = import_evening(page, base_url)
    page.emulate_media(color_scheme="dark")
    page.goto(table + "/settle")
    dark = chart_colours(page)
    assert dark["background"] in ("rgba(0, 0, 0, 0)", "transparent")
    assert dark["line"] == dark["label"] == dark["ink"] != "rgb(0, 0, 0)"
    assert dark["hollow"] == dark["card"]
    page.locator(".chart").screenshot(path=str(artifacts / "chart-dark.png"))

    page.emulate_media(media="print", color_scheme="dark")
    printed = chart_colours(page)
    assert printed["background"] == "rgb(255, 255, 255)"
    assert printed["line"] == printed["label"] == "rgb(0, 0, 0)"

    page.emulate_media(media="screen", color_scheme="light")
    light = chart_colours(page)
    assert light["background"] == "rgb(255, 255, 255)" and light["line"] == "rgb(0, 0, 0)"


def test_history_in_the_browsers_time_zone(browser, base_url, artifacts):
    context = browser.new_context(timezone_id="Asia/Kolkata", viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        table = import_evening(page, base_url)
        page.goto(table)  # any page: app.js tells the server the zone
        zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
        assert zone in ("Asia/Kolkata", "Asia/Calcutta")  # Chromium's ICU still says Calcutta
        assert {c["name"]: c["value"] for c in context.cookies()}.get("tz") == zone
        page.goto(table + "/history")
        expect(page.locator("table.history th").first).to_have_text(f"When ({zone})")
        stamp = page.locator("table.history time").first
        utc = stamp.get_attribute("datetime")
        local = page.evaluate(
            """iso => new Intl.DateTimeFormat('en-GB', {day: 'numeric', month: 'short',
            year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false}).format(new Date(iso))""",
            utc,
        )
        # the browser's own formatting of that instant, in its zone: "1 Dec 2026, 23:40"
        assert stamp.inner_text() == re.sub(r"^(\d+ \w+) (\d{4}),? ", r"\1 \2, ", local)
        page.screenshot(path=str(artifacts / "history-kolkata.png"))
    finally:
        context.close()


def test_historys_heads_stay_in_their_columns_with_a_long_zone(browser, base_url, artifacts):
    """At 390 px, "When (America/Buenos_Aires)" stays in its column (the trial's
    "When (Europe/London)" ran into "What"): the zone goes under "When", broken at
    its slashes where it must."""
    context = browser.new_context(timezone_id="America/Argentina/Buenos_Aires", viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        table = import_evening(page, base_url)
        page.goto(table)  # any page: app.js tells the server the zone
        zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")  # ICU's own name for it
        assert "/" in zone and len(zone) >= 20, zone
        page.goto(table + "/history")
        expect(page.locator("table.history th").first).to_have_text(f"When ({zone})")
        page.screenshot(path=str(artifacts / "history-buenos-aires.png"))
        past = page.evaluate("""[...document.querySelectorAll('table.history th')]
            .filter(th => th.scrollWidth > th.clientWidth).map(th => th.textContent)""")
        assert past == []
    finally:
        context.close()


def test_the_charts_words_are_readable_on_a_phone(page, base_url, artifacts):
    """At 390 px the settle-up chart's numbers and names are drawn at 12 px or more
    (a 380-unit chart drawn ~330 px wide made its 10-unit type 8½ px)."""
    table = import_evening(page, base_url)
    page.goto(table + "/settle")
    page.locator(".chart").screenshot(path=str(artifacts / "chart-phone.png"))
    sizes = page.evaluate("""[...document.querySelectorAll('.chart svg text')].map(text => {
        const svg = text.ownerSVGElement, scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [text.textContent, parseFloat(getComputedStyle(text).fontSize) * scale];
    })""")
    assert sizes and all(size >= 12 for _, size in sizes), [s for s in sizes if s[1] < 12]
