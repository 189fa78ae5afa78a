"""PDF sheets rendered in a separate process, a bounded number at a time.

WeasyPrint is pure-Python CPU work: a 1,000-hand sheet takes seconds. Rendered
in the request thread, nine at once held every server thread and the GIL, and a
trivial request waited 19 s. Here a renderer process (one per server process,
started on first use, at a lower CPU priority) renders the sheets, one at a time
across all of them, so the server processes keep a core and their GIL for
everyone else; and at most ``waiting`` request threads of each kind may wait for
a sheet at once (the same sheet asked for twice is rendered once): beyond that
the request is refused at once (``Busy``, a 503 with Retry-After), so the
server's threads are never all tied up by PDFs.

Nobody may keep the renderer busy for the others (hostile clients: four watchers made it
render a sheet per request, and the scorer got 503 twenty times in twenty; then
four clients printing sheets of their own sessions — scorers too — left the
scorer 0 sheets of 4):

- what a client sends no longer picks the sheet: the cache key is the session's
  state and the paper (``web/sheets.py``), never a cookie;
- the renderer is shared by turns, across the server's processes (``Board``, a
  table they share): when it is free, the sheet it renders next is the one whose
  client has used it least lately — the CPU seconds it rendered for that
  client, halving every 30 s, and a twentieth of a second for each ask of a new sheet,
  refused asks included — the scorer's link before the others. A round robin by
  what each client costs: a client asking for long sheets, or waiting patiently
  for each (it asks seldom, so counted by its asks it looked light), cannot bend
  it. A process takes the renderer only when it is free and its best sheet comes
  first of all the processes' (before, each process gave its own renderer its
  next sheet at once and the two took turns on a lock file, so the scorer's sheet
  waited behind the other process's render as well as his own process's);
- a client address may start at most ``per_minute`` renders a minute in the whole
  server (``TooMany``, a 429): a sheet already rendered, or being rendered, costs
  nothing and is not counted;
- a client has at most one new sheet waiting in each process (its own backlog),
  and the scorer's link has waiting places of its own; when the places are all
  taken, a newcomer who used the renderer less lately than one who waits takes
  that one's place (who is told ``Busy``; a sheet already being rendered is
  finished and kept for its retry). A client printing its own sessions' sheets all
  evening is a scorer too, so without this it would hold the scorer's place.

- a circle's season sheet has a lane of its own (``SEASONS``: its own renderer
  process, at a lower priority still, so that it gives way to a table's sheet
  rendering beside it; its own turns and waiting places; a table's sheet is ``SHEETS``). A
  2,000-evening season sheet takes 11 s, and a render once started runs to its
  end: in one lane, a table's scorer whose circle's managers printed their season
  sheets waited 6.2 s for his sheet (a third of a second alone), 16.2 s at worst,
  whatever the turns said. The manage link still comes first among the season
  sheets, as the scorer's link among the tables'; the usage and the renders a
  minute of a client are counted across both lanes.

What cannot be helped: a render once started runs to its end, so the scorer's
wait is the sheet being rendered in his lane when he asks, then his own.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import mmap
import multiprocessing
import os
import struct
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .ledger_pdf import ledger_font
from .sheet import _print_resources, print_pdf, sheet_pdf_parts

RENDERERS = 1  # processes rendering sheets of each lane (the machine this runs on has 2 cores)
RENDER_TIMEOUT = 120  # seconds a request waits for its sheet
RETRY_AFTER = 10  # seconds, when busy
POLL = 0.05  # seconds between a waiting request's looks at a renderer another process holds
ASK_COST = 0.05  # renderer seconds an ask for a new sheet counts as (refused asks included)
SCORER, OTHERS = 0, 1  # who is waiting: the scorer's link first
SHEETS, SEASONS = 0, 1  # the lanes: a session's sheet (a second or two), a circle's season sheet (2,000 evenings: 11 s)
#                         and a club night's sheet (60 players over 10 rounds: 3 s)
LANES = (SHEETS, SEASONS)
NICENESS = {SHEETS: 10, SEASONS: 19}  # each lane's renderer gives way to the server; the seasons' to the tables' too

_lock = threading.RLock()  # reentrant: a finished render's callback can run inside submit()
_pools: dict = {}  # lane -> ProcessPoolExecutor: this process's renderer of each lane (started on first use)
_jobs: dict = {}  # key -> Job: the sheets waiting for the renderer or being rendered
_busy: set = set()  # the lanes whose renderer in this process has a sheet
_places = {(lane, who): [] for lane in LANES for who in (SCORER, OTHERS)}  # the Tickets waiting, by lane and kind
_done: OrderedDict = OrderedDict()  # key -> PDF bytes: the last few rendered (for a bumped waiter's retry)
_order = itertools.count()


class Job:
    """A sheet to render: its parts, and the tickets of those waiting for it."""

    def __init__(self, parts: tuple, lock_path: str | None, printer=None, lane: int = SHEETS):
        self.parts, self.lock_path, self.printer, self.lane = parts, lock_path, printer, lane
        self.tickets: list = []
        self.started = False
        self.client = None  # whom the renderer's time is counted to


class Ticket:
    """One request thread's wait, for ``client``."""

    def __init__(self, key, who: int, client: str, asked: float, lane: int = SHEETS):
        self.key, self.who, self.client, self.asked, self.order = key, who, client, asked, next(_order)
        self.lane = lane
        self.event = threading.Event()
        self.outcome: tuple | None = None  # ("ok", bytes) | ("error", exception) | ("bumped", None)

    def standing(self) -> float:
        """How much its client used the renderer lately (``Board.usage``)."""
        return _board().usage(self.client, time.time())

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


