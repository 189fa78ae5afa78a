"""The database for the app: each request gets a connection on first use and
gives it back at teardown (as in Flask's tutorial, except that the connection is
then kept for the next request of the same server thread: opening one and
reading the schema costs more than most queries), and the commands that manage
it (``flask --app scorekeeper init-db | backup | restore``). The schema, its
migrations and every write are in ``store/``."""

from __future__ import annotations

import threading
from pathlib import Path

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext

from . import private
from .files import backup_files
from . import store


class Connections:
    """One idle connection per thread, kept between that thread's requests (a
    connection is only ever used by the thread that opened it). A request that
    ended in an error closes its connection instead; one given back is never in
    a transaction and always writes with ``synchronous = FULL`` again (the hand
    in progress lowers it for its own commits)."""

    def __init__(self):
        self.idle = threading.local()

    def take(self, path: str):
        db, self.idle.db = getattr(self.idle, "db", None), None
        if db is not None and db.path == path:
            return db
        if db is not None:
            db.close()
        return store.connect(path)

    def give_back(self, db, failed: bool) -> None:
        store.live_changes.flush(db)  # a write made outside store.writing, told now
        if failed or db.conn.in_transaction:
            db.close()  # never hand a half-done transaction, or a connection in doubt, to the next request
            return
        db.conn.execute("PRAGMA synchronous = FULL")
        self.idle.db = db


def get_db():
    """This request's connection (taken on first use)."""
    if "db" not in g:
        g.db = current_app.extensions["scorekeeper.connections"].take(current_app.config["DATABASE"])
    return g.db


def close_db(exception=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        current_app.extensions["scorekeeper.connections"].give_back(db, failed=exception is not None)


def init_app(app: Flask) -> None:
    """Create and migrate the database (``create_app`` restored it from its replica
    first where it was missing and one is configured: scorekeeper/server/replica.py),
    clear what a killed server left half-written, and register teardown and the commands."""
    store.initialise(app.config["DATABASE"])
    # what an earlier release made readable by others (0644 files, 0755 folders) is put right
    private.fix_modes(app.instance_path, app.config["DATABASE"], app.config["BACKUP_DIR"])
    backup_files.remove_orphans(app.config["BACKUP_DIR"])
    # One idle connection held for the app's life: closing a request's
    # connection then never closes the last one, which in WAL mode would
    # checkpoint and delete the -wal file on every request.
    app.extensions["scorekeeper.keeper"] = store.connect_keeper(app.config["DATABASE"])
    app.extensions["scorekeeper.connections"] = Connections()
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


@click.command("init-db")
@with_appcontext
def init_db_command():
    """Create the database (if missing) and apply migrations."""
    store.initialise(current_app.config["DATABASE"])
    print(f"Database ready: {current_app.config['DATABASE']}")


@click.command("backup")
@with_appcontext
@click.option("--out", default=None, help="Folder for the backup (default: instance/backups/full-<time>).")
def backup_command(out):
    """Write every session to JSON files (one per session)."""
    out = out or str(Path(current_app.config["BACKUP_DIR"]) / ("full-" + store.now().replace(":", "")))
    paths, problems = backup_files.backup_all(store.connect(current_app.config["DATABASE"]), out)
    circles = sum(path.name.startswith("circle-") for path in paths)
    nights = sum(path.name.startswith("night-") for path in paths)
    paths = [path for path in paths if not path.name.startswith(("circle-", "night-"))]
    also = (f" and {circles} circle(s)" if circles else "") + (f" and {nights} club night(s)" if nights else "")
    for problem in problems:  # one bad session never stops the others being backed up
        click.echo(problem, err=True)
    if problems:
        missing = sum(": not backed up: " in problem for problem in problems)
        click.echo(
            f"Backed up {len(paths)} session(s){also} to {out}"
            + (f"; {missing} could not be backed up" if missing else "; some answers were left out"),
            err=True,
        )
        raise SystemExit(1)
    print(f"Backed up {len(paths)} session(s){also} to {out}")


@click.command("restore")
@with_appcontext
@click.argument("paths", nargs=-1, required=True)
def restore_command(paths):
    """Restore sessions from backup files or folders (same links as before)."""
    try:
        restored, notes = backup_files.restore_files(store.connect(current_app.config["DATABASE"]), paths)
    except store.Refused as refused:  # every file is checked before any is restored
        for problem in refused.lines():
            click.echo(problem, err=True)
        click.echo("Nothing was restored.", err=True)
        raise SystemExit(1) from None
    for note in notes:  # over an existing session: what was restored there, what it kept
        print(note)
    files = backup_files.expand(paths)[0]
    circles = sum(1 for path in files if path.name.startswith("circle-"))
    nights = sum(1 for path in files if path.name.startswith("night-"))
    print(
        f"Restored {len(restored)} session(s)"
        + (f" and {circles} circle(s)" if circles else "")
        + (f" and {nights} club night(s)" if nights else "")
    )
