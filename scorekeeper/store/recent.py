"""What the server asks of the database for itself, not for a page: the sessions
changed lately (each process keeps them warm: ``server/warm.py``) and whether the
database answers at all (``/healthz``)."""

from __future__ import annotations

from typing import NamedTuple

from sqlite_utils import Database


class Changed(NamedTuple):
    """A session changed lately: its id and its watch link's."""

    session_id: str
    watch_id: str


class ChangedSince(NamedTuple):
    """A session with changes after a given one: its id and its newest change's."""

    session_id: str
    newest: int


def newest_change(db: Database) -> int:
    """The id of the newest ``history`` row (0: none yet)."""
    return db.execute("select coalesce(max(id), 0) from history").fetchone()[0]


def changed_lately(db: Database, since: str, limit: int) -> list[Changed]:
    """The sessions changed at or after ``since`` (an ISO moment), newest first, at most ``limit``."""
    rows = db.execute(
        "select id, watch_id from sessions where updated_at >= ? order by updated_at desc limit ?", [since, limit]
    ).fetchall()
    return [Changed(*row) for row in rows]


def changed_after(db: Database, change_id: int) -> list[ChangedSince]:
    """Each session with a ``history`` row newer than ``change_id``, with its newest."""
    rows = db.execute(
        "select session_id, max(id) from history where id > ? group by session_id", [change_id]
    ).fetchall()
    return [ChangedSince(*row) for row in rows]


def database_answers(db: Database) -> None:
    """Asks the database one question (``/healthz``): raises if it cannot answer."""
    db.execute("select count(*) from sessions").fetchone()
