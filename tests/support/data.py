"""Where things are: the project, the worked examples (tests/data/), the
artifacts the tests leave to look at (tests/artifacts/, not in git)."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
DATA = TESTS / "data"
ARTIFACTS = TESTS / "artifacts"


def load_example(name: str):
    return json.loads((DATA / name).read_text())
