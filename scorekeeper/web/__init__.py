"""The web layer: one blueprint per feature over the store and the rules.

- ``home``: this browser's sessions, a new session, import, the rules page;
- ``table``: the table page and its live part (both links), history, undo;
- ``hands``: the hand form (a new hand and an edit are one code path), delete;
- ``pins``: unlocking a table that has a PIN;
- ``sheets``: settle up, the session sheet and its PDF, the export;
- ``players``: the other players' OK of each hand (where the session asks for it);
- ``hosting``: ``/healthz`` and the expiry of old sessions on a hosted server;
- ``offline``: ``/sw.js`` and the versioned static files;
- ``circles``: circles (the group that plays together), their members and evenings,
  the season's ledger, what is owed, statistics, the season sheet and archive;
- ``owed``: paying what is owed (marked paid once, however often it is posted),
  and an evening's own payments marked paid from its Settle up page;
- ``nights``: club nights (several tables at once): the organizer's page, the
  rounds drawn into ordinary sessions, the standings across the tables;
- ``night_sheets``: a club night's sheet PDF (both its links), its record attached.

``access`` turns a link into a ``Table`` (the scorer's link can edit, the watch
link cannot, by construction); ``cache`` keeps settlements and PDFs by session
version; ``hand_form`` reads the hand form by looping over the rule book's
declaration, each question by its kind (``kinds/``, one module per kind);
``change_words`` holds the table's words for changes.
"""

from __future__ import annotations

from flask import Flask, render_template
from flask_compress import Compress

from ..words.names import fit_style, row_head_style, short_names
from ..rules.core import SUIT_SYMBOLS, format_counters, signed_counters
from ..words.wording import amount_text, nearest_half, signed_amount
from . import (
    circles,
    hands,
    home,
    hosting,
    night_seats,
    night_sheets,
    nights,
    offline,
    owed,
    pins,
    players,
    sheets,
    table,
)
from . import night_admin  # noqa: F401  (its routes are the nights blueprint's)
from ..form import client
from .htmx import init_htmx
from ..form.fields import seat_value
from .cache import CompressedParts, compressed_as

BLUEPRINTS = (
    home.bp,
    table.bp,
    hands.bp,
    pins.bp,
    sheets.bp,
    players.bp,
    circles.bp,
    owed.bp,
    nights.bp,
    night_seats.bp,
    night_sheets.bp,
    hosting.bp,
    offline.bp,
)


def init_app(app: Flask) -> None:
    init_htmx(app)
    app.config.setdefault("COMPRESS_CACHE_BACKEND", CompressedParts)  # the live parts' compressed bytes kept
    app.config.setdefault("COMPRESS_CACHE_KEY", compressed_as)
    app.extensions["scorekeeper.compress"] = Compress(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    hosting.init_app(app)
    offline.init_app(app)
    app.jinja_env.filters["counters"] = format_counters
    app.jinja_env.filters["signed"] = signed_counters
    app.jinja_env.filters["nearest_half"] = nearest_half
    app.jinja_env.filters["field_value"] = field_value
    app.jinja_env.filters["short_names"] = short_names
    app.jinja_env.filters["fit"] = fit_style
    app.jinja_env.filters["row_heads"] = row_head_style
    app.jinja_env.filters["zip_self"] = lambda values: [(v, v) for v in values]
    app.jinja_env.globals["SUIT_SYMBOLS"] = SUIT_SYMBOLS
    app.jinja_env.globals["amount"] = amount_text  # amount(value, currency): "6¾d", "41 counters"
    app.jinja_env.globals["signed"] = signed_amount  # signed(value, currency): "+6¾d", "−44½"
    app.jinja_env.globals["CLIENT_MODULES"] = client.MODULES
    app.jinja_env.globals["client_form_data"] = client.form_data
    app.jinja_env.globals["counts_fills"] = client.counts_fills
    app.jinja_env.globals["pad_drawn_for"] = client.pad_drawn_for
    app.jinja_env.globals["pad_states"] = client.pad_states
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    error_pages(app)


def field_value(value, nobody: str = "nobody") -> str:
    """A record value as the form posts it: seats as digits, null as ``nobody``."""
    if value is None:
        return nobody
    return value if isinstance(value, str) else seat_value(value)


def error_pages(app: Flask) -> None:
    def page(status, title, message):
        return render_template("error.html", title=title, message=message), status

    pages = {
        400: ("Bad request", "That request didn't make sense to the scorekeeper. Go back and try again."),
        404: ("Not found", "There is no such page or session here. Check the link, or start a new session."),
        405: ("Not allowed", "That action isn't available here."),
        500: ("Something went wrong", "The scorekeeper hit a problem; nothing was saved. Go back and try again."),
    }
    for status, (title, message) in pages.items():
        app.register_error_handler(status, lambda error, s=status, t=title, m=message: page(s, t, m))

    @app.errorhandler(413)
    def too_large(error):
        limit = app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)
        return page(413, "Too large", f"That upload is too large: a session file is at most {limit} MB.")
