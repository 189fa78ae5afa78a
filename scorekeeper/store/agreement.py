"""The players' OK of each hand, tied to the hand as it was when it was given."""

from __future__ import annotations

import hashlib
import json
from collections import namedtuple

from sqlite_utils import Database

from ..rules.core import SEATS
from .common import NotFound, new_token, now
from .schema import writing

#: One player's OK or dispute of a hand, as the hand was when it was given.
Verdict = namedtuple("Verdict", "id number seat fingerprint verdict reason at")
#: Where a hand stands: the seats that agreed, the disputes (seat -> reason).
Agreement = namedtuple("Agreement", "agreed disputed")


#: What a record's hand says of the players' OKs (the database keeps them as verdicts).
AGREEMENT_KEYS = ("agreed", "disputes")


def without_agreement(hand: dict) -> dict:
    if "agreed" in hand or "disputes" in hand:
        return {k: v for k, v in hand.items() if k not in AGREEMENT_KEYS}
    return hand


def fingerprint(hand: dict) -> str:
    """The hand as it was agreed to: an edit changes it, so an OK given before an
    edit no longer counts (and comes back if the edit is undone)."""
    text = json.dumps(without_agreement(hand), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=9).hexdigest()


def agreement(session, numbers=None) -> dict:
    """Each hand's (or the hands ``numbers``'s) agreement as it stands: every
    player's latest OK or dispute of the hand as it is now (index: hand number − 1).
    ``session``: a ``reads.Session`` (reads imports this module, not the other way)."""
    wanted = range(1, len(session.hands) + 1) if numbers is None else numbers
    prints = {n: fingerprint(session.hands[n - 1]) for n in wanted}
    latest = {}
    for verdict in session.verdicts:
        if prints.get(verdict.number) == verdict.fingerprint:
            latest[(verdict.number, verdict.seat)] = verdict
    out = {}
    for n in prints:
        said = [latest[(n, s)] for s in SEATS if (n, s) in latest]
        out[n - 1] = Agreement(
            frozenset(v.seat for v in said if v.verdict == "ok"),
            {v.seat: v.reason for v in said if v.verdict == "dispute"},
        )
    return out


class StaleVerdict(Exception):
    """The hand was changed (or is gone) since the player looked at it."""


def give_verdict(
    db: Database, session_id: str, number: int, seat: int, seen: str, verdict: str, reason: str = ""
) -> None:
    """Record an OK or a dispute of hand ``number`` by ``seat``, for the hand as it
    was seen (``seen``, its fingerprint): ``StaleVerdict`` if it has changed since."""
    with writing(db):
        rows = list(db.query("select data from hands where session_id = ? and number = ?", [session_id, number]))
        if not rows or fingerprint(json.loads(rows[0]["data"])) != seen:
            raise StaleVerdict(number)
        db["verdicts"].insert(
            {
                "session_id": session_id,
                "number": number,
                "seat": seat,
                "fingerprint": seen,
                "verdict": verdict,
                "reason": reason,
                "at": now(),
            }
        )


def seat_links(db: Database, session_id: str, make: bool = True) -> list[str] | None:
    """The three players' own links (made the first time they are asked for; with
    ``make`` false, None unless all three exist: a backup only reads)."""
    rows = {
        r["seat"]: r["token"] for r in db.query("select seat, token from seat_links where session_id = ?", [session_id])
    }
    if not make:
        return [rows[s] for s in SEATS] if len(rows) == len(SEATS) else None
    for seat in SEATS:
        if seat not in rows:
            rows[seat] = new_token()
            db["seat_links"].insert({"token": rows[seat], "session_id": session_id, "seat": seat})
    return [rows[s] for s in SEATS]


def session_id_of(db: Database, key: str, kind: str) -> str:
    """The session a link (scorer's, watch or a player's) belongs to."""
    if kind == "s":
        return key
    table, column = ("sessions", "watch_id") if kind == "w" else ("seat_links", "token")
    rows = list(
        db.query(f"select {'id' if kind == 'w' else 'session_id'} as sid from {table} where {column} = ?", [key])
    )
    if not rows:
        raise NotFound(key)
    return rows[0]["sid"]
