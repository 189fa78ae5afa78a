"""``python -m scorekeeper.server.front`` (what `make run-https` starts): Caddy in
front of the app's own waitress server, over HTTPS.

- With ``PUBLIC_URL`` in instance/config.py naming a public host
  (``"https://scores.example.org"``), Caddy gets its certificate for that name
  itself (ports 80 and 443, the name's DNS pointing at this machine).
- Otherwise (a LAN, a test) it serves ``https://localhost:8443`` and
  ``https://<LAN address>:8443`` with ``tls internal``: Caddy's own local CA,
  whose root certificate (printed at start) a phone must trust first.

The app listens on 127.0.0.1 only and believes the front's X-Forwarded-*
headers (``serve --front``; scorekeeper/server/proxy.py). Both stop together. With
``REPLICA`` in the config, litestream runs beside them (scorekeeper/server/replica.py):
started before the app, stopped after it.
``--caddy-only`` runs just the front (the deploy/ units run the two apart);
``--print`` prints the Caddyfile.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

from . import replica
from .serve import HEADER_DEADLINE, REQUEST_DEADLINE, door_options, worker_ports
from .front_polls import folder_for
from .lan import lan_address
from .. import create_app
from .security import CSP

HTTPS_PORT = 8443
APP_PORT = 5000


def is_public_name(host: str | None) -> bool:
    """A name a public CA can certify: not localhost, not an address, not .local/.lan."""
    if not host or host == "localhost" or host.endswith((".localhost", ".local", ".lan", ".internal", ".home.arpa")):
        return False
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return "." in host
    return False


def sites(public_url: str | None, https_port: int, lan: str | None) -> tuple[list[str], bool]:
    """The site addresses Caddy serves and whether their certificates are public."""
    if public_url and urlsplit(public_url).scheme == "https" and is_public_name(urlsplit(public_url).hostname):
        return [urlsplit(public_url).hostname], True
    names = ["localhost"] + ([lan] if lan else [])
    if public_url and urlsplit(public_url).scheme == "https" and urlsplit(public_url).hostname not in names:
        names.append(urlsplit(public_url).hostname)
    return [f"https://{'[%s]' % n if ':' in n else n}:{https_port}" for n in names], False


def caddyfile(
    site_addresses: list[str],
    public: bool,
    upstream: str | list[str],
    storage: Path,
    polls: Path | None = None,
    header_deadline: float = HEADER_DEADLINE,
    request_deadline: float = REQUEST_DEADLINE,
) -> str:
    """The Caddyfile: Caddy's own admin API off, certificates kept in ``storage``,
    every request passed to ``upstream`` (Caddy adds X-Forwarded-For/-Proto/-Host
    and keeps the Host header), except, with ``polls``, a watch link's htmx poll
    the app has left its answer for in that folder (scorekeeper/server/front_polls.py).

    A request must arrive whole in time, as at the app's own door (door.py): its
    headers within ``header_deadline`` seconds, headers and body within
    ``request_deadline`` (Caddy 2.6's ``read_header`` and ``read_body``, Go's
    ReadHeaderTimeout and ReadTimeout, counted from the request's first byte);
    Caddy has no deadline of its own and held trickled headers, and an upload's
    body it had stopped passing on, for ever."""
    options = [
        "admin off",
        f"storage file_system {storage}",
        "log {\n\t\tlevel ERROR\n\t}",
        "servers {\n\t\ttimeouts {\n"
        f"\t\t\tread_header {header_deadline:g}s\n\t\t\tread_body {request_deadline:g}s\n"
        "\t\t}\n\t}",
    ]
    if not public:
        # a local CA: nothing to install in this machine's trust store, no http->https redirect on :80
        options += ["auto_https disable_redirects", "skip_install_trust"]
    lines = ["{"] + [f"\t{o}" for o in options] + ["}", "", ", ".join(site_addresses) + " {"]
    if not public:
        lines.append("\ttls internal")
    if polls is not None:
        lines += poll_answers(polls, upstream)
    lines += proxy(upstream, "\t") + ["}", ""]
    return "\n".join(lines)


def proxy(upstream: str | list[str], indent: str) -> list[str]:
    """``reverse_proxy`` to the app: to each of its processes' own ports
    (``serve.worker_ports``), the request to the one with the fewest in hand."""
    upstream = [upstream] if isinstance(upstream, str) else upstream
    if len(upstream) == 1:
        return [f"{indent}reverse_proxy {upstream[0]}"]
    return [f"{indent}reverse_proxy {' '.join(upstream)} {{", f"{indent}\tlb_policy least_conn", f"{indent}}}"]


#: The polls the front answers from the app's files (server/front_polls.py): (matcher, the
#: path, the folder of a link's files, its part there).
POLLS = [
    ("poll", r"^/w/([A-Za-z0-9_-]{1,64})/live$", "w", "part.html"),  # a table's watch link
    ("standings", r"^/n/([A-Za-z0-9_-]{1,64})/live$", "n", "part.html"),  # a club night's standings
    ("screen", r"^/n/([A-Za-z0-9_-]{1,64})/screen/live$", "n", "screen.html"),  # and its big screen
]


def poll_answers(polls: Path, upstream: str | list[str]) -> list[str]:
    """Caddy's part of server/front_polls.py, for each of ``POLLS``: 204 when
    ``same-<v>`` is there, else the part (precompressed), else the app; with the
    app's own headers."""
    lines = []
    for name, path, kind, part in POLLS:
        lines += poll_answer(polls, upstream, name, path, f"/{kind}/{{re.{name}.1}}", part)
    return lines


def poll_answer(polls: Path, upstream: str | list[str], name: str, path: str, folder: str, part: str) -> list[str]:
    root = str(polls).replace('"', "")
    return [
        f"\t@{name} {{",
        "\t\tmethod GET",
        f"\t\tpath_regexp {name} {path}",
        '\t\texpression `{query}.matches("^v=[0-9a-z-]{1,64}$")`',
        "\t\theader HX-Request true",
        "\t}",
        f"\troute @{name} {{",
        f'\t\t@same file {{\n\t\t\troot "{root}"\n\t\t\ttry_files {folder}/same-{{query.v}}\n\t\t}}',
        f'\t\t@part file {{\n\t\t\troot "{root}"\n\t\t\ttry_files {folder}/{part}\n\t\t}}',
        '\t\theader @same Vary "HX-Request, Accept-Encoding"',
        "\t\theader @same X-Answered-By front",
        "\t\trespond @same 204",
        "\t\thandle @part {",
        "\t\t\theader {",
        f'\t\t\t\tContent-Security-Policy "{CSP}"',
        "\t\t\t\tX-Content-Type-Options nosniff",
        "\t\t\t\tReferrer-Policy same-origin",
        "\t\t\t\tX-Frame-Options DENY",
        "\t\t\t\tCache-Control no-cache",
        '\t\t\t\tVary "HX-Request, Accept-Encoding"',
        "\t\t\t\t-Last-Modified",
        "\t\t\t\tX-Answered-By front",
        "\t\t\t}",
        f"\t\t\trewrite * {folder}/{part}",
        f'\t\t\tfile_server {{\n\t\t\t\troot "{root}"\n\t\t\t\tprecompressed br gzip\n\t\t\t\tpass_thru\n\t\t\t}}',
        "\t\t}",
        "\t\trewrite * {http.request.orig_uri}",
        *proxy(upstream, "\t\t"),
        "\t}",
    ]


def root_certificate(storage: Path) -> Path:
    """Where Caddy keeps its local CA's root certificate (``tls internal``)."""
    return storage / "pki" / "authorities" / "local" / "root.crt"


def caddy_command(config: Path) -> list[str]:
    return [shutil.which("caddy") or "caddy", "run", "--config", str(config), "--adapter", "caddyfile"]


def plan(https_port: int, app_port: int):
    """(Caddyfile path, its text, the front's URL, public?, storage) from the app's configuration."""
    app = create_app()
    app.extensions["scorekeeper.keeper"].close()
    folder = Path(app.instance_path) / "front"
    storage = folder / "caddy"
    addresses, public = sites(app.config.get("PUBLIC_URL"), https_port, lan_address())
    url = f"https://{addresses[0]}" if public else addresses[-1 if len(addresses) > 1 else 0]

    door = door_options(app)
    text = caddyfile(
        addresses,
        public,
        [f"127.0.0.1:{p}" for p in worker_ports(app_port)],
        storage,
        folder_for(app),
        door["header_deadline"],
        door["request_deadline"],
    )
    return folder / "Caddyfile", text, url, public, storage


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Serve the scorekeeper over HTTPS: Caddy in front of waitress.")
    parser.add_argument("--https-port", type=int, default=HTTPS_PORT, help="the front's port with tls internal")
    parser.add_argument(
        "--port",
        type=int,
        default=APP_PORT,
        help="the app's first port on 127.0.0.1 (its processes take this one and the next)",
    )
    parser.add_argument("--caddy-only", action="store_true", help="run the front only (the app runs apart)")
    parser.add_argument("--print", action="store_true", help="print the Caddyfile and stop")
    args = parser.parse_args(argv)
    path, text, url, public, storage = plan(args.https_port, args.port)
    if args.print:
        print(text, end="")
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if args.caddy_only:
        os.execv(caddy_command(path)[0], caddy_command(path))
    replicated = replica.from_instance()
    # litestream first (holding its read transaction before the app's first write), stopped last
    replicator = replica.Replicator(replicated).start() if replicated else None
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "scorekeeper.server.serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(args.port),
                "--front",
                url,
            ]
        ),
        subprocess.Popen(caddy_command(path)),
    ]

    def stop(signum=None, frame=None):
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
        if replicator is not None:
            replicator.stop()  # after the app: its last sync carries the app's last commits
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    time.sleep(1.5)
    print(f"  over https:                            {url}/", flush=True)
    if not public:
        print(f"  its certificate is Caddy's own: trust {root_certificate(storage)} on each phone first", flush=True)
    if replicator is not None:
        print(f"  the database replicated to:            {replicated.url}", flush=True)
    while all(child.poll() is None for child in children):
        if replicator is not None:
            replicator.keep_running()
        time.sleep(0.5)
    stop()
    return 1


if __name__ == "__main__":
    sys.exit(main())
