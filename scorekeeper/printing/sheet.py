"""The session sheet: one printable page (or several) per session, as HTML and PDF.

``sheet_context(record)`` turns a valid ``gleek-session/1`` record into plain
data for ``templates/sheet.html``; ``render_sheet_html`` renders it with a
standalone Jinja environment (no Flask needed), the print stylesheet
``static/sheet.css`` inlined so the HTML stands alone; ``render_sheet_pdf``
prints that HTML with WeasyPrint, imported only when a PDF is asked for (it
takes about half a second to import). The hand table is a monospaced ledger,
one table cell per hand (``ledger``): WeasyPrint's cost is per box, and a cell
per amount made a 120-hand sheet take seconds.
"""

from __future__ import annotations

import datetime
import re
import threading
from fractions import Fraction

import jinja2
from markupsafe import Markup

from ..places import resource_dir
from .chart import balance_chart_svg
from ..words.localtime import printed_line
from ..words.wording import long_date, money, session_money, stake_label
from ..words.names import short_names  # noqa: F401 (the sheet's and the pages' one way of shortening a name)
from ..rules import BOOKS, InvalidRecord
from ..rules.core import SEATS, format_counters
from ..rules.hand import sheet_words
from ..rules.record import dump, settle, validate
from ..files.upload import ATTACHMENT

TEMPLATES = resource_dir("templates")
STATIC = resource_dir("static")
ROOT = STATIC.parent  # where the sheet's relative links (static/…) resolve
STYLESHEET = STATIC / "sheet.css"

PAPERS = {"a4": "A4", "letter": "letter"}
DEFAULT_TITLE = "Gleek session"

_environment = None


