"""The rule book base class: what every book shares, with hooks for what differs.

A rule book is a subclass with class attributes for its numbers and methods
for its phases. It also declares its hand (``sections``, ``questions``,
``presets``, ``phase_info``; see ``hand.py``), which the form, the pages and the
sheet loop over. Adding a book means adding one module that defines a subclass
and registering it in ``scorekeeper.rules`` (``BOOKS``); nothing else switches
on a book's id. A book may add hand keys (``hand_keys``, a question for each)
and phases of its own (``phase_info`` and a method named after the phase).
"""

from __future__ import annotations

from .core import (
    CARDS_IN_A_HAND,
    RANK_PLURALS,
    RANK_SET,
    RANKS,
    SEATS,
    SETS,
    SUITS,
    TRICKS_IN_A_HAND,
    Decision,
    HandCheck,
    Option,
    Phase,
    PhaseRule,
    Transfer,
    describe,
    is_text,
    eldest,
    format_counters,
    from_each,
    half,
    is_seat,
    key_name,
    nothing,
    parse_set,
    set_cards,
)


def phase_info(tiddy_needs: tuple, tricks_needs: tuple) -> tuple:
    """The five phases of docs/rules.md, in the order they are settled."""
    return (
        Phase("tiddy", "Tiddy", "Tdy", "tiddy", tiddy_needs),
        Phase("auction", "Stock", "Stk", "stock", ("auction",)),
        Phase("ruff", "Ruff", "Ruf", "ruff", ("ruff",)),
        Phase("sets", "Sets", "Set", "sets", ("sets",)),
        Phase("tricks", "Tricks", "Trk", "play", tricks_needs),
    )


RUFF_KEYS = frozenset(("winner", "paid", "calls", "shown"))
_CALLS = []


def calls():
    """``rules/calls.py``, imported the first time a hand has calls (a session without
    them never pays for it)."""
    if not _CALLS:
        from . import calls as module

        _CALLS.append(module)
    return _CALLS[0]


def fixed(value, reason: str):
    """An answer the rules fix (``hand.Fixed``; the hand module is loaded only by the form)."""
    from .hand import Fixed

    return Fixed(value, reason)


MAX_REASON = 200  # characters of a dispute's reason (§6)


def check_agreed(check: HandCheck, agreed) -> None:
    """``agreed``: the distinct seats that agreed to the hand (settle ignores it)."""
    if not (isinstance(agreed, list) and all(is_seat(s) for s in agreed)):
        check.fail("agreed", f"agreed must be a list of the seats that agreed (0, 1, 2), not {describe(agreed)}")
    elif len(set(agreed)) != len(agreed):
        check.fail("agreed", f"agreed names a seat twice: {describe(agreed)}")


def check_disputes(check: HandCheck, disputes, agreed) -> None:
    """``disputes``: ``{"seat": s, "reason": "…"}`` for each player who disputes
    the hand, distinct seats, none of them also in ``agreed`` (settle ignores it)."""
    shape = 'a list of {"seat": s, "reason": "…"}, one per player who disputes the hand'
    if not isinstance(disputes, list):
        check.fail("disputes", f"disputes must be {shape}, not {describe(disputes)}")
        return
    seats = []
    for dispute in disputes:
        if not (isinstance(dispute, dict) and sorted(dispute) == ["reason", "seat"] and is_seat(dispute["seat"])):
            check.fail("disputes", f"disputes must be {shape}, not {describe(dispute)} in it")
            return
        reason = dispute["reason"]
        if not isinstance(reason, str):
            check.fail("disputes", f"disputes: a reason must be text, not {describe(reason)}")
            return
        if not is_text(reason):
            check.fail("disputes", "disputes: a reason contains a character that is not valid text")
            return
        if len(reason) > MAX_REASON:
            check.fail("disputes", f"disputes: a reason is at most {MAX_REASON} characters (this one has {len(reason)})")
            return
        seats.append(dispute["seat"])
    if len(set(seats)) != len(seats):
        check.fail("disputes", f"disputes names a seat twice: {describe(seats)}")
    elif check.good("agreed") and isinstance(agreed, list) and set(seats) & set(agreed):
        both = sorted(set(seats) & set(agreed))
        check.fail("disputes", f"disputes: seat {' and '.join(map(str, both))} also agreed to the hand "
                               "(a player agrees or disputes, not both)")


