"""The rule book: what every book shares. What differs is the book's data.

A rule book is a subclass that declares, as data:

- its words (``id``, ``name``, ``source``, ``summary``), its ``options``, its
  ``decisions`` and ``call_rules`` (shown on the rules page with their sources);
- ``cards``: its special cards, one row each (``cards.card``): Tib, King, Queen and
  Tom, Tiddy, Towser and Tumbler, with what each is worth held, turned up and in the
  count, who has it and which option turns it off;
- ``phases``: its phases in the order they are settled (``phases.py``: each a
  transfer, its reasons, its checks, its questions and its words);
- ``sections``: the moments of play the hand form follows (``core.Section``).

Everything else is derived here from those declarations, for every book: the hand
keys, the order of the checks, the questions (``hand.py``), the presets, the
transfers and their reasons. Adding a book means one module that declares a
subclass, and one line in ``scorekeeper.rules`` (``BOOKS``); nothing else switches
on a book's id.
"""

from __future__ import annotations

from .cards import Cards
from .core import (
    CARDS_IN_A_HAND,
    RANK_SET,
    RANKS,
    SETS,
    SUITS,
    HandCheck,
    PhaseRule,
    describe,
    is_seat,
    is_text,
    key_name,
)
from .phases import Auction, Count, Ruff, Sets
from .statistics import HandFacts


MAX_REASON = 200  # characters of a dispute's reason (docs/record.md)


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
            check.fail(
                "disputes", f"disputes: a reason is at most {MAX_REASON} characters (this one has {len(reason)})"
            )
            return
        seats.append(dispute["seat"])
    if len(set(seats)) != len(seats):
        check.fail("disputes", f"disputes names a seat twice: {describe(seats)}")
    elif check.good("agreed") and isinstance(agreed, list) and set(seats) & set(agreed):
        both = sorted(set(seats) & set(agreed))
        check.fail(
            "disputes",
            f"disputes: seat {' and '.join(map(str, both))} also agreed to the hand "
            "(a player agrees or disputes, not both)",
        )


NOTE_LIMIT = 500  # characters; no note at a card table needs more


