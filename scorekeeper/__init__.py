"""The Gleek scorekeeper.

``scorekeeper.rules`` is the pure domain (importable without Flask);
``create_app`` builds the web app (Flask is imported only then).
"""


def create_app(test_config=None):
    """The Flask app factory (``flask --app scorekeeper run``)."""
    from .app import build_app

    return build_app(test_config)
