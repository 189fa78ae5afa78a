"""The season sheet: a circle's season as a printable PDF for the regulars.

``season_sheet_pdf(season, owed, title, paper="A4", attachment=None)`` prints a
``rules.season.Season`` (and what is still owed, ``rules.season.owed``) with the
session sheet's fonts and look (``static/sheet.css``, then ``static/season-sheet.css``),
landscape A4 or Letter: the ledger (each evening's result and each player's running
total), the running-total chart (``chart.balance_chart_svg``), the season's balances
and payments, money per currency, what is still owed, a check line, the statistics
and the head-to-head. ``attachment``: ``(bytes, filename)`` carried in the PDF (the
circle's archive).

The ledger's lines (``_ledger``: one monospaced line an evening, its amounts spelled as
the circle's pages spell them, ``wording.signed_amount``: ``+6¾d``, ``−44½``) are not set by
WeasyPrint in the PDF: it spent ~2.4 ms of CPU on each (shaping and drawing glyph by
glyph), 2.4 s of a 1,000-evening sheet. ``print_season_pdf`` lays the sheet out with
WeasyPrint once with a probe (two one-line rows, the second on a new page: where a
page's lines start, how tall a line is, where its baseline is), then with one empty box
a page sized to the whole lines that fit it, checks each box fell on its own page, and
writes the lines into those boxes in the PDF (``ledger_pdf``: DejaVu Sans Mono, embedded,
read back by pdftotext or pypdf as the same lines), with a thin rule every ten evenings.
The page head and foot, "Page N of M", the column heading on each page and the totals
are WeasyPrint's as before. The HTML (``season_sheet_html`` without ``drawn``) and a
ledger the font cannot print keep one text per ten evenings, set by WeasyPrint.
"""

from __future__ import annotations

import datetime
import io
import threading
from collections import Counter

from markupsafe import Markup

from .chart import balance_chart_svg, thin
from .ledger_pdf import RESOURCE_NAME, ledger_font, rule_ops, text_ops
from ..rules import BOOKS
from ..rules.core import format_counters, signed_counters
from ..rules.season import in_money, unit_of
from ..words.localtime import printed_line
from ..words.season_text import debt_words
from ..words.wording import (
    amount_text,
    head_to_head_rows,
    long_date,
    signed_amount,
    stake_label,
    stats_rows,
    unit_words,
)
from .sheet import (
    CONTENT_WIDTH_PT,
    MIN_NUMBER_PT,
    MONO_EM,
    NUMBER_PT,
    ROOT,
    STATIC,
    environment,
    merge_markers,
    page_css,
)

STYLESHEETS = (STATIC / "sheet.css", STATIC / "season-sheet.css")
CHUNK = 10  # evenings per ledger text (one table row)
EVENING_CH = 16  # the widest an evening's name is in the ledger ("Evening 2000", a title cut)
SHARED_CH = 30  # the widest an evening sharing its date is ("2026-12-04 Friday club R1 T2")
MAX_CHART_PLAYERS = 6  # distinct line styles (chart.STYLES)


