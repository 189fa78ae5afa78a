"""Benchmark: how long `python -m scorekeeper settle FILE` takes on a long session.

For each rule book this writes a deterministic, valid 1,000-hand session to a
temporary file and times the whole process (interpreter start, imports, reading,
validating, settling, printing) against a bare `python -c "import scorekeeper"`
measured in the same run. It prints the medians and their ratio; the target is
a ratio under 2x (settling a long evening should cost about as much as starting
the program). It also times the same kind of session with every hand played call by
call (docs/rules.md, "Call by call") against that session without its calls (target: at most
1.2x), and breaks the time down inside one process.

    .venv/bin/python bench/settle_bench.py [--hands 1000] [--runs 7] [--seed 1671]
        [--part import|calls|stages ...] [--write NOTE]   (--write: append to bench/history.md)
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "bench") not in sys.path:
    sys.path.insert(0, str(ROOT / "bench"))
from benchmarks_md import append_to_section, machine as common_machine, record_result  # noqa: E402
from scorekeeper.rules import BOOKS  # noqa: E402
from scorekeeper.rules.calls import replay_bids, replay_ruff, ruff_range, showdown_winner  # noqa: E402
from scorekeeper.rules.record import parse, settle, validate  # noqa: E402

SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
HONOURS = ("A", "K", "Q", "J")
BOOK_IDS = ("parlett", "wits1671", "modern", "cotton1674")


# ---------------------------------------------------------------- a valid session


def _tricks(r: random.Random) -> list[int]:
    """Tricks won per seat, everybody at least one (so any seat may hold Tib)."""
    a = r.randint(1, 10)
    b = r.randint(1, 11 - a)
    return [a, b, 12 - a - b]


def _sets(r: random.Random, ranks, in_play, may_mournival, most) -> list[list[str]]:
    """At most one seat holds a set of a rank (two gleeks would need 6 cards)."""
    sets = [[], [], []]
    cards = [0, 0, 0]
    for rank in ranks:
        if r.random() > 0.25:
            continue
        seat = r.randrange(3)
        kind = "mournival" if in_play(rank) == 4 and may_mournival(rank, seat) and r.random() < 0.4 else "gleek"
        size = 4 if kind == "mournival" else 3
        if cards[seat] + size <= most(seat):
            sets[seat].append(f"{kind}:{rank}")
            cards[seat] += size
    return sets


def turned_up_hand(r: random.Random, book: str, number: int, opening: int, tiddy_on: bool) -> dict:
    """A valid hand of a book with a turned-up card; ``opening`` is parlett's stake S or
    cotton1674's multiplier M (docs/rules.md, each book's ruff)."""
    cotton = book == "cotton1674"
    dealer = number % 3
    eldest = (dealer + 1) % 3
    turned_up = r.choice(RANKS)
    tricks = _tricks(r)
    buyer = r.randrange(3)
    step = 2 if book == "parlett" else 1
    opening_bid = 13 if book == "wits1671" else 12
    price = (opening_bid if buyer == eldest else opening_bid + step) + step * r.randint(
        0, 4 if book == "parlett" else 6
    )
    position = (buyer - dealer - 1) % 3  # 0 eldest, 1 middle: prices no bidding reaches (parlett, Wits)
    if position < 2 and price == opening_bid + (position + 1) * step:
        price += step
    if book in ("parlett", "cotton1674") and r.random() < 0.25:
        ruff = None  # no contest (parlett), the dealer doubled it (cotton1674)
    else:
        winner = r.randrange(3)
        if cotton:  # M × (1, or an even amount of at least 4)
            paid = [0 if s == winner else opening * r.choice((1, 4, 6, 8)) for s in range(3)]
        else:
            least = opening if book == "parlett" else 2
            paid = [0 if s == winner else least + 2 * r.randint(0, 3) for s in range(3)]
        ruff = {"winner": winner, "paid": paid}
    honours = {}
    for rank in HONOURS:
        if rank != turned_up:
            honours[rank] = None if (book != "parlett" and r.random() < 0.1) else r.randrange(3)
    tiddy = None if (turned_up == "4" or not tiddy_on) else r.choice((0, 1, 2, None))
    sets = _sets(
        r,
        HONOURS,
        lambda rank: 3 if rank == turned_up else 4,
        lambda rank, seat: honours.get(rank) == seat,
        lambda seat: 12,
    )
    hand = {"dealer": dealer, "trump": r.choice(SUITS), "turned_up": turned_up, "tiddy": tiddy}
    if cotton:
        hand["towser"] = None if turned_up == "5" else r.choice((0, 1, 2, None))
        hand["tumbler"] = None if turned_up == "6" else r.choice((0, 1, 2, None))
    hand.update(
        {"auction": {"buyer": buyer, "price": price}, "ruff": ruff, "sets": sets, "tricks": tricks, "honours": honours}
    )
    if cotton and r.random() < 0.1:  # the buyer caught calling a set he had laid out
        declared = {t.split(":")[1] for t in sets[buyer]}
        free = [rank for rank in HONOURS if rank not in declared]
        if free:
            hand["forfeits"] = [[f"gleek:{r.choice(free)}"] if s == buyer else [] for s in range(3)]
    return hand


def _card_points(r: random.Random, tricks: list[int]) -> list[int]:
    total = r.randint(192, 252)
    points = [9 * t for t in tricks]
    spare = [24 * t for t in tricks]  # room up to 33 a trick
    rest = total - sum(points)
    for seat in (0, 1):
        later = sum(spare[seat + 1 :])
        give = r.randint(max(0, rest - later), min(spare[seat], rest))
        points[seat] += give
        rest -= give
    points[2] += rest
    return points


def modern_hand(r: random.Random, number: int, simplified: bool) -> dict:
    dealer = number % 3
    trump = r.choice(SUITS + ("none",))
    kiss = trump == "none"
    tricks = _tricks(r)
    if simplified or r.random() < 0.15:
        auction = None
    else:
        auction = {"buyer": r.randrange(3), "price": 13 + r.randint(0, 8)}
    buyer = auction["buyer"] if auction else None
    if simplified:
        ruff = None
    else:
        winner = r.randrange(3)
        ruff = {"winner": winner, "paid": [0 if s == winner else 2 + r.randint(0, 6) for s in range(3)]}
    tib = None if kiss or r.random() < 0.1 else r.randrange(3)
    tom = None if kiss or r.random() < 0.1 else r.randrange(3)

    def may_mournival(rank, seat):
        return kiss or rank != "A" or tib == seat or (tib is None and seat == buyer)

    sets = _sets(r, RANKS, lambda rank: 4, may_mournival, lambda seat: 13 if seat == buyer else 12)
    return {
        "dealer": dealer,
        "trump": trump,
        "tiddy": None if kiss else r.choice((0, 1, 2, None)),
        "auction": auction,
        "ruff": ruff,
        "sets": sets,
        "tricks": tricks,
        "card_points": _card_points(r, tricks),
        "tib": tib,
        "tom": tom,
        "last_trick": r.randrange(3),
    }


def session(book: str, hands: int, seed: int) -> dict:
    """A valid ``gleek-session/1`` record of ``hands`` hands, the same for the same seed."""
    r = random.Random(f"{book}:{seed}")
    options = {
        "parlett": {},
        "wits1671": {"tiddy": True},
        "modern": {"simplified": False},
        "cotton1674": {"tiddy": True, "towser": True},
    }[book]
    played = []
    first = 1 if book == "cotton1674" else 2
    opening = first  # parlett's S, cotton1674's M: doubles after each explicit ruff: null
    for number in range(hands):
        if book == "modern":
            hand = modern_hand(r, number, simplified=False)
        else:
            hand = turned_up_hand(r, book, number, opening, tiddy_on=True)
        opening = opening * 2 if hand.get("ruff", 0) is None else first
        played.append(hand)
    return {
        "format": "gleek-session/1",
        "rulebook": book,
        "options": options,
        "players": ["Samuel", "Elizabeth", "Will"],
        "title": f"{hands} hands of {book}",
        "played_on": "1671-01-01",
        "hands": played,
    }


# ---------------------------------------------------------------- timing


def time_command(argv: list[str], env: dict) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def machine() -> dict:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(), "load": load}


def environments(cache_dir: str) -> list[tuple[str, dict]]:
    """The program as installed normally (bytecode cached after the first run),
    and as this environment runs it (PYTHONDONTWRITEBYTECODE=1, if set: every
    run compiles the project's modules again)."""
    as_is = dict(os.environ)
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached["PYTHONPYCACHEPREFIX"] = cache_dir
    modes = [("bytecode cached", cached)]
    if as_is.get("PYTHONDONTWRITEBYTECODE"):
        modes.append(("no bytecode cache (PYTHONDONTWRITEBYTECODE=1)", as_is))
    return modes


def stages(path: Path, runs: int) -> dict[str, float]:
    """Where the time goes inside one process (best of ``runs``, in seconds):
    what ``python -m scorekeeper settle`` does after its imports."""
    text = path.read_bytes()
    record = parse(text)
    result = settle(record)
    steps = {
        "parse JSON": lambda: parse(text),
        "validate": lambda: validate(record),
        "settle": lambda: settle(record),
        "output (json_text)": lambda: result.json_text(),
    }
    best = {}
    for name, step in steps.items():
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            step()
            times.append(time.perf_counter() - start)
        best[name] = min(times)
    return best


# ---------------------------------------------------------------- call by call (docs/rules.md, "Call by call")

QUIET_WORDS = ("pass", "check", "fold", "match", "see")


def random_calls(r: random.Random, replay, quiet_after: int = 6) -> tuple[list, object]:
    """Random legal calls until the auction or vying ends, picked among the call pad's
    own choices: a word first (bid, pass, vie, see …), then one of its chips, so a book
    that offers several amounts (modern) raises no more often than the others; raises
    stop after ``quiet_after`` calls. The calls and the end state."""
    calls = []
    while True:
        state = replay(calls)
        if state.ended:
            return calls, state
        by_word: dict = {}
        for choice in state.choices:
            word = choice.call[1] if isinstance(choice.call[1], str) else "bid"
            if len(calls) < quiet_after or word in QUIET_WORDS:
                by_word.setdefault(word, []).append(choice)
        chips = by_word[r.choice(sorted(by_word))] if by_word else state.choices
        calls.append(r.choice(chips).call)


def ruff_from(r: random.Random, book, hand: dict, state) -> dict | None:
    """The ``ruff`` a finished vying gives: the unseen winner, or a showdown won by the
    best ruff shown (half the time) or the table's choice; ``None`` for no contest."""
    if state.end in ("no contest", "doubled"):
        return None
    ruff = {"calls": state.calls}
    if state.end == "unseen":
        winner = state.winner
    elif r.random() < 0.5:
        low, high = ruff_range(book)
        shown = [None, None, None]
        for seat in state.showing:
            declared = book.four_aces_win and "mournival:A" in hand["sets"][seat]
            shown[seat] = "aces" if declared else r.randint(low, high)
        winner, ruff["shown"] = showdown_winner(hand["dealer"], shown), shown
    else:
        winner = r.choice(state.showing)
    return {"winner": winner, "paid": state.paid(winner), **ruff}


def with_calls(record: dict, seed: int) -> dict:
    """``record`` with every hand's auction and ruff played call by call (results
    following from the calls); a hand whose sets no longer fit the new buyer drops them."""
    book = BOOKS[record["rulebook"]]
    r = random.Random(f"calls:{book.id}:{seed}")
    hands: list = []
    for hand in copy.deepcopy(record["hands"]):
        dealer, opening = hand["dealer"], book.ruff_opening(hands)
        bids, auction = random_calls(r, lambda calls: replay_bids(book, dealer, calls))
        hand["auction"] = (
            None if auction.buyer is None else {"buyer": auction.buyer, "price": auction.price, "bids": bids}
        )
        _, vying = random_calls(r, lambda calls: replay_ruff(book, dealer, calls, opening=opening))
        hand["ruff"] = ruff_from(r, book, hand, vying)
        if book.check_hand(len(hands) + 1, hand, record["options"], hands, ("a", "b", "c")):
            hand["sets"] = [[], [], []]
            hand.pop("forfeits", None)  # (they were the earlier buyer's)
        hands.append(hand)
    return dict(record, hands=hands)


def without_calls(record: dict) -> dict:
    """The same session with only the results: no bids, calls or shown."""
    hands = copy.deepcopy(record["hands"])
    for hand in hands:
        if hand["auction"]:
            hand["auction"].pop("bids", None)
        if hand["ruff"]:
            hand["ruff"].pop("calls", None)
            hand["ruff"].pop("shown", None)
    return dict(record, hands=hands)


# ---------------------------------------------------------------- the report


def write_sessions(folder: Path, hands: int, seed: int) -> dict:
    """Each book's session, and its session with calls and that one without them,
    as files (validated first: the generators must only write valid sessions)."""
    files = {}
    for book in BOOK_IDS:
        plain = session(book, hands, seed)
        called = with_calls(plain, seed)
        for kind, record in (("plain", plain), ("calls", called), ("stripped", without_calls(called))):
            problems = validate(record)
            if problems:
                raise SystemExit(f"{book} ({kind}): generated an invalid session: {problems[0]}")
            path = folder / f"{book}-{hands}-{kind}.json"
            path.write_text(json.dumps(record, indent=1))
            files[book, kind] = path
    return files


def compare(first: list[str], second: list[str], env: dict, runs: int) -> tuple[list, list]:
    """Median (wall, CPU) seconds of two commands, after a warm-up, interleaved so
    drift hits both alike."""
    time_command(first, env)
    time_command(second, env)
    a, b = [], []
    for _ in range(runs):
        a.append(time_command(first, env))
        b.append(time_command(second, env))
    return ([statistics.median(t[i] for t in a) for i in (0, 1)], [statistics.median(t[i] for t in b) for i in (0, 1)])


def ratio_table(title: str, names: tuple[str, str], rows: list) -> float:
    """Print a markdown table of (book, first, second) medians; the worst wall ratio."""
    print(f"{title} (medians; wall-clock, and CPU user+system):\n")
    print(f"| rule book | {names[0]} wall / CPU (ms) | {names[1]} wall / CPU (ms) | ratio wall | ratio CPU |")
    print("| --- | ---: | ---: | ---: | ---: |")
    worst = 0.0
    for book, a, b in rows:
        worst = max(worst, b[0] / a[0])
        print(
            f"| {book} | {a[0] * 1000:.1f} / {a[1] * 1000:.1f} | {b[0] * 1000:.1f} / {b[1] * 1000:.1f} "
            f"| {b[0] / a[0]:.2f}x | {b[1] / a[1]:.2f}x |"
        )
    print()
    return worst


def stages_table(files: dict, kinds: tuple, runs: int) -> None:
    print("inside the process (best of the runs, ms):\n")
    names = None
    for book in BOOK_IDS:
        for kind in kinds:
            best = stages(files[book, kind], runs)
            if names is None:
                names = list(best)
                print("| rule book | session | " + " | ".join(names) + " |")
                print("| --- | --- |" + " ---: |" * len(names))
            print(f"| {book} | {kind} | " + " | ".join(f"{best[n] * 1000:.1f}" for n in names) + " |")
    print()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1671)
    parser.add_argument(
        "--part",
        action="append",
        choices=("import", "calls", "books", "stages"),
        help="only this part (repeatable); default: all of them",
    )
    parser.add_argument("--write", metavar="NOTE", help="also append the results to bench/history.md, headed with NOTE")
    args = parser.parse_args(argv)
    parts = args.part or ["import", "calls", "books", "stages"]
    if not args.write:
        return report(args, parts)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(Tee(sys.stdout, buffer)):
        status = report(args, parts)
    write_run(args.write, parts, buffer.getvalue())

    for row in RESULTS:
        record_result(*row)
    return status


