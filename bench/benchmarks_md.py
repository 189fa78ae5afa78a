"""Writing a benchmark's run into its own section of bench/history.md, and a target's
current figure into bench/results.json (from which BENCHMARKS.md's table is written).

Sections and targets are found by their name, or by the name they had when they
carried the number of the tracker's ticket that asked for them (``" (issue N)"``,
``" (issues N and M)"``): a run under the plain name goes on in the same section and
replaces the same row, so the history and the table keep one entry a target."""

from __future__ import annotations

import datetime
import json
import os
import platform
import re
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HISTORY = ROOT / "bench" / "history.md"
#: A ticket's number once written after a section's or a target's name.
TICKET = re.compile(r" \(issues? \d+(?:(?:,| and) \d+)*\)$")


def same_name(stored: str, name: str) -> bool:
    """Whether ``stored`` (a heading or a target as written) is ``name``, with or without its ticket."""
    return stored == name or TICKET.sub("", stored) == name


def _heading_line(text: str, heading: str) -> int:
    """Where the line of the section ``heading`` starts in ``text``; -1 if there is none."""
    at = 0
    for line in text.splitlines(keepends=True):
        if line.startswith("## ") and same_name(line.rstrip("\n"), heading):
            return at
        at += len(line)
    return -1


def append_to_section(heading: str, intro: str, entry: str, history: Path = HISTORY) -> None:
    """Add ``entry`` at the end of the section ``heading`` (created with ``intro``
    if missing), re-reading the file right before writing and leaving every other
    section exactly as it is; the file is replaced atomically."""
    text = history.read_text(encoding="utf-8") if history.exists() else "# Benchmark runs\n"
    if _heading_line(text, heading) < 0:
        text = text.rstrip("\n") + f"\n\n{heading}\n\n{intro}"
    line_end = text.find("\n", _heading_line(text, heading))
    start = len(text) if line_end < 0 else line_end
    following = text.find("\n## ", start)
    end = len(text) if following < 0 else following + 1
    section = text[:end].rstrip("\n") + "\n\n" + entry
    text = section + ("\n" + text[end:] if following >= 0 else "")
    fd, temporary = tempfile.mkstemp(dir=history.parent, prefix=".history-", suffix=".part")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(temporary, 0o644)
    os.replace(temporary, history)


RESULTS = ROOT / "bench" / "results.json"


def record_result(
    target: str, goal: str, figure: str, baseline: str, met: bool, bench: str, results: Path = RESULTS
) -> None:
    """Keep ``target``'s current figure in bench/results.json (the table that opens
    BENCHMARKS.md is written from it by ``python -m scorekeeper docs``)."""
    rows = json.loads(results.read_text(encoding="utf-8")) if results.exists() else []
    row = {
        "target": target,
        "goal": goal,
        "figure": figure,
        "baseline": baseline,
        "met": met,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "bench": bench,
    }
    for i, old in enumerate(rows):
        if same_name(old["target"], target):
            rows[i] = row
            break
    else:
        rows.append(row)
    results.write_text(
        "[\n" + ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in rows) + "\n]\n", encoding="utf-8"
    )


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine(**more) -> dict:
    """The facts a benchmark result is reported with (plus ``more`` versions)."""
    return {
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        **more,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
