"""Names at a 390 × 844 phone, never cut inside a word: "🃏 Jo" keeps its word,
"Bartholomew-Fitzwilliam" breaks only at its hyphen (or ends in "…"), and
nothing is wider than the screen — checked on the rendered text: where each
line of a name ends, and whether any box clips it."""

import json
import re

from playwright.sync_api import Page

from .browser_ui import assert_fits

from support.data import DATA

NAMES = ["🃏 Jo", "Bartholomew-Fitzwilliam", "Ann"]

#: For every text node holding a piece of a name: each place the browser ended a
#: line inside the name (the character before the break must be a space or a
#: hyphen), and any box that clips the text (an ellipsis, overflow: hidden; a box
#: that scrolls sideways does not clip: what is past its edge is a swipe away).
CUTS = """(pieces) => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    const el = node.parentElement;
    if (!el || el.closest('script, style, title, [hidden]') || !el.getClientRects().length) continue;
    for (const piece of pieces) {
      for (let at = text.indexOf(piece); at >= 0; at = text.indexOf(piece, at + 1)) {
        let top = null;
        for (let i = at; i < at + piece.length; i++) {
          const range = document.createRange();
          range.setStart(node, i); range.setEnd(node, i + 1);
          const box = range.getClientRects()[0];
          if (!box || box.width === 0) continue;
          if (top !== null && box.top > top + box.height / 2 && !/[\\s-]/.test(text[i - 1]))
            found.push(`${piece} broken before "${text.slice(i, at + piece.length)}" in ${el.tagName}.${el.className} < ${el.parentElement.tagName}.${el.parentElement.className}`);
          top = box.top;
        }
        for (let box = el; box && box !== document.body; box = box.parentElement) {
          const style = getComputedStyle(box);
          const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';  // reachable: not clipped
          if (style.overflowX !== 'visible' && !scrolls && box.scrollWidth > box.clientWidth + 1)
            found.push(`${piece} clipped by ${box.tagName}.${box.className} (${box.scrollWidth} > ${box.clientWidth})`);
        }
      }
    }
  }
  return found;
}"""
WIDE = """[...document.querySelectorAll('body *')]
    .filter(e => !e.closest('svg') && e.getClientRects().length && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)"""


def test_names_stay_whole_and_inside_a_phone(page: Page, base_url, artifacts):
    record = json.loads((DATA / "wits1671-evening.json").read_text())
    record["players"] = NAMES
    record["confirm"] = True  # the agreement card shows its names too
    response = page.request.post(
        base_url + "/import", data=json.dumps(record), headers={"Content-Type": "application/json"}, max_redirects=0
    )
    assert response.status == 303, response.text()
    table = base_url + response.headers["location"]
    pieces = ["Bartholomew-Fitzwilliam", "Bartholomew", "Fitzwilliam", "🃏 Jo"]
    for path in ("", "/settle", "/hands/new", "/hands/1", "/hands/1/edit", "/history"):
        page.goto(table + path)
        page.screenshot(path=str(artifacts / f"names{path.replace('/', '-') or '-table'}.png"), full_page=True)
        if path == "/hands/1/edit":  # the hand summary's table, with every phase known
            assert page.locator("#hand-summary table.running thead .fit").count() == 3
        assert page.evaluate(WIDE) == [], path
        assert_fits(page)
        cuts = page.evaluate(CUTS, pieces)
        assert cuts == [], (path, "; ".join(cuts))
        # the joker's name keeps its word everywhere it is written ("🃏 Jo", never "🃏" alone)
        text = page.evaluate("document.body.innerText")
        assert "🃏" in text and text.count("🃏") == text.count("🃏 Jo"), path
    page.goto(table)
    heads = page.locator("table.hands thead th[scope=col] .fit")
    assert [heads.nth(i).inner_text() for i in range(3)] == ["🃏 Jo", "Bartholomew…", "Ann"]
    for i in range(3):  # each head on one line, in type no smaller than 9 px
        size = heads.nth(i).evaluate("e => [e.getClientRects().length, parseFloat(getComputedStyle(e).fontSize)]")
        assert size[0] == 1 and size[1] >= 9, (NAMES[i], size)


