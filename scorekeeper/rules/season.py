"""A season: many evenings of the same players added up (a circle's "regulars").

Pure, like the rest of ``rules/``: plain data in, exact figures out (no Flask, no
SQL, no I/O). Two steps, so that a circle recomputes only the evening that changed:

``evening_figures(record, key, names=None) -> EveningFigures``
    One valid ``gleek-session/1`` record (``validate`` it first), settled once
    (``record.settle``), reduced to everything a season needs of it. ``key`` names
    the evening (a file name; a circle's session id, which it replaces by the
    evening's name before anything is printed: the id is the scorer's link); ``names`` gives the three seats' member
    names (default: the record's trimmed names). Records, never changed, and
    picklable: the unit a circle caches per (session, version).

``season(evenings, since=None, until=None, rulebook=None) -> Season``
    Cheap aggregation of ``EveningFigures``: the evenings with a hand saved
    (``counted``: one with none counts for nothing) in date order (undated
    ones last, in the order given), filtered by ``since``/``until`` (``"YYYY-MM-DD"``
    or a ``datetime.date``, inclusive; an undated evening is outside any range) and
    ``rulebook``; players by name in order of first appearance; balances, running
    totals, money per currency, payments, statistics, head-to-head.

``owed(open_evenings, paid=()) -> list[Debt]``
    What is still owed over the open (unsettled) evenings, per currency in the
    fewest payments, each saying which evenings it is for. ``paid``: payments
    already made towards them (``Paid``), taken off first.

``in_money(season) -> SeasonMoney``
    The season's figures in money per currency (counters only for the evenings without
    a stake): what every page, sheet and text shows wherever evenings are added up.

``season_json(season) -> dict``
    The JSON of ``scorekeeper season FILE… --json``: ``evenings`` and ``hands``
    (counts), ``players``, ``balances`` (name → counters), ``payments``
    (``{"from", "to", "amount", "currency"}``, money per currency), ``stats`` (name →
    ``evenings``, ``hands``, ``won``, ``best``, ``worst``, ``bought``, ``ruffs``,
    ``gleeks`` and ``mournivals`` (rank → how many), ``phases`` (phase → net counters),
    ``money`` (per currency)) and ``money`` (per currency: the balances); docs/season.md.

Amounts are exact: counters as ints or ``Fraction`` (halves), money as ``Fraction``
of the currency's unit (pence for ``"d"``, else the unit of the code: 1.05 EUR).
Money is added up only within one currency; an evening without a stake counts in
counters only (currency ``None`` in ``Season.money`` and ``Debt``). The figures are
defined in docs/season.md.

Payments: ``core.fewest_payments`` over every player of the season (the largest
debtor pays the largest creditor, and so on): at most one fewer than the players,
each from a player who is down to one who is up, settling the balances exactly.

What needs a rule (who bought, what a set is, which cards are Tiddy, Towser and
Tumbler, a ruff won by four Aces) comes from the book: ``RuleBook.season_facts``.
Each statistic (hands won, stocks bought, gleeks …) is declared once, in
``rules/statistics.py``: the figures, the pages, the text and the JSON loop over it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from . import BOOKS
from .core import as_number, fewest_payments, fraction
from .statistics import COUNT, COUNTS, STATISTICS, Hand, of_evening, of_season
from .record import settle


class Stake(NamedTuple):
    """What one counter is worth: ``currency`` ("d" or a code) and ``per_counter`` (a Fraction)."""

    currency: str
    per_counter: Fraction


@dataclass(frozen=True, slots=True)
class Stats:
    """A player's season (see docs/season.md): ``evenings`` and ``hands`` played, the
    ``total`` and its ``average`` a hand (exact), ``phases`` (phase → net counters),
    and ``values``: each statistic's value by its key (``rules/statistics.py``; counts
    by key as dicts), also read as ``stats["won"]`` or ``stats.won``."""

    evenings: int
    hands: int
    total: object
    average: object
    phases: dict
    values: dict

    def __getattr__(self, key: str):
        if key.startswith("_"):  # pickle and copy asking for __setstate__, __deepcopy__ …: no statistic
            raise AttributeError(key)
        try:
            return object.__getattribute__(self, "values")[key]
        except KeyError:
            raise AttributeError(f"Stats has no statistic {key!r}") from None

    def __getitem__(self, key: str):
        return self.values[key]


class EveningFigures(NamedTuple):
    """One evening, reduced to what a season needs (see ``evening_figures``).

    - ``key``: the caller's name for it; ``played_on``: ``"YYYY-MM-DD"`` or None; ``title``;
    - ``rulebook``; ``players``: three names in seat order; ``stake``: ``Stake`` or None;
    - ``hands``: how many; ``totals``: three exact amounts (counters, summing to 0);
    - ``money``: three exact money values (``totals`` × the stake) or None;
    - ``phases``: ``(phase, (a, b, c))`` in the book's order, each phase's net per seat;
    - ``facts``: what each seat did, three dicts: each statistic's value by its key
      (``rules/statistics.py``; counts by key as ``(key, count)`` pairs). Plain dicts:
      a cold season page reads 1,000 evenings back from the database (pickle builds a
      dict with no Python code; a record class around each cost a third of the page).
    """

    key: str
    played_on: str | None
    title: str | None
    rulebook: str
    players: tuple
    stake: Stake | None
    hands: int
    totals: tuple
    money: tuple | None
    phases: tuple
    facts: tuple

    def total_of(self, name: str):
        return self.totals[self.players.index(name)]


class SeasonPayment(NamedTuple):
    """One line of the season's payments: ``payer`` pays ``payee`` ``amount`` (names)."""

    payer: str
    payee: str
    amount: object


