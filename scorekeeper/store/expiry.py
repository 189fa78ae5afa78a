"""A hosted server's housekeeping: sessions nobody has touched for a long time
are removed, with their backups (``EXPIRE_AFTER_DAYS``; never by default on a
LAN, a year when hosted: scorekeeper/server/proxy.py).

"Touched" is the last change of the session or of its hand in progress
(``sessions.updated_at``, ``drafts.updated_at``): watching a table does not
keep it. A session a circle holds is never removed so: it is one evening of
the circle's season (its ledger, what is still owed), kept as long as the circle.

A circle nobody has used for as long (no change of the circle, its members or
payments, nor of any of its evenings) is removed with its evenings and their
backups (``expire_circles``): else an address's circles, and every evening an
archive brought into them, were kept for ever."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

from sqlite_utils import Database

from .common import is_token
from .schema import writing

BATCH = 500  # sessions removed per transaction (a writer waits for no longer than that)


def untouched_since(db: Database, cutoff: str) -> list[str]:
    """The ids of the sessions last changed before ``cutoff`` (an ISO time stamp)."""
    return [
        row[0]
        for row in db.execute(
            "select s.id from sessions s left join drafts d on d.session_id = s.id "
            "where s.updated_at < ? and (d.updated_at is null or d.updated_at < ?) "
            "and s.id not in (select session_id from circle_sessions)",
            [cutoff, cutoff],
        ).fetchall()
    ]


def expire(db: Database, days: float, backup_dir: str | Path | None, at: datetime.datetime | None = None) -> list[str]:
    """Remove the sessions untouched for ``days`` and their backup folders;
    the ids removed."""
    at = at or datetime.datetime.now(datetime.timezone.utc)
    cutoff = (at - datetime.timedelta(days=days)).isoformat(timespec="seconds")
    removed = []
    ids = untouched_since(db, cutoff)
    referring = _tables_referring_to_sessions(db)
    for start in range(0, len(ids), BATCH):
        with writing(db):
            # checked again inside the transaction: a change since the list was read keeps the session
            still = set(untouched_since(db, cutoff))
            batch = [i for i in ids[start : start + BATCH] if i in still]
            if not batch:
                continue
            marks = ",".join("?" * len(batch))
            for table, column in referring:
                db.execute(f"delete from [{table}] where [{column}] in ({marks})", batch)
            db.execute(f"delete from sessions where id in ({marks})", batch)
        removed += batch
    if backup_dir is not None:
        for session_id in removed:
            if is_token(session_id):  # a name from the database never leads outside the backup folder
                shutil.rmtree(Path(backup_dir) / session_id, ignore_errors=True)
    return removed


def _tables_referring_to_sessions(db: Database) -> list[tuple[str, str]]:
    """(table, column) of every foreign key to ``sessions`` (the hands, the history,
    the hand in progress, the players' links and OKs, PIN failures, and whatever a
    later migration adds)."""
    return _tables_referring_to(db, "sessions")


def _tables_referring_to(db: Database, other: str) -> list[tuple[str, str]]:
    return [
        (table, fk.column)
        for table in db.table_names()
        if table != other
        for fk in db[table].foreign_keys
        if fk.other_table == other
    ]


UNUSED_CIRCLES = (
    "select c.id from circles c where c.updated_at < :cutoff and (:circle is null or c.id = :circle) "
    "and not exists (select 1 from circle_sessions x join sessions s on s.id = x.session_id "
    "left join drafts d on d.session_id = s.id where x.circle_id = c.id "
    "and (s.updated_at >= :cutoff or d.updated_at >= :cutoff))"
)


def unused_circles(db: Database, cutoff: str, circle_id: str | None = None) -> list[str]:
    """The circles nobody has changed since ``cutoff``, nor any of their evenings (or
    hands in progress): the circle's own ``updated_at`` moves with every change of its
    members, evenings and payments."""
    return [row[0] for row in db.execute(UNUSED_CIRCLES, {"cutoff": cutoff, "circle": circle_id}).fetchall()]


def expire_circles(
    db: Database, days: float, backup_dir: str | Path | None, at: datetime.datetime | None = None
) -> tuple[list[str], list[str]]:
    """Remove the circles unused for ``days`` with their evenings (sessions, hands,
    history, …) and the evenings' backup folders, one circle a transaction:
    (the circles' ids, the sessions' ids)."""
    at = at or datetime.datetime.now(datetime.timezone.utc)
    cutoff = (at - datetime.timedelta(days=days)).isoformat(timespec="seconds")
    removed_circles, removed_sessions = [], []
    to_sessions = _tables_referring_to(db, "sessions")
    to_members = [(t, c) for t, c in _tables_referring_to(db, "members") if t != "seats"]
    to_circles = [(t, c) for t, c in _tables_referring_to(db, "circles") if t != "members"]
    for circle_id in unused_circles(db, cutoff):
        with writing(db):
            # checked again inside the transaction: a change since the list was read keeps the circle
            if not unused_circles(db, cutoff, circle_id):
                continue
            sessions = [
                row[0]
                for row in db.execute(
                    "select session_id from circle_sessions where circle_id = ?", [circle_id]
                ).fetchall()
            ]
            for start in range(0, len(sessions), BATCH):
                batch = sessions[start : start + BATCH]
                marks = ",".join("?" * len(batch))
                for table, column in to_sessions:
                    db.execute(f"delete from [{table}] where [{column}] in ({marks})", batch)
                db.execute(f"delete from sessions where id in ({marks})", batch)
            members = "(select id from members where circle_id = ?)"
            db.execute(f"update seats set member_id = null where member_id in {members}", [circle_id])
            for table, column in to_members:
                db.execute(f"delete from [{table}] where [{column}] in {members}", [circle_id])
            for table, column in to_circles:
                db.execute(f"delete from [{table}] where [{column}] = ?", [circle_id])
            db.execute("delete from members where circle_id = ?", [circle_id])
            db.execute("delete from circles where id = ?", [circle_id])
        removed_circles.append(circle_id)
        removed_sessions += sessions
    if backup_dir is not None:
        for session_id in removed_sessions:
            if is_token(session_id):  # a name from the database never leads outside the backup folder
                shutil.rmtree(Path(backup_dir) / session_id, ignore_errors=True)
    return removed_circles, removed_sessions