def _start_renderer(niceness: int) -> None:
    """In the renderer process, once: a lower CPU priority, and WeasyPrint (and the
    season sheet's ledger font) loaded (seconds), so that no client's first sheet is
    counted the renderer's start."""
    try:
        os.nice(niceness)  # the renderer gives way to the server's requests for the CPU
    except OSError:
        pass

    _print_resources("a4")
    ledger_font("")  # the season sheet's ledger font (fontTools, ~0.5 s), for any ledger of dates and amounts


def _render(parts: tuple, lock_path: str | None, printer=None) -> tuple[bytes, float]:
    """In the renderer process: the sheet's HTML (made in the app's process, where
    the rule books are) to PDF, and the CPU seconds that took (what the client is
    counted: the wall time also counts whatever else the machine was doing).
    ``lock_path``: a file every renderer of this instance locks while it renders, so
    that even two servers on one instance folder render one sheet at a time (within
    one server ``Board`` decides). ``printer``: a module-level function of ``parts``
    (the season sheet's ``print_season_pdf``), else the session sheet's ``print_pdf``."""
    render = printer or print_pdf
    if lock_path is None:
        began = time.process_time()
        return render(*parts), time.process_time() - began

    fd = os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        began = time.process_time()
        return render(*parts), time.process_time() - began


def _get_pool(lane: int) -> ProcessPoolExecutor:
    if lane not in _pools:
        # spawn, not fork: the server has threads (and SQLite connections) a fork would copy mid-use
        _pools[lane] = ProcessPoolExecutor(
            max_workers=RENDERERS,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_renderer,
            initargs=(NICENESS[lane],),
        )
    return _pools[lane]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's: alive
        return True
    return True


