"""Shared test support for the rules engine: small builders of valid records for
hand-written tests, and hypothesis strategies that generate random VALID hands
and records of each rule book (every check of docs/record.md respected).

Nothing here imports the engine's own generators or constants for the rules it
tests: the numbers come from docs/rules.md (each book stated again in
``support/books.py``), so a wrong constant in the engine shows up as a failing test
rather than being copied into the expectation. The list of books is the app's own
(``BOOK_IDS``, from ``scorekeeper.rules.BOOKS``): every suite covers every book.
"""

from __future__ import annotations

import copy
import string

from hypothesis import strategies as st

from scorekeeper.rules import BOOKS
from scorekeeper.rules.record import settle, validate
from support.books import HONOURS, MODELS, RANKS, SUITS, eldest, expected_phases  # noqa: F401

#: Every rule book the app has, in its order.
BOOK_IDS = tuple(BOOKS)
PLAYERS = ["Ann", "Ben", "Cat"]


# ================================================================ builders


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


def cotton_hand(**changes) -> dict:
    """A valid cotton1674 hand: eldest buys at 12, all three pass the ruff (1 from each),
    nobody holds Towser or Tumbler."""
    hand = parlett_hand(ruff={"winner": 1, "paid": [1, 0, 1]}, towser=None, tumbler=None)
    hand.update(copy.deepcopy(changes))
    return hand


#: A valid hand of each book, for hand-written tests (changes applied).
HAND_BUILDERS = {"parlett": parlett_hand, "wits1671": wits_hand, "modern": modern_hand, "cotton1674": cotton_hand}


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
        lambda pair: {"winner": winner, "paid": [0 if s == winner else pair[(s - winner) % 3 - 1] for s in range(3)]}
    )


def notes() -> st.SearchStrategy:
    return st.one_of(st.none(), st.text(max_size=30))


def ruff_amounts(book: str, opening: int) -> st.SearchStrategy:
    """What one ruff loser may pay in ``book`` at the hand's opening stake (docs/rules.md)."""
    m = MODELS[book]
    if m.opens == "S":  # parlett: S + 2k
        return st.integers(0, 10).map(lambda k: opening + 2 * k)
    if m.scaled:
        return st.sampled_from((1, 4, 6, 8, 10, 12, 16)).map(lambda units: units * opening)
    if m.ante:
        return st.integers(m.ante, 30)
    return st.integers(1, 10).map(lambda k: 2 * k)


@st.composite
def turned_up_hands(draw, book: str, opening: int = 2, options: dict | None = None, calls: bool = False) -> dict:
    """A valid hand of a book with a turned-up card; ``opening`` is the hand's ruff
    stake S (parlett) or multiplier M (cotton1674). With ``calls``, the auction and the
    ruff are drawn call by call (as spoken) and carry them."""
    m, options = MODELS[book], options or {}
    dealer = draw(seats)
    turned_up = draw(st.sampled_from(RANKS))
    tricks = draw(tricks_won())
    buyer = draw(seats)
    price = m.lowest_price(buyer, dealer) + m.step * draw(st.integers(0, 20 if m.even else 40))
    price = m.reachable(price, buyer, dealer)
    paid = seats.flatmap(lambda w: ruff_paid(w, ruff_amounts(book, opening)))
    ruff = draw(st.one_of(st.none(), paid) if m.ruff_null else paid)
    honours = {}
    for rank in HONOURS:
        if rank == turned_up:
            continue
        # Tib always wins its trick, so its holder won at least one.
        holders = [s for s in (0, 1, 2) if tricks[s] > 0] if rank == "A" else [0, 1, 2]
        if m.honours_nullable:
            holders = holders + [None]  # discarded by the buyer
        honours[rank] = draw(st.sampled_from(holders))
    hand = {"dealer": dealer, "trump": draw(st.sampled_from(SUITS)), "turned_up": turned_up}
    for card in m.side_cards:  # nobody's when turned up or when its option is off
        off = card.option is not None and options.get(card.option, True) is False
        hand[card.key] = None if turned_up == card.rank or off else draw(maybe_seat)
    sets = draw(
        declared_sets(
            HONOURS,
            in_play=lambda rank: 3 if rank == turned_up else 4,
            may_mournival=lambda rank, seat: honours.get(rank) == seat,
            max_cards=lambda seat: 12,
        )
    )
    hand.update(
        {"auction": {"buyer": buyer, "price": price}, "ruff": ruff, "sets": sets, "tricks": tricks, "honours": honours}
    )
    if m.forfeits and draw(st.integers(0, 2)) == 0:
        hand["forfeits"] = draw(forfeited(m, sets, buyer))
    if calls:
        bids, (buyer, price) = draw(legal_bids(book, dealer))
        hand["auction"] = {"buyer": buyer, "price": price, "bids": bids}
        if m.forfeits and "forfeits" in hand:
            hand["forfeits"] = draw(forfeited(m, sets, buyer))
        if m.ruff_null == "doubled" and draw(st.integers(0, 4)) == 0:
            hand["ruff"] = None  # the dealer doubled it: no calls are kept
        else:
            hand["ruff"] = draw(ruff_from_calls(book, hand, opening))
    note = draw(notes())
    if note is not None:
        hand["note"] = note
    return hand


