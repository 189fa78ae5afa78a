"""Shared test support for the rules engine: small builders of valid records for
hand-written tests, and hypothesis strategies that generate random VALID hands
and records of each rule book (every check of GLEEK-RULES.md §7 respected).

Nothing here imports the engine's own generators or constants for the rules it
tests: the numbers come from GLEEK-RULES.md, so a wrong constant in the engine
shows up as a failing test rather than being copied into the expectation.
"""

from __future__ import annotations

import copy
import string

from hypothesis import strategies as st

from scorekeeper.rules.record import settle, validate

SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
HONOURS = ("A", "K", "Q", "J")
BOOK_IDS = ("parlett", "wits1671", "modern")
PLAYERS = ["Ann", "Ben", "Cat"]


# ================================================================ builders

def eldest(dealer: int) -> int:
    return (dealer + 1) % 3


def parlett_hand(**changes) -> dict:
    """The worked example of GLEEK-RULES.md §6 (valid in parlett and wits1671),
    with ``changes`` applied; a change to ``None`` keeps the key with null."""
    hand = {
        "dealer": 2,
        "trump": "hearts",
        "turned_up": "9",
        "tiddy": None,
        "auction": {"buyer": 0, "price": 12},
        "ruff": {"winner": 1, "paid": [4, 0, 2]},
        "sets": [["gleek:K"], [], ["gleek:J"]],
        "tricks": [5, 4, 3],
        "honours": {"A": 0, "K": 0, "Q": 0, "J": 1},
    }
    hand.update(copy.deepcopy(changes))
    return hand


def wits_hand(**changes) -> dict:
    """A valid wits1671 hand: eldest buys at 13, an unvied ruff (2 from each)."""
    hand = parlett_hand(auction={"buyer": 0, "price": 13}, ruff={"winner": 1, "paid": [2, 0, 2]})
    hand.update(copy.deepcopy(changes))
    return hand


def modern_hand(**changes) -> dict:
    """A valid modern hand under hearts, with changes applied."""
    hand = {
        "dealer": 2,
        "trump": "hearts",
        "tiddy": None,
        "auction": {"buyer": 0, "price": 13},
        "ruff": {"winner": 1, "paid": [2, 0, 2]},
        "sets": [[], [], []],
        "tricks": [5, 4, 3],
        "card_points": [80, 70, 60],
        "tib": 0,
        "tom": 1,
        "last_trick": 2,
    }
    hand.update(copy.deepcopy(changes))
    return hand


HAND_BUILDERS = {"parlett": parlett_hand, "wits1671": wits_hand, "modern": modern_hand}


def make_record(book: str, hands: list, options: dict | None = None, **top) -> dict:
    record = {
        "format": "gleek-session/1",
        "rulebook": book,
        "options": {} if options is None else options,
        "players": list(PLAYERS),
        "hands": hands,
    }
    record.update(top)
    return record


def problems_of(record) -> list[str]:
    """Every problem line, exactly as ``settle`` prints them on stderr."""
    return [str(p) for p in validate(record)]


def phases_of(book: str, hand: dict, options: dict | None = None, before: tuple = ()) -> dict:
    """The exact (Fraction) phases of ``hand`` played after ``before``; the hand must be valid."""
    record = make_record(book, [*before, hand], options)
    assert problems_of(record) == []
    return settle(record).hands[-1].phases


# ================================================================ strategies

seats = st.sampled_from((0, 1, 2))
maybe_seat = st.sampled_from((None, 0, 1, 2))


@st.composite
def tricks_won(draw) -> list[int]:
    """Three whole numbers ≥ 0 adding up to 12, any of them possibly 0."""
    first = draw(st.integers(0, 12))
    second = draw(st.integers(0, 12 - first))
    return list(draw(st.permutations([first, second, 12 - first - second])))


