"""Small in-process caches, keyed by session version: every change bumps the
version, so a cached value is never stale. Each server process has its own
(`make run` starts two, with threads: see docs/engineering.md), so the phones
polling one table share one computation per change and process."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from pathlib import Path

from flask import g


class Recent:
    """The ``size`` most recently used values, safe to share between threads."""

    def __init__(self, size: int):
        self.size = size
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, make):
        """The value for ``key``, made by ``make()`` (outside the lock) if missing."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._values)

    def peek(self, key):
        """The value for ``key`` if kept (None if not)."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        return None

    def put(self, key, value) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)


SETTLEMENTS = Recent(256)  # a club night's 50 tables and their recent versions (the hands are shared)
LATEST_SETTLEMENT: dict = {}  # session id -> its newest settlement (to settle only what changed)
PDFS = Recent(8)
#: A watcher's or a player's live part of the table, by link and live version: the
#: phones polling one table (two watchers, three players) share one rendering per change.
LIVE = Recent(2048)
#: Where the live view leaves a watcher's or player's live version in the WSGI environ:
#: the server answers that poll again, byte for byte, before Flask (server/kept_polls.py).
VERSION_MARK = "scorekeeper.live_version"


class SharedParts:
    """Live parts shared between the server's processes, through a private folder
    ``serve.run`` makes before forking them (``SHARED_PARTS``): one file a link and
    variant, holding the live version it was made for and the part. Without it each
    process made every change's part itself: with two processes, twice (a third of
    the server's CPU at a 200-table club night). A part from a file is the one the
    other process made for that version; a missing, older or unreadable file is made
    and written again (write then rename: a reader never sees half a file). Files
    of links nobody polled for ``STALE`` seconds are removed now and then."""

    STALE = 3600
    SWEEP_EVERY = 256  # writes between sweeps

    def __init__(self):
        self._writes = 0
        self._lock = threading.Lock()

    def get(self, folder: str, link: tuple, version: str, make) -> str:
        name = hashlib.sha256(repr(link).encode()).hexdigest()[:32]  # a link's key is never a file name
        path = Path(folder) / name
        try:
            kept_version, _, part = path.read_text(encoding="utf-8").partition("\n")
            if kept_version == version:
                return part
        except (OSError, UnicodeDecodeError):
            pass
        part = make()
        try:
            temporary = path.with_name(f"{name}.{os.getpid()}.{threading.get_ident()}.part")
            temporary.write_text(f"{version}\n{part}", encoding="utf-8")
            os.replace(temporary, path)
            self._sweep_now_and_then(Path(folder))
        except OSError:
            pass  # not shared this time: made here, as without the folder
        return part

    def _sweep_now_and_then(self, folder: Path) -> None:
        with self._lock:
            self._writes += 1
            if self._writes % self.SWEEP_EVERY:
                return
        old = time.time() - self.STALE
        for path in folder.iterdir():
            try:
                if path.stat().st_mtime < old:
                    path.unlink()
            except OSError:
                pass


#: The folder the server's processes share live parts in (set by ``serve.run``
#: before it forks them; none in a single process or a test, unless configured).
SHARED_PARTS_FOLDER = "SCOREKEEPER_SHARED_PARTS"
SHARED = SharedParts()


class CompressedParts:
    """flask-compress's cache (``COMPRESS_CACHE_BACKEND``), for the live parts only:
    the phones polling a link are sent the same part until it changes, and brotli
    made it anew for each of them (0.4 ms of a poll's 0.8). A view names what it
    sends (``g.compressed_as``, a part and its version); flask-compress keys its
    cache "<encoding>;<name>", and a response with no name ("br;") is never kept."""

    def __init__(self, size: int = 1024):
        self.kept = Recent(size)

    def get(self, key: str):
        return None if key.endswith(";") else self.kept.peek(key)

    def set(self, key: str, value) -> None:
        if not key.endswith(";"):
            self.kept.put(key, value)


def compressed_as(request) -> str:
    """``COMPRESS_CACHE_KEY``: the name the view gave its response, if any."""
    return g.get("compressed_as", "")
