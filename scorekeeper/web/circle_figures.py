"""A circle's season, computed from its evenings and kept between requests.

Each evening is reduced once to its ``EveningFigures`` (``rules.season``), kept by
(database, session id, session version, the members at its seats): a new hand
in one session changes that session's version only, so only that evening is
computed again; renaming a member changes no figure at all (the figures name
members by id, ``#12``, and the pages put today's names on them). The season
(the evenings added up, with a filter) and the pages made from it are kept by
the circle's version and every evening's version: never stale, only recomputed.
"""

from __future__ import annotations

import contextlib
import copyreg
import io
import pickle
from datetime import date
from fractions import Fraction
from functools import lru_cache

from flask import current_app

from .. import store
from ..rules.season import EveningFigures, Paid, counted, owed
from ..rules.statistics import STATISTICS
from .cache import LATEST_SETTLEMENT, Recent

#: EveningFigures by (database, session id, version, members): a circle of 1,000
#: evenings and a club's other circles.
FIGURES = Recent(8192)
#: Seasons and rendered pages by (database, circle id, circle version, evenings' versions, filter, page).
SEASONS = Recent(64)
MONEY = Recent(64)   # each season's figures in money (``in_money``), by the season's key
PAGES = Recent(64)


def member_key(member_id) -> str:
    return f"#{member_id}"


def member_of(key: str) -> int | None:
    return int(key[1:]) if key.startswith("#") and key[1:].isdigit() else None


def evening_versions(db, circle_id: str) -> tuple:
    """(session id, version, members) of each evening: what every cached figure is keyed by.
    In the circle's order (``store.evenings``): the season lists undated evenings in the
    order given, and they are named by their number in that order ("Evening 3")."""
    rows = db.execute(
        "select s.id, s.version, (select group_concat(coalesce(member_id, ''), ',') from "
        "(select member_id from seats where session_id = s.id order by seat)) "
        "from circle_sessions x join sessions s on s.id = x.session_id where x.circle_id = ? "
        "order by coalesce(s.played_on, substr(x.added_at, 1, 10)), x.added_at, x.rowid",
        [circle_id]).fetchall()
    return tuple(rows)


def _figures_of(db, session_id: str, version: int, members: str):
    from ..rules.record import settle
    from ..rules.season import evening_figures
    from .context import settlement_of

    session = store.get_session(db, session_id)
    if session.version != version:   # changed since the list was read: its figures are for the version read now
        version = session.version
    record = session.record(with_agreement=True)
    kept = (current_app.config["DATABASE"], session.id)
    # a session being played is settled hand by hand already: take its settlement from there
    settlement = settlement_of(session) if kept in LATEST_SETTLEMENT else settle(record)
    names = [member_key(m) if m else f"{n} (seat {s + 1})" for s, (m, n) in
             enumerate(zip(members.split(","), session.players))]
    return evening_figures(record, session.id, names, settlement=settlement)


