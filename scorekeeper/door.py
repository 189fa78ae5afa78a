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
  opens another when it needs one); if none is idle, the new one is closed at once.

Checked against waitress 3.0.2's source (``waitress/server.py``, ``channel.py``):
``HTTPChannel.received`` creates ``self.request`` (a parser) for each request and
drops it once the request is complete; ``BaseWSGIServer.handle_accept`` and
``maintenance`` run in the one asyncore thread, where every channel is touched.
"""

from __future__ import annotations

import logging
import time

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

log = logging.getLogger("scorekeeper.door")


class Channel(HTTPChannel):
    """A connection, which knows when the request it is receiving began."""

    request_started = 0.0   # time.time() when the first byte of self.request arrived

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        server.opened(self)

    def received(self, data):
        receiving = self.request
        result = super().received(data)
        if self.request is not None and self.request is not receiving:   # a new request has begun
            self.request_started = time.time()
        return result

    def del_channel(self, map=None):
        self.server.closed(self)
        super().del_channel(map)

    @property
    def idle(self) -> bool:
        """Between requests: nothing half received, nothing running, nothing to send."""
        return self.request is None and not self.requests and not self.total_outbufs_len and not self.will_close


class Server(TcpWSGIServer):
    """waitress's TCP server with the door's two rules (see the module)."""

    channel_class = Channel

    def __init__(self, *args, per_address: int, header_deadline: float, request_deadline: float,
                 uncapped=(), **kw):
        self.per_address, self.header_deadline, self.request_deadline = per_address, header_deadline, request_deadline
        self.uncapped = frozenset(uncapped)   # the HTTPS front's own addresses
        self.by_address: dict[str, set] = {}
        self.refused: dict[str, int] = {}   # connections closed over the cap since the last report
        self.timed_out = 0
        self.next_report = 0.0
        super().__init__(*args, **kw)

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
        # waitress's own (BaseWSGIServer.handle_accept), with the per-address cap
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            if self.adj.log_socket_errors:
                self.logger.warning("server accept() threw an exception", exc_info=True)
            return
        addr = self.fix_addr(addr)
        host = addr[0]
        theirs = self.by_address.get(host, ())
        if len(theirs) >= self.per_address and host not in self.uncapped:
            idle = sorted((c for c in theirs if c.idle), key=lambda c: c.last_activity)
            for channel in idle[:len(theirs) - self.per_address + 1]:
                channel.handle_close()
                self.refused[host] = self.refused.get(host, 0) + 1
            if len(self.by_address.get(host, ())) >= self.per_address:
                conn.close()
                self.refused[host] = self.refused.get(host, 0) + 1
                return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def maintenance(self, now):
        super().maintenance(now)   # the idle timeout
        for channel in list(self.active_channels.values()):
            request = channel.request
            if request is None or channel.will_close:
                continue
            limit = self.request_deadline if request.headers_finished else self.header_deadline
            if now - channel.request_started > limit:
                channel.will_close = True   # closed by the loop's next pass, as idle ones are
                self.timed_out += 1
        if (self.refused or self.timed_out) and now >= self.next_report:
            self.next_report = now + 60   # at most a line a minute, however hard they push
            refused = ", ".join(f"{n} of {host}" for host, n in sorted(self.refused.items(), key=lambda x: -x[1])[:5])
            log.warning("closed %d connection(s) past the request deadline and %s over %d per address",
                        self.timed_out, refused or "none", self.per_address)
            self.refused, self.timed_out = {}, 0


def make_server(app, sock, per_address: int, header_deadline: float, request_deadline: float, uncapped=(),
                **options) -> Server:
    """What ``waitress.serve(app, sockets=[sock], **options)`` builds, with our
    classes: one TCP server on an already bound and listening socket."""
    adj = Adjustments(sockets=[sock], **options)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    return Server(app, {}, True, sock, dispatcher=dispatcher, adj=adj, bind_socket=False,
                  sockinfo=(sock.family, sock.type, sock.proto, sock.getsockname()),
                  per_address=per_address, header_deadline=header_deadline, request_deadline=request_deadline,
                  uncapped=uncapped)