class RuleBook:
    id: str = ""
    name: str = ""
    source: str = ""  # one line: where the rules come from
    summary: str = ""  # one line for the new-session form
    options: tuple[Option, ...] = ()
    trumps: tuple[str, ...] = SUITS
    has_turned_up: bool = False
    set_ranks: tuple[str, ...] = ()
    gleek_values: dict[str, int] = {}
    opening_price: int = 13
    price_step: int = 1
    even_prices: bool = False
    eldest_must_buy: bool = True  # eldest's first bid must be the opening price (no pass)
    exact_bids: bool = True  # each bid exactly price_step more (else: at least price_step more)
    tiddy_held: int = 2
    hand_keys: tuple[str, ...] = ()
    optional_hand_keys: tuple[str, ...] = ("note", "agreed", "disputes")
    # §9, call by call (read by rules/calls.py): the vying's words and stakes, a card's
    # value in a ruff, and whether four Aces beat every ruff
    vying = None
    ruff_values: dict[str, int] = {}
    four_aces_win: bool = False
    phase_rules: tuple[PhaseRule, ...] = ()
    decisions: tuple[Decision, ...] = ()
    #: The auction and the ruff call by call, in plain words (the rules page; ``calls.py``).
    call_rules: tuple[str, ...] = ()
    #: The phases this book settles, in order (``Phase``; see ``phase_info()``).
    phase_info: tuple = ()
    #: The form's sections in the order of play (``hand.Section``).
    sections: tuple = ()

    def __init__(self):
        self._questions = None
        self.phase_ids = tuple(p.id for p in self.phase_info)
        self._phase_methods = tuple((p, getattr(self, p)) for p in self.phase_ids)

    def declare(self) -> list:
        """Every question of this book's hand, in the order of play (``hand.Question``)."""
        return []

    @property
    def questions(self) -> tuple:
        """The declared questions (made when first asked for: ``settle`` never asks)."""
        if self._questions is None:
            self._questions = tuple(self.declare())
        return self._questions

    def question(self, key: str):
        return next(q for q in self.questions if q.key == key)

    def answers(self, hand: dict, options: dict, hands_before: list = (), names=("", "", "")):
        from .hand import Answers

        return Answers(self, hand, self.resolved_options(options), list(hands_before), names)

    def __init_subclass__(cls, **kwargs):
        """Lookups the checks use, made once from the book's declarations."""
        super().__init_subclass__(**kwargs)
        cls._hand_key_set = frozenset(cls.hand_keys)
        cls._trump_set = frozenset(cls.trumps)
        cls._sets = {text: (rank, set_cards(kind)) for text, (kind, rank) in SETS.items()
                     if rank in cls.set_ranks}  # this book's sets: rank and cards used

    # ------------------------------------------------------------ options

    def default_options(self) -> dict[str, bool]:
        return {o.name: o.default for o in self.options}

    def option(self, options: dict, name: str) -> bool:
        """One session option: as the session gives it, else the book's default."""
        if options and name in options:
            return bool(options[name])
        return next(o.default for o in self.options if o.name == name)

    def resolved_options(self, options: dict | None) -> dict[str, bool]:
        resolved = self.default_options()
        resolved.update(options or {})
        return resolved

    # ------------------------------------------------------------ hands

    def required_keys(self) -> tuple[str, ...]:
        return self.hand_keys

    first_ruff_opening = 2

    def ruff_opening(self, hands_before: list) -> int:
        """The smallest amount a ruff loser can pay in the next hand."""
        opening = self.first_ruff_opening
        for hand in hands_before:
            opening = self.ruff_opening_after(opening, hand)
        return opening

    def ruff_opening_after(self, opening: int, hand: object) -> int:
        """The opening stake of the hand after ``hand``, played at ``opening``."""
        return self.first_ruff_opening

    def next_hand_note(self, hands_before: list) -> str | None:
        """Anything the table should know before the next deal (the table page says it)."""
        return None

    def auction_may_be_empty(self, options: dict) -> bool:
        return False

    def auction_must_be_empty(self, options: dict) -> bool:
        return False

    def ruff_may_be_empty(self, options: dict) -> bool:
        return False

    def ruff_must_be_empty(self, options: dict) -> bool:
        return False

    def min_price(self, buyer: int, dealer: int) -> int:
        if self.eldest_must_buy and buyer != (dealer + 1) % 3:  # not eldest
            return self.opening_price + 1 if not self.even_prices else self.opening_price + 2
        return self.opening_price

    def ruff_stake_problem(self, amount: int, opening: int) -> str | None:
        """Why ``amount`` cannot be what a ruff loser paid, or None."""
        raise NotImplementedError

    def unreachable_prices(self, buyer: int, dealer: int) -> tuple[int, ...]:
        """Prices no bidding reaches (docs/rules.md, "Call by call"): where every bid is exactly
        one step more and eldest must open, eldest's next bid after his opening is
        two steps up, and middle's after his first is two steps up again."""
        if not self.eldest_must_buy:
            return ()
        if buyer == eldest(dealer):
            return (self.opening_price + self.price_step,)
        if buyer == (dealer + 2) % 3:
            return (self.opening_price + 2 * self.price_step,)
        return ()

    def price_choices(self, buyer: int | None, dealer: int | None, count: int = 10) -> list[int]:
        """The first ``count`` prices this buyer can have paid (for the form's chips)."""
        if buyer is None or dealer is None:
            start, skip = self.opening_price, ()
        else:
            start, skip = self.min_price(buyer, dealer), self.unreachable_prices(buyer, dealer)
        prices, price = [], start
        while len(prices) < count:
            if price not in skip:
                prices.append(price)
            price += self.price_step
        return prices

    def presets(self, answers) -> list:
        """One-tap answers for what most hands have (``hand.Preset``)."""
        from .hand import Preset

        quiet, parts = {}, []
        if self.question("tiddy").fixed(answers) is None:
            quiet["tiddy"], _ = None, parts.append("no Tiddy")
        if self.ruff_may_be_empty(answers.options) and not self.ruff_must_be_empty(answers.options):
            quiet["ruff"], _ = None, parts.append("no ruff contest")
        quiet["sets"], _ = [[], [], []], parts.append("no sets")
        presets = [Preset("quiet", "Quiet hand: " + ", ".join(parts), "tiddy", quiet)]
        if answers.dealer is not None and self.question("auction").fixed(answers) is None:
            first = eldest(answers.dealer)
            presets.append(Preset("eldest-opening", f"{answers.who(first)} (eldest) bought at {self.opening_price}",
                                  "stock", {"auction": {"buyer": first, "price": self.opening_price}}))
        return presets

    # ------------------------------------------------------------ fixed answers

    def tiddy_out_of_play(self, check, options: dict) -> tuple[str, str] | None:
        """Why nobody can be paid for holding Tiddy in this hand, or None: the
        reason in a check's words and in the form's words."""
        return None

    def fixed_tiddy(self, answers):
        why = self.tiddy_out_of_play(answers, answers.options)
        return fixed(None, why[1]) if why else None

    def fixed_auction(self, answers):
        if self.auction_must_be_empty(answers.options):
            return fixed(None, "Simplified Gleek: no auction.")
        return None

    def fixed_ruff(self, answers):
        if self.ruff_must_be_empty(answers.options):
            return fixed(None, "Simplified Gleek: no ruff.")
        return None

    def ruff_stake_choices(self, opening: int, count: int) -> list[int]:
        """The first ``count`` amounts a ruff loser may pay (for the form's chips)."""
        return [a for a in range(opening, opening + 4 * count) if self.ruff_stake_problem(a, opening) is None][:count]

    def set_value(self, kind: str, rank: str) -> int:
        value = self.gleek_values[rank]
        return 2 * value if kind == "mournival" else value

    def ranks_in_play(self, check: HandCheck, rank: str) -> int:
        return 4

    def max_set_cards(self, check: HandCheck, seat: int) -> int:
        return 12

    def check_hand(self, number: int, hand: object, options: dict, hands_before: list,
                   names: tuple, opening: int | None = None) -> list:
        """Every problem with one hand (``number`` is 1-based). ``opening`` is the ruff's
        opening stake, if the caller has counted it (else it is counted from ``hands_before``)."""
        check = HandCheck(number, hand if isinstance(hand, dict) else {}, names)
        if not isinstance(hand, dict):
            check.fail("hand", f"is not a hand (an object with dealer, trump, …), but {describe(hand)}")
            return check.problems
        if opening is None:
            opening = self.ruff_opening(hands_before)
        self._check_keys(check)
        if "note" in hand and not isinstance(hand["note"], str):
            check.fail("note", f"note must be text, not {describe(hand['note'])}")
        elif "note" in hand and not is_text(hand["note"]):
            check.fail("note", "note contains a character that is not valid text")
        if "agreed" in hand:
            check_agreed(check, hand["agreed"])
        if "disputes" in hand:
            check_disputes(check, hand["disputes"], hand.get("agreed", []))

        if "dealer" in hand:
            check.seat("dealer", hand["dealer"])
        if "trump" in hand and not (isinstance(hand["trump"], str) and hand["trump"] in self._trump_set):
            allowed = ", ".join(self.trumps)
            check.fail("trump", f"trump must be one of {allowed}, not {describe(hand['trump'])}")
        if self.has_turned_up and "turned_up" in hand and not (isinstance(hand["turned_up"], str)
                                                              and hand["turned_up"] in RANK_SET):
            check.fail("turned_up", f"turned_up must be a rank ({' '.join(RANKS)}), not {describe(hand['turned_up'])}")
        self._check_tiddy(check, options)
        self._check_auction(check, options)
        ruff_calls = self._check_ruff(check, options, opening)
        self._check_tricks(check)
        self.check_play(check, options)
        self._check_sets(check, options)
        self.check_sets_against_play(check, options)
        if ruff_calls is not None:  # after the sets: a declared mournival of Aces shows four Aces
            calls().check_ruff_calls(*ruff_calls)
        return check.problems

    def _check_keys(self, check: HandCheck) -> None:
        hand = check.hand
        required = self.required_keys()
        if required is self.hand_keys and hand.keys() == self._hand_key_set:  # the usual hand
            return
        for key in required:
            if key not in hand:
                check.fail(key, f"{key} is missing")
        for key in hand:
            if key not in required and key not in self.optional_hand_keys:
                check.fail(key, f"{key_name(key)} is not part of a {self.id} hand")


    def _check_tiddy(self, check: HandCheck, options: dict) -> None:
        hand = check.hand
        if "tiddy" not in hand or not check.seat("tiddy", hand["tiddy"], nullable=True):
            return
        if hand["tiddy"] is not None:
            why = self.tiddy_out_of_play(check, options)
            if why:
                check.fail("tiddy", f"tiddy must be null {why[0]}")

    def _check_auction(self, check: HandCheck, options: dict) -> None:
        hand = check.hand
        if "auction" not in hand:
            return
        auction = hand["auction"]
        if auction is None:
            if not self.auction_may_be_empty(options):
                check.fail("auction", "auction cannot be null: somebody always buys the stock in this rule book")
            return
        if self.auction_must_be_empty(options):
            check.fail("auction", "auction must be null: simplified Gleek has no auction")
            return
        if not (isinstance(auction, dict) and "buyer" in auction and "price" in auction
                and len(auction) == (3 if "bids" in auction else 2)):
            check.fail("auction", f'auction must be {{"buyer": seat, "price": n}}{" or null" if self.auction_may_be_empty(options) else ""}, not {describe(auction)}')
            return
        if "bids" in auction and check.good("dealer"):  # §9.1, call by call
            module = calls()
            state = module.replay_bids(self, check.hand["dealer"], auction["bids"], check.names)
            if module.bids_give(state, auction):
                return  # the bids make this result, so it is right
            self._check_auction_result(check, auction)
            module.check_bids(state, check, auction, result_ok="auction" not in check.bad)
        else:
            self._check_auction_result(check, auction)

    def _check_auction_result(self, check: HandCheck, auction: dict) -> None:
        hand = check.hand
        ok = check.seat("auction", auction["buyer"])
        price = auction["price"]
        if type(price) is not int:
            check.fail("auction", f"auction price must be a whole number, not {describe(price)}")
            return
        if price < self.opening_price:
            check.fail("auction", f"auction price {price} is below the opening bid of {self.opening_price}")
            return
        if self.even_prices and price % 2:
            check.fail("auction", f"auction price {price} is odd: bids go up by 2 from {self.opening_price}")
            return
        if ok and check.good("dealer"):
            lowest = self.min_price(auction["buyer"], hand["dealer"])
            if price < lowest:
                check.fail("auction", f"auction: {check.who(auction['buyer'])} is not eldest, so bought at {lowest} or more, not {price} (eldest opens at {self.opening_price})")
                return
            problem = self.unreachable_price(auction["buyer"], hand["dealer"], price)
            if problem:
                check.fail("auction", f"auction: {check.who(auction['buyer'])} {problem}")

    def unreachable_price(self, buyer: int, dealer: int, price: int) -> str | None:
        """Why no bidding reaches ``price`` for ``buyer`` (§3, §4, §7), or None.

        With every bid exactly one step more and a pass final, two others speak
        between a player's bids, so his next bid is two steps above his last:
        eldest (first bid: the opening) never buys one step above it, and middle
        (first bid: one step above) never two steps above."""
        if not (self.exact_bids and self.eldest_must_buy):
            return None
        opening, step = self.opening_price, self.price_step
        position = (buyer - dealer - 1) % 3  # 0 eldest, 1 middle, 2 dealer
        if position == 2 or price > opening + 2 * step:
            return None
        if position == 0 and price == opening + step:
            return (f"is eldest, so after opening at {opening} his next bid is {opening + 2 * step}: "
                    f"eldest never buys at {price}")
        if position == 1 and price == opening + 2 * step:
            return (f"is middle, so after bidding {opening + step} his next bid is {opening + 3 * step}: "
                    f"middle never buys at {price}")
        return None

    def _check_ruff(self, check: HandCheck, options: dict, opening: int) -> tuple | None:
        """The ruff's shape and result; with calls, the arguments of their check
        (``calls.check_ruff_calls``, made after the sets), else None."""
        hand = check.hand
        if "ruff" not in hand:
            return None
        ruff = hand["ruff"]
        if ruff is None:
            if not self.ruff_may_be_empty(options):
                check.fail("ruff", "ruff cannot be null: somebody always wins the ruff in this rule book")
            return None
        if self.ruff_must_be_empty(options):
            check.fail("ruff", "ruff must be null: simplified Gleek has no ruff")
            return None
        if not (isinstance(ruff, dict) and "winner" in ruff and "paid" in ruff
                and (len(ruff) == 2 or ruff.keys() <= RUFF_KEYS)):
            check.fail("ruff", f'ruff must be {{"winner": seat, "paid": [a, b, c]}}, not {describe(ruff)}')
            return None
        if "shown" in ruff and "calls" not in ruff:
            check.fail("ruff", "ruff: shown is given only with the calls (ruff.calls) that end in the showdown")
            return None
        if "calls" in ruff and check.good("dealer"):  # §9.2, call by call
            module = calls()
            state = module.replay_ruff(self, check.hand["dealer"], ruff["calls"], check.names, opening, record=False)
            given = module.calls_give(state, ruff)
            if not given:  # (if they do, the calls make this result, so it is right)
                self._check_ruff_result(check, ruff, opening)
            return state, check, ruff, "ruff" not in check.bad, given
        self._check_ruff_result(check, ruff, opening)
        return None

    def _check_ruff_result(self, check: HandCheck, ruff: dict, opening: int) -> None:
        """``winner`` and ``paid`` by themselves (§7)."""
        if not check.seat("ruff", ruff["winner"]):
            return
        paid = ruff["paid"]
        if not (isinstance(paid, list) and len(paid) == 3
                and type(paid[0]) is int and type(paid[1]) is int and type(paid[2]) is int):
            check.fail("ruff", f"ruff paid must be three whole numbers, one per seat, not {describe(paid)}")
            return
        winner = ruff["winner"]
        if paid[winner] != 0:
            check.fail("ruff", f"ruff: the winner {check.who(winner)} pays nothing, so their paid entry must be 0, not {paid[winner]}")
            return
        for seat in SEATS:
            if seat == winner:
                continue
            problem = self.ruff_stake_problem(paid[seat], opening)
            if problem:
                check.fail("ruff", f"ruff: {check.who(seat)} paid {paid[seat]}, {problem}")
                return

    def _check_tricks(self, check: HandCheck) -> None:
        if "tricks" not in check.hand or not check.three_counts("tricks"):
            return
        total = sum(check.hand["tricks"])
        if total != TRICKS_IN_A_HAND:
            check.fail("tricks", f"tricks add up to {total}, not {TRICKS_IN_A_HAND}")

    def _check_sets(self, check: HandCheck, options: dict) -> None:
        hand = check.hand
        if "sets" not in hand:
            return
        sets = hand["sets"]
        if not (isinstance(sets, list) and len(sets) == 3
                and isinstance(sets[0], list) and isinstance(sets[1], list) and isinstance(sets[2], list)):
            check.fail("sets", f"sets must be three lists, one per seat, not {describe(sets)}")
            return
        cards_of: dict = {}  # cards of each rank the table declares
        for seat, declared in enumerate(sets):
            if declared and not self._check_seat_sets(check, seat, declared, cards_of):
                return
        if cards_of and max(cards_of.values()) > 3:  # at least 3 of every rank are in play
            for rank in RANKS:
                in_play = self.ranks_in_play(check, rank) if cards_of.get(rank, 0) > 3 else 4
                if cards_of.get(rank, 0) > in_play:
                    check.fail("sets", f"sets declare {cards_of[rank]} {RANK_PLURALS[rank]}, but only {in_play} are in play")
                    return

    def _check_seat_sets(self, check: HandCheck, seat: int, declared: list, cards_of: dict) -> bool:
        """One seat's sets: each a set of this book, one per rank, no more cards than he holds."""
        ranks_seen, cards, book_sets = set(), 0, self._sets
        for text in declared:
            found = book_sets.get(text) if isinstance(text, str) else None
            if found is None:
                allowed = " ".join(self.set_ranks)
                check.fail("sets", f'sets: {check.who(seat)} declares {describe(text)}; a set is "gleek:R" or "mournival:R" with R one of {allowed}')
                return False
            rank, count = found
            if rank in ranks_seen:
                check.fail("sets", f"sets: {check.who(seat)} declares two sets of {RANK_PLURALS[rank]}")
                return False
            ranks_seen.add(rank)
            cards += count
            cards_of[rank] = cards_of.get(rank, 0) + count
        if cards > CARDS_IN_A_HAND:  # every player holds 12 cards at least (modern's buyer 13)
            most = self.max_set_cards(check, seat)
            if cards > most:
                check.fail("sets", f"sets: {check.who(seat)} declares sets of {cards} cards but holds only {most}")
                return False
        return True

    def check_play(self, check: HandCheck, options: dict) -> None:
        """Book-specific checks of the play (honours, card points, …)."""

    def check_sets_against_play(self, check: HandCheck, options: dict) -> None:
        """Book-specific checks tying declared sets to the play."""

    # ------------------------------------------------------------ phases

    def phases(self, hand: dict, options: dict) -> dict[str, Transfer]:
        """Every phase's transfer for a valid hand, in this book's order."""
        return {phase: method(hand, options) for phase, method in self._phase_methods}

    def phase(self, phase: str, hand: dict, options: dict) -> Transfer:
        """One phase's transfer (a method named after the phase)."""
        return getattr(self, phase)(hand, options)

    def tiddy(self, hand: dict, options: dict) -> Transfer:
        if hand["tiddy"] is None:
            return nothing()
        return from_each(hand["tiddy"], self.tiddy_held)

    def auction(self, hand: dict, options: dict | None = None) -> Transfer:
        """The buyer pays half the price to each opponent (so ``-price`` for him: exact)."""
        auction = hand["auction"]
        if auction is None:
            return nothing()
        buyer, price = auction["buyer"], auction["price"]
        share = half(price)
        return [-price if s == buyer else share for s in SEATS]

    def ruff(self, hand: dict, options: dict | None = None) -> Transfer:
        if hand["ruff"] is None:
            return nothing()
        winner, paid = hand["ruff"]["winner"], hand["ruff"]["paid"]
        transfer = [-p for p in paid]
        transfer[winner] = sum(paid)
        return transfer

    def sets(self, hand: dict, options: dict | None = None) -> Transfer:
        """Each set declared is paid its value from each opponent."""
        total = [0, 0, 0]
        for seat, declared in enumerate(hand["sets"]):
            for text in declared:
                value = self.set_value(*SETS[text])
                total[0] -= value
                total[1] -= value
                total[2] -= value
                total[seat] += 3 * value  # net: 2 × value from the two others
        return total

    def tricks(self, hand: dict, options: dict | None = None) -> Transfer:
        raise NotImplementedError

    # ------------------------------------------------------------ reasons

    def reasons(self, hand: dict, options: dict, names) -> dict[str, list[str]]:
        """One line per payment in each phase, in the table's words. A hand with calls
        (docs/rules.md, "Call by call") also reads them out and says why each ruff
        loser pays what he pays."""
        return {phase: self.phase_reasons(phase, hand, options, names) for phase in self.phase_ids}

    def phase_reasons(self, phase: str, hand: dict, options: dict, names) -> list[str]:
        """One phase's lines (a method ``<phase>_reasons``); only its own keys are needed."""
        return getattr(self, f"{phase}_reasons")(hand, options, names)

    def auction_reasons(self, hand: dict, options: dict, names) -> list[str]:
        auction = hand["auction"]
        if auction is None:
            return ["Nobody bought the stock."]
        each = format_counters(half(auction["price"]))
        lines = [f"{names[auction['buyer']]} bought at {auction['price']}, pays {each} to each."]
        if "bids" in auction:
            bids = calls().replay_bids(self, hand["dealer"], auction["bids"], names)
            lines.insert(0, f"{bids.line()}.")  # under the phase's title ("Stock: Ann bids 12 · …")
        return lines

    def ruff_reasons(self, hand: dict, options: dict, names) -> list[str]:
        ruff = hand["ruff"]
        if ruff is None:
            return [self.no_ruff_reason()]
        if "calls" in ruff:  # the opening stake follows from the calls and what was paid
            return calls().ruff_reasons(self, hand, names)
        winner = names[ruff["winner"]]
        return [f"{names[seat]} pays {winner} {ruff['paid'][seat]} for the ruff."
                for seat in SEATS if seat != ruff["winner"]]

    def sets_reasons(self, hand: dict, options: dict, names) -> list[str]:
        lines = []
        for seat, declared in enumerate(hand["sets"]):
            for text in declared:
                kind, rank = parse_set(text)
                lines.append(f"{names[seat]}: {kind} of {RANK_PLURALS[rank]}, {self.set_value(kind, rank)} from each.")
        return lines or ["No sets declared."]

    def tiddy_reasons(self, hand: dict, options: dict, names) -> list[str]:
        if hand["tiddy"] is None:
            return ["Nobody is paid for Tiddy."]
        return [f"{names[hand['tiddy']]} holds Tiddy (the Four of trumps): {self.tiddy_held} from each."]

    def no_ruff_reason(self) -> str:
        return "No ruff."

    def tricks_reasons(self, hand: dict, options: dict, names) -> list[str]:
        return []