def _ledger(s, paper: str, money) -> dict:
    """Each evening's result in counters, and each player's running total in that
    evening's money (``money.running``: counters where it had no stake)."""
    names = s.players
    amounts = []
    for e, running in zip(s.evenings, money.running):
        unit = e.stake.currency if e.stake is not None else None
        cells = []
        for i, name in enumerate(names):
            result = signed_counters(e.totals[e.players.index(name)]) if name in e.players else ""
            cells.append((result, signed_amount(running[i], unit)))
        amounts.append(cells)
    totals = [("", " · ".join(signed_amount(net.total, unit) for unit, net in money.stats[n].items())) for n in names]
    # as narrow as the figures allow: WeasyPrint draws every glyph, spaces too, one by one
    wide = max([len(a) for row in amounts for a, _ in row] + [5])  # "Even."
    wide_total = max([len(b) for row in amounts + [totals] for _, b in row] + [5])  # "Total"
    player_ch = wide + wide_total + 5
    # an undated evening by its name ("Evening 123", a title), as wide as the widest
    # of them up to EVENING_CH: cut to a date's ten, "Evening 123" would read "Evening 12";
    # evenings of one date (a club night's tables) by the date and their names, up to
    # SHARED_CH ("2026-12-04 Friday club R1 T2"): the date alone told them from nobody
    on_date = Counter(e.played_on for e in s.evenings)
    said = [
        f"{e.played_on} {e.key}" if e.played_on and on_date[e.played_on] > 1 else e.played_on or str(e.key)
        for e in s.evenings
    ]
    evening_ch = max(
        [10]
        + [
            min(len(w), SHARED_CH if e.played_on and on_date[e.played_on] > 1 else EVENING_CH)
            for w, e in zip(said, s.evenings)
        ]
    )
    words = [f"{w[:evening_ch]:<{evening_ch}} {e.rulebook[:10]:<10} {e.hands:>5}" for w, e in zip(said, s.evenings)]
    heading = f"{'Evening':<{evening_ch}} {'Rule book':<10} Hands"
    words_ch = max([len(heading)] + [len(w) for w in words])

    def line(cells):
        return "".join(f"   {a:>{wide}}  {b:>{wide_total}}" for a, b in cells)

    lines = [line(cells) for cells in amounts]
    rows = [f"{w:<{words_ch}}{a}" for w, a in zip(words, lines)]  # one text a row: WeasyPrint lays out lines
    chunks = ["\n".join(rows[i : i + CHUNK]) for i in range(0, len(rows), CHUNK)]
    width_ch = words_ch + player_ch * len(names)
    font_pt = max(MIN_NUMBER_PT, min(NUMBER_PT, CONTENT_WIDTH_PT[paper] / (width_ch * MONO_EM)))
    amount_heading = "".join(f"   {'Even.':>{wide}}  {'Total':>{wide_total}}" for _ in names)
    return {
        "chunks": chunks,
        "lines": rows,
        "words_ch": words_ch,
        "player_ch": player_ch,
        "width_ch": width_ch,
        "font_pt": round(font_pt, 2),
        "words_heading": heading,
        "amount_heading": amount_heading,
        "totals": f"{'Season':<{evening_ch + 11}} {s.hands:>5}".ljust(words_ch) + line(totals),
    }


def _money(money) -> list[dict]:
    """The season's balances and the fewest payments settling them, per currency (counters
    only for the evenings without a stake, or a season with no stake at all)."""
    out = []
    for unit in money.units:
        label = (
            "in counters"
            if money.units == (None,)
            else "evenings without a stake, in counters"
            if unit is None
            else "in old pence (£sd)"
            if unit == "d"
            else f"in {unit}"
        )
        out.append(
            {
                "label": label,
                "balances": [{"name": n, "amount": signed_amount(v, unit)} for n, v in money.balances[unit].items()],
                "payments": [f"{p.payer} pays {p.payee} {amount_text(p.amount, unit)}" for p in money.payments[unit]],
            }
        )
    return out


def column_key(units) -> str:
    """What the ledger's columns say: counters, or each evening's result in counters and the
    running total in money (of that evening's currency: evenings at two stakes are never added)."""
    if units == (None,):
        return (
            "Amounts in counters. Each player's columns: the evening's result (blank where the player sat "
            "out), then the season's running total."
        )
    return (
        "Each player's columns: the evening's result in counters (blank where the player sat out), then the "
        "season's running total in money at each evening's stake, per currency"
        + ("; in counters where an evening had no stake" if None in units else "")
        + "."
    )


