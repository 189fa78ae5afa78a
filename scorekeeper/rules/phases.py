"""The phases of a hand as objects a rule book composes (``RuleBook.phases``).

A phase owns some hand keys and has, for them: its transfer (who pays whom, exact),
its reasons (one line per payment, in the table's words), its checks (each with a
stage, so that a hand's problems come in the order of play whatever the book), its
questions for the hand form, its part of the quiet-hand preset, and its words for
the pages (``id``, ``title``, a 3-letter ``short`` for the sheet's columns, the form
``section`` that shows its payments, the hand keys its transfer ``needs`` and its
``rule`` in plain words for the rules page). A book lists its phases in the order
they are settled; nothing looks a phase up by a method's name.

The phases every book here uses:

- ``CardPayments``: side payments for the special cards of the phase (its rows of
  the book's card table, ``cards.py``): Tiddy; Cotton's Towser and Tumbler;
- ``Auction``: the stock bought, its price split between the two others (in halves,
  or the odd unit to eldest);
- ``Ruff``: the vying (``core.Vying``, replayed by ``calls.py``), what a loser may pay,
  and what a null ruff means (no contest, doubled onto the next deal, or none);
- ``Sets``: gleeks and mournivals from each opponent (and Cotton's forfeits);
- ``TurnedUpCount``: the play counted against the par (3 a trick and the honours).

A book's own phase is a subclass in its own module (``modern.PairwiseCount``).
"""

from __future__ import annotations

from .cards import CREDITS, names_of
from .core import (
    CARDS_IN_A_HAND,
    RANK_NAMES,
    RANK_PLURALS,
    RANKS,
    SEATS,
    SETS,
    TRICKS_IN_A_HAND,
    describe,
    eldest,
    format_counters,
    fraction,
    from_halves,
    half,
    parse_set,
    set_cards,
    signed_counters,
)

# The order in which a hand's checks run (``Phase.checks``): what the table
# answers first is checked first, and a check that needs other keys comes later.
CARDS, AUCTION, RUFF, TRICKS, PLAY, SETS_STAGE, FORFEITS, CROSS, CALLS = 10, 20, 30, 40, 50, 60, 65, 70, 80
RUFF_KEYS = frozenset(("winner", "paid", "calls", "shown"))

_CALLS = []


def calls():
    """``rules/calls.py``, imported the first time a hand has calls (a session without
    them never pays for it)."""
    if not _CALLS:
        from . import calls as module  # the call procedures (~30 ms): only when a hand has calls

        _CALLS.append(module)
    return _CALLS[0]


def fixed(value, reason: str):
    """An answer the rules fix (``hand.Fixed``; the hand module is loaded only by the form)."""
    from .hand import Fixed  # the hand declarations (~18 ms): only the form's, never settle's

    return Fixed(value, reason)


def question(kind: str):
    """A question class of ``hand.py`` (loaded only by the form, never by ``settle``)."""
    from . import hand  # the hand declarations (~18 ms): only the form's, never settle's

    return getattr(hand, kind)


class Phase:
    """One phase of a hand (see the module's docstring). A declaration is made once
    in a book's module; ``bound(book)`` makes the book's own copy, set up from the
    book's data (its cards, its options, whether it turns a card up)."""

    id = title = short = section = rule = ""
    keys: tuple = ()  # the hand keys this phase owns, all required
    optional_keys: tuple = ()  # and those it owns that a hand may leave out
    needs: tuple = ()  # the hand keys its transfer depends on (the form shows it once they are in)
    book = None

    def __init__(self, **fields):
        for name, value in fields.items():
            if not hasattr(type(self), name):
                raise TypeError(f"{type(self).__name__} has no {name!r}")
            setattr(self, name, value)

    def bound(self, book) -> "Phase":
        phase = object.__new__(type(self))
        phase.__dict__.update(self.__dict__)
        phase.book = book
        phase.setup(book)
        return phase

    def setup(self, book) -> None:
        """Lookups made once from the book's declarations."""

    def transfer(self, hand: dict, options: dict) -> list:
        raise NotImplementedError

    def reasons(self, hand: dict, options: dict, names) -> list[str]:
        return []

    def checks(self) -> tuple:
        """``(stage, check)`` pairs: ``check(hand_check, options, state)`` says what is
        wrong with this phase's keys (``state``: what one check leaves for a later one)."""
        return ()

    def questions(self) -> list:
        """This phase's questions of the hand form (``hand.Question``)."""
        return []

    def quiet(self, answers) -> tuple[dict, list[str]]:
        """This phase's part of the "Quiet hand" preset: its answers and its words."""
        return {}, []

    def presets(self, answers) -> list:
        """One-tap answers of this phase's own (``hand.Preset``)."""
        return []

    def halves(self) -> str | None:
        """Where this phase pays a half counter, in words (None: its amounts are whole)."""
        return None

    def record_keys(self) -> dict[str, str]:
        """What each of its hand keys holds in a record (docs/record.md)."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"


# ================================================================ special cards

_EXACT: dict = {}  # a transfer in half counters -> its exact amounts (CardPayments.transfer)


def _in_halves(amount) -> int | None:
    """An amount of a card's row in half counters (it must be whole or a half)."""
    if amount is None:
        return None
    halves = 2 * amount
    if getattr(halves, "denominator", 1) != 1:
        raise ValueError(f"a card is worth whole or half counters, not {amount}")
    return int(halves)