@st.composite
def forfeited(draw, m, sets, buyer: int) -> list:
    """Cotton's forfeits: only the buyer's list, at most one set per rank, none of a rank
    he declares (Cotton's forfeit for a false call); they are not counted against the cards in play."""
    declared = {t.split(":")[1] for t in sets[buyer]}
    called = []
    for rank in m.set_ranks:
        if rank not in declared and draw(st.integers(0, 3)) == 0:
            called.append(f"{draw(st.sampled_from(('gleek', 'mournival')))}:{rank}")
    forfeits = [[], [], []]
    forfeits[buyer] = called
    return forfeits


@st.composite
def card_points(draw, tricks: list[int]) -> list[int]:
    """Each seat 9..33 a trick won (0 with no trick), adding up to 192..252."""
    total = draw(st.integers(192, 252))
    points = [9 * t for t in tricks]  # 108 in all, so ``rest`` is 84..144
    room = [24 * t for t in tricks]  # up to 33 a trick; 288 in all
    rest = total - sum(points)
    for seat in (0, 1):
        later = sum(room[seat + 1 :])
        give = draw(st.integers(max(0, rest - later), min(room[seat], rest)))
        points[seat] += give
        rest -= give
    points[2] += rest
    return points


@st.composite
def modern_hands(draw, simplified: bool = False, calls: bool = False) -> dict:
    """A valid modern hand; with ``calls`` (and not ``simplified``), the auction and
    the ruff are drawn call by call (as spoken) and carry them."""
    dealer = draw(seats)
    trump = draw(st.sampled_from(SUITS + ("none",)))
    kiss = trump == "none"
    tricks = draw(tricks_won())
    winners = [s for s in (0, 1, 2) if tricks[s] > 0]
    if simplified:
        auction = ruff = None
    else:
        auction = draw(
            st.one_of(
                st.none(), st.builds(lambda buyer, price: {"buyer": buyer, "price": price}, seats, st.integers(13, 60))
            )
        )
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

    sets = draw(
        declared_sets(
            RANKS,
            in_play=lambda rank: 4,
            may_mournival=may_mournival,
            max_cards=lambda seat: 13 if seat == buyer else 12,
        )
    )
    hand = {
        "dealer": dealer,
        "trump": trump,
        "tiddy": tiddy,
        "auction": auction,
        "ruff": ruff,
        "sets": sets,
        "tricks": tricks,
        "card_points": draw(card_points(tricks)),
        "tib": tib,
        "tom": tom,
        "last_trick": draw(st.sampled_from(winners)),
    }
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
    min_size=1,
    max_size=36,
).filter(lambda s: s.strip() != "")
player_names = st.lists(
    st.tuples(st.sampled_from(("", " ", "  ")), name_text, st.sampled_from(("", " "))).map("".join),
    min_size=3,
    max_size=3,
    unique_by=lambda s: s.strip(),
)

decimals = (
    st.tuples(st.integers(0, 999), st.one_of(st.none(), st.text("0123456789", min_size=1, max_size=4)))
    .map(lambda p: str(p[0]) if p[1] is None else f"{p[0]}.{p[1]}")
    .filter(lambda s: any(c in "123456789" for c in s))
)
stakes = st.builds(
    lambda per, cur: {"per_counter": per, "currency": cur},
    decimals,
    st.one_of(st.just("d"), st.text(string.ascii_uppercase, min_size=3, max_size=3)),
)


