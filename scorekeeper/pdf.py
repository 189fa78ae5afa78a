"""PDF sheets rendered in a separate process, a bounded number at a time.

WeasyPrint is pure-Python CPU work: a 1,000-hand sheet takes seconds. Rendered
in the request thread, nine at once held every server thread and the GIL, and a
trivial request waited 19 s. Here a renderer process (one per server process,
started on first use, at a lower CPU priority) renders the sheets, one at a time
across all of them (a lock file), so the server processes keep a core and their
GIL for everyone else; and at most ``waiting`` request threads of each kind may
wait for a sheet at once (the same sheet asked for twice is rendered once):
beyond that the request is refused at once (``Busy``, a 503 with Retry-After), so
the server's threads are never all tied up by PDFs.

Nobody may keep the renderer busy for the others (issue 18: four watchers made it
render a sheet per request, and the scorer got 503 twenty times in twenty):

- what a client sends no longer picks the sheet: the cache key is the session's
  state and the paper (``web/sheets.py``), never a cookie;
- a client address may start at most ``per_minute`` renders a minute in this
  process (``TooMany``, a 429): a sheet already rendered, or being rendered, costs
  nothing and is not counted;
- the scorer's link has waiting places of its own, and the renderer takes the
  sheet the scorer's link waits for before any other;
- the places are shared fairly: when they are all taken, a newcomer who asked for
  new sheets less lately (refused asks included, counted across the server's
  processes: ``Demand``) than one who waits takes that one's place (who is told ``Busy``; a sheet already being rendered is
  finished and kept for its retry). A client printing its own sessions' sheets all
  evening is a scorer too, so without this it would hold the scorer's place
  nearly all the time; the real scorer asks now and then.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import struct
import threading
import time
from collections import deque
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

RENDERERS = 1          # processes rendering sheets (the machine this runs on has 2 cores)
RENDER_TIMEOUT = 120   # seconds a request waits for its sheet
RETRY_AFTER = 10       # seconds, when busy
SCORER, OTHERS = 0, 1  # who is waiting: the scorer's link first

_lock = threading.RLock()   # reentrant: a finished render's callback can run inside submit()
_pool: ProcessPoolExecutor | None = None
_jobs: dict = {}        # key -> Job: the sheets waiting for the renderer or being rendered
_busy = False           # the renderer has a sheet
_places = {SCORER: [], OTHERS: []}   # the Tickets of the request threads waiting, of each kind
_done: OrderedDict = OrderedDict()   # key -> PDF bytes: the last few rendered (for a bumped waiter's retry)
_order = itertools.count()
_renders: dict = {}     # client address -> the times it started a render (the last minute's)
MAX_REMEMBERED = 256    # times kept per client


class Job:
    """A sheet to render: its parts, and the tickets of those waiting for it."""

    def __init__(self, parts: tuple, lock_path: str | None):
        self.parts, self.lock_path = parts, lock_path
        self.tickets: list = []
        self.started = False


class Ticket:
    """One request thread's wait, for ``client``."""

    def __init__(self, key, who: int, client: str):
        self.key, self.who, self.client, self.order = key, who, client, next(_order)
        self.event = threading.Event()
        self.outcome: tuple | None = None   # ("ok", bytes) | ("error", exception) | ("bumped", None)

    def standing(self, now: float) -> float:
        """How much its client asks of the renderer: ``Demand``."""
        return _demand(self.client)

    def end(self, outcome: tuple) -> None:
        self.outcome = outcome
        self.event.set()


class Busy(Exception):
    """Every PDF slot is taken (or the renderer failed): try again in ``retry_after`` s."""

    retry_after = RETRY_AFTER


class Failed(Busy):
    """The renderer process could not start or died (it is started afresh next
    time): not a queue, so the sheet says so rather than "busy"."""


class TooMany(Exception):
    """This client started ``limit`` renders in the last minute: wait ``retry_after`` s."""

    def __init__(self, retry_after: int, limit: int):
        self.retry_after, self.limit = retry_after, limit
        super().__init__(f"at most {limit} sheets a minute")


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


def _recent(log: dict, client: str | None, now: float) -> deque:
    """The times in ``log`` (``_renders``) of ``client``'s last minute."""
    times = log.setdefault(client or "unknown", deque(maxlen=MAX_REMEMBERED))
    while times and times[0] <= now - 60:
        times.popleft()
    return times


