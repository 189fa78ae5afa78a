"""The server's door: waitress's channel and server classes, with a deadline on
receiving each request and a cap on the connections of each client address.

waitress reads a request whole before an app thread sees it, and drops a
connection that sends and receives nothing for its ``channel_timeout``. But any
byte is activity: 2,100 connections from one address, each sending one byte every
4 s, were never idle, filled the connection limit, and every normal request timed
out. So here:

- a request must be received whole in time: its headers within
  ``header_deadline`` seconds of its first byte, headers and body within
  ``request_deadline`` (a 2 MB upload on a poor Wi-Fi takes tens of seconds);
  past that the connection is closed, however busy the client keeps it. Checked in
  waitress's own clean-up pass (``maintenance``, every ``cleanup_interval`` s).
- one client address holds at most ``per_address`` connections in this process (a
  phone needs a handful: a browser opens six to a server). A new one beyond that
  first closes that address's idle keep-alive connections, oldest first (a browser
  opens another when it needs one); if none is idle, the new one is reset at once.
  The connections waiting are accepted up to 64 a pass of the loop, not one: the
  trickling client opens again each one closed, and one a pass woke both
  processes' loops hundreds of times a second.
- an address the app has just told to wait (too many tries at a new session:
  ``hold_off``) gets its next uploads to ``/import``, ``/sessions``, ``/circles/import``
  or a circle's ``/c/<key>/import`` and ``/c/<key>/sessions`` refused once
  their headers are in, in either server process (``HeldOff``), before waitress
  reads and spools their body (4 clients posting refused 0.76 MB imports as fast
  as they could still made waitress read 37 MB a second); the refusal (a 429, then the connection closed) is held until the
  next clean-up pass, so such a client gets a few a second. Small posts (a form)
  still reach the app, which answers them with its own page.
- behind the HTTPS front every connection is the front's (127.0.0.1), and the
  front (Caddy) passes each request on as it arrives, its body as it comes, on a
  connection of its own: 2,100 slow uploads through it held 2,100 of the app's
  connections and stopped everyone. So on the front's connections the client is
  the address the front forwards (``X-Forwarded-For``, believed from the front
  only, as the app believes it), and one client may send at most ``per_address``
  uploads at once in this process; one more is refused (429) as soon as its
  headers are in, its body unread. The held-off addresses above are the
  forwarded ones too. (The front's own deadlines, Caddy's ``read_header`` and
  ``read_body``, are the door's: scorekeeper/server/front.py.)

Checked against waitress 3.0.2's source (``waitress/server.py``, ``channel.py``):
``HTTPChannel.received`` creates ``self.request`` (a parser) for each request and
drops it once the request is complete; ``BaseWSGIServer.handle_accept`` and
``maintenance`` run in the one asyncore thread, where every channel is touched.
"""

from __future__ import annotations

import hashlib
import logging
import mmap
import multiprocessing
import re
import socket
import struct
import threading
import time

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

log = logging.getLogger("scorekeeper.server.door")
LINGER_RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() resets the connection
HELD_OFF_PATHS = frozenset({"/import", "/sessions", "/circles/import"})
HELD_OFF_IN_CIRCLE = re.compile(r"/c/[^/]+/(?:import|sessions)")  # a circle's import and new evening count too
HELD_OFF_BODY = 64 * 1024  # bytes: a body this large to a held-off address is refused at the door
UPLOAD_RETRY = 10  # seconds a front's client over its uploads at once is told to wait


