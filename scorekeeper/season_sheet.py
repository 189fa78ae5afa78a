"""The season sheet: a circle's season as a printable PDF (issue 19).

``season_sheet_pdf(season, owed, title, paper="A4", attachment=None)`` prints a
``rules.season.Season`` (and what is still owed, ``rules.season.owed``) with the
session sheet's fonts and look (``static/sheet.css``, then ``static/season-sheet.css``),
landscape A4 or Letter: the ledger (each evening's result and each player's running
total), the running-total chart (``chart.balance_chart_svg``), the season's balances
and payments, money per currency, what is still owed, a check line, the statistics
and the head-to-head. ``attachment``: ``(bytes, filename)`` carried in the PDF (the
circle's archive).

The ledger is one monospaced text per ten evenings (WeasyPrint's time goes on boxes:
a cell per amount would make a 1,000-evening sheet take many seconds).
"""

from __future__ import annotations

import datetime
import threading

from markupsafe import Markup

from .chart import balance_chart_svg, thin
from .money import stake_label
from .rules import BOOKS
from .rules.core import format_counters, signed_counters
from .season_text import amount_text, debt_words, head_to_head_rows, signed_amount, stats_rows
from .sheet import CONTENT_WIDTH_PT, MIN_NUMBER_PT, MONO_EM, NUMBER_PT, ROOT, STATIC, environment, long_date, page_css

STYLESHEETS = (STATIC / "sheet.css", STATIC / "season-sheet.css")
CHUNK = 10  # evenings per ledger text (one table row)
WORDS_HEADING = "Evening    Rule book  Hands"
MAX_CHART_PLAYERS = 6  # distinct line styles (chart.STYLES)


def ledger_amount(amount, signed: bool = True) -> str:
    """An amount in the ledger's ASCII: ``+41``, ``-44.5``, ``+1,237.5``. (WeasyPrint lays a
    line of ASCII out in well under half the time of one with a single ``½`` or ``−``:
    at 1,000 evenings that is a second.)"""
    halves = int(amount * 2)
    whole, half = divmod(abs(halves), 2)
    text = f"{whole:,}" + (".5" if half else "")
    return ("-" if halves < 0 else "+" if signed and halves > 0 else "") + text


def _ledger(s, paper: str) -> dict:
    names = s.players
    amounts = []
    for e, running in zip(s.evenings, s.running):
        cells = []
        for i, name in enumerate(names):
            result = ledger_amount(e.totals[e.players.index(name)]) if name in e.players else ""
            cells.append((result, ledger_amount(running[i])))
        amounts.append(cells)
    totals = [("", ledger_amount(s.balances[n])) for n in names]
    # as narrow as the figures allow: WeasyPrint draws every glyph, spaces too, one by one
    wide = max([len(a) for row in amounts for a, _ in row] + [5])  # "Even."
    wide_total = max([len(b) for row in amounts + [totals] for _, b in row] + [5])  # "Total"
    player_ch = wide + wide_total + 5
    words = [f"{(e.played_on or str(e.key))[:10]:<10} {e.rulebook[:10]:<10} {e.hands:>5}" for e in s.evenings]
    words_ch = max([len(WORDS_HEADING)] + [len(w) for w in words])

    def line(cells):
        return "".join(f"   {a:>{wide}}  {b:>{wide_total}}" for a, b in cells)

    lines = [line(cells) for cells in amounts]
    rows = [f"{w:<{words_ch}}{a}" for w, a in zip(words, lines)]  # one text a row: WeasyPrint lays out lines
    chunks = ["\n".join(rows[i:i + CHUNK]) for i in range(0, len(rows), CHUNK)]
    width_ch = words_ch + player_ch * len(names)
    font_pt = max(MIN_NUMBER_PT, min(NUMBER_PT, CONTENT_WIDTH_PT[paper] / (width_ch * MONO_EM)))
    heading = "".join(f"   {'Even.':>{wide}}  {'Total':>{wide_total}}" for _ in names)
    return {"chunks": chunks, "words_ch": words_ch, "player_ch": player_ch, "width_ch": width_ch,
            "font_pt": round(font_pt, 2), "words_heading": WORDS_HEADING, "amount_heading": heading,
            "totals": f"{'Season':<21} {s.hands:>5}".ljust(words_ch) + line(totals)}


def _money(s) -> list[dict]:
    out = []
    for currency, balances in s.money.items():
        if currency is None and len(s.money) == 1:
            continue  # counters only: the season's payments say it
        label = ("Evenings without a stake, in counters" if currency is None
                 else "Money, old pence (£sd)" if currency == "d" else f"Money, {currency}")
        out.append({"label": label,
                    "balances": [{"name": n, "amount": signed_amount(v, currency)} for n, v in balances.items()],
                    "payments": [f"{p.payer} pays {p.payee} {amount_text(p.amount, currency)}"
                                 for p in s.money_payments[currency]]})
    return out


