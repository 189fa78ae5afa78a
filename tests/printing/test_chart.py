"""The balance chart: server-made SVG, one polyline per player, names escaped."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.data import load_example
from support.profiles import examples
from scorekeeper.printing.chart import balance_chart_svg
from scorekeeper.rules.record import settle

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points(polyline: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in polyline.get("points").split()]


@pytest.mark.parametrize("name", ["parlett-evening.json", "wits1671-evening.json", "modern-evening.json"])
def test_one_polyline_per_player_with_a_point_per_hand_and_the_start(name):
    settlement = settle(load_example(name))
    root = parse(balance_chart_svg(settlement.players, settlement.running))
    assert root.tag == f"{SVG}svg"
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 3
    n = len(settlement.hands)
    for line in lines:
        assert len(points(line)) == n + 1
    # x runs from hand 0 to hand N, left to right, evenly
    xs = [x for x, _ in points(lines[0])]
    assert xs == sorted(xs) and len(set(xs)) == n + 1
    # everybody starts on the zero line
    zero = root.find(f".//{SVG}line[@class='zero']")
    y0 = float(zero.get("y1"))
    assert all(points(line)[0][1] == pytest.approx(y0) for line in lines)


def test_points_follow_the_balances():
    settlement = settle(load_example("parlett-evening.json"))
    root = parse(balance_chart_svg(settlement.players, settlement.running))
    zero_y = float(root.find(f".//{SVG}line[@class='zero']").get("y1"))
    for seat, line in enumerate(root.findall(f".//{SVG}polyline")):
        ys = [y for _, y in points(line)][1:]
        for y, balance in zip(ys, (row[seat] for row in settlement.running)):
            # SVG y grows downwards: up on the sheet is up in counters
            assert (y < zero_y) == (balance > 0) and (y > zero_y) == (balance < 0)
        # higher balance, higher on the chart
        order = sorted(range(len(ys)), key=lambda i: ys[i])
        balances = [settlement.running[i][seat] for i in order]
        assert balances == sorted(balances, reverse=True)


def test_lines_differ_in_black_and_white():
    root = parse(balance_chart_svg(["A", "B", "C"], [[1, 0, -1]]))
    lines = root.findall(f".//{SVG}polyline")
    dashes = {line.get("stroke-dasharray") for line in lines}
    assert len(dashes) == 3  # solid (None) and two distinct dash patterns
    assert {line.get("stroke") for line in lines} == {"#000"}


def test_six_members_have_six_markers():
    """A circle's season charts up to six members: each has a marker of its own in the
    legend (the fourth shared the first's filled circle, told apart by dashes alone)."""
    root = parse(balance_chart_svg(["A", "B", "C", "D", "E", "F"], [[3, 2, 1, -1, -2, -3]]))
    legend = root.find(f".//{SVG}g[@class='legend']")
    looks = []
    for marker in [el for el in legend if el.tag != f"{SVG}text" and el.tag != f"{SVG}line"]:
        shape = {k: v for k, v in marker.attrib.items() if k not in ("cx", "cy", "x", "y", "points", "d")}
        outline = marker.get("points") or marker.get("d") or ""
        # the shape drawn, apart from where: the tag, its look, and its outline's turns
        looks.append(
            (marker.tag, tuple(sorted(shape.items())), outline.count(" "), "M" in outline and outline.count("M"))
        )
    assert len(looks) == 6
    assert len(set(looks)) == 6, looks


def test_names_are_escaped_and_in_the_legend():
    names = ["<script>x</script>", 'Ann & "Bo"', "Cat"]
    svg = balance_chart_svg(names, [[Fraction(5, 2), Fraction(-5, 2), 0]])
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    root = parse(svg)
    legend = root.find(f".//{SVG}g[@class='legend']")
    texts = [t.text for t in legend.findall(f"{SVG}text")]
    assert texts == names


def test_empty_session_and_flat_lines():
    root = parse(balance_chart_svg(["A", "B", "C"], []))
    lines = root.findall(f".//{SVG}polyline")
    assert [len(points(line)) for line in lines] == [1, 1, 1]
    root = parse(balance_chart_svg(["A", "B", "C"], [[0, 0, 0]] * 4))
    assert [len(points(line)) for line in root.findall(f".//{SVG}polyline")] == [5, 5, 5]


def test_size_and_long_sessions():
    running = [[Fraction(i), Fraction(-i, 2), Fraction(-i, 2)] for i in range(1, 121)]
    svg = balance_chart_svg(["A", "B", "C"], running, width=400, height=150)
    root = parse(svg)
    assert root.get("viewBox") == "0 0 400 150"
    for line in root.findall(f".//{SVG}polyline"):
        pts = points(line)
        assert len(pts) == 121
        assert all(0 <= x <= 400 and 0 <= y <= 150 for x, y in pts)
    assert "<circle" not in svg.split('class="legend"')[0]  # no markers on 120 hands


def test_long_names_are_shortened_in_the_legend_but_kept_whole_in_the_title():
    long = "Bartholomew Fitzwilliam-Cholmondeley III"  # 40 characters, the most allowed
    root = parse(balance_chart_svg([long, "B", "C"], [[1, 0, -1]]))
    legend = root.find(f".//{SVG}g[@class='legend']")
    shown = legend.findall(f"{SVG}text")[0].text
    assert shown == "Bartholomew"  # whole words: the short name the sheet's columns use
    titles = [g.find(f"{SVG}title").text for g in root.findall(f".//{SVG}g") if g.get("class", "").startswith("player")]
    assert titles == [long, "B", "C"]


def test_the_legend_draws_emoji_in_the_emoji_face_and_keeps_names_whole():
    """Emoji in colour: the chart's face (DejaVu Sans) has a black-and-white 🃏,
    which a browser drew as a boxed star; the sheet's text draws it in colour."""
    root = parse(balance_chart_svg(["🃏 Jo", "Bartholomew-Fitzwilliam", "Ann 👑"], [[1, 0, -1]], width=360))
    texts = root.find(f".//{SVG}g[@class='legend']").findall(f"{SVG}text")
    assert "".join(texts[0].itertext()) == "🃏 Jo"
    assert [(t.text, t.get("font-family").split(",")[0]) for t in texts[0].findall(f"{SVG}tspan")] == [
        ("🃏", "Noto Color Emoji")
    ]
    assert "".join(texts[1].itertext()) == "Bartholomew…"  # cut at its hyphen, never inside a word
    assert texts[1].findall(f"{SVG}tspan") == []


@settings(max_examples=examples(40), deadline=None)
@given(
    st.integers(2, 6).flatmap(
        lambda n: st.lists(
            st.lists(st.integers(-400, 400) | st.fractions(-400, 400, max_denominator=2), min_size=n, max_size=n),
            min_size=1,
            max_size=60,
        )
    )
)
def test_whole_amounts_are_drawn_as_their_fractions_are(rows):
    """The chart keeps ints as ints (a season's running totals) and makes Fractions only
    of the rest: the picture is the one drawn from every amount as a Fraction."""
    players = [f"P{i}" for i in range(len(rows[0]))]
    as_fractions = [[Fraction(a) for a in row] for row in rows]
    assert balance_chart_svg(players, rows, x_label="evening") == balance_chart_svg(
        players, as_fractions, x_label="evening"
    )