class CardPayments(Phase):
    """Side payments for the book's cards of this phase (``cards.py``): each card turned
    up pays the dealer its ``turned_up`` from each opponent; otherwise whoever has it
    gets its ``held`` from each; a card nobody has, or whose option is off, pays nothing.
    ``period``: the lines say it in the period's terms ("Towser (5♥) held by Ben: 2½
    from each.")."""

    section = ""
    period = False

    def setup(self, book) -> None:
        self.cards = book.cards.of_phase(self.id)
        self.keys = tuple(c.key for c in self.cards)
        self.section = self.section or self.id
        self.needs = ("dealer", "trump") + (("turned_up",) if book.has_turned_up else ()) + self.keys
        self._kiss = "none" in book.trumps
        self._turned = book.has_turned_up
        defaults = book.default_options()
        self._rows = tuple(
            (c.key, c.rank, c.option, defaults.get(c.option), _in_halves(c.held), _in_halves(c.turned_up))
            for c in self.cards
        )

    def _off(self, card, options) -> bool:
        return card.option is not None and not self.book.option(options, card.option)

    def out_of_play(self, card, check, options, dealer: str = "") -> tuple[str, str] | None:
        """Why nobody can be paid for having ``card`` in this hand (its key must be
        null): in a check's words and in the form's words; or None. ``dealer``: the
        dealer's name, where the form knows it (a book in the period's terms says
        "Tiddy turned up: 4 from each to Ann")."""
        if self._off(card, options):
            off = self.book.cards.switched_off_by(card.option)
            return (
                f"when the table plays without {names_of(off, ' and ')}",
                f"{names_of(off, ' and ')} {'is' if len(off) == 1 else 'are'} off this session.",
            )
        if self._kiss and check.good("trump") and check.hand["trump"] == "none":
            return "under Kiss (no trumps)", f"Kiss: no trumps, no {card.name}."
        if self._turned and check.good("turned_up") and check.hand["turned_up"] == card.rank:
            rank = RANK_NAMES[card.rank]
            if card.turned_up is None:
                return f"when the {rank} is turned up", f"{card.name} turned up: nobody is paid for it."
            amount = format_counters(card.turned_up)
            return (
                f"when the {rank} is turned up (the dealer is paid for it)",
                f"{card.name} turned up: {amount} from each to {dealer}."
                if self.period and dealer
                else f"{card.name} turned up: the dealer is paid {amount} from each.",
            )
        return None

    def check(self, check, options, state) -> None:
        hand = check.hand
        for card in self.cards:
            key = card.key
            if key not in hand:
                continue
            seat = hand[key]
            if seat is None and card.nobody:
                continue
            if not (type(seat) is int and 0 <= seat <= 2):
                check.seat(key, seat, nullable=card.nobody)  # says why
                continue
            why = self.out_of_play(card, check, options)
            if why:
                check.fail(key, f"{key} must be null {why[0]}")

    def checks(self) -> tuple:
        return ((CARDS, self.check),)

    def transfer(self, hand: dict, options: dict) -> list:
        """Counted in half counters (Towser's 2½ is 5 halves), so that no ``Fraction`` is
        made for a hand: each different transfer is made exact once and kept."""
        a = b = c = 0
        turned = hand["turned_up"] if self._turned else None
        options = options or {}
        for key, rank, option, default, held, up in self._rows:
            if option is not None and not options.get(option, default):
                continue  # off: nothing paid, held or turned up
            if turned == rank:
                if up is None:
                    continue
                seat, v = hand["dealer"], up
            else:
                seat = hand[key]
                if seat is None or held is None:
                    continue
                v = held
            a, b, c = a - v, b - v, c - v  # from each of the two others …
            if seat == 0:
                a += 3 * v  # … to the one who has it
            elif seat == 1:
                b += 3 * v
            else:
                c += 3 * v
        found = _EXACT.get((a, b, c))
        if found is None:
            found = _EXACT[a, b, c] = (from_halves(a), from_halves(b), from_halves(c))
        return list(found)

    def reasons(self, hand: dict, options: dict, names) -> list[str]:
        lines, off, kiss, nobody = [], [], [], []
        trump = hand.get("trump")
        for card in self.cards:
            credit = CREDITS[card.credited]
            if self._off(card, options):
                off.append(card)
            elif self._kiss and trump == "none":
                kiss.append(card)
            elif self._turned and hand["turned_up"] == card.rank:
                what = card.in_suit(trump) if self.period else card.name
                if card.turned_up is None:
                    lines.append(f"{what} turned up: nobody is paid for it.")
                else:
                    lines.append(
                        f"{what} turned up: {format_counters(card.turned_up)} from each to the dealer, "
                        f"{names[hand['dealer']]}."
                    )
            elif hand[card.key] is None:
                nobody.append(card)
            elif self.period:
                lines.append(
                    f"{card.in_suit(trump)} {credit.verb} by {names[hand[card.key]]}: "
                    f"{format_counters(card.held)} from each."
                )
            else:
                lines.append(
                    f"{names[hand[card.key]]} {credit.has} {card.described}: {format_counters(card.held)} from each."
                )
        if off:
            lines.insert(0, f"{names_of(off, ' and ')} {'is' if len(off) == 1 else 'are'} off for this session.")
        if kiss:
            lines.insert(0, f"Kiss (no trumps): no {names_of(kiss)}.")
        if nobody and not lines:
            lines.append(CREDITS[nobody[0].credited].nobody.format(names=names_of(nobody)))
        return lines

    def fixed(self, card, answers):
        dealer = answers.dealer
        named = answers.names[dealer] if type(dealer) is int and 0 <= dealer <= 2 else ""
        why = self.out_of_play(card, answers, answers.options, named)
        return fixed(None, why[1]) if why else None

    def questions(self) -> list:
        SeatQuestion, out = question("SeatQuestion"), []
        for card in self.cards:
            credit = CREDITS[card.credited]
            label = credit.label
            if len(self.cards) > 1:  # "Towser (the Five of trumps) — who holds it …"
                label = f"{card.described} — {label[0].lower()}{label[1:]}"
            out.append(
                SeatQuestion(
                    card.key,
                    self.section,
                    card.name,
                    credit.ask.format(card=card.described),
                    label=label,
                    nobody="Nobody",
                    fixed=lambda answers, c=card: self.fixed(c, answers),
                )
            )
        return out

    def record_keys(self) -> dict[str, str]:
        keys = {}
        for card in self.cards:
            credit, nulls = CREDITS[card.credited], [CREDITS[card.credited].null]
            if self._turned:
                nulls.append("it is turned up")
            if self._kiss:
                nulls.append("no trumps (Kiss)")
            if card.option:
                nulls.append(f"the {card.option} option is off")
            keys[card.key] = (
                f"the seat that {credit.record.format(card=card.described)}, or null: "
                f"{', '.join(nulls[:-1]) + ' or ' + nulls[-1] if len(nulls) > 1 else nulls[0]}"
            )
        return keys

    def halves(self) -> str | None:
        halved = [
            c
            for c in self.cards
            if any(v is not None and getattr(v, "denominator", 1) != 1 for v in (c.held, c.turned_up))
        ]
        return "; ".join(f"{c.name} held, {format_counters(c.held)} from each" for c in halved) or None

    def quiet(self, answers) -> tuple[dict, list[str]]:
        free = [c for c in self.cards if self.fixed(c, answers) is None]
        if not free:
            return {}, []
        return {c.key: None for c in free}, [f"no {names_of(free)}"]


