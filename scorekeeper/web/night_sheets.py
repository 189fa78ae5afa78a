"""A club night's sheet PDF, from the organizer's link and from the public
standings link (``/night/<id>/sheet.pdf``, ``/n/<watch id>/sheet.pdf``), A4 or
Letter. The sheet holds no link at all (``printing.night_sheet``: it is printed from
the night's record, ``store.night_data``, which has none), so both links print the
same sheet and share one rendering, kept by the night's live key (its version and
every table session's version). Rendered in the season sheets' lane (``printing/pdf.py``,
``SEASONS``: its own renderer at a lower priority, so that a table's sheet never waits
behind a long night's: 60 players over 10 rounds take about 3 s), with the sheets'
turns and limits (the organizer's link first, as a table's scorer; a few new sheets a
minute per device): beyond them a 503 or a 429."""

from __future__ import annotations

import os

from flask import Blueprint, Response, current_app, request

from .. import store
from ..db import get_db
from ..printing.night_sheet import night_pdf_parts, print_night_pdf
from ..printing.pdf import SEASONS, Busy, Failed, TooMany, render_pdf
from .cache import PDFS
from .nights import load_night, watched
from .sheets import content_disposition, paper, refusal, sheet_zone_now

bp = Blueprint("night_sheets", __name__)


@bp.get("/night/<key>/sheet.pdf")
def organizer_sheet(key):
    night = load_night(key)  # a night with a PIN: only in a browser that unlocked it
    return night_sheet(night, f"/night/{night.id}", organizer=True)


@bp.get("/n/<watch_id>/sheet.pdf")
def standings_sheet(watch_id):
    night, _ = watched(watch_id)
    return night_sheet(night, f"/n/{night.watch_id}", organizer=False)


def night_sheet(night: store.Night, back: str, organizer: bool):
    config = current_app.config
    chosen = paper()
    db = get_db()
    key = ("night", config["DATABASE"], night.id, store.night_live_key(db, night.watch_id), chosen)

    def parts():  # once the renderer has a place for it
        current = store.get_night(db, night.id)
        return night_pdf_parts(
            store.night_data(db, current), store.night_text(db, current), chosen, printed=sheet_zone_now()
        )

    try:
        pdf = PDFS.get(
            key,
            lambda: render_pdf(
                key,
                None,
                chosen,
                config["PDF_WAITING"],
                os.path.join(current_app.instance_path, "season-pdf.lock"),
                scorer=organizer,
                client=f"{config['DATABASE']} {request.remote_addr or 'unknown'}",
                per_minute=config["PDF_RENDERS_PER_MINUTE"],
                parts_of=parts,
                printer=print_night_pdf,
                lane=SEASONS,
            ),
        )
    except (Busy, TooMany) as refused:
        if isinstance(refused, Failed):
            current_app.logger.error("The PDF renderer process failed for a club night's sheet")
        return refusal(refused, back, "night's sheet")
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = content_disposition("inline", night.name, "pdf", "gleek-night")
    return response
