"""The family of books with a turned-up trump card that belongs to the dealer
(``parlett`` and ``wits1671``): their shared Tiddy, honours and trick count."""

from __future__ import annotations

from .book import RuleBook, phase_info
from .core import (
    Section,
    HONOUR_NAMES,
    HONOURS,
    RANK_NAMES,
    RANKS,
    SEATS,
    TRICKS_IN_A_HAND,
    HandCheck,
    Transfer,
    describe,
    from_each,
    nothing,
    parse_set,
    signed_counters,
)

#: The form's sections for a hand with a turned-up card, in the order of play.
SECTIONS = (
    Section("deal", "Deal", ""),
    Section("tiddy", "Tiddy", "the Four of trumps"),
    Section("stock", "Stock", ""),
    Section("ruff", "Ruff", ""),
    Section("sets", "Gleeks and mournivals", ""),
    Section("play", "Play", ""),
    Section("note", "", ""),
)
NOTE_LIMIT = 500  # characters; no note at a card table needs more

HONOUR_POINTS = {"A": 15, "K": 3, "Q": 3, "J": 9}
#: A card's value in a ruff (§3, §4): A 11, K Q J 10, others face value.
RUFF_VALUES = {"A": 11, "K": 10, "Q": 10, "J": 10, **{r: int(r) for r in ("10", "9", "8", "7", "6", "5", "4")}}
POINTS_PER_TRICK = 3
TOTAL_POINTS = 66  # 12 tricks of 3 cards + 30 for the honours
#: By turned-up rank: the keys of ``honours`` (every honour not turned up).
HONOURS_NOT_TURNED_UP = {rank: frozenset(HONOURS) - {rank} for rank in RANKS}


