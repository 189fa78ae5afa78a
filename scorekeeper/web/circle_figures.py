"""A circle's season, computed from its evenings and kept between requests.

Each evening is reduced once to its ``EveningFigures`` (``rules.season``), kept by
(database, session id, session version, the members at its seats): a new hand
in one session changes that session's version only, so only that evening is
computed again; renaming a member changes no figure at all (the figures name
members by id, ``#12``, and the pages put today's names on them). The season
(the evenings added up, with a filter) and the pages made from it are kept by
the circle's version and every evening's version: never stale, only recomputed.
The figures kept in the database across restarts, and every statement about them,
are ``store/kept_figures.py``'s.
"""

from __future__ import annotations

from datetime import date

from flask import current_app

from .. import store
from ..rules import BOOKS
from ..rules.record import settle
from ..rules.season import EveningFigures, Paid, counted, evening_figures, in_money, owed, season
from .cache import LATEST_SETTLEMENT, Recent
from .context import settlement_of

#: EveningFigures by (database, session id, version, members): a circle of 1,000
#: evenings and a club's other circles.
FIGURES = Recent(8192)
#: Seasons and rendered pages by (database, circle id, circle version, evenings' versions, filter, page).
SEASONS = Recent(64)
MONEY = Recent(64)  # each season's figures in money (``in_money``), by the season's key
PAGES = Recent(64)


def member_key(member_id) -> str:
    return f"#{member_id}"


def member_of(key: str) -> int | None:
    return int(key[1:]) if key.startswith("#") and key[1:].isdigit() else None


def _figures_of(db, session_id: str, version: int, members: str):
    session = store.get_session(db, session_id)
    if session.version != version:  # changed since the list was read: its figures are for the version read now
        version = session.version
    record = session.record(with_agreement=True)
    kept = (current_app.config["DATABASE"], session.id)
    # a session being played is settled hand by hand already: take its settlement from there
    settlement = settlement_of(session) if kept in LATEST_SETTLEMENT else settle(record)
    names = [
        member_key(m) if m else f"{n} (seat {s + 1})"
        for s, (m, n) in enumerate(zip(members.split(","), session.players))
    ]
    return evening_figures(record, session.id, names, settlement=settlement)


def figures(db, circle_id: str, versions: tuple | None = None) -> list:
    """Every evening's ``EveningFigures``: kept in this process, else kept in the
    database (``evening_figures``, by the same key and the rules' code), else
    computed (and kept in both)."""
    path = current_app.config["DATABASE"]
    versions = store.evening_versions(db, circle_id) if versions is None else versions
    found, missing = {}, []
    for evening in versions:
        kept = FIGURES.peek((path, *evening))
        if kept is not None:
            found[evening.session_id] = kept
        else:
            missing.append(evening)
    if missing:
        found.update(_kept_or_computed(db, path, circle_id, missing))
    return [found[evening.session_id] for evening in versions]


#: Evenings missing from this process's figures that are read by their ids (else every row of the circle).
FEW = 50


def _kept_or_computed(db, path: str, circle_id: str, missing: list[store.EveningVersion]) -> dict:
    """The ``missing`` evenings' figures: read back from their kept rows where a row is of
    their version, members and code, else computed and kept (session id -> figures)."""
    code = store.kept_code()
    wanted = {e.session_id: e for e in missing}
    found, fresh = {}, []
    rows = store.kept_rows_of(db, wanted) if len(wanted) <= FEW else store.kept_rows_of_circle(db, circle_id)
    for row in rows:
        evening = wanted.get(row.session_id)
        if evening is not None and (row.version, row.members, row.code) == (evening.version, evening.members, code):
            found[row.session_id] = store.decode_figures(row.data)
            FIGURES.put((path, *evening), found[row.session_id])
    for session_id, evening in wanted.items():
        if session_id not in found:
            found[session_id] = _figures_of(db, *evening)
            fresh.append(store.KeptRow(*evening, code, store.encode_figures(found[session_id])))
            FIGURES.put((path, *evening), found[session_id])
    if fresh:
        try:  # a cache: losing it to a crash costs a recomputation
            store.keep_rows(db, fresh)
        except Exception as error:  # pragma: no cover - a busy or full database: the figures are still shown
            current_app.logger.warning("evening figures not kept: %s", error)
    return found


def filter_of(args) -> tuple:
    """(since, until, rulebook) from the ledger's filter (each None when not given or not valid).
    A field given twice (a link made before the form carried each once) is its last value:
    the last choice made."""

    def last(name: str) -> str:
        values = args.getlist(name)
        return values[-1] if values else ""

    def day(raw):
        try:
            return date.fromisoformat(raw).isoformat() if raw else None
        except ValueError:
            return None

    book = last("rulebook") or None
    return day(last("since")), day(last("until")), book if book in BOOKS else None


def evenings_key(db, circle: store.Circle) -> tuple:
    """What the circle's season depends on, in one aggregate query: the circle's
    version (bumped by every change of its members, evenings or payments: a seat's
    member changes only so) and its evenings' versions (every change of a session
    bumps its version, never back: their count and sum move with any of them)."""
    return current_app.config["DATABASE"], circle.id, circle.version, *store.evenings_state(db, circle.id)


def season_of(db, circle: store.Circle, chosen: tuple = (None, None, None)):
    """The circle's season (with the filter ``chosen``), and the key it is kept by."""
    key = (*evenings_key(db, circle), chosen)
    return SEASONS.get(key, lambda: season(figures(db, circle.id), *chosen)), key


def money_of(season, key: tuple):
    """The season's figures in money per currency (``rules.season.in_money``), kept by the
    season's key: a page whose part is kept costs no recomputation."""

    return MONEY.get(key, lambda: in_money(season))


def open_debts(db, circle: store.Circle):
    """What is still owed over the open evenings: (debts, the open evenings' figures;
    those the season counts: ``counted``)."""
    open_ids = set(store.open_evening_ids(db, circle.id))
    evenings = sorted(
        counted(f for f in figures(db, circle.id) if f.key in open_ids),
        key=lambda f: (f.played_on is None, f.played_on or ""),
    )
    paid = [paid_of(p) for p in store.payments(db, circle.id) if set(p.evenings) <= open_ids]
    return owed(evenings, paid), evenings


def paid_of(payment) -> Paid:
    """A payment marked paid as the season counts it (members as ``#id``; counters as no currency)."""
    return Paid(
        member_key(payment.payer),
        member_key(payment.payee),
        payment.amount,
        None if payment.unit == "counters" else payment.unit,
    )


def owed_alone(evening: EveningFigures, payments) -> list:
    """What one evening owes by itself: its balances less the payments marked for it
    alone (a reopened evening owes only the difference its change made)."""
    return owed([evening], [paid_of(p) for p in payments if p.evenings == (evening.key,)])
