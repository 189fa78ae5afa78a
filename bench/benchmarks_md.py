"""Writing a benchmark's run into its own section of bench/history.md, and a target's
current figure into bench/results.json (from which BENCHMARKS.md's table is written)."""

from __future__ import annotations

import datetime
import json
import os
import platform
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HISTORY = ROOT / "bench" / "history.md"


def append_to_section(heading: str, intro: str, entry: str) -> None:
    """Add ``entry`` at the end of the section ``heading`` (created with ``intro``
    if missing), re-reading the file right before writing and leaving every other
    section exactly as it is; the file is replaced atomically."""
    text = HISTORY.read_text(encoding="utf-8") if HISTORY.exists() else "# Benchmark runs\n"
    if heading not in text:
        text = text.rstrip("\n") + f"\n\n{heading}\n\n{intro}"
    start = text.index(heading) + len(heading)
    following = text.find("\n## ", start)
    end = len(text) if following < 0 else following + 1
    section = text[:end].rstrip("\n") + "\n\n" + entry
    text = section + ("\n" + text[end:] if following >= 0 else "")
    fd, temporary = tempfile.mkstemp(dir=HISTORY.parent, prefix=".history-", suffix=".part")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(temporary, 0o644)
    os.replace(temporary, HISTORY)


RESULTS = ROOT / "bench" / "results.json"


def record_result(target: str, goal: str, figure: str, baseline: str, met: bool, bench: str) -> None:
    """Keep ``target``'s current figure in bench/results.json (the table that opens
    BENCHMARKS.md is written from it by ``python -m scorekeeper docs``)."""
    rows = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else []
    row = {"target": target, "goal": goal, "figure": figure, "baseline": baseline, "met": met,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "bench": bench}
    for i, old in enumerate(rows):
        if old["target"] == target:
            rows[i] = row
            break
    else:
        rows.append(row)
    RESULTS.write_text("[\n" + ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in rows) + "\n]\n",
                       encoding="utf-8")


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