class Demand:
    """How often each client address asked for a sheet not rendered yet, the
    refused asks included, decaying by half every ``HALF_LIFE`` s: the scorer asks
    now and then, a client hammering the renderer many times a second.

    Shared by every server process: a table in memory mapped before the workers
    are forked (``share_demand``, called by ``serve.run``), with a lock made then
    too. Counted per process, a client whose requests mostly reached the other
    process looked light in this one and could take the scorer's place. A fixed
    table (``SLOTS`` addresses, by hash): when it is full, the lightest is forgotten."""

    SLOTS, PROBE, HALF_LIFE = 1024, 16, 30.0
    ENTRY = struct.Struct("<Qdd")   # address hash (0: free), demand, when it was last updated

    def __init__(self, lock=None):
        import mmap

        self.table = mmap.mmap(-1, self.SLOTS * self.ENTRY.size)   # anonymous, shared with forked children
        self.lock = lock if lock is not None else threading.Lock()

    @staticmethod
    def _hash(client: str) -> int:
        import hashlib

        return int.from_bytes(hashlib.blake2b(client.encode(), digest_size=8).digest(), "little") or 1

    def _decayed(self, value: float, since: float, now: float) -> float:
        return value * 0.5 ** (max(0.0, now - since) / self.HALF_LIFE)

    def _find(self, key: int, now: float) -> tuple[int, float, float]:
        """(slot, demand, updated) of ``key``: its slot, else a free or the lightest one."""
        start = key % self.SLOTS
        best = None
        for i in range(self.PROBE):
            slot = (start + i) % self.SLOTS
            found, value, since = self.ENTRY.unpack_from(self.table, slot * self.ENTRY.size)
            if found == key:
                return slot, value, since
            weight = -1.0 if found == 0 else self._decayed(value, since, now)
            if best is None or weight < best[1]:
                best = (slot, weight)
        return best[0], 0.0, now

    def of(self, client: str, now: float) -> float:
        with self.lock:
            key = self._hash(client)
            slot, value, since = self._find(key, now)
            found = self.ENTRY.unpack_from(self.table, slot * self.ENTRY.size)[0]
            return self._decayed(value, since, now) if found == key else 0.0

    def ask(self, client: str, now: float) -> float:
        """One more ask by ``client``; its demand now."""
        with self.lock:
            key = self._hash(client)
            slot, value, since = self._find(key, now)
            value = self._decayed(value, since, now) + 1.0
            self.ENTRY.pack_into(self.table, slot * self.ENTRY.size, key, value, now)
            return value


_shared: list = []   # the Demand table of this server (made on first use, or shared before the fork)


def share_demand() -> None:
    """Make the table every server process will share: call before forking them."""
    import multiprocessing

    _shared[:] = [Demand(multiprocessing.get_context("fork").Lock())]


def _demand(client: str) -> float:
    if not _shared:
        _shared.append(Demand())
    return _shared[0].of(client, time.time())   # wall time: the same in every process


def _ask(client: str) -> float:
    if not _shared:
        _shared.append(Demand())
    return _shared[0].ask(client, time.time())


def _count_render(client: str | None, per_minute: int | None, now: float) -> None:
    """A render started for ``client``: ``TooMany`` if it had ``per_minute`` already."""
    times = _recent(_renders, client, now)
    if per_minute is not None and len(times) >= per_minute:
        raise TooMany(max(1, int(times[-per_minute] + 60 - now) + 1), per_minute)
    times.append(now)
    if len(_renders) > 4096:   # forget the clients with nothing in the last minute
        for address in [a for a, t in _renders.items() if not t or t[-1] <= now - 60]:
            del _renders[address]


def _take_place(ticket: Ticket, waiting: int, now: float) -> None:
    """A waiting place for ``ticket`` (under ``_lock``), the fairest way: when every
    place is taken, the newcomer takes the place of the one whose client asks most
    of the renderer, if it asks less; else ``Busy``."""
    places = _places[ticket.who]
    if len(places) >= waiting:
        heaviest = max(places, key=lambda t: (t.standing(now), t.order), default=None)
        if heaviest is None or heaviest.standing(now) <= ticket.standing(now):
            raise Busy()
        _leave(heaviest)
        heaviest.end(("bumped", None))
    places.append(ticket)