RESULTS: list = []  # (target, goal, figure, baseline, met, bench) of the run, for bench/results.json


class Tee:
    """Writes to several streams at once."""

    def __init__(self, *streams):
        self.streams = streams

    def write(self, text: str) -> None:
        for stream in self.streams:
            stream.write(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


HEADINGS = {
    "import": ("## settle", "(see the runs below)\n"),
    "books": (
        "## settle of the fourth book",
        """\
`.venv/bin/python bench/settle_bench.py --part books --part import`: a 1,000-hand
cotton1674 session (Towser and Tumbler, the odd penny, doubled ruffs, forfeits) against
the wits1671 session of the same generator, as whole `python -m scorekeeper settle`
processes in the same run, interleaved; and each against a bare `import scorekeeper`.
Target: cotton1674 at most 1.1× wits1671.
""",
    ),
    "calls": (
        "## settle with calls",
        """\
`.venv/bin/python bench/settle_bench.py --part calls`: each rule book's 1,000-hand
session of the section above, every hand played call by call (docs/rules.md ("Call by call"):
random legal calls picked among the call pad's own choices, `buyer`, `price`, `winner`,
`paid` following from them, `shown` at half the showdowns), against the same session
with its `bids`, `calls` and `shown` taken out, as whole `python -m scorekeeper settle`
processes in the same run, interleaved. Target: at most 1.2×.
""",
    ),
}


def write_run(note: str, parts: list, text: str) -> None:
    """Append this run to bench/history.md: under the calls section if that is all it
    measured, else under settle's own."""
    info = common_machine()
    key = "calls" if parts == ["calls"] else "books" if "books" in parts and "calls" not in parts else "import"
    heading, intro = HEADINGS[key]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("machine:"))
    entry = (
        f"### Run of {info['date']} ({note})\n\nMachine: {info['nproc']} cores ({info['cpu']}), "
        f"Python {info['python']}, load average {os.getloadavg()[0]:.2f} at the end (the machine is "
        f"shared).\n\n{body.strip()}\n"
    )
    append_to_section(heading, intro, entry)


