"""Call by call: the auction and the ruff as they are spoken (docs/rules.md, "Call by call").

One implementation of the calls serves the record check (``settle``, import) and the hand
form's call pad. Each rule book declares its own procedure as data, and this module
replays a list of calls against it; nothing here names a book:

- the auction: ``opening_price``, ``price_step``, ``exact_bids`` (each bid exactly one
  step more, or at least one step more) and ``eldest_must_buy`` (eldest's first call
  must be the opening bid);
- the ruff: ``vying`` (a ``core.Vying``: its words and what each does, the opening,
  the raises, the ante, what a player who drops owes), ``ruff_values`` (a card's value
  in a ruff) and ``four_aces_win``.

Replaying
---------
``replay_bids(book, dealer, bids, names)`` and
``replay_ruff(book, dealer, calls, names, opening)`` take a list of calls in their JSON
form (possibly unfinished, possibly wrong) and return the state after them. ``names``
are the players' names in seat order (messages and lines use them); ``opening`` is the
hand's opening stake S, ``book.ruff_opening(hands_before)`` (only parlett uses it).
The replay stops at the first call that cannot be taken: ``state.problem`` says why
in the table's words (``None`` if every call was taken), and the state is the one
before that call. Both states have:

- ``turn``: the seat to speak next, or ``None`` once ``ended``;
- ``choices``: the legal next calls, each a ``Choice(call, label)``: ``call`` the JSON
  form to append (``[0, 14]``, ``[1, "pass"]``, ``[2, "vie", 5]``), ``label`` a button's
  text in the book's words ("Bid 14", "Open at 2", "Raise to 6", "Match 4", "Fold",
  "Vie 4", "See 4", "Revie to 6", "Pass"). Where the caller names the amount (modern's
  bids and vies), ``choices`` offers the smallest legal amount and the next few, and
  ``more`` is an ``Amounts(seat, word, least, label)``: any whole n ≥ ``least`` is legal,
  ``more.call(n)`` its JSON form, ``more.label_for(n)`` its label (else ``more`` is None);
- ``out``: three booleans, the players who passed / folded and never speak again;
- ``line()``: the calls so far in the table's words;
- ``unfinished()``: why a finished list is needed here ("it is Ben's turn (fold, …)").

``Auction`` also has ``highest`` and ``bidder`` (the highest bid so far and who made it),
and once ended ``buyer`` and ``price`` (``buyer`` None: all three passed, modern only).

``Ruff`` also has ``stake`` (what a player must have put in to stay in), ``opened``,
``owes`` (each player's liability so far: fixed once he is out, running for those still
in), ``fixed`` (which of them are fixed), ``at_stake()`` and ``stake_line()`` (what each
would owe if he passed now and if he sees: "Ann risks 4 · Ben: pass now 2, see 4"), and once ended ``end``: ``"no contest"``
(parlett, all checked: ``ruff`` is null), ``"unseen"`` (``winner`` is the one left in) or
``"showdown"`` (``showing``: the seats that show, from the dealer's left). Given the
winner (the unseen one, ``showdown_winner(dealer, shown)``, or the table's choice among
``showing``), ``paid(winner)`` is the record's ``ruff.paid`` and ``reasons(winner)`` one
line per loser ("Cat folded at 4: pays 4").

The showdown helper: ``suit_total(book, ranks)`` totals one suit's cards in the book's
values (refusing a card given twice), ``four_aces_possible(book, turned_up)``,
``showdown_winner(dealer, shown)`` (four Aces beat every total, then the higher total,
ties to the earlier seat from the dealer's left), ``ruff_range(book)`` (the totals a
best suit can have: 15–90, modern 9–69) ``shown_problem(state, shown, turned_up,
sets)``, what the shown totals must be, and ``read_showing(state, cards, totals, turned_up)``, the
showdown as its cards are tapped: impossible (four Aces for one and an Ace for another,
four Aces twice), still being tapped (a total no best suit has), or decided. Modern's card-point counter belongs to its book:
``Modern.card_points_from_counts``, ``card_points_text`` and ``card_count_problems``.

The record check (``RuleBook.check_hand``) replays every hand's calls with these same
functions (``bids_give`` / ``check_bids``, ``calls_give`` / ``check_ruff_calls``: at
most one line under ``auction`` and one under ``ruff``), and ``RuleBook.reasons`` reads
them out for the hand detail (``ruff_reasons``; parlett's opening stake from the hands
before, or read back from the hand's own ``paid``). ``replay_ruff(..., record=False)``
is for a check that needs neither ``line()`` nor ``reasons()`` (they replay again).

Example (parlett; dealer Cat, so Ann is eldest; opening stake 2)::

    >>> from scorekeeper.rules import book
    >>> from scorekeeper.rules.calls import replay_bids, replay_ruff
    >>> names = ("Ann", "Ben", "Cat")
    >>> bids = replay_bids(book("parlett"), 2, [[0, 12], [1, 14], [2, "pass"]], names)
    >>> bids.turn, [c.label for c in bids.choices]
    (0, ['Bid 16', 'Pass'])
    >>> bids = replay_bids(book("parlett"), 2, bids.calls + [[0, 16], [1, "pass"]], names)
    >>> bids.ended, bids.buyer, bids.price, bids.line()
    (True, 0, 16, 'Ann bids 12 · Ben 14 · Cat passes · Ann 16 · Ben passes')
    >>> ruff = replay_ruff(book("parlett"), 2, [[0, "open"], [1, "raise"], [2, "fold"]], names, opening=2)
    >>> ruff.turn, [c.call for c in ruff.choices], [c.label for c in ruff.choices]
    (0, [[0, 'fold'], [0, 'match'], [0, 'raise']], ['Fold', 'Match 4', 'Raise to 6'])
    >>> ruff.stake, ruff.owes, ruff.fixed
    (4, [4, 4, 4], [False, False, True])
    >>> ruff = replay_ruff(book("parlett"), 2, ruff.calls + [[0, "match"]], names, opening=2)
    >>> ruff.end, ruff.showing, ruff.line()
    ('showdown', (0, 1), 'Ann opens 2 · Ben raises to 4 · Cat folds (owes 4) · Ann matches')
    >>> winner = showdown_winner(2, [52, 47, None])
    >>> winner, ruff.paid(winner), ruff.reasons(winner)
    (0, [0, 4, 4], ['Ben held out to 4: pays 4', 'Cat folded at 4: pays 4'])
    >>> suit_total(book("parlett"), ["A", "K", "10", "9"])
    40
"""