class TurnedUpBook(RuleBook):
    has_turned_up = True
    set_ranks = HONOURS
    gleek_values = {"A": 4, "K": 3, "Q": 2, "J": 1}
    hand_keys = ("dealer", "trump", "turned_up", "tiddy", "auction", "ruff", "sets",
                 "tricks", "honours")
    tiddy_turned_up = 4
    honours_may_be_discarded = False
    honour_held_word = "played"
    ruff_values = RUFF_VALUES
    four_aces_win = True
    sections = SECTIONS
    phase_info = phase_info(("dealer", "trump", "turned_up", "tiddy"), ("dealer", "turned_up", "tricks", "honours"))
    #: The Tiddy question in this book's words (who holds it, and when).
    tiddy_label = "Who holds it in the play?"
    tiddy_ask = "Who holds Tiddy (the Four of trumps) in the play? Tap Nobody if no one."
    ruff_nobody_hint = ""

    def declare(self) -> list:
        from .hand import (ChoiceQuestion, CountsQuestion, HonoursQuestion, PurchaseQuestion, RuffQuestion,
                           SeatQuestion, SetsQuestion, TextQuestion, suit_labels)

        return [
            SeatQuestion("dealer", "deal", "Dealer", "Who dealt?", reads_as="{} dealt"),
            ChoiceQuestion("trump", "deal", "Trump", "What is trump?", label="Turned-up card: suit (trump)",
                           values=self.trumps, labels=suit_labels(self.trumps), look="suits"),
            ChoiceQuestion("turned_up", "deal", "Turned-up card", "Which card was turned up?",
                           label="Turned-up card: rank", values=RANKS, reads_as="{} up", look="ranks"),
            SeatQuestion("tiddy", "tiddy", "Tiddy", self.tiddy_ask, label=self.tiddy_label, nobody="Nobody",
                         fixed=self.fixed_tiddy),
            PurchaseQuestion("auction", "stock", "Stock", "Who bought the stock, and at what price?",
                             ask_price="At what price was the stock bought?", label="Buyer",
                             field="buyer", fixed=self.fixed_auction),
            RuffQuestion("ruff", "ruff", "Ruff", "Who won the ruff, and what did each loser pay?",
                         ask_paid="What did {who} pay for the ruff?", label="Winner", field="ruff_winner",
                         nobody_hint=self.ruff_nobody_hint, fixed=self.fixed_ruff),
            SetsQuestion("sets", "sets", "Sets", "Any gleeks or mournivals? Tap No sets if none.",
                         ask_some="Tap the sets each player declared (or No sets)."),
            CountsQuestion("tricks", "play", "Tricks", "How many tricks did each player win?",
                           total=TRICKS_IN_A_HAND),
            HonoursQuestion("honours", "play", "Honours", f"Who {self.honour_held_word} each honour?",
                            field="honour", needs="turned_up",
                            ask_first="Choose the turned-up card first, then who holds each honour."),
            TextQuestion("note", "note", "Note", label="Note (optional)", limit=NOTE_LIMIT),
        ]

    def tiddy_on(self, options: dict) -> bool:
        return True

    def tiddy_out_of_play(self, check, options: dict) -> tuple[str, str] | None:
        if not self.tiddy_on(options):
            return "when the table plays without Tiddy", "Tiddy is off this session."
        if check.good("turned_up") and check.hand["turned_up"] == "4":
            return ("when the Four is turned up (the dealer is paid for it)",
                    f"Tiddy turned up: the dealer is paid {self.tiddy_turned_up} from each.")
        return None

    def ranks_in_play(self, check: HandCheck, rank: str) -> int:
        if check.good("turned_up") and check.hand["turned_up"] == rank:
            return 3
        return 4

    def honour_keys(self, turned_up: str) -> list[str]:
        return [r for r in HONOURS if r != turned_up]

    def check_play(self, check: HandCheck, options: dict) -> None:
        hand = check.hand
        if "honours" not in hand:
            return
        honours = hand["honours"]
        if not isinstance(honours, dict):
            check.fail("honours", f"honours must be an object giving a seat for each of A K Q J not turned up, not {describe(honours)}")
            return
        if check.good("turned_up") and honours.keys() != HONOURS_NOT_TURNED_UP[hand["turned_up"]]:
            expected = self.honour_keys(hand["turned_up"])
            missing = [r for r in expected if r not in honours]
            extra = [r for r in honours if r not in expected]
            if missing:
                check.fail("honours", f"honours: who {self.honour_held_word} {' and '.join(HONOUR_NAMES[r] for r in missing)}? ({', '.join(missing)} missing)")
                return
            if extra:
                why = [f"{r} is turned up (it counts for the dealer)" if r == hand["turned_up"]
                       else f"{describe(r)} is not an honour" for r in extra]
                check.fail("honours", "honours: " + "; ".join(why))
                return
        nullable = self.honours_may_be_discarded
        for seat in honours.values():
            if not ((type(seat) is int and 0 <= seat <= 2) or (seat is None and nullable)):
                check.seat("honours", seat, nullable=nullable)  # says why
                return
        tib = honours.get("A")
        if tib is not None and check.good("tricks") and hand["tricks"][tib] == 0:
            check.fail("honours", f"honours: {check.who(tib)} {self.honour_held_word} Tib (the Ace of trumps) but won no trick; Tib always wins its trick")

    def check_sets_against_play(self, check: HandCheck, options: dict) -> None:
        hand = check.hand
        if not check.good("sets", "honours", "turned_up") or not (hand["sets"][0] or hand["sets"][1] or hand["sets"][2]):
            return
        for seat, declared in enumerate(hand["sets"]):
            for text in declared:
                kind, rank = parse_set(text)
                if kind != "mournival" or rank == hand["turned_up"]:
                    continue
                holder = hand["honours"].get(rank)
                if holder != seat:
                    held_by = "nobody (discarded)" if holder is None else check.who(holder)
                    check.fail("sets", f"sets: {check.who(seat)} declares a mournival of {RANK_NAMES[rank]}s, so holds the {RANK_NAMES[rank]} of trumps, but honours give it to {held_by}")
                    return

    # ------------------------------------------------------------ phases

    def tiddy(self, hand: dict, options: dict) -> Transfer:
        if not self.tiddy_on(options):
            return nothing()
        if hand["turned_up"] == "4":
            return from_each(hand["dealer"], self.tiddy_turned_up)
        return RuleBook.tiddy(self, hand, options)

    def honour_holders(self, hand: dict) -> dict[str, int | None]:
        """Who each honour counts for: the turned-up one is the dealer's."""
        holders = dict(hand["honours"])
        if hand["turned_up"] in HONOURS:
            holders[hand["turned_up"]] = hand["dealer"]
        return holders

    def _points(self, hand: dict) -> tuple[list[int], int]:
        """Each player's points, and the honour points discarded (counting for nobody)."""
        points = [POINTS_PER_TRICK * t for t in hand["tricks"]]
        discarded = 0
        for rank, seat in hand["honours"].items():  # every honour not turned up
            if seat is None:
                discarded += HONOUR_POINTS[rank]
            else:
                points[seat] += HONOUR_POINTS[rank]
        if hand["turned_up"] in HONOUR_POINTS:  # the turned-up honour is the dealer's
            points[hand["dealer"]] += HONOUR_POINTS[hand["turned_up"]]
        return points, discarded

    def points(self, hand: dict) -> list[int]:
        return self._points(hand)[0]

    def par(self, hand: dict) -> int:
        """What each player must reach to break even (22 unless an honour was discarded)."""
        return (TOTAL_POINTS - self._points(hand)[1]) // 3

    def tricks(self, hand: dict, options: dict | None = None) -> Transfer:
        points, discarded = self._points(hand)
        par = (TOTAL_POINTS - discarded) // 3
        return [p - par for p in points]

    def tiddy_reasons(self, hand: dict, options: dict, names) -> list[str]:
        if not self.tiddy_on(options):
            return ["Tiddy is off for this session."]
        if hand["turned_up"] == "4":
            return [f"Tiddy turned up: {self.tiddy_turned_up} from each to the dealer, {names[hand['dealer']]}."]
        return super().tiddy_reasons(hand, options, names)

    def tricks_reasons(self, hand: dict, options: dict, names) -> list[str]:
        holders = self.honour_holders(hand)
        par = self.par(hand)
        lines = []
        for seat in SEATS:
            parts = [f"{hand['tricks'][seat]} tricks × 3"]
            for rank in HONOURS:
                if holders.get(rank) == seat:
                    turned = " (turned up)" if rank == hand["turned_up"] else ""
                    parts.append(f"{HONOUR_NAMES[rank]}{turned} {HONOUR_POINTS[rank]}")
            points = self.points(hand)[seat]
            lines.append(f"{names[seat]}: {' + '.join(parts)} = {points}, {signed_counters(points - par)} against {par}.")
        discarded = [HONOUR_NAMES[r] for r, s in holders.items() if s is None]
        if discarded:
            lines.append(f"Discarded, counting for nobody: {', '.join(discarded)}.")
        return lines
