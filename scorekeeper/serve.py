"""``python -m scorekeeper.serve``: create the database, print the address the
phones at the table can open, and serve the app with gunicorn (a real WSGI server)."""

from __future__ import annotations

import argparse
import os
import sys

from .lan import lan_address


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Serve the Gleek scorekeeper on the local network.")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    from . import create_app

    app = create_app()  # creates and migrates instance/scorekeeper.db
    address = lan_address()
    print("Gleek scorekeeper", flush=True)
    print(f"  database: {app.config['DATABASE']}", flush=True)
    if address:
        print(f"  open this on the phones at the table:  http://{address}:{args.port}/", flush=True)
    print(f"  on this computer:                      http://127.0.0.1:{args.port}/", flush=True)
    if address:
        os.environ["SCOREKEEPER_PUBLIC_URL"] = f"http://{address}:{args.port}"
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    os.execv(gunicorn, [gunicorn, "--bind", f"{args.host}:{args.port}", "--workers", str(args.workers),
                        "--threads", "4", "--worker-class", "gthread", "--access-logfile", "-",
                        "--graceful-timeout", "5", "scorekeeper:create_app()"])


if __name__ == "__main__":
    sys.exit(main())
