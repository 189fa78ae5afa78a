"""Benchmark: how long the session sheet takes to print to PDF.

Times ``scorekeeper.sheet.render_sheet_pdf`` on a 12-hand and a 120-hand
parlett session against WeasyPrint rendering a one-line HTML document in the
same process (the baseline: WeasyPrint's fixed cost per document, imports and
fonts already warm). Prints the medians of several runs and their ratios to
the baseline, and appends them with the machine's details to BENCHMARKS.md
under "## PDF sheet (issue 4)" (use --no-write to only print).

Targets (issue 4): 12 hands < 3x the baseline, 120 hands < 15x.

    .venv/bin/python bench/pdf_bench.py [--runs 7] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks_md import BENCHMARKS, append_to_section, machine as common_machine  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from sessions import long_session  # noqa: E402
HEADING = "## PDF sheet (issue 4)"
TARGETS = {12: 3.0, 120: 15.0}
BASELINE_HTML = "<p>Gleek</p>"


# ---------------------------------------------------------------- a valid session

def session(hands: int) -> dict:
    """A valid parlett session of ``hands`` hands (see tests/sessions.py), titled for the bench."""
    from scorekeeper.rules.record import validate

    record = long_session(hands)
    record["title"] = f"Benchmark, {hands} hands"
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


def machine() -> dict:
    import weasyprint

    return dict(common_machine(weasyprint=weasyprint.__version__),
                load=" ".join(f"{x:.2f}" for x in os.getloadavg()))


def measure(runs: int) -> dict:
    import pypdf
    import io
    import weasyprint

    from scorekeeper.sheet import render_sheet_html, render_sheet_pdf

    baseline, _, baseline_cpu = median_seconds(
        lambda: weasyprint.HTML(string=BASELINE_HTML).write_pdf(), max(runs, 9))
    results = {"baseline": baseline, "baseline_cpu": baseline_cpu, "sheets": []}
    # reference: what a bare table of one 12-hand sheet's size costs (no CSS at all)
    bare = "<table>" + "".join(
        "<tr>" + "".join(f"<td>{(i * 7 + j) % 41 - 20}</td>" for j in range(28)) + "</tr>"
        for i in range(14)) + "</table>"
    bare_time, _, bare_cpu = median_seconds(lambda: weasyprint.HTML(string=bare).write_pdf(), runs)
    results["bare"] = {"pdf": bare_time, "cpu": bare_cpu}
    for hands in TARGETS:
        record = session(hands)
        pdf = render_sheet_pdf(record)
        pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
        html_time, _, _ = median_seconds(lambda: render_sheet_html(record), runs)
        pdf_time, times, pdf_cpu = median_seconds(lambda: render_sheet_pdf(record), runs)
        results["sheets"].append({
            "hands": hands, "pages": pages, "html": html_time, "pdf": pdf_time,
            "cpu": pdf_cpu, "cpu_ratio": pdf_cpu / baseline_cpu,
            "min": min(times), "max": max(times), "ratio": pdf_time / baseline,
            "target": TARGETS[hands], "met": pdf_time / baseline < TARGETS[hands],
        })
    return results


# ---------------------------------------------------------------- report

def report(results: dict, info: dict, runs: int) -> str:
    lines = [
        f"### Run of {info['date']}",
        "",
        f"Machine: {info['nproc']} CPUs ({info['cpu']}), Python {info['python']}, "
        f"WeasyPrint {info['weasyprint']}, load average {info['load']} (other work on the machine "
        f"adds noise). Wall-clock median of {runs} runs after one warm-up, in one process.",
        "",
        "| document | pages | HTML (Jinja) | PDF wall (median, min–max) | × baseline | PDF CPU | × baseline CPU | target | met |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        f"| baseline: `{BASELINE_HTML}` | 1 | — | {results['baseline'] * 1000:.1f} ms | 1.0 | "
        f"{results['baseline_cpu'] * 1000:.1f} ms | 1.0 | — | — |",
    ]
    bare = results["bare"]
    lines.append(
        f"| reference: bare 14 × 28 `<table>` of numbers, no CSS | 1 | — | {bare['pdf'] * 1000:.0f} ms | "
        f"{bare['pdf'] / results['baseline']:.1f} | {bare['cpu'] * 1000:.0f} ms | "
        f"{bare['cpu'] / results['baseline_cpu']:.1f} | — | — |")
    for s in results["sheets"]:
        lines.append(
            f"| sheet, {s['hands']} hands | {s['pages']} | {s['html'] * 1000:.1f} ms | "
            f"{s['pdf'] * 1000:.0f} ms ({s['min'] * 1000:.0f}–{s['max'] * 1000:.0f}) | "
            f"{s['ratio']:.1f} | {s['cpu'] * 1000:.0f} ms | {s['cpu_ratio']:.1f} | "
            f"< {s['target']:g} | {'yes' if s['met'] else 'no'} |")
    return "\n".join(lines) + "\n"


SECTION_INTRO = """\
`.venv/bin/python bench/pdf_bench.py`: `scorekeeper.sheet.render_sheet_pdf` on a
12-hand and a 120-hand parlett session against WeasyPrint rendering a one-line HTML
document in the same process. Targets: 12 hands < 3×, 120 hands < 15× that baseline.
Each run is appended below.

WeasyPrint's cost is per box (table cell, line, inline element, SVG element:
0.3–0.5 ms each here), much less per character. The "reference" row — a bare
14 × 28 table of numbers, the size of a 12-hand sheet's table when it had one cell
per amount — is already far above 3× on its own. Since the ledger change the hand
table is monospaced text, one cell per hand (`scorekeeper.sheet.ledger`), the chart's
markers are one path per player, and the font configuration and parsed stylesheet
are kept between renders: 12 hands went from ~50× to ~12×, 120 hands from ~380× to
~35–40×. The targets are still not met: the header, summary and chart alone
(no hand table) cost ~7× the baseline, and each hand still costs ~2 ms. The web app
caches the PDF per session version.
"""


def append_to_benchmarks(entry: str) -> None:
    append_to_section(HEADING, SECTION_INTRO, entry)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = parser.parse_args(argv)

    results = measure(args.runs)
    info = machine()
    print(f"baseline (one-line HTML): {results['baseline'] * 1000:.1f} ms "
          f"(CPU {results['baseline_cpu'] * 1000:.1f} ms)")
    for s in results["sheets"]:
        print(f"{s['hands']:>4} hands, {s['pages']} page(s): PDF {s['pdf'] * 1000:.0f} ms "
              f"(HTML {s['html'] * 1000:.1f} ms) = {s['ratio']:.1f}x baseline "
              f"(CPU {s['cpu'] * 1000:.0f} ms = {s['cpu_ratio']:.1f}x), "
              f"target < {s['target']:g}x: {'met' if s['met'] else 'NOT met'}")
    entry = report(results, info, args.runs)
    if not args.no_write:
        append_to_benchmarks(entry)
        print(f"appended to {BENCHMARKS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
