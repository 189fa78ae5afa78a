"""Logs never carry a capability id. A session's id is its scorer's link (and
the watch link and the players' links are ids too): a log line such as Flask's
``Exception on /s/<id>/hands [POST]`` would hand the table to anyone who reads
the log. So every log record of the process — Flask's, waitress's, werkzeug's,
ours — has each id replaced, in its message and in its traceback, before any
handler sees it: ``/s/<id:3fa2c1d9>/hands``, where ``3fa2c1d9`` is the start of
the id's SHA-256 (whoever has the link can tell which session a line is about;
the line cannot be turned back into the link).

It is done where every record is made (``logging.setLogRecordFactory``), so a
handler added later (a file, syslog) is covered too.
"""

from __future__ import annotations

import hashlib
import logging
import re
import traceback

#: a path segment after /s/, /w/ or /p/ (whatever it is: a mistyped id is still someone's try)
LINK = re.compile(r"(/[swp]/)([^/?#\s\"'<>]+)")
#: an id as ``store.new_token`` makes them (24 base64url characters) anywhere else: a
#: query, an exception's message. Not one that is only lower case and ``_`` (Python's
#: own names in a traceback); a token is that with odds of about 1 in 10^9.
TOKEN = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]{0,23}[A-Z0-9-])[A-Za-z0-9_-]{24}(?![A-Za-z0-9_-])")
_installed = []


def label(value: str) -> str:
    """What a log says instead of an id: ``<id:3fa2c1d9>``."""
    return f"<id:{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()[:8]}>"


def redact(text: str) -> str:
    """``text`` with every link's id and every other token replaced by its label."""
    if not isinstance(text, str):
        text = str(text)
    text = LINK.sub(lambda m: m[1] + label(m[2]), text)
    return TOKEN.sub(lambda m: label(m[0]), text)


def install() -> None:
    """Redact every log record of this process from now on (once per process)."""
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def make_record(*args, **kwargs):
        record = previous(*args, **kwargs)
        try:
            record.msg, record.args = redact(record.getMessage()), ()
            if record.exc_info and record.exc_info[0] is not None:
                # the traceback as a Formatter would write it, redacted; the exception
                # itself is dropped, so no handler can format it again unredacted
                record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
                record.exc_info = None
            if record.stack_info:
                record.stack_info = redact(record.stack_info)
        except Exception:  # noqa: BLE001 - a log line must never fail; say less, not more
            record.msg, record.args = "(a log line that could not be made safe to write)", ()
            record.exc_info = record.exc_text = None
        return record

    logging.setLogRecordFactory(make_record)
    _installed.append(make_record)
