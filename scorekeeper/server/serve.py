"""``python -m scorekeeper.server.serve`` (what `make run` starts): create the database,
print the address the phones at the table can open, and serve the app with
waitress.

Why waitress: `make run` listens on the pub's Wi-Fi, where anyone can open
connections and send half a request. waitress reads each request whole (headers
and body, buffered) in its async loop before it hands it to one of its app
threads, so slow or idle connections cost a socket and a buffer, never a thread;
and it drops connections idle for ``IDLE_TIMEOUT`` seconds. (gunicorn's gthread
workers give a thread to a connection before its request is complete: 8 idle
connections stalled everyone.) ``scorekeeper.server.door`` adds what waitress lacks: a
deadline on receiving a whole request (a byte every few seconds is not idle) and
a cap on each client address's connections.

waitress is one process, so one core for Python: ``WORKERS`` waitress processes
share one listening socket (each accepts from it), as gunicorn's workers did,
and the parent restarts one that dies. The PDF sheet renders in a separate
process (``scorekeeper.printing.pdf``).
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import resource
import shutil
import signal
import socket
import sys
import tempfile
import time
import traceback
from pathlib import Path
from urllib.parse import urlsplit

from .lan import lan_address

# The app, the pages, waitress and the PDF renderer are imported in the functions that
# serve, not here: python -m scorekeeper.server.serve is the __main__ that each spawned
# PDF renderer and the upload forkserver import again (~1 s and +34 MB each at the top).

WORKERS = 2  # waitress processes (this machine has 2 cores)
THREADS = 4  # app threads in each: more only fight over the GIL (8 made p95 10× worse)
CONNECTION_LIMIT = 1000  # open connections at once, per process (idle or slow ones included)
IDLE_TIMEOUT = 10  # seconds a connection may send and receive nothing before it is closed
CLEANUP_INTERVAL = 2  # seconds between the checks for idle connections and late requests
HEADER_DEADLINE = 10  # seconds from a request's first byte to the end of its headers
REQUEST_DEADLINE = 60  # seconds from its first byte to the end of its body (2 MB on a poor Wi-Fi)
CONNECTIONS_PER_ADDRESS = 12  # open connections of one client address, per process (a browser opens 6)
BODY_SLACK = 64 * 1024  # a form's multipart framing on top of the app's MAX_CONTENT_LENGTH


def waitress_options(app, threads: int = THREADS) -> dict:
    """The waitress settings `make run` uses (the load bench runs with the same).
    The timings can be set in instance/config.py (the tests make them short)."""
    config = app.config
    return {
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
        "channel_timeout": config.get("IDLE_TIMEOUT", IDLE_TIMEOUT),
        "cleanup_interval": config.get("CLEANUP_INTERVAL", CLEANUP_INTERVAL),
        "asyncore_use_poll": True,  # select() stops at 1,024 sockets; poll() does not
        "max_request_body_size": config["MAX_CONTENT_LENGTH"] + BODY_SLACK,
        # behind a front the app itself reads X-Forwarded-* from it (scorekeeper/server/proxy.py)
        "clear_untrusted_proxy_headers": not config.get("PROXY_COUNT"),
        "ident": "scorekeeper",
    }


def door_options(app) -> dict:
    """``scorekeeper.server.door``'s settings: the request deadlines, the per-address cap."""
    config = app.config
    return {
        "header_deadline": config.get("HEADER_DEADLINE", HEADER_DEADLINE),
        "request_deadline": config.get("REQUEST_DEADLINE", REQUEST_DEADLINE),
        "per_address": config.get("CONNECTIONS_PER_ADDRESS", CONNECTIONS_PER_ADDRESS),
        # behind a front every connection comes from the front's own address: the caps
        # are on its clients, told apart by the address the front forwards (door.py)
        "fronts": tuple(config.get("PROXY_FROM") or ()) if config.get("PROXY_COUNT") else (),
        "forwarded": int(config.get("PROXY_COUNT") or 0),
    }


