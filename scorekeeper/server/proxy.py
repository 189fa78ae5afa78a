"""Served behind an HTTPS front (Caddy, `make run-https`, docs/engineering.md
"Hosting"): what the app trusts from it and what it sends back.

- ``X-Forwarded-For/-Proto/-Host`` are believed only with ``PROXY_COUNT`` set
  (instance/config.py: the number of proxies in front, 1 for Caddy) and only on
  connections from ``PROXY_FROM`` (the front's own addresses, loopback by
  default); Werkzeug's ``ProxyFix`` reads them then. From anyone else they are
  dropped before the app sees them, and without ``PROXY_COUNT`` (`make run`)
  they are never read at all.
- Over https the session cookie is ``Secure`` and responses carry HSTS (for a
  host name, never for localhost or an address: a browser would then refuse
  `make run`'s plain http on the same name).
- Hosted (``PROXY_COUNT`` set), sessions untouched for ``EXPIRE_AFTER_DAYS``
  (365) expire with their backups (a circle with all its evenings once none of it
  has changed for as long), and one client address keeps at most
  ``SESSIONS_PER_ADDRESS`` (200) sessions (an imported archive's evenings counted) and
  ``CIRCLES_PER_ADDRESS`` (20) circles; on a LAN each defaults to never (the pages
  apply those: ``web/hosting.py``'s ``setting``).
"""

from __future__ import annotations

import functools
import ipaddress

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix

FORWARDED = (
    "HTTP_FORWARDED",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_PREFIX",
)


def front_proxies(config, environ) -> int:
    """How many proxies' forwarded headers to believe for this request:
    ``PROXY_COUNT`` when it came from one of ``PROXY_FROM``, else 0 (the one
    answer ``FromTheFront`` and ``server.kept_polls`` both go by)."""
    count = int(config.get("PROXY_COUNT") or 0)
    if count and environ.get("REMOTE_ADDR") in _addresses(tuple(config.get("PROXY_FROM") or ())):
        return count
    return 0


@functools.lru_cache(maxsize=8)
def _addresses(fronts: tuple) -> frozenset:
    return frozenset(str(ipaddress.ip_address(a)) for a in fronts)


class FromTheFront:
    """WSGI middleware: ProxyFix for requests from the front (as the app's
    ``PROXY_COUNT`` and ``PROXY_FROM`` say when the request comes: `serve
    --front` sets them after the app is made), forwarded headers dropped for
    everyone else."""

    def __init__(self, flask: Flask, app):
        self.flask, self.app = flask, app
        self._fixed: tuple | None = None

    def fixed(self, count: int) -> ProxyFix:
        if self._fixed is None or self._fixed[0] != count:
            self._fixed = (count, ProxyFix(self.app, x_for=count, x_proto=count, x_host=count))
        return self._fixed[1]

    def __call__(self, environ, start_response):
        count = front_proxies(self.flask.config, environ)
        if count:
            return self.fixed(count)(environ, start_response)
        for name in FORWARDED:
            environ.pop(name, None)
        return self.app(environ, start_response)


class SessionCookies(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over https."""

    def get_cookie_secure(self, app):
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


def _is_name(host: str) -> bool:
    """A host name (not localhost, not an IP address), from a Host header."""
    name = host[1:].split("]")[0] if host.startswith("[") else host.rsplit(":", 1)[0]
    if name == "localhost" or name.endswith(".localhost"):
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return True
    return False


def init_app(app: Flask) -> None:
    app.wsgi_app = FromTheFront(app, app.wsgi_app)
    app.session_interface = SessionCookies()

    @app.after_request
    def strict_transport(response):
        if request.is_secure and app.config.get("HSTS_SECONDS") and _is_name(request.host):
            response.headers.setdefault("Strict-Transport-Security", f"max-age={app.config['HSTS_SECONDS']}")
        return response