class HeldOff:
    """The addresses told to wait, and until when (``time.time()``), in a table
    every server process shares: an anonymous ``mmap`` made before the workers are
    forked (``share_held_off``, called by ``serve.run``), with a lock made then too.
    Kept per process, an address the app refused in one process had its uploads
    read whole by the other (the connections go to either). A fixed table
    (``SLOTS`` addresses, by hash): when its probe is full, the entry that ends
    first is forgotten."""

    SLOTS, PROBE = 4096, 16
    ENTRY = struct.Struct("<Qd")  # address hash (0: free), until

    def __init__(self, lock=None):
        self.table = mmap.mmap(-1, self.SLOTS * self.ENTRY.size)
        self.lock = lock if lock is not None else threading.Lock()

    @staticmethod
    def _hash(address: str) -> int:
        return int.from_bytes(hashlib.blake2b(address.encode(), digest_size=8).digest(), "little") or 1

    def _slot(self, key: int) -> tuple[int, bool]:
        start, best = key % self.SLOTS, None
        for i in range(self.PROBE):
            at = ((start + i) % self.SLOTS) * self.ENTRY.size
            found, until = self.ENTRY.unpack_from(self.table, at)
            if found == key:
                return at, True
            if best is None or (0.0 if found == 0 else until) < best[1]:
                best = (at, 0.0 if found == 0 else until)
        return best[0], False

    def put(self, address: str, until: float) -> None:
        held = self.lock.acquire(timeout=2.0)  # a process killed holding it must not stop the others
        try:
            key = self._hash(address)
            self.ENTRY.pack_into(self.table, self._slot(key)[0], key, until)
        finally:
            if held:
                self.lock.release()

    def until(self, address: str) -> float:
        key = self._hash(address)
        at, found = self._slot(key)
        return self.ENTRY.unpack_from(self.table, at)[1] if found else 0.0


_held_off: list = []  # the HeldOff table of this server (made on first use, or shared before the fork)


def share_held_off() -> None:
    """Make the table every server process will share: call before forking them."""
    _held_off[:] = [HeldOff(multiprocessing.get_context("fork").Lock())]


def _table() -> HeldOff:
    if not _held_off:
        _held_off.append(HeldOff())
    return _held_off[0]


def hold_off(address: str | None, seconds: float) -> None:
    """The app refused ``address`` a new session for ``seconds``: its uploads
    meanwhile are refused at the door (in every server process). Behind an HTTPS
    front the app's address is the client's and the door's is the front's, so
    nothing matches."""
    if address:
        _table().put(address, time.time() + seconds)


def _held_off_for(address: str) -> float:
    """Seconds ``address`` must still wait (0: it need not)."""
    until = _table().until(address)
    return max(0.0, until - time.time()) if until else 0.0


def is_held_off_path(path: str) -> bool:
    """A path whose posts count as a new session's tries (``store.count_attempt``),
    so that an address told to wait has its uploads there refused at the door."""
    return path in HELD_OFF_PATHS or HELD_OFF_IN_CIRCLE.fullmatch(path) is not None


