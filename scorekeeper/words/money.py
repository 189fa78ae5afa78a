"""What counters are worth: a session's optional ``stake``, and its money rounded to add up.

A record may say what one counter is worth (docs/record.md)::

    "stake": {"per_counter": "0.25", "currency": "d"}

``currency`` is ``"d"`` (old pence) or a three-letter code (``EUR``, ``GBP``, ``USD``, …).
All arithmetic is exact (``Fraction``); nothing is ever a float. How an amount is
written (£sd, two decimals, the symbols) is ``wording``'s.

A session's balances and payments are shown rounded to the currency's smallest
unit — the cent (the penny for GBP), the farthing for old pence — so that every
figure of one session adds up, exactly (``rounded_balances``):

1. each player's exact balance in money is rounded *down* to the unit;
2. the units that are then missing (the exact balances add up to zero, so
   0, 1 or 2 of them) go one each to the balances that lost most in step 1
   (the largest remainder); equal remainders: the larger balance first, then
   the earlier seat. Every figure is within one unit of the exact value, the
   three add up to zero, and a player further ahead never shows less money;
3. payments come from those rounded balances: a player who pays one person
   pays his whole rounded balance, a player paid by one person receives her
   whole rounded balance (with three players one of the two is always so)
   (``wording.session_money``).

The counters themselves are never rounded.
"""

from __future__ import annotations

import math
from fractions import Fraction


def per_counter(stake: dict) -> Fraction:
    """The exact value of one counter, in pence or in the currency's unit."""
    return Fraction(stake["per_counter"])


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
    for seat in order[: max(0, min(missing, len(order)))]:
        floors[seat] += 1
    return [f * unit for f in floors]
