"""A hosted server's housekeeping: sessions nobody has touched for a long time
are removed, with their backups (``EXPIRE_AFTER_DAYS``; never by default on a
LAN, a year when hosted: scorekeeper/hosting.py).

"Touched" is the last change of the session or of its hand in progress
(``sessions.updated_at``, ``drafts.updated_at``): watching a table does not
keep it. A session a circle holds is never removed so: it is one evening of
the circle's season (its ledger, what is still owed), kept as long as the circle."""

from __future__ import annotations

import datetime
import shutil
from pathlib import Path

from sqlite_utils import Database

from .common import is_token
from .schema import writing

BATCH = 500   # sessions removed per transaction (a writer waits for no longer than that)


def untouched_since(db: Database, cutoff: str) -> list[str]:
    """The ids of the sessions last changed before ``cutoff`` (an ISO time stamp)."""
    return [row[0] for row in db.execute(
        "select s.id from sessions s left join drafts d on d.session_id = s.id "
        "where s.updated_at < ? and (d.updated_at is null or d.updated_at < ?) "
        "and s.id not in (select session_id from circle_sessions)", [cutoff, cutoff]).fetchall()]


def expire(db: Database, days: float, backup_dir: str | Path | None,
           at: datetime.datetime | None = None) -> list[str]:
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
            batch = [i for i in ids[start:start + BATCH] if i in still]
            if not batch:
                continue
            marks = ",".join("?" * len(batch))
            for table, column in referring:
                db.execute(f"delete from [{table}] where [{column}] in ({marks})", batch)
            db.execute(f"delete from sessions where id in ({marks})", batch)
        removed += batch
    if backup_dir is not None:
        for session_id in removed:
            if is_token(session_id):   # a name from the database never leads outside the backup folder
                shutil.rmtree(Path(backup_dir) / session_id, ignore_errors=True)
    return removed


def _tables_referring_to_sessions(db: Database) -> list[tuple[str, str]]:
    """(table, column) of every foreign key to ``sessions`` (the hands, the history,
    the hand in progress, the players' links and OKs, PIN failures, and whatever a
    later migration adds)."""
    return [(table, fk.column) for table in db.table_names() if table != "sessions"
            for fk in db[table].foreign_keys if fk.other_table == "sessions"]
