"""The club night's sheet: a whole night (its ``gleek-night/1`` document,
``store.night_data``) as a printable PDF, A4 or Letter, landscape.

What it prints: the night's name, date, rule book, options and stake; the
standings overall, ranked by the organizer's choice with the rank by the other
figure beside it (table placings and counters, as ``club.standings`` computes them
on the standings page), the tiebreaks written under them; every round, each table's
three players in seat order with their totals and hands, and the byes; then the
seating, a player a row and a round a column, to pin up. The document is attached
(``night.json``): importing the sheet restores the night (``files.upload``).

Everything on it comes from the document, which holds no link: a sheet printed from
the public standings gives no organizer's nor scorer's link away. Names of any
script print with the session sheet's fonts (``static/sheet.css``, then
``static/night-sheet.css``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from markupsafe import Markup

from ..files.upload import NIGHT_ATTACHMENT as ATTACHMENT
from ..club.standings import TIEBREAKS, Standing, TableResult, by_round, standings
from ..rules import BOOKS
from ..rules.core import format_counters
from ..rules.record import settle
from ..words.localtime import printed_line
from ..words.wording import stake_label
from .sheet import ROOT, STATIC, environment, long_date, page_css

STYLESHEETS = (STATIC / "sheet.css", STATIC / "night-sheet.css")
DEFAULT_NAME = "Club night"


@dataclass(frozen=True)
class NightFigures:
    """The standings of a night's document, as the standings page has them."""

    overall: list[Standing]  # by the organizer's choice, best first
    other_rank: dict[str, int]  # each player's rank by the other figure
    results: dict[int, list[TableResult]]  # round -> its tables played
    played: dict[tuple[int, int], TableResult]


def night_figures(data: dict) -> NightFigures:
    """Each table's totals settled from its record (a table with no hand, or whose
    session was deleted, counts for nothing), and the standings across them."""
    names = [p["name"] for p in data["players"]]
    results = []
    for drawn in data["rounds"]:
        for number, table in enumerate(drawn["tables"], 1):
            record = table["record"]
            if record is None or not record["hands"]:
                continue
            results.append(
                TableResult(
                    drawn["number"],
                    number,
                    [names[s] for s in table["seats"]],
                    list(settle(record).balances),
                    len(record["hands"]),
                )
            )
    rank_by = data["rank_by"]
    other = "counters" if rank_by == "placings" else "placings"
    overall = standings(results, rank_by, names)
    other_rank = {row.name: row.rank for row in standings(results, other, names)}
    return NightFigures(overall, other_rank, by_round(results), {(r.round, r.table): r for r in results})


def _table(drawn: dict, number: int, table: dict, names: list[str], played) -> dict:
    seated = [names[s] for s in table["seats"]]
    result = played.get((drawn["number"], number))
    if table["record"] is None:
        state = "its session was deleted: it counts for nothing"
    elif result is None:
        state = "no hand played"
    else:
        state = f"{result.hands} hand{'s' * (result.hands != 1)}"
    return {
        "number": number,
        "state": state,
        "seats": [
            {
                "seat": seat + 1,
                "name": name,
                "total": format_counters(result.totals[seat]) if result is not None else "–",
            }
            for seat, name in enumerate(seated)
        ],
    }


