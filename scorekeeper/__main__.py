"""Command line: ``python -m scorekeeper settle FILE`` (``-`` for stdin)."""

from __future__ import annotations

import argparse
import json
import sys

from .rules import InvalidRecord
from .rules.record import load, settle


def read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def refuse(problems) -> int:
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1


def cmd_settle(args) -> int:
    try:
        record = load(read_input(args.file))
    except OSError as error:
        return refuse([f"record: cannot read {args.file}: {error.strerror}"])
    except InvalidRecord as invalid:
        return refuse(invalid.problems)
    json.dump(settle(record).as_json(), sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper", description="The Gleek scorekeeper.")
    commands = parser.add_subparsers(dest="command", required=True)
    settle_cmd = commands.add_parser("settle", help="settle a gleek-session/1 record and print the result as JSON")
    settle_cmd.add_argument("file", help="the record's path, or - for standard input")
    settle_cmd.set_defaults(run=cmd_settle)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
