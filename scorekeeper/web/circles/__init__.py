"""Circles: the group that plays together, its members, its evenings, its season.

A circle's links follow a session's (``web/access.py``): ``/c/<id>`` manages it
(add, rename and merge members, start or attach an evening, mark payments, the PIN),
``/cw/<watch id>`` is the members' read-only link. One blueprint (``circles``: the
templates' ``url_for('circles.…')`` and both links' endpoints share it), its routes in
a module per feature:

- ``links``: the two links, the PIN and what this browser remembers (``bp`` is here);
- ``page``: the circle's own page, a new circle, its PIN;
- ``members``: adding, renaming and merging members;
- ``evenings``: a new evening, attaching one (by link or file), the archive in and out;
- ``season``: the ledger and the statistics pages;
- ``owed_page``: what is owed, marking it paid;
- ``season_sheet``: the season sheet PDF.
"""

from __future__ import annotations

from . import evenings, members, owed_page, page, season, season_sheet  # noqa: F401 (each adds its routes to bp)
from .links import bp

__all__ = ["bp"]