@st.composite
def declared_sets(draw, ranks, in_play, may_mournival, max_cards) -> list[list[str]]:
    """Sets per seat: one set at most per rank and seat; at most one seat per rank
    (two gleeks would need 6 cards of a rank, and only 4 or 3 are in play); a
    mournival only where all 4 are in play and ``may_mournival``; each seat's
    sets use at most ``max_cards(seat)`` cards."""
    sets: list[list[str]] = [[], [], []]
    cards = [0, 0, 0]
    for rank in draw(st.permutations(ranks)):
        holder = draw(st.sampled_from((None, None, 0, 1, 2)))
        if holder is None:
            continue
        kinds = ["gleek"]
        if in_play(rank) == 4 and may_mournival(rank, holder):
            kinds.append("mournival")
        kind = draw(st.sampled_from(kinds))
        size = 4 if kind == "mournival" else 3
        if cards[holder] + size > max_cards(holder):
            continue
        sets[holder].append(f"{kind}:{rank}")
        cards[holder] += size
    return sets


def ruff_paid(winner: int, amount) -> st.SearchStrategy:
    """``{"winner", "paid"}`` with each loser's amount drawn from ``amount``."""
    return st.tuples(amount, amount).map(
        lambda pair: {"winner": winner, "paid": [0 if s == winner else pair[(s - winner) % 3 - 1]
                                                 for s in range(3)]})


def reachable_price(price: int, buyer: int, dealer: int, opening_bid: int, step: int) -> int:
    """``price``, or one step more where no bidding reaches it (GLEEK-RULES.md §3, §4):
    eldest never buys one step above the opening, middle never two steps above."""
    position = (buyer - dealer - 1) % 3  # 0 eldest, 1 middle, 2 dealer
    if position < 2 and price == opening_bid + (position + 1) * step:
        return price + step
    return price


def notes() -> st.SearchStrategy:
    return st.one_of(st.none(), st.text(max_size=30))


@st.composite
def turned_up_hands(draw, book: str, opening: int = 2, tiddy_on: bool = True) -> dict:
    """A valid parlett / wits1671 hand; ``opening`` is parlett's ruff stake S."""
    dealer = draw(seats)
    turned_up = draw(st.sampled_from(RANKS))
    tricks = draw(tricks_won())
    buyer = draw(seats)
    if book == "parlett":
        lowest = 12 if buyer == eldest(dealer) else 14
        price = lowest + 2 * draw(st.integers(0, 20))
        price = reachable_price(price, buyer, dealer, opening_bid=12, step=2)
        ruff = draw(st.one_of(st.none(), seats.flatmap(
            lambda w: ruff_paid(w, st.integers(0, 10).map(lambda k: opening + 2 * k)))))
    else:
        lowest = 13 if buyer == eldest(dealer) else 14
        price = lowest + draw(st.integers(0, 40))
        price = reachable_price(price, buyer, dealer, opening_bid=13, step=1)
        ruff = draw(seats.flatmap(lambda w: ruff_paid(w, st.integers(1, 10).map(lambda k: 2 * k))))
    honours = {}
    for rank in HONOURS:
        if rank == turned_up:
            continue
        # Tib always wins its trick, so its holder won at least one.
        holders = [s for s in (0, 1, 2) if tricks[s] > 0] if rank == "A" else [0, 1, 2]
        if book == "wits1671":
            holders = holders + [None]  # discarded by the buyer
        honours[rank] = draw(st.sampled_from(holders))
    if turned_up == "4" or not tiddy_on:
        tiddy = None
    else:
        tiddy = draw(maybe_seat)
    sets = draw(declared_sets(
        HONOURS,
        in_play=lambda rank: 3 if rank == turned_up else 4,
        may_mournival=lambda rank, seat: honours.get(rank) == seat,
        max_cards=lambda seat: 12,
    ))
    hand = {"dealer": dealer, "trump": draw(st.sampled_from(SUITS)), "turned_up": turned_up,
            "tiddy": tiddy, "auction": {"buyer": buyer, "price": price}, "ruff": ruff,
            "sets": sets, "tricks": tricks, "honours": honours}
    note = draw(notes())
    if note is not None:
        hand["note"] = note
    return hand


@st.composite
def card_points(draw, tricks: list[int]) -> list[int]:
    """Each seat 9..33 a trick won (0 with no trick), adding up to 192..252."""
    total = draw(st.integers(192, 252))
    points = [9 * t for t in tricks]  # 108 in all, so ``rest`` is 84..144
    room = [24 * t for t in tricks]  # up to 33 a trick; 288 in all
    rest = total - sum(points)
    for seat in (0, 1):
        later = sum(room[seat + 1:])
        give = draw(st.integers(max(0, rest - later), min(room[seat], rest)))
        points[seat] += give
        rest -= give
    points[2] += rest
    return points