def season_context(s, owed, title: str, paper: str = "a4", printed: datetime.datetime | None = None,
                   attachment_name: str | None = None) -> dict:
    """Plain data for ``templates/season_sheet.html``."""
    from .localtime import printed_line

    dated = [e.played_on for e in s.evenings if e.played_on]
    span = f"{long_date(dated[0])} to {long_date(dated[-1])}" if dated else ""
    books = []
    for e in s.evenings:
        if e.rulebook not in books:
            books.append(e.rulebook)
    stakes = []
    for e in s.evenings:
        label = stake_label({"currency": e.stake.currency, "per_counter": str(e.stake.per_counter)} if e.stake else None)
        if label not in stakes:
            stakes.append(label)
    limits = []
    if s.since or s.until:
        limits.append(f"evenings {'from ' + long_date(s.since) if s.since else ''}"
                      f"{' ' if s.since and s.until else ''}{'to ' + long_date(s.until) if s.until else ''}")
    if s.rulebook:
        limits.append(f"evenings of {BOOKS[s.rulebook].name}")
    players = list(s.players)
    chart_players = players if len(players) <= MAX_CHART_PLAYERS else players[:MAX_CHART_PLAYERS]
    chart_rows = [row[:len(chart_players)] for row in s.running]
    chart_rows, at = thin(chart_rows)
    chart = balance_chart_svg(chart_players, chart_rows, width=500, height=220, at=at,
                              title="Running totals after each evening", x_label="evening") if s.evenings else ""
    if s.evenings:
        from .sheet import merge_markers

        chart = merge_markers(chart)
    balance_sum = sum(s.balances.values())
    running_ok = all(s.balances[n] == sum(e.totals[e.players.index(n)] for e in s.evenings if n in e.players)
                     for n in players)
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
        "ledger": _ledger(s, paper),
        "chart_svg": Markup(chart),
        "balances": [{"name": n, "amount": signed_counters(s.balances[n])} for n in players],
        "payments": [f"{p.payer} pays {p.payee} {amount_text(p.amount, None)}" for p in s.payments],
        "money": _money(s),
        "owed": [debt_words(d) for d in owed or ()],
        "evenings_ok": all(sum(e.totals) == 0 for e in s.evenings),
        "balance_sum": format_counters(balance_sum),
        "balanced": balance_sum == 0,
        "running_ok": running_ok,
        "stats": stats_rows(s) if players else [[""]],
        "head_to_head": head_to_head_rows(s) if players else [[""]],
        "attachment": attachment_name,
    }


def season_sheet_html(s, owed, title: str, paper: str = "A4", printed=None, inline_css: bool = True,
                      attachment_name: str | None = None) -> str:
    size = page_css(paper)  # refuses an unknown paper before any work
    paper = paper.lower()
    context = season_context(s, owed, title, paper, printed, attachment_name)
    css = "\n".join(p.read_text(encoding="utf-8") for p in STYLESHEETS)
    return environment().get_template("season_sheet.html").render(
        s=context, stylesheet=Markup(css) if inline_css else None, page_css=Markup(size))


_printer = threading.local()


def _resources(paper: str):
    """Font configuration and parsed stylesheets, once per thread and paper."""
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    cache = getattr(_printer, "cache", None)
    if cache is None:
        cache = _printer.cache = {"font_config": FontConfiguration(), "css": {}}
    if paper not in cache["css"]:
        css = "\n".join(p.read_text(encoding="utf-8") for p in STYLESHEETS) + "\n" + page_css(paper)
        cache["css"][paper] = weasyprint.CSS(string=css, font_config=cache["font_config"])
    return cache["font_config"], cache["css"][paper]


def season_sheet_pdf(s, owed, title: str, paper: str = "A4", attachment: tuple[bytes, str] | None = None,
                     printed: datetime.datetime | None = None) -> bytes:
    """The season sheet as PDF bytes; ``attachment`` = ``(data, filename)`` is carried in it."""
    import io

    import weasyprint

    name = attachment[1] if attachment else None
    html = season_sheet_html(s, owed, title, paper, printed, inline_css=False, attachment_name=name)
    font_config, stylesheet = _resources(paper.lower())
    attachments = []
    if attachment:
        data, filename = attachment
        attachments.append(weasyprint.Attachment(
            file_obj=io.BytesIO(data), name=filename, relationship="Data",
            description="The circle's archive: its members and every session record (gleek-session/1)"))
    return weasyprint.HTML(string=html, base_url=str(ROOT) + "/").write_pdf(
        stylesheets=[stylesheet], font_config=font_config, attachments=attachments)


__all__ = ["season_context", "season_sheet_html", "season_sheet_pdf"]
