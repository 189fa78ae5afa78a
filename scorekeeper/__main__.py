"""Command line: ``python -m scorekeeper settle FILE`` (``-`` for stdin) and
``python -m scorekeeper sheet FILE -o OUT.pdf [--paper a4|letter]`` and
``python -m scorekeeper season FILE… [--json]``. FILE is a
``gleek-session/1`` JSON record or a score sheet PDF (which carries its record); for
``settle`` and ``season``, also a club night's record (``gleek-night/1``) or its sheet:
each table settled, each table an evening of the season."""

from __future__ import annotations

import gc
import json
import os
import sys

from typing import NamedTuple

from .limits import MAX_HANDS, MAX_RECORD_BYTES
from .rules import InvalidRecord
from .rules.record import FORMAT, parse, settle, to_json_text, validate
from .files.upload import record_text
from .rules.core import as_number

LIMITS = f"Records of at most {MAX_RECORD_BYTES // (1024 * 1024)} MB and {MAX_HANDS:,} hands, as the web import takes."


class TooLarge(Exception):
    pass


def read_input(path: str) -> bytes:
    """The record's bytes; ``TooLarge`` past the web import's limit (never read whole)."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    else:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise TooLarge(
            f"record: the file is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB, "
            "the most a session record may be (as the web import)"
        )
    return data


class NightTable(NamedTuple):
    """One table of a club night's record: where it sat, and its session's record
    (None where the table's session was deleted before the night was saved)."""

    round: int
    table: int
    record: dict | None


class NightRecord(NamedTuple):
    """A club night's record (``gleek-night/1``, its sheet's ``night.json``), checked:
    its name and every table, round by round."""

    name: str
    tables: list[NightTable]


def load(text: bytes) -> dict:
    """Parse, refuse more hands than the app holds (before checking them one by
    one), then validate; ``InvalidRecord`` with every problem. A club night's record
    is refused as one: its problems, or a line saying what it is (``load_any``)."""
    found = load_any(text)
    if isinstance(found, NightRecord):
        raise InvalidRecord(
            [
                f"record: this is a club night's record ({found.name}, {len(found.tables)} tables), "
                "not one session's (settle prints each table's settlement; season adds them up)"
            ]
        )
    return found


def load_any(text: bytes) -> dict | NightRecord:
    """A valid session record, or a club night's (``NightRecord``), from a JSON file
    or a sheet PDF; ``InvalidRecord`` with every problem."""
    record = parse(record_text(text))  # a JSON record, or the one a sheet PDF carries
    if isinstance(record, dict) and record.get("format", FORMAT) != FORMAT:
        from .store.night_archive import is_night_document  # only for a night: settle starts without the store

        if is_night_document(record):
            return night_record(record)
    hands = record.get("hands") if isinstance(record, dict) else None
    if isinstance(hands, list) and len(hands) > MAX_HANDS:
        raise InvalidRecord([f"hands: a session holds at most {MAX_HANDS} hands, not {len(hands)} (as the web import)"])
    problems = validate(record)
    if problems:
        raise InvalidRecord(problems)
    return record


def night_record(data: dict) -> NightRecord:
    """A ``gleek-night/1`` document checked as the web import checks it (``InvalidRecord``
    with its problems), as its tables."""
    from .store.night_archive import (
        night_problems,
    )  # the store (sqlite_utils): a night's record only, not settle's start

    problems = night_problems(data)
    if problems:
        raise InvalidRecord(problems)
    return NightRecord(
        data["name"].strip(),
        [
            NightTable(drawn["number"], number, table["record"])
            for drawn in data["rounds"]
            for number, table in enumerate(drawn["tables"], 1)
        ],
    )


def refuse(problems) -> int:
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1


def load_or_refuse(path: str, nights: bool = False):
    """The valid record at ``path`` (``nights``: or a club night's, a ``NightRecord``),
    or None after printing every problem."""
    try:
        return (load_any if nights else load)(read_input(path))
    except OSError as error:
        refuse([f"record: cannot read {path}: {error.strerror}"])
    except TooLarge as too_large:
        refuse([str(too_large)])
    except InvalidRecord as invalid:
        refuse(invalid.problems)
    return None


def cmd_settle(args) -> int:
    return settle_file(args.file)


def settle_file(path: str) -> int:
    # One large record, parsed, checked and settled, then the process ends: it makes no
    # reference cycles, so the cycle collector would only walk it again and again while
    # it is built (~1-3 ms of a long settle). Memory is still freed as usual.
    gc.disable()
    record = load_or_refuse(path, nights=True)
    if record is None:
        return 1
    if isinstance(record, NightRecord):
        return settle_night(path, record)
    # compact (spacing is not part of the format)
    sys.stdout.write(settle(record).json_text())
    sys.stdout.write("\n")
    return 0


def settle_night(path: str, night: NightRecord) -> int:
    """A club night's record: each table's settlement, in one JSON document
    (``{"night": name, "tables": [{"round", "table", "settle"}, …]}``, ``settle`` null
    where the table's session was deleted), and a line on stderr saying what it is."""
    played = sum(t.record is not None for t in night.tables)
    print(
        f"{path}: a club night's record ({night.name}), not one session's: each of its {played} tables "
        f"settled below; `scorekeeper season {path}` adds them up as a season",
        file=sys.stderr,
    )
    tables = ",".join(
        f'{{"round":{t.round},"table":{t.table},"settle":'
        f"{'null' if t.record is None else settle(t.record).json_text()}}}"
        for t in night.tables
    )
    sys.stdout.write(f'{{"night":{to_json_text(night.name)},"tables":[{tables}]}}\n')
    return 0


def cmd_sheet(args) -> int:
    """Print a record's session sheet to PDF; nothing is written unless it is valid."""
    record = load_or_refuse(args.file)
    if record is None:
        return 1
    import tempfile  # ~8 ms, not for settle's start

    from .words.localtime import machine_now  # ~9 ms, not for settle's start
    from .printing.sheet import render_sheet_pdf  # ~140 ms, not for settle's start

    pdf = render_sheet_pdf(record, paper=args.paper, printed=machine_now())
    target = os.path.abspath(args.output)
    try:
        fd, temporary = tempfile.mkstemp(prefix=".sheet-", suffix=".pdf.part", dir=os.path.dirname(target))
    except OSError as error:
        return refuse([f"sheet: cannot write {args.output}: {error.strerror}"])
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pdf)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes it private; a PDF is not
        os.replace(temporary, target)
    except OSError as error:
        os.unlink(temporary)
        return refuse([f"sheet: cannot write {args.output}: {error.strerror}"])
    return 0


