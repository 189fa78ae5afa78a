"""Every rule book as the tests state it again, from docs/rules.md (not from the engine):
one ``Book`` per id in ``MODELS``. The suites take their list of books from the app's
own ``scorekeeper.rules.BOOKS`` and what each book is from here, so a new book is in
every suite once it is registered and stated here (``tests/rules/test_every_book.py``
fails until it is: a book the app has and the tests do not know is never skipped).

Nothing here reads the engine's numbers: a wrong constant in a book shows up as a
failing test rather than being copied into the expectation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
HONOURS = ("A", "K", "Q", "J")
SUITS = ("clubs", "diamonds", "hearts", "spades")
HONOUR_POINTS = {"A": 15, "K": 3, "Q": 3, "J": 9}
OLD_GLEEKS = {"A": 4, "K": 3, "Q": 2, "J": 1}
MODERN_GLEEKS = {"A": 8, "K": 4, "Q": 4, "J": 4, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4}
TURNED_UP_KEYS = ("dealer", "trump", "turned_up", "tiddy", "auction", "ruff", "sets", "tricks", "honours")


def eldest(dealer: int) -> int:
    return (dealer + 1) % 3


@dataclass(frozen=True)
class SideCard:
    """A card paid for by itself: who has it is the hand's ``key``."""

    key: str
    rank: str
    held: Fraction  # from each opponent, to whoever has it
    turned_up: int | None  # from each opponent to the dealer, turned up (None: no turned-up card)
    option: str | None  # the session option that turns it off
    phase: str


@dataclass(frozen=True)
class Book:
    id: str
    evening: str  # its worked evening in tests/data/
    options: tuple  # the option sets a record may give
    turned_up: bool  # a card is turned up (its suit is trump, it is the dealer's)
    keys: tuple  # the required hand keys
    phases: tuple  # settle's phases, in order
    side_cards: tuple  # SideCard, in their phase's order
    set_ranks: tuple
    gleeks: dict
    # the stock
    opening: int
    step: int
    exact: bool = True  # each bid exactly one step more (else at least)
    eldest_opens: bool = True  # eldest's first call is a bid: always a buyer
    even: bool = False
    odd_unit: bool = False  # an odd price's odd unit to eldest (else halves)
    # the ruff, call by call: the words before and after a vie, what a quiet player owes
    # (first_stake), the ante, the opening / raise ("S": the hand's stake; "named": the
    # caller names it), whether every amount is times the hand's opening (scaled), what
    # three quiet players come to, the opening of the first hand and whether it doubles
    # after a null ruff, what a null ruff is
    before: tuple = ()
    after: tuple = ()
    first_stake: int = 0
    ante: int = 0
    opens: object = 4
    raise_by: object = 2
    scaled: bool = False
    fold_owes_stake: bool = False  # a player who drops owes the stake then (parlett), else what he last put in
    all_quiet: str = "showdown"
    first_opening: int = 2
    doubles: bool = False
    ruff_null: str | None = None  # "no contest", "doubled", or None (never; "simplified" turns the ruff off)
    double: bool = False  # the dealer may double it on the call pad, after two passes
    ruff_range: tuple = (15, 90)
    four_aces: bool = True
    honours_nullable: bool = False
    forfeits: bool = False
    optional_keys: tuple = ()
    trumps: tuple = SUITS
    count: str = "par"  # "par": 3 a trick and the honours against a third of the total; "pairwise": modern's
    openings: tuple = (2,)  # the hand's opening stakes worth testing
    switch_off: dict = field(default_factory=dict)  # option -> what it leaves out ("auction", "ruff")

    @property
    def option_names(self) -> set:
        return {name for options in self.options for name in options}

    @property
    def named(self) -> bool:
        return self.opens == "named"

    @property
    def seat_keys(self) -> tuple:
        """The hand keys that are a seat (or null where allowed)."""
        return (
            ("dealer",)
            + tuple(c.key for c in self.side_cards)
            + (("tib", "tom", "last_trick") if self.count == "pairwise" else ())
        )

    @property
    def nullable_keys(self) -> set:
        keys = {"auction", "ruff"} | {c.key for c in self.side_cards}
        return keys | ({"tib", "tom"} if self.count == "pairwise" else set())

    @property
    def words(self) -> tuple:
        return tuple(dict.fromkeys(self.before + self.after))

    def lowest_price(self, buyer: int, dealer: int) -> int:
        return self.opening if not self.eldest_opens or buyer == eldest(dealer) else self.opening + self.step

    def reachable(self, price: int, buyer: int, dealer: int) -> int:
        """``price``, or one step more where no bidding reaches it (docs/rules.md, Wits' bidding):
        eldest never buys one step above the opening, middle never two steps above."""
        if not (self.exact and self.eldest_opens):
            return price
        position = (buyer - dealer - 1) % 3  # 0 eldest, 1 middle, 2 dealer
        if position < 2 and price == self.opening + (position + 1) * self.step:
            return price + self.step
        return price

    def next_opening(self, opening: int, hand) -> int:
        """The next hand's opening stake (or multiplier): doubled after an explicit null ruff."""
        if self.doubles and isinstance(hand, dict) and "ruff" in hand and hand["ruff"] is None:
            return opening * 2
        return self.first_opening

    def opening_of(self, hands: list, index: int) -> int:
        opening = self.first_opening
        for hand in hands[:index]:
            opening = self.next_opening(opening, hand)
        return opening

    def stake_ok(self, amount, opening: int) -> bool:
        """What a ruff loser can pay (each book's ruff, docs/rules.md)."""
        if type(amount) is not int:
            return False
        if self.opens == "S":  # parlett: S + 2k
            return amount >= opening and (amount - opening) % 2 == 0
        if self.scaled:  # cotton1674: M × (1, or an even number of at least 4)
            units, rest = divmod(amount, opening)
            return rest == 0 and (units == 1 or (units >= 4 and units % 2 == 0))
        if self.ante:
            return amount >= self.ante
        return amount >= 2 and amount % 2 == 0

    def off(self, options: dict, what: str) -> bool:
        """The session's options leave ``what`` ("auction", "ruff") out."""
        return any(options.get(name, False) for name, parts in self.switch_off.items() if what in parts)


