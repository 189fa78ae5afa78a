"""Small in-process caches, keyed by session version: every change bumps the
version, so a cached value is never stale. Each server process has its own
(`make run` starts two, with threads: see docs/engineering.md), so the phones
polling one table share one computation per change and process."""

from __future__ import annotations

import threading
from collections import OrderedDict


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
LIVE = Recent(512)
