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

from ..words.wording import bare_amount, signed_amount
from ..words.names import emoji_spans, fit_for_chart

#: One look per seat: stroke dash pattern, stroke width, marker.
STYLES = (
    {"dash": None, "width": 1.8, "marker": "circle"},
    {"dash": "7 3", "width": 1.8, "marker": "square"},
    {"dash": "1.5 2.5", "width": 2.2, "marker": "triangle"},
    # a circle's season has more than three players: three more looks, each marker its own
    # (a circle for two members told them apart by their dashes alone), then round again
    {"dash": "8 2 2 2", "width": 1.4, "marker": "diamond"},
    {"dash": "3 3", "width": 1.2, "marker": "cross"},
    {"dash": "10 3 1.5 3 1.5 3", "width": 1.6, "marker": "down"},
)
EMOJI_FONT = "Noto Color Emoji, Apple Color Emoji, Segoe UI Emoji, emoji"
CHARTABLE = 10**15  # counters; beyond this, floats lose the lines (and no table plays for that)
MARKERS_UP_TO = 30  # hands; beyond that markers only clutter the lines
#: The type size of a chart's words and numbers, in its own units: 10 on paper; on a
#: phone a 380-unit chart is drawn about 330 px wide, where 10 was 8½ px, so the
#: app's pages draw theirs at 14 (12 px), the room for them growing with it.
PAPER_TYPE = 10
SCREEN_TYPE = 14


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


class Frame:
    """Where the plot sits in the picture, and where a hand and a balance go on it."""

    def __init__(self, width: int, height: int, hands: int, y_min: float, y_max: float, font: float = PAPER_TYPE):
        self.width, self.height, self.hands, self.y_min, self.y_max = width, height, hands, y_min, y_max
        self.font = font
        self.legend_h = 1.8 * font
        self.left, self.right, self.top, self.bottom = 4.6 * font, 12, 10 + self.legend_h, 3 * font
        self.plot_w = width - self.left - self.right
        self.plot_h = height - self.top - self.bottom

    def x_at(self, hand: int) -> float:
        return self.left + (self.plot_w * hand / self.hands if self.hands else self.plot_w / 2)

    def y_at(self, value) -> float:
        return self.top + self.plot_h * (self.y_max - float(value)) / (self.y_max - self.y_min)


def unit_name(unit: str | None) -> str:
    """The side axis's word: "counters", "pence", or the currency's code."""
    return "counters" if unit is None else "pence" if unit == "d" else unit


def balance_chart_svg(
    players,
    running_balances,
    width: int = 640,
    height: int = 260,
    title: str = "Running balances",
    x_label: str = "hand",
    at=None,
    unit: str | None = None,
    font: float = PAPER_TYPE,
) -> str:
    """Inline SVG of each player's balance after every hand.

    ``players``: three names in seat order; ``running_balances``: one
    three-amount list per hand (``Settlement.running``). Each player gets one
    ``<polyline>`` with N + 1 points (hand 0 is the start, all at 0). A season
    gives up to six players and one list per evening (``x_label="evening"``);
    ``at``: where each list is on the x axis (default 1, 2, …: every one), so that
    a long season can be drawn from a sample of its evenings (``thin``). ``unit``:
    what the amounts are in, counters (None) or a currency ("d": pence, "EUR", …);
    ``font``: the type size (``SCREEN_TYPE`` on the app's pages).
    """
    players = [str(p) for p in players]
    # exact amounts as they are (ints stay ints: a season's 1,000 evenings were 5,000 Fractions made
    # for nothing), any other number as a Fraction; only where drawn do they become floats
    series = [[0] * len(players)] + [[a if type(a) is int else Fraction(a) for a in row] for row in running_balances]
    values = [v for row in series for v in row]
    low, high = min(values + [0]), max(values + [0])
    if max(abs(low), abs(high)) > CHARTABLE:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" class="balance-chart" role="img" '
            f'width="{width}" height="40" viewBox="0 0 {width} 40" aria-label="{escape(title)}">'
            f'<text x="4" y="24" font-family="DejaVu Sans, sans-serif" font-size="12">'
            f"The balances are too large to chart.</text></svg>"
        )
    step = nice_step(float(high - low) or 10)
    y_min = math.floor(float(low) / step) * step
    y_max = math.ceil(float(high) / step) * step
    if y_max == y_min:
        y_min, y_max = -step, step
    xs = [0] + (list(at) if at is not None else list(range(1, len(series))))
    frame = Frame(width, height, xs[-1], y_min, y_max, font)
    frame.xs = xs
    if len(players) > 3:  # the legend's further rows
        frame.top += 1.4 * font * ((len(players) - 1) // 3)
        frame.plot_h = height - frame.top - frame.bottom
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="balance-chart" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'aria-label={quoteattr(title)} font-family="DejaVu Sans, sans-serif" font-size="{_num(font)}">',
        f"<title>{escape(title)}</title>",
    ]
    out += axes(frame, step, x_label, unit)
    out += player_lines(frame, players, series)
    out += legend(frame, players)
    out.append("</svg>")
    return "\n".join(out)