from __future__ import annotations

from typing import NamedTuple

from .core import RANK_NAMES, RANKS, SEATS, describe, seats_from_eldest

SEAT_NAMES = ("seat 0", "seat 1", "seat 2")
NEXT = (1, 2, 0)  # the seat to the left
FROM_ELDEST = ((1, 2, 0), (2, 0, 1), (0, 1, 2))  # by dealer: eldest, middle, dealer
NEXT_FEW = 4  # amounts offered as chips where the caller names one
FOUR_ACES = "aces"
CHECK, OPEN, CALL, RAISE, DROP = "check", "open", "call", "raise", "drop"  # a Word's action
NAMED, S = "named", "S"  # Vying.opens_at / raise_by: named by the caller; the hand's opening stake
NO_CONTEST, UNSEEN, SHOWDOWN, DOUBLED = "no contest", "unseen", "showdown", "doubled"  # how a ruff ends
# which check refused a bid (replay_bids says why afterwards, from the state as it was)
_ORDER, _AMOUNT = object(), object()
_ABSENT = object()


class Choice(NamedTuple):
    """A legal next call: ``call`` as the record writes it, ``label`` for its button."""

    call: list
    label: str


class Amounts(NamedTuple):
    """A call whose amount the caller names: any whole n ≥ ``least`` is legal."""

    seat: int
    word: str | None
    least: int
    label: str

    def call(self, n: int) -> list:
        return [self.seat, n] if self.word is None else [self.seat, self.word, n]

    def label_for(self, n: int) -> str:
        return self.label.format(n=n)


def _or_list(texts: list[str]) -> str:
    """``a, b or c``."""
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


def options_text(choices: list, more: Amounts | None) -> str:
    """The legal next calls in words: "fold, match 4 or raise to 6", "vie 4 or more, see 3 or pass"."""
    texts, stem = [], more.call(0)[:-1] if more is not None else None
    for choice in choices:
        if stem is not None and type(choice.call[-1]) is int and choice.call[:-1] == stem:
            text = f"{more.label_for(more.least).lower()} or more"
            if text not in texts:
                texts.append(text)
        else:
            texts.append(choice.label.split(" (")[0].lower())  # "double it", without its aside
    if len(texts) > 1 and any(" or " in t for t in texts):
        return ", ".join(texts[:-1]) + ", or " + texts[-1]
    return _or_list(texts)


def _names_list(names, seats) -> str:
    """``Ann and Ben``, ``Ann, Ben and Cat``."""
    return _or_list([names[s] for s in seats]).replace(" or ", " and ")


# ================================================================ the auction: the bids


class Auction:
    """The auction after the bids so far (``replay_bids``)."""

    # until the bids say otherwise (see replay_bids)
    highest = bidder = problem = None
    passes = 0

    def __init__(self, book, dealer: int, names=SEAT_NAMES):
        """The auction before anybody has spoken (``replay_bids`` plays the bids)."""
        self.book, self.dealer, self.names, self.calls = book, dealer, names, []
        self.turn = NEXT[dealer]  # eldest speaks first
        self.least = book.opening_price  # the smallest bid allowed now
        self.out = [False, False, False]

    @property
    def ended(self) -> bool:
        return self.turn is None

    @property
    def exact(self) -> bool:
        return self.book.exact_bids

    @property
    def buyer(self):
        return self.bidder if self.ended else None

    @property
    def price(self):
        return self.highest if self.ended and self.bidder is not None else None

    def _order_problem(self, seat: int, what: str) -> str:
        who = self.names[seat]
        if self.ended:
            return f"the bidding was over ({self.outcome()}) before {who}'s {what}"
        if self.out[seat]:
            return f"{who} is out (passed) and cannot speak again"
        return f"{who} spoke out of turn: it was {self.names[self.turn]}'s turn"

    def _bid_problem(self, seat: int, bid: int) -> str:
        book, who, least = self.book, self.names[seat], self.least
        if self.highest is None:
            if book.eldest_must_buy:
                return f"{who} is eldest and must open at {least}, not {bid}"
            return f"{who} bid {bid}, but the first bid is at least {least}"
        if self.exact:
            return f"{who} bid {bid}, but bids go up by {book.price_step} ({least} next)"
        return f"{who} bid {bid}, but bids go up by at least {book.price_step} ({least} or more next)"

    def outcome(self) -> str:
        if self.bidder is None:
            return "all three passed"
        return f"{self.names[self.bidder]} bought at {self.highest}"

    @property
    def choices(self) -> list[Choice]:
        if self.turn is None:
            return []
        seat, least = self.turn, self.least
        count = 1 if self.book.exact_bids else NEXT_FEW
        choices = [Choice([seat, n], f"Bid {n}") for n in range(least, least + count)]
        if not (self.highest is None and self.book.eldest_must_buy):
            choices.append(Choice([seat, "pass"], "Pass"))
        return choices

    @property
    def more(self) -> Amounts | None:
        if self.turn is None or self.book.exact_bids:
            return None
        return Amounts(self.turn, None, self.least, "Bid {n}")

    def line(self) -> str:
        """ "Ann bids 12 · Ben 14 · Cat passes · Ann 16 · Ben passes"."""
        parts, bid_yet = [], False
        for seat, bid in self.calls:
            who = self.names[seat]
            if bid == "pass":
                parts.append(f"{who} passes")
            else:
                parts.append(f"{who} {bid}" if bid_yet else f"{who} bids {bid}")
                bid_yet = True
        return " · ".join(parts)

    def unfinished(self) -> str:
        return (
            f"the bids stop before the auction is over: it is {self.names[self.turn]}'s turn "
            f"({options_text(self.choices, self.more)})"
        )

    def disagreement(self, auction: dict) -> str | None:
        """What the bids give, if ``auction``'s buyer or price is not it (the bids ended)."""
        if self.bidder is None:
            return "all three passed, so nobody bought the stock: auction must be null"
        buyer, price = auction["buyer"], auction["price"]
        if (buyer, price) == (self.bidder, self.highest):
            return None
        given = f"at {price}" if buyer == self.bidder else f"{self.names[buyer]} at {price}"
        return f"the bids end with {self.names[self.bidder]} buying at {self.highest}, not {given}"


