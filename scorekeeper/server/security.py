"""The server's own host names only; same-origin checks for state-changing
requests; protective headers."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import Flask, abort, render_template, request

from .lan import lan_address

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
DEFAULT_PORTS = {"http": 80, "https": 443}
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
# A Host header: a name or IPv4 address, or a bracketed IPv6 address; an optional port.
# (Flask's TRUSTED_HOSTS would do the rest, but werkzeug's check cannot match an IPv6
# literal such as [::1] and compares names case-sensitively.)
HOST = re.compile(r"(?P<name>[a-z0-9.-]+|\[(?P<ipv6>[0-9a-f:.]+)\])(?::(?P<port>[0-9]{1,5}))?\Z", re.I)


def allowed_hosts(app: Flask) -> frozenset:
    """The names this server answers to: localhost, 127.0.0.1 and ::1, this
    machine's LAN address (what `make run` prints), the PUBLIC_URL's host, and
    the names listed in ``ALLOWED_HOSTS`` (instance/config.py)."""
    names = set(LOCAL_HOSTS) | {lan_address()} | set(app.config.get("ALLOWED_HOSTS") or ())
    public = app.config.get("PUBLIC_URL")
    if public:
        names.add(urlsplit(public).hostname)
    return frozenset(n.lower().strip("[]") for n in names if n)


def allow_hosts(app: Flask, *names: str) -> None:
    """Answer to these names too (``serve`` adds the address it was told to listen on)."""
    app.config["ALLOWED_HOSTS"] = list(app.config.get("ALLOWED_HOSTS") or ()) + list(names)
    app.extensions["scorekeeper.hosts"] = allowed_hosts(app)


def host_name(host: str) -> str | None:
    """The name in a Host header (lower case, IPv6 without brackets), or None if malformed."""
    match = HOST.match(host or "")
    if match is None or (match["port"] is not None and not 1 <= int(match["port"]) <= 65535):
        return None
    return (match["ipv6"] or match["name"]).lower()


def origin_of(url: str) -> tuple | None:
    """(scheme, host, port) of an origin, default ports filled in; None if it is not one."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if (
        scheme not in DEFAULT_PORTS
        or not parts.hostname
        or "@" in parts.netloc
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)


def is_same_origin() -> bool:
    """A browser says where a request comes from: Sec-Fetch-Site, else Origin.
    Clients that send neither (curl, scripts) are not browsers and carry no
    ambient credentials to abuse."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None or origin == "null":
        return origin is None
    theirs = origin_of(origin)
    return theirs is not None and theirs == origin_of(f"{request.scheme}://{request.host}")


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.hosts"] = allowed_hosts(app)

    @app.before_request
    def refuse_foreign_hosts_and_cross_site():
        if host_name(request.host) not in app.extensions["scorekeeper.hosts"]:
            abort(
                app.make_response(
                    (
                        render_template(
                            "error.html",
                            title="Unknown address",
                            message="This scorekeeper does not answer to that address. Open the address it printed "
                            "when it started (a host name of your own goes in ALLOWED_HOSTS in "
                            "instance/config.py).",
                        ),
                        400,
                    )
                )
            )
        if request.method not in SAFE_METHODS and not is_same_origin():
            abort(403)

    @app.errorhandler(403)
    def forbidden(error):
        return render_template(
            "error.html", title="Refused", message="That change came from another site, so it was refused."
        ), 403

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response
