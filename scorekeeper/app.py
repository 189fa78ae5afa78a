"""The Flask app: configuration, database per request, filters, error pages."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, g, render_template

from . import security, store
from .htmx import init_htmx
from .limits import MAX_RECORD_BYTES
from .rules.core import SUIT_SYMBOLS, format_counters, signed_counters

ROOT = Path(__file__).resolve().parent.parent


def _secret_key(instance: Path) -> str:
    """A secret key kept in instance/ (made on first start)."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def instance_folder() -> Path:
    """instance/ beside the project, or the folder SCOREKEEPER_INSTANCE names (the
    database, secret key, config.py and backups live there)."""
    return Path(os.environ.get("SCOREKEEPER_INSTANCE") or ROOT / "instance").resolve()


def build_app(test_config=None) -> Flask:
    app = Flask(
        "scorekeeper",
        instance_path=str(instance_folder()),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorekeeper.db"),
        MAX_CONTENT_LENGTH=MAX_RECORD_BYTES,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        POLL_SECONDS=3,
        PUBLIC_URL=None,
        BACKUP_DIR=str(Path(app.instance_path) / "backups"),
        BACKUP_KEEP=20,
        PDF_WAITING=1,  # request threads (of each process's 4) that may wait for a PDF sheet (pdf.py)
        SESSIONS_PER_MINUTE=10,  # new sessions (form or import) one client address may create a minute
        SEND_FILE_MAX_AGE_DEFAULT=600,
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_MIMETYPES=["text/html", "text/css", "application/javascript", "text/javascript",
                            "application/json", "image/svg+xml", "application/manifest+json"],
        COMPRESS_MIN_SIZE=500,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    store.initialise(app.config["DATABASE"])
    from .backup import remove_orphans

    remove_orphans(app.config["BACKUP_DIR"])  # what a killed server left half-written
    # One idle connection held for the app's life: closing a request's
    # connection then never closes the last one, which in WAL mode would
    # checkpoint and delete the -wal file on every request.
    app.extensions["scorekeeper.keeper"] = store.connect_keeper(app.config["DATABASE"])
    init_htmx(app)
    from flask_compress import Compress

    Compress(app)
    security.init_app(app)

    @app.teardown_appcontext
    def close_db(exception=None):
        db = g.pop("db", None)
        if db is not None:
            db.close()

    app.jinja_env.filters["counters"] = format_counters
    app.jinja_env.filters["signed"] = signed_counters
    app.jinja_env.filters["zip_self"] = lambda values: [(v, v) for v in values]
    app.jinja_env.globals["SUIT_SYMBOLS"] = SUIT_SYMBOLS
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    from . import views

    app.register_blueprint(views.bp)
    _error_pages(app)
    _commands(app)
    return app


def get_db():
    from flask import current_app

    if "db" not in g:
        g.db = store.connect(current_app.config["DATABASE"])
    return g.db


def _error_pages(app: Flask) -> None:
    def page(status, title, message):
        return render_template("error.html", title=title, message=message), status

    @app.errorhandler(404)
    def not_found(error):
        return page(404, "Not found", "There is no such page or session here. Check the link, or start a new session.")

    @app.errorhandler(405)
    def not_allowed(error):
        return page(405, "Not allowed", "That action isn't available here.")

    @app.errorhandler(400)
    def bad_request(error):
        return page(400, "Bad request", "That request didn't make sense to the scorekeeper. Go back and try again.")

    @app.errorhandler(413)
    def too_large(error):
        limit = app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)
        return page(413, "Too large", f"That upload is too large: a session file is at most {limit} MB.")

    @app.errorhandler(500)
    def server_error(error):
        return page(500, "Something went wrong", "The scorekeeper hit a problem; nothing was saved. Go back and try again.")


def _commands(app: Flask) -> None:
    @app.cli.command("init-db")
    def init_db():
        """Create the database (if missing) and apply migrations."""
        store.initialise(app.config["DATABASE"])
        print(f"Database ready: {app.config['DATABASE']}")

    import click

    @app.cli.command("backup")
    @click.option("--out", default=None, help="Folder for the backup (default: instance/backups/full-<time>).")
    def backup_command(out):
        """Write every session to JSON files (one per session)."""
        from . import backup

        out = out or str(Path(app.config["BACKUP_DIR"]) / ("full-" + store.now().replace(":", "")))
        db = store.connect(app.config["DATABASE"])
        paths, problems = backup.backup_all(db, out)
        for problem in problems:
            click.echo(problem, err=True)
        if problems:
            click.echo(f"Backed up {len(paths)} session(s) to {out}; {len(problems)} could not be backed up",
                       err=True)
            raise SystemExit(1)
        print(f"Backed up {len(paths)} session(s) to {out}")

    @app.cli.command("restore")
    @click.argument("paths", nargs=-1, required=True)
    def restore_command(paths):
        """Restore sessions from backup files or folders (same links as before)."""
        from . import backup

        db = store.connect(app.config["DATABASE"])
        try:
            restored = backup.restore_files(db, paths)
        except store.Refused as refused:
            for problem in refused.problems:
                click.echo(problem, err=True)
            click.echo("Nothing was restored.", err=True)
            raise SystemExit(1)
        print(f"Restored {len(restored)} session(s)")