def replay_bids(book, dealer: int, bids, names=SEAT_NAMES) -> Auction:
    """The auction after ``bids`` (the bidding); see the module's docstring. One pass with the
    state in local variables (every hand of a record runs it); it stops at the first
    call that cannot be taken. The turn is never a player who is out, and None once
    the auction is over, so a call by anybody else is out of turn, out, or too late."""
    state = Auction(book, dealer, names)
    if type(bids) is not list:
        state.problem = f'bids must be a list of calls such as [0, 12] or [1, "pass"], not {describe(bids)}'
        return state
    exact, step, eldest_opens = book.exact_bids, book.price_step, book.eldest_must_buy
    strict = exact or eldest_opens  # the next bid must be exactly ``least`` (else at least)
    out, turn, least = state.out, state.turn, state.least
    passes = taken = 0
    highest = bidder = problem = None
    for call in bids:
        if type(call) is not list or len(call) != 2:
            problem = f'a bid is [seat, n] or [seat, "pass"], not {describe(call)}'
            break
        seat, bid = call
        if type(seat) is not int or not 0 <= seat <= 2:
            problem = f"a bid's seat is 0, 1 or 2, not {describe(seat)}"
            break
        if type(bid) is int:
            if seat != turn:
                problem = _ORDER
                break
            if bid != least and (strict or bid < least):
                problem = _AMOUNT
                break
            highest, bidder, least, strict = bid, seat, bid + step, exact
        elif bid == "pass":
            if seat != turn:
                problem = _ORDER
                break
            if highest is None and eldest_opens:
                problem = f"{names[seat]} is eldest and must open at {least}, not pass"
                break
            out[seat] = True
            passes += 1
        else:
            problem = f'{names[seat]}\'s bid must be a whole number or "pass", not {describe(bid)}'
            break
        taken += 1
        if passes == 3 or (passes == 2 and bidder is not None):
            turn = None
        else:
            turn = NEXT[seat]
            if out[turn]:
                turn = NEXT[turn]
    state.calls, state.turn, state.least = bids[:taken], turn, least
    if taken:
        state.passes, state.highest, state.bidder = passes, highest, bidder
    if problem is _ORDER:
        problem = state._order_problem(seat, "pass" if bid == "pass" else f"bid of {bid}")
    elif problem is _AMOUNT:
        problem = state._bid_problem(seat, bid)
    if problem is not None:
        state.problem = problem
    return state


def bids_give(state: Auction, auction: dict) -> bool:
    """The bids are legal, finished, and give exactly this buyer and price (whole
    numbers: ``True`` or ``16.0`` never agree), so nothing else about them can be wrong."""
    buyer, price = auction["buyer"], auction["price"]
    return (
        state.turn is None
        and state.problem is None
        and state.bidder is not None
        and type(buyer) is int
        and buyer == state.bidder
        and type(price) is int
        and price == state.highest
    )


def check_bids(state: Auction, check, auction: dict, result_ok: bool) -> None:
    """A hand gets at most one line about ``auction.bids`` (replayed: ``state``), under ``auction``."""
    problem = state.problem
    if problem is None and not state.ended:
        problem = state.unfinished()
    if problem is None and result_ok:
        problem = state.disagreement(auction)
    if problem is not None:
        check.fail("auction", "auction: " + problem)


# ================================================================ the ruff: the vying

_TABLES: dict = {}


class Procedure(NamedTuple):
    """A book's vying as lookups: its words before and after an opening (word -> Word), the
    words whose amount the caller names, and every word of the book (in order, and as a set);
    for the replay, the calls that may be said before and after an opening, by their
    length (2: ``[seat, word]``, 3: ``[seat, word, n]``): word -> (action code, Word)."""

    vying: object
    before: dict
    after: dict
    named: frozenset
    words: tuple
    vocabulary: frozenset
    calls_before: dict
    calls_after: dict


_CODES = {DROP: 0, CALL: 1, CHECK: 2, OPEN: 3, RAISE: 4}
_DROP, _CALL, _CHECK, _OPEN, _RAISE = range(5)


def _tables(vying) -> Procedure:
    tables = _TABLES.get(id(vying))
    if tables is None:
        words = vying.before + vying.after
        named = frozenset(
            w.word
            for w in words
            if (w.action == OPEN and vying.opens_at == NAMED) or (w.action == RAISE and vying.raise_by == NAMED)
        )
        ordered = tuple(dict.fromkeys(w.word for w in words))

        def by_length(phase):
            return {
                size: {w.word: (_CODES[w.action], w) for w in phase if (w.word in named) == (size == 3)}
                for size in (2, 3)
            }

        tables = Procedure(
            vying,
            {w.word: w for w in vying.before},
            {w.word: w for w in vying.after},
            named,
            ordered,
            frozenset(ordered),
            by_length(vying.before),
            by_length(vying.after),
        )
        _TABLES[id(vying)] = tables
    return tables


