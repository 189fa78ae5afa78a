"""A double tap, eight times over: simultaneous posts of "Mark paid" and of
"Settled at the table" against the real server (``python -m scorekeeper.server.serve``,
as `make run` starts it: waitress, 2 processes of 4 threads), on a loopback port
with a temp instance folder.

    .venv/bin/python bench/payment_race.py [--rounds 10] [--at-once 8]

Each round makes a circle (Ann, Ben, Cat) and an evening of two parlett hands at
1d a counter (two debts: Cat pays Ann, Cat pays Ben), then

- *mark paid*: ``--at-once`` posts of What is owed's two Mark-paid forms at once
  (half each), as the page offers them;
- *settle*: a second such circle and evening, ``--at-once`` posts of its
  "Settled at the table" at once.

and counts the payments the database holds for the two debts, the 500s, and
what What is owed says afterwards. Not part of ``make test``; the trust test
(tests/trust/test_trust_payments.py) asserts one round of each."""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.circles import HANDS, debts_of, forms, members_of, new_circle, play, start_evening  # noqa: E402
from support.served import Phone, Served  # noqa: E402


def at_once(phone: Phone, posts: list) -> list[int]:
    """Every (path, fields) posted at the same moment, each on its own connection: their statuses."""
    barrier, statuses, lock = threading.Barrier(len(posts)), [], threading.Lock()

    def send(path, fields):
        barrier.wait()
        status = phone.post(path, fields)[0]
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=send, args=post) for post in posts]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return statuses


def evening_with_two_debts(phone: Phone, name: str) -> str:
    circle = new_circle(phone, name=name, members="Ann\nBen\nCat")
    ids = members_of(phone.get(circle)[2])
    play(phone, start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14"), HANDS[:2])
    return circle


def payments(served: Served, circle: str) -> int:
    conn = sqlite3.connect(served.instance / "scorekeeper.db")
    try:
        return conn.execute("select count(*) from payments where circle_id = ?", [circle.rsplit("/", 1)[1]]).fetchone()[
            0
        ]
    finally:
        conn.close()


def race(served: Served, phone: Phone, what: str, n: int, at: int) -> tuple[int, Counter, list]:
    circle = evening_with_two_debts(phone, f"{what} {n}")
    page = phone.get(circle + "/owed")[2]
    posted = forms(page, "/owed/pay" if what == "mark paid" else "/settle")
    statuses = at_once(phone, [posted[i % len(posted)] for i in range(at)])
    return payments(served, circle), Counter(statuses), debts_of(phone.get(circle + "/owed")[2])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--at-once", type=int, default=8)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gleek-pay-race-") as folder:
        served = Served(Path(folder) / "instance", config="SESSIONS_PER_MINUTE = 100_000\n")
        try:
            served.start()
            phone = Phone(served.port)
            for what in ("mark paid", "settle"):
                recorded, errors, wrong = [], 0, 0
                for n in range(args.rounds):
                    count, statuses, left = race(served, phone, what, n, args.at_once)
                    recorded.append(count)
                    errors += statuses.get(500, 0)
                    wrong += bool(left)
                    print(
                        f"{what:9} round {n + 1:2}: {count} payments for 2 debts; statuses {dict(sorted(statuses.items()))}"
                        + (f"; then owed: {left}" if left else "")
                    )
                print(
                    f"{what}: {args.at_once} at once, {args.rounds} rounds: payments for 2 debts "
                    f"min {min(recorded)} max {max(recorded)} (rounds with more than 2: "
                    f"{sum(c > 2 for c in recorded)}); 500s: {errors}; rounds leaving a debt shown: {wrong}\n"
                )
        finally:
            served.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
