"""A settled evening changed: an evening its circle has closed (its payments
marked) is changed only by a change that says it reopens it; reopened, with the
evenings settled together with it, its payments stay recorded, so What is owed
(the open evenings' balances minus the payments made for them) is exactly the
difference the change made."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlite_utils import Database

from .circles import _bump
from .common import EveningSettled
from .payments import closed_evenings
from .schema import writing


@dataclass(frozen=True)
class SettledEvening:
    """An evening its circle calls settled (closed): a change to it reopens it."""

    circle_id: str
    session_id: str
    closed_at: str
    payments: int  # how many payments were marked for it


def settled_evening(db: Database, session_id: str) -> SettledEvening | None:
    """The session as a settled evening of its circle, or None (in no circle, or open)."""
    row = db.execute(
        "select circle_id, closed_at from circle_sessions where session_id = ? and closed_at is not null", [session_id]
    ).fetchone()
    if row is None:
        return None
    marked = sum(
        session_id in json.loads(evenings)
        for (evenings,) in db.execute("select evenings from payments where circle_id = ?", [row[0]])
    )
    return SettledEvening(row[0], session_id, row[1], marked)


def settled_together(db: Database, circle_id: str, session_id: str) -> set:
    """The closed evenings settled with this one: closed in the same step
    (``close_evenings`` stamps them alike: their balances and payments were
    added up as one), or sharing a payment with it, and so on."""
    closed = closed_evenings(db, circle_id)
    marks = [
        set(json.loads(evenings))
        for (evenings,) in db.execute("select evenings from payments where circle_id = ?", [circle_id])
    ]
    group, grown = {session_id}, True
    while grown:
        stamps = {closed[e] for e in group}
        linked = {e for e, at in closed.items() if at in stamps}
        linked |= {e for m in marks if m & group for e in m if e in closed}
        grown = not linked <= group
        group |= linked
    return group


def settled_or_reopened(db: Database, session_id: str, reopen: bool) -> list[str]:
    """Inside the write transaction of a change to a session: if its circle has
    settled it, ``EveningSettled`` (nothing changed) unless the change says it
    ``reopen``s it; then it is reopened with the evenings settled together with it,
    their payments kept, so that What is owed (their balances minus what was paid)
    is exactly the difference the change made. The evenings reopened, in order."""
    settled = settled_evening(db, session_id)
    if settled is None:
        return []
    if not reopen:
        raise EveningSettled(settled)
    group = sorted(settled_together(db, settled.circle_id, session_id))
    db.execute(
        f"update circle_sessions set closed_at = null where circle_id = ? and session_id in "
        f"({','.join('?' * len(group))})",
        [settled.circle_id, *group],
    )
    _bump(db, settled.circle_id)
    return group


def reopen_settled(db: Database, session_id: str) -> list[str]:
    """A settled evening reopened on purpose, before a change (the table's
    "Reopen"): the evenings reopened ([] if it was open)."""
    with writing(db):
        return settled_or_reopened(db, session_id, reopen=True)