# ================================================================ the stock


class Auction(Phase):
    """The stock: eldest opens at ``opening``, each bid ``step`` more (exactly, or at
    least, ``exact``), a pass final; the buyer pays the price to the other two, half
    each. ``even``: every price is even. ``eldest_must_buy``: eldest's first call is a
    bid, so there is always a buyer; else all three may pass (``auction: null``).
    ``odd_unit``: at an odd price the odd unit goes to eldest (who keeps it when he
    buys), instead of halves. ``off_with``: (option, check words, form words): with
    that option on there is no auction at all."""

    id, title, short, section, rule = "auction", "Stock", "Stk", "stock", ""
    keys = needs = ("auction",)
    opening = 13
    step = 1
    even = False
    eldest_must_buy = True
    exact = True
    odd_unit = False
    off_with = None

    def setup(self, book) -> None:
        if self.odd_unit:
            self.needs = ("dealer", "auction")

    # ------------------------------------------------------------ what may be bought

    def may_be_empty(self, options: dict) -> bool:
        return not self.eldest_must_buy

    def must_be_empty(self, options: dict) -> bool:
        return self.off_with is not None and self.book.option(options, self.off_with[0])

    def min_price(self, buyer: int, dealer: int) -> int:
        if self.eldest_must_buy and buyer != (dealer + 1) % 3:  # not eldest
            return self.opening + (2 if self.even else 1)
        return self.opening

    def unreachable_prices(self, buyer: int, dealer: int) -> tuple[int, ...]:
        """Prices no bidding reaches (docs/rules.md, "Call by call"): where every bid is exactly
        one step more and eldest must open, eldest's next bid after his opening is
        two steps up, and middle's after his first is two steps up again."""
        if not self.eldest_must_buy:
            return ()
        if buyer == eldest(dealer):
            return (self.opening + self.step,)
        if buyer == (dealer + 2) % 3:
            return (self.opening + 2 * self.step,)
        return ()

    def unreachable_price(self, buyer: int, dealer: int, price: int) -> str | None:
        """Why no bidding reaches ``price`` for ``buyer`` (the book's bidding rule), or None.

        With every bid exactly one step more and a pass final, two others speak
        between a player's bids, so his next bid is two steps above his last:
        eldest (first bid: the opening) never buys one step above it, and middle
        (first bid: one step above) never two steps above."""
        if not (self.exact and self.eldest_must_buy):
            return None
        opening, step = self.opening, self.step
        position = (buyer - dealer - 1) % 3  # 0 eldest, 1 middle, 2 dealer
        if position == 2 or price > opening + 2 * step:
            return None
        if position == 0 and price == opening + step:
            return (
                f"is eldest, so after opening at {opening} his next bid is {opening + 2 * step}: "
                f"eldest never buys at {price}"
            )
        if position == 1 and price == opening + 2 * step:
            return (
                f"is middle, so after bidding {opening + step} his next bid is {opening + 3 * step}: "
                f"middle never buys at {price}"
            )
        return None

    def price_choices(self, buyer: int | None, dealer: int | None, count: int = 10) -> list[int]:
        """The first ``count`` prices this buyer can have paid (for the form's chips)."""
        if buyer is None or dealer is None:
            start, skip = self.opening, ()
        else:
            start, skip = self.min_price(buyer, dealer), self.unreachable_prices(buyer, dealer)
        prices, price = [], start
        while len(prices) < count:
            if price not in skip:
                prices.append(price)
            price += self.step
        return prices

    # ------------------------------------------------------------ checks

    def checks(self) -> tuple:
        return ((AUCTION, self.check),)

    def check(self, check, options, state) -> None:
        hand = check.hand
        if "auction" not in hand:
            return
        auction = hand["auction"]
        if auction is None:
            if not self.may_be_empty(options):
                check.fail("auction", "auction cannot be null: somebody always buys the stock in this rule book")
            return
        if self.must_be_empty(options):
            check.fail("auction", f"auction must be null: {self.off_with[1]}")
            return
        if not (
            isinstance(auction, dict)
            and "buyer" in auction
            and "price" in auction
            and len(auction) == (3 if "bids" in auction else 2)
        ):
            check.fail(
                "auction",
                f'auction must be {{"buyer": seat, "price": n}}{" or null" if self.may_be_empty(options) else ""}, not {describe(auction)}',
            )
            return
        if "bids" in auction and check.good("dealer"):  # the bids, call by call
            module = calls()
            replayed = module.replay_bids(self.book, check.hand["dealer"], auction["bids"], check.names)
            if module.bids_give(replayed, auction):
                return  # the bids make this result, so it is right
            self.check_result(check, auction)
            module.check_bids(replayed, check, auction, result_ok="auction" not in check.bad)
        else:
            self.check_result(check, auction)

    def check_result(self, check, auction: dict) -> None:
        hand = check.hand
        ok = check.seat("auction", auction["buyer"])
        price = auction["price"]
        if type(price) is not int:
            check.fail("auction", f"auction price must be a whole number, not {describe(price)}")
            return
        if price < self.opening:
            check.fail("auction", f"auction price {price} is below the opening bid of {self.opening}")
            return
        if self.even and price % 2:
            check.fail("auction", f"auction price {price} is odd: bids go up by 2 from {self.opening}")
            return
        if ok and check.good("dealer"):
            lowest = self.min_price(auction["buyer"], hand["dealer"])
            if price < lowest:
                check.fail(
                    "auction",
                    f"auction: {check.who(auction['buyer'])} is not eldest, so bought at {lowest} or more, not {price} (eldest opens at {self.opening})",
                )
                return
            problem = self.unreachable_price(auction["buyer"], hand["dealer"], price)
            if problem:
                check.fail("auction", f"auction: {check.who(auction['buyer'])} {problem}")

    # ------------------------------------------------------------ payments

    def transfer(self, hand: dict, options: dict | None = None) -> list:
        """The buyer pays half the price to each opponent (so ``-price`` for him: exact);
        with ``odd_unit``, an odd price's odd unit goes to eldest, or stays with him."""
        auction = hand["auction"]
        if auction is None:
            return [0, 0, 0]
        buyer, price = auction["buyer"], auction["price"]
        if self.odd_unit and price % 2:
            share = price // 2
            transfer = [share, share, share]
            first = (hand["dealer"] + 1) % 3
            if first == buyer:  # eldest claims the odd unit by keeping it
                transfer[buyer] = -2 * share
            else:
                transfer[first] += 1
                transfer[buyer] = -price
            return transfer
        share = half(price)
        return [-price if s == buyer else share for s in SEATS]

    def reasons(self, hand: dict, options: dict, names) -> list[str]:
        auction = hand["auction"]
        if auction is None:
            return ["Nobody bought the stock."]
        buyer, price = auction["buyer"], auction["price"]
        if self.odd_unit and price % 2:
            first = (hand["dealer"] + 1) % 3
            if first == buyer:
                line = f"{names[buyer]} bought at {price} as eldest and keeps the odd penny: pays {price // 2} to each."
            else:
                line = (
                    f"{names[buyer]} bought at {price}, pays {price // 2} to each and the odd penny "
                    f"to {names[first]}, eldest."
                )
        else:
            line = f"{names[buyer]} bought at {price}, pays {format_counters(half(price))} to each."
        lines = [line]
        if "bids" in auction:
            bids = calls().replay_bids(self.book, hand["dealer"], auction["bids"], names)
            lines.insert(0, f"{bids.line()}.")  # under the phase's title ("Stock: Ann bids 12 · …")
        return lines

    def record_keys(self) -> dict[str, str]:
        null = "; null: nobody bought (all three passed)" if not self.eldest_must_buy else ""
        off = f"; null with the {self.off_with[0]} option" if self.off_with else ""
        return {"auction": f'{{"buyer": seat, "price": n}}{null}{off}; may hold `bids`, the bidding call by call'}

    def halves(self) -> str | None:
        if self.even or self.odd_unit:
            return None
        odd = self.opening if self.opening % 2 else self.opening + self.step
        return f"an odd price split in two ({odd} → {format_counters(half(odd))} to each)"

    # ------------------------------------------------------------ the form

    def fixed(self, answers):
        if self.must_be_empty(answers.options):
            return fixed(None, self.off_with[2])
        return None

    def questions(self) -> list:
        return [
            question("PurchaseQuestion")(
                "auction",
                self.section,
                "Stock",
                "Who bought the stock, and at what price?",
                ask_price="At what price was the stock bought?",
                label="Buyer",
                field="buyer",
                fixed=self.fixed,
                rules=self,
            )
        ]

    def presets(self, answers) -> list:
        if answers.dealer is None or self.fixed(answers) is not None:
            return []
        from .hand import Preset  # the hand declarations (~18 ms): only the form's, never settle's

        first = eldest(answers.dealer)
        return [
            Preset(
                "eldest-opening",
                f"{answers.who(first)} (eldest) bought at {self.opening}",
                self.section,
                {"auction": {"buyer": first, "price": self.opening}},
            )
        ]


