"""Our one small wrapper around htmx-flask (see docs/engineering.md: some of its
response helpers are buggy, so HX-* response headers are set directly here)."""

from __future__ import annotations

from flask import Flask, make_response, render_template, request
from htmx_flask import Htmx


def init_htmx(app: Flask) -> None:
    Htmx(app)


def is_fragment_request() -> bool:
    """An htmx request that wants a fragment (not a history restore)."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def render(full: str, fragment: str, status: int = 200, **context):
    """The full page, or just its partial for htmx; the same partial in both."""
    template = fragment if is_fragment_request() else full
    response = make_response(render_template(template, **context), status)
    response.headers.add("Vary", "HX-Request")
    return response


def redirect(url: str, status: int = 303):
    """A redirect that htmx follows as a full page load."""
    if is_fragment_request():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = url
        return response
    response = make_response("", status)
    response.headers["Location"] = url
    return response


def retarget(response, selector: str, modifiers: str = ""):
    """Let this answer replace ``selector`` (the element with its id, taken from the
    answer), whatever the request's own hx-target and hx-swap say; ``modifiers``
    such as ``show:#x:top`` scroll the page after the swap."""
    response.headers["HX-Retarget"] = selector
    response.headers["HX-Reselect"] = selector
    response.headers["HX-Reswap"] = f"outerHTML {modifiers}".strip()
    return response
