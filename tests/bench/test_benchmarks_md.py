"""bench/benchmarks_md.py keeps one entry a target: a run under a target's or a
section's plain name replaces the row, and goes on in the section, written when the
name still carried its ticket's number (bench/results.json and bench/history.md are
written by the benchmarks; here, copies of their shape in a temporary folder)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "bench" / "benchmarks_md.py"
_spec = importlib.util.spec_from_file_location("benchmarks_md", SOURCE)
benchmarks_md = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(benchmarks_md)

HISTORY = """# Benchmark runs

## Load (issue 5)

The load, each run below.

### Run 1

p95 40 ms

## Load shedding

Another section.

## Trust: long sessions (issues 8 and 13)

### Run 1

p95 90 ms
"""


def rows(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_run_under_the_plain_name_replaces_the_row_written_with_its_ticket(tmp_path):
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            [
                {
                    "target": "load: 50 tables saving every 3 s, 100 watchers (issue 5)",
                    "goal": "p95 < 100 ms",
                    "figure": "40 ms",
                    "baseline": "—",
                    "met": True,
                    "date": "2026-11-30 10:00 UTC",
                    "bench": "bench/load_bench.py",
                },
                {
                    "target": "load: 500-hand sessions, 150 player phones (issues 8, 13)",
                    "goal": "p95 < 100 ms",
                    "figure": "90 ms",
                    "baseline": "—",
                    "met": True,
                    "date": "2026-11-30 10:00 UTC",
                    "bench": "bench/load_bench.py",
                },
            ]
        ),
        encoding="utf-8",
    )
    benchmarks_md.record_result(
        "load: 50 tables saving every 3 s, 100 watchers",
        "p95 < 100 ms",
        "35 ms",
        "—",
        True,
        "bench/load_bench.py",
        results=results,
    )
    benchmarks_md.record_result(
        "load: 500-hand sessions, 150 player phones",
        "p95 < 100 ms",
        "80 ms",
        "—",
        True,
        "bench/load_bench.py",
        results=results,
    )
    assert [(r["target"], r["figure"]) for r in rows(results)] == [
        ("load: 50 tables saving every 3 s, 100 watchers", "35 ms"),
        ("load: 500-hand sessions, 150 player phones", "80 ms"),
    ]


def test_a_new_target_is_a_new_row(tmp_path):
    results = tmp_path / "results.json"
    results.write_text(
        json.dumps(
            [
                {
                    "target": "load: 50 tables (issue 5)",
                    "goal": "g",
                    "figure": "40 ms",
                    "baseline": "—",
                    "met": True,
                    "date": "2026-11-30 10:00 UTC",
                    "bench": "bench/load_bench.py",
                }
            ]
        ),
        encoding="utf-8",
    )
    benchmarks_md.record_result(
        "load: 50 tables, 5 rounds", "g", "41 ms", "—", True, "bench/load_bench.py", results=results
    )
    assert [r["target"] for r in rows(results)] == ["load: 50 tables (issue 5)", "load: 50 tables, 5 rounds"]


def test_a_run_under_the_plain_heading_goes_on_in_the_section_with_its_ticket(tmp_path):
    history = tmp_path / "history.md"
    history.write_text(HISTORY, encoding="utf-8")
    benchmarks_md.append_to_section("## Load", "(not used)\n", "### Run 2\n\np95 35 ms\n", history=history)
    benchmarks_md.append_to_section(
        "## Trust: long sessions", "(not used)\n", "### Run 2\n\np95 80 ms\n", history=history
    )
    assert (
        history.read_text(encoding="utf-8")
        == HISTORY.replace("p95 40 ms\n", "p95 40 ms\n\n### Run 2\n\np95 35 ms\n") + "\n### Run 2\n\np95 80 ms\n"
    )


def test_a_heading_that_only_begins_the_same_is_another_section(tmp_path):
    history = tmp_path / "history.md"
    history.write_text(HISTORY, encoding="utf-8")
    benchmarks_md.append_to_section("## Load shed", "A new section.\n", "### Run 1\n\nshed\n", history=history)
    benchmarks_md.append_to_section("## Load shedding", "(not used)\n", "### Run 1\n\nshedding\n", history=history)
    assert (
        history.read_text(encoding="utf-8")
        == HISTORY.replace("Another section.\n", "Another section.\n\n### Run 1\n\nshedding\n")
        + "\n## Load shed\n\nA new section.\n\n### Run 1\n\nshed\n"
    )
