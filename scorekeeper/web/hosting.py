"""What a hosted server needs besides the pages: ``/healthz`` for the service
manager, the settings whose defaults differ when hosted (``setting``), and the
expiry of sessions nobody touches (scorekeeper/server/proxy.py says when;
store/expiry.py does it), checked at most once an hour per server
process, after a response has gone."""

from __future__ import annotations

import threading
import time

from flask import Blueprint, Flask, current_app, jsonify

from .. import store
from ..db import get_db

bp = Blueprint("hosting", __name__)
EXPIRY_EVERY = 3600.0  # seconds between two checks for expired sessions, per process
HOSTED_DEFAULTS = {"EXPIRE_AFTER_DAYS": 365, "SESSIONS_PER_ADDRESS": 200, "CIRCLES_PER_ADDRESS": 20}


def is_hosted(app: Flask) -> bool:
    """Served behind a front (``PROXY_COUNT`` set: scorekeeper/server/proxy.py)."""
    return bool(app.config.get("PROXY_COUNT"))


def setting(app: Flask, key: str):
    """A setting whose default depends on being hosted (HOSTED_DEFAULTS), else None."""
    if app.config.get(key) is not None:
        return app.config[key]
    return HOSTED_DEFAULTS[key] if is_hosted(app) else None


@bp.get("/healthz")
def healthz():
    """200 when the database answers a query, else 503 (nothing cached: it asks each time)."""
    try:
        store.database_answers(get_db())
    except Exception as error:  # noqa: BLE001 - any failure is the answer
        response = jsonify(database="not answering", error=type(error).__name__)
        response.status_code = 503
    else:
        response = jsonify(database="ok")
    response.headers["Cache-Control"] = "no-store"
    return response


class Expiry:
    """Runs ``store.expire`` now and then, one run at a time per process."""

    def __init__(self):
        self.last, self.lock = 0.0, threading.Lock()

    def due(self) -> bool:
        return time.monotonic() - self.last >= EXPIRY_EVERY

    def run(self, app) -> list[str]:
        days = setting(app, "EXPIRE_AFTER_DAYS")
        if days is None or not self.lock.acquire(blocking=False):
            return []
        try:
            self.last = time.monotonic()
            db = store.connect(app.config["DATABASE"])
            try:
                removed = store.expire(db, days, app.config["BACKUP_DIR"])
                circles, evenings = store.expire_circles(db, days, app.config["BACKUP_DIR"])
            finally:
                db.close()
            if removed:
                app.logger.info("removed %d session(s) untouched for %s days", len(removed), days)
            if circles:
                app.logger.info(
                    "removed %d circle(s) unused for %s days, with their %d evening(s)",
                    len(circles),
                    days,
                    len(evenings),
                )
            return removed + evenings
        finally:
            self.lock.release()


def init_app(app) -> None:
    expiry = app.extensions["scorekeeper.expiry"] = Expiry()

    @app.after_request
    def now_and_then(response):
        if expiry.due() and setting(app, "EXPIRE_AFTER_DAYS") is not None:
            flask_app = current_app._get_current_object()
            response.call_on_close(lambda: expiry.run(flask_app))
        return response
