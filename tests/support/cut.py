"""A loopback TCP proxy whose connection can really be cut, for offline tests.

Chromium's ``context.set_offline(True)`` stops the page's own requests but not
the service worker's ``fetch()``es (docs/engineering.md, "Offline in tests"), so
a test that means "no connection" puts this proxy between the browser and the
server and ``cut()``s it: the port stops listening (a new connection is
refused) and every connection open through it is closed. ``restore()`` listens
again on the same port, so the page's origin is unchanged. Loopback only, and
a thread per open connection (a browser opens a handful)."""

from __future__ import annotations

import logging
import socket
import threading
from contextlib import contextmanager
from pathlib import Path

from werkzeug.serving import make_server

from scorekeeper import create_app


class CuttableLink:
    """127.0.0.1:<port> → ``upstream`` (host, port), until cut."""

    def __init__(self, upstream: tuple[str, int]):
        self.upstream = upstream
        self.port = 0
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self.restore()

    @property
    def is_cut(self) -> bool:
        return self._listener is None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def restore(self) -> None:
        """Listen (again, on the same port once it has one)."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """No connection: nothing listens on the port, and what was open is closed."""
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._open = list(self._open), set()
        if listener is not None:
            _close(listener)
        for sock in sockets:
            _close(sock)

    def close(self) -> None:
        self.cut()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # cut: the listener was closed
                return
            try:
                server = socket.create_connection(self.upstream, timeout=5)
                server.settimeout(None)
            except OSError:
                _close(client)
                continue
            with self._lock:
                if self._listener is not listener:  # cut meanwhile
                    _close(client)
                    _close(server)
                    return
                self._open.update((client, server))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)
            _close(source)
            _close(sink)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


@contextmanager
def served_through_a_link(folder: Path, secret: str):
    """A server of its own on a fresh database in ``folder`` (the table polled every
    second), and a ``CuttableLink`` to it: yields (the server's own URL, the link)."""
    app = create_app(
        {
            "DATABASE": str(folder / "scorekeeper.db"),
            "SECRET_KEY": secret,
            "POLL_SECONDS": 1,
            "BACKUP_DIR": str(folder / "backups"),
            "SESSIONS_PER_MINUTE": 100_000,
        }
    )
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    link = CuttableLink(("127.0.0.1", server.server_port))
    try:
        yield f"http://127.0.0.1:{server.server_port}", link
    finally:
        link.close()
        server.shutdown()
        thread.join(timeout=5)
