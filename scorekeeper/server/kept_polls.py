"""Polls answered before Flask: a watcher's or a player's phone asks for its
table's live part every few seconds (``/w/<id>/live?v=…``, ``/p/<token>/live``),
and at a club night most of those questions are ones this server process has
just answered for another phone on the same link. Flask's own work for such a
request (its contexts, the session cookie, every hook: ~1 ms of CPU) was then
half of a poll's cost at 200 tables polling every 3 s.

``KeptPolls`` is WSGI middleware, outside everything else (the front's
forwarded headers included). For a poll it asks the database for the link's
live version (one query, the one the view itself makes) and, if this process
already sent the answer to that question, sends the same bytes again: the
status, every header and the body, exactly as Flask made them. Anything else
goes to Flask, and Flask's answer is kept when it can be replayed:

- only a 200 (the live part) or a 204 (nothing changed), only with no
  ``Set-Cookie``, and only when the view said which live version it answered
  for (``environ["scorekeeper.live_version"]``, set by ``web.table.live``):
  the version read by the view, not the one read here before it, so a change
  made in between is never kept under the wrong version;
- keyed by what the answer can depend on: the link, ``all=1``, whether the
  version asked for is the current one (204) or which version it is (200),
  and the request's scheme, host, forwarded headers (and whether they came
  from the front), ``Accept-Encoding`` (the compressed bytes) and
  ``HX-Request``. A poll with any other query argument, an unknown link
  (404), a scorer's link (its part depends on the PIN being unlocked) or a
  database error goes to Flask, which answers it as before.

Every change bumps the live version, so a kept answer is never stale; a session
that is deleted has no version and is answered by Flask (404). ``KEPT_POLLS =
False`` in the configuration turns this off (the load bench compares both).
"""

from __future__ import annotations

import re

from werkzeug.wsgi import ClosingIterator

from .. import store
from .proxy import FORWARDED, front_proxies
from ..web.cache import VERSION_MARK, Recent

LIVE_PATH = re.compile(r"/([wp])/([A-Za-z0-9_-]{1,64})/live\Z")
QUERY = re.compile(r"(?:v=([0-9a-z-]{0,64})|all=([01]))\Z")
LARGEST = 256 * 1024  # bytes: a part bigger than this (a very long evening, all hands) is not kept


def poll_question(environ) -> tuple | None:
    """(kind, link, all, asked) for a plain poll of a watcher's or player's live
    part, else None (Flask answers it)."""
    if environ.get("REQUEST_METHOD") != "GET":
        return None
    found = LIVE_PATH.match(environ.get("PATH_INFO", ""))
    if found is None:
        return None
    asked, show_all = None, False
    query = environ.get("QUERY_STRING", "")
    for argument in query.split("&") if query else ():
        matched = QUERY.match(argument)
        if matched is None:
            return None
        if matched.group(1) is not None:
            if asked is not None:
                return None  # v twice: Flask reads the first; not worth guessing
            asked = matched.group(1)
        else:
            show_all = matched.group(2) == "1"
    return found.group(1), found.group(2), show_all, asked


class KeptPolls:
    """WSGI middleware: a poll this process has answered before, answered again
    without Flask (the module's docstring says when)."""

    def __init__(self, flask_app, wsgi_app, size: int = 2048):
        self.flask, self.app = flask_app, wsgi_app
        self.kept = Recent(size)

    def __call__(self, environ, start_response):
        question = poll_question(environ) if self.flask.config.get("KEPT_POLLS", True) else None
        if question is None:
            return self.app(environ, start_response)
        kind, link, show_all, asked = question
        version = self.live_version(link, kind)
        if version is None:
            return self.app(environ, start_response)
        shape = self.shape(environ, kind, link, show_all)
        answer = self.kept.peek((shape, "same" if asked == version else version))
        if answer is not None:
            status, headers, body = answer
            start_response(status, list(headers))
            return [body]
        return self.answer_and_keep(environ, start_response, shape, asked)

    def live_version(self, link: str, kind: str) -> str | None:
        connections = self.flask.extensions["scorekeeper.connections"]
        db, failed = connections.take(self.flask.config["DATABASE"]), False
        try:
            return store.live_version(db, link, kind)
        except store.NotFound:
            return None
        except Exception:  # noqa: BLE001 - Flask answers it, and says what went wrong
            failed = True
            return None
        finally:
            connections.give_back(db, failed=failed)

    def shape(self, environ, kind: str, link: str, show_all: bool) -> tuple:
        """What besides the version an answer can depend on (the module's docstring)."""
        from_front = front_proxies(self.flask.config, environ)  # as proxy.FromTheFront decides it
        return (
            kind,
            link,
            show_all,
            environ.get("wsgi.url_scheme"),
            environ.get("HTTP_HOST"),
            from_front,
            tuple(environ.get(name) for name in FORWARDED),
            environ.get("HTTP_ACCEPT_ENCODING"),
            environ.get("HTTP_HX_REQUEST"),
        )

    def answer_and_keep(self, environ, start_response, shape: tuple, asked):
        said = {}

        def remember(status, headers, exc_info=None):
            said["status"], said["headers"] = status, list(headers)
            return start_response(status, headers, exc_info)

        body_iter = self.app(environ, remember)
        parts = list(body_iter)
        status, headers = said.get("status", ""), said.get("headers", [])
        answered_for = environ.get(VERSION_MARK)
        body = b"".join(parts)
        if (
            answered_for is not None
            and status[:3] in ("200", "204")
            and len(body) <= LARGEST
            and not any(name.lower() == "set-cookie" for name, _ in headers)
        ):
            same = status.startswith("204")
            if same == (asked == answered_for):
                self.kept.put((shape, "same" if same else answered_for), (status, tuple(headers), body))
        close = getattr(body_iter, "close", None)
        return ClosingIterator(parts, close) if close else parts


def init_app(app) -> None:
    """Outside every other middleware (``proxy.FromTheFront`` included)."""
    app.wsgi_app = KeptPolls(app, app.wsgi_app)