class HeadToHead(NamedTuple):
    """Two players' evenings together: how many, and ``net``, the first player's total in them."""

    evenings: int
    hands: int
    net: object


class Season(NamedTuple):
    """A season added up (see ``season``).

    - ``evenings``: ``EveningFigures`` in date order; ``players``: names, first appearance first;
    - ``balances``: name → counters over every evening (with a stake or not);
    - ``running``: per evening, a tuple aligned with ``players``: each one's total so far;
    - ``money``: currency (None: counters of evenings without a stake) → name → amount;
    - ``money_payments``: currency → the fewest ``SeasonPayment`` settling ``money[currency]``;
    - ``payments``: the fewest ``SeasonPayment`` settling ``balances`` (counters);
    - ``stats``: name → ``Stats``; ``head_to_head``: name → other name → ``HeadToHead``;
    - ``since``, ``until``, ``rulebook``: the filter it was made with.
    """

    evenings: tuple
    players: tuple
    balances: dict
    running: tuple
    money: dict
    money_payments: dict
    payments: list
    stats: dict
    head_to_head: dict
    since: str | None
    until: str | None
    rulebook: str | None

    @property
    def hands(self) -> int:
        return sum(e.hands for e in self.evenings)


class Paid(NamedTuple):
    """A payment already made towards open evenings: ``amount`` in ``currency``'s unit
    (counters when ``currency`` is None)."""

    payer: str
    payee: str
    amount: object
    currency: str | None


class Debt(NamedTuple):
    """What is still owed: ``payer`` pays ``payee`` ``amount`` (``currency``'s unit, or counters
    when None), for ``evenings`` (their keys, in date order) played on ``dates``."""

    payer: str
    payee: str
    amount: object
    currency: str | None
    evenings: tuple
    dates: tuple


# ---------------------------------------------------------------- one evening


