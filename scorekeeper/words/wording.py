"""How the app writes what it shows, in one place: amounts in counters and in money
(old pence in £sd, decimal currencies), signed amounts, stakes, dates and month names,
and a season's statistics rows. The pages (``web/__init__.py``'s Jinja filters and
globals, the circle's pages), the command line's ``scorekeeper season`` text
(``season_text``) and the sheets (the session sheet, the season sheet and its ledger
lines in the PDF, the charts) all call these, so an amount reads the same everywhere:
``+6¾d``, ``−1s 4½d``, ``€1.05``, ``41 counters``, ``−44½``. A counter amount alone
is ``rules.core.format_counters``'s (the rules print a settlement without this layer).

Old pence: 12d = 1s, 20s = £1; a penny splits into farthings (¼ ½ ¾).
``1s 4½d``, ``£1 2s 0¾d``, ``3d``, ``¾d``, ``0d``, ``−1s 4½d``. Trailing zero
units are left off (``3s``, ``£1``, ``£1 2s``) but inner ones stay
(``£1 0s 6d``, ``1s 0¾d``). A value that is not a whole number of farthings
(say 0.1d a counter × 13 counters = 1.3d) is shown with its exact pence in
decimals, at least two (``1.30d``, ``1s 0.05d``, ``0.125d``), rather than
rounded to a coin that would misstate it.

Decimal currencies: two decimals, rounded half-to-even at display only, with
the symbol for GBP (£), USD ($) and EUR (€) and the code otherwise:
``€1.05``, ``−$0.50``, ``CHF 1,234.00``.

A session's money as shown (``session_money``) is rounded to add up by
``money.rounded_balances``; where that changed a figure, ``SessionMoney.note`` says
so once, with the exact values.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ..rules.core import format_counters, signed_counters
from ..rules.season import in_money
from ..rules.statistics import AVERAGE, COUNTS, MONEY, STATISTICS
from .money import per_counter, rounded_balances, smallest_unit
from .names import cut

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
MINUS = "−"  # U+2212, as core.format_counters writes it
SYMBOLS = {"GBP": "£", "USD": "$", "EUR": "€"}
FARTHINGS = {0: "", 1: "¼", 2: "½", 3: "¾"}
PENCE_NAMES = {  # old-pence stakes with a name at the table ("farthing Gleek")
    Fraction(1, 4): "farthing",
    Fraction(1, 2): "halfpenny",
    Fraction(1): "penny",
    Fraction(2): "twopenny",
    Fraction(3): "threepenny",
    Fraction(4): "groat",
    Fraction(6): "sixpenny",
    Fraction(12): "shilling",
    Fraction(30): "half-crown",
    Fraction(60): "crown",
}


def money(amount_in_counters, stake: dict | None) -> str:
    """An amount of counters as money under ``stake``.

    Without a stake there is no money value; the amount is given in counters
    (``42 counters``, ``1 counter``, ``6½ counters``).
    """
    amount = Fraction(amount_in_counters)
    if not stake:
        return counters(amount)
    value = amount * per_counter(stake)
    if stake["currency"] == "d":
        return pence(value)
    return decimal_money(value, stake["currency"])


def counters(amount) -> str:
    amount = Fraction(amount)
    return f"{format_counters(amount)} counter{'' if abs(amount) == 1 else 's'}"


def pence(value) -> str:
    """An exact number of pence in £sd: ``£1 2s 0¾d``."""
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    value = abs(value)
    whole_pence, part = divmod(value, 1)
    pounds, rest = divmod(int(whole_pence), 240)
    shillings, whole = divmod(rest, 12)
    if (part * 4).denominator == 1:
        pence_text = _farthing_pence(whole, int(part * 4), bigger=bool(pounds or shillings))
    else:
        pence_text = f"{_exact_decimal(whole + part, 2)}d"
    units = []
    if pounds:
        units.append(f"£{pounds}")
    if shillings or (pounds and pence_text):
        units.append(f"{shillings}s")
    if pence_text:
        units.append(pence_text)
    if not units:
        return "0d"
    return sign + " ".join(units)


def _farthing_pence(whole: int, farthings: int, bigger: bool) -> str:
    """The pence part of £sd: '' for a trailing zero after s or £."""
    if whole == 0 and farthings == 0:
        return "" if bigger else "0d"
    if whole == 0 and not bigger:
        return f"{FARTHINGS[farthings]}d"
    return f"{whole}{FARTHINGS[farthings]}d"


def _exact_decimal(value: Fraction, at_least: int) -> str:
    """A fraction with a terminating decimal expansion, written out exactly."""
    value = Fraction(value)
    digits = at_least
    while (value * 10**digits).denominator != 1:
        digits += 1
        if digits > 40:  # not terminating (cannot happen with a decimal stake)
            break
    scaled = round(value * 10**digits)
    text = str(abs(scaled)).rjust(digits + 1, "0")
    body = f"{text[:-digits]}.{text[-digits:]}"
    return (MINUS if scaled < 0 else "") + body


def decimal_money(value, currency: str, places: int | None = 2) -> str:
    """An exact value in a decimal currency: ``€1.05``, ``−CHF 3.50``.

    ``places=None`` writes it out exactly (at least two decimals) instead of
    rounding half-to-even to two.
    """
    value = Fraction(value)
    with localcontext() as ctx:
        # enough digits for the whole part of any amount, so quantize never overflows
        ctx.prec = 60 + len(str(abs(value.numerator) // value.denominator))
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        if places is None:
            text = _exact_decimal(abs(value), 2)
            whole, _, frac = text.partition(".")
            text = f"{int(whole):,}.{frac}"
            shown = exact
        else:
            shown = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
            text = f"{abs(shown):,.{places}f}"
    sign = MINUS if shown < 0 else ""
    symbol = SYMBOLS.get(currency)
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{currency} {text}"


def stake_choice(stake: dict | None) -> str:
    """A stake as the new-session form offers it: "¼d — farthing Gleek", "Counters only"."""
    if not stake:
        return "Counters only"
    each = per_counter(stake)
    name = PENCE_NAMES.get(each) if stake["currency"] == "d" else None
    return f"{amount_text(each, stake['currency'])} — {name} Gleek" if name else amount_text(each, stake["currency"])


def stake_label(stake: dict | None) -> str:
    """What a counter is worth, for a sheet's header.

    ``¼d a counter (farthing Gleek)``, ``1s a counter (shilling Gleek)``,
    ``€0.05 a counter``; without a stake ``counters only (no money stake)``.
    """
    if not stake:
        return "counters only (no money stake)"
    each = per_counter(stake)
    if stake["currency"] == "d":
        label = f"{pence(each)} a counter"
        name = PENCE_NAMES.get(each)
        return f"{label} ({name} Gleek)" if name else label
    return f"{decimal_money(each, stake['currency'], places=None)} a counter"


# ---------------------------------------------------------------- an amount in its unit


@lru_cache(maxsize=8192, typed=True)
def amount_text(amount, currency: str | None) -> str:
    """An exact amount in ``currency``'s unit (pence for "d") as shown, or counters (None):
    ``6¾d``, ``€1.20``, ``41 counters``. (Kept by value: a season's pages say the same few
    hundred amounts thousands of times.)"""
    if currency is None:
        return counters(amount)
    return pence(amount) if currency == "d" else decimal_money(amount, currency)


def bare_amount(amount, currency: str | None) -> str:
    """An amount under a heading that names its unit (a chart's axis): counters without the
    word (``44½``), money as ``amount_text`` (``6¾d``)."""
    return format_counters(amount) if currency is None else amount_text(amount, currency)


@lru_cache(maxsize=8192, typed=True)
def signed_amount(amount, currency: str | None) -> str:
    """A balance, signed both ways: ``+6¾d``, ``−€1.20``, ``0d``; in counters (None) bare, as
    the table writes a balance: ``+41``, ``−44½``."""
    if currency is None:
        return signed_counters(amount)
    return ("+" if amount > 0 else "") + amount_text(amount, currency)


def value_text(value, stake: dict) -> str:
    """A money value (pence, or the currency's unit) under a stake: ``−4s 11¼d``, ``€7.28``."""
    return amount_text(value, stake["currency"])


def signed_value_text(value, stake: dict) -> str:
    """A balance in money, signed both ways as a balance in counters is: ``+1¼d``, ``−4s 11¼d``, ``0d``."""
    return signed_amount(value, stake["currency"])


def exact_money(value, stake: dict) -> str:
    """A money value written out exactly: ``3s 0.375d``, ``€7.275``."""
    return pence(value) if stake["currency"] == "d" else decimal_money(value, stake["currency"], places=None)


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


def nearest_half(value):
    """An average, to the nearest half counter (the finest amount of the game), as shown
    (the text, the season sheet and the circle's Statistics page alike)."""
    if value is None:
        return None
    return Fraction(round(value * 2), 2)


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


# ---------------------------------------------------------------- dates


def and_list(words) -> str:
    """ "14 Nov", "14 Nov and 21 Nov", "14 Nov, 21 Nov and 28 Nov"."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def date_words(played_on: str | None, with_year: bool = False) -> str:
    """``"2026-11-14"`` → ``"14 Nov"`` (``"14 Nov 2026"`` with the year); undated: "undated";
    a date that is not one, as it was given."""
    if not played_on:
        return "undated"
    try:
        day = date.fromisoformat(played_on)
    except ValueError:
        return played_on
    text = f"{day.day} {MONTHS[day.month - 1]}"
    return f"{text} {day.year}" if with_year else text


def day_text(played_on: str | None, this_year: int | None = None) -> str:
    """ "14 Nov", the year too when not this year's ("3 Mar 2025"): an evening on a circle's pages."""
    return _day_text(played_on, date.today().year if this_year is None else this_year)


@lru_cache(maxsize=4096)
def _day_text(played_on: str | None, this_year: int) -> str:
    return date_words(played_on, with_year=not (played_on or "").startswith(f"{this_year:04d}-"))


def evening_names(links, dated: bool = True) -> dict:
    """session id -> how a circle's pages and sheet name each of its evenings (``links``:
    ``store.EveningLink``s, in the circle's order): its date ("14 Nov"; with ``dated``
    False, not even the date), else its title, else its number in the circle ("Evening
    3"). A club night's table by its night, round and table besides ("5 Dec, Friday
    club R1 T2"): the night's tables share its date, and "5 Dec, 5 Dec and 5 Dec" told
    nobody which. Never by its session id: that is its scorer's link, and the members'
    link and the sheet are for everyone."""
    return {e.session_id: evening_name(e, number, dated) for number, e in enumerate(links, 1)}


#: The most of a night's name a sheet's evening name keeps (its round and table kept whole).
NIGHT_NAME_CH = 16


def evening_name(link, number: int, dated: bool = True) -> str:
    """One evening's name (``evening_names``): ``link`` has ``played_on``, ``title`` and
    ``night`` (None, or the night's ``name``, ``round`` and ``table``)."""
    day = day_text(link.played_on) if dated and link.played_on else None
    if link.night is not None:  # undated (a sheet's narrow column): the night's name cut, its round and table whole
        night = link.night.name if dated else cut(link.night.name, NIGHT_NAME_CH)
        table = f"{night} R{link.night.round} T{link.night.table}"
        return f"{day}, {table}" if day else table
    return day or link.title or f"Evening {number}"


def long_date(played_on: str | None) -> str:
    """``"2026-11-14"`` → ``"14 November 2026"`` (a sheet's heading); undated: ""."""
    if not played_on:
        return ""
    day = date.fromisoformat(played_on)
    return f"{day.day} {MONTH_NAMES[day.month - 1]} {day.year}"


# ---------------------------------------------------------------- a session's money


class SessionMoney(NamedTuple):
    """What a session's balances and payments are in money, as shown."""

    balances: list[str]  #: per seat, signed as the counters beside them: ``−€11.85``, ``+€7.28``
    payments: list[str]  #: per payment of the settlement, in its order: ``€7.28``
    note: str | None  #: small print where rounding changed a figure, else None


def session_money(settlement, stake: dict | None) -> SessionMoney | None:
    """A settlement's balances and payments in money, rounded to add up (None
    without a stake). ``settlement`` has ``players``, ``balances`` (counters,
    adding up to zero) and ``payments`` (``payer``, ``payee``, ``amount``)."""
    if not stake:
        return None
    rounded = rounded_balances(settlement.balances, stake)
    payers = [p.payer for p in settlement.payments]
    payees = [p.payee for p in settlement.payments]
    amounts = []
    for payment in settlement.payments:
        if payees.count(payment.payee) == 1:
            amounts.append(rounded[payment.payee])
        elif payers.count(payment.payer) == 1:
            amounts.append(-rounded[payment.payer])
        else:  # pragma: no cover - three players settle in at most two payments
            raise ValueError("a payment shares both its payer and its payee with another")
    each = per_counter(stake)
    changed = [
        (name, Fraction(balance) * each)
        for name, balance, shown in zip(settlement.players, settlement.balances, rounded)
        if Fraction(balance) * each != shown
    ]
    note = None
    if changed:
        _, unit_name = smallest_unit(stake)
        exact = ", ".join(f"{name} {exact_money(value, stake)}" for name, value in changed)
        note = f"Money rounded to the {unit_name} so the three add up to zero; exact: {exact}."
    return SessionMoney([signed_value_text(v, stake) for v in rounded], [value_text(v, stake) for v in amounts], note)


# ---------------------------------------------------------------- statistics


def counts_text(counts: dict) -> str:
    """``{"A": 2, "K": 1}`` → ``"A×2 K"``; nothing: ``"–"``."""
    if not counts:
        return "–"
    return " ".join(k if n == 1 else f"{k}×{n}" for k, n in counts.items())


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
        return [label] + [
            in_units({u: value(n) for u, n in by_unit.items()}, units, nearest=nearest) for by_unit in nets
        ]

    rows = [
        [""] + names,
        ["Evenings"] + [str(x.evenings) for x in st],
        ["Hands"] + [str(x.hands) for x in st],
        net_row("Net", lambda n: n.total),
        net_row("Average a hand", lambda n: n.average, nearest=True),
    ]
    for statistic in STATISTICS.shown():
        rows.append([statistic.label] + [statistic_text(statistic, x, by_unit, units) for x, by_unit in zip(st, nets)])
    phases = []
    for x in st:
        phases += [p for p in x.phases if p not in phases]
    for phase in phases:
        rows.append(net_row(f"Net: {phase}", lambda n, p=phase: n.phases.get(p)))
    return rows


def head_to_head_rows(s, money=None) -> list[list[str]]:
    """Each row's net against each column, in money per currency (``in_money``), and in how many evenings."""
    money = in_money(s) if money is None else money
    names = list(s.players)
    rows = [[""] + names]
    for a in names:
        cells = []
        for b in names:
            pair = s.head_to_head[a].get(b)
            cells.append(
                ""
                if a == b
                else ("·" if pair is None else f"{in_units(money.head_to_head[a][b], money.units)} in {pair.evenings}")
            )
        rows.append([a] + cells)
    return rows
