"""Write transactions that take turns and share the wait for the disk.

Two things made every save of a hosted club night (200 tables saving every 3 s,
67 writes a second) wait, while the CPU was half idle:

- **The disk.** A commit with ``synchronous = FULL`` syncs SQLite's WAL file
  before it returns, and holds the write lock while it does: on the small
  server this was measured on, one ``fsync`` takes ~15 ms, so one database could
  commit ~55 times a second at most, whatever the CPU.
- **The wait for the lock.** SQLite's busy handler polls: a writer that finds
  the lock taken sleeps 1, 2, 5, 10, 15, 20, 25 … ms between tries, long after
  the lock was let go. With two server processes of four threads each, most
  threads of a busy server were asleep in it.

So a durable write here is: take the **turn** (a ``threading.Lock`` for the
threads of this process, then ``flock`` on a file beside the database for the
processes: a waiter is woken the moment the turn is given back), ``BEGIN
IMMEDIATE`` … ``COMMIT`` with ``synchronous = NORMAL`` (no sync inside the
lock), give the turn back, then **wait until the WAL is on the disk**: one
``fsync`` of the WAL file, shared by every commit of this process made before it
began (group commit: the writes that arrive while a sync is under way are all
made durable by the next one). Nothing is acknowledged before its sync: a saved
hand survives the machine losing power exactly as with ``FULL``, which is
NORMAL plus a sync of the WAL at each commit (SQLite's documentation of
``synchronous``); NORMAL already syncs the WAL header when the file is reused
and the database file at each checkpoint.

Writes that need not wait for the disk (the hand in progress on every tap, a
cache) skip the sync (``durable=False``). A connection opened by anything else
(the sqlite3 shell, an older release) still takes its turn through SQLite's own
lock and busy handler, as before.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path
import sqlite3

_LOCK = threading.Lock()
_KEPT: dict = {}  # (Turn or WalSync, database path, process id) -> the one of this process


def turn_for(path: str) -> "Turn | None":
    """The write turn of the database at ``path`` in this process (None for an
    in-memory database)."""
    return _per_process(Turn, path)


def sync_for(path: str) -> "WalSync | None":
    """The group commit of the database at ``path`` in this process."""
    return _per_process(WalSync, path)


def _per_process(kind, path: str):
    """One ``kind(path)`` per database file and process. Per process: a lock
    file's descriptor inherited across ``fork`` would be one lock for parent
    and child."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    key = (kind, os.path.abspath(path), os.getpid())
    with _LOCK:
        kept = _KEPT.get(key)
        if kept is None:
            kept = _KEPT[key] = kind(path)
        return kept


class Turn:
    """One writer at a time: this process's threads in order (a lock), the
    processes through ``flock`` on ``<database>-writer`` (made 0600)."""

    def __init__(self, path: str):
        self.path = f"{path}-writer"
        self.threads = threading.Lock()
        self.fd: int | None = None

    WAIT = 15  # seconds a thread waits for its process's turn, as SQLite's busy timeout (then "database is locked")

    def __enter__(self):
        if not self.threads.acquire(timeout=self.WAIT):
            raise sqlite3.OperationalError("database is locked")
        try:
            if self.fd is None:
                self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            fcntl.flock(self.fd, fcntl.LOCK_EX)  # waits without the GIL, woken when it is let go
        except BaseException:
            self.threads.release()
            raise
        return self

    def __exit__(self, *exc):
        try:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.threads.release()
        return False


class WalSync:
    """Group commit: ``wait()`` returns once an ``fsync`` of the WAL that began
    after the caller's commit has finished. One thread syncs; the commits made
    meanwhile wait for the next sync, which covers them all."""

    def __init__(self, path: str):
        self.wal = Path(f"{path}-wal")
        self.cond = threading.Condition()
        self.asked = 0  # commits that asked to be made durable
        self.synced = 0  # of them, those a finished sync covers
        self.syncing = False
        self.fd: int | None = None
        self.inode = None
        self.syncs = 0  # how many fsyncs were made (the tests and the bench read it)

    def wait(self) -> None:
        with self.cond:
            self.asked += 1
            mine = self.asked
            while self.synced < mine:
                if self.syncing:
                    self.cond.wait()
                    continue
                self.syncing, covers = True, self.asked
                self.cond.release()
                try:
                    self._sync()
                finally:
                    self.cond.acquire()
                    self.syncing = False
                    self.cond.notify_all()
                self.synced = max(self.synced, covers)

    def _sync(self) -> None:
        try:
            inode = os.stat(self.wal).st_ino
        except FileNotFoundError:
            return  # no WAL: the last connection checkpointed it into the database, synced, and removed it
        if self.fd is None or inode != self.inode:
            if self.fd is not None:
                os.close(self.fd)
            self.fd, self.inode = os.open(self.wal, os.O_RDONLY | os.O_CLOEXEC), inode
            folder = os.open(self.wal.parent, os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fsync(folder)  # a WAL file made since: its name on the disk too
            finally:
                os.close(folder)
        os.fsync(self.fd)
        self.syncs += 1