def evening_figures(record: dict, key: str, names: Sequence[str] | None = None, settlement=None) -> EveningFigures:
    """One valid record reduced to a season's unit (see the module's docstring).
    ``settlement``: the record's ``record.settle`` if the caller has it already."""
    book = BOOKS[record["rulebook"]]
    options = record["options"]
    players = tuple(n.strip() for n in (record["players"] if names is None else names))
    if len(players) != 3 or len(set(players)) != 3:
        raise ValueError(f"an evening has three different players, not {list(players)}")
    if settlement is None:
        settlement = settle(record)
    stake = record.get("stake")
    if stake:
        stake = Stake(stake["currency"], Fraction(stake["per_counter"]))
    totals = tuple(settlement.balances)
    money = tuple(fraction(t) * stake.per_counter for t in totals) if stake else None
    hands = (
        Hand(hand, result.total, book.season_facts(hand, options))
        for result, hand in zip(settlement.hands, record["hands"])
    )
    facts = tuple(of_evening(book, hands))
    phases = tuple((p, tuple(t)) for p, t in settlement.phase_totals().items())
    return EveningFigures(
        key,
        record.get("played_on"),
        record.get("title"),
        book.id,
        players,
        stake,
        len(settlement.hands),
        totals,
        money,
        phases,
        facts,
    )


# ---------------------------------------------------------------- a season


@dataclass(slots=True)
class _Tally:
    """Evenings being added up: a pair's evenings together (``total``: the first one's
    net), or a player's evenings at one rate (with his best and worst hand and each
    phase's net), in counters."""

    evenings: int = 0
    hands: int = 0
    total: object = 0
    best: object = None
    worst: object = None
    phases: dict = field(default_factory=dict)


def _date_text(value) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else value.isoformat()


def _in_date_order(evenings: Iterable[EveningFigures]) -> list:
    return sorted(evenings, key=lambda e: (e.played_on is None, e.played_on or ""))


def _settle_names(balances: dict) -> list:
    """``fewest_payments`` over named balances: ``SeasonPayment`` lines."""
    names = list(balances)
    return [
        SeasonPayment(names[p.payer], names[p.payee], p.amount) for p in fewest_payments([balances[n] for n in names])
    ]


def _stats_of(played: list) -> Stats:
    """One player's ``Stats`` from the evenings played, ``(EveningFigures, seat)`` in
    date order: each statistic added up as it says (``statistics.of_season``), in the
    evenings' order."""
    hands = sum(e.hands for e, _ in played)
    total = sum(e.totals[seat] for e, seat in played)
    phases: dict = {}
    for e, seat in played:
        for phase, amounts in e.phases:
            phases[phase] = phases.get(phase, 0) + amounts[seat]
    values = of_season(e.facts[seat] for e, seat in played)
    return Stats(len(played), hands, total, fraction(total, hands) if hands else None, phases, values)


def _money_of(staked: dict) -> dict:
    """currency → name → amount, from currency → name → rate → counters won (a rate:
    the stake's per_counter as (numerator, denominator); None: counters): each rate's
    counters summed first, then times the rate (exact: the same amount as adding each
    evening's money, with one Fraction product per rate, not per evening)."""
    money = {}
    for currency, by_name in staked.items():
        if currency is None:
            money[currency] = {name: rates[None] for name, rates in by_name.items()}
            continue
        money[currency] = {
            name: sum(fraction(*rate) * fraction(counters) for rate, counters in rates.items())
            for name, rates in by_name.items()
        }
    return money


def counted(evenings: Iterable[EveningFigures]) -> list[EveningFigures]:
    """The evenings a season counts: those with a hand saved. An evening with no hand
    (begun and never played, or a club night's table drawn and not played) counts for
    nothing: no evening played in anyone's figures, nothing owed, nothing to settle."""
    return [e for e in evenings if e.hands]


def chosen_evenings(
    evenings: Iterable[EveningFigures], since=None, until=None, rulebook: str | None = None
) -> list[EveningFigures]:
    """The evenings counted (``counted``) in date order, within the date range
    (inclusive; undated ones left out when a range is given) and of ``rulebook`` if given."""
    since, until = _date_text(since), _date_text(until)
    chosen = []
    for e in _in_date_order(counted(evenings)):
        if rulebook is not None and e.rulebook != rulebook:
            continue
        if (since is not None or until is not None) and e.played_on is None:
            continue
        if since is not None and e.played_on < since:
            continue
        if until is not None and e.played_on > until:
            continue
        chosen.append(e)
    return chosen