def axes(frame: Frame, step: float, x_label: str = "hand", unit: str | None = None) -> list[str]:
    """The grid and the counters (or money, ``unit``) up the side, the hands along the bottom, the frame
    and the zero line."""
    left, top, plot_w, plot_h = frame.left, frame.top, frame.plot_w, frame.plot_h
    ticks, value = [], frame.y_min
    while value <= frame.y_max + step / 1000:
        ticks.append(value)
        value += step
    out = ['<g class="axis" stroke="#999" stroke-width="0.5">']
    for tick in ticks:
        y = _num(frame.y_at(tick))
        out.append(f'<line x1="{_num(left)}" y1="{y}" x2="{_num(left + plot_w)}" y2="{y}"/>')
    out.append("</g>")
    out.append('<g class="labels" fill="#000" text-anchor="end">')
    for tick in ticks:
        label = bare_amount(Fraction(tick).limit_denominator(2 if unit is None else 100), unit)
        out.append(f'<text x="{_num(left - 4)}" y="{_num(frame.y_at(tick) + 0.3 * frame.font)}">{escape(label)}</text>')
    out.append("</g>")
    hands = frame.hands
    x_step = max(1, int(nice_step(hands, 10))) if hands else 1  # about ten labels at most
    out.append('<g class="labels" fill="#000" text-anchor="middle">')
    for hand in range(0, hands + 1, x_step):
        out.append(f'<text x="{_num(frame.x_at(hand))}" y="{_num(top + plot_h + 1.2 * frame.font)}">{hand}</text>')
    out.append(f'<text x="{left + plot_w / 2:.0f}" y="{frame.height - 4}">{escape(x_label)}</text>')
    out.append("</g>")
    out.append(
        f'<text x="{_num(frame.font)}" y="{top + plot_h / 2:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 {_num(frame.font)} {top + plot_h / 2:.0f})">{escape(unit_name(unit))}</text>'
    )
    out.append(
        f'<rect x="{_num(left)}" y="{_num(top)}" width="{_num(plot_w)}" height="{_num(plot_h)}" '
        f'fill="none" stroke="#000" stroke-width="0.6"/>'
    )
    zero = _num(frame.y_at(0))
    out.append(
        f'<line class="zero" x1="{_num(left)}" y1="{zero}" x2="{_num(left + plot_w)}" y2="{zero}" '
        f'stroke="#000" stroke-width="1"/>'
    )
    return out


def player_lines(frame: Frame, players: list, series: list) -> list[str]:
    """One line per player (and its markers, on short sessions)."""
    out = []
    xs = getattr(frame, "xs", None) or list(range(frame.hands + 1))
    markers = len(xs) - 1 <= MARKERS_UP_TO
    for seat, name in enumerate(players):
        style = STYLES[seat % len(STYLES)]
        points = " ".join(f"{_num(frame.x_at(x))},{_num(frame.y_at(series[i][seat]))}" for i, x in enumerate(xs))
        dash = f' stroke-dasharray="{style["dash"]}"' if style["dash"] else ""
        out.append(f'<g class="player seat-{seat}"><title>{escape(name)}</title>')
        out.append(
            f'<polyline points="{points}" fill="none" stroke="#000" '
            f'stroke-width="{style["width"]}"{dash} stroke-linejoin="round"/>'
        )
        if markers:
            for i, x in enumerate(xs):
                out.append(_marker(style["marker"], frame.x_at(x), frame.y_at(series[i][seat])))
        out.append("</g>")
    return out