#: Every word of the rendered text of the tables ``selector`` picks out (a word:
#: what lies between spaces and hyphens), for ``CUTS`` to find any split across lines.
TABLE_WORDS = """selector => [...new Set([...document.querySelectorAll(selector)]
    .flatMap(table => table.innerText.split(/[\\s\\u2013-]+/)).filter(w => [...w].length > 1))]"""
#: Each box a table scrolls sideways in: [can it scroll, tabindex, its role, its name].
SCROLL_BOXES = """selector => [...document.querySelectorAll(selector)].map(table => {
  const box = table.closest('.scroll');
  if (!box) return null;
  const named = box.getAttribute('aria-labelledby');
  return [box.scrollWidth > box.clientWidth ? 'scrolls' : 'fits', box.tabIndex, box.getAttribute('role'),
          named ? document.getElementById(named).textContent.trim() : box.getAttribute('aria-label')];
})"""

#: As ``WIDE``, but what is inside a box that scrolls sideways is that box's to show.
WIDE_OUTSIDE_SCROLLING = """[...document.querySelectorAll('body *')]
    .filter(e => !e.closest('svg') && e.getClientRects().length && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .filter(e => ![...document.querySelectorAll('*')].some(box => box !== e && box.contains(e) &&
                  ['auto', 'scroll'].includes(getComputedStyle(box).overflowX)))
    .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)"""


def assert_table_words_whole(page: Page, selector: str, where: str) -> list[str]:
    """No word of a table's text broken across lines, nothing cut, nothing wider than the phone."""
    words = page.evaluate(TABLE_WORDS, selector)
    assert words, (where, selector)
    cuts = page.evaluate(CUTS, words)
    assert cuts == [], (where, "; ".join(cuts))
    assert page.evaluate(WIDE_OUTSIDE_SCROLLING) == [], where
    assert_fits(page)
    return words


def test_cotton_tables_keep_their_words_whole(page: Page, base_url, artifacts):
    """Cotton's "Towser and Tumbler" row: "Tumbler" on one line, on the Settle up
    page, a hand's page and the hand form's summary (never "Tumbl/er", as in the trial)."""
    record = json.loads((DATA / "cotton1674-evening.json").read_text())
    response = page.request.post(
        base_url + "/import", data=json.dumps(record), headers={"Content-Type": "application/json"}, max_redirects=0
    )
    assert response.status == 303, response.text()
    table = base_url + response.headers["location"]
    for path, selector in (
        ("/settle", "table.phases"),
        ("/hands/1", "table.phases"),
        ("/hands/1/edit", "#hand-summary table.running"),
    ):
        page.goto(table + path)
        page.screenshot(path=str(artifacts / f"cotton-words{path.replace('/', '-')}.png"), full_page=True)
        words = assert_table_words_whole(page, selector, path)
        assert "Tumbler" in words, (path, words)
        tumbler = page.locator(selector).locator("tbody th[scope=row]", has_text="Towser and Tumbler")
        assert tumbler.count() == 1, path


