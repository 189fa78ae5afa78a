"""What a rule book asks about a hand: its sections, questions, presets and phases.

A rule book *declares* its hand (``RuleBook.sections``, and its phases' and cards'
questions and presets, ``RuleBook.questions``, ``RuleBook.presets``): every question the table answers,
the kind of answer it takes, the words the table uses, the section (the moment of
play) it belongs to, the choices it allows given the answers so far (and why an
answer is fixed: "the King is turned up: it counts for the dealer"), and how an
answer reads on the sheet. The hand form, its templates (one partial per kind),
the hand detail, the sheet and the "in progress" view loop over this
declaration, so nothing outside ``scorekeeper.rules`` knows a hand key's rule.

The kinds of question (each is one module of ``scorekeeper/form/kinds/``: its
reader, its writer, its fields' shapes and its partial, ``templates/fields/<kind>.html``)::

    seat      one seat, or nobody where the book allows it   dealer, tiddy, towser, tib, tom
    choice    one of a few named values                      trump, turned_up
    purchase  the buyer (or nobody) and the price            auction
    ruff      the winner (or no contest) and what each paid  ruff
    sets      per seat, the sets declared                    sets
    forfeits  the buyer's false calls caught, optional       forfeits
    counts    per seat, a count out of a fixed total         tricks
    honours   per honour in play, who holds it               honours
    points    per seat, a typed number                       card_points
    text      free text, optional                            note

Everything here is pure: a question's methods take ``Answers`` (the partial
hand so far, the session's options, the hands before, the players' names) and
return plain data.
"""

from __future__ import annotations

from typing import NamedTuple

from .core import (  # noqa: F401 - Section is part of a book's declaration
    Section,
    RANK_PLURALS,
    RANKS,
    SEATS,
    SUIT_SYMBOLS,
    eldest,
    middle,
    parse_set,
)


class Choice(NamedTuple):
    """One answer a chip offers: the record value, its label, and a mark ("dealer")."""

    value: object
    label: str
    mark: str | None


class Fixed(NamedTuple):
    """An answer the rules leave no choice about, and why (in the table's words)."""

    value: object
    reason: str


class Preset(NamedTuple):
    """One tap that answers several questions ("Quiet hand"): its id, its button's
    words, the section it sits in, and the answers it gives (key -> record value)."""

    id: str
    label: str
    section: str
    answers: dict


class HonourLine(NamedTuple):
    """One honour's line in the honours question: the rank, its words, and either
    the seats that may hold it (choices) or why it is fixed."""

    rank: str
    label: str
    choices: list
    fixed: str | None


class SetChoices(NamedTuple):
    """One rank's set chips for a seat: (rank, [Choice("gleek:K", "3×K"), …])."""

    rank: str
    choices: list


NOBODY = "nobody"  # the form's word for a null answer


def calls():
    """The call-by-call module, imported when a hand has calls (not by ``settle``)."""
    from . import calls as module  # the call procedures (~30 ms): only when a hand has calls

    return module


class Answers:
    """The answers given so far (a partial hand) and what choices depend on.

    It quacks like ``core.HandCheck`` where rules need it to (``hand``,
    ``good``, ``who``), so one rule serves the checks and the form."""

    def __init__(self, book, hand: dict, options: dict, hands_before: list, names):
        self.book, self.hand, self.options = book, hand, options
        self.hands_before, self.names = hands_before, tuple(names)

    def good(self, *keys: str) -> bool:
        return all(key in self.hand for key in keys)

    def who(self, seat: int) -> str:
        return self.names[seat]

    @property
    def dealer(self) -> int | None:
        return self.hand.get("dealer")

    def seat_choices(self) -> list[Choice]:
        """The three seats, the dealer and eldest marked."""
        dealer = self.dealer
        marks = {} if dealer is None else {dealer: "dealer", eldest(dealer): "eldest"}
        return [Choice(seat, self.names[seat], marks.get(seat, "")) for seat in SEATS]


class Question:
    """One question of a hand. ``key`` is the record key it answers; ``field`` the
    form field name (or prefix) it uses; ``title`` its name in the table's words
    ("Card points"), which problem lines use in place of the record key."""

    kind = ""

    def __init__(
        self,
        key: str,
        section: str,
        title: str,
        ask: str,
        *,
        label: str | None = None,
        field: str | None = None,
        fixed=None,
        optional: bool = False,
        rules=None,
    ):
        self.key, self.section, self.title, self.ask = key, section, title, ask
        self.label = title if label is None else label
        self.field = field or key
        self.optional = optional
        self._fixed = fixed
        self.rules = rules  # the phase that asks it (``phases.py``), where its choices are the phase's

    def fixed(self, answers: Answers) -> Fixed | None:
        """The answer, where the rules leave the table no choice (else None)."""
        return self._fixed(answers) if self._fixed else None

    def reads(self, value, answers: Answers) -> str:
        """The answer in a few words, for the sheet and the hand in progress."""
        return str(value)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"


