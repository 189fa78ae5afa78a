"""A migrated empty database, made once per test process and copied for each test.

Creating an app on a new file applies every migration, which is about half the
time of creating an app; the tests' apps start from a copy of one migrated file
instead. Tests of the migrations themselves start from files of their own."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path


def migrated_template(folder: Path) -> Path:
    """An empty database in ``folder`` with every migration applied, all of it in
    the main file (no -wal), so a copy of that one file is whole."""
    from scorekeeper.store.schema import initialise

    path = folder / "test.db"
    initialise(path)
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return path


def fresh_database(template: Path, folder: Path) -> str:
    """A copy of the migrated template in ``folder`` (its mode, 0600, kept)."""
    path = folder / "test.db"
    shutil.copy2(template, path)
    return str(path)


def delete_session(db, session_id: str) -> None:
    """A session removed as expiry removes one (``store.expiry``): every row of every
    table with a foreign key to it, then the session. ``db``: a store connection."""
    from scorekeeper import store

    with store.writing(db):
        tables = [name for (name,) in db.execute("select name from sqlite_master where type = 'table'").fetchall()]
        for table in tables:
            for key in db.execute(f"pragma foreign_key_list([{table}])").fetchall():
                if key[2] == "sessions":
                    db.execute(f"delete from [{table}] where [{key[3]}] = ?", [session_id])
        db.execute("delete from sessions where id = ?", [session_id])
