"""A season (rules/season.py): the four worked evenings of tests/data/ played by one
circle, against figures worked out by hand below; then properties over random seasons."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import BOOKS
from scorekeeper.rules.record import settle, validate
from scorekeeper.rules.season import Net, Paid, evening_figures, in_money, owed, season, season_json
from support.data import load_example, round_two
from support.profiles import examples
from support.strategies import make_record, parlett_hand, records

H = Fraction(1, 2)

# The circle: Ann, Ben, Cat and Dan. The parlett evening's Samuel, Elizabeth and Will are
# Ann, Ben and Dan; the wits1671 evening's Tom, Dick and Harry are Cat, Dan and Ann.
EVENINGS = [  # (file, date, stake, member names in seat order)
    ("cotton1674-evening.json", "2026-11-14", {"per_counter": "0.25", "currency": "d"}, None),
    ("modern-evening.json", "2026-11-21", {"per_counter": "1", "currency": "d"}, None),
    ("parlett-evening.json", "2026-11-28", {"per_counter": "0.05", "currency": "GBP"}, ["Ann", "Ben", "Dan"]),
    ("wits1671-evening.json", "2026-12-05", None, ["Cat", "Dan", "Ann"]),
]


def evening(name, played_on, stake, names):
    record = load_example(name)
    record["played_on"] = played_on
    if stake:
        record["stake"] = stake
    assert validate(record) == []
    return evening_figures(record, name.split("-")[0], names)


@pytest.fixture(scope="module")
def figures():
    return [evening(*e) for e in EVENINGS]


@pytest.fixture(scope="module")
def circle(figures):
    return season(reversed(figures))  # any order in: date order out


def test_the_evenings_in_date_order_and_their_results(circle):
    assert [e.key for e in circle.evenings] == ["cotton1674", "modern", "parlett", "wits1671"]
    assert [e.totals for e in circle.evenings] == [
        (41, -44 - H, 3 + H),
        (-50 - H, -58, 108 + H),
        (43, 3, -46),
        (18, 8 + H, -26 - H),
    ]
    assert [e.hands for e in circle.evenings] == [4, 2, 3, 2]
    assert circle.hands == 11
    assert circle.players == ("Ann", "Ben", "Cat", "Dan")


def test_balances_running_totals_and_payments(circle):
    # Ann 41 − 50½ + 43 − 26½; Ben −44½ − 58 + 3; Cat 3½ + 108½ + 18; Dan −46 + 8½
    assert circle.balances == {"Ann": 7, "Ben": -99 - H, "Cat": 130, "Dan": -37 - H}
    assert circle.running == (
        (41, -44 - H, 3 + H, 0),
        (-9 - H, -102 - H, 112, 0),
        (33 + H, -99 - H, 112, -46),
        (7, -99 - H, 130, -37 - H),
    )
    # Ben, most down, pays Cat, most up; Dan pays Cat the rest and Ann her 7
    assert [tuple(p) for p in circle.payments] == [("Ben", "Cat", 99 + H), ("Dan", "Cat", 30 + H), ("Dan", "Ann", 7)]


def test_money_is_added_up_only_within_one_currency(circle):
    # old pence: ¼d a counter at the cotton evening, 1d at the modern one
    assert circle.money["d"] == {
        "Ann": Fraction(41, 4) - 50 - H,
        "Ben": Fraction(-89, 8) - 58,
        "Cat": Fraction(7, 8) + 108 + H,
    }
    assert circle.money["GBP"] == {"Ann": Fraction("2.15"), "Ben": Fraction("0.15"), "Dan": Fraction("-2.30")}
    assert circle.money[None] == {"Cat": 18, "Dan": 8 + H, "Ann": -26 - H}  # no stake: counters
    assert [tuple(p) for p in circle.money_payments["GBP"]] == [
        ("Dan", "Ann", Fraction("2.15")),
        ("Dan", "Ben", Fraction("0.15")),
    ]


def test_statistics_per_player(circle):
    ann, ben, cat, dan = (circle.stats[n] for n in circle.players)
    assert (ann.evenings, ann.hands, ann.won, ann.best, ann.worst, ann.total) == (4, 11, 6, 49 + H, -100, 7)
    assert ann.average == Fraction(7, 11)
    assert (ben.evenings, ben.hands, ben.won, ben.best, ben.worst) == (3, 9, 3, 22 + H, -48)
    assert (cat.evenings, cat.hands, cat.won, cat.best, cat.worst) == (3, 8, 4, 110, -12 - H)
    assert (dan.evenings, dan.hands, dan.won, dan.best, dan.worst) == (2, 5, 2, 13, -33)
    # the stock: Ben bought 15, 15, 13 (cotton), 15 (modern), 14 (parlett)
    assert [(s.bought, s.price, s.average_price) for s in (ann, ben, cat, dan)] == [
        (1, 13, 13),
        (5, 72, Fraction(72, 5)),
        (1, 12, 12),
        (3, 47, Fraction(47, 3)),
    ]
    assert [(s.ruffs, s.ruffs_by_aces) for s in (ann, ben, cat, dan)] == [(4, 0), (2, 0), (3, 0), (0, 0)]
    assert ann.gleeks == {"A": 1, "K": 1, "Q": 1, "J": 1, "10": 1} and ann.mournivals == {}
    assert (ben.gleeks, ben.mournivals) == ({"K": 2, "J": 1}, {"K": 1, "Q": 1})
    assert (cat.gleeks, cat.mournivals) == ({"A": 1, "J": 1}, {"A": 1, "K": 1})
    assert (dan.gleeks, dan.mournivals) == ({"A": 1, "Q": 1}, {})
    # Tiddy turned up is the dealer's; none under Kiss; Towser and Tumbler only at Cotton's table
    assert ann.held == {"Tiddy": 5, "Tumbler": 3}
    assert ben.held == {"Tiddy": 3, "Towser": 1, "Tumbler": 1}
    assert cat.held == {"Tiddy": 2, "Towser": 2}
    assert dan.held == {}
    assert ann.phases == {"tiddy": 12, "towser": 11, "auction": 53, "ruff": 3, "sets": -3, "tricks": -69}
    assert ben.phases == {"tiddy": -2, "towser": -8 - H, "auction": -50, "ruff": 11, "sets": -22, "tricks": -28}
    assert cat.phases == {"tiddy": 2, "towser": -2 - H, "auction": 30 + H, "ruff": 2, "sets": 32, "tricks": 66}
    assert dan.phases == {"tiddy": -12, "auction": -33 - H, "ruff": -16, "sets": -7, "tricks": 31}
    for name, s in circle.stats.items():
        assert sum(s.phases.values()) == circle.balances[name]


def test_head_to_head(circle):
    h2h = circle.head_to_head
    assert {b: tuple(v) for b, v in h2h["Ann"].items()} == {
        "Ben": (3, 9, 33 + H),
        "Cat": (3, 8, -36),
        "Dan": (2, 5, 16 + H),
    }
    assert tuple(h2h["Ben"]["Ann"]) == (3, 9, -99 - H)
    assert tuple(h2h["Ben"]["Cat"]) == (2, 6, -102 - H)
    assert tuple(h2h["Cat"]["Ben"]) == (2, 6, 112)
    assert tuple(h2h["Ben"]["Dan"]) == (1, 3, 3) and tuple(h2h["Dan"]["Ben"]) == (1, 3, -46)
    assert tuple(h2h["Cat"]["Dan"]) == (1, 2, 18) and tuple(h2h["Dan"]["Cat"]) == (1, 2, 8 + H)


def test_filters_by_date_and_rule_book(figures):
    late = season(figures, since="2026-11-21", until="2026-11-28")
    assert [e.key for e in late.evenings] == ["modern", "parlett"]
    assert late.balances == {"Ann": -50 - H + 43, "Ben": -58 + 3, "Cat": 108 + H, "Dan": -46}
    import datetime

    assert season(figures, since=datetime.date(2026, 12, 1)).players == ("Cat", "Dan", "Ann")
    cotton = season(figures, rulebook="cotton1674")
    assert cotton.balances == {"Ann": 41, "Ben": -44 - H, "Cat": 3 + H}
    assert season(figures, rulebook="modern", since="2026-12-01").evenings == ()


def test_what_is_still_owed_over_the_open_evenings(figures):
    debts = owed(figures[2:], paid=[Paid("Dan", "Ann", Fraction(1), "GBP")])
    assert [tuple(d) for d in debts] == [
        ("Dan", "Ann", Fraction("1.15"), "GBP", ("parlett",), ("2026-11-28",)),
        ("Dan", "Ben", Fraction("0.15"), "GBP", ("parlett",), ("2026-11-28",)),
        ("Ann", "Cat", 18, None, ("wits1671",), ("2026-12-05",)),
        ("Ann", "Dan", 8 + H, None, ("wits1671",), ("2026-12-05",)),
    ]
    # the two old-pence evenings together, and what each debt is for
    debts = owed(figures[:2])
    assert [tuple(d)[:4] for d in debts] == [
        ("Ben", "Cat", Fraction(553, 8), "d"),
        ("Ann", "Cat", Fraction(161, 4), "d"),
    ]
    assert debts[0].evenings == ("cotton1674", "modern") and debts[0].dates == ("2026-11-14", "2026-11-21")
    assert owed(figures, paid=[(d.payer, d.payee, d.amount, d.currency) for d in owed(figures)]) == []


def test_the_command_lines_json(circle):
    out = season_json(circle)
    assert list(out) == ["evenings", "hands", "players", "balances", "payments", "stats", "money"]
    assert (out["evenings"], out["hands"], out["players"]) == (4, 11, ["Ann", "Ben", "Cat", "Dan"])
    assert out["balances"] == {"Ann": 7, "Ben": -99.5, "Cat": 130, "Dan": -37.5}
    # the payments are money per currency (counters only for the evening without a stake)
    assert [(p["from"], p["to"], p["currency"]) for p in out["payments"]] == [
        ("Ben", "Cat", "d"),
        ("Ann", "Cat", "d"),
        ("Dan", "Ann", "GBP"),
        ("Dan", "Ben", "GBP"),
        ("Ann", "Cat", None),
        ("Ann", "Dan", None),
    ]
    assert out["payments"][0]["amount"] == Fraction(553, 8)  # 5s 9⅛d: written out exactly as 69.125
    counters = {k: v for k, v in out["stats"]["Ben"].items() if k != "money"}
    assert counters == {
        "evenings": 3,
        "hands": 9,
        "won": 3,
        "best": 22.5,
        "worst": -48,
        "bought": 5,
        "ruffs": 2,
        "gleeks": {"K": 2, "J": 1},
        "mournivals": {"K": 1, "Q": 1},
        "phases": {"tiddy": -2, "towser": -8.5, "auction": -50, "ruff": 11, "sets": -22, "tricks": -28},
    }
    assert [m["currency"] for m in out["stats"]["Ben"]["money"]] == ["d", "GBP"]
    assert [m["currency"] for m in out["money"]] == ["d", "GBP", None]


def test_the_season_in_money_never_adds_two_stakes(circle):
    money = in_money(circle)
    assert money.units == ("d", "GBP", None)  # the currencies as first met, the evenings without a stake last
    assert money.balances == {u: circle.money[u] for u in money.units}
    # the running totals, each evening in its own unit: cotton ¼d, modern 1d, parlett £0.05, wits none
    assert money.running == (
        (Fraction(41, 4), Fraction(-89, 8), Fraction(7, 8), 0),
        (Fraction(41, 4) - 50 - H, Fraction(-89, 8) - 58, Fraction(7, 8) + 108 + H, 0),
        (Fraction("2.15"), Fraction("0.15"), 0, Fraction("-2.30")),
        (-26 - H, 0, 18, 8 + H),
    )
    ann = money.stats["Ann"]
    assert list(ann) == ["d", "GBP", None]
    assert (ann["d"].evenings, ann["d"].hands, ann["d"].total) == (2, 6, Fraction(41, 4) - 50 - H)
    assert ann["d"].average == (Fraction(41, 4) - 50 - H) / 6
    assert ann[None] == Net(
        1, 2, -26 - H, Fraction(-53, 4), -H, -26, {"tiddy": 8, "auction": -4 - H, "ruff": -2, "sets": -8, "tricks": -20}
    )
    for name, nets in money.stats.items():
        for unit, net in nets.items():
            assert net.total == money.balances[unit][name] == sum(net.phases.values())
    assert money.head_to_head["Ben"]["Cat"] == {"d": Fraction(-553, 8)}
    assert money.head_to_head["Ann"]["Dan"] == {"GBP": Fraction("2.15"), None: -26 - H}


def test_a_hand_is_best_in_money_not_in_counters():
    """Round two: Zoë's biggest hand in counters (32 at ¼d, 8d) is not her best in money
    (22½ at 1d); up 16½ counters over the season, she is down 2s 0¾d."""
    s = season(evening_figures(r, r["played_on"]) for r, _ in round_two())
    zoe = in_money(s).stats["Zoë"]
    assert (s.stats["Zoë"].best, s.stats["Zoë"].worst, s.balances["Zoë"]) == (32, -45, 16 + H)
    assert list(zoe) == ["d"]
    assert (zoe["d"].best, zoe["d"].worst, zoe["d"].total) == (22 + H, -45, -24 - Fraction(3, 4))
    assert [tuple(p) for p in in_money(s).payments["d"]] == [
        ("Zoë", "Cat", Fraction(99, 4)),
        ("Ann", "Cat", 12 + H),
        ("Ben", "Dan", Fraction(31, 4)),
        ("Ben", "Cat", Fraction(15, 4)),
    ]


def test_four_aces_oks_and_disputes():
    aces = parlett_hand(
        auction={"buyer": 2, "price": 14},
        ruff={
            "winner": 0,
            "paid": [0, 4, 4],
            "calls": [[0, "open"], [1, "raise"], [2, "fold"], [0, "match"]],
            "shown": ["aces", 52, None],
        },
        sets=[["mournival:A"], [], []],
        honours={"A": 0, "K": 0, "Q": 0, "J": 1},
        agreed=[1],
        disputes=[{"seat": 2, "reason": "a Knave short"}],
    )
    record = make_record("parlett", [aces, parlett_hand(agreed=[1, 2])])
    assert validate(record) == []
    figures = evening_figures(record, "one")
    assert [(f["ruffs"], f["ruffs_by_aces"]) for f in figures.facts] == [(1, 1), (1, 0), (0, 0)]
    assert [(f["agreed"], f["disputed"]) for f in figures.facts] == [(0, 0), (2, 0), (1, 1)]
    assert figures.facts[0]["mournivals"] == (("A", 1),)


def test_every_book_gives_its_side_cards():
    """Which cards a season counts as held comes from each book's own table (cards.py)."""
    assert {b: BOOKS[b].side_cards() for b in BOOKS} == {
        "parlett": ("Tiddy",),
        "wits1671": ("Tiddy",),
        "modern": ("Tiddy",),
        "cotton1674": ("Tiddy", "Towser", "Tumbler"),
    }


