"""What counters are worth: a session's optional ``stake`` shown as money.

A record may say what one counter is worth (docs/record.md)::

    "stake": {"per_counter": "0.25", "currency": "d"}

``currency`` is ``"d"`` (old pence, shown in pounds, shillings and pence) or a
three-letter code (``EUR``, ``GBP``, ``USD``, … shown with two decimals).

All arithmetic is exact (``Fraction`` / ``Decimal``); nothing is ever a float.
Rounding happens only at display, and only for decimal currencies.

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

A session's balances and payments (``session_money``) are shown rounded to
the currency's smallest unit — the cent (the penny for GBP), the farthing for
old pence — so that every figure of one session adds up, exactly:

1. each player's exact balance in money is rounded *down* to the unit;
2. the units that are then missing (the exact balances add up to zero, so
   0, 1 or 2 of them) go one each to the balances that lost most in step 1
   (the largest remainder); equal remainders: the larger balance first, then
   the earlier seat. Every figure is within one unit of the exact value, the
   three add up to zero, and a player further ahead never shows less money;
3. payments come from those rounded balances: a player who pays one person
   pays his whole rounded balance, a player paid by one person receives her
   whole rounded balance (with three players one of the two is always so).

Where this changed a figure, ``SessionMoney.note`` says so once, with the
exact values ("rounded to the cent so the three add up to zero; exact:
Nell €7.275, Tom €4.575"). The counters themselves are never rounded.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from typing import NamedTuple

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


def per_counter(stake: dict) -> Fraction:
    """The exact value of one counter, in pence or in the currency's unit."""
    return Fraction(stake["per_counter"])


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
    from ..rules.core import format_counters

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


# ---------------------------------------------------------------- a session's money

#: The smallest coin a session's money is rounded to, and its name.
FARTHING = Fraction(1, 4)
CENT = Fraction(1, 100)


def smallest_unit(stake: dict) -> tuple[Fraction, str]:
    """The unit a session's balances are rounded to: ``(¼, "farthing")`` for
    old pence, ``(1/100, "penny")`` for GBP, ``(1/100, "cent")`` otherwise."""
    if stake["currency"] == "d":
        return FARTHING, "farthing"
    return CENT, "penny" if stake["currency"] == "GBP" else "cent"


def rounded_balances(balances, stake: dict) -> list[Fraction]:
    """Each balance in money, rounded to the smallest unit so that they still add
    up to zero (largest remainder; see the module's docstring). ``balances`` are
    counters and must add up to zero, as a settlement's do."""
    each = per_counter(stake)
    unit, _ = smallest_unit(stake)
    exact = [Fraction(b) * each for b in balances]
    units = [value / unit for value in exact]
    floors = [math.floor(u) for u in units]
    missing = -sum(floors)  # the remainders' sum: a whole number, 0 ≤ it < len(balances)
    order = sorted(range(len(exact)), key=lambda s: (floors[s] - units[s], -exact[s], s))
    for seat in order[:max(0, min(missing, len(order)))]:
        floors[seat] += 1
    return [f * unit for f in floors]


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
    changed = [(name, Fraction(balance) * each)
               for name, balance, shown in zip(settlement.players, settlement.balances, rounded)
               if Fraction(balance) * each != shown]
    note = None
    if changed:
        _, unit_name = smallest_unit(stake)
        exact = ", ".join(f"{name} {exact_money(value, stake)}" for name, value in changed)
        note = f"Money rounded to the {unit_name} so the three add up to zero; exact: {exact}."
    return SessionMoney([signed_value_text(v, stake) for v in rounded], [value_text(v, stake) for v in amounts], note)


def value_text(value, stake: dict) -> str:
    """A money value (pence, or the currency's unit) as shown: ``−4s 11¼d``, ``€7.28``."""
    return pence(value) if stake["currency"] == "d" else decimal_money(value, stake["currency"])


def signed_value_text(value, stake: dict) -> str:
    """A balance in money, signed both ways as a balance in counters is: ``+1¼d``, ``−4s 11¼d``, ``0d``."""
    return ("+" if value > 0 else "") + value_text(value, stake)


def exact_money(value, stake: dict) -> str:
    """A money value written out exactly: ``3s 0.375d``, ``€7.275``."""
    return pence(value) if stake["currency"] == "d" else decimal_money(value, stake["currency"], places=None)