class Board:
    """What every server process knows of the rendering: in each lane, which process
    renders now and the sheet each other process would render next; and per client
    address what it cost the renderers lately and when it started its last renders.

    An anonymous ``mmap`` made before the workers are forked (``share_board``,
    called by ``serve.run``), with a lock made then too; made on first use in a
    single process (the tests' app). Counted per process, a client whose requests
    mostly reached the other process looked light in this one; and each process
    giving its own renderer its next sheet made the scorer wait behind the other's
    render too. Fixed tables: ``CLIENTS`` addresses (by hash; when full, the
    lightest is forgotten) and ``SEATS`` processes (a seat not refreshed for
    ``SEAT_FRESH`` s is free: its process no longer waits, or died). A hold whose
    process died, or older than ``HOLD_LIMIT`` s, is taken for lost."""

    CLIENTS, PROBE, HALF_LIFE, TIMES, SEATS = 1024, 16, 30.0, 16, 32
    SEAT_FRESH = 2.0  # s: a waiting process refreshes its seat every POLL
    HOLD_LIMIT = RENDER_TIMEOUT + 60  # s
    HEAD = struct.Struct("<qd")  # a lane's: the pid rendering (0: nobody), since
    SEAT = struct.Struct("<qqqQdd")  # pid (0: free), lane, kind, client hash, asked at, refreshed at
    CLIENT = struct.Struct("<Qdd%dd" % TIMES)  # hash (0: free), usage, updated, its last render starts

    def __init__(self, lock=None):
        self.seats_at = len(LANES) * self.HEAD.size
        self.clients_at = self.seats_at + self.SEATS * self.SEAT.size
        self.table = mmap.mmap(-1, self.clients_at + self.CLIENTS * self.CLIENT.size)  # shared with forked children
        self.lock = lock if lock is not None else threading.Lock()

    def _acquire(self) -> bool:
        """The table's lock, held for microseconds; a process killed holding it must
        not stop the others for good: after 2 s, on without it."""
        return self.lock.acquire(timeout=2.0)

    # ---------------------------------------------------------------- clients

    @staticmethod
    def _hash(client: str) -> int:
        return int.from_bytes(hashlib.blake2b(client.encode(), digest_size=8).digest(), "little") or 1

    def _decayed(self, value: float, since: float, now: float) -> float:
        return value * 0.5 ** (max(0.0, now - since) / self.HALF_LIFE)

    def _client(self, key: int, now: float) -> tuple:
        """(offset, usage now, its render start times) of ``key``'s entry; a new
        one in a free entry, else in the lightest of its probe."""
        start, best = key % self.CLIENTS, None
        for i in range(self.PROBE):
            at = self.clients_at + ((start + i) % self.CLIENTS) * self.CLIENT.size
            entry = self.CLIENT.unpack_from(self.table, at)
            if entry[0] == key:
                return at, self._decayed(entry[1], entry[2], now), list(entry[3:])
            weight = -1.0 if entry[0] == 0 else self._decayed(entry[1], entry[2], now)
            if best is None or weight < best[1]:
                best = (at, weight)
        return best[0], 0.0, [0.0] * self.TIMES

    def _usage(self, key: int, now: float) -> float:
        return self._client(key, now)[1]  # 0 for a client not in the table

    def _charge(self, key: int, seconds: float, now: float, started: float | None = None) -> float:
        at, usage, times = self._client(key, now)
        if started is not None:
            times = times[1:] + [started]
        usage += seconds
        self.CLIENT.pack_into(self.table, at, key, usage, now, *times)
        return usage

    def usage(self, client: str, now: float) -> float:
        """The renderer seconds ``client`` used lately (halving every ``HALF_LIFE`` s)."""
        held = self._acquire()
        try:
            return self._usage(self._hash(client), now)
        finally:
            if held:
                self.lock.release()

    def ask(self, client: str, now: float) -> float:
        """One more ask by ``client`` for a sheet not rendered yet; its usage now."""
        held = self._acquire()
        try:
            return self._charge(self._hash(client), ASK_COST, now)
        finally:
            if held:
                self.lock.release()

    def count_render(self, client: str, per_minute: int | None, now: float) -> None:
        """A render is to start for ``client``: ``TooMany`` if it started
        ``per_minute`` (at most ``TIMES``) already in the last minute, in any process."""
        held = self._acquire()
        try:
            key = self._hash(client)
            recent = sorted(t for t in self._client(key, now)[2] if t > now - 60)
            if per_minute is not None:
                limit = min(per_minute, self.TIMES)
                if len(recent) >= limit:
                    raise TooMany(max(1, int(recent[-limit] + 60 - now) + 1), limit)
            self._charge(key, 0.0, now, started=now)
        finally:
            if held:
                self.lock.release()

    # ---------------------------------------------------------------- the renderer

    def _seat(self, pid: int, lane: int, now: float) -> int:
        """The offset of ``pid``'s seat in ``lane``: its own, else a free or stale one."""
        spare = None
        for i in range(self.SEATS):
            at = self.seats_at + i * self.SEAT.size
            owner, its_lane, _, _, _, refreshed = self.SEAT.unpack_from(self.table, at)
            if owner == pid and its_lane == lane:
                return at
            if spare is None and (owner == 0 or refreshed < now - self.SEAT_FRESH):
                spare = at
        return spare if spare is not None else self.seats_at

    def claim(self, pid: int, lane: int, best: tuple | None, idle: bool, now: float) -> bool:
        """Process ``pid`` would render ``best`` (kind, client, asked at) next in
        ``lane``. It may if nobody renders in that lane (``idle``: its own renderer
        of the lane has nothing, so a hold by ``pid`` itself is stale) and no other
        process waits in it with a sheet that comes first (kind, then usage, then
        who asked first). Else its seat says what it waits with, for the others to
        see. ``best`` None: it waits with nothing."""
        held = self._acquire()
        try:
            seat = self._seat(pid, lane, now)
            if best is None:
                self.SEAT.pack_into(self.table, seat, 0, 0, 0, 0, 0.0, 0.0)
                return False
            kind, client, asked = best
            key = self._hash(client)
            head = lane * self.HEAD.size
            holder, since = self.HEAD.unpack_from(self.table, head)
            taken = holder != 0 and (holder != pid or not idle) and now - since < self.HOLD_LIMIT and _alive(holder)
            rank = (kind, self._usage(key, now), asked, pid)
            first = not taken and all(
                not other
                or other == pid
                or their_lane != lane
                or refreshed < now - self.SEAT_FRESH
                or (their_kind, self._usage(their_key, now), their_asked, other) > rank
                for other, their_lane, their_kind, their_key, their_asked, refreshed in (
                    self.SEAT.unpack_from(self.table, self.seats_at + i * self.SEAT.size) for i in range(self.SEATS)
                )
            )
            if first:
                self.HEAD.pack_into(self.table, head, pid, now)
                self.SEAT.pack_into(self.table, seat, 0, 0, 0, 0, 0.0, 0.0)
            else:
                self.SEAT.pack_into(self.table, seat, pid, lane, kind, key, asked, now)
            return first
        finally:
            if held:
                self.lock.release()

    def release(self, pid: int, lane: int, client: str | None, seconds: float, now: float) -> None:
        """Process ``pid``'s renderer of ``lane`` is done: ``seconds`` of it counted to ``client``."""
        held = self._acquire()
        try:
            if client is not None and seconds > 0:
                self._charge(self._hash(client), seconds, now)
            head = lane * self.HEAD.size
            if self.HEAD.unpack_from(self.table, head)[0] == pid:
                self.HEAD.pack_into(self.table, head, 0, now)
        finally:
            if held:
                self.lock.release()