def test_names_must_be_three_different_players():
    record = load_example("parlett-evening.json")
    with pytest.raises(ValueError, match="three different players"):
        evening_figures(record, "x", ["Ann", "Ann", "Ben"])


# ---------------------------------------------------------------- properties

POOL = ("Ann", "Ben", "Cat", "Dan", "Eve")


@st.composite
def evenings(draw, max_evenings=5):
    """Random valid records of any book, each with three players of the pool."""
    out = []
    for i in range(draw(st.integers(1, max_evenings))):
        record = draw(records(max_hands=4))
        record["players"] = draw(st.permutations(POOL))[:3]
        out.append((record, f"e{i}"))
    return out


SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(evenings())
def test_balances_are_the_evenings_summed_and_the_payments_settle_them(played):
    s = season(evening_figures(r, k) for r, k in played)
    expected = {}
    for record in (r for r, _ in played if r["hands"]):  # an evening with no hand counts for nothing
        for name, balance in zip(record["players"], settle(record).balances):
            expected[name] = expected.get(name, 0) + balance
    assert s.balances == expected
    assert len(s.payments) <= max(len(s.players) - 1, 0)
    left = dict(s.balances)
    for payment in s.payments:
        assert left[payment.payer] < 0 < left[payment.payee] and payment.amount > 0
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    assert all(v == 0 for v in left.values())
    assert s.running[-1:] == ((tuple(s.balances[n] for n in s.players),) if s.evenings else ())
    for name, st_ in s.stats.items():
        assert sum(st_.phases.values()) == s.balances[name] == st_.total


