"""Rule book ``modern``: a modern "How to Play" revival (seed 000): no turned-up
card, Kiss (no trumps), numeral sets and a card-point count settled pairwise."""

from __future__ import annotations

from .book import RuleBook
from .cards import CREDITS, card, names_of
from .core import (
    Section,
    RANK_NAMES,
    RANK_PLURALS,
    RANKS,
    SEATS,
    SUITS,
    Decision,
    HandCheck,
    Option,
    Vying,
    Word,
)
from .phases import CROSS, PLAY, TRICKS, Auction, CardPayments, Count, Ruff, Sets, fixed, question

LAST_TRICK_BONUS = 4
MIN_TRICK_POINTS, MAX_TRICK_POINTS = 9, 33
MIN_CAPTURED, MAX_CAPTURED = 192, 252
#: A card's value, in the play and in a ruff alike: A 11, K Q J 3, numerals face value.
CARD_VALUES = {"A": 11, "K": 3, "Q": 3, "J": 3, **{r: int(r) for r in RANKS[4:]}}
CARDS_A_TRICK = 3

#: Nothing is turned up: the buyer names trump after the auction.
SECTIONS = (
    Section("deal", "Deal", ""),
    Section("stock", "Stock", ""),
    Section("trump", "Trump", ""),
    Section("tiddy", "Tiddy", "the Four of trumps"),
    Section("ruff", "Ruff", ""),
    Section("sets", "Gleeks and mournivals", ""),
    Section("play", "Play", ""),
    Section("note", "", ""),
)


def stake_problem(ruff, amount: int, opening: int) -> str | None:
    if amount < 2:
        return "but every ruff loser pays at least the ante of 2"
    return None