def cmd_season(args) -> int:
    return season_files(args.files, as_json=args.json)


def season_files(paths, as_json: bool = False) -> int:
    """The season of these records: every file read, checked and settled; an invalid one is
    named with each of its problems on stderr (nothing on stdout, exit 1)."""
    enabled = gc.isenabled()
    gc.disable()  # as settle: many records built, no reference cycles among them
    try:
        return _season(paths, as_json)
    finally:
        if enabled:
            gc.enable()


def evening_of(path: str):
    """One file as a season's evenings: ``([EveningFigures], [])`` (a club night's record:
    each table an evening, keyed ``PATH round R table T``), or ``([], problem lines)``."""
    from .rules.season import evening_figures  # ~20 ms, not for settle's start

    try:
        record = load_any(read_input(path))
    except OSError as error:
        return [], [f"{path}: record: cannot read it: {error.strerror}"]
    except TooLarge as too_large:
        return [], [f"{path}: {too_large}"]
    except InvalidRecord as invalid:
        return [], [f"{path}: {problem}" for problem in invalid.problems]
    if isinstance(record, NightRecord):
        return [
            evening_figures(t.record, f"{path} round {t.round} table {t.table}")
            for t in record.tables
            if t.record is not None
        ], []
    return [evening_figures(record, path)], []


#: Files from which ``season`` reads them in a process per core: each file is read, checked
#: and settled by itself, so two cores take half the time (a worker costs ~50 ms to start).
POOL_FROM = 40


