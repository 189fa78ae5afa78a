"""Times in the viewer's own time zone (History, the sheet's "printed …").

The server stores times in UTC. A browser tells it its zone: ``static/js/zone.js``
sets the cookie ``tz`` to ``Intl.DateTimeFormat().resolvedOptions().timeZone``
(an IANA name such as ``Europe/London``) on every page. ``viewer_clock`` turns
that cookie into a ``Clock`` (``zoneinfo``); without a usable one — the very
first page, a browser without JavaScript, a name this server's tz database does
not know — times are in UTC and say so (``label`` is ``"UTC"``).
"""

from __future__ import annotations

import datetime
import re
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .wording import MONTHS

ZONE_COOKIE = "tz"
#: an IANA zone name: letters, digits, ``_+-``, up to three ``/`` (never ``..``)
ZONE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,3}\Z")
UTC = datetime.timezone.utc


class Clock(NamedTuple):
    """A viewer's time zone: ``name`` is its IANA name, or ``UTC`` when unknown."""

    zone: datetime.tzinfo
    name: str
    known: bool  #: False: the viewer's zone is not known, these are UTC times

    @property
    def label(self) -> str:
        """What a column of times says it is in: ``Europe/London``, or ``UTC``."""
        return self.name if self.known else "UTC"

    def local(self, when: str | datetime.datetime) -> datetime.datetime:
        """An ISO time (as stored, with its offset) or an aware datetime, in this zone."""
        if isinstance(when, str):
            when = datetime.datetime.fromisoformat(when)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)  # stored times are UTC
        return when.astimezone(self.zone)

    def format(self, when: str | datetime.datetime) -> str:
        """``1 Dec 2026, 23:40`` in this zone."""
        return short_time(self.local(when))

    def now(self) -> datetime.datetime:
        return datetime.datetime.now(self.zone)


def short_time(moment: datetime.datetime) -> str:
    """``1 Dec 2026, 23:40``."""
    return f"{moment.day} {MONTHS[moment.month - 1]} {moment.year}, {moment:%H:%M}"


def printed_line(moment: datetime.datetime) -> str:
    """A sheet's stamp: ``printed 1 Dec 2026, 23:40 GMT`` (the zone's abbreviation,
    or its offset where it has none, so a mailed sheet says whose evening it was)."""
    zone = moment.tzname() or moment.strftime("%z")
    return f"printed {short_time(moment)} {zone}".rstrip()


def clock_named(name: str | None) -> Clock:
    """The clock of an IANA zone name; UTC (``known`` False) for anything else."""
    if name and len(name) <= 64 and ZONE_NAME.match(name):
        try:
            return Clock(ZoneInfo(name), name, True)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    return Clock(UTC, "UTC", False)


def viewer_clock(cookies) -> Clock:
    """The clock of the browser that sent ``cookies`` (a request's cookies)."""
    return clock_named(cookies.get(ZONE_COOKIE))


def machine_now() -> datetime.datetime:
    """Now in this machine's own zone (the command line's viewer is its user)."""
    return datetime.datetime.now().astimezone()
