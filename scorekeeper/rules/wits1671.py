"""Rule book ``wits1671``: *Wits Interpreter* (1671), the period text (seed 002),
gaps filled from Cotton's *Compleat Gamester* (1674)."""

from __future__ import annotations

from .book import RuleBook
from .cards import card
from .core import Decision, Option, Vying, Word
from .phases import Auction, CardPayments, Ruff, Sets, TurnedUpCount
from .turned_up import RUFF_VALUES, SECTIONS


def stake_problem(ruff, amount: int, opening: int) -> str | None:
    if amount < 2 or amount % 2:
        return "but a ruff loser pays an even amount of at least 2 (2 for nothing to say, then 4, 6, 8 …)"
    return None


#: The Decision "vies go 4, 6, 8": a pass before any vie ("nothing to say") owes 2.
VYING = Vying(
    before=(
        Word("vie", "open", "Vie {n}", "vies {n}", "vied {n}"),
        Word("pass", "drop", "Pass", "passes (owes {n})", ""),
    ),
    after=(
        Word("see", "call", "See {n}", "sees", "saw {n}"),
        Word("revie", "raise", "Revie to {n}", "revies to {n}", "revied to {n}"),
        Word("pass", "drop", "Pass", "passes (owes {n})", ""),
    ),
    opens_at=4,
    raise_by=2,
    first_stake=2,
    ante=0,
    fold_owes_stake=False,
    all_quiet="showdown",
    unopened="nobody has vied yet",
    opened_as="the ruff is vied at {n}",
    stories=("{did}, then passed", "had nothing to say", "held out to {stake}"),
)


class Wits1671(RuleBook):
    id = "wits1671"
    name = "Wits Interpreter (1671)"
    source = "The Wits Interpreter (1671), gaps filled from Cotton's Compleat Gamester (1674) — seed 002"
    summary = "The period text: stock from 13 rising by 1, vies of 4, 6, 8, honours count for who held them."
    has_turned_up = True
    sections = SECTIONS
    options = (
        Option(
            "tiddy", True, "Play at Tiddy", "“You will play at Tiddie, or leave it out”: agreed before the first deal."
        ),
    )

    cards = (
        #    rank name      what it is worth                      who has it
        card("A", "Tib", count=15, credited="held", key="honours"),
        card("K", "King", count=3, credited="held", key="honours"),
        card("Q", "Queen", count=3, credited="held", key="honours"),
        card("J", "Tom", count=9, credited="held", key="honours"),
        card("4", "Tiddy", held=2, turned_up=2, credited="held", option="tiddy"),
    )
    phases = (
        CardPayments(
            id="tiddy",
            title="Tiddy",
            short="Tdy",
            rule=(
                "If the table plays at Tiddy: Tiddy turned up pays the dealer 2 from each; "
                "otherwise whoever holds the Four of trumps after the stock exchange gets 2 from each. "
                "A discarded Four pays nobody."
            ),
        ),
        Auction(
            opening=13,
            step=1,
            rule=(
                "Bids run 13, 14, 15 …, each exactly 1 more, and a pass is final, so eldest never "
                "buys at 14 and middle never at 15. The buyer pays half the price to each opponent (16: 8 to "
                "one and 8 to the other)."
            ),
        ),
        Ruff(
            vying=VYING,
            values=RUFF_VALUES,
            four_aces_win=True,
            stake_problem=stake_problem,
            rule=(
                "Best single suit (A 11, courts 10; four Aces win). A player with nothing to say "
                "pays 2; one who saw and refused pays the stake he last saw; the last holder-out pays "
                "the final stake."
            ),
        ),
        Sets(
            ranks=("A", "K", "Q", "J"),
            values={"A": 4, "K": 3, "Q": 2, "J": 1},
            rule=(
                "Gleek from each opponent: A 4, K 3, Q 2, J 1; mournival doubles (A 8, K 6, Q 4, "
                "J 2), in the hand after the stock exchange."
            ),
        ),
        TurnedUpCount(
            rule=(
                "“Twenty two are your Cards”: 3 a trick plus the honours held — Tib 15, Tom 9, "
                "King 3, Queen 3 — whoever wins the trick. Each receives points − 22 (− a third of any "
                "discarded honour's value)."
            )
        ),
    )
    call_rules = (
        "Bids, from eldest round to the left (skipping whoever passed): eldest must bid 13, each later bid is "
        "exactly 1 more, a pass is final; the last bidder left buys at his bid.",
        "The ruff, from eldest: until somebody vies, each vies (the stake becomes 4) or passes (\u201cnothing to "
        "say\u201d: out, owing 2); if all three pass, all three show and the best ruff takes 2 from each. After a "
        "vie each in turn sees (matches the stake), revies (sees it and adds 2) or passes (out, owing the stake "
        "he last vied or saw, or 2 if none). It ends when one player is left (he wins unseen) or when everyone "
        "still in has seen the last vie or revie (they show; four Aces win, then the higher total, ties to the "
        "earlier seat from the dealer's left); each loser still in owes the final stake.",
    )
    decisions = (
        Decision(
            "Tiddy is on unless the session says otherwise",
            "Tiddy payments apply unless the session was created with Tiddy off.",
            "“you will play at Tiddie, or leave it out”",
        ),
        Decision(
            "Eldest must bid: there is always a buyer",
            "Eldest opens at 13, so somebody always buys the stock; a buyer other than eldest paid at least 14.",
            "“the eldest hand bids for the stock … he upon whom it is put, bound to take it”; "
            "Cotton 1674: “the eldest hand bids”",
        ),
        Decision(
            "An odd price is split exactly",
            "An odd price is split in halves (13 → 6½ to each). Cotton gives the odd unit to eldest "
            "“or else … to the box”, which would break the zero sum between the players.",
            "“eight to one, and eight to the other”; Cotton 1674",
        ),
        Decision(
            "Vies go 4, 6, 8 …",
            "The first vie is 4 and each revie adds 2 (“all above is but two a time”); a player who "
            "says nothing pays 2. So every loser pays an even amount of at least 2.",
            "The text's own example: the winner takes 6 from the last holder-out and 4 from the one "
            "who saw then refused.",
        ),
        Decision(
            "An unvied ruff still wins 2 from each",
            "If nobody vies, the best ruff still takes 2 from each.",
            "“he that has most of a suit … wins it”",
        ),
        Decision(
            "A turned-up honour counts for the dealer",
            "The dealer scores a turned-up Tib, King, Queen or Tom without playing it.",
            "The text says so of Tib; King, Queen and Tom follow it.",
        ),
        Decision(
            "A discarded honour counts for nobody",
            "The buyer may discard an honour; it then scores for no one, and the break-even mark is a "
            "third of 66 less the discarded honours (always whole; 22 when nothing is discarded).",
            "The text does not forbid the buyer to discard an honour.",
        ),
    )


BOOK = Wits1671()
