"""Settle up, the session sheet (HTML and PDF), the export (both links)."""

from __future__ import annotations

from urllib.parse import quote

import os

from flask import Blueprint, Response, abort, current_app, render_template, request

from ..words.localtime import clock_named, machine_now, viewer_clock
from ..words.wording import stake_label
from ..logs import label
from ..printing.chart import SCREEN_TYPE, balance_chart_svg
from ..printing.pdf import Busy, Failed, TooMany, render_pdf
from ..printing.sheet import render_sheet_html
from ..rules.record import dump
from .access import on_both_links
from .agreement import sheet_line, summary
from .cache import PDFS
from .context import table_context
from .evening_debts import evening_payments

bp = Blueprint("sheets", __name__)


@on_both_links(bp, "/settle")
def settle_up(table):
    return settle_page(table)


def settle_page(table, problems: list | None = None, status: int = 200):
    """The Settle up page; ``problems``: why a payment just posted was not marked (409, 422)."""
    context = table_context(table)
    settlement, session, players = context["settlement"], table.session, context["names"]
    context.update(
        {
            "phase_totals": settlement.phase_totals(),
            "payments": [
                {"payer": players[p.payer], "payee": players[p.payee], "amount": p.amount} for p in settlement.payments
            ],
            "stake_label": stake_label(session.stake) if session.stake else None,
            "chart": balance_chart_svg(players, settlement.running, width=380, height=240, font=SCREEN_TYPE)
            if settlement.hands
            else "",
            "agreement_summary": summary(session),
            "pay_problems": problems or [],
            **evening_payments(table, settlement),
        }
    )
    return render_template("settle.html", **context), status


def paper() -> str:
    chosen = request.args.get("paper", "a4").lower()
    if chosen not in ("a4", "letter"):
        abort(404)
    return chosen


@on_both_links(bp, "/sheet")
def sheet(table):
    return render_sheet_html(
        table.session.record(with_agreement=True),
        paper(),
        back_url=table.url(),
        printed=viewer_clock(request.cookies).now(),
        agreed=sheet_line(table.session),
    )


@on_both_links(bp, "/sheet.pdf")
def sheet_pdf(table):
    """Rendering a long sheet takes a while: the last few are kept, by session version,
    the players' OKs and the paper — nothing a client sends (its time zone was part of
    the key, so a watcher changing it forced a render per request: the PDF is stamped
    in the table's zone, ``sheet_zone``). Sheets are rendered in a separate process, a
    few at a time, the scorer's first, a few a minute per client (pdf.py): beyond that,
    a 503 or a 429."""
    config = current_app.config
    session, chosen = table.session, paper()
    record = session.record(with_agreement=True)  # the OKs too: the attached record keeps them
    agreed = tuple(tuple(hand.get("agreed", ())) for hand in record["hands"])
    line = sheet_line(session)  # where the hands stand: the OKs, the disputes, who keeps the score
    key = (config["DATABASE"], session.id, session.version, agreed, line, chosen)
    lock = os.path.join(current_app.instance_path, "pdf.lock")
    # a client is an address of this app's database: apps sharing one process (the
    # tests) do not share a device's renders
    try:
        pdf = PDFS.get(
            key,
            lambda: render_pdf(
                key,
                record,
                chosen,
                config["PDF_WAITING"],
                lock,
                printed=sheet_zone_now(),
                agreed=line,
                scorer=table.can_edit,
                client=f"{config['DATABASE']} {request.remote_addr or 'unknown'}",
                per_minute=config["PDF_RENDERS_PER_MINUTE"],
            ),
        )
    except (Busy, TooMany) as refused:
        if isinstance(refused, Failed):
            current_app.logger.error("The PDF renderer process failed for session %s", label(session.id))
        return refusal(refused, table.url())
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = content_disposition("inline", session.title, "pdf")
    return response


def refusal(refused, back: str, what: str = "sheet"):
    """The page for a PDF the renderer refused (``pdf.TooMany``, ``Failed``, ``Busy``):
    429 or 503, with Retry-After."""
    if isinstance(refused, TooMany):
        # one count for both kinds (pdf.py's Board): the renders counted may all be of the other kind
        return (
            render_template(
                "error.html",
                title="Printing",
                back=back,
                message=(
                    f"This device asked for {refused.limit} new sheets in the last minute (session, season and night sheets "
                    f"count together), the most it may. Try again in {refused.retry_after} seconds."
                ),
            ),
            429,
            {"Retry-After": str(refused.retry_after)},
        )
    if isinstance(refused, Failed):
        also = "; the sheet page itself (Sheet) can also be printed from the browser" if what == "sheet" else ""
        return (
            render_template(
                "error.html",
                title="Printing",
                back=back,
                message=(
                    f"The {what} could not be printed: the printing process stopped. Try again in a few seconds{also}."
                ),
            ),
            503,
            {"Retry-After": str(refused.retry_after)},
        )
    return (
        render_template(
            "error.html",
            title="Printing",
            back=back,
            message=("Other sheets are being printed right now. Try again in a few seconds."),
        ),
        503,
        {"Retry-After": str(refused.retry_after)},
    )


def sheet_zone_now():
    """Now in the zone a PDF sheet is stamped in: ``SHEET_ZONE`` (an IANA name, in
    instance/config.py) if set, else the zone of the machine serving it — the
    laptop at the table, whose evening it was. One zone per server, so one
    rendering per sheet, whoever asks for it (the sheet's page and History stay in
    each viewer's own zone)."""
    name = current_app.config.get("SHEET_ZONE")
    clock = clock_named(name) if name else None
    return clock.now() if clock is not None and clock.known else machine_now()


@on_both_links(bp, "/export.json")
def export(table):
    session = table.session
    response = Response(dump(session.record(with_agreement=True)), mimetype="application/json")
    response.headers["Content-Disposition"] = content_disposition("attachment", session.title, "json")
    return response


def content_disposition(kind: str, title: str | None, extension: str, fallback: str = "gleek-session") -> str:
    """A download name from a title: plain ASCII for every client (``fallback`` where
    the title has none), and the title itself (RFC 6266 ``filename*``) for those that
    read it. No control characters."""
    title = " ".join((title or "").split())[:60]  # line breaks and tabs become spaces
    plain = "".join(c for c in title if c.isascii() and (c.isalnum() or c in " -_.")).strip() or fallback
    value = f'{kind}; filename="{plain}.{extension}"'
    if title and title != plain:
        value += f"; filename*=UTF-8''{quote(title + '.' + extension, safe='')}"
    return value
