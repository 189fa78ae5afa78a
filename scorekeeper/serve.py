"""``python -m scorekeeper.serve`` (what `make run` starts): create the database,
print the address the phones at the table can open, and serve the app with
waitress.

Why waitress: `make run` listens on the pub's Wi-Fi, where anyone can open
connections and send half a request. waitress reads each request whole (headers
and body, buffered) in its asyncore loop before it hands it to one of its app
threads, so slow or idle connections cost a socket and a buffer, never a thread;
and it drops connections idle for ``IDLE_TIMEOUT`` seconds. (gunicorn's gthread
workers give a thread to a connection before its request is complete: 8 idle
connections stalled everyone.) It is pure Python, one process: the PDF sheet
renders in a separate process (``scorekeeper.pdf``), so one core is left for
the requests.
"""

from __future__ import annotations

import argparse
import logging
import resource
import sys

from .lan import lan_address

THREADS = 8               # app threads (requests being answered at once; waiting ones cost none)
CONNECTION_LIMIT = 1000   # open connections at once (idle or slow ones included)
IDLE_TIMEOUT = 10         # seconds a connection may send and receive nothing before it is closed
CLEANUP_INTERVAL = 2      # seconds between the checks for idle connections
BODY_SLACK = 64 * 1024    # a form's multipart framing on top of the app's MAX_CONTENT_LENGTH


def waitress_options(app, host: str, port: int, threads: int = THREADS) -> dict:
    """The waitress settings `make run` uses (the load bench runs with the same)."""
    return {
        "host": host, "port": port, "threads": threads,
        "connection_limit": CONNECTION_LIMIT, "channel_timeout": IDLE_TIMEOUT,
        "cleanup_interval": CLEANUP_INTERVAL,
        "asyncore_use_poll": True,    # select() stops at 1,024 sockets; poll() does not
        "max_request_body_size": app.config["MAX_CONTENT_LENGTH"] + BODY_SLACK,
        "clear_untrusted_proxy_headers": True, "ident": "scorekeeper",
    }


def raise_open_file_limit(wanted: int = CONNECTION_LIMIT + 200) -> None:
    """Each connection is a file descriptor: make room for CONNECTION_LIMIT of them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def run(app, host: str, port: int, threads: int = THREADS) -> None:
    import waitress

    raise_open_file_limit()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    waitress.serve(app, **waitress_options(app, host, port, threads))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Serve the Gleek scorekeeper on the local network.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every one)")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=THREADS, help=f"app threads (default {THREADS})")
    args = parser.parse_args(argv)

    from . import create_app, security

    app = create_app()  # creates and migrates instance/scorekeeper.db
    address = lan_address()
    print("Gleek scorekeeper", flush=True)
    print(f"  database: {app.config['DATABASE']}", flush=True)
    if address:
        print(f"  open this on the phones at the table:  http://{address}:{args.port}/", flush=True)
    print(f"  on this computer:                      http://127.0.0.1:{args.port}/", flush=True)
    if address and not app.config.get("PUBLIC_URL"):
        app.config["PUBLIC_URL"] = f"http://{address}:{args.port}"
    if args.host not in ("0.0.0.0", "::", ""):
        security.allow_hosts(app, args.host)   # the address it was told to listen on
    run(app, args.host, args.port, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
