"""Rule book ``parlett``: the teaching reconstruction after David Parlett
(seed 001), the default for new sessions."""

from __future__ import annotations

from .book import RuleBook
from .cards import card
from .core import Vying, Word
from .phases import Auction, CardPayments, Ruff, Sets, TurnedUpCount
from .turned_up import RUFF_VALUES, SECTIONS


def stake_problem(ruff, amount: int, opening: int) -> str | None:
    if amount < opening:
        return f"but the opening stake this hand is {opening}"
    if (amount - opening) % 2:
        return f"but stakes go {opening}, {opening + 2}, {opening + 4} … (raises of 2)"
    return None


class Parlett(RuleBook):
    id = "parlett"
    name = "Parlett (reconstruction)"
    source = "Teaching reconstruction after Parlett, from Cotgrave (1662), Willughby and Cotton (1674) — seed 001"
    summary = (
        "The precise modern reconstruction: stock from 12 rising by 2, ruff stakes that double after a quiet hand."
    )
    has_turned_up = True
    sections = SECTIONS

    cards = (
        #    rank name      what it is worth                      who has it
        card("A", "Tib", count=15, credited="played", nobody=False, key="honours"),
        card("K", "King", count=3, credited="played", nobody=False, key="honours"),
        card("Q", "Queen", count=3, credited="played", nobody=False, key="honours"),
        card("J", "Tom", count=9, credited="played", nobody=False, key="honours"),
        card("4", "Tiddy", held=2, turned_up=4, credited="played"),
    )
    phases = (
        CardPayments(
            id="tiddy",
            title="Tiddy",
            short="Tdy",
            rule=(
                "Tiddy (the Four of trumps) turned up: each opponent pays the dealer 4. "
                "Otherwise whoever holds it in the play gets 2 from each opponent; a discarded Four pays nobody."
            ),
        ),
        Auction(
            opening=12,
            step=2,
            even=True,
            rule=(
                "Eldest must open at 12; each bid is exactly 2 more (12, 14, 16 …) and a pass is "
                "final, so eldest never buys at 14 (after his 12 his next bid is 16) and middle never at 16. "
                "The buyer pays half the price to each opponent (14: 7 to each). Honours may not be discarded."
            ),
        ),
        Ruff(
            vying=Vying(  # seed 001's ruff: check or open, then fold, match or raise
                before=(
                    Word("check", "check", "Check", "checks", ""),
                    Word("open", "open", "Open at {n}", "opens {n}", "opened at {n}"),
                ),
                after=(
                    Word("fold", "drop", "Fold", "folds (owes {n})", ""),
                    Word("match", "call", "Match {n}", "matches", "matched {n}"),
                    Word("raise", "raise", "Raise to {n}", "raises to {n}", "raised to {n}"),
                ),
                opens_at="S",
                raise_by=2,
                first_stake=0,
                ante=0,
                fold_owes_stake=True,
                all_quiet="no contest",
                unopened="nobody has opened yet",
                opened_as="the ruff is open at {n}",
                stories=("folded at {at}", "folded at {at}", "held out to {stake}"),
            ),
            values=RUFF_VALUES,
            four_aces_win=True,
            null="no contest",
            first=2,
            doubles=True,
            stake_problem=stake_problem,
            played_for="ruff opens at {opening}",
            no_ruff="No contest: nothing paid, and the next hand's opening stake doubles.",
            nobody_hint="nobody opened (stake {opening})",
            rule=(
                "Best single suit (A 11, K Q J 10, others face value; four Aces beat all). The "
                "opening stake S is 2, doubling after each hand nobody opened (2, 4, 8 …) and back to 2 "
                "after a settled contest. Raises are by 2; each loser pays S + 2k."
            ),
        ),
        Sets(
            ranks=("A", "K", "Q", "J"),
            values={"A": 4, "K": 3, "Q": 2, "J": 1},
            rule=(
                "Gleek (three of A K Q J) from each opponent: A 4, K 3, Q 2, J 1. "
                "Mournival (all four) doubles: A 8, K 6, Q 4, J 2."
            ),
        ),
        TurnedUpCount(
            rule=(
                "3 points a trick, plus the trump honours each player plays: Tib (A) 15, K 3, "
                "Q 3, Tom (J) 9; a turned-up honour counts for the dealer. The points total 66: each "
                "player receives points − 22 (pays if negative)."
            )
        ),
    )
    decisions = ()
    call_rules = (
        "Bids, from eldest round to the left (skipping whoever passed): eldest must bid 12, each later bid is "
        "exactly 2 more, a pass is final; the last bidder left buys at his bid.",
        "The ruff, from eldest: until somebody opens, each checks or opens (the stake is then S); if all three "
        "check there is no contest. After an opening every player is in: each in turn folds (his liability is "
        "fixed at the stake then), matches, or raises it by 2. It ends when one player is left (he wins unseen) "
        "or when everyone still in has matched the last opening or raise (those players show; four Aces beat "
        "every total, then the higher total, ties to the earlier seat from the dealer's left). Each loser pays "
        "the winner his liability: the stake when he folded, or the final stake.",
    )


BOOK = Parlett()