def season(evenings: Iterable[EveningFigures], since=None, until=None, rulebook: str | None = None) -> Season:
    """The evenings added up (see the module's docstring)."""
    since, until = _date_text(since), _date_text(until)
    chosen = chosen_evenings(evenings, since, until, rulebook)
    players: dict[str, int] = {}  # name → index, in order of first appearance
    balances: dict = {}
    staked: dict = {}  # currency → name → rate (None: counters) → counters (see _money_of)
    played: dict[str, list] = {}  # name → [(evening, seat)]
    pairs: dict = {}  # (a, b) → _Tally of a's evenings with b
    running = []
    for e in chosen:
        names = e.players
        for name in names:
            if name not in players:
                players[name] = len(players)
                balances[name] = 0
                played[name] = []
        stake = e.stake
        if stake is None:
            currency = rate = None
        else:  # a rate keyed by its two ints: a Fraction's own hash is ~20× slower
            currency, per_counter = stake
            rate = (per_counter.numerator, per_counter.denominator)
        in_currency = staked.get(currency)
        if in_currency is None:
            in_currency = staked[currency] = {}
        totals = e.totals
        for seat, name in enumerate(names):
            total = totals[seat]
            balances[name] += total
            rates = in_currency.get(name)
            if rates is None:
                rates = in_currency[name] = {}
            rates[rate] = rates.get(rate, 0) + total
            played[name].append((e, seat))
            for other_seat, other in enumerate(names):
                if other_seat != seat:
                    pair = pairs.get((name, other))
                    if pair is None:
                        pair = pairs[name, other] = _Tally()
                    pair.evenings += 1
                    pair.hands += e.hands
                    pair.total += total
        running.append(tuple(balances.get(n, 0) for n in players))
    width = len(players)
    running = tuple(r + (0,) * (width - len(r)) for r in running)
    head_to_head: dict = {name: {} for name in players}
    for (a, b), pair in pairs.items():
        head_to_head[a][b] = HeadToHead(pair.evenings, pair.hands, pair.total)
    for name in players:
        head_to_head[name] = {b: head_to_head[name][b] for b in players if b in head_to_head[name]}
    money = _money_of(staked)
    return Season(
        evenings=tuple(chosen),
        players=tuple(players),
        balances=balances,
        running=running,
        money=money,
        money_payments={c: _settle_names(b) for c, b in money.items()},
        payments=_settle_names(balances),
        stats={name: _stats_of(played[name]) for name in players},
        head_to_head=head_to_head,
        since=since,
        until=until,
        rulebook=rulebook,
    )


# ---------------------------------------------------------------- the season in money


class Net(NamedTuple):
    """A player's season in one unit (see ``in_money``): evenings and hands played in it, the
    ``total``, the ``average`` a hand (exact), the ``best`` and ``worst`` hand, and
    ``phases`` (phase → net), each amount in that unit."""

    evenings: int
    hands: int
    total: object
    average: object
    best: object
    worst: object
    phases: dict


class SeasonMoney(NamedTuple):
    """A season's figures in money (see ``in_money``), each per **unit**: a currency
    (``"d"``, ``"EUR"``, …) for the evenings with a stake in it, ``None`` (counters) for
    the evenings without a stake. Nothing is ever added across two units.

    - ``units``: the currencies in the order first met, then None if any evening had no stake;
    - ``balances``: unit → name → amount (``Season.money``);
    - ``payments``: unit → the fewest ``SeasonPayment`` settling them (``Season.money_payments``);
    - ``running``: per evening, a tuple aligned with ``players``: each one's total so far in
      that evening's unit (0 before his first evening in it);
    - ``stats``: name → unit → ``Net``;
    - ``head_to_head``: name → other name → unit → the first one's net in the evenings both played.
    """

    units: tuple
    balances: dict
    payments: dict
    running: tuple
    stats: dict
    head_to_head: dict


