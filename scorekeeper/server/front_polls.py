"""Polls answered by the front itself (behind Caddy: `make run-https`, deploy/).

Under a club night's load (200 tables, 1,000 phones polling every 3 s through the
front) four requests in five are a watcher's or a player's phone asking for its
table's live part, and nearly all of them are a question another phone on the
same link has just asked. Answered by waitress, even replayed without Flask
(``server.kept_polls``), each still cost Python ~2 ms of CPU and a place in its
queue; Caddy answers one from a file for a fraction of that, on every core.

So for a watch link (``/w/<id>/live?v=<version>``, asked by htmx) the app leaves
its last answer in a folder the front reads (``FRONT_POLLS``; by default in
memory, ``default_folder``: ``front.caddyfile`` names the same one), one folder a link:

- ``same-<version>``, empty: the live version the app last answered for. A
  poll asking with that version is answered 204 by the front.
- ``part.html`` (with ``part.html.br`` and ``part.html.gz`` beside it, the same
  bytes compressed): the live part of that version. A poll asking with any other
  version is sent it by the front.
- nothing (no folder, or emptied): the front passes the poll to the app, which
  answers it as without a front and leaves its answer here again.

It is never stale: every change to what a watch link's part shows is a change
of its live version (``store.reads.live_key``), and every connection of the
server tells, once such a change is committed, which links it changed
(``store.live_changes``): their files are removed (``forget``). The app writes
a link's files only after reading its version, and reads it again once they
are written: if it changed meanwhile, it removes them itself. Either way a part
the front serves is one the app would have sent within the last few
milliseconds. A poll with any other query (``all=1``), without htmx's
``HX-Request``, for a player's or the scorer's link, or for a deleted session
always goes to the app. The folder is emptied when the server starts (a
database restored while it was stopped has other versions).

A club night's standings (``/n/<watch id>/live?v=<key>``) and its big screen
(``/n/<watch id>/screen/live?v=<key>``) are left the same way, in ``n/<watch
id>/``: one mark ``same-<key>`` (``store.night_live_key``) for both, and two
parts, ``part.html`` (the standings') and ``screen.html`` (the big screen's),
rendered once a key (``web.nights.PARTS``). They are renewed when the night
changes or any of its tables' sessions gets a new version (``store.live_changes``'s
night triggers), once the change is answered, by the changing request's thread (or
this process's renewing thread, for a change outside a request); saves at several
tables at the same moment renew them once more, not once each
(``Renewer.renew_nights``). A night deleted is renewed as the part that says so
(``web.nights.gone_parts``, under the key ``gone``): the screens left open are told
by the front, and stop polling.

Unlike a table's, a night's files are not removed when it changes, only replaced
when renewed: at 30 tables saving every 3 s the standings change ten times a
second, and removed at each save they were missing half the time, each poll
meanwhile reaching the app and holding one of its threads while the new standings
were rendered (measured: 800 of 1,500 screens' polls in the app, the saves' p50
at 1 s). So a screen may be told its standings are unchanged for the few
milliseconds between a save and the renewal's files (then shown at its next
poll). Renewals of one night are written in turn (``.writing``, an ``flock``) and
only forward: each notes when it read the night (``.read-at``), and one read
earlier than the files' is dropped, so the files end at the night's last change
whichever process renewed last. A renewal that fails removes them (the app then
answers, and leaves them again).
"""

from __future__ import annotations

import brotli
import fcntl
import gzip
import os
import re
import shutil
import stat
import threading
from contextlib import contextmanager
from hashlib import sha256
from pathlib import Path

from flask import g, has_request_context

from .. import store
from ..private import private_dir
from ..web.nights import renew_standings
from ..web.table import renew_part

