"""The Gleek scorekeeper.

``scorekeeper.rules`` is the pure domain (importable without Flask);
``create_app`` is the Flask app factory (``flask --app scorekeeper run``).
Flask and the web layer are imported inside the factory, not at the top of
this module: ``scorekeeper settle`` imports this package too, and must not pay
for Flask (docs/engineering.md, "Start-up").
"""

import os
from pathlib import Path

from .limits import MAX_RECORD_BYTES


def create_app(test_config=None):
    """Build the app: configuration, the database, the web layer."""
    from flask import Flask  # not for settle, which imports this package too

    from . import db, logs, web  # not for settle, which imports this package too
    from .places import instance_folder, resource_dir  # not for settle, which imports this package too
    from .server import kept_polls, proxy, replica, security  # not for settle, which imports this package too

    logs.install()  # before anything can log: no log line carries a link's id

    app = Flask(
        "scorekeeper",
        instance_path=str(instance_folder()),
        instance_relative_config=True,
        template_folder=str(resource_dir("templates")),
        static_folder=str(resource_dir("static")),
    )
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorekeeper.db"),
        MAX_CONTENT_LENGTH=MAX_RECORD_BYTES,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # the cookie (this browser's tables) is written when it changes, not re-signed on every poll
        SESSION_REFRESH_EACH_REQUEST=False,
        PERMANENT_SESSION_LIFETIME=400 * 24 * 3600,  # the longest a browser keeps a cookie
        POLL_SECONDS=3,
        # a club night's standings and big screen: the front answers them from files, so a save
        # reaches every screen within about this (bench/night_load_bench.py: p95 0.48 s at 0.5)
        NIGHT_POLL_SECONDS=0.5,
        PUBLIC_URL=None,
        BACKUP_DIR=str(Path(app.instance_path) / "backups"),
        BACKUP_KEEP=20,
        PDF_WAITING=1,  # request threads (of each process's 4) that may wait for a PDF sheet, of each kind (pdf.py)
        PDF_RENDERS_PER_MINUTE=6,  # new PDF renders one client address may start a minute (pdf.py)
        SESSIONS_PER_MINUTE=10,  # new sessions (form or import) one client address may create a minute
        WARM_FOLLOW_SECONDS=1.0,  # each served process follows the other's changes this often (server/warm.py; 0: not)
        SEND_FILE_MAX_AGE_DEFAULT=600,
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_MIMETYPES=[
            "text/html",
            "text/css",
            "application/javascript",
            "text/javascript",
            "application/json",
            "image/svg+xml",
            "application/manifest+json",
        ],
        COMPRESS_MIN_SIZE=500,
        PROXY_COUNT=0,  # proxies in front whose X-Forwarded-* are believed (1 behind Caddy): scorekeeper/server/proxy.py
        PROXY_FROM=["127.0.0.1", "::1"],  # the front's addresses: forwarded headers from anyone else are dropped
        HSTS_SECONDS=365 * 24 * 3600,  # over https, for a host name
        REPLICA=None,  # a folder on another disk or a replica URL (s3://, sftp://): Litestream's (scorekeeper/server/replica.py)
        REPLICA_SYNC_SECONDS=1.0,  # how often Litestream reads the WAL, and copies what it read to the replica
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    replica.init_app(app)  # a missing database restored before anything makes an empty one
    db.init_app(app)
    security.init_app(app)  # the server's own host names first, before any page
    web.init_app(app)
    proxy.init_app(app)
    kept_polls.init_app(app)  # outermost: a poll answered before the front's headers are read (server/kept_polls.py)
    return app


def _secret_key(instance) -> str:
    """A secret key kept in instance/ (made on first start, readable by its owner only)."""
    import secrets  # not for settle, which imports this package too

    from .private import FILE_MODE, private_dir  # not for settle, which imports this package too

    path = instance / "secret_key"
    if not path.exists():
        private_dir(instance)
        try:  # created 0600 (never readable by others, not even for a moment), and only once
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        except FileExistsError:
            pass  # another process made it meanwhile
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
    return path.read_text().strip()
