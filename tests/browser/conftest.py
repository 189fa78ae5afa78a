"""Real-browser tests (Playwright + Debian's Chromium) against a live server.

See docs/engineering.md, "Real-browser tests": never run
``playwright install``; the launch arguments below are the ones that work here.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "browser"
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": "/usr/bin/chromium",
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app on 127.0.0.1:<free port>, in a daemon thread, for the whole session."""
    database = tmp_path_factory.mktemp("browser") / "scorekeeper.db"
    app = create_app(
        {
            "DATABASE": str(database),
            "SECRET_KEY": "browser-tests",
            "POLL_SECONDS": 1,
            "BACKUP_DIR": str(database.parent / "backups"),  # not the project's instance/
            "SESSIONS_PER_MINUTE": 100_000,
        }
    )  # every test creates sessions from 127.0.0.1
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no request log
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield url
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def base_url(live_server):
    return live_server


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