class Ruff:
    """The vying after the calls so far (``replay_ruff``)."""

    # until the calls say otherwise (see _finish and replay_ruff)
    end = winner = problem = None
    showing: tuple = ()

    doubled = False
    table = True

    def __init__(self, book, dealer: int, names=SEAT_NAMES, opening: int = 2):
        """The vying before anybody has spoken (``replay_ruff`` plays the calls)."""
        first = book.vying.first_stake * (opening if book.vying.scaled else 1)
        self._set(
            book,
            dealer,
            names,
            opening,
            [],
            NEXT[dealer],
            first,
            False,
            [False, False, False],
            [None, None, None],
            [first, first, first],
            3,
            0,
            None,
            None,
        )

    def _set(
        self,
        book,
        dealer,
        names,
        opening,
        calls,
        turn,
        stake,
        opened,
        out,
        at,
        committed,
        left,
        waiting,
        log,
        did,
        doubled=False,
        table=True,
    ) -> None:
        self.book, self.dealer, self.names, self.opening = book, dealer, names, opening
        self.doubled, self.table = doubled, table
        self.calls, self.turn, self.stake, self.opened = calls, turn, stake, opened
        self.out, self.at, self.committed = out, at, committed  # who is out, at what stake, what each put in
        self.left, self.waiting = left, waiting  # players still in; still to answer the last opening or raise
        self._log, self._did = log, did  # what the calls line and the reasons read (see _history)
        if turn is None:
            self._finish()

    @property
    def ended(self) -> bool:
        return self.turn is None

    @property
    def rules(self):
        return self.book.vying

    @property
    def _p(self) -> Procedure:
        return _tables(self.book.vying)

    @property
    def _phase(self) -> dict:
        """The words that may be said now."""
        return self._p.after if self.opened else self._p.before

    # ------------------------------------------------------------ a call refused

    def _shapes(self) -> str:
        plain = [w for w in self._p.words if w not in self._p.named]
        shapes = [f'[seat, "{w}", n]' for w in self._p.named]
        shapes.append(f"[seat, word] with word {_or_list(plain)}")
        return " or ".join(shapes)

    def _word_problem(self, seat: int, word, call: list) -> str | None:
        """A word the book does not have, or an amount where there is none (or none where
        one is needed, or one that is not a whole number)."""
        who = self.names[seat]
        named = self._p.named
        if type(word) is not str or word not in self._p.vocabulary:
            return f"{who} says {describe(word)}, which is not a {self.book.id} call ({', '.join(self._p.words)})"
        if len(call) == 3 and word not in named:
            where = f"only {_or_list(sorted(named))} names one" if named else f"no {self.book.id} call names one"
            return f"{who}'s {word} carries an amount ({describe(call[2])}), but {where}"
        if len(call) == 2 and word in named:
            return f'{who}\'s {word} needs an amount: [seat, "{word}", n]'
        if len(call) == 3 and type(call[2]) is not int:
            return f"{who}'s {word} must name a whole number of counters, not {describe(call[2])}"
        return None

    def _order_problem(self, seat: int, word: str) -> str:
        who = self.names[seat]
        if self.ended:
            return f"the vying was over ({self.outcome()}) before {who}'s {word}"
        if self.out[seat]:
            return f"{who} is out ({self._out_words(seat)}) and cannot speak again"
        return f"{who} spoke out of turn: it was {self.names[self.turn]}'s turn"

    def _out_words(self, seat: int) -> str:
        return f"folded at {self.at[seat]}" if self.rules.fold_owes_stake else "passed"

    def _amount(self, w, stake: int, named: int | None) -> int | None:
        """The stake an opening or raise makes at ``stake`` (None if a named amount is too small)."""
        rules = self.rules
        how = rules.opens_at if w.action == OPEN else rules.raise_by
        if how == NAMED:
            return named if named > stake else None
        if w.action == OPEN and how == S:
            return self.opening
        how *= self.opening if rules.scaled else 1
        return how if w.action == OPEN else stake + how

    def may_double(self) -> bool:
        """The dealer may double the ruff now (the pad only): nobody has vied, and eldest
        and middle have passed."""
        dealer, out = self.dealer, self.out
        return (
            self.rules.double is not None
            and self.table
            and not self.opened
            and self.turn == dealer
            and out[NEXT[dealer]]
            and out[NEXT[NEXT[dealer]]]
        )

    def _refusal(self, call) -> str:
        """Why ``replay_ruff`` could not take ``call`` (the state is the one before it), in
        the record's order: its shape, its seat, its word (and amount), its turn, its moment, its amount."""
        if type(call) is not list or not 2 <= len(call) <= 3:
            return f"a call is {self._shapes()}, not {describe(call)}"
        seat, word = call[0], call[1]
        if type(seat) is not int or not 0 <= seat <= 2:
            return f"a call's seat is 0, 1 or 2, not {describe(seat)}"
        double = self.rules.double
        if double is not None and self.table and word == double.word and len(call) == 2 and not self.ended:
            return (
                f"{self.names[seat]} cannot double the ruff: only the dealer may, once eldest and middle "
                f"have passed and nobody has vied"
            )
        problem = self._word_problem(seat, word, call)
        if problem is None and seat != self.turn:
            problem = self._order_problem(seat, word)
        if problem is None and word not in self._phase:
            when = (self.rules.opened_as if self.opened else self.rules.unopened).format(n=self.stake)
            problem = f"{self.names[seat]} cannot {word}: {when} ({options_text(self.choices, self.more)})"
        if problem is None:  # a named amount, no more than the stake
            least = "at least 1" if self.stake == 0 else f"more than the stake of {self.stake}"
            w = self._phase[word]
            problem = f"{self.names[seat]} {w.says.format(n=call[2])}, but a {w.word} must be {least}"
        return problem

    def _finish(self) -> None:
        """How it ended (the book's end rule): all three spoke and nobody opened; one player left in; or a showdown."""
        order, out = FROM_ELDEST[self.dealer], self.out
        if self.doubled:
            self.end = DOUBLED
        elif not self.opened:
            self.end = self.rules.all_quiet
            if self.end == SHOWDOWN:
                self.showing = order
        elif self.left == 1:
            self.end, self.winner = UNSEEN, out.index(False)
        else:
            self.end, self.showing = SHOWDOWN, tuple([s for s in order if not out[s]])

    # ------------------------------------------------------------ what it comes to

    def _owes(self, seat: int) -> int:
        rules = self.rules
        if not self.out[seat]:
            return rules.ante + self.stake
        return rules.ante + (self.at[seat] if rules.fold_owes_stake else self.committed[seat])

    @property
    def owes(self) -> list[int]:
        """Each player's liability so far: fixed once he is out, the running stake for those in."""
        rules, out, stake = self.book.vying, self.out, self.stake
        fixed, ante = (self.at if rules.fold_owes_stake else self.committed), rules.ante
        return [
            ante + fixed[0] if out[0] else ante + stake,
            ante + fixed[1] if out[1] else ante + stake,
            ante + fixed[2] if out[2] else ante + stake,
        ]

    def at_stake(self) -> list[tuple]:
        """Per seat, what he would owe the winner: ``(if he passes now, if he sees)``
        for a player still in (the same twice for one who has already put in the
        stake, or where passing costs the stake itself), ``(owes, owes)`` once he is
        out. In wits1671 after Tom vies 4, Dick passing now owes the 2 he had in,
        seeing 4."""
        rules, ante = self.rules, self.rules.ante
        out = []
        for seat in SEATS:
            if self.out[seat]:
                out.append((self._owes(seat), self._owes(seat)))
            else:
                now = self.stake if rules.fold_owes_stake else self.committed[seat]
                out.append((ante + now, ante + self.stake))
        return out

    def stake_line(self) -> str:
        """``at_stake`` in the table's words, in the book's own calls: "Tom risks 4 ·
        Dick: pass now 2, see 4 · Harry: pass now 2, see 4"; "Cat owes 4" once out."""
        drop = next(w.word for w in self._p.after.values() if w.action == DROP)
        call = next((w.word for w in self._p.after.values() if w.action == CALL), None)
        parts = []
        for seat, (now, seeing) in enumerate(self.at_stake()):
            who = self.names[seat]
            if self.out[seat]:
                parts.append(f"{who} owes {now}")
            elif now == seeing or call is None:
                parts.append(f"{who} risks {seeing}")
            else:
                parts.append(f"{who}: {drop} now {now}, {call} {seeing}")
        return " · ".join(parts)

    @property
    def fixed(self) -> list[bool]:
        return list(self.out)

    def paid(self, winner: int) -> list[int]:
        """``ruff.paid`` for ``winner``: each loser's liability, the winner's own entry 0."""
        paid = self.owes
        paid[winner] = 0
        return paid

    def outcome(self) -> str:
        if self.end == NO_CONTEST:
            return "all three checked: no contest"
        if self.end == DOUBLED:
            return f"{self.names[self.dealer]} doubled the ruff: it is played for at the next deal"
        if self.end == UNSEEN:
            return f"{self.names[self.winner]} was left alone and won unseen"
        return f"{_names_list(self.names, self.showing)} show"

    @property
    def choices(self) -> list[Choice]:
        if self.turn is None:
            return []
        seat, choices = self.turn, []
        for w in self._phase.values():
            if w.action in (CHECK, DROP):
                choices.append(Choice([seat, w.word], w.label))
            elif w.action == CALL:
                choices.append(Choice([seat, w.word], w.label.format(n=self.stake)))
            elif w.word in self._p.named:
                choices += [
                    Choice([seat, w.word, n], w.label.format(n=n))
                    for n in range(self.stake + 1, self.stake + 1 + NEXT_FEW)
                ]
            else:
                choices.append(Choice([seat, w.word], w.label.format(n=self._amount(w, self.stake, None))))
        if self.may_double():
            choices.append(Choice([seat, self.rules.double.word], self.rules.double.label))
        return choices

    @property
    def more(self) -> Amounts | None:
        if self.turn is None:
            return None
        for w in self._phase.values():
            if w.word in self._p.named:
                return Amounts(self.turn, w.word, self.stake + 1, w.label)
        return None

    def line(self) -> str:
        """ "Ann opens 2 · Ben raises to 4 · Cat folds (owes 4) · Ann matches". A drop
        by a player who is at the showdown after all (all three passed) owes nothing
        by itself: his call reads without it."""
        showing = set(self.showing) if self.end == SHOWDOWN else {0, 1, 2} if self.end == DOUBLED else set()
        return " · ".join(
            f"{self.names[seat]} " + (w.says.replace(" (owes {n})", "") if seat in showing else w.says).format(n=n)
            for seat, w, n in self._history()[0]
        )

    def _history(self) -> tuple[list, list]:
        """What the calls line and the reasons read: each call with the stake after it
        (or what a drop owes), and each player's last call that put something in. A
        replay made for a check alone does not record them: replay once more, recording."""
        if self._log is None:
            again = replay_ruff(self.book, self.dealer, self.calls, self.names, self.opening, table=self.table)
            self._log, self._did = again._log, again._did
        return self._log, self._did

    def unfinished(self) -> str:
        return (
            f"the calls stop before the vying is over: it is {self.names[self.turn]}'s turn "
            f"({options_text(self.choices, self.more)})"
        )

    def reasons(self, winner: int) -> list[str]:
        """Why each loser pays what he pays: "Cat folded at 4: pays 4"."""
        return [f"{self.names[s]} {self._story(s)}: {self._pays(s)}" for s in SEATS if s != winner]

    def _story(self, seat: int) -> str:
        dropped, quiet, held = self.rules.stories
        did = self._history()[1][seat]
        did = did.did.format(n=self.committed[seat]) if did else ""
        if not self.out[seat]:
            story = held
        elif self.rules.fold_owes_stake or did:
            story = dropped
        else:
            story = quiet
        return story.format(at=self.at[seat], stake=self.stake, did=did)

    def _pays(self, seat: int) -> str:
        ante, owes = self.rules.ante, self._owes(seat)
        if not ante:
            return f"pays {owes}"
        if owes == ante:
            return f"pays the ante, {ante}"
        return f"pays {ante} + {owes - ante} = {owes}"

    def disagreement(self, ruff: dict, shown) -> str | None:
        """What the calls give, if ``ruff``'s winner or paid is not it (the calls ended)."""
        names, winner = self.names, ruff["winner"]
        if self.end == NO_CONTEST:
            return "all three checked, so there is no contest: ruff must be null"
        if self.end == DOUBLED:
            return f"{names[self.dealer]} doubled the ruff, so it is played for at the next deal: ruff must be null"
        if self.end == UNSEEN and winner != self.winner:
            alone = names[self.winner]
            return f"the calls leave {alone} alone in, so {alone} wins unseen, not {names[winner]}"
        if self.end == SHOWDOWN and winner not in self.showing:
            return (
                f"{names[winner]} is not at the showdown ({_names_list(names, self.showing)} show), "
                f"so cannot win the ruff"
            )
        problem = self.shown_winner_problem(winner, shown)
        if problem is not None:
            return problem
        paid, owes = ruff["paid"], self.owes
        for seat in SEATS:
            if seat != winner and paid[seat] != owes[seat]:
                return f"the calls leave {names[seat]} owing {owes[seat]}, not {paid[seat]}"
        return None

    def shown_winner_problem(self, winner: int, shown) -> str | None:
        """At a showdown with ``shown``: what the ruffs shown give, if not ``winner``."""
        if self.end != SHOWDOWN or shown is None:
            return None
        best = showdown_winner(self.dealer, shown)
        if winner == best:
            return None
        return (
            f"the ruffs shown ({self.shown_text(shown)}) give the ruff to {self.names[best]}, not {self.names[winner]}"
        )

    def shown_text(self, shown) -> str:
        """ "Ann 52, Cat 47": the ruffs shown, from the dealer's left."""
        return ", ".join(f"{self.names[s]} {'four Aces' if shown[s] == FOUR_ACES else shown[s]}" for s in self.showing)


