"""Long, valid sessions for tests and benchmarks (built from the shared examples)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"


def load_example(name: str):
    return json.loads((DATA / name).read_text())


def rotate_hand(hand: dict, shift: int) -> dict:
    """The same parlett hand with every seat moved ``shift`` places clockwise."""

    def seat(s):
        return None if s is None else (s + shift) % 3

    def per_seat(values):
        out = [None] * 3
        for s, v in enumerate(values):
            out[(s + shift) % 3] = copy.deepcopy(v)
        return out

    new = copy.deepcopy(hand)
    new["dealer"] = seat(hand["dealer"])
    new["tiddy"] = seat(hand["tiddy"])
    new["auction"]["buyer"] = seat(hand["auction"]["buyer"])
    new["ruff"] = {"winner": seat(hand["ruff"]["winner"]), "paid": per_seat(hand["ruff"]["paid"])}
    new["sets"] = per_seat(hand["sets"])
    new["tricks"] = per_seat(hand["tricks"])
    new["honours"] = {rank: seat(s) for rank, s in hand["honours"].items()}
    return new


def long_session(n: int) -> dict:
    """A valid n-hand parlett session: parlett-evening's hands, rotated so the
    deal passes to the left every hand, with a ruff every hand (so the opening
    stake stays 2), a title, a date, a stake and one note (with markup, to be escaped)."""
    base = load_example("parlett-evening.json")
    hands = base["hands"]
    for hand in hands:
        if hand["ruff"] is None:
            winner = (hand["dealer"] + 1) % 3
            hand["ruff"] = {"winner": winner, "paid": [0 if s == winner else 2 + 2 * s for s in range(3)]}
    record = copy.deepcopy(base)
    record["hands"] = []
    for i in range(n):
        hand = hands[(i + i // 3) % len(hands)]
        record["hands"].append(rotate_hand(hand, (i - hand["dealer"]) % 3))
    record["title"] = "A long winter at Whitehall"
    record["played_on"] = "1667-12-26"
    record["stake"] = {"per_counter": "0.25", "currency": "d"}
    record["hands"][6]["note"] = "Tib & <Tom> fell together"
    return record


def rounding_session(stake: dict | None) -> dict:
    """One real modern hand that leaves Kit −237, Nell +145½ and Tom +91½ counters
    (money that rounds): Kit buys at 13, Nell wins the ruff (3 from each) and the
    play (Tib and the last trick; Tom took Tom). At €0.05 a counter Nell's and
    Tom's exact money ends in half a cent, so one of them must round down for the
    three to add up."""
    record = {
        "format": "gleek-session/1",
        "rulebook": "modern",
        "options": {},
        "players": ["Kit", "Nell", "Tom"],
        "title": "Rounding at the Bell",
        "played_on": "2026-12-01",
        "hands": [
            {
                "dealer": 2,
                "trump": "hearts",
                "tiddy": None,
                "auction": {"buyer": 0, "price": 13},
                "ruff": {"winner": 1, "paid": [3, 0, 3]},
                "sets": [[], [], []],
                "tricks": [1, 6, 5],
                "card_points": [10, 109, 104],
                "tib": 1,
                "tom": 2,
                "last_trick": 1,
            }
        ],
    }
    if stake:
        record["stake"] = stake
    return record


def big_balances_session() -> dict:
    """Five of ``rounding_session``'s hands and one more (Tom buys at 13, Nell
    wins the ruff with Tom paying 50, and takes Tib, Tom and the last trick):
    Kit −1,237½, Nell +1,092, Tom +145½ — the widest balances a phone's cards show."""
    record = rounding_session(None)
    hand = record["hands"][0]
    record["hands"] = [dict(hand, dealer=d % 3) for d in range(2, 7)]
    record["hands"].append(
        {
            "dealer": 1,
            "trump": "spades",
            "tiddy": None,
            "auction": {"buyer": 2, "price": 13},
            "ruff": {"winner": 1, "paid": [2, 0, 50]},
            "sets": [[], [], []],
            "tricks": [4, 8, 0],
            "card_points": [64, 157, 0],
            "tib": 1,
            "tom": 1,
            "last_trick": 1,
        }
    )
    return record


def circle_of_evenings(db, evenings: int, hands: int):
    """A circle ("Thursday Gleek", five members) of ``evenings`` evenings of
    ``hands`` hands each, written straight through the store (each checked as any
    session): (the circle, its sessions' ids). A season sheet of 300 evenings takes
    seconds to print, of 2,000 about 11 s."""
    from scorekeeper import store

    base = long_session(hands)
    circle = store.create_circle(db, "Thursday Gleek", ["Ann", "Ben", "Cat", "Dan", "Eve"])
    ids = [m.id for m in circle.members]
    seatings = [(0, 1, 2), (3, 1, 2), (0, 4, 2), (0, 1, 3), (4, 3, 2), (1, 0, 4)]
    sessions = []
    for n in range(evenings):
        seats = seatings[n % len(seatings)]
        record = copy.deepcopy(base)
        record["players"] = [circle.members[s].name for s in seats]
        record["played_on"] = f"{2000 + n // 48:04d}-{1 + (n // 4) % 12:02d}-{1 + n % 4 * 7:02d}"
        record["stake"] = {"per_counter": "1", "currency": "d"} if n % 3 else None
        if record["stake"] is None:
            del record["stake"]
        sessions.append(store.create_session(db, record, circle=(circle.id, [ids[s] for s in seats])).id)
    return circle, sessions