class SeatQuestion(Question):
    """One seat; ``nobody`` labels the null answer where the book allows one."""

    kind = "seat"

    def __init__(self, key, section, title, ask, *, nobody: str | None = None, reads_as: str = "", **kwargs):
        super().__init__(key, section, title, ask, **kwargs)
        self.nobody = nobody
        self.reads_as = reads_as or f"{title}: {{}}"

    def choices(self, answers: Answers) -> list[Choice]:
        nobody = [Choice(None, self.nobody, "")] if self.nobody else []
        return nobody + answers.seat_choices()

    def reads(self, value, answers):
        return self.reads_as.format("nobody" if value is None else answers.who(value))


class ChoiceQuestion(Question):
    """One of a few named values (trump, the turned-up rank)."""

    kind = "choice"

    def __init__(self, key, section, title, ask, *, values, labels=None, reads_as="{}", look="", **kwargs):
        super().__init__(key, section, title, ask, **kwargs)
        labels = labels or {}
        self.values = tuple(values)
        self._choices = [Choice(v, labels.get(v, v), "") for v in self.values]
        self.reads_as = reads_as
        self.look = look  # a hint for the chips' layout ("suits", "ranks")

    def choices(self, answers: Answers) -> list[Choice]:
        return self._choices

    def reads(self, value, answers):
        return self.reads_as.format(next((c.label for c in self._choices if c.value == value), value))


class PurchaseQuestion(Question):
    """The stock: who bought it (or nobody, where the book allows) and at what price."""

    kind = "purchase"

    def __init__(self, key, section, title, ask, *, ask_price: str, nobody: str = "Nobody", **kwargs):
        super().__init__(key, section, title, ask, **kwargs)
        self.ask_price, self.nobody = ask_price, nobody

    def buyer_choices(self, answers: Answers) -> list[Choice]:
        nobody = [Choice(None, self.nobody, "")] if self.rules.may_be_empty(answers.options) else []
        return nobody + answers.seat_choices()

    def price_choices(self, answers: Answers, buyer: int | None, count: int = 10) -> list[int]:
        return self.rules.price_choices(buyer, answers.dealer, count)

    def reads(self, value, answers):
        if value is None:
            return "stock not bought"
        bought = f"{answers.who(value['buyer'])} bought at {value['price']}"
        if "bids" in value and answers.dealer is not None:  # the bidding, as it was spoken
            return (
                f"{bought} ({calls().replay_bids(answers.book, answers.dealer, value['bids'], answers.names).line()})"
            )
        return bought


class RuffQuestion(Question):
    """The ruff: who won it (or no contest, where the book allows) and what each loser paid."""

    kind = "ruff"

    def __init__(
        self,
        key,
        section,
        title,
        ask,
        *,
        ask_paid: str,
        nobody: str = "No contest",
        nobody_hint: str = "",
        nobody_reads: str = "",
        **kwargs,
    ):
        super().__init__(key, section, title, ask, **kwargs)
        self.ask_paid, self.nobody, self.nobody_hint = ask_paid, nobody, nobody_hint
        self.nobody_reads = nobody_reads  # the sheet's words for the null answer ({dealer})

    def winner_label(self, answers: Answers) -> str:
        """ "Winner — or nobody opened (stake 4)" where the book allows no contest."""
        if self.nobody_hint and self.rules.may_be_empty(answers.options):
            return f"{self.label} — or {self.nobody_hint.format(opening=self.opening(answers))}"
        return self.label

    def winner_choices(self, answers: Answers) -> list[Choice]:
        nobody = [Choice(None, self.nobody, "")] if self.rules.may_be_empty(answers.options) else []
        return nobody + answers.seat_choices()

    def opening(self, answers: Answers) -> int:
        return self.rules.opening(answers.hands_before)

    def played_for(self, answers: Answers) -> str | None:
        """What this hand's ruff is played for, where it is not the usual ("Ruff played for double (×2)")."""
        return (
            self.rules.next_hand_note(answers.hands_before)
            if self.rules.doubles and self.rules.null == "doubled"
            else None
        )

    def paid_choices(self, answers: Answers, count: int = 8) -> list[int]:
        return self.rules.stake_choices(self.opening(answers), count)

    # the showdown helper: the cards of one suit, in the book's ruff values
    def ruff_ranks(self) -> tuple:
        return RANKS

    def ruff_values_text(self, answers: Answers) -> str:
        return calls().ruff_values_text(answers.book)

    def four_aces_possible(self, answers: Answers) -> bool:
        return calls().four_aces_possible(answers.book, answers.hand.get("turned_up"))

    def reads(self, value, answers):
        if value is None:
            if self.nobody_reads and answers.dealer is not None:
                return self.nobody_reads.format(dealer=answers.who(answers.dealer))
            return f"ruff: {self.nobody.lower()}"
        if "calls" in value and answers.dealer is not None:  # every payment explained by the calls
            lines = calls().ruff_reasons(answers.book, {**answers.hand, "ruff": value}, answers.names)
            return "ruff: " + " ".join(lines)
        paid, (one, other) = value["paid"], [s for s in SEATS if s != value["winner"]]
        return (
            f"ruff: {answers.who(value['winner'])} won; {answers.who(one)} paid {paid[one]}, "
            f"{answers.who(other)} {paid[other]}"
        )