def season_context(
    s, owed, title: str, paper: str = "a4", printed: datetime.datetime | None = None, attachment_name: str | None = None
) -> dict:
    """Plain data for ``templates/season_sheet.html``."""
    dated = [e.played_on for e in s.evenings if e.played_on]
    span = f"{long_date(dated[0])} to {long_date(dated[-1])}" if dated else ""
    books = []
    for e in s.evenings:
        if e.rulebook not in books:
            books.append(e.rulebook)
    stakes = []
    for e in s.evenings:
        label = stake_label(
            {"currency": e.stake.currency, "per_counter": str(e.stake.per_counter)} if e.stake else None
        )
        if label not in stakes:
            stakes.append(label)
    limits = []
    if s.since or s.until:
        limits.append(
            f"evenings {'from ' + long_date(s.since) if s.since else ''}"
            f"{' ' if s.since and s.until else ''}{'to ' + long_date(s.until) if s.until else ''}"
        )
    if s.rulebook:
        limits.append(f"evenings of {BOOKS[s.rulebook].name}")
    players = list(s.players)
    money = in_money(s)
    chart_players = players if len(players) <= MAX_CHART_PLAYERS else players[:MAX_CHART_PLAYERS]
    charts = []
    for unit in money.units:  # a chart per currency: evenings at different stakes are never added
        words = unit_words(unit, money.units)
        chart_rows = [row[: len(chart_players)] for e, row in zip(s.evenings, money.running) if unit_of(e) == unit]
        chart_rows, at = thin(chart_rows)
        chart = balance_chart_svg(
            chart_players,
            chart_rows,
            width=500,
            height=220,
            at=at,
            title=f"Running totals after each evening, {words}",
            x_label="evening",
            unit=unit,
        )
        charts.append({"svg": Markup(merge_markers(chart)), "caption": f"Running totals after each evening ({words})"})
    sums = {unit: sum(balances.values()) for unit, balances in money.balances.items()}
    running_ok = all(
        money.balances[unit].get(n, 0)
        == sum(
            (e.totals if e.money is None else e.money)[e.players.index(n)]
            for e in s.evenings
            if n in e.players and unit_of(e) == unit
        )
        for unit in money.units
        for n in players
    )
    count = len(s.evenings)
    return {
        "title": title,
        "evening_count": f"{count:,} evening{'' if count == 1 else 's'}",
        "hand_count": f"{s.hands:,} hand{'' if s.hands == 1 else 's'}",
        "span": span,
        "printed": printed_line(printed) if printed else None,
        "printed_iso": printed.isoformat(timespec="minutes") if printed else None,
        "players": players,
        "books": ", ".join(f"{BOOKS[b].name} ({sum(e.rulebook == b for e in s.evenings):,})" for b in books) or "–",
        "stakes": "; ".join(stakes) or "–",
        "filter": "; ".join(limits),
        "column_key": column_key(money.units),
        "head_to_head_unit": (
            "in counters"
            if money.units == (None,)
            else "in money per currency"
            + (" (counters for the evenings without a stake)" if None in money.units else "")
        ),
        "ledger": _ledger(s, paper, money),
        "charts": charts,
        "money": _money(money),
        "owed": [debt_words(d) for d in owed or ()],
        "evenings_ok": all(sum(e.totals) == 0 for e in s.evenings),
        "balance_sum": "0"
        if all(v == 0 for v in sums.values())
        else " · ".join(amount_text(v, u) if u is not None else format_counters(v) for u, v in sums.items()),
        "balanced": all(v == 0 for v in sums.values()),
        "running_ok": running_ok,
        "stats": stats_rows(s, money) if players else [[""]],
        "head_to_head": head_to_head_rows(s, money) if players else [[""]],
        "attachment": attachment_name,
    }


def season_sheet_html(
    s,
    owed,
    title: str,
    paper: str = "A4",
    printed=None,
    inline_css: bool = True,
    attachment_name: str | None = None,
    context: dict | None = None,
    drawn: dict | None = None,
) -> str:
    """The sheet as HTML; ``drawn`` (for the PDF, ``season_sheet_pdf``): ``{"probe": True}`` or
    ``{"heights": [px, …]}``, the ledger's lines left out for ``ledger_pdf`` to draw."""
    size = page_css(paper)  # refuses an unknown paper before any work
    paper = paper.lower()
    if context is None:
        context = season_context(s, owed, title, paper, printed, attachment_name)
    css = "\n".join(p.read_text(encoding="utf-8") for p in STYLESHEETS)
    return (
        environment()
        .get_template("season_sheet.html")
        .render(s=context, stylesheet=Markup(css) if inline_css else None, page_css=Markup(size), drawn=drawn)
    )


