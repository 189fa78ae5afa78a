"""Benchmark (of the code, not of time): is a rule book one module, so a book is easy to add?

Counts, from git, the size of ``RuleBook`` (lines and methods of the class) and of
each module of ``scorekeeper/rules/`` now against the commit before books became
one module each (``--before``, 982e5c1: phases were methods of a 534-line RuleBook,
a book's cards module constants); and the lines the commit that added cotton1674
(``--added``, c8e0ff4) touched outside ``scorekeeper/rules/``, split into what the
target allows (generated docs, test data, tests, the benchmark) and the rest
(the app: web/, templates/, static/, other modules). Target: none but generated docs
and test data; the app's share is the point (none), shared test support is counted
apart (the tests restate each book on purpose, tests/support/books.py).

    .venv/bin/python bench/book_size_bench.py [--before REV] [--added REV] [--write NOTE]
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))
from benchmarks_md import append_to_section, machine, record_result  # noqa: E402

RULES = "scorekeeper/rules"
GENERATED = ("docs/rules.md", "docs/record.md", "README.md")  # written by `python -m scorekeeper docs`


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def source(rev: str, path: str) -> str | None:
    try:
        return git("show", f"{rev}:{path}")
    except subprocess.CalledProcessError:
        return None


def class_size(text: str | None, name: str) -> tuple[int, int] | None:
    """(lines, methods) of class ``name`` in a module's text."""
    if text is None:
        return None
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            methods = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            return node.end_lineno - node.lineno + 1, len(methods)
    return None


def modules(rev: str) -> dict[str, int]:
    names = [Path(p).name for p in git("ls-tree", "--name-only", f"{rev}:{RULES}").split() if p.endswith(".py")]
    return {name: len(source(rev, f"{RULES}/{name}").splitlines()) for name in names}


def touched(rev: str) -> list[tuple[str, int, int]]:
    rows = []
    for line in git("show", "--numstat", "--format=", rev).splitlines():
        added, deleted, path = line.split("\t")
        rows.append((path, int(added), int(deleted)))
    return rows


def kind_of(path: str) -> str:
    if path.startswith(RULES + "/"):
        return "rules/"
    if path in GENERATED:
        return "generated docs"
    if path.startswith("tests/data/"):
        return "test data"
    if path.startswith("tests/support/"):
        return "test support"
    if path.startswith("tests/"):
        return "tests"
    if path.startswith("bench/"):
        return "bench"
    return "the app"


def report(before: str, added: str) -> tuple[str, list]:
    lines, results = [], []
    old, new = (
        class_size(source(before, f"{RULES}/book.py"), "RuleBook"),
        class_size(source("HEAD", f"{RULES}/book.py"), "RuleBook"),
    )
    lines.append(
        f"`RuleBook` (scorekeeper/rules/book.py): {old[0]} lines and {old[1]} methods at {before}; "
        f"now {new[0]} lines and {new[1]} methods ({new[0] / old[0]:.2f}× the lines).\n"
    )
    lines.append(f"| module of scorekeeper/rules/ | lines at {before} | lines now |")
    lines.append("| --- | ---: | ---: |")
    then, now = modules(before), modules("HEAD")
    for name in sorted(set(then) | set(now)):
        lines.append(f"| `{name}` | {then.get(name, '—')} | {now.get(name, '—')} |")
    rows = touched(added)
    lines.append(f"\nLines the commit that added cotton1674 ({added}, `git show --stat {added}`) touched, by where:\n")
    lines.append("| where | files | lines added | lines deleted |")
    lines.append("| --- | ---: | ---: | ---: |")
    groups: dict[str, list] = {}
    for path, a, d in rows:
        groups.setdefault(kind_of(path), []).append((path, a, d))
    for kind in ("rules/", "generated docs", "test data", "tests", "test support", "bench", "the app"):
        got = groups.get(kind, [])
        names = ", ".join(f"`{p}`" for p, _, _ in got)
        lines.append(
            f"| {kind}{': ' + names if got and kind != 'rules/' else ''} | {len(got)} | "
            f"{sum(a for _, a, _ in got)} | {sum(d for _, _, d in got)} |"
        )

    def size(kind):
        return sum(a + d for _, a, d in groups.get(kind, []))

    results.append(
        (
            "lines outside rules/ to add cotton1674",
            "none but generated docs and test data",
            f"{size('the app')} of the app; {size('test support')} of shared test support (the books' own "
            f"model, strategies, the form helper); new tests {size('tests')}, bench {size('bench')}",
            f"generated docs {size('generated docs')}, test data {size('test data')}",
            size("the app") == 0 and size("test support") == 0,
            "bench/book_size_bench.py",
        )
    )
    results.append(
        (
            "size of `RuleBook`",
            "shrinks to what is common",
            f"{new[0]} lines, {new[1]} methods",
            f"{old[0]} lines, {old[1]} methods at {before}",
            new[0] < old[0],
            "bench/book_size_bench.py",
        )
    )
    return "\n".join(lines), results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="982e5c1")
    parser.add_argument("--added", default="c8e0ff4")
    parser.add_argument("--write", metavar="NOTE", help="also append the results to bench/history.md, headed with NOTE")
    args = parser.parse_args(argv)
    text, results = report(args.before, args.added)
    print(text)
    if args.write:
        info = machine()
        append_to_section(
            "## A rule book is one module",
            """\
`.venv/bin/python bench/book_size_bench.py`: the size of `RuleBook` and of each
module of `scorekeeper/rules/` now against the commit before books became modules
(982e5c1), and the lines the commit that added cotton1674 touched outside
`scorekeeper/rules/` (target: none of the app, only generated docs and test data).
Counted from git, so the machine does not matter.
""",
            f"### Run of {info['date']} ({args.write})\n\n{text}\n",
        )
        for row in results:
            record_result(*row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