LINK = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
VERSION = re.compile(r"[0-9a-z-]{1,64}\Z")
PART = "part.html"
SCREEN = "screen.html"  # a night's big screen's part, beside its standings' (PART)
READ_AT, NIGHT_LOCK = ".read-at", ".writing"  # a night's: when what its files show was read; its writers' lock
COMPRESSED = {".br": lambda data: brotli.compress(data, quality=5), ".gz": lambda data: gzip.compress(data, 6)}
MARK = "same-"
LOCK = ".leaving"  # held by the process leaving the evening's parts at start (warm.Follower)
TO_RENEW, ANSWERED = "front_polls_to_renew", "front_polls_answered"  # in flask.g, while a request is made
NIGHTS_TO_RENEW = "front_polls_nights_to_renew"


class PollFiles:
    """The folder of the front's answers, one sub-folder a watch link."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def of(self, watch_id: str, kind: str = "w") -> Path | None:
        """A watch link's folder (``kind`` "w"), or a night's ("n")."""
        return self.folder / kind / watch_id if LINK.match(watch_id) else None

    def keep(self, watch_id: str, version: str, body: bytes | None) -> bool:
        """The app's answer for ``version``: its part (``body``), or None when it
        answered 204 (only the mark then). False if it could not be written."""
        return self._keep(self.of(watch_id), version, {PART: body})

    def keep_night(self, watch_id: str, key: str, standings: bytes | None, screen: bytes | None, read_at: int) -> bool:
        """A night's answers for its live ``key``, read at ``read_at``
        (``time.monotonic_ns()``: one clock for every process of the machine): the
        standings' part and the big screen's, or None for both where the app
        answered 204 (the mark only; the parts of another key removed). Left only if
        no answer read later is there already: renewals end in any order, the files
        only go forward. True if the front has this key's answers or later ones."""
        folder = self.of(watch_id, "n")
        if folder is None or not VERSION.match(key):
            return False
        bodies = {PART: standings, SCREEN: screen}
        squeezed = {
            name + suffix: compress(body)
            for name, body in bodies.items()
            if body is not None
            for suffix, compress in COMPRESSED.items()
        }  # outside the lock
        try:
            private_dir(folder)
            fd = os.open(folder / NIGHT_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # the processes' renewals of one night, one after the other
                try:
                    newest = int((folder / READ_AT).read_text())
                except (FileNotFoundError, ValueError):
                    newest = -1
                mark = folder / (MARK + key)
                if read_at <= newest or (standings is None and mark.exists()):
                    return True  # later answers are there, or this key's own parts
                for name, body in bodies.items():
                    if body is None:
                        for suffix in ("", *COMPRESSED):
                            _unlink(folder / (name + suffix))
                    else:
                        for suffix in COMPRESSED:
                            _write(folder / (name + suffix), squeezed[name + suffix])
                        _write(folder / name, body)
                if not mark.exists():
                    _write(mark, b"")
                for name in os.listdir(folder):
                    if name.startswith(MARK) and name != mark.name:
                        _unlink(folder / name)
                _write(folder / READ_AT, str(read_at).encode())
                return True
            finally:
                os.close(fd)
        except OSError:
            return False  # the app answers this night's polls, as without a front

    def _keep(self, folder: Path | None, version: str, parts: dict) -> bool:
        if folder is None or not VERSION.match(version):
            return False
        try:
            private_dir(folder)  # and any folder above it made again 0700 (its parent removed meanwhile)
            for name, body in parts.items():
                if body is not None:
                    for suffix, compress in COMPRESSED.items():
                        _write(folder / (name + suffix), compress(body))
                    _write(folder / name, body)
            mark = folder / (MARK + version)
            if not mark.exists():
                _write(mark, b"")
            for name in os.listdir(folder):
                if name.startswith(MARK) and name != mark.name:
                    _unlink(folder / name)
            return True
        except OSError:
            return False  # the app answers this link's polls, as without a front

    @contextmanager
    def one_process_at_a_time(self):
        """True inside if this process holds the folder's lock (``.leaving``, an
        ``flock``: let go when the process ends, however it ends), False if another
        process holds it. Never waits."""
        try:
            private_dir(self.folder)
            fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            yield True  # no lock to be had: as before it, each process leaves them
            return
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield False
                return
            yield True
        finally:
            os.close(fd)  # and with it the lock

    def has_mark(self, watch_id: str, key: str, kind: str = "n") -> bool:
        """Whether the front answers 204 to a poll asking with ``key`` (``same-<key>`` is there)."""
        folder = self.of(watch_id, kind)
        return folder is not None and VERSION.match(key) is not None and (folder / (MARK + key)).exists()

    def has_part(self, watch_id: str, kind: str = "w") -> bool:
        """Whether the front has a part to send for this link (else its polls go to the app)."""
        folder = self.of(watch_id, kind)
        return folder is not None and (folder / PART).exists()

    def forget(self, watch_ids, kind: str = "w") -> None:
        """Every answer kept for these links (their live version changed); ``kind``
        "n": for these nights."""
        for watch_id in watch_ids:
            folder = self.of(watch_id, kind)
            if folder is None:
                continue
            try:
                names = os.listdir(folder)
            except FileNotFoundError:
                continue
            for name in names:  # the marks first: a poll then finds no 204 for the version now past
                if name.startswith(MARK):
                    _unlink(folder / name)
            for name in names:
                if not name.startswith(MARK):
                    _unlink(folder / name)

    def clear(self) -> None:
        """Nothing kept (the server starting)."""
        shutil.rmtree(self.folder / "w", ignore_errors=True)
        shutil.rmtree(self.folder / "n", ignore_errors=True)
        private_dir(self.folder)


def _write(path: Path, data: bytes) -> None:
    """Written whole, then put in place: the front never reads half a file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def folder_for(app) -> Path | None:
    """The folder of the front's answers: ``FRONT_POLLS`` (False: none, every poll
    to the app), by default ``default_folder`` of the instance folder."""
    configured = app.config.get("FRONT_POLLS")
    if configured is False:
        return None
    return Path(configured) if configured else default_folder(app.instance_path)


MEMORY = Path("/dev/shm")  # Linux's memory file system (tmpfs), where there is one
IN_MEMORY = "scorekeeper-front-"


def default_folder(instance_path: str | Path) -> Path:
    """Where the app and the front keep the front's answers unless configured: in
    memory (``/dev/shm/scorekeeper-front-<uid>-<instance>/polls``) where this user
    can have a folder of his own there, else ``front/polls`` in the instance folder.

    Why: every change of every table removes a link's four files and
    writes them again (each written whole and renamed into place). On a disk's file
    system (ext4) each of those is a journalled change of a folder, and it waits
    behind the database's fsyncs: under 200 tables' saves a third of the renewals'
    time was spent opening files. On tmpfs a renewal's files cost ~0.15 ms instead
    of ~0.75 ms, and nothing is lost: the folder is emptied at every start anyway.

    The name is fixed by the instance folder, so the front's Caddyfile
    (``scorekeeper.server.front``) and the app name the same one. It is used only if it is
    a real folder of this user's, ``0700``: ``/dev/shm`` is shared with every user
    of the machine, and a folder someone else made there is refused."""
    instance = os.path.realpath(instance_path)
    fallback = Path(instance) / "front" / "polls"
    if not (MEMORY.is_dir() and os.access(MEMORY, os.W_OK | os.X_OK)):
        return fallback
    mine = MEMORY / f"{IN_MEMORY}{os.getuid()}-{sha256(instance.encode()).hexdigest()[:16]}"
    try:
        private_dir(mine)
        st = mine.lstat()
    except OSError:
        return fallback
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return fallback
    return mine / "polls"


def remove_memory_folder(folder: Path | None) -> None:
    """The default folder in memory, once the server stops (its answers are of no use then)."""
    if folder is not None and folder.parent.parent == MEMORY and folder.parent.name.startswith(IN_MEMORY):
        shutil.rmtree(folder.parent, ignore_errors=True)


class Renewer:
    """Each watch link a committed change forgot, its new part left for the front
    at once, not by the next poll (which would wait for the app behind the saves,
    and under load there were many such polls: a third of them, when a thread of
    its own renewed the parts, behind the request threads).

    A change made by a request is renewed by that request's own thread, just
    after its answer is sent (``call_on_close``: the scorer's phone does not wait
    for it); any other (a command, or a write told only when a request gave its
    connection back) by one thread of this process. The part is the view's own
    (``table.renew_part``; a night's, ``nights.renew_standings``)."""

    def __init__(self, app, files: PollFiles):
        self.app, self.files = app, files
        self.pending: dict[tuple[str, str], None] = {}  # (kind, watch id), in the order told
        self.cond = threading.Condition()
        self.thread: threading.Thread | None = None
        self.nights_renewing: dict[str, bool] = {}  # night watch id -> changed again while it was renewed

    def told(self, watch_ids, night_ids=()) -> None:
        self.files.forget(watch_ids)  # a night's files stay until renewed (the module's docstring says why)
        if has_request_context() and not g.get(ANSWERED):
            g.setdefault(TO_RENEW, {}).update(dict.fromkeys(watch_ids))
            g.setdefault(NIGHTS_TO_RENEW, {}).update(dict.fromkeys(night_ids))
            return
        with self.cond:
            for kind, ids in (("w", watch_ids), ("n", night_ids)):
                for watch_id in ids:
                    self.pending[(kind, watch_id)] = None
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="front-polls", daemon=True)
                self.thread.start()
            self.cond.notify()

    def after_request(self, response):
        """The links this request changed, renewed once its answer is sent."""
        g.setdefault(ANSWERED, True)
        watch_ids, night_ids = list(g.pop(TO_RENEW, {})), list(g.pop(NIGHTS_TO_RENEW, {}))
        if watch_ids or night_ids:
            response.call_on_close(lambda: (self.renew(watch_ids), self.renew_nights(night_ids)))
        return response

    def renew(self, watch_ids) -> None:
        for watch_id in watch_ids:
            try:
                renew_part(self.app, watch_id)
            except Exception:  # noqa: BLE001 - the front then asks the app, as without this
                self.app.logger.exception("could not leave the live part of a watch link for the front")

    def renew_nights(self, night_ids) -> None:
        """Each night's standings left for the front. Saves at a night's tables come
        together (30 tables, a save every few seconds each): a thread that finds the
        night being renewed by another leaves it to that one, which renews it once
        more when it is done, so a night is rendered at most once at a time in this
        process and never left behind its last change."""
        for night_id in night_ids:
            with self.cond:
                if night_id in self.nights_renewing:
                    self.nights_renewing[night_id] = True
                    continue
                self.nights_renewing[night_id] = False
            again = True
            while again:
                try:
                    renew_standings(self.app, night_id)
                except Exception:  # noqa: BLE001 - the front then asks the app, as without this
                    self.files.forget([night_id], "n")
                    self.app.logger.exception("could not leave a night's standings for the front")
                with self.cond:
                    again = self.nights_renewing[night_id]
                    if again:
                        self.nights_renewing[night_id] = False
                    else:
                        del self.nights_renewing[night_id]

    def run(self) -> None:
        while True:
            with self.cond:
                while not self.pending:
                    self.cond.wait()
                kind, watch_id = next(iter(self.pending))
                del self.pending[(kind, watch_id)]
            if kind == "n":
                self.renew_nights([watch_id])
            else:
                self.renew([watch_id])


def clear(app) -> Path | None:
    """Nothing left for the front (the server starting, before its processes). Returns the folder."""
    folder = folder_for(app)
    if folder is not None:
        PollFiles(folder).clear()
    return folder


def enable(app, clear_first: bool = False) -> PollFiles | None:
    """Behind the front (``serve --front``): this process keeps its answers there
    and forgets them when a change is committed (``store.live_changes``)."""
    folder = folder_for(app)
    if folder is None:
        return None
    files = PollFiles(folder)
    if clear_first:
        files.clear()
    app.extensions["scorekeeper.front_polls"] = files
    if "scorekeeper.front_polls_renewer" not in app.extensions:
        renewer = app.extensions["scorekeeper.front_polls_renewer"] = Renewer(app, files)
        app.after_request(renewer.after_request)
    store.live_changes.watch(app.config["DATABASE"], app.extensions["scorekeeper.front_polls_renewer"].told)
    return files