def each(scorer: int, amount) -> list:
    """``amount`` from each opponent to ``scorer``."""
    return [2 * Fraction(amount) if s == scorer else -Fraction(amount) for s in range(3)]


ZERO = [0, 0, 0]


def expected_phases(book: str, options: dict, hand: dict) -> dict:
    """docs/rules.md, phase by phase, for a valid hand of ``book``."""
    m = MODELS[book]
    phases = {p: [Fraction(0)] * 3 for p in m.phases}
    for card in m.side_cards:
        if card.option is not None and options.get(card.option, True) is False:
            continue
        if m.turned_up and hand["turned_up"] == card.rank:
            paid = each(hand["dealer"], card.turned_up)
        elif hand[card.key] is not None:
            paid = each(hand[card.key], card.held)
        else:
            continue
        phases[card.phase] = [a + b for a, b in zip(phases[card.phase], paid)]
    auction = hand["auction"]
    if auction is not None:
        buyer, price = auction["buyer"], auction["price"]
        if m.odd_unit and price % 2:
            share, first = price // 2, eldest(hand["dealer"])
            phases["auction"] = [Fraction(share)] * 3
            if first == buyer:
                phases["auction"][buyer] = Fraction(-2 * share)
            else:
                phases["auction"][first] += 1
                phases["auction"][buyer] = Fraction(-price)
        else:
            phases["auction"] = each(buyer, -Fraction(price, 2))
    if hand["ruff"] is not None:
        ruff = [-p for p in hand["ruff"]["paid"]]
        ruff[hand["ruff"]["winner"]] = sum(hand["ruff"]["paid"])
        phases["ruff"] = ruff
    for seat, declared in enumerate(hand["sets"]):
        for text in declared:
            kind, rank = text.split(":")
            value = m.gleeks[rank] * (2 if kind == "mournival" else 1)
            phases["sets"] = [a + b for a, b in zip(phases["sets"], each(seat, value))]
    for seat, called in enumerate(hand.get("forfeits", ())):
        for text in called:
            kind, rank = text.split(":")
            value = 2 * m.gleeks[rank] * (2 if kind == "mournival" else 1)  # double, to each opponent
            phases["sets"] = [a + b for a, b in zip(phases["sets"], each(seat, -value))]
    if m.count == "par":
        points = [3 * t for t in hand["tricks"]]
        total = 66
        for rank in HONOURS:
            holder = hand["dealer"] if rank == hand["turned_up"] else hand["honours"][rank]
            if holder is None:
                total -= HONOUR_POINTS[rank]
            else:
                points[holder] += HONOUR_POINTS[rank]
        assert sum(points) == total and total % 3 == 0
        phases["tricks"] = [p - Fraction(total, 3) for p in points]
    else:
        scores = list(hand["card_points"])
        for key, bonus in (("tib", 15), ("tom", 9), ("last_trick", 4)):
            if hand[key] is not None:
                scores[hand[key]] += bonus
        phases["tricks"] = [3 * s - sum(scores) for s in scores]
    return phases


