"""Fixtures for every test: a fresh app on a fresh SQLite file, and its client.
Helpers are in tests/support/ (import them from there, not from here)."""

import pytest

from support.data import load_example


@pytest.fixture
def example():
    return load_example


@pytest.fixture
def app(tmp_path):
    from scorekeeper import create_app

    return create_app({"DATABASE": str(tmp_path / "test.db"), "SECRET_KEY": "test", "TESTING": True,
                       "BACKUP_DIR": str(tmp_path / "backups")})


@pytest.fixture
def client(app):
    return app.test_client()