def rules_code() -> str:
    """What the rules' code is (a hash of ``rules/``): figures kept by an older
    release's rules are computed again, never shown."""
    global _CODE
    if _CODE is None:
        import hashlib
        from pathlib import Path

        digest = hashlib.sha256()
        for path in sorted((Path(__file__).resolve().parent.parent / "rules").glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        _CODE = digest.hexdigest()[:16]
    return _CODE


_CODE = None


def kept_code() -> str:
    """What a kept evening's figures were made by: the rules' code, ``encode``'s format
    and the statistics counted (a statistic added or taken away computes them again)."""
    return f"{rules_code()}{FORMAT}:{STATISTICS.keys()}"


def figures(db, circle_id: str, versions: tuple | None = None) -> list:
    """Every evening's ``EveningFigures``: kept in this process, else kept in the
    database (``evening_figures``, by the same key and the rules' code), else
    computed (and kept in both)."""
    path = current_app.config["DATABASE"]
    versions = evening_versions(db, circle_id) if versions is None else versions
    found, missing = {}, []
    for session_id, version, members in versions:
        kept = FIGURES.peek((path, session_id, version, members))
        if kept is not None:
            found[session_id] = kept
        else:
            missing.append((session_id, version, members))
    if missing:
        found.update(_kept_or_computed(db, path, circle_id, missing))
    return [found[session_id] for session_id, _, _ in versions]


#: The shape of ``encode``'s bytes: kept in each row's code (with the statistics' keys),
#: so rows of an older shape are computed again, never misread.
FORMAT = "p1"


@lru_cache(maxsize=16384)
def _shared_fraction(numerator: int, denominator: int) -> Fraction:
    """One Fraction per value read back, shared by every evening that has it (a
    Fraction cannot change): 1,000 evenings' money is a few hundred values, each
    made (and normalised) once."""
    return Fraction(numerator, denominator)


def _fraction_as_ints(value: Fraction) -> tuple:
    return _shared_fraction, (value.numerator, value.denominator)


#: How ``encode`` pickles: as pickle does, but a Fraction as its two ints (pickle's own
#: way writes its text, which was most of a cold page to parse back).
_PICKLING = {**copyreg.dispatch_table, Fraction: _fraction_as_ints}


def encode(f: EveningFigures) -> bytes:
    """An ``EveningFigures`` as pickle bytes (the records as they are, each Fraction
    as its numerator and denominator). Only this app's own database holds them."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _PICKLING
    pickler.dump(f)
    return out.getvalue()


def decode(data: bytes) -> EveningFigures:
    """``encode``'s bytes back into the ``EveningFigures`` they were made from (equal
    to it, Fractions and all)."""
    return pickle.loads(data)


#: Evenings missing from this process's figures that are read by their ids (else every row of the circle).
FEW = 50


def _kept_or_computed(db, path: str, circle_id: str, missing: list) -> dict:
    code = kept_code()
    wanted = {session_id: (version, members) for session_id, version, members in missing}
    found, fresh = {}, []
    if len(wanted) <= FEW:   # a new hand, a new evening: their rows only, not the circle's 1,000
        rows = db.execute("select session_id, version, members, code, data from evening_figures "
                          f"where session_id in ({','.join('?' * len(wanted))})", list(wanted))
    else:
        rows = db.execute("select f.session_id, f.version, f.members, f.code, f.data from evening_figures f "
                          "join circle_sessions x on x.session_id = f.session_id where x.circle_id = ?", [circle_id])
    for session_id, version, members, row_code, data in rows:
        if wanted.get(session_id) == (version, members) and row_code == code:
            found[session_id] = decode(data)
            FIGURES.put((path, session_id, version, members), found[session_id])
    for session_id, (version, members) in wanted.items():
        if session_id not in found:
            found[session_id] = _figures_of(db, session_id, version, members)
            fresh.append((session_id, version, members, code, encode(found[session_id])))
            FIGURES.put((path, session_id, version, members), found[session_id])
    if fresh:
        try:
            # a cache: losing it to a crash costs a recomputation. Inside a write transaction
            # already (a payment being marked reads what is owed in its own) it goes with that one.
            with contextlib.nullcontext() if db.conn.in_transaction else store.writing(db, durable=False):
                db.conn.executemany("insert or replace into evening_figures (session_id, version, members, code, data) "
                                    "values (?, ?, ?, ?, ?)", fresh)
        except Exception as error:   # pragma: no cover - a busy or full database: the figures are still shown
            current_app.logger.warning("evening figures not kept: %s", error)
    return found


def filter_of(args) -> tuple:
    """(since, until, rulebook) from the ledger's filter (each None when not given or not valid).
    A field given twice (a link made before the form carried each once) is its last value:
    the last choice made."""
    from ..rules import BOOKS

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
    count, total, last = db.execute(
        "select count(*), coalesce(sum(s.version), 0), max(s.updated_at) from circle_sessions x "
        "join sessions s on s.id = x.session_id where x.circle_id = ?", [circle.id]).fetchone()
    return current_app.config["DATABASE"], circle.id, circle.version, count, total, last


def season_of(db, circle: store.Circle, chosen: tuple = (None, None, None)):
    """The circle's season (with the filter ``chosen``), and the key it is kept by."""
    from ..rules.season import season

    key = (*evenings_key(db, circle), chosen)
    return SEASONS.get(key, lambda: season(figures(db, circle.id), *chosen)), key


def money_of(season, key: tuple):
    """The season's figures in money per currency (``rules.season.in_money``), kept by the
    season's key: a page whose part is kept costs no recomputation."""
    from ..rules.season import in_money

    return MONEY.get(key, lambda: in_money(season))


def open_debts(db, circle: store.Circle):
    """What is still owed over the open evenings: (debts, the open evenings' figures;
    those the season counts: ``counted``)."""
    open_ids = set(store.open_evening_ids(db, circle.id))
    evenings = sorted(counted(f for f in figures(db, circle.id) if f.key in open_ids),
                      key=lambda f: (f.played_on is None, f.played_on or ""))
    paid = [paid_of(p) for p in store.payments(db, circle.id) if set(p.evenings) <= open_ids]
    return owed(evenings, paid), evenings


def paid_of(payment) -> Paid:
    """A payment marked paid as the season counts it (members as ``#id``; counters as no currency)."""
    return Paid(member_key(payment.payer), member_key(payment.payee), payment.amount,
                None if payment.unit == "counters" else payment.unit)


def owed_alone(evening: EveningFigures, payments) -> list:
    """What one evening owes by itself: its balances less the payments marked for it
    alone (a reopened evening owes only the difference its change made)."""
    return owed([evening], [paid_of(p) for p in payments if p.evenings == (evening.key,)])