@SETTINGS
@given(evenings())
def test_money_only_within_one_currency(played):
    s = season(evening_figures(r, k) for r, k in played)
    for currency, balances in s.money.items():
        expected = {}
        for record in (r for r, _ in played if r["hands"]):  # an evening with no hand counts for nothing
            stake = record.get("stake")
            if (stake["currency"] if stake else None) != currency:
                continue
            each = Fraction(stake["per_counter"]) if stake else 1
            for name, balance in zip(record["players"], settle(record).balances):
                expected[name] = expected.get(name, 0) + balance * each
        assert balances == expected
        assert sum(balances.values()) == 0


def _renamed(s, rename):
    return (
        {rename[n]: v for n, v in s.balances.items()},
        {
            rename[n]: (
                st_.evenings,
                st_.hands,
                st_.won,
                st_.best,
                st_.worst,
                st_.bought,
                st_.price,
                st_.ruffs,
                st_.gleeks,
                st_.mournivals,
                st_.held,
                st_.phases,
            )
            for n, st_ in s.stats.items()
        },
    )


@SETTINGS
@given(evenings(), st.permutations(("Zed", "Yan", "Xia", "Wim", "Val")))
def test_renaming_members_changes_no_figure(played, new):
    rename = dict(zip(POOL, new))
    plain = season(evening_figures(r, k) for r, k in played)
    renamed = season(evening_figures(r, k, [rename[n] for n in r["players"]]) for r, k in played)
    assert _renamed(plain, rename) == _renamed(renamed, {n: n for n in renamed.players})
    assert [tuple(rename[n] for n in p[:2]) + (p[2],) for p in plain.payments] == [tuple(p) for p in renamed.payments]


