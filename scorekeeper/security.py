"""Same-origin checks for state-changing requests, and protective headers."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, abort, request

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; object-src 'none'")


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
    return urlsplit(origin).netloc == request.host


def init_app(app: Flask) -> None:
    @app.before_request
    def refuse_cross_site():
        if request.method not in SAFE_METHODS and not is_same_origin():
            abort(403)

    @app.errorhandler(403)
    def forbidden(error):
        from flask import render_template

        return render_template("error.html", title="Refused",
                               message="That change came from another site, so it was refused."), 403

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response