def replay_ruff(
    book, dealer: int, calls, names=SEAT_NAMES, opening: int = 2, record: bool = True, table: bool = True
) -> Ruff:
    """The vying after ``calls`` (the ruff); see the module's docstring. One pass with the
    state in local variables (every hand of a record runs it): a call is taken if it is
    exactly one the player to speak may make now, else the replay stops and
    ``Ruff._refusal`` says why. The turn is never a player who is out, and None once
    the vying is over. ``record=False`` (a check that needs neither the calls line nor
    the reasons) leaves out what only they read. ``table=False``: the calls as a record
    holds them, without the call pad's own word (the dealer doubling the ruff, which
    makes the hand's ruff null)."""
    if type(calls) is not list:
        state = Ruff(book, dealer, names, opening)
        example = '[0, "vie", 2]' if state._p.named else f'[0, "{book.vying.before[-1].word}"]'
        state.problem = f"calls must be a list of calls such as {example}, not {describe(calls)}"
        return state
    rules = book.vying
    tables = _tables(rules)
    may, after = tables.calls_before, tables.calls_after  # what may be said now, by call length
    scale = opening if rules.scaled else 1  # cotton1674's ruff played for double
    first, ante, fold_owes_stake = rules.first_stake * scale, rules.ante, rules.fold_owes_stake
    out, at, committed = [False, False, False], [None, None, None], [first, first, first]
    log, did = ([], [None, None, None]) if record else (None, None)
    # (unused where the caller names them)
    opens_at = opening if rules.opens_at == S else rules.opens_at if rules.opens_at == NAMED else rules.opens_at * scale
    raise_by = rules.raise_by if rules.raise_by == NAMED else rules.raise_by * scale
    double = rules.double.word if table and rules.double is not None else None
    turn, stake, opened, left, waiting, taken, doubled = NEXT[dealer], first, False, 3, 0, 0, False
    for call in calls:
        if type(call) is not list or not 2 <= len(call) <= 3:
            break
        seat, word = call[0], call[1]
        if word == double and len(call) == 2:  # the dealer doubles it, after two passes
            if not (
                type(seat) is int
                and seat == turn == dealer
                and not opened
                and out[NEXT[dealer]]
                and out[NEXT[NEXT[dealer]]]
            ):
                break
            if log is not None:
                log.append((seat, rules.double, 0))
            taken, turn, doubled = taken + 1, None, True
            continue
        found = may[len(call)].get(word) if type(word) is str else None
        if found is None or type(seat) is not int or seat != turn:
            break
        code, w = found
        if code == _DROP:  # out: owes the stake now (parlett) or the stake he last put in
            out[seat], at[seat], left, waiting = True, stake, left - 1, waiting - 1
            n = ante + (stake if fold_owes_stake else committed[seat])
        elif code == _CALL:
            committed[seat] = n = stake
            waiting -= 1
        elif code == _CHECK:
            n = stake
        else:  # an opening or a raise: every other player still in must answer it
            if len(call) == 3:
                n = call[2]
                if type(n) is not int or n <= stake:
                    break
            else:
                n = opens_at if code == _OPEN else stake + raise_by
            stake = committed[seat] = n
            opened, may, waiting = True, after, left - 1
        if log is not None:
            log.append((seat, w, n))
            if code == _CALL or code >= _OPEN:
                did[seat] = w
        taken += 1
        if (left == 1 or waiting == 0) if opened else taken == 3:  # the ruff's end rule
            turn = None
        else:
            turn = NEXT[seat]
            if out[turn]:
                turn = NEXT[turn]
    else:
        call = _ABSENT  # every call taken
    state = Ruff.__new__(Ruff)
    state._set(
        book,
        dealer,
        names,
        opening,
        calls[:taken],
        turn,
        stake,
        opened,
        out,
        at,
        committed,
        left,
        waiting,
        log,
        did,
        doubled,
        table,
    )
    if call is not _ABSENT:
        state.problem = state._refusal(call)
    return state