PARLETT_WORDS = (("check", "open"), ("fold", "match", "raise"))
WITS_WORDS = (("vie", "pass"), ("see", "revie", "pass"))
TIDDY = "tiddy"

MODELS: dict[str, Book] = {}


def stated(book: Book) -> Book:
    MODELS[book.id] = book
    return book


stated(
    Book(
        id="parlett",
        evening="parlett-evening.json",
        options=({},),
        turned_up=True,
        keys=TURNED_UP_KEYS,
        phases=("tiddy", "auction", "ruff", "sets", "tricks"),
        side_cards=(SideCard("tiddy", "4", Fraction(2), 4, None, "tiddy"),),
        set_ranks=HONOURS,
        gleeks=OLD_GLEEKS,
        opening=12,
        step=2,
        even=True,
        before=PARLETT_WORDS[0],
        after=PARLETT_WORDS[1],
        first_stake=0,
        opens="S",
        raise_by=2,
        fold_owes_stake=True,
        all_quiet="no contest",
        first_opening=2,
        doubles=True,
        ruff_null="no contest",
        openings=(2, 4, 8, 16, 32),
    )
)
stated(
    Book(
        id="wits1671",
        evening="wits1671-evening.json",
        options=({}, {"tiddy": True}, {"tiddy": False}),
        turned_up=True,
        keys=TURNED_UP_KEYS,
        phases=("tiddy", "auction", "ruff", "sets", "tricks"),
        side_cards=(SideCard("tiddy", "4", Fraction(2), 2, "tiddy", "tiddy"),),
        set_ranks=HONOURS,
        gleeks=OLD_GLEEKS,
        opening=13,
        step=1,
        before=WITS_WORDS[0],
        after=WITS_WORDS[1],
        first_stake=2,
        opens=4,
        raise_by=2,
        honours_nullable=True,
    )
)
stated(
    Book(
        id="modern",
        evening="modern-evening.json",
        options=({}, {"simplified": False}, {"simplified": True}),
        turned_up=False,
        keys=(
            "dealer",
            "trump",
            "tiddy",
            "auction",
            "ruff",
            "sets",
            "tricks",
            "card_points",
            "tib",
            "tom",
            "last_trick",
        ),
        phases=("tiddy", "auction", "ruff", "sets", "tricks"),
        side_cards=(SideCard("tiddy", "4", Fraction(2), None, None, "tiddy"),),
        set_ranks=RANKS,
        gleeks=MODERN_GLEEKS,
        opening=13,
        step=1,
        exact=False,
        eldest_opens=False,
        before=("vie", "pass"),
        after=("vie", "see", "pass"),
        first_stake=0,
        ante=2,
        opens="named",
        raise_by="named",
        ruff_range=(9, 69),
        four_aces=False,
        trumps=SUITS + ("none",),
        count="pairwise",
        switch_off={"simplified": ("auction", "ruff")},
    )
)
stated(
    Book(
        id="cotton1674",
        evening="cotton1674-evening.json",
        options=(
            {},
            {"tiddy": False},
            {"towser": False},
            {"tiddy": False, "towser": False},
            {"tiddy": True, "towser": True},
        ),
        turned_up=True,
        keys=(
            "dealer",
            "trump",
            "turned_up",
            "tiddy",
            "towser",
            "tumbler",
            "auction",
            "ruff",
            "sets",
            "tricks",
            "honours",
        ),
        phases=("tiddy", "towser", "auction", "ruff", "sets", "tricks"),
        side_cards=(
            SideCard("tiddy", "4", Fraction(2), 4, "tiddy", "tiddy"),  # Cotton: Tiddy turned up 4 from each
            SideCard("towser", "5", Fraction(5, 2), 5, "towser", "towser"),  # held 2½, turned up 5
            SideCard("tumbler", "6", Fraction(3), 6, "towser", "towser"),
        ),  # held 3, turned up 6
        set_ranks=HONOURS,
        gleeks=OLD_GLEEKS,
        opening=12,
        step=1,
        odd_unit=True,
        before=WITS_WORDS[0],
        after=WITS_WORDS[1],
        first_stake=1,
        opens=4,
        raise_by=2,
        scaled=True,
        first_opening=1,
        doubles=True,
        ruff_null="doubled",
        double=True,
        honours_nullable=True,
        forfeits=True,
        optional_keys=("forfeits",),
        openings=(1, 2, 4, 8),
    )
)