class SetsQuestion(Question):
    """Per seat, the gleeks and mournivals declared."""

    kind = "sets"

    def __init__(self, key, section, title, ask, *, ask_some: str, **kwargs):
        super().__init__(key, section, title, ask, **kwargs)
        self.ask_some = ask_some

    def seat_choices(self, answers: Answers) -> list[SetChoices]:
        """For each rank the book allows, the chips: gleek, and mournival where
        all four of the rank are in play."""
        book = answers.book
        out = []
        for rank in self.rules.ranks:
            chips = [Choice(f"gleek:{rank}", f"3×{rank}", "")]
            if book.ranks_in_play(answers, rank) >= 4:
                chips.append(Choice(f"mournival:{rank}", f"4×{rank}", ""))
            out.append(SetChoices(rank, chips))
        return out

    def reads(self, value, answers):
        parts = []
        for seat, declared in enumerate(value):
            if declared:
                named = ", ".join(f"{kind} of {RANK_PLURALS[rank]}" for kind, rank in map(parse_set, declared))
                parts.append(f"{answers.who(seat)} {named}")
        return "sets: " + "; ".join(parts) if parts else "no sets"


class ForfeitsQuestion(Question):
    """The sets the buyer called, had laid out in the stock, and was caught in (Cotton's
    forfeit): optional, left out of a hand that has none; only the buyer is asked."""

    kind = "forfeits"

    def __init__(self, key, section, title, ask, **kwargs):
        super().__init__(key, section, title, ask, optional=True, **kwargs)

    def buyer(self, answers: Answers) -> int | None:
        auction = answers.hand.get("auction")
        return auction["buyer"] if isinstance(auction, dict) and "buyer" in auction else None

    def choices(self, answers: Answers) -> list[Choice]:
        """Each set he may have called falsely, with what it costs him: "gleek of Aces — 8 to each"."""
        forfeit = self.rules.forfeit
        return [
            Choice(f"{kind}:{rank}", f"{kind} of {RANK_PLURALS[rank]} — {forfeit(kind, rank)} to each", "")
            for rank in self.rules.ranks
            for kind in ("gleek", "mournival")
        ]

    def reads(self, value, answers):
        """ "Ben forfeits a false gleek of Aces: 8 to each" (the sheet's words for it)."""
        parts = [
            f"{answers.who(seat)} forfeits a false {kind} of {RANK_PLURALS[rank]}: "
            f"{self.rules.forfeit(kind, rank)} to each"
            for seat, called in enumerate(value)
            for kind, rank in map(parse_set, called)
        ]
        return "; ".join(parts) if parts else "no forfeits"


class CountsQuestion(Question):
    """Per seat, a count out of ``total`` (tricks: the third fills itself in)."""

    kind = "counts"

    def __init__(self, key, section, title, ask, *, total: int, **kwargs):
        super().__init__(key, section, title, ask, **kwargs)
        self.total = total

    def choices(self, answers: Answers) -> list[int]:
        return list(range(self.total + 1))

    def reads(self, value, answers):
        return f"{self.title.lower()} " + " · ".join(str(v) for v in value)