def legend(frame: Frame, players: list) -> list[str]:
    """The legend along the top (a row of three at most, more rows above the plot)."""
    slot = frame.plot_w / max(1, min(3, len(players)))
    out = ['<g class="legend" fill="#000">']
    for seat, name in enumerate(players):
        style = STYLES[seat % len(STYLES)]
        x0, y = frame.left + (seat % 3) * slot, 0.9 * frame.font + 1.4 * frame.font * (seat // 3)
        dash = f' stroke-dasharray="{style["dash"]}"' if style["dash"] else ""
        out.append(
            f'<line x1="{_num(x0)}" y1="{y}" x2="{_num(x0 + 28)}" y2="{y}" stroke="#000" '
            f'stroke-width="{style["width"]}"{dash}/>'
        )
        out.append(_marker(style["marker"], x0 + 14, y))
        shown, scale = fit_for_chart(
            name, max(3.0, (slot - 38) / frame.font)
        )  # em of the chart's type that fit the slot
        size = f' font-size="{_num(frame.font * scale)}"' if scale < 1 else ""
        out.append(f'<text x="{_num(x0 + 34)}" y="{_num(y + 0.3 * frame.font)}"{size}>{legend_text(shown)}</text>')
    out.append("</g>")
    return out


def legend_text(name: str) -> str:
    """A name for an SVG ``<text>``, its emoji in the colour emoji face: the chart's
    own face (DejaVu Sans) has black-and-white glyphs for some ("🃏"), which a
    browser would draw, while the sheet's text draws them in colour."""
    return "".join(
        f'<tspan font-family="{EMOJI_FONT}">{escape(run)}</tspan>' if emoji else escape(run)
        for run, emoji in emoji_spans(name)
    )


def _marker(kind: str, x: float, y: float) -> str:
    if kind == "circle":
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2.2" fill="#000"/>'
    if kind == "square":
        return (
            f'<rect x="{_num(x - 2.2)}" y="{_num(y - 2.2)}" width="4.4" height="4.4" '
            f'fill="#fff" stroke="#000" stroke-width="1"/>'
        )
    if kind == "diamond":
        return (
            f'<polygon points="{_num(x)},{_num(y - 3.2)} {_num(x + 3.2)},{_num(y)} {_num(x)},{_num(y + 3.2)} '
            f'{_num(x - 3.2)},{_num(y)}" fill="#000"/>'
        )
    if kind == "cross":
        return (
            f'<path d="M{_num(x - 2.6)},{_num(y - 2.6)}L{_num(x + 2.6)},{_num(y + 2.6)}'
            f'M{_num(x - 2.6)},{_num(y + 2.6)}L{_num(x + 2.6)},{_num(y - 2.6)}" stroke="#000" stroke-width="1.4"/>'
        )
    if kind == "down":
        return _triangle(x, y, 1, 'fill="#000"')
    return _triangle(x, y, -1, 'fill="#fff" stroke="#000" stroke-width="1"')


def _triangle(x: float, y: float, tip: int, paint: str) -> str:
    """A marker's triangle, its tip up (``tip`` -1) or down (1)."""
    return (
        f'<polygon points="{_num(x)},{_num(y + 3 * tip)} {_num(x - 2.8)},{_num(y - 2 * tip)} '
        f'{_num(x + 2.8)},{_num(y - 2 * tip)}" {paint}/>'
    )


def thin(rows: list, most: int = 250) -> tuple[list, list[int]]:
    """At most about ``most`` of ``rows`` (one per evening) for a chart, and where each
    is (1-based): in every run of evenings, the one where each player was lowest and
    highest, in order, and always the last, so that no peak or trough is lost at the
    chart's width."""
    n = len(rows)
    if n <= most:
        return rows, list(range(1, n + 1))
    size = -(-2 * n * len(rows[0]) // most) if rows and rows[0] else n
    picked = set()
    for start in range(0, n, size):
        run = range(start, min(n, start + size))
        for seat in range(len(rows[0])):
            picked.add(min(run, key=lambda i: rows[i][seat]))
            picked.add(max(run, key=lambda i: rows[i][seat]))
    picked.add(n - 1)
    order = sorted(picked)
    return [rows[i] for i in order], [i + 1 for i in order]


def bars_svg(
    rows, width: int = 380, title: str = "Net over the season", unit: str | None = None, font: float = PAPER_TYPE
) -> str:
    """Inline SVG of one horizontal bar a row (``(label, amount)``, exact amounts, in
    counters or the currency ``unit``), to the right of the zero line for those up, to
    the left for those down; each bar's amount written beside it. Black on white, as
    the balance chart; ``font`` as there."""
    rows = [(str(label), Fraction(amount)) for label, amount in rows]
    bar_h, gap, left = 1.6 * font, 0.6 * font, max(90, 7 * font)
    height = max(1, len(rows)) * (bar_h + gap) + gap
    most = max([abs(a) for _, a in rows] + [Fraction(1)])
    if most > CHARTABLE:
        most = Fraction(CHARTABLE)
    half = (width - left - 12) / 2
    zero = left + half
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="balance-chart bars" role="img" width="{width}" '
        f'height="{_num(height)}" viewBox="0 0 {width} {_num(height)}" aria-label={quoteattr(title)} '
        f'font-family="DejaVu Sans, sans-serif" font-size="{_num(font)}">',
        f"<title>{escape(title)}</title>",
    ]
    for i, (label, amount) in enumerate(rows):
        y = gap + i * (bar_h + gap)
        length = float(min(abs(amount), most) / most) * (half - 4 * font)
        x = zero if amount >= 0 else zero - length
        shown, scale = fit_for_chart(label, (left - 8) / font)
        size = f' font-size="{_num(font * scale)}"' if scale < 1 else ""
        out.append(
            f'<text x="{_num(left - 6)}" y="{_num(y + bar_h - 0.4 * font)}" text-anchor="end" fill="#000"{size}>'
            f"{legend_text(shown)}</text>"
        )
        out.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(max(length, 0.5))}" height="{_num(bar_h)}" '
            f'fill="{"#000" if amount >= 0 else "#fff"}" stroke="#000" stroke-width="1"/>'
        )
        text_x = zero + length + 4 if amount >= 0 else zero - length - 4
        out.append(
            f'<text x="{_num(text_x)}" y="{_num(y + bar_h - 0.4 * font)}" text-anchor="{"start" if amount >= 0 else "end"}" '
            f'fill="#000">{escape(signed_amount(amount, unit))}</text>'
        )
    out.append(
        f'<line class="zero" x1="{_num(zero)}" y1="0" x2="{_num(zero)}" y2="{_num(height)}" stroke="#000" stroke-width="1"/>'
    )
    out.append("</svg>")
    return "\n".join(out)
