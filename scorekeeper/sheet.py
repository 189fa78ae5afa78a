"""The session sheet: one printable page (or several) per session, as HTML and PDF.

``sheet_context(record)`` turns a valid ``gleek-session/1`` record into plain
data for ``templates/sheet.html``; ``render_sheet_html`` renders it with a
standalone Jinja environment (no Flask needed), the print stylesheet
``static/sheet.css`` inlined so the HTML stands alone; ``render_sheet_pdf``
prints that HTML with WeasyPrint, imported only when a PDF is asked for (it
takes about half a second to import).
"""

from __future__ import annotations

import datetime
from fractions import Fraction
from pathlib import Path

from markupsafe import Markup

from .chart import balance_chart_svg
from .money import money, stake_label
from .rules import BOOKS, InvalidRecord
from .rules.core import PHASES, SEATS, SUIT_SYMBOLS, format_counters, parse_set
from .rules.record import settle, validate

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
STYLESHEET = STATIC / "sheet.css"

PAPERS = {"a4": "A4", "letter": "letter"}
PHASE_HEADINGS = {"tiddy": "Tiddy", "auction": "Stock", "ruff": "Ruff", "sets": "Sets", "tricks": "Tricks"}
PHASE_SHORT = {"tiddy": "Tdy", "auction": "Stk", "ruff": "Ruf", "sets": "Set", "tricks": "Trk"}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
DEFAULT_TITLE = "Gleek session"

_environment = None