class Channel(HTTPChannel):
    """A connection, which knows when the request it is receiving began."""

    request_started = 0.0  # time.time() when the first byte of self.request arrived

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        server.opened(self)

    checked = None  # the request whose headers were looked at (hold_off)
    uploading = None  # (client, request): an upload from the front's client, its body under way
    held_answer = None  # seconds to say in a held refusal, while it is held (refuse_at_once)

    def received(self, data):
        receiving = self.request
        result = super().received(data)
        request = self.request
        if request is not None and request is not receiving:  # a new request has begun
            self.request_started = time.time()
        if self.uploading is not None and self.uploading[1] is not request:  # that upload is in whole
            self.server.upload_ended(self)
        if request is not None and request.headers_finished and request is not self.checked:
            self.checked = request  # its headers are in, its body is not: an upload under way
            client = self.server.client_of(self, request)
            wait = _held_off_for(client)
            if (
                wait
                and request.command == "POST"
                and is_held_off_path(request.path)
                and request.content_length > HELD_OFF_BODY
            ):
                self.refuse_at_once(wait)
            elif self.addr[0] in self.server.fronts:
                self.server.upload_started(self, client, request)
        return result

    def refuse_at_once(self, wait: float) -> None:
        """Answer 429 and close, without reading the body — not at once but at the
        server's next clean-up pass (up to ``cleanup_interval`` s): meanwhile the
        connection is held, reading nothing, and counts toward the address's
        connections, so a client that keeps posting gets a few refusals a second,
        not hundreds. (In the asyncore thread, with no task running: waitress
        reads no request while one runs.) Behind the front the answer is sent at
        once: a held connection would be one of the front's to the app, which
        a client trying again and again through the front would fill up."""
        self.request = None
        self.held_answer = max(1, int(wait + 0.999))
        if self.addr[0] in self.server.fronts:
            self.answer_held()
        else:
            self.server.holding.add(self)

    def refuse_upload(self, client: str) -> None:
        """Behind the front: ``client`` already sends as many uploads as it may at
        once (``Server.upload_started``); 429 at once, the body unread."""
        self.request = None
        self.answer(UPLOAD_RETRY, f"Too many uploads at once from this address. Try again in {UPLOAD_RETRY} seconds.")
        self.server.refused[client] = self.server.refused.get(client, 0) + 1

    def readable(self):
        return self.held_answer is None and super().readable()

    def answer_held(self) -> None:
        """The held refusal (``refuse_at_once``), sent; closed once it is."""
        seconds, self.held_answer = self.held_answer, None
        self.answer(seconds, f"Too many new sessions from this address. Try again in {seconds} seconds.")
        self.server.refused_uploads += 1

    def answer(self, retry_after: int, line: str) -> None:
        """A 429 with ``line``, then the connection closed (its request's body unread)."""
        text = (line + "\n").encode()
        answer = (
            b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Retry-After: %d\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (retry_after, len(text), text)
        )
        with self.outbuf_lock:
            self.outbufs[-1].append(answer)
            self.current_outbuf_count += len(answer)
            self.total_outbufs_len += len(answer)
        self.close_when_flushed = True

    def del_channel(self, map=None):
        self.server.upload_ended(self)
        self.server.closed(self)
        self.server.holding.discard(self)
        super().del_channel(map)

    @property
    def idle(self) -> bool:
        """Between requests: nothing half received, nothing running, nothing to send."""
        return self.request is None and not self.requests and not self.total_outbufs_len and not self.will_close