@SETTINGS
@given(evenings())
def test_merging_two_names_adds_their_figures(played):
    """ "Anne" and "Ann" are one member: wherever Eve and Dan never sat together, Dan's
    figures become the sum of both."""
    played = [(r, k) for r, k in played if not {"Dan", "Eve"} <= set(r["players"])]
    if not played:
        return
    apart = season(evening_figures(r, k) for r, k in played)
    merged = season(evening_figures(r, k, ["Dan" if n == "Eve" else n for n in r["players"]]) for r, k in played)
    both = [apart.stats[n] for n in ("Dan", "Eve") if n in apart.stats]
    if not both:
        return
    dan = merged.stats["Dan"]
    assert dan.evenings == sum(s.evenings for s in both) and dan.hands == sum(s.hands for s in both)
    assert dan.won == sum(s.won for s in both) and dan.total == sum(s.total for s in both)
    assert merged.balances["Dan"] == sum(apart.balances.get(n, 0) for n in ("Dan", "Eve"))
    for name in merged.players:
        if name != "Dan":
            assert merged.balances[name] == apart.balances[name]


def test_an_evening_is_unchanged_by_settling_it_again():
    record = copy.deepcopy(load_example("cotton1674-evening.json"))
    assert evening_figures(record, "a") == evening_figures(record, "a", settlement=settle(record))


def test_the_figures_pickle(figures, circle):
    """A circle caches an evening's figures; the command line gets them from worker processes."""
    import pickle

    assert pickle.loads(pickle.dumps(figures)) == figures
    assert pickle.loads(pickle.dumps(owed(figures))) == owed(figures)
    assert pickle.loads(pickle.dumps(circle.stats)) == circle.stats
