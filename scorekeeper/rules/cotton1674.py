"""Rule book ``cotton1674``: Charles Cotton, *The Compleat Gamester* (1674), ch. VII
"The Game at Gleek" (docs/rules.md). The *Wits Interpreter*'s game with Cotton's
changes: Towser and Tumbler, Tiddy turned up paying 4, the stock from 12 by ones with
the odd unit to eldest, "nothing to say" paying 1, the ruff the youngest may double
onto the next deal, and the forfeit for calling a set that was laid out."""

from __future__ import annotations

from .book import RuleBook
from .cards import card
from .core import Decision, Option, Section, Vying, Word, fraction
from .phases import Auction, CardPayments, Ruff, Sets, TurnedUpCount
from .turned_up import RUFF_VALUES, SECTIONS


def stake_problem(ruff, amount: int, opening: int) -> str | None:
    """A loser pays M × (1, or an even amount of at least 4): M is 1, or 2, 4 … in a ruff
    played for double (``opening``)."""
    units, rest = divmod(amount, opening)
    if rest == 0 and (units == 1 or (units >= 4 and units % 2 == 0)):
        return None
    if opening == 1:
        return "but a ruff loser pays 1 (nothing to say) or an even amount of at least 4 (vies of 4, 6, 8 …)"
    return (
        f"but this ruff is played for double (×{opening}): a loser pays {opening} (nothing to say) "
        f"or {4 * opening}, {6 * opening}, {8 * opening} …"
    )


#: Wits' vies of 4, 6, 8, a pass before any vie owing 1 ("he pays but a farthing"), every
#: amount times M in a ruff played for double; the dealer's double after two passes.
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
    first_stake=1,
    ante=0,
    fold_owes_stake=False,
    all_quiet="showdown",
    unopened="nobody has vied yet",
    opened_as="the ruff is vied at {n}",
    stories=("{did}, then passed", "had nothing to say", "held out to {stake}"),
    scaled=True,
    double=Word(
        "double", "double", "Double it (played for at the next deal)", "doubles it (played for at the next deal)", ""
    ),
)


