"""Web forms ↔ domain data. Parsing only: every rule lives in ``scorekeeper.rules``.

A hand form is parsed into a *partial* hand (only the keys the table has
answered) plus a note of what is still unanswered; the rule book's own
``check_hand`` then says what is wrong, key by key, exactly as ``settle`` would.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from .rules import BOOKS, PHASES, RuleBook
from .rules.core import HONOURS, RANKS, SEATS, eldest
from .rules.record import FORMAT, MAX_NAME, validate
from .store import MAX_NOTE, MAX_TITLE  # one limit for the forms, imports and restores

NOBODY = "nobody"
MAX_NUMBER = 100_000  # no real stake or price comes near; stops absurd input early

UNANSWERED = {
    "dealer": "Who dealt?",
    "trump": "What is trump?",
    "turned_up": "Which card was turned up?",
    "tiddy": "Who holds Tiddy (the Four of trumps)? Tap Nobody if no one.",
    "auction": "Who bought the stock, and at what price?",
    "ruff": "Who won the ruff, and what did each loser pay?",
    "sets": "Any gleeks or mournivals? Tap No sets if none.",
    "tricks": "How many tricks did each player win?",
    "honours": "Who played each honour?",
    "card_points": "How many card points did each player capture?",
    "tib": "Who captured Tib (the Ace of trumps)?",
    "tom": "Who captured Tom (the Jack of trumps)?",
    "last_trick": "Who won the last trick?",
}


@dataclass
class HandForm:
    """A hand as the form holds it: the partial hand, what's missing, what's wrong."""

    book: RuleBook
    hand: dict
    values: dict                      # the raw form values, to re-render the form
    unanswered: dict = field(default_factory=dict)   # key -> question
    problems: dict = field(default_factory=dict)     # key -> [text]
    tricks_auto: str = ""

    @property
    def complete(self) -> bool:
        return not self.unanswered and not self.problems

    def problem_lines(self) -> list[str]:
        """What is wrong, then what is missing, each in the order of the form."""
        order = {key: i for i, key in enumerate(section_order(self.book))}
        wrong = sorted(self.problems.items(), key=lambda kv: order.get(kv[0], 99))
        missing = sorted(self.unanswered.items(), key=lambda kv: order.get(kv[0], 99))
        return [text for _, texts in wrong for text in texts] + [text for _, text in missing]


def _int(text: str | None):
    """A whole number from a form field, or None if it is not one."""
    if text is None:
        return None
    text = text.strip()
    if not text or not (text.isdigit() and text.isascii()) or len(text) > 7:
        return None
    return int(text)


def _seat(text: str | None):
    value = _int(text)
    return value if value in SEATS else None


def parse_hand(book: RuleBook, options: dict, form, players, hands_before: list,
               number: int) -> HandForm:
    """Parse a posted hand form (any mapping with ``get``/``getlist``)."""
    values = {k: form.getlist(k) if k.startswith("set_") else form.get(k, "") for k in form.keys()}
    hand: dict = {}
    problems: dict[str, list[str]] = {}
    unanswered: dict[str, str] = {}

    def bad(key, text):
        problems.setdefault(key, []).append(for_the_table(key, text))

    def seat_field(key, name=None, nobody_ok=False):
        raw = form.get(name or key, "")
        if raw == "":
            unanswered[key] = UNANSWERED[key]
        elif raw == NOBODY and nobody_ok:
            hand[key] = None
        elif _seat(raw) is not None:
            hand[key] = _seat(raw)
        else:
            bad(key, f"{key}: choose one of the players")

    preset = form.get("preset", "")
    if preset == "quiet":
        values["tiddy"] = NOBODY
        values["sets"] = "none"
        if book.ruff_may_be_empty(options):
            values["ruff_winner"] = NOBODY
    form = _Overlay(form, values)

    seat_field("dealer")
    trump = form.get("trump", "")
    if trump == "":
        unanswered["trump"] = UNANSWERED["trump"]
    elif trump in book.trumps:
        hand["trump"] = trump
    else:
        bad("trump", "trump: choose a suit")
    if book.has_turned_up:
        rank = form.get("turned_up", "")
        if rank == "":
            unanswered["turned_up"] = UNANSWERED["turned_up"]
        elif rank in RANKS:
            hand["turned_up"] = rank
        else:
            bad("turned_up", "turned_up: choose a rank")

    # Tiddy: answered automatically where the rules leave no choice.
    tiddy_fixed = tiddy_is_fixed(book, options, hand)
    if tiddy_fixed:
        hand["tiddy"] = None
    else:
        seat_field("tiddy", nobody_ok=True)
        if "tiddy" in unanswered and not book.has_turned_up:
            unanswered["tiddy"] = "Who was dealt Tiddy (the Four of trumps)? Tap Nobody if it lay in the stock."

    # Stock.
    if book.auction_must_be_empty(options):
        hand["auction"] = None
    else:
        if preset == "eldest-opening" and "dealer" in hand:
            values["buyer"] = str(eldest(hand["dealer"]))
            values["price"] = str(book.opening_price)
            values["price_other"] = ""
        buyer = form.get("buyer", "")
        if buyer == NOBODY and book.auction_may_be_empty(options):
            hand["auction"] = None
        elif buyer == "":
            unanswered["auction"] = UNANSWERED["auction"]
        elif _seat(buyer) is None:
            bad("auction", "auction: choose the buyer")
        else:
            price_text = _chip_or_other(form, "price")
            price = _int(price_text)
            if price_text == "":
                unanswered["auction"] = "At what price was the stock bought?"
            elif price is None:
                bad("auction", f"auction: the price must be a whole number, not {price_text[:20]!r}")
            elif price > MAX_NUMBER:
                bad("auction", f"auction: a price of {price} is too large")
            else:
                hand["auction"] = {"buyer": _seat(buyer), "price": price}

    # Ruff.
    if book.ruff_must_be_empty(options):
        hand["ruff"] = None
    else:
        winner = form.get("ruff_winner", "")
        if winner == NOBODY and book.ruff_may_be_empty(options):
            hand["ruff"] = None
        elif winner == "":
            unanswered["ruff"] = UNANSWERED["ruff"]
        elif _seat(winner) is None:
            bad("ruff", "ruff: choose the winner")
        else:
            w = _seat(winner)
            paid, missing = [0, 0, 0], []
            for seat in SEATS:
                if seat == w:
                    continue
                text = _chip_or_other(form, f"paid_{seat}")
                amount = _int(text)
                if text == "":
                    missing.append(players[seat])
                elif amount is None:
                    bad("ruff", f"ruff: what {players[seat]} paid must be a whole number, not {text[:20]!r}")
                elif amount > MAX_NUMBER:
                    bad("ruff", f"ruff: {amount} is too large for what {players[seat]} paid")
                else:
                    paid[seat] = amount
            if missing:
                unanswered["ruff"] = f"What did {' and '.join(missing)} pay for the ruff?"
            elif "ruff" not in problems:
                hand["ruff"] = {"winner": w, "paid": paid}

    # Sets.
    sets_state = form.get("sets", "")
    declared = [[s for s in form.getlist(f"set_{seat}") if s] for seat in SEATS]
    if sets_state == "none":
        hand["sets"] = [[], [], []]
        values.update({f"set_{seat}": [] for seat in SEATS})
    elif sets_state == "some" or any(declared):
        values["sets"] = "some"
        hand["sets"] = [_one_set_per_rank(d) for d in declared]
        if not any(declared):
            del hand["sets"]
            unanswered["sets"] = "Tap the sets each player declared (or No sets)."
    else:
        unanswered["sets"] = UNANSWERED["sets"]

    # The play.
    tricks_auto = _parse_tricks(form, values, hand, unanswered, bad)
    if book.has_turned_up:
        _parse_honours(book, form, hand, unanswered, bad)
    else:
        points, missing = [], False
        for seat in SEATS:
            text = form.get(f"card_points_{seat}", "").strip()
            if text == "":
                missing = True
            elif _int(text) is None or _int(text) > MAX_NUMBER:
                bad("card_points", f"card_points: {players[seat]}'s card points must be a whole number")
            points.append(_int(text))
        if missing:
            unanswered["card_points"] = UNANSWERED["card_points"]
        elif "card_points" not in problems:
            hand["card_points"] = points
        kiss = hand.get("trump") == "none"
        for key in ("tib", "tom"):
            if kiss:
                hand[key] = None
            else:
                seat_field(key, nobody_ok=True)
        seat_field("last_trick")

    note = form.get("note", "").strip()
    if note:
        if len(note) > MAX_NOTE:
            bad("note", f"note: at most {MAX_NOTE} characters")
        else:
            hand["note"] = note

    # The rule book's own checks, on what has been answered so far.
    already = set(problems)  # keys the form itself found wrong: the rule book can't judge them
    for problem in book.check_hand(number, hand, options, hands_before, tuple(players)):
        if problem.key in unanswered or problem.key in already or problem.text.endswith(" is missing"):
            continue
        bad(problem.key, for_the_table(problem.key, problem.text))
    return HandForm(book, hand, values, unanswered, problems, tricks_auto)


def _chip_or_other(form, name: str) -> str:
    """A number chosen by chip, or typed in the box beside the Other chip.
    A number chip wins over a forgotten box; the box counts when Other is
    chosen (or when only the box was filled, as without JavaScript)."""
    choice = form.get(name, "")
    other = form.get(f"{name}_other", "").strip()
    if choice == "other" or (choice == "" and other):
        return other
    return choice


def for_the_table(key: str, text: str) -> str:
    """A rule book's problem as the form shows it, beside its section: without the
    record key in front ("auction: Ben is not eldest…" → "Ben is not eldest…")."""
    if text.startswith(key + ": "):
        text = text[len(key) + 2:]
        return text[:1].upper() + text[1:]
    return text


class _Overlay:
    """A form whose values can be overridden (presets) without mutating the request."""

    def __init__(self, form, values):
        self.form, self.values = form, values

    def get(self, key, default=""):
        if key in self.values and not isinstance(self.values[key], list):
            return self.values[key]
        return self.form.get(key, default)

    def getlist(self, key):
        if key in self.values and isinstance(self.values[key], list):
            return self.values[key]
        return self.form.getlist(key)


def _one_set_per_rank(declared: list[str]) -> list[str]:
    """Chips for gleek and mournival of one rank: a mournival wins (it is not also a gleek)."""
    kept: dict[str, str] = {}
    for text in declared:
        kind, _, rank = text.partition(":")
        if rank in kept and kept[rank].startswith("mournival"):
            continue
        kept[rank] = text
    order = {r: i for i, r in enumerate(RANKS)}
    return sorted(kept.values(), key=lambda t: order.get(t.partition(":")[2], 99))


def _parse_tricks(form, values, hand, unanswered, bad) -> str:
    """Tricks for each seat; the third fills itself in as 12 − the other two."""
    raw = [form.get(f"tricks_{seat}", "") for seat in SEATS]
    auto = form.get("tricks_auto", "")
    auto_seat, _, auto_value = auto.partition(":")
    if auto and _seat(auto_seat) is not None and raw[int(auto_seat)] == auto_value:
        raw[int(auto_seat)] = ""  # still the app's guess: recompute it
    counts = [_int(r) if r != "" else None for r in raw]
    for seat, r in enumerate(raw):
        if r != "" and (counts[seat] is None or counts[seat] > 12):
            bad("tricks", "tricks: choose 0 to 12")
            return ""
    given = [c for c in counts if c is not None]
    new_auto = ""
    if len(given) == 2 and sum(given) <= 12:
        seat = counts.index(None)
        counts[seat] = 12 - sum(given)
        values[f"tricks_{seat}"] = str(counts[seat])
        new_auto = f"{seat}:{counts[seat]}"
    values["tricks_auto"] = new_auto
    if None in counts:
        unanswered["tricks"] = UNANSWERED["tricks"]
    else:
        hand["tricks"] = counts
    return new_auto


def _parse_honours(book: RuleBook, form, hand, unanswered, bad) -> None:
    turned_up = hand.get("turned_up")
    honours, missing = {}, []
    for rank in HONOURS:
        if rank == turned_up:
            continue
        raw = form.get(f"honour_{rank}", "")
        if raw == "":
            missing.append(rank)
        elif raw == "discarded" and getattr(book, "honours_may_be_discarded", False):
            honours[rank] = None
        elif _seat(raw) is not None:
            honours[rank] = _seat(raw)
        else:
            bad("honours", "honours: choose a player")
    if turned_up is None:
        unanswered["honours"] = "Choose the turned-up card first, then who holds each honour."
    elif missing:
        unanswered["honours"] = UNANSWERED["honours"]
    else:
        hand["honours"] = honours


def section_order(book: RuleBook) -> list[str]:
    """Hand keys in the order the form asks for them (the order of play)."""
    if book.has_turned_up:
        return ["dealer", "trump", "turned_up", "tiddy", "auction", "ruff", "sets", "tricks", "honours", "note"]
    return ["dealer", "auction", "trump", "tiddy", "ruff", "sets", "tricks", "card_points", "tib", "tom",
            "last_trick", "note"]


def tiddy_is_fixed(book: RuleBook, options: dict, hand: dict) -> bool:
    """True where the rules leave no choice: ``tiddy`` must be null."""
    if getattr(book, "tiddy_on", None) and not book.tiddy_on(options):
        return True
    if book.has_turned_up and hand.get("turned_up") == "4":
        return True
    return hand.get("trump") == "none"


def phase_needs(book: RuleBook, phase: str) -> tuple[str, ...]:
    """The hand keys a phase's transfer depends on (to show it as soon as it is known)."""
    if phase == "tiddy":
        return ("dealer", "trump", "tiddy") + (("turned_up",) if book.has_turned_up else ())
    if phase == "tricks":
        return tuple(k for k in book.required_keys() if k not in ("tiddy", "auction", "ruff", "sets"))
    return (phase,)


