"""Nothing moves after the first paint: the cumulative layout shift is 0 on the
pages a table sees, at 390 px. The trial's Lighthouse (mobile) scored the hand
form 84 for a shift of 0.30: the script revealed the turned-up card's grid and
folded the answered sections after the page was drawn, and the chips jumped
under the scorer's thumb.

Each shift is read in the page itself (a ``PerformanceObserver`` of
``layout-shift`` entries, buffered, installed before any of the page's own
scripts), after the page has loaded and its scripts have run."""

from __future__ import annotations

import re
import time

from .conftest import PHONE
from .test_accessibility import tables  # noqa: F401  (the sessions and circle every page is filled from)

#: Each layout shift not caused by a tap or a key (hadRecentInput): its value and what moved.
OBSERVE = """window.__shifts = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    window.__shifts.push([entry.value, entry.sources.map(s => s.node ?
      (s.node.id ? '#' + s.node.id : s.node.nodeName + '.' + (s.node.className || '')) : '?').join(' ')]);
  }
}).observe({type: 'layout-shift', buffered: true});"""

#: A slow phone's network, made certain: the page's first script (htmx; the deferred scripts
#: run in their order, so all of them wait for it) is held this long, so the page is drawn
#: before any script runs, as on the trial's phones, and anything a script changes at
#: start moves what is on the screen.
SCRIPTS_LATE = 0.4


def late(route) -> None:
    time.sleep(SCRIPTS_LATE)
    route.continue_()


#: After the load event and two frames: what the deferred scripts did at start is drawn.
DRAWN = """() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(window.__shifts))))"""


def modern_hand_begun(request, base_url) -> str:
    """A modern hand form whose Deal and Trump are answered: modern turns up no card, so
    its first screen holds answered sections (which the script folded as the page opened)."""
    table = request.post(
        base_url + "/sessions",
        form={"player_0": "Ann", "player_1": "Ben", "player_2": "Cat", "rulebook": "modern", "first_dealer": "0"},
        max_redirects=0,
    ).headers["location"]
    form = request.get(base_url + table + "/hands/new").text()
    draft = re.search(r'name="draft_version" value="(\d+)"', form).group(1)
    answered = request.post(
        base_url + table + "/hands/check",
        form={"version": "1", "draft_version": draft, "dealer": "0", "trump": "hearts", "tiddy": "nobody"},
    )
    assert answered.status == 200, answered.text()
    return table + "/hands/new"


def test_nothing_moves_after_the_first_paint(browser, base_url, tables):  # noqa: F811
    # the phone's width, without Playwright's mobile emulation (is_mobile): under it this
    # Chromium reports no layout-shift entry at all, even for a shift Lighthouse measures
    # (and no service worker: its copies of the scripts would not be held)
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_init_script(OBSERVE)
    try:
        pages = {
            "home": "/",
            "table": tables["s"],
            "hand form": tables["s"] + "/hands/new",
            "settle": tables["s"] + "/settle",
            "circle": tables["c"],
            "ledger": tables["c"] + "/ledger",
            "statistics": tables["c"] + "/stats",
            "hand form (modern)": modern_hand_begun(context.request, base_url),
        }
        page = context.new_page()
        page.route("**/static/vendor/htmx-*.js", late)
        moved = {}
        for name, path in pages.items():
            page.goto(base_url + path, wait_until="load")
            shifts = page.evaluate(DRAWN)
            if name.startswith("hand form"):  # answered sections there, which the script folded after the paint
                assert page.locator("#hand-form section.step:has(> .step-status.done)").count() >= 2
            if shifts:
                moved[name] = (round(sum(value for value, _ in shifts), 4), shifts)
        assert moved == {}, moved
    finally:
        context.close()
