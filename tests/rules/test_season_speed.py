"""season() adds each player's evenings column by column and each currency's money
rate by rate (the faster path): on generated seasons, every figure is the one
the old path (evening by evening, a ``_Tally`` per player, kept here as it was)
gives, the same exact value of the same type."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Iterable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.core import RANKS, fraction
from scorekeeper.rules.season import (
    EveningFigures,
    HeadToHead,
    Season,
    Stats,
    _date_text,
    _settle_names,
    chosen_evenings,
    evening_figures,
    owed,
    season,
)
from support.profiles import examples
from support.strategies import records

POOL = ("Ann", "Ben", "Cat", "Dan", "Eve")
STAKES = st.sampled_from(
    [
        None,
        {"per_counter": "0.25", "currency": "d"},
        {"per_counter": "1", "currency": "d"},
        {"per_counter": "0.05", "currency": "GBP"},
        {"per_counter": "0.1", "currency": "GBP"},
        {"per_counter": "1/3", "currency": "d"},
    ]
)


class _Tally:
    """One player's season while it is added up."""

    __slots__ = (
        "evenings",
        "hands",
        "won",
        "best",
        "worst",
        "total",
        "bought",
        "price",
        "ruffs",
        "aces",
        "gleeks",
        "mournivals",
        "held",
        "agreed",
        "disputed",
        "phases",
    )

    def __init__(self):
        self.evenings = self.hands = self.won = self.bought = self.price = 0
        self.ruffs = self.aces = self.agreed = self.disputed = 0
        self.best = self.worst = None
        self.total = 0
        self.gleeks, self.mournivals, self.held, self.phases = {}, {}, {}, {}

    def add(self, evening: EveningFigures, seat: int) -> None:
        f = evening.facts[seat]
        self.evenings += 1
        self.hands += evening.hands
        self.total += evening.totals[seat]
        self.won += f["won"]
        if f["best"] is not None and (self.best is None or f["best"] > self.best):
            self.best = f["best"]
        if f["worst"] is not None and (self.worst is None or f["worst"] < self.worst):
            self.worst = f["worst"]
        self.bought += f["bought"]
        self.price += f["price"]
        self.ruffs += f["ruffs"]
        self.aces += f["ruffs_by_aces"]
        self.agreed += f["agreed"]
        self.disputed += f["disputed"]
        for counter, pairs in ((self.gleeks, f["gleeks"]), (self.mournivals, f["mournivals"]), (self.held, f["held"])):
            for k, n in pairs:
                counter[k] = counter.get(k, 0) + n
        phases = self.phases
        for phase, amounts in evening.phases:
            phases[phase] = phases.get(phase, 0) + amounts[seat]

    def stats(self) -> Stats:
        average = fraction(self.total, self.hands) if self.hands else None
        average_price = fraction(self.price, self.bought) if self.bought else None
        return Stats(
            self.evenings,
            self.hands,
            self.total,
            average,
            dict(self.phases),
            {
                "won": self.won,
                "best": self.best,
                "worst": self.worst,
                "bought": self.bought,
                "price": self.price,
                "ruffs": self.ruffs,
                "ruffs_by_aces": self.aces,
                "gleeks": {r: self.gleeks[r] for r in RANKS if r in self.gleeks},
                "mournivals": {r: self.mournivals[r] for r in RANKS if r in self.mournivals},
                "held": dict(self.held),
                "agreed": self.agreed,
                "disputed": self.disputed,
                "average_price": average_price,
            },
        )


