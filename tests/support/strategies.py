"""Shared test support for the rules engine: small builders of valid records for
hand-written tests, and hypothesis strategies that generate random VALID hands
and records of each rule book (every check of docs/record.md respected).

Nothing here imports the engine's own generators or constants for the rules it
tests: the numbers come from docs/rules.md, so a wrong constant in the engine
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
    """The worked example of docs/record.md (valid in parlett and wits1671),
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
    """``price``, or one step more where no bidding reaches it (docs/rules.md, §4):
    eldest never buys one step above the opening, middle never two steps above."""
    position = (buyer - dealer - 1) % 3  # 0 eldest, 1 middle, 2 dealer
    if position < 2 and price == opening_bid + (position + 1) * step:
        return price + step
    return price


def notes() -> st.SearchStrategy:
    return st.one_of(st.none(), st.text(max_size=30))


@st.composite
def turned_up_hands(draw, book: str, opening: int = 2, tiddy_on: bool = True, calls: bool = False) -> dict:
    """A valid parlett / wits1671 hand; ``opening`` is parlett's ruff stake S. With
    ``calls``, the auction and the ruff are drawn call by call (§9) and carry them."""
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
    if calls:
        bids, (buyer, price) = draw(legal_bids(book, dealer))
        hand["auction"] = {"buyer": buyer, "price": price, "bids": bids}
        hand["ruff"] = draw(ruff_from_calls(book, hand, opening))
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
def modern_hands(draw, simplified: bool = False, calls: bool = False) -> dict:
    """A valid modern hand; with ``calls`` (and not ``simplified``), the auction and
    the ruff are drawn call by call (§9) and carry them."""
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
        if calls:
            bids, result = draw(legal_bids("modern", dealer))
            auction = None if result is None else {"buyer": result[0], "price": result[1], "bids": bids}
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
    if calls and not simplified:
        hand["ruff"] = draw(ruff_from_calls("modern", hand, 2))
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
def records(draw, book: str | None = None, min_hands: int = 0, max_hands: int = 6,
            calls: bool | None = False) -> dict:
    """A random valid ``gleek-session/1`` record. ``calls``: every hand carries its
    bids and ruff calls (True), none does (False, the default), or each hand may (None)."""
    book = book or draw(st.sampled_from(BOOK_IDS))
    options = dict(draw(BOOK_OPTIONS[book]))
    count = draw(st.integers(min_hands, max_hands))
    hands = []
    opening = 2  # parlett's S: 2, doubled by each explicit ruff: null just before
    for _ in range(count):
        with_calls = draw(st.booleans()) if calls is None else calls
        if book == "modern":
            hand = draw(modern_hands(simplified=options.get("simplified", False), calls=with_calls))
        else:
            hand = draw(turned_up_hands(book, opening, tiddy_on=options.get("tiddy", True), calls=with_calls))
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


# ================================================================ §9, call by call, written again for the tests
#
# An independent re-statement of docs/rules.md ("Call by call") (not the engine's rules/calls.py):
# it replays bids and ruff calls as a table would, says what they give (or that they
# are not a finished, legal list), and drives the generators of legal calls below.

BIDDING = {"parlett": (12, 2, True), "wits1671": (13, 1, True), "modern": (13, 1, False)}  # opening, step, exact
FIRST_STAKE = {"parlett": 0, "wits1671": 2, "modern": 0}
ANTE = {"parlett": 0, "wits1671": 0, "modern": 2}
RUFF_RANGE = {"parlett": (15, 90), "wits1671": (15, 90), "modern": (9, 69)}


def from_eldest(dealer: int) -> tuple:
    return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)


def is_seat_value(value) -> bool:
    return type(value) is int and value in (0, 1, 2)


class TableAuction:
    """§9.1 as a table plays it."""

    def __init__(self, book: str, dealer: int):
        self.book, self.turn = book, eldest(dealer)
        self.out, self.high, self.bidder, self.result, self.over = set(), None, None, None, False

    def least(self) -> int:
        opening, step, _ = BIDDING[self.book]
        return opening if self.high is None else self.high + step

    def may_pass(self) -> bool:
        return self.high is not None or self.book == "modern"

    def play(self, call) -> bool:
        """Take the call; False if it is not legal now."""
        if self.over or type(call) is not list or len(call) != 2:
            return False
        seat, bid = call
        if not is_seat_value(seat) or seat != self.turn:
            return False
        exact = BIDDING[self.book][2]
        if bid == "pass" and type(bid) is str:
            if not self.may_pass():
                return False
            self.out.add(seat)
        elif type(bid) is int and (bid == self.least() if exact else bid >= self.least()):
            self.high, self.bidder = bid, seat
        else:
            return False
        if len(self.out) == 3:
            self.over, self.result = True, None
        elif len(self.out) == 2 and self.bidder is not None:
            self.over, self.result = True, (self.bidder, self.high)
        else:
            self.turn = next(s for s in ((seat + 1) % 3, (seat + 2) % 3) if s not in self.out)
        return True