# ================================================================ the showdown: ruff.shown


def ruff_values_text(book) -> str:
    """ "A 11, K Q J 10, others face value"."""
    values, groups = book.ruff_values, []
    for rank in RANKS[:4]:  # A K Q J, then the numerals
        if groups and values[groups[-1][-1]] == values[rank]:
            groups[-1].append(rank)
        else:
            groups.append([rank])
    return ", ".join(" ".join(g) + f" {values[g[0]]}" for g in groups) + ", others face value"


def ruff_range(book) -> tuple[int, int]:
    """The lowest and highest best-suit total: 12 cards in four suits put at least 3 in
    one suit, so at least the 3 lowest cards; at most a whole suit."""
    found = _RANGES.get(book.id)
    if found is None:
        values = sorted(book.ruff_values.values())
        found = _RANGES[book.id] = (sum(values[:3]), sum(values))
    return found


_RANGES: dict = {}


def suit_total(book, ranks) -> int:
    """The ruff total of one suit's cards, ``ranks`` such as ``["A", "K", "10"]``, in the
    book's values. ``ValueError`` (the table's words) for a card that is not one, or
    one given twice (a suit has one of each)."""
    values, seen = book.ruff_values, set()
    for rank in ranks:
        if not isinstance(rank, str) or rank not in values:
            raise ValueError(f"{describe(rank)} is not a card ({' '.join(RANKS)})")
        if rank in seen:
            raise ValueError(f"the {RANK_NAMES[rank]} is given twice, but a suit has one of each card")
        seen.add(rank)
    return sum(values[r] for r in ranks)


