"""The balance chart: the three players' running balances as inline SVG.

Server-generated, no JavaScript, readable in black and white: each player has
their own dash pattern (and marker shape while there are few hands), named in
the legend. x is the hand number from 0 (before the first deal, everyone at 0)
to N; y is counters, with the zero line drawn heavier.

Coordinates are display only, so they are rounded floats; the amounts they
come from stay exact.

Colours are three: ink ``#000``, paper ``#fff`` (hollow markers) and the grid
``#999``, as attributes, so the PDF and print are black on white; the app's
dark mode repaints exactly these (``static/app.css``, ``.balance-chart``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from xml.sax.saxutils import escape, quoteattr

from .rules.core import format_counters

#: One look per seat: stroke dash pattern, stroke width, marker.
STYLES = (
    {"dash": None, "width": 1.8, "marker": "circle"},
    {"dash": "7 3", "width": 1.8, "marker": "square"},
    {"dash": "1.5 2.5", "width": 2.2, "marker": "triangle"},
)
CHARTABLE = 10 ** 15  # counters; beyond this, floats lose the lines (and no table plays for that)
MARKERS_UP_TO = 30  # hands; beyond that markers only clutter the lines


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2, 5 × 10ⁿ) giving about ``ticks`` ticks over ``span``."""
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1, factor * power)
    return max(1, 10 * power)


def _num(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def balance_chart_svg(players, running_balances, width: int = 640, height: int = 260,
                      title: str = "Running balances") -> str:
    """Inline SVG of each player's balance after every hand.

    ``players``: three names in seat order; ``running_balances``: one
    three-amount list per hand (``Settlement.running``). Each player gets one
    ``<polyline>`` with N + 1 points (hand 0 is the start, all at 0).
    """
    players = [str(p) for p in players]
    series = [[Fraction(0)] * len(players)] + [[Fraction(a) for a in row] for row in running_balances]
    hands = len(series) - 1

    legend_h = 18
    left, right, top, bottom = 46, 12, 10 + legend_h, 30
    plot_w, plot_h = width - left - right, height - top - bottom

    values = [v for row in series for v in row]
    low, high = min(values + [Fraction(0)]), max(values + [Fraction(0)])
    if max(abs(low), abs(high)) > CHARTABLE:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="balance-chart" role="img" '
                f'width="{width}" height="40" viewBox="0 0 {width} 40" aria-label="{escape(title)}">'
                f'<text x="4" y="24" font-family="DejaVu Sans, sans-serif" font-size="12">'
                f'The balances are too large to chart.</text></svg>')
    step = nice_step(float(high - low) or 10)
    y_min = math.floor(float(low) / step) * step
    y_max = math.ceil(float(high) / step) * step
    if y_max == y_min:
        y_min, y_max = -step, step

    def x_at(hand: int) -> float:
        return left + (plot_w * hand / hands if hands else plot_w / 2)

    def y_at(value) -> float:
        return top + plot_h * (y_max - float(value)) / (y_max - y_min)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="balance-chart" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'aria-label={quoteattr(title)} font-family="DejaVu Sans, sans-serif" font-size="10">',
        f"<title>{escape(title)}</title>",
    ]
    # grid and y ticks
    out.append('<g class="axis" stroke="#999" stroke-width="0.5">')
    ticks = []
    value = y_min
    while value <= y_max + step / 1000:
        ticks.append(value)
        value += step
    for tick in ticks:
        y = _num(y_at(tick))
        out.append(f'<line x1="{left}" y1="{y}" x2="{left + plot_w}" y2="{y}"/>')
    out.append("</g>")
    out.append('<g class="labels" fill="#000" text-anchor="end">')
    for tick in ticks:
        label = format_counters(Fraction(tick).limit_denominator(2))
        out.append(f'<text x="{left - 4}" y="{_num(y_at(tick) + 3)}">{escape(label)}</text>')
    out.append("</g>")
    # x ticks: about ten labels at most
    x_step = max(1, int(nice_step(hands, 10))) if hands else 1
    out.append('<g class="labels" fill="#000" text-anchor="middle">')
    for hand in range(0, hands + 1, x_step):
        out.append(f'<text x="{_num(x_at(hand))}" y="{top + plot_h + 12}">{hand}</text>')
    out.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 4}">hand</text>')
    out.append("</g>")
    out.append(f'<text x="10" y="{top + plot_h / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 10 {top + plot_h / 2:.0f})">counters</text>')
    # frame and the zero line
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" '
               f'fill="none" stroke="#000" stroke-width="0.6"/>')
    zero = _num(y_at(0))
    out.append(f'<line class="zero" x1="{left}" y1="{zero}" x2="{left + plot_w}" y2="{zero}" '
               f'stroke="#000" stroke-width="1"/>')
    # one line per player
    markers = hands <= MARKERS_UP_TO
    for seat, name in enumerate(players):
        style = STYLES[seat % len(STYLES)]
        points = " ".join(f"{_num(x_at(h))},{_num(y_at(series[h][seat]))}" for h in range(hands + 1))
        dash = f' stroke-dasharray="{style["dash"]}"' if style["dash"] else ""
        out.append(f'<g class="player seat-{seat}"><title>{escape(name)}</title>')
        out.append(f'<polyline points="{points}" fill="none" stroke="#000" '
                   f'stroke-width="{style["width"]}"{dash} stroke-linejoin="round"/>')
        if markers:
            for h in range(hands + 1):
                out.append(_marker(style["marker"], x_at(h), y_at(series[h][seat])))
        out.append("</g>")
    # legend along the top
    slot = plot_w / max(1, len(players))
    out.append('<g class="legend" fill="#000">')
    for seat, name in enumerate(players):
        style = STYLES[seat % len(STYLES)]
        x0 = left + seat * slot
        y = 9
        dash = f' stroke-dasharray="{style["dash"]}"' if style["dash"] else ""
        out.append(f'<line x1="{_num(x0)}" y1="{y}" x2="{_num(x0 + 28)}" y2="{y}" stroke="#000" '
                   f'stroke-width="{style["width"]}"{dash}/>')
        out.append(_marker(style["marker"], x0 + 14, y))
        room = max(4, min(24, int((slot - 38) / 5.8)))  # characters of 10-px text that fit the slot
        shown = name if len(name) <= room else name[:room - 1] + "…"
        out.append(f'<text x="{_num(x0 + 34)}" y="{y + 3}">{escape(shown)}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def _marker(kind: str, x: float, y: float) -> str:
    if kind == "circle":
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2.2" fill="#000"/>'
    if kind == "square":
        return (f'<rect x="{_num(x - 2.2)}" y="{_num(y - 2.2)}" width="4.4" height="4.4" '
                f'fill="#fff" stroke="#000" stroke-width="1"/>')
    return (f'<polygon points="{_num(x)},{_num(y - 3)} {_num(x - 2.8)},{_num(y + 2)} '
            f'{_num(x + 2.8)},{_num(y + 2)}" fill="#fff" stroke="#000" stroke-width="1"/>')