def raise_open_file_limit(wanted: int = CONNECTION_LIMIT + 200) -> None:
    """Each connection is a file descriptor: make room for CONNECTION_LIMIT of them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    return sock


def serve_worker(make_app, sock: socket.socket, threads: int) -> None:
    """One waitress process on the shared socket. ``make_app()`` -> (WSGI app,
    Flask app) is called here, after the fork: no SQLite connection crosses it."""
    from . import door, warm  # see above: the renderers import this script

    wsgi, app = make_app()
    app.extensions["scorekeeper.hold_off"] = door.hold_off  # the app's 429s held off at this door too
    warm.compile_templates(app)  # before the first request, and frozen with the rest (tune_interpreter)
    tune_interpreter()
    warm.start(app)  # this process's caches follow the other's changes (server/warm.py)
    server = door.make_server(wsgi, sock, **door_options(app), **waitress_options(app, threads))
    server.print_listen("Serving on http://{}:{}")
    server.run()


GC_THRESHOLD = (5_000, 10, 100)  # Python's default is (700, 10, 10)
SWITCH_INTERVAL = 0.0005  # seconds a thread holds the GIL before another may take it (default 0.005)


def tune_interpreter() -> None:
    """Two settings of the interpreter for a busy server (a hosted club night: 200
    tables, ~390 requests a second on 2 cores), each measured there:

    - **The garbage collector.** A server holding 200 evenings' hands decoded
      tracks ~400,000 container objects. With Python's default thresholds a
      full collection (all of them) ran every few seconds and stopped every
      thread of the process for 230–450 ms. Everything made before serving (the
      app, the rule books, the templates) is frozen out of the collector's
      sight (``gc.freeze``); the youngest generation is collected every 5,000
      allocations (not 700), the middle one every 10 of those, and a full
      collection waits for 100 middle ones (~20 minutes at that load) instead
      of 10. Measured pauses: the young ones at most ~40 ms, the middle ones
      ~65 ms. (With (20,000, 20, 10) a middle collection held ~300,000 objects
      and took 225–312 ms.) Reference counting frees nearly everything a
      request makes; the collector is only for cycles (Werkzeug's request and
      its environ are one).
    - **The GIL's switch interval.** A thread woken with an answer to send waits
      up to the interval for the thread holding the GIL (rendering a page);
      with 4 threads and waitress's own loop in one process those waits queue up
      (a convoy): 5 ms → 0.5 ms took the p95 from ~2.4 s to ~1 s before the
      other fixes."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)
    sys.setswitchinterval(SWITCH_INTERVAL)


def worker_ports(port: int, workers: int = WORKERS) -> list[int]:
    """Behind the front each worker listens on a port of its own: ``port``, ``port + 1``, …"""
    return [port + i for i in range(workers)]


def run(
    make_app,
    host: str,
    port: int,
    threads: int = THREADS,
    workers: int = WORKERS,
    own_ports: bool = False,
    front_polls: Path | None = None,
) -> None:
    """Serve ``make_app()`` on host:port with ``workers`` waitress processes.

    They share one listening socket (each accepts from it), except with
    ``own_ports`` (behind the front: ``worker_ports``), where the front itself
    sends each request to the process with the fewest in hand (Caddy's
    ``lb_policy least_conn``). Measured at 200 tables polling through the front:
    on one shared socket the front's few kept connections, each accepted by one
    process, left one process 82 % busy and the other 43 %, and the busy one's
    queue set the p95."""
    raise_open_file_limit()
    socks: list[socket.socket] = []
    try:  # first: a port another server holds stops this one before it has made anything
        for p in worker_ports(port, workers) if own_ports else [port]:
            socks.append(listen(host, p))
    except OSError:
        for sock in socks:
            sock.close()
        raise
    from ..printing import pdf  # see above: the renderers import this script

    pdf.share_board()  # every worker shares one table of the PDF renderer's turns (made before they are forked)
    from . import door  # see above: the renderers import this script

    door.share_held_off()  # and one of the addresses told to wait
    shared_parts = share_live_parts(workers)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s[%(process)d]: %(message)s")
    try:
        serve_workers(make_app, socks, threads, workers)
    finally:
        if shared_parts:
            shutil.rmtree(shared_parts, ignore_errors=True)
        if front_polls is not None:  # only once this server had its ports: not another's, still running
            from .front_polls import remove_memory_folder  # see above: the renderers import this script

            remove_memory_folder(front_polls)


def share_live_parts(workers: int) -> str | None:
    """With several processes, a private folder where they share the live parts of
    the tables (``web.cache.SharedParts``): each change's part made once, not once
    a process. Removed when the server stops."""
    if workers <= 1:
        return None

    from ..web.cache import SHARED_PARTS_FOLDER  # see above: the renderers import this script

    where = parts_folder_parent()
    remove_left_parts(where)
    folder = os.environ[SHARED_PARTS_FOLDER] = tempfile.mkdtemp(
        prefix=f"scorekeeper-live-{os.getpid()}-", dir=where
    )  # 0700
    return folder


def parts_folder_parent() -> Path:
    """Where the shared parts go: in memory (``/dev/shm``, Linux's tmpfs) where
    there is one, else the temporary folder. A part is written at every change
    of every table: on a disk's file system (ext4) each write and rename cost
    ~1.2 ms of kernel time, on tmpfs ~0.2 ms (measured at 200 tables)."""
    memory = Path("/dev/shm")
    if memory.is_dir() and os.access(memory, os.W_OK | os.X_OK):
        return memory
    return Path(tempfile.gettempdir())


