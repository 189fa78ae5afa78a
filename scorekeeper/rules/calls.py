"""Call by call: the auction and the ruff as they are spoken (GLEEK-RULES.md §9).

One implementation of §9 serves the record check (``settle``, import) and the hand
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
in) and ``fixed`` (which of them are fixed), and once ended ``end``: ``"no contest"``
(parlett, all checked: ``ruff`` is null), ``"unseen"`` (``winner`` is the one left in) or
``"showdown"`` (``showing``: the seats that show, from the dealer's left). Given the
winner (the unseen one, ``showdown_winner(dealer, shown)``, or the table's choice among
``showing``), ``paid(winner)`` is the record's ``ruff.paid`` and ``reasons(winner)`` one
line per loser ("Cat folded at 4: pays 4").

The showdown helper: ``suit_total(book, ranks)`` totals one suit's cards in the book's
values (refusing a card given twice), ``four_aces_possible(book, turned_up)``,
``showdown_winner(dealer, shown)`` (four Aces beat every total, then the higher total,
ties to the earlier seat from the dealer's left) and ``shown_problem(...)``, the
checks of §9.3.

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

from collections import namedtuple

from .core import HONOURS, RANK_NAMES, RANKS, SEATS, describe, seats_from_eldest

SEAT_NAMES = ("seat 0", "seat 1", "seat 2")
NEXT_FEW = 4  # amounts offered as chips where the caller names one
FOUR_ACES = "aces"
CHECK, OPEN, CALL, RAISE, DROP = "check", "open", "call", "raise", "drop"  # a Word's action
NAMED, S = "named", "S"  # Vying.opens_at / raise_by: named by the caller; the hand's opening stake
NO_CONTEST, UNSEEN, SHOWDOWN = "no contest", "unseen", "showdown"  # how a ruff ends


class Choice(namedtuple("Choice", "call label")):
    """A legal next call: ``call`` as the record writes it, ``label`` for its button."""

    __slots__ = ()


class Amounts(namedtuple("Amounts", "seat word least label")):
    """A call whose amount the caller names: any whole n ≥ ``least`` is legal."""

    __slots__ = ()

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
            texts.append(choice.label.lower())
    if len(texts) > 1 and any(" or " in t for t in texts):
        return ", ".join(texts[:-1]) + ", or " + texts[-1]
    return _or_list(texts)


def _names_list(names, seats) -> str:
    """``Ann and Ben``, ``Ann, Ben and Cat``."""
    return _or_list([names[s] for s in seats]).replace(" or ", " and ")


# ================================================================ the auction (§9.1)

class Auction:
    """The auction after the bids so far (``replay_bids``)."""

    def __init__(self, book, dealer: int, names=SEAT_NAMES):
        self.book, self.dealer, self.names = book, dealer, names
        self.calls: list = []
        self.turn = (dealer + 1) % 3  # eldest speaks first
        self.highest = self.bidder = None
        self.out = [False, False, False]
        self.passes = 0
        self.ended = False
        self.problem = None

    @property
    def buyer(self):
        return self.bidder if self.ended else None

    @property
    def price(self):
        return self.highest if self.ended and self.bidder is not None else None

    def play(self, call) -> str | None:
        """Take one more call; why it cannot be taken (the table's words), or None."""
        if type(call) is not list or len(call) != 2:
            return f'a bid is [seat, n] or [seat, "pass"], not {describe(call)}'
        seat, bid = call
        if type(seat) is not int or not 0 <= seat <= 2:
            return f"a bid's seat is 0, 1 or 2, not {describe(seat)}"
        is_pass = bid == "pass"
        if not is_pass and type(bid) is not int:
            return f'{self.names[seat]}\'s bid must be a whole number or "pass", not {describe(bid)}'
        problem = self._order_problem(seat, "pass" if is_pass else f"bid of {bid}")
        if problem is None:
            problem = self._pass(seat) if is_pass else self._bid(seat, bid)
        if problem is None:
            self.calls.append(call)
            self._next(seat)
        return problem

    def _order_problem(self, seat: int, what: str) -> str | None:
        who = self.names[seat]
        if self.ended:
            return f"the bidding was over ({self.outcome()}) before {who}'s {what}"
        if self.out[seat]:
            return f"{who} is out (passed) and cannot speak again"
        if seat != self.turn:
            return f"{who} spoke out of turn: it was {self.names[self.turn]}'s turn"
        return None

    def _least(self) -> int:
        return self.book.opening_price if self.highest is None else self.highest + self.book.price_step

    def _bid(self, seat: int, bid: int) -> str | None:
        book, who, least = self.book, self.names[seat], self._least()
        if self.highest is None:
            if book.eldest_must_buy and bid != least:
                return f"{who} is eldest and must open at {least}, not {bid}"
            if bid < least:
                return f"{who} bid {bid}, but the first bid is at least {least}"
        elif book.exact_bids and bid != least:
            return f"{who} bid {bid}, but bids go up by {book.price_step} ({least} next)"
        elif bid < least:
            return f"{who} bid {bid}, but bids go up by at least {book.price_step} ({least} or more next)"
        self.highest, self.bidder = bid, seat
        return None

    def _pass(self, seat: int) -> str | None:
        if self.highest is None and self.book.eldest_must_buy:
            return f"{self.names[seat]} is eldest and must open at {self.book.opening_price}, not pass"
        self.out[seat] = True
        self.passes += 1
        return None

    def _next(self, seat: int) -> None:
        if self.passes == 3 or (self.passes == 2 and self.bidder is not None):
            self.ended, self.turn = True, None
        else:
            turn = (seat + 1) % 3
            self.turn = (turn + 1) % 3 if self.out[turn] else turn

    def outcome(self) -> str:
        if self.bidder is None:
            return "all three passed"
        return f"{self.names[self.bidder]} bought at {self.highest}"

    @property
    def choices(self) -> list[Choice]:
        if self.turn is None:
            return []
        seat, least = self.turn, self._least()
        count = 1 if self.book.exact_bids else NEXT_FEW
        choices = [Choice([seat, n], f"Bid {n}") for n in range(least, least + count)]
        if not (self.highest is None and self.book.eldest_must_buy):
            choices.append(Choice([seat, "pass"], "Pass"))
        return choices

    @property
    def more(self) -> Amounts | None:
        if self.turn is None or self.book.exact_bids:
            return None
        return Amounts(self.turn, None, self._least(), "Bid {n}")

    def line(self) -> str:
        """"Ann bids 12 · Ben 14 · Cat passes · Ann 16 · Ben passes"."""
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
        return (f"the bids stop before the auction is over: it is {self.names[self.turn]}'s turn "
                f"({options_text(self.choices, self.more)})")

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
    """The auction after ``bids`` (§9.1); see the module's docstring."""
    state = Auction(book, dealer, names)
    if type(bids) is not list:
        state.problem = f'bids must be a list of calls such as [0, 12] or [1, "pass"], not {describe(bids)}'
        return state
    play = state.play
    for call in bids:
        problem = play(call)
        if problem is not None:
            state.problem = problem
            break
    return state


def check_bids(book, check, auction: dict, result_ok: bool) -> None:
    """§9.4: at most one line about ``auction.bids``, under ``auction``."""
    state = replay_bids(book, check.hand["dealer"], auction["bids"], check.names)
    problem = state.problem
    if problem is None and not state.ended:
        problem = state.unfinished()
    if problem is None and result_ok:
        problem = state.disagreement(auction)
    if problem is not None:
        check.fail("auction", "auction: " + problem)


# ================================================================ the ruff (§9.2)

_TABLES: dict = {}


def _tables(vying) -> tuple:
    """A book's vying as lookups: words before and after an opening, the words whose
    amount the caller names, and every word of the book in order."""
    tables = _TABLES.get(id(vying))
    if tables is None:
        words = vying.before + vying.after
        named = frozenset(w.word for w in words
                          if (w.action == OPEN and vying.opens_at == NAMED)
                          or (w.action == RAISE and vying.raise_by == NAMED))
        tables = (vying, {w.word: w for w in vying.before}, {w.word: w for w in vying.after}, named,
                  tuple(dict.fromkeys(w.word for w in words)))
        _TABLES[id(vying)] = tables
    return tables


class Ruff:
    """The vying after the calls so far (``replay_ruff``)."""

    def __init__(self, book, dealer: int, names=SEAT_NAMES, opening: int = 2):
        self.book, self.dealer, self.names, self.opening = book, dealer, names, opening
        _, self._before, self._after, self._named, self._words = _tables(book.vying)
        self.rules = rules = book.vying
        self.calls: list = []
        self.log: list = []  # (seat, Word, n): n the stake after the call, or what a drop owes
        self.turn = (dealer + 1) % 3
        self.stake = rules.first_stake
        self.opened = False
        self.out = [False, False, False]
        self.at = [None, None, None]  # the stake when he dropped
        self.committed = [rules.first_stake] * 3  # the stake he last put in
        self.did = [None, None, None]  # (Word, n): his last call that put something in
        self.pending = [False, False, False]  # still to answer the last opening or raise
        self.ended = False
        self.end = self.winner = None
        self.showing: tuple = ()
        self.problem = None

    # ------------------------------------------------------------ taking a call

    def play(self, call) -> str | None:
        """Take one more call; why it cannot be taken (the table's words), or None."""
        if type(call) is not list or not 2 <= len(call) <= 3:
            return f"a call is {self._shapes()}, not {describe(call)}"
        seat, word = call[0], call[1]
        if type(seat) is not int or not 0 <= seat <= 2:
            return f"a call's seat is 0, 1 or 2, not {describe(seat)}"
        problem = self._word_problem(seat, word, call)
        if problem is None:
            problem = self._order_problem(seat, word)
        if problem is not None:
            return problem
        w = (self._after if self.opened else self._before).get(word)
        if w is None:
            when = (self.rules.opened_as if self.opened else self.rules.unopened).format(n=self.stake)
            return f"{self.names[seat]} cannot {word}: {when} ({options_text(self.choices, self.more)})"
        problem = self._take(seat, w, call[2] if len(call) == 3 else None)
        if problem is None:
            self.calls.append(call)
            self._next(seat)
        return problem

    def _shapes(self) -> str:
        plain = [w for w in self._words if w not in self._named]
        shapes = [f'[seat, "{w}", n]' for w in self._named]
        shapes.append(f"[seat, word] with word {_or_list(plain)}")
        return " or ".join(shapes)

    def _word_problem(self, seat: int, word, call: list) -> str | None:
        """A word the book does not have, or an amount where there is none (or none where one is needed)."""
        who = self.names[seat]
        if type(word) is not str or word not in self._words:
            return f"{who} says {describe(word)}, which is not a {self.book.id} call ({', '.join(self._words)})"
        if len(call) == 3 and word not in self._named:
            where = f"only {_or_list(sorted(self._named))} names one" if self._named else f"no {self.book.id} call names one"
            return f"{who}'s {word} carries an amount ({describe(call[2])}), but {where}"
        if len(call) == 2 and word in self._named:
            return f'{who}\'s {word} needs an amount: [seat, "{word}", n]'
        if len(call) == 3 and type(call[2]) is not int:
            return f"{who}'s {word} must name a whole number of counters, not {describe(call[2])}"
        return None

    def _order_problem(self, seat: int, word: str) -> str | None:
        who = self.names[seat]
        if self.ended:
            return f"the vying was over ({self.outcome()}) before {who}'s {word}"
        if self.out[seat]:
            return f"{who} is out ({self._out_words(seat)}) and cannot speak again"
        if seat != self.turn:
            return f"{who} spoke out of turn: it was {self.names[self.turn]}'s turn"
        return None

    def _out_words(self, seat: int) -> str:
        return f"folded at {self.at[seat]}" if self.rules.fold_owes_stake else "passed"

    def _amount(self, w, named: int | None) -> int:
        """The stake an opening or raise makes (None if a named amount is too small)."""
        rules = self.rules
        how = rules.opens_at if w.action == OPEN else rules.raise_by
        if how == NAMED:
            return named if named > self.stake else None
        if w.action == OPEN:
            return self.opening if how == S else how
        return self.stake + how

    def _take(self, seat: int, w, named: int | None) -> str | None:
        action = w.action
        if action == DROP:
            self.out[seat], self.at[seat], self.pending[seat] = True, self.stake, False
            self.log.append((seat, w, self._owes(seat)))
            return None
        if action == CALL:
            self.committed[seat], self.pending[seat] = self.stake, False
            self.did[seat] = (w, self.stake)
        elif action != CHECK:  # an opening or a raise
            stake = self._amount(w, named)
            if stake is None:
                least = "at least 1" if self.stake == 0 else f"more than the stake of {self.stake}"
                return f"{self.names[seat]} {w.says.format(n=named)}, but a {w.word} must be {least}"
            self.stake, self.opened = stake, True
            self.committed[seat], self.did[seat] = stake, (w, stake)
            out = self.out
            self.pending = [not out[s] and s != seat for s in SEATS]
        self.log.append((seat, w, self.stake))
        return None

    def _next(self, seat: int) -> None:
        """The end rule of §9.2, else the next player still in, clockwise."""
        out = self.out
        if not self.opened:
            if len(self.calls) == 3:  # all three spoke and nobody opened
                quiet = self.rules.all_quiet
                self.ended, self.turn, self.end = True, None, quiet
                if quiet == SHOWDOWN:
                    self.showing = seats_from_eldest(self.dealer)
                return
        else:
            still_in = [s for s in seats_from_eldest(self.dealer) if not out[s]]
            if len(still_in) == 1:
                self.ended, self.turn, self.end, self.winner = True, None, UNSEEN, still_in[0]
                return
            if not any(self.pending):
                self.ended, self.turn, self.end, self.showing = True, None, SHOWDOWN, tuple(still_in)
                return
        turn = (seat + 1) % 3
        self.turn = (turn + 1) % 3 if out[turn] else turn

    # ------------------------------------------------------------ what it comes to

    def _owes(self, seat: int) -> int:
        rules = self.rules
        if not self.out[seat]:
            return rules.ante + self.stake
        return rules.ante + (self.at[seat] if rules.fold_owes_stake else self.committed[seat])

    @property
    def owes(self) -> list[int]:
        """Each player's liability so far: fixed once he is out, the running stake for those in."""
        return [self._owes(s) for s in SEATS]

    @property
    def fixed(self) -> list[bool]:
        return list(self.out)

    def paid(self, winner: int) -> list[int]:
        """``ruff.paid`` for ``winner``: each loser's liability, the winner's own entry 0."""
        return [0 if s == winner else self._owes(s) for s in SEATS]

    def outcome(self) -> str:
        if self.end == NO_CONTEST:
            return "all three checked: no contest"
        if self.end == UNSEEN:
            return f"{self.names[self.winner]} was left alone and won unseen"
        return f"{_names_list(self.names, self.showing)} show"

    @property
    def choices(self) -> list[Choice]:
        if self.turn is None:
            return []
        seat, choices = self.turn, []
        for w in (self._after if self.opened else self._before).values():
            if w.action in (CHECK, DROP):
                choices.append(Choice([seat, w.word], w.label))
            elif w.action == CALL:
                choices.append(Choice([seat, w.word], w.label.format(n=self.stake)))
            elif w.word in self._named:
                choices += [Choice([seat, w.word, n], w.label.format(n=n))
                            for n in range(self.stake + 1, self.stake + 1 + NEXT_FEW)]
            else:
                choices.append(Choice([seat, w.word], w.label.format(n=self._amount(w, None))))
        return choices

    @property
    def more(self) -> Amounts | None:
        if self.turn is None:
            return None
        for w in (self._after if self.opened else self._before).values():
            if w.word in self._named:
                return Amounts(self.turn, w.word, self.stake + 1, w.label)
        return None

    def line(self) -> str:
        """"Ann opens 2 · Ben raises to 4 · Cat folds (owes 4) · Ann matches"."""
        return " · ".join(f"{self.names[seat]} {w.says.format(n=n)}" for seat, w, n in self.log)

    def unfinished(self) -> str:
        return (f"the calls stop before the vying is over: it is {self.names[self.turn]}'s turn "
                f"({options_text(self.choices, self.more)})")

    def reasons(self, winner: int) -> list[str]:
        """Why each loser pays what he pays: "Cat folded at 4: pays 4"."""
        return [f"{self.names[s]} {self._story(s)}: {self._pays(s)}" for s in SEATS if s != winner]

    def _story(self, seat: int) -> str:
        dropped, quiet, held = self.rules.stories
        did = self.did[seat]
        did = did[0].did.format(n=did[1]) if did else ""
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
        if self.end == UNSEEN and winner != self.winner:
            alone = names[self.winner]
            return f"the calls leave {alone} alone in, so {alone} wins unseen, not {names[winner]}"
        if self.end == SHOWDOWN and winner not in self.showing:
            return (f"{names[winner]} is not at the showdown ({_names_list(names, self.showing)} show), "
                    f"so cannot win the ruff")
        if self.end == SHOWDOWN and shown is not None:
            best = showdown_winner(self.dealer, shown)
            if winner != best:
                return f"the ruffs shown ({self.shown_text(shown)}) give the ruff to {names[best]}, not {names[winner]}"
        paid = ruff["paid"]
        for seat in SEATS:
            if seat != winner and paid[seat] != self._owes(seat):
                return f"the calls leave {names[seat]} owing {self._owes(seat)}, not {paid[seat]}"
        return None

    def shown_text(self, shown) -> str:
        """"Ann 52, Cat 47": the ruffs shown, from the dealer's left."""
        return ", ".join(f"{self.names[s]} {'four Aces' if shown[s] == FOUR_ACES else shown[s]}"
                         for s in self.showing)


def replay_ruff(book, dealer: int, calls, names=SEAT_NAMES, opening: int = 2) -> Ruff:
    """The vying after ``calls`` (§9.2); see the module's docstring."""
    state = Ruff(book, dealer, names, opening)
    if type(calls) is not list:
        example = "[0, \"vie\", 2]" if state._named else f"[0, \"{book.vying.before[-1].word}\"]"
        state.problem = f"calls must be a list of calls such as {example}, not {describe(calls)}"
        return state
    play = state.play
    for call in calls:
        problem = play(call)
        if problem is not None:
            state.problem = problem
            break
    return state


# ================================================================ the showdown (§9.3)

def ruff_values_text(book) -> str:
    """"A 11, K Q J 10, others face value"."""
    values, groups = book.ruff_values, []
    for rank in HONOURS:
        if groups and values[groups[-1][-1]] == values[rank]:
            groups[-1].append(rank)
        else:
            groups.append([rank])
    return ", ".join(" ".join(g) + f" {values[g[0]]}" for g in groups) + ", others face value"


def ruff_range(book) -> tuple[int, int]:
    """The lowest and highest best-suit total: 12 cards in four suits put at least 3 in
    one suit, so at least the 3 lowest cards; at most a whole suit."""
    values = sorted(book.ruff_values.values())
    return sum(values[:3]), sum(values)


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
    """Why ``shown`` cannot be the showdown ``state`` ended in (§9.3), or None.
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
                return (f'{names[seat]} declares a mournival of Aces, so shows four Aces ("{FOUR_ACES}"), '
                        f"not {describe(shown[seat])}")
    return problem


def _shown_entries_problem(state: Ruff, shown, turned_up) -> str | None:
    book, names = state.book, state.names
    lowest, highest = ruff_range(book)
    with_aces = []
    for seat in SEATS:
        who, value = names[seat], shown[seat]
        if seat not in state.showing:
            if value is not None:
                return (f"{who} is out ({state._out_words(seat)}) and shows no ruff, so {who}'s entry "
                        f"must be null, not {describe(value)}")
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


def check_ruff_calls(book, check, ruff: dict, opening: int, result_ok: bool) -> None:
    """§9.4: at most one line about ``ruff.calls`` and ``ruff.shown``, under ``ruff``."""
    hand = check.hand
    state = replay_ruff(book, hand["dealer"], ruff["calls"], check.names, opening)
    problem = state.problem
    if problem is None and not state.ended:
        problem = state.unfinished()
    shown = ruff.get("shown")
    if problem is None and "shown" in ruff:
        turned_up = hand.get("turned_up") if check.good("turned_up") else None
        sets = hand["sets"] if check.good("sets") else None
        problem = shown_problem(state, shown, turned_up, sets)
    if problem is None and result_ok:
        problem = state.disagreement(ruff, shown)
    if problem is not None:
        check.fail("ruff", "ruff: " + problem)


# ================================================================ the hand detail's lines

def infer_opening(book, hand: dict) -> int:
    """The opening stake S a valid hand's calls were made at, read back from its own
    ``paid`` (where the hands before it are not at hand): a parlett loser owes S plus
    2 a raise, so S is what he paid less what the calls owe at S = 0."""
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
    lines = [f"Calls: {state.line()}."]
    if state.end == UNSEEN:
        lines.append(f"{names[winner]} is left alone in and wins the ruff unseen.")
    elif ruff.get("shown") is not None:
        lines.append(f"Showdown: {state.shown_text(ruff['shown'])}; {names[winner]} wins the ruff.")
    else:
        lines.append(f"Showdown: {_names_list(names, state.showing)} show; {names[winner]} wins the ruff.")
    return lines + [f"{reason}." for reason in state.reasons(winner)]
