"""Names at a 390 × 844 phone (issue 20, item 3): "🃏 Jo" keeps its word,
"Bartholomew-Fitzwilliam" breaks only at its hyphen (or ends in "…"), and
nothing is wider than the screen — checked on the rendered text: where each
line of a name ends, and whether any box clips it."""

import json

from playwright.sync_api import Page

from .browser_ui import assert_fits

from support.data import DATA

NAMES = ["🃏 Jo", "Bartholomew-Fitzwilliam", "Ann"]

#: For every text node holding a piece of a name: each place the browser ended a
#: line inside the name (the character before the break must be a space or a
#: hyphen), and any box that clips the text (an ellipsis, overflow: hidden).
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
          if (style.overflowX !== 'visible' && box.scrollWidth > box.clientWidth + 1)
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
    response = page.request.post(base_url + "/import", data=json.dumps(record),
                                 headers={"Content-Type": "application/json"}, max_redirects=0)
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