def unit_of(evening: EveningFigures) -> str | None:
    """What an evening's amounts are added up in: its stake's currency, or None (counters)."""
    return evening.stake.currency if evening.stake is not None else None


def _times(amount, rate):
    """Counters at a rate ((numerator, denominator) of the stake; None: counters) in its unit."""
    return amount if rate is None else fraction(*rate) * amount


def in_money(s: Season) -> SeasonMoney:
    """The season's figures in money (``SeasonMoney``): each evening's counters times its
    stake, added up only within one currency; evenings without a stake in counters, apart.
    Each player's counters are summed rate by rate first, then times the rate, as
    ``Season.money`` is (the same exact amounts). Best and worst hand: the highest and
    lowest hand in money (a stake is above 0: an evening's best hand in counters is its
    best in money)."""
    players = s.players
    place = {name: i for i, name in enumerate(players)}
    so_far: dict = {}  # unit → [each player's total so far]
    running = []
    groups: dict = {}  # (name, unit) → rate → _Tally
    pairs: dict = {}  # (a, b) → unit → rate → a's net in counters
    for e in s.evenings:
        if e.stake is None:
            unit = rate = None
        else:
            unit, per_counter = e.stake
            rate = (per_counter.numerator, per_counter.denominator)
        row = so_far.get(unit)
        if row is None:
            row = so_far[unit] = [0] * len(players)
        values = e.totals if e.money is None else e.money
        for seat, name in enumerate(e.players):
            row[place[name]] += values[seat]
            total, facts = e.totals[seat], e.facts[seat]
            group = groups.setdefault((name, unit), {}).get(rate)
            if group is None:
                group = groups[name, unit][rate] = _Tally()
            group.evenings += 1
            group.hands += e.hands
            group.total += total
            best, worst = facts["best"], facts["worst"]
            if best is not None and (group.best is None or best > group.best):
                group.best = best
            if worst is not None and (group.worst is None or worst < group.worst):
                group.worst = worst
            phases = group.phases
            for phase, amounts in e.phases:
                phases[phase] = phases.get(phase, 0) + amounts[seat]
            for other_seat, other in enumerate(e.players):
                if other_seat != seat:
                    by_rate = pairs.setdefault((name, other), {}).setdefault(unit, {})
                    by_rate[rate] = by_rate.get(rate, 0) + total
        running.append(tuple(row))
    units = [u for u in so_far if u is not None] + ([None] if None in so_far else [])
    stats: dict = {name: {} for name in players}
    for name in players:
        for unit in units:
            by_rate = groups.get((name, unit))
            if by_rate is None:
                continue
            evenings = hands = total = 0
            best = worst = None
            phases: dict = {}
            for rate, group in by_rate.items():
                evenings += group.evenings
                hands += group.hands
                total += _times(group.total, rate)
                if group.best is not None:
                    high = _times(group.best, rate)
                    best = high if best is None or high > best else best
                if group.worst is not None:
                    low = _times(group.worst, rate)
                    worst = low if worst is None or low < worst else worst
                for phase, net in group.phases.items():
                    phases[phase] = phases.get(phase, 0) + _times(net, rate)
            stats[name][unit] = Net(
                evenings, hands, total, fraction(total, hands) if hands else None, best, worst, phases
            )
    head_to_head: dict = {name: {} for name in players}
    for a in players:
        for b in players:
            by_unit = pairs.get((a, b))
            if by_unit is not None:
                head_to_head[a][b] = {
                    unit: sum(_times(net, rate) for rate, net in by_unit[unit].items())
                    for unit in units
                    if unit in by_unit
                }
    return SeasonMoney(
        tuple(units),
        {u: s.money[u] for u in units},
        {u: s.money_payments[u] for u in units},
        tuple(running),
        stats,
        head_to_head,
    )


# ---------------------------------------------------------------- what is still owed