_shared: list = []  # the Board of this server (made on first use, or shared before the fork)


def share_board() -> None:
    """Make the table every server process will share: call before forking them."""
    _shared[:] = [Board(multiprocessing.get_context("fork").Lock())]


def _board() -> Board:
    if not _shared:
        _shared.append(Board())
    return _shared[0]


def _take_place(ticket: Ticket, waiting: int) -> None:
    """A waiting place for ``ticket`` (under ``_lock``), the fairest way: when every
    place is taken, the newcomer takes the place of the one whose client used the
    renderer most lately, if it used it less; else ``Busy``."""
    places = _places[(ticket.lane, ticket.who)]
    if len(places) >= waiting:
        mine = ticket.standing()
        heaviest = max(places, key=lambda t: (t.standing(), t.order), default=None)
        if heaviest is None or heaviest.standing() <= mine:
            raise Busy()
        _leave(heaviest)
        heaviest.end(("bumped", None))
    places.append(ticket)


def _waits_already(client: str, lane: int) -> bool:
    """``client`` has a sheet waiting for ``lane``'s renderer in this process (under ``_lock``)."""
    return any(
        t.client == client and t.key in _jobs and not _jobs[t.key].started
        for (its_lane, _), places in _places.items()
        if its_lane == lane
        for t in places
    )


def _leave(ticket: Ticket) -> None:
    """``ticket`` waits no more (under ``_lock``): a sheet nobody waits for any
    longer and not yet started is not rendered."""
    places = _places[(ticket.lane, ticket.who)]
    if ticket in places:
        places.remove(ticket)
    job = _jobs.get(ticket.key)
    if job is not None and ticket in job.tickets:
        job.tickets.remove(ticket)
        if not job.tickets and not job.started:
            del _jobs[ticket.key]