def season_one_at_a_time(
    evenings: Iterable[EveningFigures], since=None, until=None, rulebook: str | None = None
) -> Season:
    """rules.season as it was before the column-by-column path (commit e19043d), evening by evening."""
    since, until = _date_text(since), _date_text(until)
    chosen = chosen_evenings(evenings, since, until, rulebook)  # the choice is not what changed
    players: dict[str, int] = {}  # name → index, in order of first appearance
    balances: dict = {}
    money: dict = {}
    tallies: dict[str, _Tally] = {}
    pairs: dict = {}  # (a, b) → [evenings, hands, a's net]
    running = []
    for e in chosen:
        names = e.players
        for name in names:
            if name not in players:
                players[name] = len(players)
                balances[name] = 0
                tallies[name] = _Tally()
        currency = e.stake.currency if e.stake is not None else None
        in_currency = money.setdefault(currency, {})
        values = e.money if e.stake is not None else e.totals
        for seat, name in enumerate(names):
            balances[name] += e.totals[seat]
            in_currency[name] = in_currency.get(name, 0) + values[seat]
            tallies[name].add(e, seat)
            for other_seat, other in enumerate(names):
                if other_seat != seat:
                    pair = pairs.get((name, other))
                    if pair is None:
                        pair = pairs[name, other] = [0, 0, 0]
                    pair[0] += 1
                    pair[1] += e.hands
                    pair[2] += e.totals[seat]
        running.append(tuple(balances.get(n, 0) for n in players))
    width = len(players)
    running = tuple(r + (0,) * (width - len(r)) for r in running)
    head_to_head: dict = {name: {} for name in players}
    for (a, b), (count, hands, net) in pairs.items():
        head_to_head[a][b] = HeadToHead(count, hands, net)
    for name in players:
        head_to_head[name] = {b: head_to_head[name][b] for b in players if b in head_to_head[name]}
    return Season(
        evenings=tuple(chosen),
        players=tuple(players),
        balances=balances,
        running=running,
        money=money,
        money_payments={c: _settle_names(b) for c, b in money.items()},
        payments=_settle_names(balances),
        stats={name: tallies[name].stats() for name in players},
        head_to_head=head_to_head,
        since=since,
        until=until,
        rulebook=rulebook,
    )


def shape(value):
    """A value with each part's type beside it: 2 and Fraction(2) are equal, not the same."""
    if isinstance(value, dict):
        return ("dict", tuple((k, shape(v)) for k, v in value.items()))
    if dataclasses.is_dataclass(value):  # a record of statistics: each field, part by part
        return (type(value).__name__, tuple((f.name, shape(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(shape(v) for v in value))
    return (type(value).__name__, value)


@st.composite
def played_evenings(draw):
    out = []
    for i in range(draw(st.integers(1, 7))):
        record = draw(records(max_hands=4))
        record["players"] = draw(st.permutations(POOL))[:3]
        stake = draw(STAKES)
        if stake:
            record["stake"] = stake
        if draw(st.booleans()):
            record["played_on"] = f"2026-{draw(st.integers(1, 12)):02d}-{draw(st.integers(1, 28)):02d}"
        out.append(evening_figures(record, f"e{i}"))
    return out


def with_halves(figures: EveningFigures, seat: int) -> EveningFigures:
    """The same evening with half counters moved between two seats (totals still sum to
    nothing): the halves path of every sum."""
    totals = list(figures.totals)
    totals[seat] += Fraction(1, 2)
    totals[(seat + 1) % 3] -= Fraction(1, 2)
    money = None if figures.stake is None else tuple(fraction(t) * figures.stake.per_counter for t in totals)
    return EveningFigures(
        *[dict(totals=tuple(totals), money=money).get(f, v) for f, v in zip(EveningFigures._fields, figures)]
    )


SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    played_evenings(),
    st.lists(st.integers(0, 2), max_size=3),
    st.sampled_from([None, "2026-03-01"]),
    st.sampled_from([None, "2026-09-30"]),
    st.sampled_from([None, "parlett", "modern"]),
)
def test_every_figure_is_the_one_added_evening_by_evening(evenings, halved, since, until, rulebook):
    evenings = [
        with_halves(e, seat) if n < len(halved) and (seat := halved[n]) is not None else e
        for n, e in enumerate(evenings)
    ]
    new, old = season(evenings, since, until, rulebook), season_one_at_a_time(evenings, since, until, rulebook)
    assert new == old
    for field in Season._fields:
        assert shape(getattr(new, field)) == shape(getattr(old, field)), field
    assert owed(new.evenings) == owed(old.evenings)
