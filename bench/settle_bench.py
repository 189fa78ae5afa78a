"""Benchmark: how long `python -m scorekeeper settle FILE` takes on a long session.

For each rule book this writes a deterministic, valid 1,000-hand session to a
temporary file and times the whole process (interpreter start, imports, reading,
validating, settling, printing) against a bare `python -c "import scorekeeper"`
measured in the same run. It prints the medians and their ratio; the target is
a ratio under 2x (settling a long evening should cost about as much as starting
the program).

    .venv/bin/python bench/settle_bench.py [--hands 1000] [--runs 7] [--seed 1671]
"""

from __future__ import annotations

import argparse
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

SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
HONOURS = ("A", "K", "Q", "J")
BOOK_IDS = ("parlett", "wits1671", "modern")


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
    dealer = number % 3
    eldest = (dealer + 1) % 3
    turned_up = r.choice(RANKS)
    tricks = _tricks(r)
    buyer = r.randrange(3)
    step = 2 if book == "parlett" else 1
    opening_bid = 12 if book == "parlett" else 13
    price = (opening_bid if buyer == eldest else 14) + step * r.randint(0, 4 if book == "parlett" else 6)
    position = (buyer - dealer - 1) % 3  # 0 eldest, 1 middle: prices no bidding reaches (§3, §4)
    if position < 2 and price == opening_bid + (position + 1) * step:
        price += step
    if book == "parlett" and r.random() < 0.25:
        ruff = None
    else:
        winner = r.randrange(3)
        least = opening if book == "parlett" else 2
        ruff = {"winner": winner, "paid": [0 if s == winner else least + 2 * r.randint(0, 3) for s in range(3)]}
    honours = {}
    for rank in HONOURS:
        if rank != turned_up:
            honours[rank] = None if (book == "wits1671" and r.random() < 0.1) else r.randrange(3)
    tiddy = None if (turned_up == "4" or not tiddy_on) else r.choice((0, 1, 2, None))
    sets = _sets(r, HONOURS, lambda rank: 3 if rank == turned_up else 4,
                 lambda rank, seat: honours.get(rank) == seat, lambda seat: 12)
    return {"dealer": dealer, "trump": r.choice(SUITS), "turned_up": turned_up, "tiddy": tiddy,
            "auction": {"buyer": buyer, "price": price}, "ruff": ruff, "sets": sets,
            "tricks": tricks, "honours": honours}


def _card_points(r: random.Random, tricks: list[int]) -> list[int]:
    total = r.randint(192, 252)
    points = [9 * t for t in tricks]
    spare = [24 * t for t in tricks]  # room up to 33 a trick
    rest = total - sum(points)
    for seat in (0, 1):
        later = sum(spare[seat + 1:])
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
    return {"dealer": dealer, "trump": trump, "tiddy": None if kiss else r.choice((0, 1, 2, None)),
            "auction": auction, "ruff": ruff, "sets": sets, "tricks": tricks,
            "card_points": _card_points(r, tricks), "tib": tib, "tom": tom,
            "last_trick": r.randrange(3)}


def session(book: str, hands: int, seed: int) -> dict:
    """A valid ``gleek-session/1`` record of ``hands`` hands, the same for the same seed."""
    r = random.Random(f"{book}:{seed}")
    options = {"parlett": {}, "wits1671": {"tiddy": True}, "modern": {"simplified": False}}[book]
    played = []
    opening = 2  # parlett: doubles after each explicit ruff: null
    for number in range(hands):
        if book == "modern":
            hand = modern_hand(r, number, simplified=False)
        else:
            hand = turned_up_hand(r, book, number, opening, tiddy_on=True)
        opening = opening * 2 if hand.get("ruff", 0) is None else 2
        played.append(hand)
    return {"format": "gleek-session/1", "rulebook": book, "options": options,
            "players": ["Samuel", "Elizabeth", "Will"], "title": f"{hands} hands of {book}",
            "played_on": "1671-01-01", "hands": played}


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
    from scorekeeper.rules.record import parse, settle, validate

    text = path.read_bytes()
    record = parse(text)
    result = settle(record)
    steps = {
        "parse JSON": lambda: parse(text),
        "validate": lambda: validate(record),
        "settle": lambda: settle(record),
        "as_json": lambda: result.as_json(),
        "json.dump(indent=1)": lambda: json.dump(result.as_json(), open(os.devnull, "w"), indent=1),
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1671)
    args = parser.parse_args(argv)

    from scorekeeper.rules.record import validate

    python = sys.executable
    info = machine()
    print(f"machine: {info['nproc']} cpu(s), {info['cpu']}, Python {info['python']}, "
          f"load average {info['load']:.2f} at the start")
    print(f"{args.hands} hands per session, median of {args.runs} runs each\n")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for book in BOOK_IDS:
            record = session(book, args.hands, args.seed)
            problems = validate(record)
            if problems:  # the generator must only ever write valid sessions
                raise SystemExit(f"{book}: generated an invalid session: {problems[0]}")
            path = Path(tmp) / f"{book}-{args.hands}.json"
            path.write_text(json.dumps(record, indent=1))
            files[book] = path
        base_cmd = [python, "-c", "import scorekeeper"]
        for mode, env in environments(str(Path(tmp) / "pycache")):
            rows = []
            for book in BOOK_IDS:
                settle_cmd = [python, "-m", "scorekeeper", "settle", str(files[book])]
                time_command(base_cmd, env)  # warm up (and fill the bytecode cache)
                time_command(settle_cmd, env)
                base, settle = [], []
                for _ in range(args.runs):  # interleaved, so drift hits both alike
                    base.append(time_command(base_cmd, env))
                    settle.append(time_command(settle_cmd, env))
                rows.append((book, [statistics.median(t[i] for t in base) for i in (0, 1)],
                             [statistics.median(t[i] for t in settle) for i in (0, 1)]))
            print(f"{mode} (medians; wall-clock, and CPU user+system):\n")
            print(f"| rule book | `import scorekeeper` wall / CPU (ms) | `settle` {args.hands} hands wall / CPU (ms) "
                  "| ratio wall | ratio CPU |")
            print("| --- | ---: | ---: | ---: | ---: |")
            for book, base, settle in rows:
                ratio = settle[0] / base[0]
                worst = max(worst, ratio)
                print(f"| {book} | {base[0] * 1000:.1f} / {base[1] * 1000:.1f} | {settle[0] * 1000:.1f} / "
                      f"{settle[1] * 1000:.1f} | {ratio:.2f}x | {settle[1] / base[1]:.2f}x |")
            print()
        print("inside the process (best of the runs, ms):\n")
        names = None
        for book in BOOK_IDS:
            best = stages(files[book], args.runs)
            if names is None:
                names = list(best)
                print("| rule book | " + " | ".join(names) + " |")
                print("| --- |" + " ---: |" * len(names))
            print(f"| {book} | " + " | ".join(f"{best[n] * 1000:.1f}" for n in names) + " |")
        print()
    print(f"worst ratio {worst:.2f}x (target < 2x): {'ok' if worst < 2 else 'OVER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