def evenings_of(paths) -> list:
    """``evening_of`` each path, in order; in a process per core when there are many files."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < 2 or len(paths) < POOL_FROM or "-" in paths:
        return [evening_of(p) for p in paths]
    import multiprocessing  # ~12 ms, not for settle's start
    from concurrent.futures import ProcessPoolExecutor  # ~12 ms, not for settle's start

    try:
        context = multiprocessing.get_context("fork")  # the workers share what is imported already
    except ValueError:
        return [evening_of(p) for p in paths]
    with ProcessPoolExecutor(max_workers=cores, mp_context=context) as pool:
        return list(pool.map(evening_of, paths, chunksize=max(1, len(paths) // (4 * cores))))


def _season(paths, as_json: bool) -> int:
    from .rules.season import season, season_json  # ~20 ms, not for settle's start

    evenings, problems = [], []
    for figures, wrong in evenings_of(list(paths)):
        problems += wrong
        evenings += figures
    if problems:
        return refuse(problems)
    figures = season(evenings)
    if as_json:
        from .club.placings import placings  # ~3 ms, not for settle's start
        from .club.ratings import played as with_a_hand, ratings  # openskill, ~20 ms: not for settle's start

        # in date order; an evening (or a night's table) with no hand is no three-way tie
        played = with_a_hand(figures.evenings)
        figures_json = season_json(figures) | {
            "placings": {name: as_number(points) for name, points in placings(played).items()},
            "ratings": {name: rating.as_json() for name, rating in ratings(played).items()},
        }
        sys.stdout.write(to_json_text(figures_json))
        sys.stdout.write("\n")
        return 0
    from .words.season_text import season_lines  # ~45 ms, not for settle's start

    sys.stdout.write("\n".join(season_lines(figures)) + "\n")
    return 0


def build_parser():
    import argparse  # only here: it and what it loads lazily cost ~5 ms, half a long settle

    parser = argparse.ArgumentParser(prog="scorekeeper", description="The Gleek scorekeeper.", epilog=LIMITS)
    commands = parser.add_subparsers(dest="command", required=True)
    settle_cmd = commands.add_parser(
        "settle",
        help="settle a gleek-session/1 record (or each table of a club night's) and print the result as JSON",
        epilog=LIMITS,
    )
    settle_cmd.add_argument(
        "file", help="the record (JSON, or a sheet PDF; a club night's too): its path, or - for standard input"
    )
    settle_cmd.set_defaults(run=cmd_settle)
    sheet_cmd = commands.add_parser("sheet", help="print a gleek-session/1 record's score sheet to PDF", epilog=LIMITS)
    sheet_cmd.add_argument("file", help="the record (JSON, or a sheet PDF): its path, or - for standard input")
    sheet_cmd.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="where to write the PDF")
    sheet_cmd.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size (landscape); default a4")
    sheet_cmd.set_defaults(run=cmd_sheet)
    season_cmd = commands.add_parser(
        "season",
        help="add up many sessions (or club nights' tables) as one season: the "
        "ledger, payments and statistics (players matched by their trimmed "
        "names)",
        epilog=LIMITS,
    )
    season_cmd.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="the records (JSON, or sheet PDFs), one evening each (a club night's: each "
        "table an evening); - for standard input",
    )
    season_cmd.add_argument("--json", action="store_true", help="print the figures as JSON")
    season_cmd.set_defaults(run=cmd_season)
    seating_cmd = commands.add_parser(
        "seating",
        help="draw a club night's tables of three for each round, so that players meet as many others as possible",
    )
    seating_cmd.add_argument(
        "players", metavar="PLAYERS", help="how many players (numbered 1, 2, …), or their names separated by commas"
    )
    seating_cmd.add_argument("rounds", metavar="ROUNDS", type=int, help="how many rounds")
    seating_cmd.add_argument("--seed", type=int, help="draw the same schedule again from this number")
    seating_cmd.add_argument("--json", action="store_true", help="print rounds, byes and repeats as JSON")
    seating_cmd.set_defaults(run=cmd_seating)
    doc_cmd = commands.add_parser("rules-doc", help="write docs/rules.md from the rule books' own data")
    doc_cmd.add_argument(
        "-o", "--output", default="-", metavar="FILE", help="where to write it; default standard output"
    )
    doc_cmd.set_defaults(run=cmd_rules_doc)
    replicate_cmd = commands.add_parser(
        "replicate",
        help="replicate the database continuously with Litestream "
        "(REPLICA in instance/config.py; make run-https does it itself)",
    )
    replicate_cmd.add_argument("--print", action="store_true", help="print litestream's configuration and stop")
    replicate_cmd.add_argument(
        "--wait",
        action="store_true",
        help="only wait until the running litestream has synced once (the deploy unit's start)",
    )
    replicate_cmd.set_defaults(run=cmd_replicate)
    restore_cmd = commands.add_parser(
        "restore-replica", help="put the replica's last transaction in place of the database (the server stopped)"
    )
    restore_cmd.add_argument(
        "--force", action="store_true", help="replace an existing database (it is kept beside, as .replaced-<time>)"
    )
    restore_cmd.add_argument(
        "--at", metavar="TIME", help="as of this time (RFC 3339, e.g. 2026-12-05T01:00:00Z), not the latest"
    )
    restore_cmd.set_defaults(run=cmd_restore_replica)
    docs_cmd = commands.add_parser(
        "docs",
        help="write the documents made from the code (docs/rules.md, parts of "
        "docs/record.md, README.md, BENCHMARKS.md)",
    )
    docs_cmd.add_argument("--check", action="store_true", help="only list those out of date (exit 1 if any)")
    docs_cmd.set_defaults(run=cmd_docs)
    return parser


def cmd_seating(args) -> int:
    from .club.seating import SeatingError, draw, schedule_lines  # ~20 ms, not for settle's start

    text = args.players.strip()
    players = [str(n) for n in range(1, int(text) + 1)] if text.isdigit() else text.split(",")
    try:
        schedule = draw(players, args.rounds, seed=args.seed)
    except SeatingError as error:
        return refuse([str(error)])
    if args.json:
        sys.stdout.write(json.dumps(schedule.as_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("\n".join(schedule_lines(schedule)) + "\n")
    return 0


def cmd_docs(args) -> int:
    from . import docgen  # with Flask (the flask commands' help): not for settle's start

    stale = docgen.out_of_date(build_parser()) if args.check else docgen.write(build_parser())
    for path in stale:
        print(f"{'out of date' if args.check else 'written'}: {path.relative_to(docgen.ROOT)}")
    return 1 if args.check and stale else 0


def cmd_rules_doc(args) -> int:
    from .rules.doc import rules_markdown  # ~1 ms, not for settle's start

    text = rules_markdown()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


def cmd_replicate(args) -> int:
    from .server import replica  # reads the instance's config.py with Flask's Config: not for settle's start-up

    return replica.cmd_replicate(args)


def cmd_restore_replica(args) -> int:
    from .server import replica  # Flask's Config, ~1 s: not for settle's start

    return replica.cmd_restore(args)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if len(argv) == 2 and argv[0] == "settle" and (argv[1] == "-" or not argv[1].startswith("-")):
        return settle_file(argv[1])  # the common command, parsed by hand: no argparse to import
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