class PairwiseCount(Count):
    """Modern's play: each player's trick score is the card points he captured, the
    ``count`` of each card he captured (the book's cards of the tricks phase: Tib 15,
    Tom 9) and 4 for the last trick; every pair settles the difference of their scores."""

    keys = needs = ("tricks", "card_points", "tib", "tom", "last_trick")

    def setup(self, book) -> None:
        self.cards = tuple(c for c in book.cards.own_keys if c.phase == self.id)

    def checks(self) -> tuple:
        return ((TRICKS, self.check_tricks), (PLAY, self.check_play), (CROSS, self.check_aces))

    def check_play(self, check: HandCheck, options: dict, state) -> None:
        hand = check.hand
        tricks = hand["tricks"] if check.good("tricks") else None
        if "card_points" in hand and check.three_counts("card_points"):
            points = hand["card_points"]
            total = sum(points)
            if not MIN_CAPTURED <= total <= MAX_CAPTURED:
                side = "more" if total > MAX_CAPTURED else "less"
                limit = MAX_CAPTURED if total > MAX_CAPTURED else MIN_CAPTURED
                check.fail(
                    "card_points",
                    f"card_points add up to {total}, {side} than {limit} "
                    f"(the captured cards are worth {MIN_CAPTURED} to {MAX_CAPTURED})",
                )
            if tricks is not None:
                for seat in SEATS:
                    won, got = tricks[seat], points[seat]
                    if won == 0 and got:
                        check.fail(
                            "card_points", f"card_points: {check.who(seat)} has {got} card points but won no trick"
                        )
                    elif got > MAX_TRICK_POINTS * won:
                        check.fail(
                            "card_points",
                            f"card_points: {check.who(seat)} has {got} card points from {won} tricks, "
                            f"more than {MAX_TRICK_POINTS} a trick ({MAX_TRICK_POINTS * won})",
                        )
                    elif got < MIN_TRICK_POINTS * won:
                        check.fail(
                            "card_points",
                            f"card_points: {check.who(seat)} has {got} card points from {won} tricks, "
                            f"less than {MIN_TRICK_POINTS} a trick ({MIN_TRICK_POINTS * won})",
                        )
        kiss = check.good("trump") and hand["trump"] == "none"
        captured = [(c.key, c.described, c.name, c.nobody) for c in self.cards]
        for key, label, name, nullable in captured + [("last_trick", "the last trick", "", False)]:
            if key not in hand:
                continue
            if not check.seat(key, hand[key], nullable=nullable):
                continue
            seat = hand[key]
            if seat is None:
                continue
            if kiss and nullable:
                check.fail(key, f"{key} must be null under Kiss: there are no trumps, so no {name}")
            elif tricks is not None and tricks[seat] == 0:
                check.fail(key, f"{key}: {check.who(seat)} captured {label} but won no trick")

    def check_aces(self, check: HandCheck, options: dict, state) -> None:
        """Under a trump suit the holder of all four Aces holds Tib and captures it,
        unless he is the buyer and left it unplayed."""
        if not check.good("sets", "trump", "tib", "auction") or check.hand["trump"] == "none":
            return
        hand = check.hand
        buyer = hand["auction"]["buyer"] if hand["auction"] else None
        for seat, declared in enumerate(hand["sets"]):
            if "mournival:A" not in declared:
                continue
            if hand["tib"] == seat or (hand["tib"] is None and seat == buyer):
                continue
            check.fail(
                "tib",
                f"tib: {check.who(seat)} declares a mournival of Aces, so holds Tib and captures it, "
                f"but tib is {'null' if hand['tib'] is None else check.who(hand['tib'])}",
            )
            return

    def scores(self, hand: dict) -> list[int]:
        scores = list(hand["card_points"])
        for c in self.cards:
            if hand[c.key] is not None:
                scores[hand[c.key]] += c.count
        if hand["last_trick"] is not None:
            scores[hand["last_trick"]] += LAST_TRICK_BONUS
        return scores

    def transfer(self, hand: dict, options: dict | None = None) -> list:
        scores = self.scores(hand)
        total = sum(scores)
        return [3 * s - total for s in scores]

    def reasons(self, hand, options, names):
        scores = self.scores(hand)
        lines = []
        bonuses = [(c.key, c.name, c.count) for c in self.cards] + [("last_trick", "last trick", LAST_TRICK_BONUS)]
        for seat in SEATS:
            parts = [f"{hand['card_points'][seat]} card points"]
            for key, label, bonus in bonuses:
                if hand[key] == seat:
                    parts.append(f"{label} {bonus}")
            lines.append(f"{names[seat]}: {' + '.join(parts)} = {scores[seat]}.")
        lines.append("Each pair settles the difference of their scores.")
        return lines

    def record_keys(self) -> dict[str, str]:
        keys = {"tricks": "tricks won per seat, adding up to 12", "card_points": "card points captured per seat"}
        for c in self.cards:
            keys[c.key] = f"the seat that captured {c.described}, or null (Kiss, or never played)"
        keys["last_trick"] = "the seat that won the 12th trick"
        return keys

    def fixed_captured(self, answers):
        """Under Kiss there are no trumps, so nobody captures Tib or Tom."""
        if answers.hand.get("trump") == "none":
            return fixed(None, f"Kiss: no trumps, so no {names_of(self.cards)}.")
        return None

    def questions(self) -> list:
        SeatQuestion = question("SeatQuestion")
        out = [
            self.tricks_question(),
            question("PointsQuestion")(
                "card_points",
                self.section,
                "Card points",
                "How many card points did each player capture?",
                label="Card points captured",
                counter=CARD_VALUES,
            ),
        ]
        for c in self.cards:
            credit = CREDITS[c.credited]
            out.append(
                SeatQuestion(
                    c.key,
                    self.section,
                    c.name,
                    credit.ask.format(card=c.described),
                    label=credit.label.format(name=c.name, rank=RANK_NAMES[c.rank]),
                    nobody="Nobody",
                    fixed=self.fixed_captured,
                )
            )
        out.append(
            SeatQuestion(
                "last_trick",
                self.section,
                "Last trick",
                "Who won the last trick?",
                label="Last trick won by",
                reads_as="last trick: {}",
            )
        )
        return out