@st.composite
def modern_hands(draw, simplified: bool = False) -> dict:
    dealer = draw(seats)
    trump = draw(st.sampled_from(SUITS + ("none",)))
    kiss = trump == "none"
    tricks = draw(tricks_won())
    winners = [s for s in (0, 1, 2) if tricks[s] > 0]
    if simplified:
        auction = ruff = None
    else:
        auction = draw(st.one_of(st.none(), st.builds(
            lambda buyer, price: {"buyer": buyer, "price": price}, seats, st.integers(13, 60))))
        ruff = draw(seats.flatmap(lambda w: ruff_paid(w, st.integers(2, 30))))
    buyer = auction["buyer"] if auction else None
    if kiss:
        tib = tom = tiddy = None
    else:
        tib = draw(st.sampled_from([None, *winners]))
        tom = draw(st.sampled_from([None, *winners]))
        tiddy = draw(maybe_seat)

    def may_mournival(rank, seat):
        # Under a trump suit the holder of all four Aces holds Tib and captures
        # it, unless he is the buyer and left it unplayed.
        return kiss or rank != "A" or tib == seat or (tib is None and seat == buyer)

    sets = draw(declared_sets(RANKS, in_play=lambda rank: 4, may_mournival=may_mournival,
                              max_cards=lambda seat: 13 if seat == buyer else 12))
    hand = {"dealer": dealer, "trump": trump, "tiddy": tiddy, "auction": auction, "ruff": ruff,
            "sets": sets, "tricks": tricks, "card_points": draw(card_points(tricks)),
            "tib": tib, "tom": tom, "last_trick": draw(st.sampled_from(winners))}
    note = draw(notes())
    if note is not None:
        hand["note"] = note
    return hand


# Names: printable text (a name with a line break would split a problem line),
# possibly padded with spaces, distinct once trimmed, at most 40 characters.
name_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Co", "Zl", "Zp")),
    min_size=1, max_size=36,
).filter(lambda s: s.strip() != "")
player_names = st.lists(
    st.tuples(st.sampled_from(("", " ", "  ")), name_text, st.sampled_from(("", " "))).map("".join),
    min_size=3, max_size=3, unique_by=lambda s: s.strip(),
)

decimals = st.tuples(st.integers(0, 999), st.one_of(st.none(), st.text("0123456789", min_size=1, max_size=4))) \
    .map(lambda p: str(p[0]) if p[1] is None else f"{p[0]}.{p[1]}") \
    .filter(lambda s: any(c in "123456789" for c in s))
stakes = st.builds(lambda per, cur: {"per_counter": per, "currency": cur}, decimals,
                   st.one_of(st.just("d"), st.text(string.ascii_uppercase, min_size=3, max_size=3)))

BOOK_OPTIONS = {
    "parlett": st.just({}),
    "wits1671": st.sampled_from(({}, {"tiddy": True}, {"tiddy": False})),
    "modern": st.sampled_from(({}, {"simplified": False}, {"simplified": True})),
}


@st.composite
def records(draw, book: str | None = None, min_hands: int = 0, max_hands: int = 6) -> dict:
    """A random valid ``gleek-session/1`` record."""
    book = book or draw(st.sampled_from(BOOK_IDS))
    options = dict(draw(BOOK_OPTIONS[book]))
    count = draw(st.integers(min_hands, max_hands))
    hands = []
    opening = 2  # parlett's S: 2, doubled by each explicit ruff: null just before
    for _ in range(count):
        if book == "modern":
            hand = draw(modern_hands(simplified=options.get("simplified", False)))
        else:
            hand = draw(turned_up_hands(book, opening, tiddy_on=options.get("tiddy", True)))
        opening = opening * 2 if hand["ruff"] is None else 2
        hands.append(hand)
    record = {"format": "gleek-session/1", "rulebook": book, "options": options,
              "players": draw(player_names), "hands": hands}
    if draw(st.booleans()):
        record["title"] = draw(st.text(max_size=30))
    if draw(st.booleans()):
        record["played_on"] = draw(st.dates()).isoformat()
    if draw(st.booleans()):
        record["stake"] = draw(stakes)
    return record