def table_bids(book: str, dealer: int, bids):
    """("ok", (buyer, price) or None) for a finished legal auction, else None."""
    table = TableAuction(book, dealer)
    if type(bids) is not list or not all(table.play(call) for call in bids) or not table.over:
        return None
    return ("ok", table.result)


class TableRuff:
    """§9.2 as a table plays it."""

    def __init__(self, book: str, dealer: int, opening: int):
        self.book, self.dealer, self.opening, self.turn = book, dealer, opening, eldest(dealer)
        self.stake = FIRST_STAKE[book]
        self.opened, self.spoken, self.over = False, 0, False
        self.owed: dict = {}  # seat -> what he owes, fixed when he went out
        self.put_in = [self.stake] * 3  # the stake he last vied or saw (wits1671, modern)
        self.to_answer: set = set()
        self.end = self.winner = None
        self.showing: tuple = ()

    def legal(self) -> list:
        """The calls the player to speak may make (modern: the next three vies only)."""
        s, book = self.turn, self.book
        if book == "parlett":
            words = ("fold", "match", "raise") if self.opened else ("check", "open")
        elif book == "wits1671":
            words = ("see", "revie", "pass") if self.opened else ("vie", "pass")
        else:
            vies = [[s, "vie", self.stake + k] for k in (1, 2, 3)]
            return vies + ([[s, "see"], [s, "pass"]] if self.opened else [[s, "pass"]])
        return [[s, w] for w in words]

    def aggressive(self, call) -> bool:
        return call[1] in ("open", "raise", "vie", "revie")

    def play(self, call) -> bool:
        """Take the call; False if it is not legal now."""
        if self.over or type(call) is not list or not 2 <= len(call) <= 3 or not is_seat_value(call[0]):
            return False
        if type(call[1]) is not str or call[0] != self.turn or call[0] in self.owed:
            return False
        if self.book == "modern" and call[1] == "vie":
            if len(call) != 3 or type(call[2]) is not int or call[2] <= self.stake:
                return False
        elif call not in self.legal() or len(call) != 2:
            return False
        self._apply(call)
        self._end(call[0])
        return True

    def _apply(self, call) -> None:
        seat, word, book = call[0], call[1], self.book
        if word in ("fold", "pass"):
            self.owed[seat] = ANTE[book] + (self.stake if book == "parlett" else self.put_in[seat])
            self.to_answer.discard(seat)
        elif word in ("match", "see"):
            self.put_in[seat] = self.stake
            self.to_answer.discard(seat)
        elif word != "check":
            if word == "open":
                self.stake = self.opening
            elif word == "vie" and book == "wits1671":
                self.stake = 4
            elif word == "vie":
                self.stake = call[2]
            else:  # raise, revie
                self.stake += 2
            self.opened = True
            self.put_in[seat] = self.stake
            self.to_answer = {s for s in (0, 1, 2) if s != seat and s not in self.owed}
        self.spoken += 1

    def _end(self, seat: int) -> None:
        still_in = [s for s in from_eldest(self.dealer) if s not in self.owed]
        if not self.opened and self.spoken == 3:
            self.over = True
            self.end = "no contest" if self.book == "parlett" else "showdown"
            self.showing = from_eldest(self.dealer)
            if self.book == "parlett":
                self.showing = ()
        elif self.opened and len(still_in) == 1:
            self.over, self.end, self.winner = True, "unseen", still_in[0]
        elif self.opened and not self.to_answer:
            self.over, self.end, self.showing = True, "showdown", tuple(still_in)
        else:
            self.turn = next(s for s in ((seat + 1) % 3, (seat + 2) % 3) if s not in self.owed)

    def owes(self, seat: int) -> int:
        if seat in self.owed:
            return self.owed[seat]
        return ANTE[self.book] + self.stake


def table_ruff(book: str, dealer: int, opening: int, calls):
    """The finished legal vying ``calls`` make (a TableRuff), else None."""
    table = TableRuff(book, dealer, opening)
    if type(calls) is not list or not all(table.play(call) for call in calls) or not table.over:
        return None
    return table


def best_shown(dealer: int, shown) -> int:
    """Four Aces first, then the highest total, ties to the earlier seat from the dealer's left."""
    order = from_eldest(dealer)
    return max((s for s in order if shown[s] is not None),
               key=lambda s: (shown[s] == "aces", shown[s] if shown[s] != "aces" else 0, -order.index(s)))


