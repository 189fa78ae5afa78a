"""A season in words: what is owed ("Ben pays Ann £1 3s 4d, for 14 Nov and 21 Nov"),
and the plain-text ledger and statistics that ``scorekeeper season`` prints. The
figures are ``rules/season.py``'s; every amount, date and statistics row is spelled
by ``wording``, as the pages and the sheets spell it."""

from __future__ import annotations

from ..rules.core import signed_counters
from ..rules.season import in_money
from .wording import (
    amount_text,
    and_list,
    date_words,
    head_to_head_rows,
    in_units,
    signed_amount,
    stake_label,
    stats_rows,
    unit_words,
)


def debt_words(debt, with_year: bool | None = None) -> str:
    """ "Ben pays Ann £1 3s 4d, for 14 Nov and 21 Nov" (the evenings' dates; their keys
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
    rows.append(
        ["Season", "", str(s.hands)]
        + [in_units({u: n.total for u, n in money.stats[name].items()}, units) for name in names]
    )
    lines += ["Ledger (counters; money at each evening's stake; the season in money per currency)"]
    lines += _table(rows, right_from=2) + [""]
    stakes = sorted(
        {
            stake_label({"currency": e.stake.currency, "per_counter": str(e.stake.per_counter)})
            if e.stake
            else stake_label(None)
            for e in s.evenings
        }
    )
    lines.append("Stakes: " + "; ".join(stakes))
    lines.append("")
    for unit in units:
        balances = money.balances[unit]
        lines.append(
            f"Balances, {unit_words(unit, units)}: "
            + ", ".join(f"{n} {signed_amount(v, unit)}" for n, v in balances.items())
        )
        lines.append(f"Payments over the season, {unit_words(unit, units)}:")
        lines += [f"  {p.payer} pays {p.payee} {amount_text(p.amount, unit)}" for p in money.payments[unit]] or [
            "  none: all square"
        ]
    if owed is not None:
        lines += ["", "Still owed:"] + ([f"  {debt_words(d)}" for d in owed] or ["  nothing"])
    lines += ["", "Statistics"] + _table(stats_rows(s, money)) + [""]
    lines += ["Head to head (the row's net in the evenings both played)"] + _table(head_to_head_rows(s, money))
    return lines


__all__ = ["debt_words", "season_lines"]
