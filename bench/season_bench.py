"""Benchmark: a season of 1,000 evenings × 30 hands (years of a circle).

``--part cli``: ``python -m scorekeeper season FILE… --json`` over 1,000 record files
of 30 hands (the four books in turn, five regulars, a stake on most evenings), the
whole process timed (target ≤ 3 s), against in the same run a bare
``python -c "import scorekeeper"`` and, in one process, ``load`` + ``settle`` of the
same 1,000 records (what ``scorekeeper settle`` does for each file, minus its 1,000
interpreter starts): what the season adds over settling is the difference.

``--part pdf``: ``season_sheet_pdf`` of the same season with what is owed over its last
ten evenings (target ≤ 2 s), against a one-line WeasyPrint document in the same process.

    .venv/bin/python bench/season_bench.py [--evenings 1000] [--hands 30] [--runs 3]
        [--part cli|pdf ...] [--write NOTE]   (--write: append to bench/history.md, bench/results.json)
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from settle_bench import BOOK_IDS, session, time_command  # noqa: E402
from scorekeeper.rules.record import settle  # noqa: E402
from scorekeeper.__main__ import load, read_input  # noqa: E402
from benchmarks_md import append_to_section, machine, record_result  # noqa: E402
from scorekeeper.printing.season_sheet import season_sheet_pdf  # noqa: E402
from scorekeeper.rules.season import evening_figures, owed, season  # noqa: E402
import pypdf  # noqa: E402
import weasyprint  # noqa: E402

REGULARS = ("Ann", "Ben", "Cat", "Dan", "Eve")
STAKES = (
    {"per_counter": "0.25", "currency": "d"},
    {"per_counter": "0.05", "currency": "GBP"},
    None,
    {"per_counter": "1", "currency": "d"},
)
HEADING = "## Season"
INTRO = (
    "`.venv/bin/python bench/season_bench.py`: a season of 1,000 evenings × 30 hands (30,000 hands, the "
    "four books in turn, five regulars, three stakes and evenings without one). `cli`: the whole "
    "`scorekeeper season FILE… --json` process over 1,000 files (target ≤ 3 s), beside a bare "
    "`import scorekeeper` and, in one process, load + settle of the same records. `pdf`: the season sheet "
    "of that season (target ≤ 2 s), beside a one-line WeasyPrint document.\n"
)


def records(evenings: int, hands: int) -> list[dict]:
    out, day = [], datetime.date(2000, 1, 6)
    for i in range(evenings):
        book = BOOK_IDS[i % len(BOOK_IDS)]
        record = session(book, hands, seed=i)
        start = i % len(REGULARS)
        record["players"] = [REGULARS[(start + k) % len(REGULARS)] for k in (0, 1, 3)]
        record["played_on"] = (day + datetime.timedelta(days=7 * i)).isoformat()
        record["title"] = f"Thursday Gleek {i + 1}"
        stake = STAKES[i % len(STAKES)]
        if stake:
            record["stake"] = stake
        out.append(record)
    return out


def write_files(folder: Path, season_records: list[dict]) -> list[str]:
    paths = []
    for i, record in enumerate(season_records):
        path = folder / f"evening-{i:04d}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        paths.append(str(path))
    return paths


def median_run(argv, env, runs) -> float:
    return statistics.median(time_command(argv, env)[0] for _ in range(runs))


def part_cli(args, season_records, lines, results) -> bool:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_files(Path(tmp), season_records)
        python = sys.executable
        bare = median_run([python, "-c", "import scorekeeper"], env, args.runs)
        whole = median_run([python, "-m", "scorekeeper", "season", *paths, "--json"], env, args.runs)

        start = time.perf_counter()
        loaded = [load(read_input(p)) for p in paths]
        settled = [settle(r) for r in loaded]
        settling = time.perf_counter() - start

        start = time.perf_counter()
        figures = [evening_figures(r, p, settlement=s) for r, p, s in zip(loaded, paths, settled)]
        reduced = time.perf_counter() - start
        start = time.perf_counter()
        season(figures)
        added = time.perf_counter() - start
    hands = args.evenings * args.hands
    met = whole <= 3.0
    lines += [
        f"`scorekeeper season` over {args.evenings:,} files × {args.hands} hands ({hands:,} hands), "
        f"median of {args.runs} runs:",
        "",
        "| what | time |",
        "| --- | ---: |",
        f'| bare `python -c "import scorekeeper"` (baseline) | {bare * 1000:.0f} ms |',
        f"| **`scorekeeper season FILE… --json`, the whole process** | **{whole:.2f} s** |",
        f"| in one process: read, parse, validate and settle the {args.evenings:,} records | {settling:.2f} s |",
        f"| in one process: `evening_figures` of each (reusing its settlement) | {reduced:.2f} s |",
        f"| in one process: `season` of the {args.evenings:,} evenings | {added * 1000:.0f} ms |",
        "",
        f"Result: {whole:.2f} s {'≤' if met else '>'} 3 s — {'met' if met else 'not met'}; "
        f"{whole / bare:.0f}× a bare import; the season's own figures (reduce + add up) "
        f"{(reduced + added) / settling:.2f}× the settling they start from.",
        "",
    ]
    results.append(
        (
            "`scorekeeper season` over 1,000 files × 30 hands",
            "≤ 3 s",
            f"{whole:.2f} s (figures {(reduced + added) * 1000:.0f} ms over a {settling:.2f} s load + settle)",
            f"bare import {bare * 1000:.0f} ms",
            met,
            "bench/season_bench.py --part cli",
        )
    )
    return met


def part_pdf(args, season_records, lines, results) -> bool:
    figures = [evening_figures(r, f"evening {i + 1}") for i, r in enumerate(season_records)]
    whole = season(figures)
    debts = owed(figures[-10:])

    def one_line():
        return weasyprint.HTML(string="<p>Gleek</p>").write_pdf()

    one_line()
    season_sheet_pdf(whole, debts, "Thursday Gleek")  # warm: fonts, CSS
    base = statistics.median(_timed(one_line) for _ in range(args.runs))
    cpu = []

    def sheet():
        start = time.process_time()
        season_sheet_pdf(whole, debts, "Thursday Gleek", attachment=(b"{}", "circle.json"))
        cpu.append(time.process_time() - start)

    pdfs = [_timed(sheet) for _ in range(args.runs)]
    took = statistics.median(pdfs)
    met = took <= 2.0
    pages = _pages(season_sheet_pdf(whole, debts, "Thursday Gleek"))
    lines += [
        f"Season sheet of {args.evenings:,} evenings × {args.hands} hands ({pages} pages), median of {args.runs} runs:",
        "",
        "| what | time |",
        "| --- | ---: |",
        f"| one-line WeasyPrint document (baseline) | {base * 1000:.0f} ms |",
        f"| **`season_sheet_pdf`, with owed and an attachment** | **{took:.2f} s** |",
        f"| the same, CPU seconds of this process (less moved by the load) | {statistics.median(cpu):.2f} s |",
        "",
        f"Result: {took:.2f} s {'≤' if met else '>'} 2 s — {'met' if met else 'not met'} "
        f"({took / base:.0f}× the one-line document).",
        "",
    ]
    results.append(
        (
            "season sheet PDF, 1,000 evenings × 30 hands",
            "≤ 2 s",
            f"{took:.2f} s ({pages} pages)",
            f"one-line document {base * 1000:.0f} ms",
            met,
            "bench/season_bench.py --part pdf",
        )
    )
    return met


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _pages(pdf: bytes) -> int:
    return len(pypdf.PdfReader(io.BytesIO(pdf)).pages)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evenings", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--part", action="append", choices=("cli", "pdf"))
    parser.add_argument("--write", metavar="NOTE", help="append the run to bench/history.md and bench/results.json")
    args = parser.parse_args(argv)
    parts = args.part or ["cli", "pdf"]
    season_records = records(args.evenings, args.hands)
    load_before = os.getloadavg()
    lines, results, ok = [], [], True
    for part in parts:
        ok &= (part_cli if part == "cli" else part_pdf)(args, season_records, lines, results)

    info = machine()
    head = (
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}; load average "
        f"{load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after (the machine is shared)."
    )
    text = "\n".join(lines)
    print(head + "\n\n" + text)
    if args.write:
        append_to_section(HEADING, INTRO, f"### Run of {info['date']} ({args.write})\n\n{head}\n\n{text}")
        if (args.evenings, args.hands) == (1000, 30):
            for row in results:
                record_result(*row)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