def report(args, parts: list) -> int:

    python, info = sys.executable, machine()
    print(
        f"machine: {info['nproc']} cpu(s), {info['cpu']}, Python {info['python']}, "
        f"load average {info['load']:.2f} at the start"
    )
    print(f"{args.hands} hands per session, median of {args.runs} runs each\n")
    verdicts = []
    RESULTS.clear()
    with tempfile.TemporaryDirectory() as tmp:
        files = write_sessions(Path(tmp), args.hands, args.seed)
        settle = {key: [python, "-m", "scorekeeper", "settle", str(path)] for key, path in files.items()}
        for mode, env in environments(str(Path(tmp) / "pycache")):
            if "import" in parts:
                rows = [
                    (book, *compare([python, "-c", "import scorekeeper"], settle[book, "plain"], env, args.runs))
                    for book in BOOK_IDS
                ]
                worst = ratio_table(
                    f"{mode}: settle against the bare import",
                    ("`import scorekeeper`", f"`settle` {args.hands} hands"),
                    rows,
                )
                verdicts.append(
                    f"{mode}: settle / import worst {worst:.2f}x (target < 2x): {'ok' if worst < 2 else 'OVER'}"
                )
                if mode.startswith("bytecode cached"):
                    each = ", ".join(f"{book} {b[0] / a[0]:.2f}× ({b[1] / a[1]:.2f}× CPU)" for book, a, b in rows)
                    imports = [a[0] * 1000 for _, a, _ in rows]
                    RESULTS.append(
                        (
                            f"settle of {args.hands:,} hands against a bare `import scorekeeper`",
                            "< 2×",
                            f"worst {worst:.2f}× ({each})",
                            f"import {min(imports):.1f}–{max(imports):.1f} ms",
                            worst < 2,
                            "bench/settle_bench.py --part import",
                        )
                    )
            if "calls" in parts:
                rows = [
                    (book, *compare(settle[book, "stripped"], settle[book, "calls"], env, args.runs))
                    for book in BOOK_IDS
                ]
                worst = ratio_table(
                    f"{mode}: every hand with its calls against the same session without",
                    ("`settle` without calls", "`settle` with calls"),
                    rows,
                )
                verdicts.append(
                    f"{mode}: with calls / without worst {worst:.2f}x (target <= 1.2x): "
                    f"{'ok' if worst <= 1.2 else 'OVER'}"
                )
                if mode.startswith("bytecode cached"):
                    plain = [a[0] * 1000 for _, a, _ in rows]
                    RESULTS.append(
                        (
                            "settle with every hand's calls against the same session without",
                            "≤ 1.2×",
                            f"worst {worst:.2f}×",
                            f"the session without calls, {min(plain):.0f}–{max(plain):.0f} ms",
                            worst <= 1.2,
                            "bench/settle_bench.py --part calls",
                        )
                    )
            if "books" in parts:  # the fourth book costs no more than the third
                rows = [
                    (
                        "cotton1674 / wits1671",
                        *compare(settle["wits1671", "plain"], settle["cotton1674", "plain"], env, args.runs),
                    )
                ]
                worst = ratio_table(
                    f"{mode}: settle of cotton1674 against settle of wits1671",
                    (f"`settle` {args.hands} wits1671 hands", f"`settle` {args.hands} cotton1674 hands"),
                    rows,
                )
                verdicts.append(
                    f"{mode}: cotton1674 / wits1671 {worst:.2f}x (target <= 1.1x): {'ok' if worst <= 1.1 else 'OVER'}"
                )
                if mode.startswith("bytecode cached"):
                    ((_, a, b),) = rows  # CPU beside wall: on a shared machine the wall clock waits for others
                    RESULTS.append(
                        (
                            f"settle of {args.hands:,} cotton1674 hands against {args.hands:,} wits1671 hands",
                            "≤ 1.1×",
                            f"{worst:.2f}× wall ({b[0] * 1000:.1f} ms), {b[1] / a[1]:.2f}× CPU",
                            f"wits1671 {a[0] * 1000:.1f} ms wall, {a[1] * 1000:.1f} ms CPU",
                            worst <= 1.1,
                            "bench/settle_bench.py --part books",
                        )
                    )
        if "stages" in parts:
            stages_table(files, ("plain", "stripped", "calls") if "calls" in parts else ("plain",), args.runs)
    print("\n".join(verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