def render_pdf(
    key,
    record: dict,
    paper: str,
    waiting: int,
    lock_path: str | None = None,
    printed=None,
    agreed: str | None = None,
    scorer: bool = False,
    client: str | None = None,
    per_minute: int | None = None,
    parts_of=None,
    printer=None,
    lane: int = SHEETS,
) -> bytes:
    """The sheet of ``record`` as PDF bytes, rendered in the renderer process.
    ``key`` names the sheet (the same key waiting or in flight is rendered once);
    at most ``waiting`` callers of each kind (``scorer``: the scorer's link, or
    the others) wait at once in this process, others get ``Busy`` (see the
    module); a new render for ``client`` beyond ``per_minute`` a minute gets
    ``TooMany``. Another document than a session sheet (the circle's season sheet):
    ``parts_of()`` makes its parts here, once it is admitted, and ``printer(*parts)``
    (a module-level function, as the renderer process imports it) prints them there;
    a circle's season sheet goes in its own ``lane`` (``SEASONS``), with a renderer
    of its own, so that a table's sheet never waits behind one (see the module)."""
    who, parts, counted, client = SCORER if scorer else OTHERS, None, False, client or "unknown"
    places = _places[(lane, who)]
    while True:
        with _lock:
            if key in _done:
                _done.move_to_end(key)
                return _done[key]
            now = time.time()
            job = _jobs.get(key)
            if job is not None or parts is not None:
                ticket = Ticket(key, who, client, now, lane)
                _take_place(ticket, waiting)  # Busy: nothing is left behind
                if job is None:  # a new sheet: it waits for the renderer
                    job = _jobs[key] = Job(parts, lock_path, printer, lane)
                job.tickets.append(ticket)
                _start_next()
                break
            mine = _board().ask(client, now)
            if _waits_already(client, lane):
                raise Busy()  # one new sheet of its own waits already
            if len(places) >= waiting and all(t.standing() <= mine for t in places):
                raise Busy()  # no place for it: say so before any work
            if not counted:
                _board().count_render(client, per_minute, now)
                counted = True
        # the HTML (or the season's data), here where the rule books are
        parts = parts_of() if parts_of is not None else sheet_pdf_parts(record, paper, printed, agreed)
    deadline = time.monotonic() + RENDER_TIMEOUT
    while not ticket.event.wait(POLL):  # another process's renderer may free up: look again
        with _lock:
            if ticket.event.is_set():
                break
            if time.monotonic() > deadline:
                _leave(ticket)
                _start_next()
                raise Busy()
            _start_next()
    kind, value = ticket.outcome
    if kind == "ok":
        return value
    if kind == "bumped":
        raise Busy()
    raise value


def _best(now: float, lane: int):
    """(rank, key) of the sheet waiting for ``lane`` whose best waiter comes first
    here (the scorer's link, then the client that used the renderers least lately,
    then who asked first), or None (under ``_lock``)."""
    board, best = _board(), None
    usage: dict = {}
    for key, job in _jobs.items():
        if job.started or not job.tickets or job.lane != lane:
            continue
        for ticket in job.tickets:
            if ticket.client not in usage:
                usage[ticket.client] = board.usage(ticket.client, now)
            rank = (ticket.who, usage[ticket.client], ticket.asked, ticket.order, ticket.client)
            if best is None or rank < best[0]:
                best = (rank, key)
    return best


def _start_next() -> None:
    """Give each lane's renderer of this process the waiting sheet that comes first,
    if it has none and the server's renderer of that lane is free for it
    (``Board.claim``; under ``_lock``)."""
    for lane in LANES:
        _start_next_in(lane)


def _start_next_in(lane: int) -> None:
    while lane not in _busy:
        now = time.time()
        best = _best(now, lane)
        board = _board()
        if best is None:
            board.claim(os.getpid(), lane, None, True, now)  # waits with nothing
            return
        (who, _, asked, _, client), key = best
        if not board.claim(os.getpid(), lane, (who, client, asked), True, now):
            return  # another sheet goes first; the waiters look again
        job = _jobs[key]
        try:
            rendering = _get_pool(lane).submit(_render, job.parts, job.lock_path, job.printer)
        except (BrokenProcessPool, RuntimeError):  # the renderer died; a new one next time
            _pools.pop(lane, None)
            board.release(os.getpid(), lane, None, 0.0, time.time())
            _end_job(key, ("error", Failed()))
            continue
        job.started = True
        _busy.add(lane)
        job.client = client
        rendering.add_done_callback(lambda done, key=key, lane=lane: _finished(done, key, lane))


def _end_job(key, outcome: tuple) -> None:
    """Every waiter of ``key`` gets ``outcome`` (under ``_lock``)."""
    job = _jobs.pop(key, None)
    if outcome[0] == "ok":
        _done[key] = outcome[1]
        while len(_done) > 8:
            _done.popitem(last=False)
    for ticket in job.tickets if job is not None else ():
        places = _places[(ticket.lane, ticket.who)]
        if ticket in places:
            places.remove(ticket)
        ticket.end(outcome)


def _finished(rendering, key, lane: int) -> None:
    """In the pool's thread: the sheet is rendered (or the renderer failed); the
    renderer's time counted to its client, the next one."""
    seconds = 0.0
    try:
        pdf, seconds = rendering.result()
        outcome = ("ok", pdf)
    except BrokenProcessPool:  # the renderer died (killed, out of memory): a new one next time
        outcome = ("error", Failed())
        with _lock:
            _pools.pop(lane, None)
    except BaseException as error:  # noqa: BLE001 - the request thread raises it
        outcome = ("error", error)
    with _lock:
        job = _jobs.get(key)
        _board().release(os.getpid(), lane, job.client if job is not None else None, seconds, time.time())
        _end_job(key, outcome)
        _busy.discard(lane)
        _start_next()
