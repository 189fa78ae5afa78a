import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def load_example(name: str):
    return json.loads((DATA / name).read_text())


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