class Modern(RuleBook):
    id = "modern"
    name = "Modern revival"
    source = "A modern “How to Play” revival page — seed 000"
    summary = "Bigger swings: Kiss (no trumps), sets of any rank, card points settled player to player."
    trumps = SUITS + ("none",)
    has_turned_up = False
    buyer_keeps = 13  # he may keep one card unplayed (docs/rules.md)
    sections = SECTIONS
    options = (
        Option(
            "simplified",
            False,
            "Simplified (teaching) Gleek",
            "Skip the auction and the ruff; trump is named before the deal.",
        ),
    )

    cards = (
        #    rank name      what it is worth                      who has it
        card("A", "Tib", count=15, credited="captured"),
        card("J", "Tom", count=9, credited="captured"),
        card("4", "Tiddy", held=2, credited="dealt"),
    )
    phases = (
        CardPayments(
            id="tiddy",
            title="Tiddy",
            short="Tdy",
            rule=(
                "Whoever was dealt the Four of the suit that becomes trump gets 2 from each "
                "opponent, whether or not it is played. None under Kiss."
            ),
        ),
        Auction(
            opening=13,
            step=1,
            eldest_must_buy=False,
            exact=False,
            off_with=("simplified", "simplified Gleek has no auction", "Simplified Gleek: no auction."),
            rule=(
                "Eldest may bid 13 or pass; each later bid is at least 1 more. The buyer pays "
                "half the price to each opponent (13 → 6½ each) and names trump or Kiss."
            ),
        ),
        Ruff(
            vying=Vying(  # seed 000: each antes 2, then vies until two have passed
                before=(
                    Word("vie", "open", "Vie {n}", "vies {n}", "vied {n}"),
                    Word("pass", "drop", "Pass", "passes (owes {n})", ""),
                ),
                after=(
                    Word("vie", "raise", "Vie {n}", "vies {n}", "vied {n}"),
                    Word("see", "call", "See {n}", "sees", "saw {n}"),
                    Word("pass", "drop", "Pass", "passes (owes {n})", ""),
                ),
                opens_at="named",
                raise_by="named",
                first_stake=0,
                ante=2,
                fold_owes_stake=False,
                all_quiet="showdown",
                unopened="nobody has vied yet",
                opened_as="the stake is {n}",
                stories=("{did}, then passed", "passed", "{did}"),
            ),
            values=CARD_VALUES,
            four_aces_win=False,
            stake_problem=stake_problem,
            off_with=("simplified", "simplified Gleek has no ruff", "Simplified Gleek: no ruff."),
            no_ruff="Simplified Gleek: no ruff.",
            rule=(
                "Ruff total: A 11, K Q J 3, numerals face value. Each antes 2 and vies; each loser "
                "pays the winner 2 plus whatever he put in."
            ),
        ),
        Sets(
            ranks=RANKS,
            values={"A": 8, "K": 4, "Q": 4, "J": 4, **{r: int(r) for r in RANKS[4:]}},
            rule=(
                "Any rank. Gleek from each opponent: A 8, K Q J 4, a numeral its face value. "
                "Mournival doubles: A 16, K Q J 8, numerals twice face value."
            ),
        ),
        PairwiseCount(
            rule=(
                "Trick score = card points captured (A 11, K Q J 3, numerals face value) + 15 "
                "for capturing Tib + 9 for Tom + 4 for the last trick. Every pair settles the difference "
                "of their scores. This is usually the biggest phase of the hand, often ±100 counters."
            )
        ),
    )
    call_rules = (
        "Bids, from eldest round to the left (skipping whoever passed): each bids at least 1 more than the "
        "highest bid (13 or more if none yet) or passes, and a pass is final; the last bidder left buys at his "
        "bid. If all three pass nobody buys.",
        "The ruff: everyone antes 2. From eldest, until somebody vies, each vies n (n of at least 1 becomes the "
        "stake) or passes (out, owing his ante); if all three pass, all three show and the best ruff takes the "
        "antes. After a vie each in turn vies more than the stake (a raise), sees it, or passes (out, owing 2 + "
        "the stake he last vied or saw). It ends when one player is left (he wins unseen) or when everyone still "
        "in has seen the last vie (they show: the higher total wins, ties to the earlier seat from the dealer's "
        "left); each loser still in owes 2 + the final stake.",
    )
    decisions = (
        Decision(
            "Tiddy goes to whoever was dealt it",
            "The player dealt the Four of the eventual trump gets 2 from each opponent, played or not; "
            "a Four lying in the stock pays nobody, even if the buyer takes it. None under Kiss.",
            "“If you are dealt the Four of the eventual trump, collect your 2 pence”; “a consolation "
            "payment regardless of whether the Four is ever played”",
        ),
        Decision(
            "If all three pass, nobody buys",
            "No payment and no exchange; the 8 stock cards stay unplayed and eldest names trump or Kiss.",
            "Seed 000 leaves the all-pass case open.",
        ),
        Decision(
            "An unvied ruff still takes the antes",
            "If nobody vies, all three show and the best ruff takes 2 from each; ties go to the "
            "earlier seat from the dealer's left.",
            "Each player antes 2.",
        ),
        Decision(
            "The set table is what is paid",
            "Sets pay exactly the table (tens and nines included), although the text also calls a "
            "gleek of Aces the strongest meld after a mournival and its glossary says “4 to 8 pence”.",
            "Seed 000's set table and glossary",
        ),
        Decision(
            "The Four of trumps counts 4 in the play",
            "Tiddy counts its face value like any Four; its payment is the separate Tiddy phase.",
            "“Four of trumps (Tiddy) = 4 bonus”; glossary: “a 4-point trick value in play”",
        ),
        Decision(
            "Trick scores are settled player to player",
            "Each player's trick score is paid to him by each opponent: every pair settles the "
            "difference, so a player receives 3 × his score − the sum of the three scores.",
            "“settled player-to-player”",
        ),
    )

    # ------------------------------------------------------------ the card-point counter

    def card_points_from_counts(self, counts) -> list[int]:
        """Each player's card points from the cards he captured, counted by rank:
        ``counts`` is three ``{rank: how many}`` (ranks not given count 0). Check the
        counts first with ``card_count_problems``."""
        return [sum(CARD_VALUES[rank] * n for rank, n in count.items()) for count in counts]

    def card_points_text(self, count: dict) -> str:
        """One player's count in words: "3 × A (11) + 2 × K (3) = 39"."""
        parts = [f"{count[r]} × {r} ({CARD_VALUES[r]})" for r in RANKS if count.get(r)]
        total = sum(CARD_VALUES[rank] * n for rank, n in count.items())
        return f"{' + '.join(parts) or 'no cards'} = {total}"

    def card_count_problems(self, counts, tricks=None, names=("seat 0", "seat 1", "seat 2")) -> list[str]:
        """What is wrong with a card count, in the table's words: every count a whole
        number ≥ 0 of a rank A … 4; at most 4 of a rank across the table; and, given
        ``tricks`` (won per seat), 3 cards a trick for each player."""
        if not (isinstance(counts, list) and len(counts) == 3 and all(isinstance(c, dict) for c in counts)):
            return ["the count must give each of the three players how many of each rank he captured"]
        for seat, count in enumerate(counts):
            for rank, n in count.items():
                if rank not in CARD_VALUES:
                    return [f"{names[seat]}: {rank!r} is not a rank (A K Q J 10 9 8 7 6 5 4)"]
                if type(n) is not int or n < 0:
                    return [f"{names[seat]}: the number of {RANK_PLURALS[rank]} must be a whole number, not {n!r}"]
        problems = []
        for rank in RANKS:
            total = sum(count.get(rank, 0) for count in counts)
            if total > 4:
                problems.append(f"{total} {RANK_PLURALS[rank]} are counted, but the pack has only 4")
        if tricks is not None:
            for seat, count in enumerate(counts):
                cards, won = sum(count.values()), tricks[seat]
                if cards != CARDS_A_TRICK * won:
                    tricks_hold = "1 trick, which holds" if won == 1 else f"{won} tricks, which hold"
                    problems.append(
                        f"{names[seat]} has {cards} cards counted but won {tricks_hold} {CARDS_A_TRICK * won}"
                    )
        return problems


BOOK = Modern()
