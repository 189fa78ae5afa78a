"""What counters are worth: a session's optional ``stake`` shown as money.

A record may say what one counter is worth (GLEEK-RULES §6)::

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
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

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
    from .rules.core import format_counters

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
