"""Accessible to everyone: axe-core (WCAG 2.x A and AA) finds nothing on any page,
in light and dark, at 390 px; and a whole hand can be entered with a keyboard
alone, with visible focus, chips announced with their question.

Every page: the app's own URL map, each GET route filled from the fixtures
below; a route with nothing to fill it with fails loudly (add it to
``fill_rule`` or, if it is no page, to ``NOT_PAGES``). axe-core is a test
dependency only (`make test` fetches it into tests/.axe/, never served)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from support.data import load_example
from support.web import hand_fields

from .browser_ui import UI, expected
from .conftest import PHONE
from .test_hand_kept import HAND, PLAYERS

AXE = Path(__file__).resolve().parents[1] / ".axe" / "axe-4.14.1.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# GET routes that are not pages: files, fragments, downloads
NOT_PAGES = {
    "static",
    "home.favicon",
    "home.manifest",
    "offline.service_worker",
    "hosting.healthz",
    "table.live",
    "table.watch_live",
    "table.player_live",
    "sheets.sheet_pdf",
    "sheets.watch_sheet_pdf",
    "sheets.player_sheet_pdf",
    "sheets.export",
    "sheets.watch_export",
    "sheets.player_export",
    "circles.export",
    "circles.watch_export",
    "circles.season_pdf",
    "circles.watch_season_pdf",
    "nights.live",
    "nights.screen_live",
    "night_seats.night_part",
    "night_seats.watch_night_part",
    "night_seats.player_night_part",
    "night_sheets.organizer_sheet",
    "night_sheets.standings_sheet",
}


def axe_violations(page) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})
        .then(r => r.violations.map(v => v.impact + ' ' + v.id + ': ' + v.help + ' — ' +
                                         v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))""",
        TAGS,
    )
    return found


@pytest.fixture(scope="module")
def tables(browser, base_url):
    """Sessions whose links fill every route: one with two saved hands (agreed
    by the players), a hand in progress and the players' links; one with a PIN."""
    context = browser.new_context()
    request = context.request
    response = request.post(
        base_url + "/sessions",
        form={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "1d",
            "confirm": "on",
            "scorer": "0",
            "title": "Club night",
        },
        max_redirects=0,
    )
    assert response.status == 303, response.text()
    scorer = response.headers["location"]
    hands = load_example("parlett-evening.json")["hands"][:2]
    for version, hand in enumerate(hands, 1):
        saved = request.post(
            base_url + scorer + "/hands", form=dict(hand_fields(hand, version).items(multi=True)), max_redirects=0
        )
        assert saved.status == 303
    page = request.get(base_url + scorer).text()
    watch = re.search(r"/w/[A-Za-z0-9_-]{24}", page).group(0)
    players = re.findall(r"/p/[A-Za-z0-9_-]{24}", page)
    request.post(base_url + players[1] + "/hands/1/ok", max_redirects=0)
    form = request.get(base_url + scorer + "/hands/new").text()
    draft = re.search(r'name="draft_version" value="(\d+)"', form).group(1)
    request.post(
        base_url + scorer + "/hands/check",
        form={"version": "3", "draft_version": draft, "trump": "hearts", "turned_up": "9", "buyer": "1", "price": "12"},
    )
    locked = request.post(
        base_url + "/sessions",
        form={
            "player_0": "Dee",
            "player_1": "Eve",
            "player_2": "Fay",
            "rulebook": "modern",
            "first_dealer": "1",
            "stake": "",
            "pin": "4321",
        },
        max_redirects=0,
    ).headers["location"]
    circle = request.post(
        base_url + "/circles",
        form={"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat\nDan"},
        max_redirects=0,
    ).headers["location"]
    page = request.get(base_url + circle).text()
    seats = re.findall(r'<option value="(\d+)"', page)[:3]
    evening = request.post(
        base_url + circle + "/sessions",
        form={
            "seat_0": seats[0],
            "seat_1": seats[1],
            "seat_2": seats[2],
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "1d",
            "played_on": "2026-11-14",
        },
        max_redirects=0,
    ).headers["location"]
    for version, hand in enumerate(hands, 1):
        request.post(
            base_url + evening + "/hands", form=dict(hand_fields(hand, version).items(multi=True)), max_redirects=0
        )
    members = re.search(r"/cw/[A-Za-z0-9_-]{24}", request.get(base_url + circle).text()).group(0)
    locked_circle = request.post(
        base_url + "/circles",
        form={"circle_name": "Locked", "circle_pin": "4321", "circle_members": "Ann, Ben, Cat"},
        max_redirects=0,
    ).headers["location"]
    night = request.post(
        base_url + "/nights",
        form={
            "name": "Friday club",
            "players": "Ann\nBen\nCat\nDan\nEve\nFay\nGus",
            "rounds": "3",
            "rulebook": "parlett",
            "stake": "1d",
            "played_on": "2026-12-04",
        },
        max_redirects=0,
    ).headers["location"]
    request.post(base_url + night + "/rounds", form={"round": "1"}, max_redirects=0)
    table = re.search(r"/s/[A-Za-z0-9_-]{24}", request.get(base_url + night).text()).group(0)
    request.post(base_url + table + "/hands", form=dict(hand_fields(hands[0], 1).items(multi=True)), max_redirects=0)
    request.post(base_url + night + "/rounds", form={"round": "2"}, max_redirects=0)  # where each sits next
    night_player = re.search(r"/p/[A-Za-z0-9_-]{24}", request.get(base_url + table).text()).group(0)
    standings = re.search(r"/n/[A-Za-z0-9_-]{24}", request.get(base_url + night).text()).group(0)
    locked_night = request.post(
        base_url + "/nights",
        form={
            "name": "Locked club",
            "players": "Ann\nBen\nCat\nDan",
            "rounds": "2",
            "rulebook": "parlett",
            "stake": "",
            "pin": "4321",
        },
        max_redirects=0,
    ).headers["location"]
    # the night's sheet dropped on the circle: Eve, Fay and Gus are no members, so it asks who they are
    sheet = request.get(base_url + night + "/sheet.pdf").body()
    night_asked = request.post(
        base_url + circle + "/import",
        multipart={"file": {"name": "night.pdf", "mimeType": "application/pdf", "buffer": sheet}},
        max_redirects=0,
    ).headers["location"]
    context.close()
    return {
        "s": scorer,
        "w": watch,
        "p": players[1],
        "locked": locked,
        "c": circle,
        "cw": members,
        "locked_circle": locked_circle,
        "night": night,
        "n": standings,
        "locked_night": locked_night,
        "night_table": table,
        "night_player": night_player,
        "night_asked": night_asked,
    }


