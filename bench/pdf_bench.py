"""Benchmark: how long the session sheet takes to print to PDF, and to import.

Times ``scorekeeper.printing.sheet.render_sheet_pdf`` on a 12-hand and a 120-hand
parlett session (and the same with an emoji name, a CJK name and a
40-character name, which need the fallback fonts) against, in the same
process, WeasyPrint rendering a one-line HTML document (its fixed cost per
document, imports and fonts already warm) and a bare 14 × 28 table of numbers
with no CSS (the size of a 12-hand sheet's table when it had a cell per amount).

Then the import of a session (``POST /import`` through Flask's test client,
a temporary database): as its JSON export and as its sheet PDF, and the PDF
parse alone (``scorekeeper.files.upload.record_text``: pypdf finding session.json).

Targets (a sheet as cheap as its page): 12 hands ≤ 1× the bare table, 120 hands ≤ 1 s, and a PDF
import ≤ 2 × (the JSON import + the PDF parse).

Prints the medians of several runs and appends them with the machine's details
to bench/history.md under its section, ``HEADING`` (--no-write: print only).

    .venv/bin/python bench/pdf_bench.py [--runs 7] [--no-write]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks_md import HISTORY, append_to_section, machine as common_machine  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from support.sessions import long_session  # noqa: E402
from scorekeeper.files.upload import record_text  # noqa: E402
from scorekeeper.rules.record import dump, validate  # noqa: E402
import pypdf  # noqa: E402

HEADING = "## PDF sheet and import"
SHEETS = (12, 120)
TARGET_120_S = 1.0
IMPORT_FACTOR = 2.0
BASELINE_HTML = "<p>Gleek</p>"
WIDE_NAMES = ["Kit 🃏👑", "李小龍 민수", "Bartholomew-Fitzwilliam Montgomery-Smyth"]


# ---------------------------------------------------------------- a valid session


def session(hands: int, names=None) -> dict:
    """A valid parlett session of ``hands`` hands (see tests/support/sessions.py), titled for the bench."""
    record = long_session(hands)
    record["title"] = f"Benchmark, {hands} hands"
    if names:
        record["players"] = list(names)
    problems = validate(record)
    assert not problems, problems
    return record


# ---------------------------------------------------------------- timing


def median_seconds(run, runs: int) -> tuple[float, list[float], float]:
    """Median wall-clock seconds, every run's, and the median CPU seconds of this
    process (less disturbed when other work shares the machine)."""
    run()  # warm: imports, fonts, caches
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(times), times, statistics.median(cpu)


def measure(runs: int) -> dict:
    import weasyprint  # kept here: the upload forkserver re-imports this script

    from scorekeeper.printing.sheet import (
        render_sheet_html,
        render_sheet_pdf,
    )  # kept here: the upload forkserver re-imports this script

    baseline, _, baseline_cpu = median_seconds(lambda: weasyprint.HTML(string=BASELINE_HTML).write_pdf(), max(runs, 9))
    results = {"baseline": baseline, "baseline_cpu": baseline_cpu, "sheets": []}
    # reference: what a bare table of one 12-hand sheet's size costs (no CSS at all)
    bare = (
        "<table>"
        + "".join("<tr>" + "".join(f"<td>{(i * 7 + j) % 41 - 20}</td>" for j in range(28)) + "</tr>" for i in range(14))
        + "</table>"
    )
    bare_time, _, bare_cpu = median_seconds(lambda: weasyprint.HTML(string=bare).write_pdf(), runs)
    results["bare"] = {"pdf": bare_time, "cpu": bare_cpu}
    for names in (None, WIDE_NAMES):
        for hands in SHEETS:
            record = session(hands, names)
            pdf = render_sheet_pdf(record)
            pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
            html_time, _, _ = median_seconds(lambda: render_sheet_html(record), runs)
            pdf_time, times, pdf_cpu = median_seconds(lambda: render_sheet_pdf(record), runs)
            if hands == 12:
                target, met = "≤ 1× bare table", pdf_time <= bare_time
            else:
                target, met = f"≤ {TARGET_120_S:g} s", pdf_time <= TARGET_120_S
            results["sheets"].append(
                {
                    "hands": hands,
                    "names": "emoji, CJK, 40 characters" if names else "plain",
                    "pages": pages,
                    "html": html_time,
                    "pdf": pdf_time,
                    "bytes": len(pdf),
                    "cpu": pdf_cpu,
                    "cpu_ratio": pdf_cpu / baseline_cpu,
                    "min": min(times),
                    "max": max(times),
                    "ratio": pdf_time / baseline,
                    "bare_ratio": pdf_time / bare_time,
                    "target": target,
                    "met": met,
                }
            )
    results["imports"] = measure_imports(runs)
    return results


def measure_imports(runs: int) -> list[dict]:
    """POST /import of a session as JSON and as its sheet PDF, and the PDF parse alone."""
    from scorekeeper import create_app  # kept here: the upload forkserver re-imports this script
    from scorekeeper.printing.sheet import render_sheet_pdf  # kept here: the upload forkserver re-imports this script

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE": os.path.join(folder, "bench.db"),
                "SECRET_KEY": "bench",
                "TESTING": True,
                "BACKUP_DIR": os.path.join(folder, "backups"),
                "SESSIONS_PER_MINUTE": 10_000,
            }
        )  # every run imports dozens
        client = app.test_client()
        for hands in SHEETS:
            record = session(hands)
            text = dump(record).encode()
            pdf = render_sheet_pdf(record)

            def by_json():
                response = client.post(
                    "/import", data={"file": (io.BytesIO(text), "s.json")}, content_type="multipart/form-data"
                )
                assert response.status_code == 303, response.data

            def by_pdf():
                response = client.post(
                    "/import", data={"file": (io.BytesIO(pdf), "s.pdf")}, content_type="multipart/form-data"
                )
                assert response.status_code == 303, response.data

            assert json.loads(record_text(pdf)) == record
            json_time, _, _ = median_seconds(by_json, runs)
            pdf_time, _, _ = median_seconds(by_pdf, runs)
            parse_time, _, _ = median_seconds(lambda: record_text(pdf), runs)
            limit = IMPORT_FACTOR * (json_time + parse_time)
            rows.append(
                {
                    "hands": hands,
                    "json_bytes": len(text),
                    "pdf_bytes": len(pdf),
                    "json": json_time,
                    "pdf": pdf_time,
                    "parse": parse_time,
                    "limit": limit,
                    "met": pdf_time <= limit,
                }
            )
    return rows


# ---------------------------------------------------------------- report


def report(results: dict, info: dict, runs: int) -> str:
    lines = [
        f"### Run of {info['date']}",
        "",
        f"Machine: {info['nproc']} CPUs ({info['cpu']}), Python {info['python']}, "
        f"WeasyPrint {info['weasyprint']}, pypdf {info['pypdf']}, load average {info['load']} (other work "
        f"on the machine adds noise). Wall-clock median of {runs} runs after one warm-up, in one process.",
        "",
        "| document | pages | PDF size | HTML (Jinja) | PDF wall (median, min–max) | × bare table | × one line | PDF CPU "
        "| target | met |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        f"| baseline: `{BASELINE_HTML}` | 1 | — | — | {results['baseline'] * 1000:.1f} ms | — | 1.0 | "
        f"{results['baseline_cpu'] * 1000:.1f} ms | — | — |",
    ]
    bare = results["bare"]
    lines.append(
        f"| reference: bare 14 × 28 `<table>` of numbers, no CSS | 1 | — | — | {bare['pdf'] * 1000:.0f} ms | 1.0 | "
        f"{bare['pdf'] / results['baseline']:.1f} | {bare['cpu'] * 1000:.0f} ms | — | — |"
    )
    for s in results["sheets"]:
        lines.append(
            f"| sheet, {s['hands']} hands, {s['names']} names | {s['pages']} | {s['bytes'] / 1024:.0f} KB | "
            f"{s['html'] * 1000:.1f} ms | {s['pdf'] * 1000:.0f} ms ({s['min'] * 1000:.0f}–{s['max'] * 1000:.0f}) | "
            f"{s['bare_ratio']:.2f} | {s['ratio']:.1f} | {s['cpu'] * 1000:.0f} ms | {s['target']} | "
            f"{'yes' if s['met'] else 'no'} |"
        )
    lines += [
        "",
        "| import (POST /import, file upload) | JSON import | PDF parse alone | PDF import | "
        f"target: ≤ {IMPORT_FACTOR:g} × (JSON + parse) | met |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in results["imports"]:
        lines.append(
            f"| {row['hands']} hands ({row['json_bytes'] / 1024:.0f} KB JSON, {row['pdf_bytes'] / 1024:.0f} KB PDF) | "
            f"{row['json'] * 1000:.1f} ms | {row['parse'] * 1000:.1f} ms | {row['pdf'] * 1000:.1f} ms | "
            f"≤ {row['limit'] * 1000:.1f} ms | {'yes' if row['met'] else 'no'} |"
        )
    return "\n".join(lines) + "\n"


SECTION_INTRO = """\
`.venv/bin/python bench/pdf_bench.py`: `scorekeeper.printing.sheet.render_sheet_pdf` on a
12-hand and a 120-hand parlett session, with plain names and with an emoji, a CJK
and a 40-character name, against WeasyPrint rendering a one-line HTML document and
a bare 14 × 28 table of numbers (no CSS) in the same process; then `POST /import`
of the same session as JSON and as its PDF, and the PDF parse alone. Targets: 12
hands ≤ 1× the bare table, 120 hands ≤ 1 s, a PDF import ≤ 2 × (JSON import +
PDF parse). Each run is appended below.
"""


def append_to_benchmarks(entry: str) -> None:
    append_to_section(HEADING, SECTION_INTRO, entry)


def machine() -> dict:
    import weasyprint  # kept here: the upload forkserver re-imports this script

    return dict(
        common_machine(weasyprint=weasyprint.__version__, pypdf=pypdf.__version__),
        load=" ".join(f"{x:.2f}" for x in os.getloadavg()),
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/history.md alone")
    args = parser.parse_args(argv)

    results = measure(args.runs)
    info = machine()
    entry = report(results, info, args.runs)
    print(entry)
    if not args.no_write:
        append_to_benchmarks(entry)
        print(f"appended to {HISTORY.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
