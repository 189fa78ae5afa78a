"""The table PIN: the tries counted and checked in one transaction."""

from __future__ import annotations

import math

from sqlite_utils import Database

from .schema import writing


PIN_TRIES = 5
PIN_WINDOW = 15 * 60  # seconds


def reserve_pin_try(db: Database, session_id: str, at: float) -> tuple[int | None, int]:
    """Count a PIN try before checking it: ``(try id, 0)``, or ``(None, seconds to
    wait)`` once PIN_TRIES tries in any PIN_WINDOW seconds have been counted.

    The count and the reservation are one short transaction, so a burst of
    parallel tries cannot all see "fewer than 5" and all be checked. The slow hash
    check happens after it, outside any transaction (holding SQLite's write lock
    through a deliberately slow check would hold up every save). A reserved try
    counts as a wrong one until ``forget_pin_try`` says it was right."""
    with writing(db):
        db.execute("delete from pin_failures where at <= ?", [at - PIN_WINDOW])
        rows = db.execute("select at from pin_failures where session_id = ? order by at",
                          [session_id]).fetchall()
        if len(rows) >= PIN_TRIES:
            return None, max(1, math.ceil(rows[-PIN_TRIES][0] + PIN_WINDOW - at))
        return db["pin_failures"].insert({"session_id": session_id, "at": at}).last_pk, 0


def forget_pin_try(db: Database, try_id: int) -> None:
    """The reserved try was the right PIN: it does not count against the table."""
    with writing(db):
        db.execute("delete from pin_failures where id = ?", [try_id])