def circle_of_six(request, base_url) -> str:
    """A circle of six short names (Ann … Fay) with three evenings, one of Parlett's
    and two of Cotton's (his "Towser and Tumbler" among the phases): its manage URL."""
    from support.web import hand_fields

    circle = request.post(
        base_url + "/circles",
        form={"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat\nDan\nEve\nFay"},
        max_redirects=0,
    ).headers["location"]
    seats = re.findall(r'<option value="(\d+)"', request.get(base_url + circle).text())[:6]
    for book, chosen, day in (
        ("parlett", (0, 1, 2), "2026-11-14"),
        ("cotton1674", (3, 4, 5), "2026-11-21"),
        ("cotton1674", (3, 1, 4), "2026-11-28"),
    ):
        hands = json.loads((DATA / f"{book}-evening.json").read_text())["hands"]
        evening = request.post(
            base_url + circle + "/sessions",
            form={
                **{f"seat_{i}": seats[m] for i, m in enumerate(chosen)},
                "rulebook": book,
                "first_dealer": "0",
                "stake": "1d",
                "played_on": day,
            },
            max_redirects=0,
        ).headers["location"]
        for version, hand in enumerate(hands, 1):
            saved = request.post(
                base_url + evening + "/hands", form=dict(hand_fields(hand, version).items(multi=True)), max_redirects=0
            )
            assert saved.status == 303, saved.text()
    return circle


def test_circle_statistics_keep_their_words_whole(page: Page, base_url, artifacts):
    """A circle's Statistics at 390 px: "Dan" and "Auction" whole ("Da/n",
    "Auctio/n" in the trial); a table too wide scrolls in its own box, which a
    keyboard can reach and a screen reader names, and the page does not."""
    circle = circle_of_six(page.request, base_url)
    page.goto(base_url + circle + "/stats")
    page.screenshot(path=str(artifacts / "circle-stats-words.png"), full_page=True)
    tables = "table.season-stats, table.season-phases, table.head-to-head"
    words = assert_table_words_whole(page, tables, "stats")
    assert {"Dan", "Auction", "Fay"} <= set(words), words
    boxes = page.evaluate(SCROLL_BOXES, tables)
    assert [box[1:] for box in boxes] == [
        [0, "region", "Each member"],
        [0, "region", "Net by phase"],
        [0, "region", "Head to head"],
    ], boxes
    assert "scrolls" in [box[0] for box in boxes], boxes  # six members do not fit 390 px whole


def test_a_club_nights_standings_keep_their_words_whole(page: Page, base_url, artifacts):
    """A club night's standings at 390 px, a round with a result: "Player",
    "Placings", "Counters", "Tables" whole ("Playe/r", "Counter/s" in the trial,
    squeezed by the rounds' columns, which a phone now leaves to the rounds' tables); the
    table sits in its own box, which a keyboard can reach and a screen reader names,
    and the page does not scroll."""
    from support.web import hand_fields

    night = page.request.post(
        base_url + "/nights",
        form={
            "name": "Friday club",
            "players": "\n".join(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]),
            "rounds": "4",
            "rulebook": "parlett",
            "stake": "1d",
            "played_on": "2026-12-04",
            "rank_by": "placings",
        },
        max_redirects=0,
    ).headers["location"]
    assert page.request.post(base_url + night + "/rounds", form={"round": "1"}, max_redirects=0).status == 303
    page.goto(base_url + night)
    table = re.sub(r"^https?://[^/]+", "", page.locator("#round-1-table-1 a.table-link").get_attribute("href"))
    hand = json.loads((DATA / "parlett-evening.json").read_text())["hands"][0]
    saved = page.request.post(
        base_url + table + "/hands", form=dict(hand_fields(hand, 1).items(multi=True)), max_redirects=0
    )
    assert saved.status == 303, saved.text()
    assert page.request.post(base_url + night + "/rounds", form={"round": "2"}, max_redirects=0).status == 303
    page.goto(base_url + night)
    page.screenshot(path=str(artifacts / "night-standings-words.png"), full_page=True)
    words = assert_table_words_whole(page, "table.standings", "night")
    assert {"Player", "Placings", "Counters", "Tables"} <= set(words), (
        words
    )  # each round's column is left to the rounds' tables on a phone
    # the rounds' columns left to the rounds' tables below, the standings fit 390 px in their named box
    assert page.evaluate(SCROLL_BOXES, "table.standings") == [["fits", 0, "region", "Standings"]]