_printer = threading.local()


def _resources(paper: str):
    """Font configuration and parsed stylesheets, once per thread and paper."""
    import weasyprint  # ~0.4 s: only where a PDF is made (the renderer process)
    from weasyprint.text.fonts import FontConfiguration  # (WeasyPrint, as above)

    cache = getattr(_printer, "cache", None)
    if cache is None:
        cache = _printer.cache = {"font_config": FontConfiguration(), "css": {}}
    if paper not in cache["css"]:
        css = "\n".join(p.read_text(encoding="utf-8") for p in STYLESHEETS) + "\n" + page_css(paper)
        cache["css"][paper] = weasyprint.CSS(string=css, font_config=cache["font_config"])
    return cache["font_config"], cache["css"][paper]


def season_sheet_pdf(
    s,
    owed,
    title: str,
    paper: str = "A4",
    attachment: tuple[bytes, str] | None = None,
    printed: datetime.datetime | None = None,
) -> bytes:
    """The season sheet as PDF bytes; ``attachment`` = ``(data, filename)`` is carried in it.
    (The server renders it in its renderer process: ``season_pdf_parts`` here, then
    ``print_season_pdf`` there, see ``pdf.py``.)"""
    return print_season_pdf(*season_pdf_parts(s, owed, title, paper, attachment, printed))


def season_pdf_parts(
    s,
    owed,
    title: str,
    paper: str = "A4",
    attachment: tuple[bytes, str] | None = None,
    printed: datetime.datetime | None = None,
) -> tuple:
    """What ``print_season_pdf`` needs, made where the rule books are: the sheet's plain
    data (``season_context``), the paper and the attachment."""
    page_css(paper)  # refuses an unknown paper before any work
    name = attachment[1] if attachment else None
    return season_context(s, owed, title, paper.lower(), printed, name), paper.lower(), attachment


def print_season_pdf(context: dict, paper: str, attachment: tuple[bytes, str] | None = None) -> bytes:
    """The sheet's data to PDF (no rule book needed: the renderer process runs it).

    WeasyPrint lays the sheet out with an empty box of the right height for each page's
    ledger lines, and the lines are then written into the PDF (``ledger_pdf``): WeasyPrint
    would spend ~2.4 ms of CPU on each. A ledger with a character DejaVu Sans Mono lacks
    is set by WeasyPrint as before (it falls back to another font)."""
    import weasyprint  # ~0.4 s: only where a PDF is made (the renderer process)

    font_config, stylesheet = _resources(paper)
    attachments = []
    if attachment:
        data, filename = attachment
        attachments.append(
            weasyprint.Attachment(
                file_obj=io.BytesIO(data),
                name=filename,
                relationship="Data",
                description="The circle's archive: its members and every session record (gleek-circle/1)",
            )
        )

    def render(drawn):
        html = season_sheet_html(None, None, context["title"], paper, inline_css=False, context=context, drawn=drawn)
        return weasyprint.HTML(string=html, base_url=str(ROOT) + "/").render(
            stylesheets=[stylesheet], font_config=font_config
        )

    lines = context["ledger"]["lines"]
    document, finisher = None, None
    if lines:
        font = ledger_font("".join(lines))
        if not font.missing:
            document, finisher = _drawn_ledger(render, lines, font)
    if document is None:
        document = render(None)
    return document.write_pdf(attachments=attachments, finisher=finisher)


def _boxes(document, attribute: str) -> list[tuple[int, int, object]]:
    """``(page index, value, box)`` of each table cell carrying ``attribute``, in page order."""
    from weasyprint.formatting_structure import boxes  # (WeasyPrint: only where a PDF is made)

    found = []
    for number, page in enumerate(document.pages):
        for box in page._page_box.descendants():
            if isinstance(box, boxes.TableCellBox) and box.element is not None and attribute in box.element.attrib:
                found.append((number, int(box.element.get(attribute)), box))
    return found


