"""Where things are: the project, the worked examples (tests/data/), the
artifacts the tests leave to look at (tests/artifacts/, not in git)."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
DATA = TESTS / "data"
ARTIFACTS = TESTS / "artifacts"


def load_example(name: str):
    return json.loads((DATA / name).read_text())


#: "The regulars, round two": a circle of five over three evenings at three stakes (all old pence).
ROUND_TWO_MEMBERS = ["Ann", "Ben", "Cat", "Dan", "Zoë"]
ROUND_TWO = (  # (example, date, pence a counter, member index at each seat)
    ("parlett-evening.json", "2026-12-10", "0.25", [4, 0, 1]),
    ("cotton1674-evening.json", "2026-12-12", "1", [2, 4, 3]),
    ("wits1671-evening.json", "2026-12-18", "0.5", [4, 3, 0]),
)


def round_two() -> list[tuple[dict, list[int]]]:
    """The three evenings' records (players named as the members) and the member at each seat.

    Worked by hand from the examples' totals (parlett 43, 3, −46 at ¼d; cotton1674 41,
    −44½, 3½ at 1d; wits1671 18, 8½, −26½ at ½d): Zoë is up 16½ counters but down
    24¾d = 2s 0¾d; Ann −23½ counters, −12½d; Ben −46, −11½d; Cat +41, +3s 5d; Dan +12,
    +7¾d. Zoë's hands in money: 5d, 8d, −2¼d; −45d, −13d, +22½d, −9d; +15¼d, −6¼d.
    """
    evenings = []
    for name, day, pence, seats in ROUND_TWO:
        record = load_example(name)
        record["played_on"] = day
        record["stake"] = {"per_counter": pence, "currency": "d"}
        record["players"] = [ROUND_TWO_MEMBERS[i] for i in seats]
        evenings.append((record, seats))
    return evenings
