"""A season in words: what is owed ("Ben pays Ann £1 3s 4d, for 14 Nov and 21 Nov"),
amounts in counters or money, and the plain-text ledger and statistics that
``scorekeeper season`` prints. The figures are ``rules/season.py``'s; only words here."""

from __future__ import annotations

from fractions import Fraction

from ..rules.core import format_counters, signed_counters
from ..rules.season import in_money
from ..rules.statistics import AVERAGE, COUNTS, MONEY, STATISTICS

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def amount_text(amount, currency: str | None) -> str:
    """An exact amount in ``currency``'s unit (pence for "d") as shown, or counters (None)."""
    from .money import counters, decimal_money, pence

    if currency is None:
        return counters(amount)
    return pence(amount) if currency == "d" else decimal_money(amount, currency)


def signed_amount(amount, currency: str | None) -> str:
    text = amount_text(amount, currency) if currency is not None else format_counters(amount)
    return "+" + text if amount > 0 else text


def unit_words(unit: str | None, units=(None,)) -> str:
    """What a unit is called: "old pence", "EUR", "counters" (a season with no stake at all),
    "counters, evenings without a stake" (those of a season that has staked ones)."""
    if unit is None:
        return "counters" if tuple(units) == (None,) else "counters, evenings without a stake"
    return "old pence" if unit == "d" else unit


def nearest_coin(value, unit: str | None):
    """An average as shown: to the nearest half counter, farthing or cent (the finest
    amount of each; an exact average a hand may be 7/11 of a penny)."""
    if value is None:
        return None
    finest = 2 if unit is None else 4 if unit == "d" else 100
    return Fraction(round(value * finest), finest)


def in_units(by_unit: dict, units, signed: bool = True, nearest: bool = False) -> str:
    """Amounts per unit (``rules.season.in_money``) as one cell, never added together:
    "−5¾d", "+4d · €1.20", "+4d · −3 counters"; a season with no stake at all in plain
    counters as before ("+41"); none: "–"."""
    alone = tuple(units) == (None,)
    parts = []
    for unit in units:
        value = by_unit.get(unit)
        if value is None:
            continue
        if nearest:
            value = nearest_coin(value, unit)
        if unit is None and alone:
            parts.append(signed_counters(value) if signed else format_counters(value))
        else:
            text = amount_text(value, unit)
            parts.append("+" + text if signed and value > 0 else text)
    return " · ".join(parts) or "–"


def date_words(played_on: str | None, with_year: bool = False) -> str:
    """``"2026-11-14"`` → ``"14 Nov"`` (``"14 Nov 2026"`` with the year); undated: "undated"."""
    if not played_on:
        return "undated"
    year, month, day = played_on.split("-")
    text = f"{int(day)} {MONTHS[int(month) - 1]}"
    return f"{text} {int(year)}" if with_year else text


def and_list(words) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def debt_words(debt, with_year: bool | None = None) -> str:
    """"Ben pays Ann £1 3s 4d, for 14 Nov and 21 Nov" (the evenings' dates; their keys
    where undated: a file name, or a circle's name for the evening, never a session id). ``with_year``: None puts the year in when the dates span years."""
    dates = [d for d in debt.dates if d]
    if with_year is None:
        with_year = len({d[:4] for d in dates}) > 1
    said = []
    for key, played_on in zip(debt.evenings, debt.dates):
        word = date_words(played_on, with_year) if played_on else str(key)
        if word not in said:
            said.append(word)
    text = f"{debt.payer} pays {debt.payee} {amount_text(debt.amount, debt.currency)}"
    return f"{text}, for {and_list(said)}" if said else text


def counts_text(counts: dict) -> str:
    """``{"A": 2, "K": 1}`` → ``"A×2 K"``; nothing: ``"–"``."""
    if not counts:
        return "–"
    return " ".join(k if n == 1 else f"{k}×{n}" for k, n in counts.items())


