"""Each server process keeps the evening's sessions ready: decoded, settled and
encoded for their snapshot, including the changes the *other* process made.

Why: `make run` serves from two processes, each with its own caches
(web/cache.py, store/reads.py, files/backup_files.py). A session one process has never seen
costs its first request there the whole session: a 100-hand session is decoded,
settled and encoded again (~6 ms more than a warm save). 200 tables whose
sessions came in through one process (an import, a restart, the front sending a
table's saves to both) put that on the other process all at once: its first
seconds queued up to a second behind. And a session the other process changed
is re-read in full by the next request here, on the scorer's time.

So a thread of each process (``Follower``) reads, every ``WARM_FOLLOW_SECONDS``
(1 s), which sessions changed since it last looked (the ``history`` table, by its
rising id: every change of the hands writes one row) and brings each up to date
here, off the request path. At start it does the same for the sessions changed in
the last ``WARM_HOURS`` hours (newest first, at most ``WARM_SESSIONS``: what the
caches keep), so a server restarted mid-evening is warm within seconds; behind
the front it also leaves each of their live parts for the front to send.

Before the first request each process also compiles every page template
(``compile_templates``), kept compiled in the instance folder for the next start.

Nothing here is needed for a right answer: a request finds the session cold or
warm and answers the same. A failure is logged and the thread goes on."""

from __future__ import annotations

import os
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from jinja2 import FileSystemBytecodeCache

from .. import store
from ..db import get_db
from ..web.cache import SETTLEMENTS
from ..web.context import settlement_of
from ..files.backup_files import snapshot_text
from ..web.table import renew_part
from ..private import private_dir

WARM_FOLLOW_SECONDS = 1.0  # how often the other process's changes are followed (0: never)
WARM_HOURS = 12  # at start: the sessions changed this recently (an evening)
WARM_SESSIONS = 200  # at most this many at start (the settlements kept: web/cache.py)


class Follower:
    """Keeps this process's caches current with every process's changes."""

    def __init__(self, app):
        self.app = app
        self.last_change: int | None = None  # the newest history row followed
        self.thread: threading.Thread | None = None

    # -- what one pass does (called by the thread; the tests call them directly)

    def warm_recent(self, hours: float = WARM_HOURS, limit: int = WARM_SESSIONS) -> int:
        """Warm the sessions changed in the last ``hours`` (newest first, at most
        ``limit``), and start following from the newest change. Returns how many."""
        since = (datetime.now(timezone.utc) - timedelta(hours=hours)).isoformat(timespec="seconds")
        with self.app.app_context():
            db = get_db()
            self.last_change = store.newest_change(db)  # where following starts
            changed = store.changed_lately(db, since, limit)
            warmed = sum(self.warm(db, session.session_id) for session in changed)
            left = self.leave_for_the_front([session.watch_id for session in changed])
        if warmed:
            self.app.logger.info("warmed %d sessions changed in the last %g hours", warmed, hours)
        if left:
            self.app.logger.info("left %d live parts for the front", left)
        return warmed

    def leave_for_the_front(self, watch_ids) -> int:
        """Behind the front, each of these links' live part left for it
        (server/front_polls.py), unless one is there: the folder is emptied when the
        server starts, and otherwise every phone's first poll after a restart
        waits for the app (200 tables: 200 parts made in the first seconds,
        behind the saves). Returns how many were left.

        The folder is the processes' common one, so one process leaves them: the
        others, starting at the same moment, found every part missing and made
        each of them again (200 tables: ~0.9 s of CPU more, in the first seconds).
        A process that finds another one at it leaves nothing; a link it missed
        that way gets its part at its first poll, as without this."""
        files = self.app.extensions.get("scorekeeper.front_polls")
        if files is None:
            return 0
        with files.one_process_at_a_time() as mine:
            if not mine:
                return 0
            left = 0
            for watch_id in watch_ids:
                if not files.has_part(watch_id):
                    renew_part(self.app, watch_id)
                    left += files.has_part(watch_id)
            return left

    def follow_once(self) -> int:
        """Warm each session changed since the last pass. Returns how many were warmed
        (a session this process already has at its newest version costs one query)."""
        with self.app.app_context():
            db = get_db()
            if self.last_change is None:
                self.last_change = store.newest_change(db)
                return 0
            changed = store.changed_after(db, self.last_change)
            if not changed:
                return 0
            self.last_change = max(session.newest for session in changed)
            return sum(self.warm(db, session.session_id) for session in changed)

    def warm(self, db, session_id: str) -> bool:
        """Bring one session up to date in this process's caches (False: it was already)."""
        try:
            version = store.session_version(db, session_id)
        except store.NotFound:
            return False  # deleted meanwhile
        if SETTLEMENTS.peek((self.app.config["DATABASE"], session_id, version)) is not None:
            return False  # this process made that change, or has already followed it
        session = store.get_session(db, session_id)  # decodes only the hands that changed
        settlement_of(session)  # settles only from the first changed hand
        snapshot_text(session)  # encodes only the new hands for the next snapshot
        return True

    # -- the thread

    def start(self, interval: float = WARM_FOLLOW_SECONDS) -> threading.Thread:
        self.thread = threading.Thread(target=self.run, args=(interval,), name="warm-follower", daemon=True)
        self.thread.start()
        return self.thread

    def run(self, interval: float) -> None:
        try:
            self.warm_recent()
        except Exception:  # noqa: BLE001 - only an optimisation: requests answer without it
            self.app.logger.exception("could not warm the recent sessions")
        while True:
            time.sleep(interval)
            try:
                self.follow_once()
            except Exception:  # noqa: BLE001
                self.app.logger.exception("could not follow the other process's changes")
                time.sleep(interval)


def compile_templates(app) -> int:
    """Every page template compiled before the process serves (``serve``), each
    kept compiled in the instance folder (``cache/templates``: Jinja's bytecode
    cache, keyed by the template's source, so an edited template is compiled
    again). Returns how many.

    Why: Jinja compiles a template the first time it is used. All 48
    take ~0.6 s; the live part alone ~85 ms. A process just started (or the one
    that had not yet drawn a table) made its first requests wait for that, in
    every thread at once: the first live parts after a start took ~150 ms of CPU
    each. From the kept bytecode all of them load in ~20 ms."""
    env = app.jinja_env
    if env.bytecode_cache is None:
        folder = Path(app.instance_path) / "cache" / "templates"
        try:
            private_dir(folder)  # the owner's only, as the rest of the instance folder
        except OSError:
            pass
        if os.access(folder, os.W_OK):  # else compiled here only (Jinja would fail to keep them)
            env.bytecode_cache = FileSystemBytecodeCache(str(folder))
    names = env.list_templates(filter_func=lambda name: name.endswith(".html"))
    for name in names:
        env.get_template(name)
    return len(names)


def start(app) -> Follower | None:
    """Start this process's follower (``serve``: in each worker process, after the fork)."""
    interval = app.config.get("WARM_FOLLOW_SECONDS", WARM_FOLLOW_SECONDS)
    if not interval:
        return None
    follower = app.extensions["scorekeeper.warm"] = Follower(app)
    follower.start(interval)
    return follower