def four_aces_possible(book, turned_up) -> bool:
    """Four Aces win the ruff in this book, and no Ace is turned up."""
    return book.four_aces_win and turned_up != "A"


def showdown_winner(dealer: int, shown) -> int | None:
    """The best ruff among ``shown`` (non-null entries): four Aces beat every total, a
    higher total a lower one, and equal totals go to the earlier seat from the dealer's left."""
    best = best_key = None
    for seat in seats_from_eldest(dealer):
        value = shown[seat]
        if value is None:
            continue
        key = (1, 0) if value == FOUR_ACES else (0, value)
        if best is None or key > best_key:
            best, best_key = seat, key
    return best


def shown_problem(state: Ruff, shown, turned_up=None, sets=None) -> str | None:
    """Why ``shown`` cannot be the showdown ``state`` ended in (best shown wins), or None.
    ``turned_up`` and ``sets`` are the hand's (None where unknown or wrong)."""
    book, names = state.book, state.names
    aces = f', or "{FOUR_ACES}"' if book.four_aces_win else ""
    if type(shown) is not list or len(shown) != 3:
        return f"shown must be three entries, one per seat (a ruff total{aces}, or null), not {describe(shown)}"
    if state.end == UNSEEN:
        return f"{names[state.winner]} won unseen (nobody else was left in), so nothing is shown: leave out shown"
    if state.end != SHOWDOWN:
        return None  # no contest: the result's line says so
    problem = _shown_entries_problem(state, shown, turned_up)
    if problem is None and sets is not None:
        for seat in state.showing:
            if shown[seat] != FOUR_ACES and "mournival:A" in sets[seat] and book.four_aces_win:
                return (
                    f'{names[seat]} declares a mournival of Aces, so shows four Aces ("{FOUR_ACES}"), '
                    f"not {describe(shown[seat])}"
                )
    return problem


def _shown_entries_problem(state: Ruff, shown, turned_up) -> str | None:
    book, names = state.book, state.names
    lowest, highest = ruff_range(book)
    with_aces = []
    for seat in SEATS:
        who, value = names[seat], shown[seat]
        if seat not in state.showing:
            if value is not None:
                return (
                    f"{who} is out ({state._out_words(seat)}) and shows no ruff, so {who}'s entry "
                    f"must be null, not {describe(value)}"
                )
        elif value is None:
            aces = f' or "{FOUR_ACES}"' if book.four_aces_win else ""
            return f"{who} is at the showdown, so shown needs {who}'s ruff (a total{aces}), not null"
        elif value == FOUR_ACES and book.four_aces_win:
            if turned_up == "A":
                return f"{who} shows four Aces, but an Ace is turned up"
            with_aces.append(seat)
        elif type(value) is not int:
            aces = f' or "{FOUR_ACES}"' if book.four_aces_win else ""
            return f"{who}'s ruff must be a whole number{aces}, not {describe(value)}"
        elif not lowest <= value <= highest:
            return f"{who} shows {value}, but a ruff totals {lowest} to {highest} ({ruff_values_text(book)})"
    if len(with_aces) > 1:
        return f"{_names_list(names, with_aces)} both show four Aces, but there are only four Aces"
    return None


class Showing(NamedTuple):
    """The showdown as the cards are tapped (``read_showing``): ``shown``, each seat's
    total so far (``"aces"``, a number, or None for nothing tapped yet); ``complete``:
    every showing player's best suit is one a best suit can be (a total of
    ``ruff_range``, or four Aces); ``problem``: why the cards tapped cannot all be so
    (then nothing else is to be said: no winner, no payments), else None."""

    shown: list
    complete: bool
    problem: str | None

    @property
    def decided(self) -> bool:
        return self.complete and self.problem is None