def known_phases(form: HandForm, options: dict) -> dict:
    """Each phase's transfer, for the phases whose answers are in and correct."""
    known = {}
    for phase in PHASES:
        needs = phase_needs(form.book, phase)
        if all(k in form.hand and k not in form.problems for k in needs):
            try:
                known[phase] = getattr(form.book, phase)(form.hand, options) if phase == "tiddy" \
                    else getattr(form.book, phase)(form.hand)
            except (KeyError, TypeError, ValueError, IndexError):
                continue
    return known


def values_to_form(values: dict):
    """Form values (a list for a multi-choice field) as the posted form they stand for."""
    from werkzeug.datastructures import MultiDict

    items = []
    for key, value in values.items():
        if isinstance(value, list):
            items += [(key, v) for v in value]
        else:
            items.append((key, value))
    return MultiDict(items)


def hand_to_values(book: RuleBook, hand: dict) -> dict:
    """A stored hand as form values (to edit it)."""
    values: dict = {"dealer": str(hand["dealer"]), "trump": hand["trump"]}
    if book.has_turned_up:
        values["turned_up"] = hand["turned_up"]
    values["tiddy"] = NOBODY if hand["tiddy"] is None else str(hand["tiddy"])
    if hand["auction"] is None:
        values["buyer"] = NOBODY
    else:
        values["buyer"] = str(hand["auction"]["buyer"])
        values["price"] = str(hand["auction"]["price"])
    if hand["ruff"] is None:
        values["ruff_winner"] = NOBODY
    else:
        values["ruff_winner"] = str(hand["ruff"]["winner"])
        for seat in SEATS:
            if seat != hand["ruff"]["winner"]:
                values[f"paid_{seat}"] = str(hand["ruff"]["paid"][seat])
    values["sets"] = "some" if any(hand["sets"]) else "none"
    for seat in SEATS:
        values[f"set_{seat}"] = list(hand["sets"][seat])
        values[f"tricks_{seat}"] = str(hand["tricks"][seat])
    if book.has_turned_up:
        for rank, seat in hand["honours"].items():
            values[f"honour_{rank}"] = "discarded" if seat is None else str(seat)
    else:
        for seat in SEATS:
            values[f"card_points_{seat}"] = str(hand["card_points"][seat])
        for key in ("tib", "tom"):
            values[key] = NOBODY if hand[key] is None else str(hand[key])
        values["last_trick"] = str(hand["last_trick"])
    values["note"] = hand.get("note", "")
    # the dealer's tricks refill themselves when another player's count changes
    values["tricks_auto"] = f"{hand['dealer']}:{hand['tricks'][hand['dealer']]}"
    return values


