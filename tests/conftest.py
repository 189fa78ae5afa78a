import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def load_example(name: str):
    return json.loads((DATA / name).read_text())


@pytest.fixture
def example():
    return load_example