def shown_ok(book: str, hand: dict, table: TableRuff, shown) -> bool:
    """§9.3 for a showdown's ``shown``."""
    if type(shown) is not list or len(shown) != 3 or table.end != "showdown":
        return False
    low, high = RUFF_RANGE[book]
    aces = []
    for seat in (0, 1, 2):
        value = shown[seat]
        if seat not in table.showing:
            if value is not None:
                return False
        elif value == "aces" and type(value) is str and book != "modern" and hand.get("turned_up") != "A":
            aces.append(seat)
        elif not (type(value) is int and low <= value <= high):
            return False
        if book != "modern" and seat in table.showing and "mournival:A" in hand["sets"][seat] and value != "aces":
            return False
    return len(aces) <= 1


def calls_agree(book: str, hand: dict, opening: int) -> bool:
    """A hand's bids, ruff calls and shown are legal, finished, and give its result exactly."""
    auction, ruff = hand["auction"], hand["ruff"]
    if isinstance(auction, dict) and "bids" in auction:
        replayed = table_bids(book, hand["dealer"], auction["bids"])
        if replayed is None or replayed[1] != (auction["buyer"], auction["price"]):
            return False
    if isinstance(ruff, dict) and "calls" in ruff:
        table = table_ruff(book, hand["dealer"], opening, ruff["calls"])
        if table is None or table.end == "no contest":
            return False
        winner, paid = ruff["winner"], ruff["paid"]
        if table.end == "unseen" and ("shown" in ruff or winner != table.winner):
            return False
        if table.end == "showdown" and winner not in table.showing:
            return False
        if "shown" in ruff and not (shown_ok(book, hand, table, ruff["shown"])
                                    and best_shown(hand["dealer"], ruff["shown"]) == winner):
            return False
        if paid != [0 if s == winner else table.owes(s) for s in (0, 1, 2)]:
            return False
    return True


@st.composite
def legal_bids(draw, book: str, dealer: int) -> tuple:
    """(bids, (buyer, price) or None): a random finished legal auction."""
    table, bids = TableAuction(book, dealer), []
    while not table.over:
        exact = BIDDING[book][2]
        if table.may_pass() and (len(bids) >= 12 or draw(st.integers(0, 2)) == 0):
            call = [table.turn, "pass"]
        else:
            call = [table.turn, table.least() + (0 if exact else draw(st.integers(0, 3)))]
        assert table.play(call)
        bids.append(call)
    return bids, table.result


@st.composite
def legal_ruff_calls(draw, book: str, dealer: int, opening: int) -> tuple:
    """(calls, TableRuff): a random finished legal vying, raises getting rarer."""
    table, calls = TableRuff(book, dealer, opening), []
    while not table.over:
        choices = table.legal()
        if len(calls) >= 9:
            choices = [c for c in choices if not table.aggressive(c)] or choices
        call = draw(st.sampled_from(choices))
        assert table.play(call)
        calls.append(call)
    return calls, table


@st.composite
def ruff_from_calls(draw, book: str, hand: dict, opening: int):
    """A ruff with calls (and, at a showdown, maybe shown) for ``hand`` (its sets drawn),
    or None for parlett's no contest."""
    calls, table = draw(legal_ruff_calls(book, hand["dealer"], opening))
    if table.end == "no contest":
        return None
    shown = None
    if table.end == "unseen":
        winner = table.winner
    elif draw(st.booleans()):
        shown = draw(shown_for(book, hand, table))
        winner = best_shown(hand["dealer"], shown)
    else:
        winner = draw(st.sampled_from(table.showing))
    ruff = {"winner": winner, "paid": [0 if s == winner else table.owes(s) for s in (0, 1, 2)], "calls": calls}
    if shown is not None:
        ruff["shown"] = shown
    return ruff


@st.composite
def shown_for(draw, book: str, hand: dict, table: TableRuff) -> list:
    low, high = RUFF_RANGE[book]
    shown = [None, None, None]
    aces_allowed = book != "modern" and hand.get("turned_up") != "A"
    declared = [s for s in table.showing if book != "modern" and "mournival:A" in hand["sets"][s]]
    for seat in table.showing:
        if seat in declared:
            shown[seat] = "aces"
        elif aces_allowed and not declared and "aces" not in shown and draw(st.integers(0, 9)) == 0:
            shown[seat] = "aces"
        else:
            shown[seat] = draw(st.integers(low, high))
    return shown


def without_calls(hand: dict) -> dict:
    """The same hand with only the results (no bids, calls or shown)."""
    hand = copy.deepcopy(hand)
    if isinstance(hand.get("auction"), dict):
        hand["auction"].pop("bids", None)
    if isinstance(hand.get("ruff"), dict):
        hand["ruff"].pop("calls", None)
        hand["ruff"].pop("shown", None)
    return hand