@st.composite
def records(draw, book: str | None = None, min_hands: int = 0, max_hands: int = 6, calls: bool | None = False) -> dict:
    """A random valid ``gleek-session/1`` record. ``calls``: every hand carries its
    bids and ruff calls (True), none does (False, the default), or each hand may (None)."""
    book = book or draw(st.sampled_from(BOOK_IDS))
    m = MODELS[book]
    options = dict(draw(st.sampled_from(m.options)))
    count = draw(st.integers(min_hands, max_hands))
    hands = []
    opening = m.first_opening  # parlett's S, cotton1674's M: doubled by each explicit ruff: null just before
    for _ in range(count):
        with_calls = draw(st.booleans()) if calls is None else calls
        if m.count == "pairwise":
            hand = draw(modern_hands(simplified=m.off(options, "ruff"), calls=with_calls))
        else:
            hand = draw(turned_up_hands(book, opening, options, calls=with_calls))
        opening = m.next_opening(opening, hand)
        hands.append(hand)
    record = {
        "format": "gleek-session/1",
        "rulebook": book,
        "options": options,
        "players": draw(player_names),
        "hands": hands,
    }
    if draw(st.booleans()):
        record["title"] = draw(st.text(max_size=30))
    if draw(st.booleans()):
        record["played_on"] = draw(st.dates()).isoformat()
    if draw(st.booleans()):
        record["stake"] = draw(stakes)
    return record


# ================================================================ call by call, written again for the tests
#
# An independent re-statement of docs/rules.md ("Call by call") (not the engine's rules/calls.py):
# it replays bids and ruff calls as a table would, says what they give (or that they
# are not a finished, legal list), and drives the generators of legal calls below.


def from_eldest(dealer: int) -> tuple:
    return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)


def is_seat_value(value) -> bool:
    return type(value) is int and value in (0, 1, 2)


class TableAuction:
    """The bidding as a table plays it."""

    def __init__(self, book: str, dealer: int):
        self.book, self.turn, self.m = book, eldest(dealer), MODELS[book]
        self.out, self.high, self.bidder, self.result, self.over = set(), None, None, None, False

    def least(self) -> int:
        return self.m.opening if self.high is None else self.high + self.m.step

    def may_pass(self) -> bool:
        return self.high is not None or not self.m.eldest_opens

    def play(self, call) -> bool:
        """Take the call; False if it is not legal now."""
        if self.over or type(call) is not list or len(call) != 2:
            return False
        seat, bid = call
        if not is_seat_value(seat) or seat != self.turn:
            return False
        exact = self.m.exact
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
    """The vying as a table plays it (and, with ``pad``, Cotton's double on the call pad)."""

    def __init__(self, book: str, dealer: int, opening: int, pad: bool = False):
        self.book, self.dealer, self.opening, self.turn = book, dealer, opening, eldest(dealer)
        self.m, self.pad = MODELS[book], pad
        self.scale = opening if self.m.scaled else 1  # cotton1674's ruff played for double
        self.stake = self.m.first_stake * self.scale
        self.opened, self.spoken, self.over = False, 0, False
        self.owed: dict = {}  # seat -> what he owes, fixed when he went out
        self.put_in = [self.stake] * 3  # the stake he last vied or saw (all but parlett)
        self.to_answer: set = set()
        self.end = self.winner = None
        self.showing: tuple = ()

    def legal(self) -> list:
        """The calls the player to speak may make (modern: the next three vies only)."""
        s, m = self.turn, self.m
        if m.named:
            vies = [[s, "vie", self.stake + k] for k in (1, 2, 3)]
            return vies + ([[s, "see"], [s, "pass"]] if self.opened else [[s, "pass"]])
        calls = [[s, w] for w in (m.after if self.opened else m.before)]
        if self.may_double():
            calls.append([s, "double"])
        return calls

    def may_double(self) -> bool:
        """Eldest and middle passed, nobody vied: the dealer may double it (the pad only)."""
        return (
            self.pad
            and self.m.double
            and not self.opened
            and self.turn == self.dealer
            and {eldest(self.dealer), (self.dealer + 2) % 3} <= set(self.owed)
        )

    def aggressive(self, call) -> bool:
        return call[1] in ("open", "raise", "vie", "revie")

    def play(self, call) -> bool:
        """Take the call; False if it is not legal now."""
        if self.over or type(call) is not list or not 2 <= len(call) <= 3 or not is_seat_value(call[0]):
            return False
        if type(call[1]) is not str or call[0] != self.turn or call[0] in self.owed:
            return False
        if self.m.named and call[1] == "vie":
            if len(call) != 3 or type(call[2]) is not int or call[2] <= self.stake:
                return False
        elif call not in self.legal() or len(call) != 2:
            return False
        if call[1] == "double":
            self.over, self.end = True, "doubled"
            return True
        self._apply(call)
        self._end(call[0])
        return True

    def _apply(self, call) -> None:
        seat, word, m = call[0], call[1], self.m
        if word in ("fold", "pass"):
            self.owed[seat] = m.ante + (self.stake if m.fold_owes_stake else self.put_in[seat])
            self.to_answer.discard(seat)
        elif word in ("match", "see"):
            self.put_in[seat] = self.stake
            self.to_answer.discard(seat)
        elif word != "check":
            if word == "open":
                self.stake = self.opening
            elif word == "vie" and m.named:
                self.stake = call[2]
            elif word == "vie":
                self.stake = m.opens * self.scale
            else:  # raise, revie
                self.stake += m.raise_by * self.scale
            self.opened = True
            self.put_in[seat] = self.stake
            self.to_answer = {s for s in (0, 1, 2) if s != seat and s not in self.owed}
        self.spoken += 1

    def _end(self, seat: int) -> None:
        still_in = [s for s in from_eldest(self.dealer) if s not in self.owed]
        if not self.opened and self.spoken == 3:
            self.over = True
            self.end = self.m.all_quiet
            self.showing = from_eldest(self.dealer) if self.end == "showdown" else ()
        elif self.opened and len(still_in) == 1:
            self.over, self.end, self.winner = True, "unseen", still_in[0]
        elif self.opened and not self.to_answer:
            self.over, self.end, self.showing = True, "showdown", tuple(still_in)
        else:
            self.turn = next(s for s in ((seat + 1) % 3, (seat + 2) % 3) if s not in self.owed)

    def owes(self, seat: int) -> int:
        if seat in self.owed:
            return self.owed[seat]
        return self.m.ante + self.stake