class Cotton1674(RuleBook):
    id = "cotton1674"
    name = "Cotton's Compleat Gamester (1674)"
    source = (
        "Charles Cotton, The Compleat Gamester (1674), ch. VII “The Game at Gleek”, checked against the 1687 edition"
    )
    summary = (
        "Wits' game with Towser and Tumbler, the stock from 12 by ones (the odd penny to eldest), a ruff "
        "the dealer may double, and a forfeit for a false call."
    )
    has_turned_up = True
    sections = SECTIONS[:2] + (Section("towser", "Towser and Tumbler", "the Five and Six of trumps"),) + SECTIONS[2:]
    options = (
        Option(
            "tiddy",
            True,
            "Play at Tiddy",
            "“It is requisite to demand, whether the Gamesters will play at Tiddy, or leave it out”: agreed "
            "before the first deal.",
        ),
        Option(
            "towser",
            True,
            "Play at Towser and Tumbler",
            "The Five (Towser) and the Six (Tumbler) of trumps are paid for held or turned up (“by prior "
            "agreement”, Parlett notes); off, they are ordinary cards.",
        ),
    )

    cards = (
        #    rank name       what it is worth                              who has it
        card("A", "Tib", count=15, credited="held", key="honours"),
        card("K", "King", count=3, credited="held", key="honours"),
        card("Q", "Queen", count=3, credited="held", key="honours"),
        card("J", "Tom", count=9, credited="held", key="honours"),
        card("4", "Tiddy", held=2, turned_up=4, credited="held", option="tiddy"),
        card("5", "Towser", held=fraction(5, 2), turned_up=5, credited="held", option="towser", phase="towser"),
        card("6", "Tumbler", held=3, turned_up=6, credited="held", option="towser", phase="towser"),
    )
    phases = (
        CardPayments(
            id="tiddy",
            title="Tiddy",
            short="Tdy",
            period=True,
            rule=(
                "If the table plays at Tiddy: Tiddy turned up pays the dealer 4 from each (“four apiece from each to "
                "the Dealer”); otherwise whoever holds the Four of trumps after the stock exchange gets 2 from each. "
                "A discarded Four pays nobody."
            ),
        ),
        CardPayments(
            id="towser",
            title="Towser and Tumbler",
            short="Tow",
            period=True,
            rule=(
                "If the table plays at Towser and Tumbler: whoever holds Towser (the Five of trumps) after the stock "
                "exchange gets 2½ from each, whoever holds Tumbler (the Six) 3 from each; turned up, they pay the "
                "dealer 5 and 6 from each. A discarded Five or Six pays nobody. They are not part of the count of "
                "22."
            ),
        ),
        Auction(
            opening=12,
            step=1,
            odd_unit=True,
            rule=(
                "Bids run 12, 13, 14 …, each exactly 1 more, and a pass is final, so eldest never buys at 13 and "
                "middle never at 14. The buyer pays the price to the other two, half each (16: “eight to one and "
                "eight to the other”); at an odd price the odd penny goes to eldest (15 bought by middle: eldest 8, "
                "the dealer 7), and an eldest who buys keeps it (15: he pays 7 to each). No half counters."
            ),
        ),
        Ruff(
            vying=VYING,
            values=RUFF_VALUES,
            four_aces_win=True,
            null="doubled",
            first=1,
            doubles=True,
            stake_problem=stake_problem,
            played_for="Ruff played for double (×{opening})",
            no_ruff="{dealer} doubled the ruff (eldest and middle passed): nothing is paid now, and the next "
            "deal's ruff is played for double.",
            nobody="Doubled",
            nobody_hint="the dealer doubled it (eldest and middle passed)",
            nobody_reads="{dealer} doubled the ruff",
            rule=(
                "Best single suit (A 11, courts 10; four Aces win). A player with nothing to say pays 1; vies go "
                "4, 6, 8 …; one who saw and refused pays the stake he last saw, the last holder-out the final "
                "stake; if all three pass, the best ruff takes 1 from each. If eldest and middle pass, the "
                "dealer may double it: nothing is paid, and the next deal's ruff is played for double (every "
                "amount × 2, × 4 after two doubles …)."
            ),
        ),
        Sets(
            ranks=("A", "K", "Q", "J"),
            values={"A": 4, "K": 3, "Q": 2, "J": 1},
            forfeits=True,
            rule=(
                "Gleek from each opponent: A 4, K 3, Q 2, J 1; mournival doubles (A 8, K 6, Q 4, J 2), in the hand "
                "after the stock exchange. A buyer who called a gleek or mournival he had laid out, and was caught, "
                "pays each opponent double its value (a false gleek of Aces: 8 to each)."
            ),
        ),
        TurnedUpCount(
            rule=(
                "“Twenty two are your Cards”: 3 a trick plus the honours held — Tib 15, Tom 9, King 3, Queen 3 — "
                "whoever wins the trick. Each receives points − 22 (− a third of any discarded honour's value)."
            )
        ),
    )
    call_rules = (
        "Bids, from eldest round to the left (skipping whoever passed): eldest must bid 12, each later bid is "
        "exactly 1 more, a pass is final; the last bidder left buys at his bid.",
        "The ruff, from eldest: until somebody vies, each vies (the stake becomes 4) or passes (“nothing to "
        "say”: out, owing 1). If eldest and middle pass, the dealer may double it instead (the call pad's "
        "“Double it”): the hand's ruff is then null, with no calls kept. If all three pass, all three show and "
        "the best ruff takes 1 from each. After a vie each in turn sees (matches the stake), revies (sees it and "
        "adds 2) or passes (out, owing the stake he last vied or saw, or 1 if none). It ends when one player is "
        "left (he wins unseen) or when everyone still in has seen the last vie or revie (they show; four Aces "
        "win, then the higher total, ties to the earlier seat from the dealer's left); each loser still in owes "
        "the final stake. In a ruff played for double every amount is doubled (2 for nothing to say, vies of 8, "
        "12, 16 …).",
    )
    decisions = (
        Decision(
            "Towser is 2½ and Tumbler 3 from each; turned up, 5 and 6",
            "“Five” and “six” are read as Cotton's “Tiddy is four” is: a total from the other two (Tiddy "
            "held is two apiece), and “double if turn'd up” as his Tiddy turned up is doubled (four "
            "apiece). So Towser held pays 2½ from each opponent and Tumbler 3; turned up, 5 and 6 from "
            "each to the dealer. They are side payments, not part of the count of 22.",
            "“the fifth Towser, the sixth Tumbler, which if in hand Towser is five and Tumbler six, and so "
            "double if turn'd up”; “Tiddy is four”; Wits: “four, that is to say, you are to have two apiece "
            "of the other two”",
        ),
        Decision(
            "The odd penny goes to eldest, and an eldest who buys keeps it",
            "At an odd price each opponent receives half the price less a half, and eldest one more; when "
            "eldest is himself the buyer he claims it by keeping it. The box is not at this table: money "
            "given to it would leave the players' zero sum. So the auction never has a half counter.",
            "“if any odd money be given, as 15, 17. or the like, the eldest hand usually claims it, or else "
            "it is given to the box”",
        ),
        Decision(
            "A doubled ruff can be doubled again, and is played for at the very next deal",
            "The dealer may double the ruff when eldest and middle pass; the hand's ruff is null and the next "
            "hand's is played for double (every amount × 2, × 4 after two doubles in a row). The app never "
            "forgets to call for the double ruff, so it is always played for at the next deal; a double in "
            "the last hand of the evening is never played.",
            "“if the eldest and second hand pass the Ruff the youngest hath power to double it, and then it "
            "is to be plaid for the next deal, and if any forgets to call for the double Ruff, it is to be "
            "play'd for the next deal after that”",
        ),
        Decision(
            "Nothing to say pays 1",
            "A player who has nothing to say pays 1 counter (one farthing at farthing Gleek), 2 in a ruff "
            "played for double; if all three pass, the best ruff takes 1 from each.",
            "“if any of the three Gamesters says he hath nothing to say as to the Ruff he pays but a "
            "farthing, half-pence, penny, according as the Game is”",
        ),
        Decision(
            "Vies go 4, 6, 8 …",
            "The first vie is 4 and each revie adds 2; one who saw and refused pays what he last saw, the "
            "one who holds out longest the final stake. So a loser pays 1 or an even amount of at least 4 "
            "(times the double).",
            "“he that hath most of a suit wins six pence or farthings according to the Game of him that holds "
            "out longest, and four of the other that said he would see it, but after refused to meddle with "
            "it”; “eight to the winner, and all above is but two a time”",
        ),
        Decision(
            "Eldest must bid: there is always a buyer",
            "Eldest opens at 12, so somebody always buys the stock; a buyer other than eldest paid at least 13.",
            "“The eldest hand bids for the stock … the first penny you bid is twelve, thirteen, and so on; "
            "if at sixteen they say take it, and none will venture more for it, he is bound to take it”",
        ),
        Decision(
            "A false call caught forfeits double its value to each",
            "The buyer who called a gleek or mournival he had laid out, and was caught, pays each opponent "
            "double its value (a false gleek of Aces: 8 to each; a false mournival of Kings: 12). Only the "
            "buyer lays cards out, so only he can forfeit; the forfeited sets are not counted against the "
            "cards in play.",
            "“If you call for either Mournival or Gleek, and have lay'd them out in the stock, if you be "
            "taken in it, for forfeit double what you receive.”",
        ),
        Decision(
            "A turned-up honour counts for the dealer",
            "The dealer scores a turned-up Tib, King, Queen or Tom without playing it.",
            "“if Tib be turned up it is fifteen to the Dealer in reckoning after play, but he must not make "
            "use of it in play”",
        ),
        Decision(
            "A discarded honour counts for nobody",
            "The buyer may discard an honour; it then scores for no one, and the break-even mark is a third "
            "of 66 less the discarded honours (22 when nothing is discarded).",
            "“taking in seven Cards, and putting out seven in their stead”: the text does not forbid an "
            "honour among them.",
        ),
        Decision(
            "Tiddy, Towser and Tumbler are on unless the session says otherwise",
            "Tiddy, and Towser and Tumbler, are paid for unless the session was created with them off.",
            "“it is requisite to demand, whether the Gamesters will play at Tiddy, or leave it out, it being "
            "a Card that is apt to be forgotten”",
        ),
        Decision(
            "Foul play and a wrong discard are not scored",
            "A gleek claimed with two of the rank in hand (“very foul play”) has no price in the text: the "
            "players' OK on each hand is the remedy. A player who laid out 5 or 6 cards loses his gleeks and "
            "mournivals: they are simply not recorded.",
            "“it is lookt upon as very foul play to call for a Gleek … when the person hath but two in his "
            "hands. If you discard wrong, i. e. lay out but 5 or 6 Cards, if you call for any Gleek or "
            "Mournivals, you lose them all”",
        ),
    )


BOOK = Cotton1674()