# ------------------------------------------------------------ new session

STAKES = {
    "": None,
    "0.25d": {"per_counter": "0.25", "currency": "d"},
    "0.5d": {"per_counter": "0.5", "currency": "d"},
    "1d": {"per_counter": "1", "currency": "d"},
    "6d": {"per_counter": "6", "currency": "d"},
    "12d": {"per_counter": "12", "currency": "d"},
}
STAKE_LABELS = {
    "": "Counters only",
    "0.25d": "¼d — farthing Gleek",
    "0.5d": "½d — halfpenny Gleek",
    "1d": "1d — penny Gleek",
    "6d": "6d — sixpenny Gleek",
    "12d": "1s — shilling Gleek",
    "money": "An amount in EUR, GBP or USD",
}
CURRENCIES = ("EUR", "GBP", "USD")


@dataclass
class SessionForm:
    values: dict
    record: dict | None
    first_dealer: int
    problems: dict
    pin: str = ""


def parse_new_session(form) -> SessionForm:
    values = {k: form.get(k, "") for k in form.keys()}
    problems: dict[str, list[str]] = {}

    def bad(key, text):
        problems.setdefault(key, []).append(text)

    players = [form.get(f"player_{s}", "").strip() for s in SEATS]
    for seat, name in enumerate(players):
        if not name:
            bad(f"player_{seat}", "Enter a name.")
        elif len(name) > MAX_NAME:
            bad(f"player_{seat}", f"At most {MAX_NAME} characters.")
    rulebook = form.get("rulebook", "") or "parlett"
    if rulebook not in BOOKS:
        bad("rulebook", "Choose a rule book.")
        rulebook = "parlett"
    book = BOOKS[rulebook]
    options = {}
    for option in book.options:
        raw = form.get(f"opt_{option.name}", "on" if option.default else "off")
        if raw not in ("on", "off"):
            bad(f"opt_{option.name}", "Choose on or off.")
        elif (raw == "on") != option.default:
            options[option.name] = raw == "on"
    first_dealer = _seat(form.get("first_dealer", "0"))
    if first_dealer is None:
        bad("first_dealer", "Choose who deals first.")
        first_dealer = 0
    record = {"format": FORMAT, "rulebook": rulebook, "options": options,
              "players": players, "hands": []}
    title = form.get("title", "").strip()
    if len(title) > MAX_TITLE:
        bad("title", f"At most {MAX_TITLE} characters.")
    elif title:
        record["title"] = title
    played_on = form.get("played_on", "").strip()
    if played_on:
        record["played_on"] = played_on
    stake_choice = form.get("stake", "")
    if stake_choice == "money":
        amount = form.get("stake_amount", "").strip().replace(",", ".")
        currency = form.get("stake_currency", "")
        if currency not in CURRENCIES:
            bad("stake", "Choose EUR, GBP or USD.")
        elif len(amount) > 12:
            bad("stake", "The money value of a counter must be a number above 0, such as 0.05.")
        else:
            record["stake"] = {"per_counter": amount, "currency": currency}
    elif stake_choice in STAKES:
        if STAKES[stake_choice]:
            record["stake"] = dict(STAKES[stake_choice])
    else:
        bad("stake", "Choose a stake.")
    if not any(k.startswith("player_") for k in problems):
        for problem in validate(record):
            key = {"players": "player_0", "played_on": "played_on", "stake": "stake"}.get(problem.key, problem.key)
            text = str(problem)
            if problem.key == "stake":
                text = "The money value of a counter must be a number above 0, such as 0.05."
            if problem.key == "played_on":
                text = "Enter a real date."
            if problem.key == "players" and "both called" in text:
                text = "Three different names, please: " + text.split(": ", 1)[1]
            bad(key, text)
    pin = form.get("pin", "").strip()
    if pin and not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
        bad("pin", "A PIN is 4 to 8 digits (or leave it empty).")
    values.pop("pin", None)  # never echoed back into the page
    return SessionForm(values, None if problems else record, first_dealer, problems, pin)


def today() -> str:
    return datetime.date.today().isoformat()


def price_choices(book: RuleBook, lowest: int | None = None, count: int = 10) -> list[int]:
    """Chips for the stock's price, from the lowest legal price for this buyer."""
    step = book.price_step
    start = book.opening_price if lowest is None else lowest
    return [start + step * i for i in range(count)]


def ruff_choices(book: RuleBook, opening: int, count: int = 8) -> list[int]:
    return book.ruff_stake_choices(opening, count)