def _leave(ticket: Ticket) -> None:
    """``ticket`` waits no more (under ``_lock``): a sheet nobody waits for any
    longer and not yet started is not rendered."""
    places = _places[ticket.who]
    if ticket in places:
        places.remove(ticket)
    job = _jobs.get(ticket.key)
    if job is not None and ticket in job.tickets:
        job.tickets.remove(ticket)
        if not job.tickets and not job.started:
            del _jobs[ticket.key]


def render_pdf(key, record: dict, paper: str, waiting: int, lock_path: str | None = None, printed=None,
               agreed: str | None = None, scorer: bool = False, client: str | None = None,
               per_minute: int | None = None) -> bytes:
    """The sheet of ``record`` as PDF bytes, rendered in the renderer process.
    ``key`` names the sheet (the same key waiting or in flight is rendered once);
    at most ``waiting`` callers of each kind (``scorer``: the scorer's link, or
    the others) wait at once in this process, others get ``Busy`` (see the
    module); a new render for ``client`` beyond ``per_minute`` a minute gets
    ``TooMany``."""
    from .sheet import sheet_pdf_parts

    who, parts, counted = SCORER if scorer else OTHERS, None, False
    while True:
        with _lock:
            if key in _done:
                _done.move_to_end(key)
                return _done[key]
            now = time.monotonic()
            job = _jobs.get(key)
            client = client or "unknown"
            if job is not None or parts is not None:
                ticket = Ticket(key, who, client)
                _take_place(ticket, waiting, now)     # Busy: nothing is left behind
                if job is None:                       # a new sheet: it waits for the renderer
                    job = _jobs[key] = Job(parts, lock_path)
                job.tickets.append(ticket)
                _start_next()
                break
            mine = _ask(client)
            if len(_places[who]) >= waiting and all(t.standing(now) <= mine for t in _places[who]):
                raise Busy()                          # no place for it: say so before any work
            if not counted:
                _count_render(client, per_minute, now)
                counted = True
        parts = sheet_pdf_parts(record, paper, printed, agreed)  # the HTML, here where the rule books are
    if not ticket.event.wait(RENDER_TIMEOUT):
        with _lock:
            _leave(ticket)
        raise Busy()
    kind, value = ticket.outcome
    if kind == "ok":
        return value
    if kind == "bumped":
        raise Busy()
    raise value


def _start_next() -> None:
    """Give the renderer the waiting sheet whose best waiter comes first (the
    scorer's link, then the client that asked least lately), if it has none
    (under ``_lock``)."""
    global _busy, _pool
    while not _busy:
        now = time.monotonic()
        waiting = [(min((t.who, t.standing(now), t.order) for t in job.tickets), key) for key, job in _jobs.items()
                   if not job.started and job.tickets]
        if not waiting:
            return
        key = min(waiting, key=lambda w: w[0])[1]
        job = _jobs[key]
        try:
            rendering = _get_pool().submit(_render, job.parts, job.lock_path)
        except (BrokenProcessPool, RuntimeError):   # the renderer died; a new one next time
            _pool = None
            _end_job(key, ("error", Failed()))
            continue
        job.started = _busy = True
        rendering.add_done_callback(lambda done, key=key: _finished(done, key))


def _end_job(key, outcome: tuple) -> None:
    """Every waiter of ``key`` gets ``outcome`` (under ``_lock``)."""
    job = _jobs.pop(key, None)
    if outcome[0] == "ok":
        _done[key] = outcome[1]
        while len(_done) > 8:
            _done.popitem(last=False)
    for ticket in job.tickets if job is not None else ():
        places = _places[ticket.who]
        if ticket in places:
            places.remove(ticket)
        ticket.end(outcome)


def _finished(rendering, key) -> None:
    """In the pool's thread: the sheet is rendered (or the renderer failed); the next one."""
    global _busy, _pool
    try:
        outcome = ("ok", rendering.result())
    except BrokenProcessPool:   # the renderer died (killed, out of memory): a new one next time
        outcome = ("error", Failed())
        with _lock:
            _pool = None
    except BaseException as error:  # noqa: BLE001 - the request thread raises it
        outcome = ("error", error)
    with _lock:
        _end_job(key, outcome)
        _busy = False
        _start_next()
