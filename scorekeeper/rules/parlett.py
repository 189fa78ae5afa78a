"""Rule book ``parlett``: the teaching reconstruction after David Parlett
(seed 001), the default for new sessions."""

from __future__ import annotations

from .core import PhaseRule, Vying, Word
from .turned_up import TurnedUpBook

FIRST_RUFF_STAKE = 2


class Parlett(TurnedUpBook):
    id = "parlett"
    name = "Parlett (reconstruction)"
    source = "Teaching reconstruction after Parlett, from Cotgrave (1662), Willughby and Cotton (1674) — seed 001"
    summary = "The precise modern reconstruction: stock from 12 rising by 2, ruff stakes that double after a quiet hand."
    opening_price = 12
    price_step = 2
    even_prices = True
    tiddy_turned_up = 4
    honour_held_word = "played"
    ruff_nobody_hint = "nobody opened (stake {opening})"

    phase_rules = (
        PhaseRule("tiddy", "Tiddy (the Four of trumps) turned up: each opponent pays the dealer 4. "
                  "Otherwise whoever holds it in the play gets 2 from each opponent; a discarded Four pays nobody."),
        PhaseRule("auction", "Eldest must open at 12; each bid is exactly 2 more (12, 14, 16 …) and a pass is "
                  "final, so eldest never buys at 14 (after his 12 his next bid is 16) and middle never at 16. "
                  "The buyer pays half the price to each opponent (14: 7 to each). Honours may not be discarded."),
        PhaseRule("ruff", "Best single suit (A 11, K Q J 10, others face value; four Aces beat all). The "
                  "opening stake S is 2, doubling after each hand nobody opened (2, 4, 8 …) and back to 2 "
                  "after a settled contest. Raises are by 2; each loser pays S + 2k."),
        PhaseRule("sets", "Gleek (three of A K Q J) from each opponent: A 4, K 3, Q 2, J 1. "
                  "Mournival (all four) doubles: A 8, K 6, Q 4, J 2."),
        PhaseRule("tricks", "3 points a trick, plus the trump honours each player plays: Tib (A) 15, K 3, "
                  "Q 3, Tom (J) 9; a turned-up honour counts for the dealer. The points total 66: each "
                  "player receives points − 22 (pays if negative)."),
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
    vying = Vying(  # seed 001 §04
        before=(Word("check", "check", "Check", "checks", ""),
                Word("open", "open", "Open at {n}", "opens {n}", "opened at {n}")),
        after=(Word("fold", "drop", "Fold", "folds (owes {n})", ""),
               Word("match", "call", "Match {n}", "matches", "matched {n}"),
               Word("raise", "raise", "Raise to {n}", "raises to {n}", "raised to {n}")),
        opens_at="S", raise_by=2, first_stake=0, ante=0, fold_owes_stake=True, all_quiet="no contest",
        unopened="nobody has opened yet", opened_as="the ruff is open at {n}",
        stories=("folded at {at}", "folded at {at}", "held out to {stake}"),
    )

    def ruff_may_be_empty(self, options):
        return True

    first_ruff_opening = FIRST_RUFF_STAKE

    def ruff_opening_after(self, opening: int, hand: object) -> int:
        """S doubles after a no-contest hand (an explicit ``ruff: null``) and is back to
        2 after any other: so it is 2 in the first hand, doubled for each consecutive
        no contest just before."""
        if isinstance(hand, dict) and "ruff" in hand and hand["ruff"] is None:
            return opening * 2
        return FIRST_RUFF_STAKE

    def ruff_opening(self, hands_before: list) -> int:
        """The same as counting forward with ``ruff_opening_after``, counted from the
        end: 2 doubled once for each no-contest hand just before (every tap of the
        hand form asks, so a long evening must not make it slower)."""
        quiet = 0
        for hand in reversed(hands_before):
            if not (isinstance(hand, dict) and "ruff" in hand and hand["ruff"] is None):
                break
            quiet += 1
        return FIRST_RUFF_STAKE << quiet

    def next_hand_note(self, hands_before: list) -> str | None:
        opening = self.ruff_opening(hands_before)
        return f"ruff opens at {opening}" if opening > FIRST_RUFF_STAKE else None

    def ruff_stake_problem(self, amount: int, opening: int) -> str | None:
        if amount < opening:
            return f"but the opening stake this hand is {opening}"
        if (amount - opening) % 2:
            return f"but stakes go {opening}, {opening + 2}, {opening + 4} … (raises of 2)"
        return None

    def no_ruff_reason(self) -> str:
        return "No contest: nothing paid, and the next hand's opening stake doubles."


BOOK = Parlett()