class RuleBook:
    id: str = ""
    name: str = ""
    source: str = ""  # one line: where the rules come from
    summary: str = ""  # one line for the new-session form
    options: tuple = ()  # core.Option
    trumps: tuple[str, ...] = SUITS
    has_turned_up: bool = False  # a card of the stock is turned up: its suit is trump, it is the dealer's
    buyer_keeps: int = CARDS_IN_A_HAND  # the cards the buyer holds after the exchange (modern: 13)
    #: The book's special cards (``cards.card`` rows); an instance has them as a ``cards.Cards``.
    cards: tuple = ()
    #: The book's phases in the order they are settled (``phases.Phase``); an instance has
    #: its own copies, set up from its data (also as ``phase_info``).
    phases: tuple = ()
    #: The form's sections in the order of play (``core.Section``).
    sections: tuple = ()
    decisions: tuple = ()  # core.Decision
    #: The auction and the ruff call by call, in plain words (the rules page; ``calls.py``).
    call_rules: tuple[str, ...] = ()
    optional_hand_keys: tuple[str, ...] = ("note", "agreed", "disputes")

    def __init__(self):
        self.cards = Cards(type(self).cards)
        self.phases = self.phase_info = tuple(p.bound(self) for p in type(self).phases)
        self.phase_ids = tuple(p.id for p in self.phases)
        self.phase_rules = tuple(PhaseRule(p.id, p.rule) for p in self.phases)
        self._by_id = {p.id: p for p in self.phases}
        self._transfers = tuple((p.id, p.transfer) for p in self.phases)
        self.hand_keys = (
            ("dealer", "trump")
            + (("turned_up",) if self.has_turned_up else ())
            + tuple(key for p in self.phases for key in p.keys)
        )
        self.optional_hand_keys = type(self).optional_hand_keys + tuple(k for p in self.phases for k in p.optional_keys)
        self._hand_key_set = frozenset(self.hand_keys)
        self._trump_set = frozenset(self.trumps)
        staged = [(stage, index, check) for index, p in enumerate(self.phases) for stage, check in p.checks()]
        self._checks = tuple(check for _, _, check in sorted(staged, key=lambda s: s[:2]))
        self._questions = None
        self._shortcuts()

    def _shortcuts(self) -> None:
        """What ``calls.py``, the form and the tests read of the book's stock, ruff, sets and
        count, found by what the phases are (a book without one of them has none of its names)."""
        for phase in self.phases:
            if isinstance(phase, Auction):
                self.bidding = phase
                self.opening_price, self.price_step, self.even_prices = phase.opening, phase.step, phase.even
                self.eldest_must_buy, self.exact_bids = phase.eldest_must_buy, phase.exact
                self.min_price, self.unreachable_prices = phase.min_price, phase.unreachable_prices
                self.unreachable_price, self.price_choices = phase.unreachable_price, phase.price_choices
                self.auction_may_be_empty, self.auction_must_be_empty = phase.may_be_empty, phase.must_be_empty
            elif isinstance(phase, Ruff):
                self.vying_phase = phase
                self.vying, self.ruff_values, self.four_aces_win = phase.vying, phase.values, phase.four_aces_win
                self.first_ruff_opening = phase.first
                self.ruff_opening, self.ruff_opening_after = phase.opening, phase.opening_after
                self.ruff_stake_problem, self.ruff_stake_choices = phase.stake_problem, phase.stake_choices
                self.ruff_may_be_empty, self.ruff_must_be_empty = phase.may_be_empty, phase.must_be_empty
                self.next_hand_note = phase.next_hand_note
            elif isinstance(phase, Sets):
                self.set_ranks, self.gleek_values, self.set_value = phase.ranks, phase.values, phase.value
            elif isinstance(phase, Count) and hasattr(phase, "par"):
                self.points, self.par = phase.points, phase.par

    def next_hand_note(self, hands_before: list) -> str | None:
        """Anything the table should know before the next deal (the table page says it)."""
        return None

    def record_keys(self) -> dict[str, str]:
        """What each hand key of this book holds in a record, in order (docs/record.md)."""
        trumps = " ".join(f"`{t}`" for t in self.trumps)
        keys = {"dealer": "the seat that dealt", "trump": f"the trump suit: {trumps}"}
        if self.has_turned_up:
            keys["turned_up"] = "the rank of the turned-up card (the dealer's)"
        for phase in self.phases:
            keys.update(phase.record_keys())
        return keys

    def halves(self) -> list[str]:
        """Where this book pays a half counter (the finest amount there is), phase by phase."""
        return [text for text in (p.halves() for p in self.phases) if text]

    # ------------------------------------------------------------ the hand's questions

    def declare(self) -> list:
        """Every question of this book's hand, in the order of play (``hand.Question``):
        the deal's, each phase's, and the note, section by section."""
        from .hand import (
            ChoiceQuestion,
            SeatQuestion,
            TextQuestion,
            suit_labels,
        )  # the hand declarations (~18 ms): only the form's, never settle's

        turned = self.has_turned_up
        questions = [
            SeatQuestion("dealer", "deal", "Dealer", "Who dealt?", reads_as="{} dealt"),
            ChoiceQuestion(
                "trump",
                "deal" if turned else "trump",
                "Trump",
                "What is trump?",
                label="Turned-up card: suit (trump)" if turned else "",
                values=self.trumps,
                labels=suit_labels(self.trumps),
                look="suits",
            ),
        ]
        if turned:
            questions.append(
                ChoiceQuestion(
                    "turned_up",
                    "deal",
                    "Turned-up card",
                    "Which card was turned up?",
                    label="Turned-up card: rank",
                    values=RANKS,
                    reads_as="{} up",
                    look="ranks",
                )
            )
        for phase in self.phases:
            questions += phase.questions()
        questions.append(TextQuestion("note", "note", "Note", label="Note (optional)", limit=NOTE_LIMIT))
        order = {s.id: i for i, s in enumerate(self.sections)}
        return sorted(questions, key=lambda q: order.get(q.section, len(order)))

    @property
    def questions(self) -> tuple:
        """The declared questions (made when first asked for: ``settle`` never asks)."""
        if self._questions is None:
            self._questions = tuple(self.declare())
        return self._questions

    def question(self, key: str):
        return next(q for q in self.questions if q.key == key)

    def answers(self, hand: dict, options: dict, hands_before: list = (), names=("", "", "")):
        from .hand import Answers  # the hand declarations (~18 ms): only the form's, never settle's

        return Answers(self, hand, self.resolved_options(options), list(hands_before), names)

    def presets(self, answers) -> list:
        """One-tap answers for what most hands have (``hand.Preset``): the quiet hand
        (each phase's part of it, in the first phase's section), then each phase's own."""
        from .hand import Preset  # the hand declarations (~18 ms): only the form's, never settle's

        quiet, parts = {}, []
        for phase in self.phases:
            some, words = phase.quiet(answers)
            quiet.update(some)
            parts += words
        presets = [Preset("quiet", "Quiet hand: " + ", ".join(parts), self.phases[0].section, quiet)] if quiet else []
        for phase in self.phases:
            presets += phase.presets(answers)
        return presets

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

    # ------------------------------------------------------------ the pack

    def ranks_in_play(self, check: HandCheck, rank: str) -> int:
        """Cards of ``rank`` in the play: 3 of the turned-up card's rank, else 4."""
        if self.has_turned_up and check.good("turned_up") and check.hand["turned_up"] == rank:
            return 3
        return 4

    def max_set_cards(self, check: HandCheck, seat: int) -> int:
        """The cards ``seat`` holds in the play: the buyer may keep more (modern's 13)."""
        if self.buyer_keeps == CARDS_IN_A_HAND:
            return CARDS_IN_A_HAND
        if not check.good("auction"):
            return self.buyer_keeps
        auction = check.hand["auction"]
        return self.buyer_keeps if auction is not None and auction["buyer"] == seat else CARDS_IN_A_HAND

    # ------------------------------------------------------------ checks

    def required_keys(self) -> tuple[str, ...]:
        return self.hand_keys

    def check_hand(
        self, number: int, hand: object, options: dict, hands_before: list, names: tuple, opening: int | None = None
    ) -> list:
        """Every problem with one hand (``number`` is 1-based). ``opening`` is the ruff's
        opening stake, if the caller has counted it (else it is counted from ``hands_before``)."""
        check = HandCheck(number, hand if isinstance(hand, dict) else {}, names)
        if not isinstance(hand, dict):
            check.fail("hand", f"is not a hand (an object with dealer, trump, …), but {describe(hand)}")
            return check.problems
        if opening is None:
            opening = self.ruff_opening(hands_before) if hasattr(self, "ruff_opening") else 0
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
        if (
            self.has_turned_up
            and "turned_up" in hand
            and not (isinstance(hand["turned_up"], str) and hand["turned_up"] in RANK_SET)
        ):
            check.fail("turned_up", f"turned_up must be a rank ({' '.join(RANKS)}), not {describe(hand['turned_up'])}")
        state = {"opening": opening}
        for phase_check in self._checks:
            phase_check(check, options, state)
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

    # ------------------------------------------------------------ phases

    def transfers(self, hand: dict, options: dict) -> dict:
        """Every phase's transfer for a valid hand, in this book's order."""
        return {phase: transfer(hand, options) for phase, transfer in self._transfers}

    def phase(self, phase: str, hand: dict, options: dict) -> list:
        """One phase's transfer."""
        return self._by_id[phase].transfer(hand, options)

    def reasons(self, hand: dict, options: dict, names) -> dict[str, list[str]]:
        """One line per payment in each phase, in the table's words. A hand with calls
        (docs/rules.md, "Call by call") also reads them out and says why each ruff
        loser pays what he pays."""
        return {p.id: p.reasons(hand, options, names) for p in self.phases}

    def phase_reasons(self, phase: str, hand: dict, options: dict, names) -> list[str]:
        """One phase's lines; only its own keys are needed."""
        return self._by_id[phase].reasons(hand, options, names)

    # ------------------------------------------------------------ what a season adds up

    def season_facts(self, hand: dict, options: dict) -> HandFacts:
        """What a season's statistics count of one valid hand that takes this book's
        rules to know, found by what its phases and cards are (``rules/statistics.py``):
        the stock's buyer and price, the ruff's winner and whether the winner showed four
        Aces (``ruff.shown``, docs/record.md, call by call), the sets each seat declared, and
        who holds each of the book's side cards (Tiddy, Towser, Tumbler) this hand:
        whoever the hand says has it, the dealer when it is the turned-up card; none of
        a card switched off by the session's options, or under Kiss (no trumps)."""
        plan = self._season_plan
        if plan is None:
            plan = self._season_plan = self._plan_season()
        auction_key, ruff_key, sets_key, side = plan
        buyer, price, winner, aces = None, 0, None, False
        if auction_key is not None:
            auction = hand[auction_key]
            if auction is not None:
                buyer, price = auction["buyer"], auction["price"]
        if ruff_key is not None:
            ruff = hand[ruff_key]
            if ruff is not None:
                winner = ruff["winner"]
                shown = ruff.get("shown")
                aces = bool(shown) and shown[winner] == "aces"  # calls.FOUR_ACES
        sets = ((), (), ())
        if sets_key is not None:
            sets = tuple([tuple(map(SETS.__getitem__, declared)) for declared in hand[sets_key]])
        held = []
        if side and hand.get("trump") != "none":
            turned = hand.get("turned_up")
            for card in side:
                if card.option is not None and not self.option(options, card.option):
                    continue
                seat = hand["dealer"] if turned == card.rank else hand.get(card.key)
                if seat is not None:
                    held.append((card.name, seat))
        return HandFacts(buyer=buyer, price=price, ruff_winner=winner, by_four_aces=aces, sets=sets, held=tuple(held))

    _season_plan = None

    def _plan_season(self) -> tuple:
        auction_key = ruff_key = sets_key = None
        for phase in self.phases:
            if isinstance(phase, Auction):
                auction_key = phase.keys[0]
            elif isinstance(phase, Ruff):
                ruff_key = phase.keys[0]
            elif isinstance(phase, Sets):
                sets_key = phase.keys[0]
        side = tuple(card for card in self.cards if card.side)
        return auction_key, ruff_key, sets_key, side

    def side_cards(self) -> tuple[str, ...]:
        """The names of the book's side cards (paid for by themselves): Tiddy, Towser, Tumbler."""
        return tuple(card.name for card in self.cards if card.side)
