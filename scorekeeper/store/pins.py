"""The table PIN: the tries counted and checked in one transaction.

Wrong tries are counted per client address *and* per session. A client gets
``PIN_TRIES`` tries in any ``PIN_WINDOW`` seconds, whatever the others do: one
guesser no longer locks everyone out (five wrong PINs from anyone used to keep the
scorer's second phone out of the table). The session as a whole gets
``SESSION_PIN_TRIES`` in any ``SESSION_PIN_WINDOW``: a guesser who changes address
still checks at most 100 of a PIN's 10,000 values (4 digits; more with 5 to 8)
a day, a 1 % chance. Past that ceiling every new device waits, as before (the
devices already unlocked, the scorer's own first of all, stay unlocked).

A circle's PIN is its evenings' too (a new evening gets it), so a circle and
the evenings it holds count as one: tries on any of them go towards one
ceiling of SESSION_PIN_TRIES a day and one client's PIN_TRIES in any
PIN_WINDOW. Before, each evening had its own ceiling: a circle of 4 evenings
let 500 tries a day check its one PIN.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from sqlite_utils import Database

from .schema import writing


PIN_TRIES = 5  # a client's tries ...
PIN_WINDOW = 15 * 60  # ... in any 15 minutes
SESSION_PIN_TRIES = 100  # every client's tries together ...
SESSION_PIN_WINDOW = 24 * 60 * 60  # ... in any 24 hours


class PinTry(NamedTuple):
    """A reserved try (``id``), or a refusal: ``id`` None, ``wait`` seconds until
    the next try, ``table_wide`` if it is the session's ceiling, not this client's,
    ``circle_wide`` if that ceiling is its circle's (shared with its evenings)."""

    id: int | None
    wait: int = 0
    table_wide: bool = False
    circle_wide: bool = False


#: Where each kind of PIN counts its tries: a session's, a circle's, a club night's organizer's (the same rules).
TRIES = {
    "session": ("pin_failures", "session_id"),
    "circle": ("circle_pin_failures", "circle_id"),
    "night": ("night_pin_failures", "night_id"),
}

#: Every try counted against a circle's one PIN: on the circle, and on each evening it holds.
CIRCLE_TRIES = (
    "select at, address from circle_pin_failures where circle_id = :circle "
    "union all select at, address from pin_failures where session_id in "
    "(select session_id from circle_sessions where circle_id = :circle)"
)


def reserve_pin_try(db: Database, session_id: str, address: str, at: float, kind: str = "session") -> PinTry:
    """Count a PIN try from ``address`` before checking it, or refuse it once this
    client had PIN_TRIES in PIN_WINDOW seconds, or the session SESSION_PIN_TRIES
    in SESSION_PIN_WINDOW. A circle's tries and its evenings' count together
    (``session_id`` is the circle's id for ``kind`` "circle").

    The count and the reservation are one short transaction, so a burst of
    parallel tries cannot all see "fewer than 5" and all be checked. The slow hash
    check happens after it, outside any transaction (holding SQLite's write lock
    through a deliberately slow check would hold up every save). A reserved try
    counts as a wrong one until ``forget_pin_try`` says it was right."""
    address = address or "unknown"
    table, column = TRIES[kind]
    with writing(db):
        for old in TRIES.values():
            db.execute(f"delete from {old[0]} where at <= ?", [at - SESSION_PIN_WINDOW])
        circle = {"circle": session_id, "session": None, "night": None}[kind]
        if kind == "session":
            circle = _circle_of(db, session_id)
        if circle is None:
            tries, scope = f"select at, address from {table} where {column} = :key", {"key": session_id}
        else:
            tries, scope = CIRCLE_TRIES, {"circle": circle}
        mine = [
            row[0]
            for row in db.execute(
                f"select at from ({tries}) where address = :address and at > :since order by at",
                dict(scope, address=address, since=at - PIN_WINDOW),
            )
        ]
        if len(mine) >= PIN_TRIES:
            return PinTry(None, max(1, math.ceil(mine[-PIN_TRIES] + PIN_WINDOW - at)))
        everyone = [row[0] for row in db.execute(f"select at from ({tries}) order by at", scope)]
        if len(everyone) >= SESSION_PIN_TRIES:
            return PinTry(
                None,
                max(1, math.ceil(everyone[-SESSION_PIN_TRIES] + SESSION_PIN_WINDOW - at)),
                True,
                circle is not None,
            )
        return PinTry(db[table].insert({column: session_id, "address": address, "at": at}).last_pk)


def _circle_of(db: Database, session_id: str) -> str | None:
    rows = db.execute("select circle_id from circle_sessions where session_id = ?", [session_id]).fetchall()
    return rows[0][0] if rows else None


def forget_pin_try(db: Database, try_id: int, kind: str = "session") -> None:
    """The reserved try was the right PIN: it does not count against the table (or circle)."""
    with writing(db):
        db.execute(f"delete from {TRIES[kind][0]} where id = ?", [try_id])