def fill_rule(rule, tables) -> str:
    """A URL for a GET route, from the fixtures; fails on a route it cannot fill."""
    args = set(rule.arguments)
    if rule.endpoint == "pins.unlock_table":
        return tables["locked"] + "/unlock"
    if rule.endpoint == "circles.unlock_page":
        return tables["locked_circle"] + "/unlock"
    if rule.endpoint == "nights.unlock_page":
        return tables["locked_night"] + "/unlock"
    if rule.endpoint == "circles.attach_night":
        return tables["night_asked"]
    values = {}
    if "key" in args:
        kind = rule.rule.split("/")[1]
        assert kind in ("s", "w", "p", "c", "cw", "night"), (
            f"no fixture for the route {rule.rule}: add one to fill_rule"
        )
        values["key"] = tables[kind].split("/")[2]
    if "watch_id" in args:  # a club night's standings
        values["watch_id"] = tables["n"].split("/")[2]
    if "session_id" in args:
        values["session_id"] = tables["s"].split("/")[2]
    if "number" in args:
        values["number"] = 1
    missing = args - set(values)
    assert not missing, f"no fixture for {missing} of the route {rule.rule} ({rule.endpoint}): add one to fill_rule"
    url = rule.rule
    for name, value in values.items():
        url = re.sub(r"<(?:[a-z]+:)?" + name + ">", str(value), url)
    return url


def every_page(live_app, tables) -> list[str]:
    pages = [
        fill_rule(rule, tables)
        for rule in live_app.url_map.iter_rules()
        if "GET" in rule.methods and rule.endpoint not in NOT_PAGES
    ]
    # the error page too, and a club night's table (where its players sit next) on two of its links
    return sorted(set(pages)) + ["/s/no-such-session", tables["night_table"], tables["night_player"]]


@pytest.fixture(scope="module")
def live_app(tmp_path_factory):
    """The app's URL map (the one served is the same app, made in conftest.py)."""
    from scorekeeper import create_app

    folder = tmp_path_factory.mktemp("url-map")
    return create_app(
        {"DATABASE": str(folder / "x.db"), "SECRET_KEY": "x", "TESTING": True, "BACKUP_DIR": str(folder / "backups")}
    )


def test_axe_finds_nothing_on_any_page_in_light_and_dark(browser, base_url, tables, live_app):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, bypass_csp=True
    )  # the app's CSP forbids axe's own script
    try:
        page = context.new_page()
        found = {}
        for path in every_page(live_app, tables):
            page.goto(base_url + path)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                violations = axe_violations(page)
                if violations:
                    found[f"{path} ({scheme})"] = violations
        assert found == {}, "\n".join(f"{p}: {v}" for p, v in found.items())
    finally:
        context.close()


