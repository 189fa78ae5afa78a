"""Every shared worked example settles to exactly its expected output, through
the real command line (``python -m scorekeeper settle``)."""

import json
import subprocess
import sys

import pytest

from support.data import DATA

VALID = sorted(
    p.name for p in DATA.glob("*.json") if not p.name.endswith(".expected.json") and not p.name.startswith("invalid-")
)


def run_settle(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", "settle", *args], input=stdin, capture_output=True, text=True
    )


@pytest.mark.parametrize("name", VALID)
def test_example_settles_to_expected(name):
    result = run_settle(str(DATA / name))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    expected = json.loads((DATA / name.replace(".json", ".expected.json")).read_text())
    assert json.loads(result.stdout) == expected


def test_settle_reads_stdin():
    text = (DATA / "parlett-seed-example.json").read_text()
    result = run_settle("-", stdin=text)
    assert result.returncode == 0
    assert json.loads(result.stdout)["balances"] == [2, 5, -7]


def test_invalid_parlett_refused_with_each_problem():
    result = run_settle(str(DATA / "invalid-parlett.json"))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert "hand 2: tricks add up to 11, not 12" in lines
    assert any(line.startswith("hand 3: sets") and "6 Aces" in line for line in lines)
    assert all(line.startswith("hand ") for line in lines)


def test_invalid_modern_refused_with_each_problem():
    result = run_settle(str(DATA / "invalid-modern.json"))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert any(line.startswith("hand 1: card_points") and "300" in line and "252" in line for line in lines)
    assert any(line.startswith("hand 1: card_points") and "140" in line and "3 tricks" in line for line in lines)
    assert any(line.startswith("hand 2: tib") and "Kiss" in line for line in lines)
    assert len(lines) == 3


@pytest.mark.parametrize(
    "text, start",
    [
        ("{not json", "record: not valid JSON"),
        ("[1, 2]", "record: a session record is a JSON object"),
        ('{"format": NaN}', "record: not valid JSON"),
        ("", "record: not valid JSON"),
    ],
)
def test_not_a_record(text, start):
    result = run_settle("-", stdin=text)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith(start)
    assert len(result.stderr.splitlines()) == 1


def test_missing_file_is_a_clear_error(tmp_path):
    result = run_settle(str(tmp_path / "nope.json"))
    assert result.returncode == 1
    assert result.stdout == ""
    assert "cannot read" in result.stderr
