"""PDF sheets rendered in a separate process, a bounded number at a time.

WeasyPrint is pure-Python CPU work: a 1,000-hand sheet takes seconds. Rendered
in the request thread, nine at once held every server thread and the GIL, and a
trivial request waited 19 s. Here a renderer process (one per server process,
started on first use, at a lower CPU priority) renders the sheets, one at a time
across all of them (a lock file), so the server processes keep a core and their
GIL for everyone else; and at most ``waiting``
request threads may wait for a sheet at once (the same sheet asked for twice
is rendered once): beyond that the request is refused at once (``Busy``, a 503
with Retry-After), so the server's threads are never all tied up by PDFs.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor, TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

RENDERERS = 1          # processes rendering sheets (the machine this runs on has 2 cores)
RENDER_TIMEOUT = 120   # seconds a request waits for its sheet
RETRY_AFTER = 10       # seconds, when busy

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_rendering: dict = {}   # key -> Future, while a sheet is being rendered
_waiting = 0            # request threads waiting for a sheet


class Busy(Exception):
    """Every PDF slot is taken (or the renderer failed): try again in ``retry_after`` s."""

    retry_after = RETRY_AFTER


class Failed(Busy):
    """The renderer process could not start or died (it is started afresh next
    time): not a queue, so the sheet says so rather than "busy"."""


def _lower_priority() -> None:
    try:
        os.nice(10)   # the renderer gives way to the server's requests for the CPU
    except OSError:
        pass


def _render(parts: tuple, lock_path: str | None) -> bytes:
    """In the renderer process: the sheet's HTML (made in the app's process, where
    the rule books are) to PDF. ``lock_path``: a file every renderer of this
    instance locks while it renders, so that with several server processes (each
    with its renderer) still one sheet at a time takes a core."""
    from .sheet import print_pdf

    if lock_path is None:
        return print_pdf(*parts)
    import fcntl

    fd = os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return print_pdf(*parts)


def _get_pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # spawn, not fork: the server has threads (and SQLite connections) a fork would copy mid-use
        _pool = ProcessPoolExecutor(max_workers=RENDERERS, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=_lower_priority)
    return _pool


def render_pdf(key, record: dict, paper: str, waiting: int, lock_path: str | None = None, printed=None,
               agreed: str | None = None) -> bytes:
    """The sheet of ``record`` as PDF bytes, rendered in the renderer process.
    ``key`` names the sheet (the same key in flight is rendered once); at most
    ``waiting`` callers (in this process) wait at once, others get ``Busy``."""
    global _waiting, _pool
    from .sheet import sheet_pdf_parts

    with _lock:
        if _waiting >= waiting:
            raise Busy()
    parts = sheet_pdf_parts(record, paper, printed, agreed)  # the HTML, here where the rule books are
    with _lock:
        if _waiting >= waiting:
            raise Busy()
        future = _rendering.get(key)
        if future is None:
            try:
                future = _get_pool().submit(_render, parts, lock_path)
            except BrokenProcessPool:
                _pool = None
                raise Failed() from None
            _rendering[key] = future
            future.add_done_callback(lambda done: _forget(key, done))
        _waiting += 1
    try:
        return future.result(timeout=RENDER_TIMEOUT)
    except BrokenProcessPool:   # the renderer died (killed, out of memory): a new one next time
        with _lock:
            _pool = None
        raise Failed() from None
    except FutureTimeout:
        raise Busy() from None
    finally:
        with _lock:
            _waiting -= 1


def _forget(key, future) -> None:
    with _lock:
        if _rendering.get(key) is future:
            del _rendering[key]