def owed(open_evenings: Iterable[EveningFigures], paid: Iterable = ()) -> list:
    """What is still owed over the open evenings, per currency (evenings without a
    stake in counters, currency None), in the fewest payments; ``paid`` (``Paid``, or
    ``(payer, payee, amount, currency)``) already made towards them is taken off first.
    Each ``Debt`` is for the open evenings of its currency in which its payer or its
    payee played. Currencies in order of first appearance; within one, largest first."""
    groups: dict = {}  # currency → (name → amount, [evenings])
    for e in _in_date_order(open_evenings):
        currency = e.stake.currency if e.stake is not None else None
        balances, evenings = groups.setdefault(currency, ({}, []))
        evenings.append(e)
        values = e.money if e.stake is not None else e.totals
        for seat, name in enumerate(e.players):
            balances[name] = balances.get(name, 0) + values[seat]
    for payer, payee, amount, currency in paid:
        balances, _ = groups.setdefault(currency, ({}, []))
        balances[payer] = balances.get(payer, 0) + amount  # a debtor who has paid is less down …
        balances[payee] = balances.get(payee, 0) - amount  # … his creditor less up
    debts = []
    for currency, (balances, evenings) in groups.items():
        for payment in _settle_names(balances):
            mine = [e for e in evenings if payment.payer in e.players or payment.payee in e.players]
            debts.append(
                Debt(
                    payment.payer,
                    payment.payee,
                    payment.amount,
                    currency,
                    tuple(e.key for e in mine),
                    tuple(e.played_on for e in mine),
                )
            )
    return debts


# ---------------------------------------------------------------- the command line's JSON


def _number(amount):
    """A JSON number for an exact amount (``core.as_number``)."""
    return as_number(amount)


def _money_number(amount):
    """A JSON number for an exact amount of money: whole amounts as ints, else the
    Fraction itself, which ``record.to_json_text`` writes out as its exact decimal
    (a stake is a decimal, so every amount of money ends: 1.3 pence, never 1.29999…)."""
    if type(amount) is int:
        return amount
    amount = fraction(amount)
    return amount.numerator if amount.denominator == 1 else amount


def _json_value(statistic, value):
    """A statistic's value in the JSON: a count as it is, counts by key as an object,
    an amount as a JSON number (None: null)."""
    if value is None or statistic.shown in (COUNT, COUNTS):
        return value
    return _number(value)


def season_json(s: Season) -> dict:
    """``scorekeeper season --json`` (see the module's docstring and docs/season.md)."""
    money = in_money(s)
    stats = {}
    for name, st in s.stats.items():
        nets = money.stats[name]
        stats[name] = {
            "evenings": st.evenings,
            "hands": st.hands,
            **{
                statistic.key: _json_value(statistic, st[statistic.key])
                for statistic in STATISTICS
                if statistic.in_json
            },
            "phases": {p: _number(v) for p, v in st.phases.items()},
            "money": [
                {
                    "currency": unit,
                    "evenings": net.evenings,
                    "hands": net.hands,
                    "net": _money_number(net.total),
                    "best": None if net.best is None else _money_number(net.best),
                    "worst": None if net.worst is None else _money_number(net.worst),
                    "phases": {p: _money_number(v) for p, v in net.phases.items()},
                }
                for unit, net in nets.items()
            ],
        }
    return {
        "evenings": len(s.evenings),
        "hands": s.hands,
        "players": list(s.players),
        "balances": {n: _number(b) for n, b in s.balances.items()},
        "payments": [
            {"from": p.payer, "to": p.payee, "amount": _money_number(p.amount), "currency": unit}
            for unit in money.units
            for p in money.payments[unit]
        ],
        "stats": stats,
        "money": [
            {"currency": unit, "balances": {n: _money_number(v) for n, v in money.balances[unit].items()}}
            for unit in money.units
        ],
    }


__all__ = [
    "Debt",
    "EveningFigures",
    "HeadToHead",
    "Net",
    "Paid",
    "Season",
    "SeasonMoney",
    "SeasonPayment",
    "Stake",
    "Stats",
    "counted",
    "evening_figures",
    "in_money",
    "owed",
    "season",
    "season_json",
    "unit_of",
]