def _page_bottom(document, number: int) -> float:
    page = document.pages[number]._page_box
    return page.content_box_y() + page.height


def _drawn_ledger(render, lines: list[str], font):
    """The document with each page's ledger lines left out, and the finisher that draws them;
    ``(None, None)`` when the measured boxes do not fall as planned (then WeasyPrint sets them)."""
    from weasyprint.formatting_structure import boxes  # (WeasyPrint: only where a PDF is made)

    probe = render({"probe": True})
    cells = _boxes(probe, "data-ledger-probe")
    if len(cells) != 2 or cells[1][0] != cells[0][0] + 1:
        return None, None
    (first_page, _, first), (next_page, _, second) = cells
    line_box = next(b for b in first.descendants() if isinstance(b, boxes.LineBox))
    text_box = next(b for b in line_box.descendants() if isinstance(b, boxes.TextBox))
    # a text box's baseline is from its own top: the baseline from the box's top, as WeasyPrint draws it
    line_px, baseline_px = line_box.height, text_box.position_y + text_box.baseline - first.content_box_y()
    room = [
        (_page_bottom(probe, first_page) - first.content_box_y()) / line_px,
        (_page_bottom(probe, next_page) - second.content_box_y()) / line_px,
    ]
    for slack in (0, 1):
        per_page = [int(room[0] + 1e-6) - slack, int(room[1] + 1e-6) - slack]
        if per_page[1] < 1:
            return None, None
        counts = []
        left = len(lines)
        if per_page[0] >= 1:
            counts.append(min(left, per_page[0]))
            left -= counts[0]
        while left > 0:
            counts.append(min(left, per_page[1]))
            left -= counts[-1]
        document = render({"heights": [n * line_px for n in counts]})
        placed = _boxes(document, "data-ledger-page")
        start = placed[0][0] if placed else 0
        if (
            len(placed) == len(counts)
            and all(p == start + i and v == i for i, (p, v, _) in enumerate(placed))
            and all(box.content_box_y() + box.height <= _page_bottom(document, p) + 0.01 for p, _, box in placed)
        ):
            return document, _finisher(placed, counts, lines, font, line_px, baseline_px)
    return None, None


def _finisher(placed, counts, lines, font, line_px, baseline_px):
    """Writes each page's ledger lines (and a rule every ``CHUNK`` evenings) into its PDF content."""
    scale = 0.75  # PDF points a CSS pixel

    def finish(document, pdf):
        reference = font.add_to(pdf)
        kids = pdf.pages["Kids"][::3]
        start = 0
        for (number, _, box), count in zip(placed, counts):
            page = pdf.objects[kids[number]]
            height_pt = document.pages[number].height * scale
            fonts = pdf.objects[int(pdf.objects[int(page["Resources"].split()[0])]["Font"].split()[0])]
            fonts[RESOURCE_NAME] = reference
            stream = pdf.objects[int(page["Contents"].split()[0])]
            font_pt = box.style["font_size"] * scale
            x = box.content_box_x() * scale
            top = box.content_box_y()
            chunk_lines = lines[start : start + count]
            rules = [
                height_pt - (top + (i + 1) * line_px) * scale
                for i in range(count)
                if (start + i + 1) % CHUNK == 0 and start + i + 1 < len(lines)
            ]
            # WeasyPrint's drawing in q … Q, so that the lines are written in the page's own coordinates
            stream.stream.insert(0, b"q")
            stream.stream += [
                b"Q",
                text_ops(font, chunk_lines, x, height_pt - (top + baseline_px) * scale, font_pt, line_px * scale),
                rule_ops(x, x + box.width * scale, rules),
            ]
            start += count

    return finish


__all__ = ["print_season_pdf", "season_context", "season_pdf_parts", "season_sheet_html", "season_sheet_pdf"]
