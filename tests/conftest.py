"""Fixtures for every test: a fresh app on a fresh SQLite file, and its client.
Helpers are in tests/support/ (import them from there, not from here)."""

import pytest

from support import profiles
from support.data import load_example
from support.database import fresh_database, migrated_template

profiles.load()  # before any test module sets its properties' examples (support/profiles.py)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """An empty migrated database, made once per test process: each test's app
    starts from a copy of it (tests/support/database.py)."""
    return migrated_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def example():
    return load_example


@pytest.fixture
def app(tmp_path, migrated_database):
    from scorekeeper import create_app

    return create_app(
        {
            "DATABASE": fresh_database(migrated_database, tmp_path),
            "SECRET_KEY": "test",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "backups"),
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def front_files(app, tmp_path):
    """``app`` behind the https front (as ``serve --front``): the folder of the
    answers it leaves for the front (server/front_polls.py), emptied."""
    from scorekeeper import store
    from scorekeeper.server import front_polls

    app.config.update(FRONT_POLLS=str(tmp_path / "polls"), PUBLIC_URL="https://localhost:8443")
    yield front_polls.enable(app, clear_first=True)
    store.live_changes.unwatch(app.config["DATABASE"])