class HonoursQuestion(Question):
    """Who holds (or played) each honour of trumps that is in play."""

    kind = "honours"

    def __init__(self, key, section, title, ask, *, needs: str, ask_first: str, **kwargs):
        super().__init__(key, section, title, ask, **kwargs)
        self.needs, self.ask_first = needs, ask_first

    def lines(self, answers: Answers) -> list[HonourLine]:
        """One line per honour of the book's cards: who has it, or why it is fixed."""
        turned_up = answers.hand.get(self.needs)
        seats = answers.seat_choices()
        lines = []
        for card in self.rules.cards:
            label = card.called
            if card.rank == turned_up:
                lines.append(
                    HonourLine(card.rank, label, [], f"{label} of trumps turned up: it counts for the dealer.")
                )
            else:
                choices = seats + [Choice(None, "Discarded", "")] if card.nobody else seats
                lines.append(HonourLine(card.rank, f"{label} of trumps — {self.rules.verb} by", choices, None))
        return lines

    def reads(self, value, answers):
        short = {c.rank: c.short for c in self.rules.cards}
        parts = [f"{short.get(r, r)} {'discarded' if s is None else answers.who(s)}" for r, s in value.items()]
        up = answers.hand.get(self.needs)
        if up in short and up not in value and answers.dealer is not None:  # it counts for the dealer
            parts.insert(list(short).index(up), f"{short[up]} {answers.who(answers.dealer)} (turned up)")
        return f"{self.title.lower()} {self.rules.verb}: {', '.join(parts)}"


class PointsQuestion(Question):
    """Per seat, a number the table counts and types (modern's card points) — or,
    with ``counter`` (each rank's value), counts rank by rank and the book adds up
    (``book.card_points_from_counts``, checked by ``book.card_count_problems``)."""

    kind = "points"

    def __init__(self, key, section, title, ask, *, counter: dict | None = None, **kwargs):
        super().__init__(key, section, title, ask, **kwargs)
        self.counter = counter or {}

    def from_counts(self, answers: Answers, counts) -> list[int]:
        return answers.book.card_points_from_counts(counts)

    def count_problems(self, answers: Answers, counts, tricks) -> list[str]:
        return answers.book.card_count_problems(counts, tricks, answers.names)

    def reads(self, value, answers):
        return f"{self.title.lower()} " + " · ".join(str(v) for v in value)


class TextQuestion(Question):
    """Free text (a note), always optional."""

    kind = "text"

    def __init__(self, key, section, title, ask="", *, limit: int = 500, **kwargs):
        super().__init__(key, section, title, ask, optional=True, **kwargs)
        self.limit = limit

    def reads(self, value, answers):
        return value


# ------------------------------------------------------------ using a declaration


def known_phases(book, hand: dict, options: dict, wrong=()) -> dict:
    """Each phase's transfer for the phases whose answers are all in and not
    ``wrong`` (to show a phase's payments as soon as they are known)."""
    known = {}
    for phase in book.phase_info:
        if all(key in hand and key not in wrong for key in phase.needs):
            try:
                known[phase.id] = phase.transfer(hand, options)
            except (KeyError, TypeError, ValueError, IndexError):
                continue  # an answer the rule book has not judged yet
    return known


def sheet_words(book, hand: dict, options: dict, names, phases: dict) -> list[str]:
    """What the table recorded in a hand, in a few words a question: the sheet's
    line for the hand ("Samuel dealt", "♠ Spades", "4 up", "Will bought at 18", …),
    from which a reader with a pencil can work out every amount. An answer the
    rules fixed is given with its reason where its phase paid something ("Tiddy
    turned up: the dealer is paid 4 from each."), not where it did not (Tiddy off)."""
    answers = Answers(book, hand, options, (), names)
    paid = {p.section for p in book.phase_info if any(phases.get(p.id, ()))}
    words = []
    for q in book.questions:
        if q.key not in hand or q.kind == "text":  # the note has a line of its own
            continue
        fixed = q.fixed(answers)
        if fixed is None:
            words.append(q.reads(hand[q.key], answers))
        elif q.section in paid and fixed.reason not in words:  # Kiss fixes Tib and Tom alike
            words.append(fixed.reason)
    return words


def suit_labels(trumps) -> dict:
    """``{"hearts": "♥ Hearts", "none": "Kiss (no trumps)"}``."""
    return {s: ("Kiss (no trumps)" if s == "none" else f"{SUIT_SYMBOLS[s]} {s.capitalize()}") for s in trumps}


__all__ = [
    "Answers",
    "Choice",
    "ChoiceQuestion",
    "CountsQuestion",
    "Fixed",
    "HonourLine",
    "ForfeitsQuestion",
    "HonoursQuestion",
    "NOBODY",
    "PointsQuestion",
    "Preset",
    "PurchaseQuestion",
    "Question",
    "RuffQuestion",
    "Section",
    "SeatQuestion",
    "SetChoices",
    "SetsQuestion",
    "TextQuestion",
    "eldest",
    "known_phases",
    "middle",
    "sheet_words",
    "suit_labels",
]