def environment():
    """The sheet's own Jinja environment (autoescaping), built once."""
    global _environment
    if _environment is None:
        import jinja2

        _environment = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=jinja2.select_autoescape(["html", "xml"], default=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
    return _environment


def long_date(iso: str | None) -> str:
    if not iso:
        return ""
    day = datetime.date.fromisoformat(iso)
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def sum_line(amounts) -> str:
    """``18 − 9 − 9 = 0``: three amounts written as the sum they make."""
    amounts = [Fraction(a) for a in amounts]
    parts = [format_counters(amounts[0])]
    for amount in amounts[1:]:
        parts.append(("− " if amount < 0 else "+ ") + format_counters(abs(amount)))
    return f"{' '.join(parts)} = {format_counters(sum(amounts))}"


def _cell(amount) -> dict:
    amount = Fraction(amount)
    return {"text": format_counters(amount), "zero": amount == 0, "negative": amount < 0}


def describe_hand(book, options: dict, hand: dict, names) -> dict:
    """The table's words for what happened in a hand (not what it cost)."""
    trump = hand["trump"]
    trump_text = "Kiss (no trumps)" if trump == "none" else f"{SUIT_SYMBOLS[trump]} {trump}"
    turned = None
    if book.has_turned_up and "turned_up" in hand:
        turned = f"{hand['turned_up']} up"
    auction = hand["auction"]
    stock = f"{names[auction['buyer']]} at {auction['price']}" if auction else "not bought"
    ruff = hand["ruff"]
    if ruff is None:
        # parlett: nobody opened; modern simplified: the game has no ruff
        ruff_winner, ruff_paid = ("no ruff" if options.get("simplified") else "no contest"), []
    else:
        ruff_winner = names[ruff["winner"]]
        ruff_paid = [f"{names[s]} {ruff['paid'][s]}" for s in SEATS if s != ruff["winner"]]
    sets = []
    for seat, declared in enumerate(hand["sets"]):
        if declared:
            shown = ", ".join("{}\u00a0{}".format(*parse_set(text)) for text in declared)
            sets.append(f"{names[seat]}: {shown}")
    tiddy = None
    if hand.get("tiddy") is not None:
        tiddy = f"Tiddy: {names[hand['tiddy']]}"
    elif book.has_turned_up and hand.get("turned_up") == "4":
        tiddy = "Tiddy turned up"
    return {
        "trump": trump_text,
        "turned_up": turned,
        "tiddy": tiddy,
        "stock": stock,
        "ruff_winner": ruff_winner,
        "ruff_paid": ruff_paid,
        "sets": sets,
        "tricks": "\u2009·\u2009".join(str(t) for t in hand["tricks"]),
        "note": hand.get("note", "").strip(),
    }


def sheet_context(record: dict) -> dict:
    """Everything ``templates/sheet.html`` needs, from a valid record.

    Raises ``InvalidRecord`` if the record is not valid.
    """
    problems = validate(record)
    if problems:
        raise InvalidRecord(problems)
    book = BOOKS[record["rulebook"]]
    settlement = settle(record)
    names = settlement.players
    stake = record.get("stake")
    options = book.resolved_options(record["options"])

    rows = []
    for result, hand, running in zip(settlement.hands, record["hands"], settlement.running):
        rows.append({
            "number": result.number,
            "dealer": names[result.dealer],
            **describe_hand(book, options, hand, names),
            "players": [
                {
                    "phases": [_cell(result.phases[p][seat]) for p in PHASES],
                    "total": _cell(result.total[seat]),
                    "balance": _cell(running[seat]),
                }
                for seat in SEATS
            ],
        })

    phase_totals = settlement.phase_totals()
    totals = [
        {
            "phases": [_cell(phase_totals[p][seat]) for p in PHASES],
            "total": _cell(settlement.balances[seat]),
        }
        for seat in SEATS
    ]
    checks = [{"phase": PHASE_HEADINGS[p], "line": sum_line(phase_totals[p]),
               "ok": sum(phase_totals[p]) == 0} for p in PHASES]
    hands_ok = all(sum(r.total) == 0 for r in settlement.hands)
    sheet_sum = sum(settlement.balances)
    balances = [
        {
            "name": names[seat],
            "amount": format_counters(settlement.balances[seat]),
            "money": money(settlement.balances[seat], stake) if stake else None,
            "sign": "up" if settlement.balances[seat] > 0 else "down" if settlement.balances[seat] < 0 else "square",
        }
        for seat in SEATS
    ]
    payments = []
    for payment in settlement.payments:
        sentence = f"{names[payment.payer]} pays {names[payment.payee]} {money(payment.amount, None)}"
        if stake:
            sentence += f" = {money(payment.amount, stake)}"
        payments.append(sentence)

    title = (record.get("title") or "").strip() or DEFAULT_TITLE
    played_on = long_date(record.get("played_on"))
    return {
        "title": title,
        "running_title": f"{title} — {played_on}" if played_on else title,
        "played_on": played_on,
        "played_on_iso": record.get("played_on"),
        "rulebook": {"id": book.id, "name": book.name, "source": book.source},
        "options": [{"label": o.label, "value": "yes" if options[o.name] else "no"} for o in book.options],
        "players": list(names),
        "stake": stake,
        "stake_label": stake_label(stake),
        "has_turned_up": book.has_turned_up,
        "phases": [{"id": p, "heading": PHASE_HEADINGS[p], "short": PHASE_SHORT[p]} for p in PHASES],
        "column_key": ", ".join(f"{PHASE_SHORT[p]} = {PHASE_HEADINGS[p]}" for p in PHASES)
        + ", Hand = the hand's total, Bal. = running balance",
        "hands": rows,
        "hand_count": len(rows),
        "totals": totals,
        "balances": balances,
        "payments": payments,
        "checks": checks,
        "hands_ok": hands_ok,
        "sheet_sum": format_counters(sheet_sum),
        "balanced": sheet_sum == 0 and hands_ok and all(c["ok"] for c in checks),
        "chart_svg": Markup(balance_chart_svg(names, settlement.running, width=500, height=200)),
        "settlement": settlement,
    }


# ---------------------------------------------------------------- column widths

#: Landscape page width less the side margins of static/sheet.css (10 mm each).
CONTENT_WIDTH_PT = {"a4": 297 / 25.4 * 72 - 56.7, "letter": 11 * 72 - 56.7}
#: Share of the left-over width for each descriptive column.
DESCRIPTIVE_WEIGHTS = {"dealer": 6.4, "trump": 5.8, "stock": 7.0, "ruff": 9.2, "sets": 10.0}
FIXED_PT = {"hand": 19.0, "tricks": 30.0}  # "No." up to 999; "12 · 0 · 0"
#: Advance widths in em of DejaVu Sans (Semi-)Condensed, regular and bold.
GLYPH_EM = {False: {"−": 0.754, "½": 0.872}, True: {"−": 0.754, "½": 0.932}}
DIGIT_EM = {False: 0.572, True: 0.626}
NUMBER_PT = 7.0  # the table's type size
CELL_EXTRA_PT = 5.0  # padding (2 + 1.5), borders and a little air
MIN_AMOUNT_PT = 17.0  # room for the "Tdy" … headings


def text_pt(text: str, bold: bool) -> float:
    return NUMBER_PT * sum(GLYPH_EM[bold].get(c, DIGIT_EM[bold]) for c in text)


def column_widths(context: dict, paper: str) -> dict:
    """Each column's width as a percentage of the table, so that the widest
    amount in every number column fits on one line (modern sessions run to
    hundreds of counters a hand) and the descriptive columns share the rest."""
    width = CONTENT_WIDTH_PT[paper]
    amount = max([MIN_AMOUNT_PT] + [
        text_pt(cell["text"], False) + CELL_EXTRA_PT
        for row in context["hands"] for p in row["players"] for cell in p["phases"]] + [
        text_pt(cell["text"], True) + CELL_EXTRA_PT for t in context["totals"] for cell in t["phases"]])
    total = max([MIN_AMOUNT_PT + 3] + [
        text_pt(p["total"]["text"], True) + CELL_EXTRA_PT for row in context["hands"] for p in row["players"]])
    balance = max([MIN_AMOUNT_PT + 3] + [
        text_pt(p["balance"]["text"], True) + CELL_EXTRA_PT for row in context["hands"] for p in row["players"]] + [
        text_pt(t["total"]["text"], True) + CELL_EXTRA_PT - total for t in context["totals"]])
    numbers = 3 * (len(PHASES) * amount + total + balance)
    rest = max(width - numbers, 0.36 * width)  # squeeze numbers rather than lose the words
    scale = min(1.0, (width - rest) / numbers)
    weights = sum(DESCRIPTIVE_WEIGHTS.values())
    shared = rest - sum(FIXED_PT.values())
    widths = dict(FIXED_PT)
    widths.update({key: shared * w / weights for key, w in DESCRIPTIVE_WEIGHTS.items()})
    widths.update(amount=amount * scale, total=total * scale, balance=balance * scale)
    return {key: f"{100 * w / width:.2f}%" for key, w in widths.items()}


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


def render_sheet_html(record: dict, paper: str = "a4") -> str:
    """The session sheet as one standalone HTML document (stylesheet inlined)."""
    size = page_css(paper)  # refuses an unknown paper before any work
    paper = paper.lower()
    context = sheet_context(record)
    css = STYLESHEET.read_text(encoding="utf-8")
    template = environment().get_template("sheet.html")
    return template.render(sheet=context, paper=paper, widths=column_widths(context, paper),
                           stylesheet=Markup(css), page_css=Markup(size))


def render_sheet_pdf(record: dict, paper: str = "a4") -> bytes:
    """The session sheet as PDF bytes (WeasyPrint, imported only here)."""
    html = render_sheet_html(record, paper)
    import weasyprint

    return weasyprint.HTML(string=html, base_url=str(ROOT) + "/").write_pdf()