# ================================================================ the ruff


class Ruff(Phase):
    """The ruff: the vying (``vying``, a ``core.Vying``, replayed by ``calls.py``), a
    card's value in a ruff (``values``), whether four Aces beat every ruff. ``null``:
    what ``ruff: null`` is — ``"no contest"`` (nobody opened), ``"doubled"`` (the
    dealer doubled it onto the next deal), or None (never null, unless ``off_with``'s
    option leaves the ruff out). ``first``: the opening stake of the first hand (the
    multiplier M of a doubled ruff); ``doubles``: it doubles after each null ruff, and
    is back to ``first`` after any other. ``stake_problem(amount, opening)``: why a
    loser cannot have paid ``amount``, in the book's words. ``played_for``: the next
    hand's note while the opening is above ``first`` ("ruff opens at {opening}")."""

    id, title, short, section, rule = "ruff", "Ruff", "Ruf", "ruff", ""
    keys = needs = ("ruff",)
    vying = None
    values: dict = {}
    four_aces_win = False
    null = None
    first = 2
    doubles = False
    off_with = None
    played_for = ""
    no_ruff = "No ruff."  # the line for a null ruff ({dealer}: the dealer's name)
    nobody = "No contest"  # the null answer's chip
    nobody_hint = ""  # "Winner — or nobody opened (stake {opening})"
    nobody_reads = ""  # the sheet's words for a null ruff ({dealer}); default "ruff: <nobody>"
    stake_problem = None

    def setup(self, book) -> None:
        if self.stake_problem is not None and not hasattr(self.stake_problem, "__self__"):
            self.stake_problem = self.stake_problem.__get__(self)

    def may_be_empty(self, options: dict) -> bool:
        return self.null is not None or self.must_be_empty(options)

    def must_be_empty(self, options: dict) -> bool:
        return self.off_with is not None and self.book.option(options, self.off_with[0])

    # ------------------------------------------------------------ the opening stake

    def opening_after(self, opening: int, hand: object) -> int:
        """The opening stake of the hand after ``hand``, played at ``opening``."""
        if self.doubles and isinstance(hand, dict) and "ruff" in hand and hand["ruff"] is None:
            return opening * 2
        return self.first

    def opening(self, hands_before: list) -> int:
        """The same as counting forward with ``opening_after``, counted from the end:
        ``first`` doubled once for each null ruff just before (every tap of the hand
        form asks, so a long evening must not make it slower)."""
        if not self.doubles:
            return self.first
        quiet = 0
        for hand in reversed(hands_before):
            if not (isinstance(hand, dict) and "ruff" in hand and hand["ruff"] is None):
                break
            quiet += 1
        return self.first << quiet

    def next_hand_note(self, hands_before: list) -> str | None:
        if not self.played_for:
            return None
        opening = self.opening(hands_before)
        return self.played_for.format(opening=opening, times=opening // self.first) if opening > self.first else None

    def stake_choices(self, opening: int, count: int) -> list[int]:
        """The first ``count`` amounts a ruff loser may pay (for the form's chips)."""
        top = opening + 4 * count * max(1, opening // self.first)
        return [a for a in range(opening, top) if self.stake_problem(a, opening) is None][:count]

    # ------------------------------------------------------------ checks

    def checks(self) -> tuple:
        return ((RUFF, self.check), (CALLS, self.check_calls))

    def check(self, check, options, state) -> None:
        """The ruff's shape and result; with calls, what their check needs is left in
        ``state`` (``calls.check_ruff_calls``, made after the sets)."""
        hand = check.hand
        if "ruff" not in hand:
            return
        ruff = hand["ruff"]
        if ruff is None:
            if not self.may_be_empty(options):
                check.fail("ruff", "ruff cannot be null: somebody always wins the ruff in this rule book")
            return
        if self.must_be_empty(options):
            check.fail("ruff", f"ruff must be null: {self.off_with[1]}")
            return
        if not (
            isinstance(ruff, dict)
            and "winner" in ruff
            and "paid" in ruff
            and (len(ruff) == 2 or ruff.keys() <= RUFF_KEYS)
        ):
            check.fail("ruff", f'ruff must be {{"winner": seat, "paid": [a, b, c]}}, not {describe(ruff)}')
            return
        if "shown" in ruff and "calls" not in ruff:
            check.fail("ruff", "ruff: shown is given only with the calls (ruff.calls) that end in the showdown")
            return
        opening = state["opening"]
        if "calls" in ruff and check.good("dealer"):  # the vying, call by call
            module = calls()
            replayed = module.replay_ruff(
                self.book, check.hand["dealer"], ruff["calls"], check.names, opening, record=False, table=False
            )
            given = module.calls_give(replayed, ruff)
            if not given:  # (if they do, the calls make this result, so it is right)
                self.check_result(check, ruff, opening)
            state["ruff calls"] = (replayed, check, ruff, "ruff" not in check.bad, given)
            return
        self.check_result(check, ruff, opening)

    def check_calls(self, check, options, state) -> None:
        """After the sets: a declared mournival of Aces shows four Aces."""
        if "ruff calls" in state:
            calls().check_ruff_calls(*state["ruff calls"])

    def check_result(self, check, ruff: dict, opening: int) -> None:
        """``winner`` and ``paid`` by themselves (no calls)."""
        if not check.seat("ruff", ruff["winner"]):
            return
        paid = ruff["paid"]
        if not (
            isinstance(paid, list)
            and len(paid) == 3
            and type(paid[0]) is int
            and type(paid[1]) is int
            and type(paid[2]) is int
        ):
            check.fail("ruff", f"ruff paid must be three whole numbers, one per seat, not {describe(paid)}")
            return
        winner = ruff["winner"]
        if paid[winner] != 0:
            check.fail(
                "ruff",
                f"ruff: the winner {check.who(winner)} pays nothing, so their paid entry must be 0, not {paid[winner]}",
            )
            return
        for seat in SEATS:
            if seat == winner:
                continue
            problem = self.stake_problem(paid[seat], opening)
            if problem:
                check.fail("ruff", f"ruff: {check.who(seat)} paid {paid[seat]}, {problem}")
                return

    # ------------------------------------------------------------ payments

    def transfer(self, hand: dict, options: dict | None = None) -> list:
        if hand["ruff"] is None:
            return [0, 0, 0]
        winner, paid = hand["ruff"]["winner"], hand["ruff"]["paid"]
        transfer = [-p for p in paid]
        transfer[winner] = sum(paid)
        return transfer

    def reasons(self, hand: dict, options: dict, names) -> list[str]:
        ruff = hand["ruff"]
        if ruff is None:
            return [self.no_ruff.format(dealer=names[hand["dealer"]] if "dealer" in hand else "the dealer")]
        if "calls" in ruff:  # the opening stake follows from the calls and what was paid
            return calls().ruff_reasons(self.book, hand, names)
        winner = names[ruff["winner"]]
        return [
            f"{names[seat]} pays {winner} {ruff['paid'][seat]} for the ruff."
            for seat in SEATS
            if seat != ruff["winner"]
        ]

    # ------------------------------------------------------------ the form

    def fixed(self, answers):
        if self.must_be_empty(answers.options):
            return fixed(None, self.off_with[2])
        return None

    def questions(self) -> list:
        return [
            question("RuffQuestion")(
                "ruff",
                self.section,
                "Ruff",
                "Who won the ruff, and what did each loser pay?",
                ask_paid="What did {who} pay for the ruff?",
                label="Winner",
                field="ruff_winner",
                nobody=self.nobody,
                nobody_hint=self.nobody_hint,
                nobody_reads=self.nobody_reads,
                fixed=self.fixed,
                rules=self,
            )
        ]

    def record_keys(self) -> dict[str, str]:
        null = {
            "no contest": "; null: no contest (nobody opened)",
            "doubled": "; null: the dealer doubled it (played for at the next deal)",
        }.get(self.null, "")
        off = f"; null with the {self.off_with[0]} option" if self.off_with else ""
        return {
            "ruff": f'{{"winner": seat, "paid": [a, b, c]}}: what each seat paid the winner (his own 0)'
            f"{null}{off}; may hold `calls` and `shown`, the vying call by call"
        }

    def quiet(self, answers) -> tuple[dict, list[str]]:
        if self.null == "no contest" and not self.must_be_empty(answers.options):
            return {"ruff": None}, ["no ruff contest"]
        return {}, []


# ================================================================ sets


class Sets(Phase):
    """Gleeks (three of a rank) and mournivals (all four) of ``ranks``: each set is paid
    its value from each opponent (``values``: a gleek's; a mournival doubles). With
    ``forfeits`` (Cotton), the optional key ``forfeits``: the sets the buyer called and
    was caught having laid out, each paying each opponent double its value."""

    id, title, short, section, rule = "sets", "Sets", "Set", "sets", ""
    keys = needs = ("sets",)
    ranks: tuple = ()
    values: dict = {}
    forfeits = False

    def setup(self, book) -> None:
        self.sets = {
            text: (rank, set_cards(kind)) for text, (kind, rank) in SETS.items() if rank in self.ranks
        }  # this book's sets: rank and cards used
        if self.forfeits:
            self.optional_keys = ("forfeits",)

    def value(self, kind: str, rank: str) -> int:
        value = self.values[rank]
        return 2 * value if kind == "mournival" else value

    def forfeit(self, kind: str, rank: str) -> int:
        """What a false call of the set costs its caller, to each opponent: double its value."""
        return 2 * self.value(kind, rank)

    # ------------------------------------------------------------ checks

    def checks(self) -> tuple:
        if self.forfeits:
            return ((SETS_STAGE, self.check), (FORFEITS, self.check_forfeits))
        return ((SETS_STAGE, self.check),)

    def check(self, check, options, state) -> None:
        hand = check.hand
        if "sets" not in hand:
            return
        sets = hand["sets"]
        if not (
            isinstance(sets, list)
            and len(sets) == 3
            and isinstance(sets[0], list)
            and isinstance(sets[1], list)
            and isinstance(sets[2], list)
        ):
            check.fail("sets", f"sets must be three lists, one per seat, not {describe(sets)}")
            return
        cards_of: dict = {}  # cards of each rank the table declares
        for seat, declared in enumerate(sets):
            if declared and not self._check_seat_sets(check, seat, declared, cards_of):
                return
        if cards_of and max(cards_of.values()) > 3:  # at least 3 of every rank are in play
            for rank in RANKS:
                in_play = self.book.ranks_in_play(check, rank) if cards_of.get(rank, 0) > 3 else 4
                if cards_of.get(rank, 0) > in_play:
                    check.fail(
                        "sets", f"sets declare {cards_of[rank]} {RANK_PLURALS[rank]}, but only {in_play} are in play"
                    )
                    return

    def _check_seat_sets(self, check, seat: int, declared: list, cards_of: dict) -> bool:
        """One seat's sets: each a set of this book, one per rank, no more cards than he holds."""
        ranks_seen, cards, book_sets = set(), 0, self.sets
        for text in declared:
            found = book_sets.get(text) if isinstance(text, str) else None
            if found is None:
                check.fail(
                    "sets",
                    f'sets: {check.who(seat)} declares {describe(text)}; a set is "gleek:R" or "mournival:R" with R one of {" ".join(self.ranks)}',
                )
                return False
            rank, count = found
            if rank in ranks_seen:
                check.fail("sets", f"sets: {check.who(seat)} declares two sets of {RANK_PLURALS[rank]}")
                return False
            ranks_seen.add(rank)
            cards += count
            cards_of[rank] = cards_of.get(rank, 0) + count
        if cards > CARDS_IN_A_HAND:  # every player holds 12 cards at least (modern's buyer 13)
            most = self.book.max_set_cards(check, seat)
            if cards > most:
                check.fail("sets", f"sets: {check.who(seat)} declares sets of {cards} cards but holds only {most}")
                return False
        return True

    def check_forfeits(self, check, options, state) -> None:
        """``forfeits``: three lists of sets of this book; only the buyer's may hold any
        (only he laid cards out), one per rank, none of a rank he also declares.
        They are not counted against the cards in play: they were laid out."""
        hand = check.hand
        if "forfeits" not in hand:
            return
        forfeits = hand["forfeits"]
        if not (isinstance(forfeits, list) and len(forfeits) == 3 and all(isinstance(f, list) for f in forfeits)):
            check.fail(
                "forfeits",
                f"forfeits must be three lists, one per seat (the sets each called and had "
                f"laid out), not {describe(forfeits)}",
            )
            return
        for seat, called in enumerate(forfeits):
            seen = set()
            for text in called:
                found = self.sets.get(text) if isinstance(text, str) else None
                if found is None:
                    check.fail(
                        "forfeits",
                        f'forfeits: {check.who(seat)} forfeits {describe(text)}; a set is "gleek:R" or "mournival:R" with R one of {" ".join(self.ranks)}',
                    )
                    return
                if found[0] in seen:
                    check.fail("forfeits", f"forfeits: {check.who(seat)} forfeits two sets of {RANK_PLURALS[found[0]]}")
                    return
                seen.add(found[0])
        if not check.good("auction") or not isinstance(hand["auction"], dict):
            return
        buyer = hand["auction"]["buyer"]
        for seat, called in enumerate(forfeits):
            if called and seat != buyer:
                check.fail(
                    "forfeits",
                    f"forfeits: only {check.who(buyer)} bought, so only he laid cards out "
                    f"({check.who(seat)} forfeits {describe(called)})",
                )
                return
        if check.good("sets"):
            declared = {SETS[t][1] for t in hand["sets"][buyer] if t in SETS}
            for text in forfeits[buyer]:
                rank = SETS[text][1]
                if rank in declared:
                    check.fail(
                        "forfeits",
                        f"forfeits: {check.who(buyer)} both declares and forfeits a set of {RANK_PLURALS[rank]}",
                    )
                    return

    # ------------------------------------------------------------ payments

    def transfer(self, hand: dict, options: dict | None = None) -> list:
        """Each set declared is paid its value from each opponent; each forfeited set
        pays each opponent double its value."""
        total = [0, 0, 0]
        value = self.value
        for seat, declared in enumerate(hand["sets"]):
            for text in declared:
                v = value(*SETS[text])
                total[0] -= v
                total[1] -= v
                total[2] -= v
                total[seat] += 3 * v  # net: 2 × value from the two others
        if self.forfeits and "forfeits" in hand:
            for seat, called in enumerate(hand["forfeits"]):
                for text in called:
                    v = self.forfeit(*SETS[text])
                    total[0] += v
                    total[1] += v
                    total[2] += v
                    total[seat] -= 3 * v  # net: 2 × double the value to the two others
        return total

    def reasons(self, hand: dict, options: dict, names) -> list[str]:
        lines = []
        for seat, declared in enumerate(hand["sets"]):
            for text in declared:
                kind, rank = parse_set(text)
                lines.append(f"{names[seat]}: {kind} of {RANK_PLURALS[rank]}, {self.value(kind, rank)} from each.")
        for seat, called in enumerate(hand.get("forfeits", ()) if self.forfeits else ()):
            for text in called:
                kind, rank = parse_set(text)
                lines.append(
                    f"{names[seat]} forfeits a false {kind} of {RANK_PLURALS[rank]}: "
                    f"{self.forfeit(kind, rank)} to each."
                )
        return lines or ["No sets declared."]

    # ------------------------------------------------------------ the form

    def questions(self) -> list:
        out = [
            question("SetsQuestion")(
                "sets",
                self.section,
                "Sets",
                "Any gleeks or mournivals? Tap No sets if none.",
                ask_some="Tap the sets each player declared (or No sets).",
                rules=self,
            )
        ]
        if self.forfeits:
            out.append(
                question("ForfeitsQuestion")(
                    "forfeits",
                    self.section,
                    "Forfeits",
                    "Did the buyer call a gleek or mournival laid out in the stock, and get caught?",
                    label="Called a set laid out in the stock — caught",
                    rules=self,
                )
            )  # after a name: "Cat called …"
        return out

    def record_keys(self) -> dict[str, str]:
        ranks = " ".join(self.ranks)
        keys = {"sets": f'three lists, one per seat, of the sets declared: "gleek:R" / "mournival:R", R one of {ranks}'}
        if self.forfeits:
            keys["forfeits"] = (
                "optional: three lists of sets, one per seat: those the buyer called, had laid out "
                "and was caught in (only the buyer's may hold any)"
            )
        return keys

    def quiet(self, answers) -> tuple[dict, list[str]]:
        return {"sets": [[], [], []]}, ["no sets"]


# ================================================================ the play


class Count(Phase):
    """The play: ``tricks``, three counts adding up to 12, and how the play is counted."""

    id, title, short, section, rule = "tricks", "Tricks", "Trk", "play", ""

    def check_tricks(self, check, options, state) -> None:
        if "tricks" not in check.hand or not check.three_counts("tricks"):
            return
        total = sum(check.hand["tricks"])
        if total != TRICKS_IN_A_HAND:
            check.fail("tricks", f"tricks add up to {total}, not {TRICKS_IN_A_HAND}")

    def tricks_question(self):
        return question("CountsQuestion")(
            "tricks", self.section, "Tricks", "How many tricks did each player win?", total=TRICKS_IN_A_HAND
        )


class TurnedUpCount(Count):
    """The count of a book with a turned-up card: each player's points are ``per_trick``
    a trick won and the ``count`` of each honour (the book's cards under ``honours``)
    he has (a turned-up honour counts for the dealer; a discarded one for nobody); the
    total T is 3 × 12 and the honours, less any discarded, and each player receives
    points − T/3 (parlett's 66 and 22)."""

    keys = ("tricks", "honours")
    needs = ("dealer", "turned_up", "tricks", "honours")
    per_trick = 3

    def setup(self, book) -> None:
        self.cards = book.cards.honours
        self.worth = {c.rank: c.count for c in self.cards}
        self.by_rank = {c.rank: c for c in self.cards}
        self.any_nobody = any(c.nobody for c in self.cards)
        self.total = self.per_trick * TRICKS_IN_A_HAND + book.cards.honour_count
        self.verb = CREDITS[self.cards[0].credited].verb if self.cards else "held"
        self.ranks = " ".join(c.rank for c in self.cards)

    def checks(self) -> tuple:
        return ((TRICKS, self.check_tricks), (PLAY, self.check_honours), (CROSS, self.check_mournivals))

    def check_honours(self, check, options, state) -> None:
        hand = check.hand
        if "honours" not in hand:
            return
        honours = hand["honours"]
        if not isinstance(honours, dict):
            check.fail(
                "honours",
                f"honours must be an object giving a seat for each of {self.ranks} not turned up, not {describe(honours)}",
            )
            return
        cards = self.book.cards
        if check.good("turned_up") and honours.keys() != cards.honour_keys(hand["turned_up"]):
            expected = [c.rank for c in self.cards if c.rank != hand["turned_up"]]
            missing = [r for r in expected if r not in honours]
            extra = [r for r in honours if r not in expected]
            if missing:
                check.fail(
                    "honours",
                    f"honours: who {self.verb} {' and '.join(cards.by_rank[r].called for r in missing)}? ({', '.join(missing)} missing)",
                )
                return
            if extra:
                why = [
                    f"{r} is turned up (it counts for the dealer)"
                    if r == hand["turned_up"]
                    else f"{describe(r)} is not an honour"
                    for r in extra
                ]
                check.fail("honours", "honours: " + "; ".join(why))
                return
        by_rank, anyone = self.by_rank, self.any_nobody
        for rank, seat in honours.items():
            if not (type(seat) is int and 0 <= seat <= 2):
                card = by_rank.get(rank) if isinstance(rank, str) else None
                nullable = card.nobody if card is not None else anyone
                if not (seat is None and nullable):
                    check.seat("honours", seat, nullable=nullable)  # says why
                    return
        tib = honours.get("A")
        if tib is not None and check.good("tricks") and hand["tricks"][tib] == 0 and "A" in by_rank:
            card = by_rank["A"]
            check.fail(
                "honours",
                f"honours: {check.who(tib)} {self.verb} {card.described} but won no trick; {card.name} always wins its trick",
            )

    def check_mournivals(self, check, options, state) -> None:
        """A seat declaring a mournival of an honour's rank holds that honour."""
        hand = check.hand
        if not check.good("sets", "honours", "turned_up") or not (
            hand["sets"][0] or hand["sets"][1] or hand["sets"][2]
        ):
            return
        for seat, declared in enumerate(hand["sets"]):
            for text in declared:
                kind, rank = parse_set(text)
                if kind != "mournival" or rank == hand["turned_up"] or rank not in self.worth:
                    continue
                holder = hand["honours"].get(rank)
                if holder != seat:
                    held_by = "nobody (discarded)" if holder is None else check.who(holder)
                    check.fail(
                        "sets",
                        f"sets: {check.who(seat)} declares a mournival of {RANK_NAMES[rank]}s, so holds the {RANK_NAMES[rank]} of trumps, but honours give it to {held_by}",
                    )
                    return

    # ------------------------------------------------------------ payments

    def holders(self, hand: dict) -> dict:
        """Who each honour counts for: the turned-up one is the dealer's."""
        holders = dict(hand["honours"])
        if hand["turned_up"] in self.worth:
            holders[hand["turned_up"]] = hand["dealer"]
        return holders

    def _points(self, hand: dict) -> tuple[list, int]:
        """Each player's points, and the honour points discarded (counting for nobody)."""
        per = self.per_trick
        a, b, c = hand["tricks"]
        points = [per * a, per * b, per * c]
        worth, discarded = self.worth, 0
        for rank, seat in hand["honours"].items():  # every honour not turned up
            if seat is None:
                discarded += worth[rank]
            else:
                points[seat] += worth[rank]
        if hand["turned_up"] in worth:  # the turned-up honour is the dealer's
            points[hand["dealer"]] += worth[hand["turned_up"]]
        return points, discarded

    def points(self, hand: dict) -> list:
        return self._points(hand)[0]

    def par(self, hand: dict):
        """What each player must reach to break even: a third of the total less the
        discarded honours, exactly (22 in parlett)."""
        return self._par(self._points(hand)[1])

    def _par(self, discarded):
        total = self.total - discarded
        return total // 3 if total % 3 == 0 else fraction(total, 3)

    def transfer(self, hand: dict, options: dict | None = None) -> list:
        points, discarded = self._points(hand)
        par = self._par(discarded)
        return [points[0] - par, points[1] - par, points[2] - par]

    def reasons(self, hand: dict, options: dict, names) -> list[str]:
        holders = self.holders(hand)
        points, discarded = self._points(hand)
        par = self._par(discarded)
        lines = []
        for seat in SEATS:
            parts = [f"{hand['tricks'][seat]} tricks × {self.per_trick}"]
            for card in self.cards:
                if holders.get(card.rank) == seat:
                    turned = " (turned up)" if card.rank == hand["turned_up"] else ""
                    parts.append(f"{card.called}{turned} {format_counters(card.count)}")
            lines.append(
                f"{names[seat]}: {' + '.join(parts)} = {format_counters(points[seat])}, "
                f"{signed_counters(points[seat] - par)} against {format_counters(par)}."
            )
        thrown = [c.called for c in self.cards if c.rank in holders and holders[c.rank] is None]
        if thrown:
            lines.append(f"Discarded, counting for nobody: {', '.join(thrown)}.")
        return lines

    def record_keys(self) -> dict[str, str]:
        null = ", or null if the buyer discarded it" if self.any_nobody else ""
        return {
            "tricks": "tricks won per seat, adding up to 12",
            "honours": f"an object with a key for each of {self.ranks} not turned up: the seat that "
            f"{self.verb} it{null}",
        }

    # ------------------------------------------------------------ the form

    def questions(self) -> list:
        return [
            self.tricks_question(),
            question("HonoursQuestion")(
                "honours",
                self.section,
                "Honours",
                f"Who {self.verb} each honour?",
                field="honour",
                needs="turned_up",
                rules=self,
                ask_first="Choose the turned-up card first, then who holds each honour.",
            ),
        ]