def read_showing(state: Ruff, cards, totals=(None, None, None), turned_up=None) -> Showing:
    """The showdown ``state`` ended in, from the cards tapped for each showing seat
    (``cards[seat]``: ranks, with ``"aces"`` for four Aces) or, where none are, a
    total known before (``totals``: a stored hand being edited). Four Aces shown
    by one player leave no Ace for anybody else; two cannot both show them, nor
    anyone when an Ace is turned up; a suit has one of each card; a best suit
    totals ``ruff_range``, so one below it is still being tapped."""
    book, names = state.book, state.names
    shown: list = [None, None, None]
    for seat in state.showing:
        tapped = list(cards[seat] or ())
        if FOUR_ACES in tapped:
            shown[seat] = FOUR_ACES
        elif tapped:
            try:
                shown[seat] = suit_total(book, tapped)
            except ValueError as error:
                return Showing(shown, False, f"{names[seat]}: {error}")
        else:
            shown[seat] = totals[seat]
    aces = [s for s in state.showing if shown[s] == FOUR_ACES]
    if aces and not book.four_aces_win:
        return Showing(shown, False, f"four Aces do not win the ruff in {book.name}")
    if len(aces) > 1:
        return Showing(shown, False, f"{_names_list(names, aces)} both show four Aces, but there are only four Aces")
    if aces and turned_up == "A":
        return Showing(shown, False, f"{names[aces[0]]} shows four Aces, but an Ace is turned up")
    if aces:
        others = [s for s in state.showing if s != aces[0] and "A" in (cards[s] or ())]
        if others:
            return Showing(
                shown, False, f"{names[aces[0]]} shows four Aces, so {_names_list(names, others)} cannot show an Ace"
            )
    lowest, highest = ruff_range(book)
    complete = all(
        shown[s] == FOUR_ACES or (type(shown[s]) is int and lowest <= shown[s] <= highest) for s in state.showing
    )
    return Showing(shown, complete, None)


def calls_give(state: Ruff, ruff: dict) -> bool:
    """The calls are legal, finished, and give exactly this winner and paid (whole
    numbers: ``True`` or ``4.0`` never agree), so ``winner`` and ``paid`` need no other check
    (what ``shown`` says is checked after the sets, by ``check_ruff_calls``)."""
    winner, paid = ruff["winner"], ruff["paid"]
    if (
        state.turn is not None
        or state.problem is not None
        or type(winner) is not int
        or type(paid) is not list
        or len(paid) != 3
    ):
        return False
    if state.end == UNSEEN:
        if winner != state.winner:
            return False
    elif winner not in state.showing:  # (a showdown's seats; none at a no contest)
        return False
    a, b, c = paid
    return type(a) is int and type(b) is int and type(c) is int and paid == state.paid(winner)


def check_ruff_calls(state: Ruff, check, ruff: dict, result_ok: bool, given: bool = False) -> None:
    """A hand gets at most one line about ``ruff.calls`` (replayed: ``state``) and ``ruff.shown``,
    under ``ruff``; ``given``: the calls give its winner and paid (``calls_give``)."""
    shown = ruff.get("shown", _ABSENT)
    if given and shown is _ABSENT:
        return  # the calls make the result, and nothing is shown
    hand = check.hand
    problem = state.problem
    if problem is None and not state.ended:
        problem = state.unfinished()
    if problem is None and shown is not _ABSENT:
        turned_up = hand.get("turned_up") if check.good("turned_up") else None
        sets = hand["sets"] if check.good("sets") else None
        problem = shown_problem(state, shown, turned_up, sets)
    if problem is None and result_ok:
        shown = None if shown is _ABSENT else shown
        problem = state.shown_winner_problem(ruff["winner"], shown) if given else state.disagreement(ruff, shown)
    if problem is not None:
        check.fail("ruff", "ruff: " + problem)


# ================================================================ the hand detail's lines


def infer_opening(book, hand: dict) -> int:
    """The opening stake S a valid hand's calls were made at, read back from its own
    ``paid`` (where the hands before it are not at hand): a parlett loser owes S plus
    2 a raise, so S is what he paid less what the calls owe at S = 0."""
    if book.vying.scaled:  # every amount is M times what it is at M = 1
        state = replay_ruff(book, hand["dealer"], hand["ruff"]["calls"], opening=1)
        loser = next(s for s in SEATS if s != hand["ruff"]["winner"])
        return hand["ruff"]["paid"][loser] // state.owes[loser]
    if book.vying.opens_at != S:
        return 2
    ruff = hand["ruff"]
    state = replay_ruff(book, hand["dealer"], ruff["calls"], opening=0)
    loser = next(s for s in SEATS if s != ruff["winner"])
    return ruff["paid"][loser] - state.owes[loser]


def ruff_reasons(book, hand: dict, names, opening: int | None = None) -> list[str]:
    """A valid hand's ruff, call by call: the calls, how it ended, and each loser's reason."""
    ruff = hand["ruff"]
    if opening is None:
        opening = infer_opening(book, hand)
    state = replay_ruff(book, hand["dealer"], ruff["calls"], names, opening)
    winner = ruff["winner"]
    lines = [f"{state.line()}."]  # under the phase's title ("Ruff: Ann opens 2 · …")
    if book.vying.scaled and opening > 1:
        lines.insert(0, f"Played for double (×{opening}): the ruff was doubled at the deal before.")
    if state.end == UNSEEN:
        lines.append(f"{names[winner]} is left alone in and wins the ruff unseen.")
    elif ruff.get("shown") is not None:
        lines.append(f"Showdown: {state.shown_text(ruff['shown'])}; {names[winner]} wins the ruff.")
    else:
        lines.append(f"Showdown: {_names_list(names, state.showing)} show; {names[winner]} wins the ruff.")
    return lines + [f"{reason}." for reason in state.reasons(winner)]