def environment():
    """The sheet's own Jinja environment (autoescaping), built once."""
    global _environment
    if _environment is None:
        _environment = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=jinja2.select_autoescape(["html", "xml"], default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
    return _environment


def sum_line(amounts) -> str:
    """``18 − 9 − 9 = 0``: three amounts written as the sum they make."""
    amounts = [Fraction(a) for a in amounts]
    parts = [format_counters(amounts[0])]
    for amount in amounts[1:]:
        parts.append(("− " if amount < 0 else "+ ") + format_counters(abs(amount)))
    return f"{' '.join(parts)} = {format_counters(sum(amounts))}"


_cells: dict = {}


def _cell(amount) -> dict:
    """An amount as the sheet shows it (the same few amounts come back again and
    again, so each is formatted once; the dicts are read, never changed)."""
    cell = _cells.get(amount)
    if cell is None:
        if len(_cells) > 10_000:
            _cells.clear()
        value = Fraction(amount)
        cell = _cells[amount] = {"text": format_counters(value), "zero": value == 0, "negative": value < 0}
    return cell


def describe_hand(book, options: dict, hand: dict, names, phases: dict) -> dict:
    """The table's words for what happened in a hand (not what it cost): one part
    per question of the book's hand (``rules.hand.sheet_words``), so more recorded
    detail is more parts, and a book's own questions print without code here."""
    return {"words": sheet_words(book, hand, options, names, phases), "note": hand.get("note", "").strip()}


def sheet_context(record: dict, printed: datetime.datetime | None = None, agreed: str | None = None) -> dict:
    """Everything ``templates/sheet.html`` needs, from a valid record;
    ``printed`` (an aware time in the viewer's zone) stamps the sheet; ``agreed``
    says where the hands stand with the players' OK, as the app knows it (its
    disputes and who keeps the score are not in the record), else from the record.

    Raises ``InvalidRecord`` if the record is not valid.
    """
    problems = validate(record)
    if problems:
        raise InvalidRecord(problems)
    book = BOOKS[record["rulebook"]]
    settlement = settle(record)
    names, stake = settlement.players, record.get("stake")
    labels = short_names(names)
    options = book.resolved_options(record["options"])
    rows = hand_rows(book, options, record, settlement, labels)
    title = (record.get("title") or "").strip() or DEFAULT_TITLE
    played_on = long_date(record.get("played_on"))
    return {
        "title": title,
        "running_title": f"{title} — {played_on}" if played_on else title,
        "played_on": played_on,
        "played_on_iso": record.get("played_on"),
        "printed": printed_line(printed) if printed else None,
        "printed_iso": printed.isoformat(timespec="minutes") if printed else None,
        "rulebook": {"id": book.id, "name": book.name, "source": book.source},
        "options": [{"label": o.label, "value": "yes" if options[o.name] else "no"} for o in book.options],
        "players": list(names),
        "short": labels,  # the column heads and the hand lines call the players so
        # how the hand lines call each player, where that is not the whole name
        "labels": [{"name": n, "label": label} for n, label in zip(names, labels) if n != label],
        "stake": stake,
        "stake_label": stake_label(stake),
        "phases": [{"id": p.id, "heading": p.title, "short": p.short} for p in book.phase_info],
        "column_key": ", ".join(f"{p.short} = {p.title}" for p in book.phase_info)
        + ", Hand = the hand's total, Bal. = running balance",
        "hands": rows,
        "hand_count": len(rows),
        "agreed": agreed if agreed is not None else agreed_line(record),
        "chart_svg": Markup(merge_markers(balance_chart_svg(names, settlement.running, width=500, height=200))),
        "settlement": settlement,
        **summary_of(book, settlement, stake),
    }


def hand_rows(book, options: dict, record: dict, settlement, labels) -> list[dict]:
    """Each hand: what happened in words, and each player's phases, total and balance."""
    names, rows = settlement.players, []
    for result, hand, running in zip(settlement.hands, record["hands"], settlement.running):
        rows.append(
            {
                "number": result.number,
                "dealer": names[result.dealer],
                **describe_hand(book, options, hand, labels, result.phases),
                "disputes": disputes_of(hand, names),
                "players": [
                    {
                        "phases": [_cell(result.phases[p][seat]) for p in book.phase_ids],
                        "total": _cell(result.total[seat]),
                        "balance": _cell(running[seat]),
                    }
                    for seat in SEATS
                ],
            }
        )
    return rows


def disputes_of(hand: dict, names) -> list[str]:
    """Who disputed the hand and why, as the sheet prints it under the hand's line:
    "Cat: “the ruff was 4, not 3”", or "Cat (no reason given)"."""
    out = []
    for dispute in hand.get("disputes", ()):
        reason = dispute.get("reason", "").strip()
        name = names[dispute["seat"]]
        out.append(f"{name}: “{reason}”" if reason else f"{name} (no reason given)")
    return out


def summary_of(book, settlement, stake) -> dict:
    """The foot of the sheet: each phase's totals and checks, the balances (in money
    that adds up) and the payments."""
    names, phase_totals = settlement.players, settlement.phase_totals()
    totals = [
        {"phases": [_cell(phase_totals[p][seat]) for p in book.phase_ids], "total": _cell(settlement.balances[seat])}
        for seat in SEATS
    ]
    checks = [
        {"phase": p.title, "line": sum_line(phase_totals[p.id]), "ok": sum(phase_totals[p.id]) == 0}
        for p in book.phase_info
    ]
    hands_ok = all(sum(r.total) == 0 for r in settlement.hands)
    sheet_sum = sum(settlement.balances)
    cash = session_money(settlement, stake)
    balances = [
        {
            "name": names[seat],
            "amount": format_counters(balance),
            "money": cash.balances[seat] if cash else None,
            "sign": "up" if balance > 0 else "down" if balance < 0 else "square",
        }
        for seat, balance in enumerate(settlement.balances)
    ]
    payments = []
    for number, payment in enumerate(settlement.payments):
        sentence = f"{names[payment.payer]} pays {names[payment.payee]} {money(payment.amount, None)}"
        payments.append(sentence + (f" = {cash.payments[number]}" if cash else ""))
    return {
        "totals": totals,
        "balances": balances,
        "payments": payments,
        "money_note": cash.note if cash else None,
        "checks": checks,
        "hands_ok": hands_ok,
        "sheet_sum": format_counters(sheet_sum),
        "balanced": sheet_sum == 0 and hands_ok and all(c["ok"] for c in checks),
    }


def agreed_line(record: dict) -> str | None:
    """ "12 of 12 hands agreed" where each hand needs the other players' OK (two of
    them, not counting the scorer's own, and nobody disputing it), as the table
    says it: "11 of 12 hands agreed; not agreed: 7 (disputed)"."""
    if not record.get("confirm"):
        return None
    hands, scorer = record["hands"], record.get("scorer")
    not_yet = []
    for number, hand in enumerate(hands, 1):
        if hand.get("disputes"):
            not_yet.append(f"{number} (disputed)")
        elif len(set(hand.get("agreed", ())) - {scorer}) < 2:
            not_yet.append(str(number))
    agreed = f"{len(hands) - len(not_yet)} of {len(hands)} hand{'s' if len(hands) != 1 else ''} agreed"
    return agreed + ("; not agreed: " + ", ".join(not_yet) if not_yet else "")


# ---------------------------------------------------------------- the chart

MARKER = re.compile(r'<(circle|rect|polygon)((?:\s+[\w-]+="[^"]*")*)\s*/>')
MARKER_RUN = re.compile(rf"{MARKER.pattern}(?:\s*{MARKER.pattern})+")
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
MARKER_STYLE = ("fill", "stroke", "stroke-width")
MARKER_SHAPE = {"circle": {"cx", "cy", "r"}, "rect": {"x", "y", "width", "height"}, "polygon": {"points"}}


def _marker_path(tag: str, a: dict) -> str:
    """A marker's outline as path data."""
    if tag == "circle":
        cx, cy, r = (float(a[k]) for k in ("cx", "cy", "r"))
        return f"M{cx - r:g},{cy:g}a{r:g},{r:g} 0 1,0 {2 * r:g},0a{r:g},{r:g} 0 1,0 {-2 * r:g},0z"
    if tag == "rect":
        x, y, w, h = (float(a[k]) for k in ("x", "y", "width", "height"))
        return f"M{x:g},{y:g}h{w:g}v{h:g}h{-w:g}z"
    return "M" + "L".join(a["points"].split()) + "z"


def _merge_run(match) -> str:
    markers = [(m.group(1), dict(ATTRIBUTE.findall(m.group(2)))) for m in MARKER.finditer(match.group(0))]
    styles = {tuple(a.get(k) for k in MARKER_STYLE) for _, a in markers}
    if len(styles) != 1 or any(set(a) != MARKER_SHAPE[tag] | {k for k in MARKER_STYLE if k in a} for tag, a in markers):
        return match.group(0)  # not plain markers of one look: leave them be
    style = "".join(f' {k}="{v}"' for k, v in zip(MARKER_STYLE, styles.pop()) if v is not None)
    return f'<path d="{"".join(_marker_path(tag, a) for tag, a in markers)}"{style}/>'


def merge_markers(svg: str) -> str:
    """The chart with each run of same-looking markers (a player's circles,
    squares or triangles) drawn as one ``<path>`` of the same outlines:
    WeasyPrint takes ~0.4 ms an SVG element, and a 12-hand chart's 39 markers
    cost 15 ms. Anything else in the chart is left as it is."""
    return MARKER_RUN.sub(_merge_run, svg)


# ---------------------------------------------------------------- the ledger

#: Landscape page width less the side margins of static/sheet.css (10 mm each).
CONTENT_WIDTH_PT = {"a4": 297 / 25.4 * 72 - 56.7, "letter": 11 * 72 - 56.7}
#: Every glyph of DejaVu Sans Mono (regular, bold, oblique) is this wide, in em;
#: the amounts are set in it so that one text per hand lines up in columns.
MONO_EM = 1233 / 2048
NUMBER_PT = 7.0  # the table's type size, unless the amounts need it smaller
MIN_NUMBER_PT = 4.0
#: The least width of the "what happened" column, in the table's ``ch``.
LEAST_WORDS_CH = 60
HAND_HEADINGS = ("Hand", "Bal.")
GROUP_GAP = 2  # characters before each player's amounts (the player rule runs in it)
WORDS_HEADING = "Hand: what happened (dealer · trump · stock · ruff · sets · tricks in seat order)"


def _fill(colour: str) -> str:
    """A one-colour image for a ``background`` layer (WeasyPrint 70 paints a
    one-colour ``linear-gradient`` over the whole box, whatever its size)."""
    return (
        "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='4' height='4'%3E"
        f"%3Crect width='4' height='4' fill='%23{colour}'/%3E%3C/svg%3E\")"
    )


#: The table's background layers: image, width, colour role.
RULES = {"player": (_fill("000"), "0.8pt"), "hand": (_fill("888"), "0.4pt"), "balance": (_fill("e6e6e6"), None)}


def ledger(context: dict, paper: str) -> dict:
    """The hand table: per hand, what happened in words (a cell of wrapping
    text) and its amounts as one monospaced text.

    WeasyPrint's time goes on boxes (each table cell, line and inline element
    costs about as much as a short paragraph), far less on characters: a hand
    written as 28 cells took 35–45 ms, as two cells a few ms. The amounts are
    DejaVu Sans Mono text (``white-space: pre``) whose columns line up because
    every glyph has the same width and only digits, signs and ½ are in it. The
    player rules, hand-total rules and balance bands are background layers of
    the table, placed in ``ch`` (drawn once a page, not once a row). The type is
    7 pt unless the amounts need it smaller to leave the words room.
    """
    hands = context["hands"]

    def widest(texts, least):
        return max([least] + [len(t) for t in texts])

    amounts = [cell["text"] for row in hands for p in row["players"] for cell in p["phases"]]
    amounts += [cell["text"] for t in context["totals"] for cell in t["phases"]]
    amount_w = widest(amounts + [p["short"] for p in context["phases"]], 3)
    total_w = widest([p["total"]["text"] for row in hands for p in row["players"]], len(HAND_HEADINGS[0]))
    balance_w = widest(
        [p["balance"]["text"] for row in hands for p in row["players"]]
        + [t["total"]["text"] for t in context["totals"]],
        len(HAND_HEADINGS[1]),
    )
    phases = len(context["phases"])
    phases_ch = GROUP_GAP + phases * amount_w + (phases - 1)
    total_ch = 2 + total_w
    balance_ch = 1 + balance_w + 1
    player_ch = phases_ch + total_ch + balance_ch
    amounts_ch = 3 * player_ch

    width_pt = CONTENT_WIDTH_PT[paper]
    font_pt = max(MIN_NUMBER_PT, min(NUMBER_PT, width_pt / ((amounts_ch + LEAST_WORDS_CH) * MONO_EM)))
    font_pt = int(font_pt * 100) / 100
    width_ch = int(width_pt / (font_pt * MONO_EM))
    words_ch = max(LEAST_WORDS_CH, width_ch - amounts_ch)
    width_ch = words_ch + amounts_ch

    def amounts_text(groups) -> str:
        out = ""
        for phase_texts, total, balance in groups:
            out += " " * GROUP_GAP + " ".join(t.rjust(amount_w) for t in phase_texts)
            out += " " * 2 + total.rjust(total_w) + " " + balance.rjust(balance_w) + " "
        return out.rstrip()

    rows = [
        {
            "number": row["number"],
            "words": " · ".join(row["words"]),
            "amounts": amounts_text(
                [([c["text"] for c in p["phases"]], p["total"]["text"], p["balance"]["text"]) for p in row["players"]]
            ),
            "note": row["note"],
            "disputes": row["disputes"],
        }
        for row in hands
    ]
    phase_headings = amounts_text([([p["short"] for p in context["phases"]], *HAND_HEADINGS)] * 3)
    totals = amounts_text([([c["text"] for c in t["phases"]], "", t["total"]["text"]) for t in context["totals"]])
    background = ledger_background(words_ch, player_ch, phases_ch, total_ch, balance_ch)
    return {
        "background": background,
        "font_pt": font_pt,
        "width_ch": width_ch,
        "columns": {"words": words_ch, "player": player_ch},
        "heading": WORDS_HEADING,
        "phase_headings": phase_headings,
        "rows": rows,
        "totals": totals,
    }


def ledger_background(words_ch, player_ch, phases_ch, total_ch, balance_ch) -> str:
    """The player rules, the hand-total rules and the balance bands, as the table's
    background (one image each, drawn once a page, not once a row)."""
    layers = []
    for seat in range(3):
        start = words_ch + seat * player_ch
        layers.append(("player", start + GROUP_GAP / 2 - 0.1, None))
        layers.append(("hand", start + phases_ch + 0.9, None))
        layers.append(("balance", start + phases_ch + total_ch, balance_ch))
    return "; ".join(
        [
            "background-image: " + ", ".join(RULES[kind][0] for kind, _, _ in layers),
            "background-position: " + ", ".join(f"{x:g}ch 0" for _, x, _ in layers),
            "background-size: " + ", ".join(f"{RULES[kind][1] or f'{w}ch'} 100%" for kind, _, w in layers),
            "background-repeat: no-repeat",
        ]
    )


def page_css(paper: str) -> str:
    """The ``@page`` size for the chosen paper: landscape, as the table needs it.

    The hand table has 7 + 21 columns (what happened, then each player's five
    phases, hand total and running balance); it does not fit a portrait page
    at a legible size, so the sheet is always landscape.
    """
    try:
        size = PAPERS[paper.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}") from None
    return f"@page {{ size: {size} landscape; }}"


def _render_html(
    record: dict,
    paper: str,
    inline_css: bool,
    back_url: str | None = None,
    printed: datetime.datetime | None = None,
    agreed: str | None = None,
) -> str:
    size = page_css(paper)  # refuses an unknown paper before any work
    paper = paper.lower()
    context = sheet_context(record, printed, agreed)
    template = environment().get_template("sheet.html")
    return template.render(
        sheet=context,
        paper=paper,
        ledger=ledger(context, paper),
        stylesheet=Markup(STYLESHEET.read_text(encoding="utf-8")) if inline_css else None,
        page_css=Markup(size),
        back_url=back_url,
    )


def render_sheet_html(
    record: dict,
    paper: str = "a4",
    back_url: str | None = None,
    printed: datetime.datetime | None = None,
    agreed: str | None = None,
) -> str:
    """The session sheet as one standalone HTML document (stylesheet inlined);
    ``back_url`` adds a link back to the table, on screen only; ``printed`` (an
    aware time in the viewer's zone) stamps it "printed 1 Dec 2026, 23:40 GMT"."""
    return _render_html(record, paper, inline_css=True, back_url=back_url, printed=printed, agreed=agreed)


_printer = threading.local()


def _print_resources(paper: str):
    """WeasyPrint's font configuration and the parsed print stylesheet, made
    once per thread (Pango is not thread-safe) and paper: making them costs
    about 10 ms a sheet, two thirds of a one-line document's whole time."""
    import weasyprint  # ~0.5 s: only where a PDF is made (the renderer process, the sheet command)
    from weasyprint.text.fonts import FontConfiguration  # (WeasyPrint, as above)

    css = STYLESHEET.read_text(encoding="utf-8") + "\n" + page_css(paper)
    cache = getattr(_printer, "cache", None)
    if cache is None:
        cache = _printer.cache = {"font_config": FontConfiguration(), "stylesheets": {}}
    stylesheets = cache["stylesheets"]
    if css not in stylesheets:
        stylesheets.clear()
        stylesheets[css] = weasyprint.CSS(string=css, font_config=cache["font_config"])
    return cache["font_config"], stylesheets[css]


def render_sheet_pdf(record: dict, paper: str = "a4", printed: datetime.datetime | None = None) -> bytes:
    """The session sheet as PDF bytes (WeasyPrint, imported only here).

    The same document as ``render_sheet_html``, its stylesheet given to
    WeasyPrint already parsed rather than inlined. The PDF carries the record
    itself, exactly as the export route gives it (``dump``), as the attachment
    ``session.json``: importing the PDF restores the session
    (``scorekeeper.files.upload``)."""
    return print_pdf(*sheet_pdf_parts(record, paper, printed))


def sheet_pdf_parts(
    record: dict, paper: str = "a4", printed: datetime.datetime | None = None, agreed: str | None = None
) -> tuple:
    """What ``print_pdf`` needs, made where the rule books are (the app's process):
    the HTML, the paper and the record's text to attach."""
    return (_render_html(record, paper, inline_css=False, printed=printed, agreed=agreed), paper.lower(), dump(record))


def print_pdf(html: str, paper: str, record_text: str) -> bytes:
    """HTML to PDF with WeasyPrint (this needs no rule book: a separate renderer
    process can run it, see ``pdf.py``)."""
    import weasyprint  # ~0.5 s: only where a PDF is made (the renderer process, the sheet command)

    font_config, stylesheet = _print_resources(paper)
    attachment = weasyprint.Attachment(
        string=record_text,
        name=ATTACHMENT,
        relationship="Data",
        description="This session's record (gleek-session/1): import this PDF or this file to restore it",
    )
    return weasyprint.HTML(string=html, base_url=str(ROOT) + "/").write_pdf(
        stylesheets=[stylesheet], font_config=font_config, attachments=[attachment]
    )