def test_every_aria_role_is_allowed_on_its_element(browser, base_url, tables, live_app):
    """axe's aria-allowed-role (a best practice, not a WCAG tag, but Lighthouse scores it):
    the table's balances were links given role=listitem, which a link may not take."""
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    try:
        page = context.new_page()
        found = {}
        for path in every_page(live_app, tables):
            page.goto(base_url + path)
            if not page.evaluate("typeof axe !== 'undefined'"):
                page.add_script_tag(path=str(AXE))
            nodes = page.evaluate("""() => axe.run(document, {runOnly: {type: 'rule', values: ['aria-allowed-role']}})
                .then(r => r.violations.flatMap(v => v.nodes.map(n => n.target.join(' '))))""")
            if nodes:
                found[path] = nodes
        assert found == {}, found
    finally:
        context.close()


SMALL_TARGETS = """() => {
    // every control a finger aims at: buttons, button-like links, chips, boxes, summaries
    // (a link inside a sentence is exempt, as in WCAG 2.5.8)
    const out = [];
    const seen = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
                                                              getComputedStyle(el).visibility !== 'hidden'; };
    const targets = document.querySelectorAll(
        'button, .button, label.chip > span, select, summary, input:not([type=hidden]):not([type=radio])' +
        ':not([type=checkbox]), .top a, nav a, .balance');
    for (const el of targets) {
        if (!seen(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.width < 44 - 0.5 || r.height < 44 - 0.5)
            out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') +
                     ' "' + (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 20) + '" ' +
                     Math.round(r.width) + '×' + Math.round(r.height));
    }
    return out;
}"""


def test_tap_targets_and_200_percent_text_at_390_px(browser, base_url, tables, live_app):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        small, wide = {}, {}
        large = context.new_page()
        cdp = context.new_cdp_session(large)  # the browser's own text size at 200 % (16 px -> 32 px)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
        for path in every_page(live_app, tables):
            page.goto(base_url + path)
            if page.evaluate(SMALL_TARGETS):
                small[path] = page.evaluate(SMALL_TARGETS)
            large.goto(base_url + path)
            width = large.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                wide[path] = width
        assert large.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 34  # 17 px at 200 %
        assert small == {}, "\n".join(f"{p}: {v}" for p, v in small.items())
        assert wide == {}, wide
    finally:
        context.close()


def focus_on(page, selector: str, most: int = 80) -> None:
    """Tab (forwards) until the focus is on ``selector``: the keyboard only."""
    for _ in range(most):
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(
        f"Tab never reached {selector}; the focus is on "
        + page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
    )


def settled(page) -> None:
    page.wait_for_selector("#hand-form:not(.htmx-request)", timeout=5_000)
    page.wait_for_timeout(150)  # htmx settles its swap (20 ms) and a11y.js puts the focus back


def choose(page, name: str, value) -> None:
    """Tab into the group, then the arrow keys until ``value`` is chosen (each
    arrow key chooses, as on any radio group; each choice is sent)."""
    focus_on(page, f'#hand-form input[name="{name}"]')
    for _ in range(12):
        if page.evaluate(
            "([n, v]) => document.activeElement.name === n && document.activeElement.value === v "
            "&& document.activeElement.checked",
            [name, str(value)],
        ):
            return
        checked = page.evaluate("n => document.activeElement.name === n && document.activeElement.checked", name)
        page.keyboard.press("ArrowRight" if checked else "Space")
        settled(page)
    raise AssertionError(f"could not choose {name}={value} with the arrow keys")


def test_a_whole_hand_with_the_keyboard_alone(page, base_url):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    page.goto(table + "/hands/new")
    page.locator("body").press("Tab")  # from the top of the page, as a keyboard user starts
    choose(page, "trump", "hearts")
    # announced with its question: the group is named, the chip is the radio's name
    trump = page.get_by_role("radiogroup", name="Turned-up card: suit (trump)")
    expect(trump.get_by_role("radio", name="Hearts", exact=True)).to_be_checked()  # "Hearts, selected"
    assert page.evaluate("document.activeElement.value") == "hearts"  # the focus stayed on the chip
    # and it is drawn: the chip of the focused radio has the focus ring
    ring = page.evaluate("getComputedStyle(document.activeElement.nextElementSibling).outlineStyle")
    assert ring == "solid"
    choose(page, "turned_up", "9")
    choose(page, "tiddy", "nobody")
    choose(page, "buyer", 1)
    choose(page, "price", 12)
    expect(page.locator("#announce")).to_have_text("Stock: Ann +6, Ben −12, Cat +6")
    choose(page, "ruff_winner", "nobody")
    choose(page, "sets", "none")
    choose(page, "tricks_0", 5)
    choose(page, "tricks_1", 4)
    for rank, seat in HAND["honours"].items():
        choose(page, f"honour_{rank}", seat)
    ui.ready()
    focus_on(page, "#hand-form button.save")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/s/[^/?]+$"))
    ui.expect_balances(expected("parlett", PLAYERS, [HAND]))
