"""Pages stay inside a 390-px phone with the longest names and big modern amounts:
nothing is pushed off screen, and Next hand stays within thumb reach."""

import json
import re
from io import BytesIO

from PIL import Image

from playwright.sync_api import expect

from .browser_ui import assert_fits

from support.data import DATA

LONG_NAMES = [
    "Maximilian-Alexander Featherstonehaugh",
    "Bartholomew-Fitzwilliam Montgomery III",
    "Wilhelmina Cholmondeley-Smythe",
]


def test_long_names_and_big_amounts_fit_a_phone(page, base_url, artifacts):
    record = json.loads((DATA / "modern-evening.json").read_text())
    record["players"] = LONG_NAMES
    record["hands"] = record["hands"] * 3  # balances in the hundreds, with halves
    record["hands"][2]["dealer"] = 2
    record["hands"][4]["dealer"] = 1
    response = page.request.post(
        base_url + "/import", data=json.dumps(record), headers={"Content-Type": "application/json"}, max_redirects=0
    )
    assert response.status == 303, response.text()
    table = base_url + response.headers["location"]
    for path, name in (("", "table"), ("/settle", "settle"), ("/hands/new", "form"), ("/hands/1", "detail")):
        page.goto(table + path)
        # nothing outside the screen (SVG drawings clip their own contents)
        wide = page.evaluate("""[...document.querySelectorAll('body *')]
            .filter(e => !e.closest('svg') && e.getBoundingClientRect().right > window.innerWidth)
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + e.getBoundingClientRect().right)""")
        page.screenshot(path=str(artifacts / f"long-names-{name}.png"))
        assert not wide, (name, wide)
        assert_fits(page)
    page.goto(table)
    expect(page.get_by_role("link", name="Next hand")).to_be_in_viewport()
    for seat in range(3):
        expect(page.locator(f'.balance .amount[data-seat="{seat}"]')).to_be_in_viewport()
    # the hand table's column heads: each player's short name on one line, never split mid-word
    heads = page.locator("table.hands thead th[scope=col] abbr")
    expect(heads).to_have_count(3)
    for i, name in enumerate(LONG_NAMES):
        expect(heads.nth(i)).to_have_attribute("title", name)
        box = heads.nth(i).bounding_box()
        line = page.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20", heads.nth(i).element_handle())
        assert box["height"] <= line * 1.5, (name, box)


#: Each field of a card that runs past the card's inner edge (its padding): [name, its right, the edge's].
PAST_THE_CARD = """selector => [...document.querySelectorAll(selector)].map(field => {
  const card = field.closest('.card'), style = getComputedStyle(card);
  const edge = card.getBoundingClientRect().right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
  return [field.name, Math.round(field.getBoundingClientRect().right * 10) / 10, Math.round(edge * 10) / 10];
}).filter(([name, right, edge]) => right > edge + 0.5)"""


def test_a_circles_date_fields_fit_their_card(page, base_url, artifacts):
    """The season's From and To (Ledger, Statistics) side by side inside their card at
    390 px: a date field is as wide as the browser draws its mm/dd/yyyy unless told
    it may be narrower, and "To" stuck out past the card's edge (the trial)."""
    from .test_names import circle_of_six

    circle = circle_of_six(page.request, base_url)
    for path in ("/ledger", "/stats"):
        page.goto(base_url + circle + path)
        page.screenshot(path=str(artifacts / f"circle-dates{path.replace('/', '-')}.png"))
        fields = page.locator(".season-filter input[type=date]")
        expect(fields).to_have_count(2)
        assert page.evaluate(PAST_THE_CARD, ".season-filter input, .season-filter select") == [], path
        # side by side, each its own half: From left of To, on one line
        boxes = [fields.nth(i).bounding_box() for i in range(2)]
        assert boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"] and boxes[0]["y"] == boxes[1]["y"], (path, boxes)
        assert_fits(page)


def colour_at(page, x: float, y: float) -> tuple:
    """The colour drawn at a point of the page (its screenshot), as (r, g, b)."""
    shot = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}, scale="css")
    return Image.open(BytesIO(shot)).convert("RGB").getpixel((0, 0))


def test_a_table_wider_than_its_card_shades_the_edge_it_goes_on_past(page, base_url, artifacts):
    """Six members' statistics at 390 px scroll in their own box; the edge beyond
    which the table goes on is shaded (the trial's cut-off last column gave no cue
    to scroll), and only that edge: scrolled to its end, the shade is on the left."""
    from .test_names import circle_of_six

    circle = circle_of_six(page.request, base_url)
    page.goto(base_url + circle + "/stats")
    box = page.locator('.scroll[aria-labelledby="each-member"]')
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "circle-stats-shade.png"))
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")
    card = page.evaluate("getComputedStyle(document.querySelector('.card')).backgroundColor")
    card = tuple(int(n) for n in re.findall(r"\d+", card)[:3])
    edge = box.bounding_box()
    y = edge["y"] + edge["height"] - 3  # the last row's lower padding: no text there
    left, right = edge["x"] + 2, edge["x"] + edge["width"] - 2
    assert colour_at(page, left, y) == card
    assert sum(colour_at(page, right, y)) < sum(card) - 60, colour_at(page, right, y)
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    assert colour_at(page, right, y) == card
    assert sum(colour_at(page, left, y)) < sum(card) - 60, colour_at(page, left, y)


def test_the_circles_members_box_is_drawn_as_the_boxes_beside_it(page, base_url):
    """New circle, on the home page at 390 px: the members box is as wide as the name box
    above it, with its border, corners and colours, in the page's type (it was the
    browser's bare monospace box, a third of the card wide)."""
    page.goto(base_url + "/")
    looks = page.evaluate("""() => [document.querySelector('input[name=circle_name]'),
                                    document.querySelector('textarea[name=circle_members]')].map(box => {
        const style = getComputedStyle(box);
        return {width: box.getBoundingClientRect().width, border: style.border, radius: style.borderRadius,
                background: style.backgroundColor, colour: style.color, monospace: style.fontFamily.includes('monospace')};
    })""")
    name, members = looks
    assert not members.pop("monospace")
    name.pop("monospace")
    assert members == name


def test_the_session_sheet_on_a_phone_is_at_the_phones_width_and_dark_in_the_dark(page, base_url, artifacts):
    """The Session sheet at 390 px: laid out at the phone's width (it was the printed
    page at a third of its size), nothing wider than the screen but the hands' table,
    which scrolls in its own box; on a dark screen, no white page."""
    from .test_dark_chart_and_zone import import_evening

    page.goto(import_evening(page, base_url) + "/sheet")
    page.screenshot(path=str(artifacts / "sheet-phone.png"))
    assert page.evaluate("window.innerWidth") == 390
    assert_fits(page)
    box = page.locator(".hands-box")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth && getComputedStyle(b).overflowX === 'auto'")
    # the hands' words at 12 px or more on the screen: a line of them is at least that tall
    line = page.locator("table.hands tbody td.words").first.evaluate(
        "cell => { const r = document.createRange(); r.selectNodeContents(cell); return r.getClientRects()[0].height; }"
    )
    assert line >= 12, line
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(artifacts / "sheet-phone-dark.png"))
    title = page.locator("h1").bounding_box()
    assert sum(colour_at(page, 2, title["y"] + title["height"] + 2)) < 3 * 64  # the page beside the title