def table_ruff(book: str, dealer: int, opening: int, calls):
    """The finished legal vying ``calls`` make (a TableRuff), else None."""
    table = TableRuff(book, dealer, opening)
    if type(calls) is not list or not all(table.play(call) for call in calls) or not table.over:
        return None
    return table


def best_shown(dealer: int, shown) -> int:
    """Four Aces first, then the highest total, ties to the earlier seat from the dealer's left."""
    order = from_eldest(dealer)
    return max(
        (s for s in order if shown[s] is not None),
        key=lambda s: (shown[s] == "aces", shown[s] if shown[s] != "aces" else 0, -order.index(s)),
    )


def shown_ok(book: str, hand: dict, table: TableRuff, shown) -> bool:
    """What a showdown's ``shown`` may be (best shown wins)."""
    if type(shown) is not list or len(shown) != 3 or table.end != "showdown":
        return False
    m = MODELS[book]
    low, high = m.ruff_range
    aces = []
    for seat in (0, 1, 2):
        value = shown[seat]
        if seat not in table.showing:
            if value is not None:
                return False
        elif value == "aces" and type(value) is str and m.four_aces and hand.get("turned_up") != "A":
            aces.append(seat)
        elif not (type(value) is int and low <= value <= high):
            return False
        if m.four_aces and seat in table.showing and "mournival:A" in hand["sets"][seat] and value != "aces":
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
        if "shown" in ruff and not (
            shown_ok(book, hand, table, ruff["shown"]) and best_shown(hand["dealer"], ruff["shown"]) == winner
        ):
            return False
        if paid != [0 if s == winner else table.owes(s) for s in (0, 1, 2)]:
            return False
    return True


@st.composite
def legal_bids(draw, book: str, dealer: int) -> tuple:
    """(bids, (buyer, price) or None): a random finished legal auction."""
    table, bids = TableAuction(book, dealer), []
    while not table.over:
        exact = MODELS[book].exact
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
    m = MODELS[book]
    low, high = m.ruff_range
    shown = [None, None, None]
    aces_allowed = m.four_aces and hand.get("turned_up") != "A"
    declared = [s for s in table.showing if m.four_aces and "mournival:A" in hand["sets"][s]]
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