def night_sheet_context(data: dict, printed: datetime.datetime | None = None) -> dict:
    """Plain data for ``templates/night_sheet.html`` from a valid night document."""
    book = BOOKS[data["rulebook"]]
    options = book.resolved_options(data["options"])
    figures = night_figures(data)
    names = [p["name"] for p in data["players"]]
    rank_by = data["rank_by"]
    other = "counters" if rank_by == "placings" else "placings"
    where: dict[str, list[str]] = {name: ["" for _ in data["rounds"]] for name in names}
    rounds = []
    for i, drawn in enumerate(data["rounds"]):
        tables = [_table(drawn, n, t, names, figures.played) for n, t in enumerate(drawn["tables"], 1)]
        for n, t in enumerate(drawn["tables"], 1):
            for seat, s in enumerate(t["seats"]):
                where[names[s]][i] = f"{n} · {seat + 1}"
        for b in drawn["byes"]:
            where[names[b]][i] = "bye"
        rounds.append({"number": drawn["number"], "tables": tables, "byes": [names[b] for b in drawn["byes"]]})
    name = (data.get("name") or "").strip() or DEFAULT_NAME
    played_on = long_date(data.get("played_on"))
    left = {p["name"]: p["left_after"] for p in data["players"] if p["left_after"] is not None}
    count = len(data["rounds"])
    return {
        "name": name,
        "running_title": f"{name} — {played_on}" if played_on else name,
        "played_on": played_on,
        "printed": printed_line(printed) if printed else None,
        "printed_iso": printed.isoformat(timespec="minutes") if printed else None,
        "book": book.name,
        "options": [{"label": o.label, "value": "yes" if options[o.name] else "no"} for o in book.options],
        "stake": stake_label(data.get("stake")),
        "circle": data.get("circle"),
        "rounds_line": f"{count} of {data['rounds_planned']} round{'s' * (data['rounds_planned'] != 1)} drawn",
        "player_count": f"{len(names)} player{'s' * (len(names) != 1)}",
        "rank_by": rank_by,
        "other": other,
        "tiebreaks": TIEBREAKS[rank_by],
        "standings": [
            {
                "rank": row.rank,
                "name": row.name,
                "placings": format_counters(row.placings),
                "counters": format_counters(row.counters),
                "other_rank": figures.other_rank[row.name],
                "tables": row.tables,
                "won": row.won,
                "left": (f"left after round {left[row.name]}" if left[row.name] else "left before round 1")
                if row.name in left
                else "",
            }
            for row in figures.overall
        ],
        "rounds": rounds,
        "seating": [{"name": n, "cells": where[n]} for n in names],
        "attachment": ATTACHMENT,
    }


def night_sheet_html(context: dict, paper: str = "a4", inline_css: bool = True) -> str:
    size = page_css(paper)  # refuses an unknown paper before any work
    css = "\n".join(p.read_text(encoding="utf-8") for p in STYLESHEETS)
    return (
        environment()
        .get_template("night_sheet.html")
        .render(n=context, stylesheet=Markup(css) if inline_css else None, page_css=Markup(size))
    )


def night_pdf_parts(data: dict, night_text: str, paper: str = "a4", printed: datetime.datetime | None = None) -> tuple:
    """What ``print_night_pdf`` needs, made where the rule books are (the app's process):
    the sheet's HTML, the paper and the night's document to attach."""
    return night_sheet_html(night_sheet_context(data, printed), paper, inline_css=False), paper.lower(), night_text


def print_night_pdf(html: str, paper: str, night_text: str) -> bytes:
    """HTML to PDF with WeasyPrint, the night's document attached (no rule book
    needed: the renderer process runs it, ``pdf.py``)."""
    import weasyprint  # ~0.4 s: only where a PDF is made (the renderer process)
    from weasyprint.text.fonts import FontConfiguration  # (WeasyPrint, as above)

    font_config = FontConfiguration()
    css = "\n".join(p.read_text(encoding="utf-8") for p in STYLESHEETS) + "\n" + page_css(paper)
    attachment = weasyprint.Attachment(
        string=night_text,
        name=ATTACHMENT,
        relationship="Data",
        description="This club night's record (gleek-night/1): import this PDF or this file to restore it",
    )
    return weasyprint.HTML(string=html, base_url=str(ROOT) + "/").write_pdf(
        stylesheets=[weasyprint.CSS(string=css, font_config=font_config)],
        font_config=font_config,
        attachments=[attachment],
    )


def night_sheet_pdf(data: dict, night_text: str, paper: str = "a4", printed: datetime.datetime | None = None) -> bytes:
    """The night's sheet as PDF bytes, in this process (the tests, the command line)."""
    return print_night_pdf(*night_pdf_parts(data, night_text, paper, printed))
