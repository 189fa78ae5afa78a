"""Offline from a cold start, where the browser allows it (https, or localhost):
the service worker (static/sw.js, served as ``/sw.js`` so that its scope is the
whole app) and the versioned static files it keeps.

- Every ``url_for('static', ...)`` carries ``?v=<the file's hash>``; a file
  asked for with its current hash is sent as immutable for a year (any change
  is a new URL), without it as before (10 minutes).
- ``/sw.js`` is static/sw.js with the list of those URLs and their combined
  version in front: a new version of any static file is a new worker, which
  the browser finds on the next visit (``/sw.js`` is never cached) and which
  replaces the cached files (docs/engineering.md, "Offline").
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

from flask import Blueprint, Response, current_app, request

bp = Blueprint("offline", __name__)
KEPT = (".css", ".js", ".png", ".svg")  # what the worker keeps (never itself)
YEAR = 365 * 24 * 3600


class Assets:
    """The static files' hashes, read again when a file changes on disk."""

    def __init__(self, folder: str):
        self.folder = Path(folder)
        self._hashes: dict[str, tuple] = {}
        self._lock = threading.Lock()

    def version_of(self, filename: str) -> str | None:
        path = self.folder / filename
        try:
            stat = path.stat()
        except (OSError, ValueError):
            return None
        key = (stat.st_mtime_ns, stat.st_size)
        known = self._hashes.get(filename)
        if known is not None and known[0] == key:
            return known[1]
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        with self._lock:
            self._hashes[filename] = (key, digest)
        return digest

    def kept(self) -> list[str]:
        """The files the worker keeps, as paths under static/."""
        return sorted(
            p.relative_to(self.folder).as_posix()
            for p in self.folder.rglob("*")
            if p.is_file() and p.suffix in KEPT and p.name != "sw.js"
        )


def assets(app=None) -> Assets:
    app = app or current_app
    found = app.extensions.get("scorekeeper.assets")
    if found is None or found.folder != Path(app.static_folder):
        found = app.extensions["scorekeeper.assets"] = Assets(app.static_folder)
    return found


@bp.get("/sw.js")
def service_worker():
    kept = assets()
    urls = ["/static/" + name + "?v=" + kept.version_of(name) for name in kept.kept()]
    version = hashlib.sha256("\n".join(urls).encode()).hexdigest()[:12]
    source = (Path(current_app.static_folder) / "sw.js").read_text()
    head = f"const VERSION = {json.dumps(version)};\nconst ASSETS = {json.dumps(urls)};\n"
    response = Response(head + source, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()  # the browser's update check on each visit: 304 while nothing changed
    return response.make_conditional(request)


def init_app(app) -> None:
    @app.url_defaults
    def versioned_static(endpoint, values):
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = assets(app).version_of(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def immutable_when_versioned(response):
        if (
            request.endpoint == "static"
            and response.status_code == 200
            and request.args.get("v")
            and request.args["v"] == assets(app).version_of(request.view_args.get("filename", ""))
        ):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response
