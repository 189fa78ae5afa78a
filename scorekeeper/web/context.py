"""What every page of a table shows: the settlement, names, money, the next deal."""

from __future__ import annotations

import os
from functools import lru_cache

import segno
from flask import current_app, request

from .. import store
from ..words.wording import session_money
from ..db import get_db
from ..rules import BOOKS
from ..rules.core import eldest
from ..rules.record import settle
from ..words.names import short_names
from .agreement import for_table
from .cache import LATEST_SETTLEMENT, SETTLEMENTS
from .progress import in_progress

RECENT_HANDS = 24  # hands listed on the table page; the rest behind 'Show all'


def settlement_of(session: store.Session):
    """``settle`` of the session, cached by (database, id, version). A new version
    settles only the hands from the first one that changed (a saved hand: one hand).
    The database is in the key: a session restored into another database (or a
    test's second app in one process) starts again at version 1."""
    kept = (current_app.config["DATABASE"], session.id)

    def make():
        settled = settle(session.record(), LATEST_SETTLEMENT.get(kept))
        if len(LATEST_SETTLEMENT) > 256:
            LATEST_SETTLEMENT.clear()
        LATEST_SETTLEMENT[kept] = settled
        return settled

    return SETTLEMENTS.get((*kept, session.version), make)


def table_context(table, live: bool = True) -> dict:
    """``live``: also the hand in progress (the table page shows it; the form does not need it)."""
    session = table.session
    book = BOOKS[session.rulebook]
    dealer = session.next_dealer()
    draft = store.get_draft(get_db(), session.id) if live else None
    settlement = settlement_of(session)
    return {
        "table": table,
        "session": session,
        "book": book,
        "settlement": settlement,
        "names": tuple(session.players),
        "labels": short_names(session.players),  # the hand table's column heads ("Bartholomew…")
        "next_dealer": dealer,
        "next_eldest": eldest(dealer),
        "cash": session_money(settlement, session.stake) if live else None,  # money that adds up
        "next_hand_note": book.next_hand_note(session.hands),
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "show_all": request.args.get("all") == "1",
        "recent_hands": RECENT_HANDS,
        "in_progress": in_progress(session, draft) if live else None,
        "agreement": for_table(table, settlement) if live else {},
        "live_version": store.live_key(
            session.version,
            draft.version if draft else 0,
            session.verdicts[-1].id if session.verdicts else 0,
            session.scorer,
        ),
    }


def public_base_url() -> str:
    """The address other phones can open: never 'localhost' in a QR code."""
    configured = current_app.config.get("PUBLIC_URL") or os.environ.get("SCOREKEEPER_PUBLIC_URL")
    host = request.host
    hostname = host.rsplit(":", 1)[0] if not host.startswith("[") else host
    if configured and hostname in ("localhost", "127.0.0.1", "[::1]"):
        return configured.rstrip("/")  # `make run` serves on the LAN: show that address
    return f"{request.scheme}://{host}"


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2, omitsize=True)
