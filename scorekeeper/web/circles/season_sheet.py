"""A circle's season sheet as a PDF (under both links), the circle's archive attached:
rendered by the session sheets' renderer process with their turns and limits, kept by
the versions it comes from."""

from __future__ import annotations

import os

from flask import current_app, make_response, request

from ... import store
from ...db import get_db
from ...printing.pdf import SEASONS, Busy, Failed, TooMany, render_pdf
from ...printing.season_sheet import print_season_pdf, season_pdf_parts
from ...rules.season import season
from ...words.wording import evening_names
from ..cache import Recent
from ..circle_figures import evenings_key, figures, filter_of, open_debts
from ..sheets import content_disposition, paper, refusal
from .evenings import safe_name
from .links import CircleView, on_circle_links
from .page import who_in

SEASON_PDFS = None


def named_season(view: CircleView, chosen):
    """The season and what is still owed with the members' names (the figures name
    members by id) and each evening's name (they are keyed by session id: the sheet
    names an undated evening by its title or number, never by its scorer's link),
    for the printed sheet."""
    db, circle = get_db(), view.circle
    who = who_in(circle)
    evening = evening_names(store.evening_links(db, circle.id), dated=False)

    def replaced(record, **changes):
        return type(record)(**dict(zip(record._fields, record), **changes))

    def renamed(f):
        return replaced(f, key=evening.get(f.key, "An evening"), players=tuple(who(p) for p in f.players))

    debts, _ = open_debts(db, circle)
    debts = [
        replaced(
            d,
            payer=who(d.payer),
            payee=who(d.payee),
            evenings=tuple(evening.get(key, "An evening") for key in d.evenings),
        )
        for d in debts
    ]
    return season([renamed(f) for f in figures(db, circle.id)], *chosen), debts


@on_circle_links("/season.pdf")
def season_pdf(view):
    """The season sheet (A4 or Letter), the circle's archive attached. Kept by the
    versions it comes from; rendered by the session sheets' renderer process, with
    their turns and limits (``pdf.py``: a few a minute per device, the manage link as
    the scorer's): beyond them, a 503 or a 429."""
    global SEASON_PDFS
    if SEASON_PDFS is None:
        SEASON_PDFS = Recent(4)
    config = current_app.config
    chosen_paper, chosen = paper(), filter_of(request.args)
    circle = view.circle
    # kept per kind of link: what the members' link is sent is rendered for it
    key = ("season", config["DATABASE"], *evenings_key(get_db(), circle), view.kind, chosen, chosen_paper)

    def parts():  # once the renderer has a place for it
        season, debts = named_season(view, chosen)
        archive = store.archive(get_db(), circle).encode("utf-8")
        return season_pdf_parts(
            season,
            debts,
            circle.name,
            "Letter" if chosen_paper == "letter" else "A4",
            attachment=(archive, f"circle-{safe_name(circle.name)}.json"),
        )

    try:
        pdf = SEASON_PDFS.get(
            key,
            lambda: render_pdf(
                key,
                None,
                chosen_paper,
                config["PDF_WAITING"],
                os.path.join(current_app.instance_path, "season-pdf.lock"),
                scorer=view.can_manage,
                client=f"{config['DATABASE']} {request.remote_addr or 'unknown'}",
                per_minute=config["PDF_RENDERS_PER_MINUTE"],
                parts_of=parts,
                printer=print_season_pdf,
                lane=SEASONS,
            ),
        )
    except (Busy, TooMany) as refused:
        if isinstance(refused, Failed):
            current_app.logger.error("The PDF renderer process failed for a season sheet")
        return refusal(refused, view.url(), "season sheet")
    response = make_response(pdf)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = content_disposition("inline", f"{circle.name} season", "pdf")
    return response