def remove_left_parts(temporary: Path) -> list[Path]:
    """The folders of shared parts a killed server left (named by its process id,
    which is gone), this user's only."""
    removed = []
    for folder in temporary.glob("scorekeeper-live-*-*"):
        try:
            pid = int(folder.name.split("-")[2])
            if folder.stat().st_uid != os.getuid() or pid == os.getpid():
                continue
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
        except (ValueError, OSError):
            continue
    return removed


def serve_workers(make_app, socks: list[socket.socket], threads: int, workers: int) -> None:
    """``workers`` processes on the socket (or, one each, on the sockets) given."""
    if workers <= 1:
        serve_worker(make_app, socks[0], threads)
        return
    children: dict[int, tuple[float, socket.socket]] = {}

    def start_one(sock: socket.socket) -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = 0
            try:
                serve_worker(make_app, sock, threads)
            except BaseException:  # noqa: BLE001 - said, then the parent starts another
                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        children[pid] = (time.monotonic(), sock)

    def stop(signum, frame):
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for i in range(workers):
        start_one(socks[i % len(socks)])
    while True:
        pid, status = os.wait()
        child = children.pop(pid, None)
        if child is None:
            continue
        started, sock = child
        logging.getLogger("scorekeeper").warning("worker %d stopped (status %d); starting another", pid, status)
        if time.monotonic() - started < 2:
            time.sleep(2)  # one that dies at once would otherwise be restarted in a tight loop
        start_one(sock)  # on the same socket (its own port, behind the front)


def front(app, url: str) -> None:
    """Behind the HTTPS front at ``url`` (one proxy, on this machine, unless
    instance/config.py says otherwise): its address is the public one."""
    from . import security  # see above: the renderers import this script
    from . import front_polls  # see above: the renderers import this script

    if not url:
        raise SystemExit("--front needs the front's URL, or PUBLIC_URL in instance/config.py")
    app.config["PROXY_COUNT"] = app.config.get("PROXY_COUNT") or 1
    app.config["PUBLIC_URL"] = app.config.get("PUBLIC_URL") or url
    security.allow_hosts(app, urlsplit(url).hostname)
    front_polls.enable(app)  # the front answers watch polls from the app's last answers


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Serve the Gleek scorekeeper on the local network.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every one)")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=WORKERS, help=f"processes (default {WORKERS})")
    parser.add_argument("--threads", type=int, default=THREADS, help=f"app threads each (default {THREADS})")
    parser.add_argument(
        "--front",
        metavar="URL",
        nargs="?",
        const="",
        default=None,
        help="served behind an HTTPS front (at URL, else the configured PUBLIC_URL; "
        "`make run-https`, deploy/): believe its X-Forwarded-* headers",
    )
    args = parser.parse_args(argv)

    from .. import create_app  # see above: the renderers import this script
    from . import security  # see above: the renderers import this script

    address = lan_address()

    def make_app():
        app = create_app()
        if args.front is not None:
            front(app, args.front or app.config["PUBLIC_URL"])
        if address and not app.config.get("PUBLIC_URL"):
            app.config["PUBLIC_URL"] = f"http://{address}:{args.port}"
        if args.host not in ("0.0.0.0", "::", ""):
            security.allow_hosts(app, args.host)  # the address it was told to listen on
        return app, app

    # Once here, before any worker: creates and migrates instance/scorekeeper.db and
    # makes the secret key (every worker must read the same one).
    first = create_app()
    first.extensions["scorekeeper.keeper"].close()
    print("Gleek scorekeeper", flush=True)
    print(f"  database: {first.config['DATABASE']}", flush=True)
    polls = None
    if args.front is not None:
        from . import front_polls  # see above: the renderers import this script

        polls = front_polls.clear(first)  # what a server before this one left: other versions, maybe
        print(
            f"  behind the https front:                {(args.front or first.config['PUBLIC_URL']).rstrip('/')}/",
            flush=True,
        )
        # each process its own port (the front balances them): PORT and the next, both taken
        ports = " and ".join(str(port) for port in worker_ports(args.port, args.workers))
        print(f"  the app's own ports, for the front:    {ports} on 127.0.0.1 (one a process)", flush=True)
    elif address:
        print(f"  open this on the phones at the table:  http://{address}:{args.port}/", flush=True)
    print(f"  on this computer:                      http://127.0.0.1:{args.port}/", flush=True)
    del first
    run(make_app, args.host, args.port, args.threads, args.workers, own_ports=args.front is not None, front_polls=polls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