class Server(TcpWSGIServer):
    """waitress's TCP server with the door's two rules (see the module)."""

    channel_class = Channel

    def __init__(
        self,
        *args,
        per_address: int,
        header_deadline: float,
        request_deadline: float,
        fronts=(),
        forwarded: int = 0,
        **kw,
    ):
        self.per_address, self.header_deadline, self.request_deadline = per_address, header_deadline, request_deadline
        self.fronts = frozenset(fronts)  # the HTTPS front's own addresses: their connections are not capped
        self.forwarded = forwarded  # proxies in front: whose X-Forwarded-For entry is the client (proxy.py)
        self.by_address: dict[str, set] = {}
        self.uploads: dict[str, set] = {}  # the front's clients: their connections with an upload under way
        self.holding: set = set()  # channels holding a refusal (Channel.refuse_at_once)
        self.refused: dict[str, int] = {}  # connections closed over the cap since the last report
        self.timed_out = self.refused_uploads = 0
        self.next_report = 0.0
        super().__init__(*args, **kw)

    def client_of(self, channel, request) -> str:
        """The client's address: the connection's, or, on a connection from the
        front, the one the front saw (``X-Forwarded-For``, read as the app's
        ProxyFix reads it: the entry ``forwarded`` from the end)."""
        host = channel.addr[0]
        if host in self.fronts and self.forwarded:
            chain = [a.strip() for a in request.headers.get("X_FORWARDED_FOR", "").split(",")]
            if len(chain) >= self.forwarded and chain[-self.forwarded]:
                return chain[-self.forwarded]
        return host

    def upload_started(self, channel, client: str, request) -> None:
        """A request from the front whose body is still to come. The front (Caddy)
        passes each request on as it arrives, on a connection of its own to the
        app, so a client sending many slow uploads through it held as many of the
        app's connections (the cap on connections does not apply to the front's):
        each client of the front may send ``per_address`` at once in this process,
        as it may hold that many connections without the front; one more is
        refused before its body is read."""
        theirs = self.uploads.setdefault(client, set())
        if len(theirs) >= self.per_address:
            channel.refuse_upload(client)
            return
        theirs.add(channel)
        channel.uploading = (client, request)

    def upload_ended(self, channel) -> None:
        if channel.uploading is None:
            return
        client = channel.uploading[0]
        channel.uploading = None
        theirs = self.uploads.get(client)
        if theirs is not None:
            theirs.discard(channel)
            if not theirs:
                del self.uploads[client]

    def opened(self, channel) -> None:
        self.by_address.setdefault(channel.addr[0], set()).add(channel)

    def closed(self, channel) -> None:
        host = channel.addr[0] if isinstance(channel.addr, tuple) else channel.addr
        channels = self.by_address.get(host)
        if channels is not None:
            channels.discard(channel)
            if not channels:
                del self.by_address[host]

    def handle_accept(self):
        """The connections waiting to be accepted, up to ``ACCEPT_BATCH`` of them
        (waitress takes one per pass of its loop: 2,100 trickling connections,
        each closed at the cap and opened again, woke both processes' loops some
        600 times a second, a pass each, between the normal requests)."""
        for _ in range(self.ACCEPT_BATCH):
            if len(self._map) >= self.adj.connection_limit or not self.accept_one():
                return

    ACCEPT_BATCH = 64

    def accept_one(self) -> bool:
        """waitress's own ``BaseWSGIServer.handle_accept``, with the per-address cap;
        False when there was nobody to accept. A connection over the cap is reset
        (no FIN exchange, no TIME_WAIT kept for it here)."""
        try:
            accepted = self.accept()
            if accepted is None:
                return False
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            if self.adj.log_socket_errors:
                self.logger.warning("server accept() threw an exception", exc_info=True)
            return True
        addr = self.fix_addr(addr)
        host = addr[0]
        theirs = self.by_address.get(host, ())
        if len(theirs) >= self.per_address and host not in self.fronts:
            idle = sorted((c for c in theirs if c.idle), key=lambda c: c.last_activity)
            for channel in idle[: len(theirs) - self.per_address + 1]:
                channel.handle_close()
                self.refused[host] = self.refused.get(host, 0) + 1
            if len(self.by_address.get(host, ())) >= self.per_address:
                try:
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_RESET)
                except OSError:
                    pass
                conn.close()
                self.refused[host] = self.refused.get(host, 0) + 1
                return True
        self.channel_class(self, conn, addr, self.adj, map=self._map)
        return True

    def maintenance(self, now):
        super().maintenance(now)  # the idle timeout
        for channel in list(self.holding):
            self.holding.discard(channel)
            channel.answer_held()
        for channel in list(self.active_channels.values()):
            request = channel.request
            if request is None or channel.will_close:
                continue
            limit = self.request_deadline if request.headers_finished else self.header_deadline
            if now - channel.request_started > limit:
                channel.will_close = True  # closed by the loop's next pass, as idle ones are
                self.timed_out += 1
        if (self.refused or self.timed_out or self.refused_uploads) and now >= self.next_report:
            self.next_report = now + 60  # at most a line a minute, however hard they push
            refused = ", ".join(f"{n} of {host}" for host, n in sorted(self.refused.items(), key=lambda x: -x[1])[:5])
            log.warning(
                "closed %d connection(s) past the request deadline and %s over %d per address; "
                "refused %d upload(s) at the door",
                self.timed_out,
                refused or "none",
                self.per_address,
                self.refused_uploads,
            )
            self.refused, self.timed_out, self.refused_uploads = {}, 0, 0


def make_server(
    app,
    sock,
    per_address: int,
    header_deadline: float,
    request_deadline: float,
    fronts=(),
    forwarded: int = 0,
    **options,
) -> Server:
    """What ``waitress.serve(app, sockets=[sock], **options)`` builds, with our
    classes: one TCP server on an already bound and listening socket."""
    adj = Adjustments(sockets=[sock], **options)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    return Server(
        app,
        {},
        True,
        sock,
        dispatcher=dispatcher,
        adj=adj,
        bind_socket=False,
        sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
        per_address=per_address,
        header_deadline=header_deadline,
        request_deadline=request_deadline,
        fronts=fronts,
        forwarded=forwarded,
    )