def _table(rows: list[list[str]], right_from: int = 1) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [c.ljust(w) if i < right_from else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return lines


def season_lines(s, owed=None) -> list[str]:
    """The ledger (each evening, each player's result and running total), the season's
    money and payments, what is still owed (``owed``: ``Debt``s, if given), the
    statistics and the head-to-head, as plain text lines. Whatever adds up evenings is
    in money per currency (counters only for evenings without a stake: ``in_money``)."""
    from .money import stake_label
    money = in_money(s)
    names = list(s.players)
    dated = [e.played_on for e in s.evenings if e.played_on]
    span = f", {dated[0]} to {dated[-1]}" if dated else ""
    lines = [f"Season: {len(s.evenings)} evening{'s' * (len(s.evenings) != 1)}, {s.hands} hands{span}", ""]
    if not s.evenings:
        return lines
    rows = [["Evening", "Rule book", "Hands"] + names]
    for e in s.evenings:
        cells = []
        for name in names:
            if name in e.players:
                seat = e.players.index(name)
                cell = signed_counters(e.totals[seat])
                if e.money is not None:
                    cell += f" ({signed_amount(e.money[seat], e.stake.currency)})"
                cells.append(cell)
            else:
                cells.append("·")
        rows.append([e.played_on or str(e.key), e.rulebook, str(e.hands)] + cells)
    units = money.units
    rows.append(["Season", "", str(s.hands)] + [in_units({u: n.total for u, n in money.stats[name].items()}, units)
                                                for name in names])
    lines += ["Ledger (counters; money at each evening's stake; the season in money per currency)"]
    lines += _table(rows, right_from=2) + [""]
    stakes = sorted({stake_label({"currency": e.stake.currency, "per_counter": str(e.stake.per_counter)})
                     if e.stake else stake_label(None) for e in s.evenings})
    lines.append("Stakes: " + "; ".join(stakes))
    lines.append("")
    for unit in units:
        balances = money.balances[unit]
        lines.append(f"Balances, {unit_words(unit, units)}: "
                     + ", ".join(f"{n} {signed_amount(v, unit)}" for n, v in balances.items()))
        lines.append(f"Payments over the season, {unit_words(unit, units)}:")
        lines += ([f"  {p.payer} pays {p.payee} {amount_text(p.amount, unit)}" for p in money.payments[unit]]
                  or ["  none: all square"])
    if owed is not None:
        lines += ["", "Still owed:"] + ([f"  {debt_words(d)}" for d in owed] or ["  nothing"])
    lines += ["", "Statistics"] + _table(stats_rows(s, money)) + [""]
    lines += ["Head to head (the row's net in the evenings both played)"] + _table(head_to_head_rows(s, money))
    return lines


def statistic_text(statistic, stats, nets: dict, units) -> str:
    """One player's value of one statistic (``rules/statistics.py``) as shown on the
    page, in the text and in the sheet alike: a count as it is, counts by key ("A×2 K"),
    an amount in money per currency (``nets``: unit → ``Net``, from ``in_money``), an
    average to the nearest half counter; none: "–"."""
    if statistic.shown == MONEY:
        return in_units({u: getattr(n, statistic.key) for u, n in nets.items()}, units)
    value = stats[statistic.key]
    if statistic.shown == COUNTS:
        return counts_text(value)
    if value is None:
        return "–"
    if statistic.shown == AVERAGE:
        return format_counters(nearest_half(value))
    return str(value)


def stats_rows(s, money=None) -> list[list[str]]:
    """The statistics as a table: a row per figure, a column per player: evenings and
    hands, the net and the average a hand in money per currency (``money``:
    ``in_money(s)``, made if not given), each statistic of ``rules/statistics.py`` in
    its order (``statistic_text``), then each phase's net in money per currency."""
    money = in_money(s) if money is None else money
    names = list(s.players)
    st = [s.stats[n] for n in names]
    nets = [money.stats[n] for n in names]
    units = money.units

    def net_row(label, value, nearest=False):
        return [label] + [in_units({u: value(n) for u, n in by_unit.items()}, units, nearest=nearest)
                          for by_unit in nets]

    rows = [[""] + names,
            ["Evenings"] + [str(x.evenings) for x in st],
            ["Hands"] + [str(x.hands) for x in st],
            net_row("Net", lambda n: n.total),
            net_row("Average a hand", lambda n: n.average, nearest=True)]
    for statistic in STATISTICS.shown():
        rows.append([statistic.label] + [statistic_text(statistic, x, by_unit, units) for x, by_unit in zip(st, nets)])
    phases = []
    for x in st:
        phases += [p for p in x.phases if p not in phases]
    for phase in phases:
        rows.append(net_row(f"Net: {phase}", lambda n, p=phase: n.phases.get(p)))
    return rows


def nearest_half(value):
    """An average, to the nearest half counter (the finest amount of the game), as shown
    (the text, the season sheet and the circle's Statistics page alike)."""
    if value is None:
        return None
    return Fraction(round(value * 2), 2)


def head_to_head_rows(s, money=None) -> list[list[str]]:
    """Each row's net against each column, in money per currency (``in_money``), and in how many evenings."""
    money = in_money(s) if money is None else money
    names = list(s.players)
    rows = [[""] + names]
    for a in names:
        cells = []
        for b in names:
            pair = s.head_to_head[a].get(b)
            cells.append("" if a == b else ("·" if pair is None else
                                            f"{in_units(money.head_to_head[a][b], money.units)} in {pair.evenings}"))
        rows.append([a] + cells)
    return rows


__all__ = ["amount_text", "date_words", "debt_words", "in_units", "nearest_coin", "season_lines", "statistic_text", "stats_rows",
           "head_to_head_rows", "unit_words"]
