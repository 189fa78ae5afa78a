"""The session record ``gleek-session/1``: validate, load, dump and settle.

``validate(record)`` lists every problem; ``load(text)`` parses and validates
(raising ``InvalidRecord``); ``dump(record)`` writes it back unchanged;
``settle(record)`` computes every hand's phases, the balances and the payments.
"""

from __future__ import annotations

import json
import re
import unicodedata

from . import BOOKS
from .book import RuleBook
from .core import (
    SEATS,
    InvalidRecord,
    Problem,
    add,
    as_number,
    describe,
    fewest_payments,
    from_halves,
    halves_sum,
    halves_text,
    is_text,
    key_name,
    number_text,
)

FORMAT = "gleek-session/1"
REQUIRED_KEYS = ("format", "rulebook", "options", "players", "hands")
OPTIONAL_KEYS = ("title", "played_on", "stake", "confirm", "scorer")
MAX_NAME = 40
MAX_STAKE_DIGITS = 30  # a counter's money value: no real table needs more digits
DECIMAL = re.compile(r"^[0-9]+(\.[0-9]+)?\Z")  # \Z: "$" would let a trailing newline through
CURRENCY = re.compile(r"^(d|[A-Z]{3})\Z")
DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


def _problem(key: str, text: str) -> Problem:
    return Problem(None, key, text)


def check_players(players) -> list[Problem]:
    if not (isinstance(players, list) and len(players) == 3):
        return [_problem("players", f"players must be a list of three names in seat order, not {describe(players)}")]
    problems = []
    for seat, name in enumerate(players):
        if not isinstance(name, str):
            problems.append(_problem("players", f"players: seat {seat}'s name must be text, not {describe(name)}"))
        elif not is_text(name):
            if NOT_TEXT_NAME not in problems:
                problems.append(NOT_TEXT_NAME)
        elif not name.strip():
            problems.append(_problem("players", f"players: seat {seat} has no name"))
        elif len(name.strip()) > MAX_NAME:
            problems.append(
                _problem(
                    "players", f"players: seat {seat}'s name is {len(name.strip())} characters long; at most {MAX_NAME}"
                )
            )
    if not problems:
        trimmed = [n.strip() for n in players]
        for i, name in enumerate(trimmed):
            if name in trimmed[:i]:
                problems.append(
                    _problem(
                        "players",
                        f'players: two players are both called "{name}"'
                        if name.isprintable()
                        else f"players: two players are both called {describe(name)}",
                    )
                )
    return problems


NOT_TEXT_NAME = Problem(None, "players", "players: a name contains a character that is not valid text")


def name_key(name: str) -> str:
    """What two players' (or members') names are compared by: trimmed, composed (NFC) and
    case-folded, so "Ann", " ann " and "ANN" are one name, and so are "Zoë" typed as one
    letter and as an "e" followed by a combining diaeresis."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name.strip()).casefold())


def alike_names(players) -> list[Problem]:
    """A new session's players named alike (``name_key``) though not the same text:
    refused where a session is made or imported, as a circle refuses such members (a
    season would take them for one player). Not part of ``validate``: a session stored
    before this was checked keeps its names and its hands. Valid players expected."""
    keys = [name_key(n) for n in players]
    problems = []
    for i, key in enumerate(keys):
        first = keys.index(key)
        if first < i and players[first].strip() != players[i].strip():
            a, b = one_line(players[first].strip()), one_line(players[i].strip())
            problems.append(
                _problem(
                    "players",
                    f'players: "{a}" and "{b}" are one name here (capitals, accents '
                    f"typed either way and spaces round a name do not count): give "
                    f"each player a different name",
                )
            )
    return problems


def check_options(book: RuleBook, options) -> list[Problem]:
    if not isinstance(options, dict):
        return [_problem("options", f"options must be an object, not {describe(options)}")]
    known = {o.name for o in book.options}
    problems = []
    for key, value in options.items():
        if key not in known:
            allowed = ", ".join(sorted(known)) or "none"
            problems.append(
                _problem("options", f"options: {describe(key)} is not an option of {book.id} (options: {allowed})")
            )
        elif type(value) is not bool:
            problems.append(_problem("options", f"options: {key} must be true or false, not {describe(value)}"))
    return problems


def check_stake(stake) -> list[Problem]:
    if not isinstance(stake, dict) or set(stake) != {"per_counter", "currency"}:
        return [_problem("stake", f'stake must be {{"per_counter": "0.25", "currency": "d"}}, not {describe(stake)}')]
    problems = []
    per = stake["per_counter"]
    # above 0: some digit is not 0 (no Fraction: a string of 4,300+ digits would raise)
    if isinstance(per, str) and len(per) > MAX_STAKE_DIGITS:
        problems.append(_problem("stake", f"stake: per_counter has {len(per)} characters; at most {MAX_STAKE_DIGITS}"))
    elif not (isinstance(per, str) and DECIMAL.match(per) and per.strip("0.")):
        problems.append(
            _problem(
                "stake", f'stake: per_counter must be a decimal string above 0 such as "0.25", not {describe(per)}'
            )
        )
    currency = stake["currency"]
    if not (isinstance(currency, str) and CURRENCY.match(currency)):
        problems.append(
            _problem(
                "stake",
                f'stake: currency must be "d" (old pence) or a three-letter code such as "EUR", not {describe(currency)}',
            )
        )
    return problems


DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def real_date(text: str) -> bool:
    """Whether a "YYYY-MM-DD" is a day of the calendar, years 1 to 9999 as Python's
    ``datetime.date`` has them (counted here: importing datetime costs settle ~1.5 ms)."""
    year, month, day = int(text[:4]), int(text[5:7]), int(text[8:])
    if year < 1 or not 1 <= month <= 12 or day < 1:
        return False
    leap = month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return day <= DAYS_IN_MONTH[month - 1] + leap


def check_played_on(value) -> list[Problem]:
    if isinstance(value, str) and DATE.match(value):
        if real_date(value):
            return []
        return [_problem("played_on", f"played_on: {value} is not a real date")]
    return [_problem("played_on", f'played_on must be a date "YYYY-MM-DD", not {describe(value)}')]


def names_for(players) -> tuple[str, str, str]:
    """Players' trimmed names, or seat labels where the names are wrong."""
    if not check_players(players):
        return tuple(one_line(n.strip()) for n in players)
    return tuple(f"seat {s}" for s in SEATS)


def one_line(name: str) -> str:
    """A name as a problem line shows it: quoted and escaped if it would break the line."""
    return name if name.isprintable() else describe(name)


def validate(record) -> list[Problem]:
    """Every problem with a record (already parsed from JSON); empty if valid."""
    if not isinstance(record, dict):
        return [_problem("record", f"record: a session record is a JSON object, not {describe(record)}")]
    problems = []
    for key in REQUIRED_KEYS:
        if key not in record:
            problems.append(_problem(key, f"{key} is missing"))
    for key in record:
        if key not in REQUIRED_KEYS and key not in OPTIONAL_KEYS:
            problems.append(_problem(key, f"{key_name(key)}: {describe(key)} is not a key of a session record"))
    if "format" in record and record["format"] != FORMAT:
        problems.append(_problem("format", f'format must be "{FORMAT}", not {describe(record["format"])}'))
    book = None
    if "rulebook" in record:
        if isinstance(record["rulebook"], str) and record["rulebook"] in BOOKS:
            book = BOOKS[record["rulebook"]]
        else:
            problems.append(
                _problem("rulebook", f"rulebook must be one of {', '.join(BOOKS)}, not {describe(record['rulebook'])}")
            )
    options = {}
    if book is not None and "options" in record:
        option_problems = check_options(book, record["options"])
        problems += option_problems
        if not option_problems:
            options = record["options"]
    if "players" in record:
        problems += check_players(record["players"])
    if "title" in record and not isinstance(record["title"], str):
        problems.append(_problem("title", f"title must be text, not {describe(record['title'])}"))
    elif "title" in record and not is_text(record["title"]):
        problems.append(_problem("title", "title: the title contains a character that is not valid text"))
    if "played_on" in record:
        problems += check_played_on(record["played_on"])
    if "confirm" in record and type(record["confirm"]) is not bool:
        problems.append(_problem("confirm", f"confirm must be true or false, not {describe(record['confirm'])}"))
    if "scorer" in record:
        scorer = record["scorer"]
        if not (scorer is None or (type(scorer) is int and 0 <= scorer <= 2)):
            problems.append(
                _problem(
                    "scorer",
                    f"scorer must be the seat that keeps the score (0, 1 or 2), or null, not {describe(scorer)}",
                )
            )
        elif record.get("confirm") is not True:
            problems.append(
                _problem(
                    "scorer",
                    "scorer is given only with confirm: true (who keeps the score "
                    "matters only where each hand needs the other players' OK)",
                )
            )
    if "stake" in record:
        problems += check_stake(record["stake"])
    hands = record.get("hands")
    if "hands" in record and not isinstance(hands, list):
        problems.append(_problem("hands", f"hands must be a list, not {describe(hands)}"))
    elif isinstance(hands, list) and book is not None:
        names = names_for(record.get("players"))
        check_hand, opening_after = book.check_hand, book.ruff_opening_after
        opening = book.first_ruff_opening
        for number, hand in enumerate(hands, 1):
            problems += check_hand(number, hand, options, (), names, opening)
            opening = opening_after(opening, hand)
    return problems


class NotJSON(ValueError):
    """Text that is not JSON; the message says why, for a person ("nested too deeply")."""


def decode_json(text: str | bytes):
    """JSON text → a value, or ``NotJSON`` saying why not (never another exception:
    a file's text is untrusted input, here and in a backup)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise NotJSON("the file is empty" if not text.strip() else f"{error.msg.lower()} at {where}") from None
    except UnicodeDecodeError:
        raise NotJSON("the file is not UTF-8 text") from None
    except RecursionError:
        raise NotJSON("nested too deeply") from None
    except ValueError as error:
        raise NotJSON(str(error)) from None


def parse(text: str | bytes):
    """JSON text → a record (not yet validated); ``InvalidRecord`` if not JSON."""
    try:
        return decode_json(text)
    except NotJSON as why:
        raise InvalidRecord([_problem("record", f"record: not valid JSON ({why})")]) from None


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def load(text: str | bytes) -> dict:
    record = parse(text)
    problems = validate(record)
    if problems:
        raise InvalidRecord(problems)
    return record


def to_json_text(data) -> str:
    """Compact JSON of settle's output. A half counter too large for a float (an odd
    price beyond 2**53, which no rule forbids) is written as its exact decimal, and so
    is any other Fraction (a season's money, ``exact_decimal``)."""
    exact: list = []

    def mark(value):
        if hasattr(value, "denominator"):  # a Fraction
            exact.append(value)
            return f"\x00{len(exact) - 1}\x00"
        raise TypeError(f"not JSON: {value!r}")

    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=mark)
    if not exact:
        return text

    def decimal(match) -> str:
        value = exact[int(match.group(1))]
        if value.denominator == 2:
            return ("-" if value < 0 else "") + f"{abs(value.numerator) // 2}.5"
        return exact_decimal(value)

    return re.sub(r'"\\u0000(\d+)\\u0000"', decimal, text)


def exact_decimal(value) -> str:
    """A Fraction whose decimal ends (money at a decimal stake: 13 counters at 0.1d are
    1.3d) written out exactly, as a JSON number: ``1.3``, ``-5.75``. One that would not
    end is cut at 40 places (no stake makes one)."""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    digits = []
    while rest and len(digits) < 40:
        digit, rest = divmod(rest * 10, value.denominator)
        digits.append(str(digit))
    return ("-" if value < 0 else "") + str(whole) + ("." + "".join(digits) if digits else "")


def dump(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"


class HandResult:
    """One hand settled: each phase's transfer (in the book's order) and the hand's
    total (kept in half counters, ``halves``, and made an exact amount when first
    asked for)."""

    __slots__ = ("number", "dealer", "phases", "halves", "_total")

    def __init__(self, number: int, dealer: int, phases: dict, halves: list):
        self.number, self.dealer, self.phases, self.halves = number, dealer, phases, halves
        self._total = None

    @property
    def total(self) -> list:
        if self._total is None:
            self._total = [from_halves(h) for h in self.halves]
        return self._total

    def as_json(self) -> dict:
        return {
            "hand": self.number,
            "dealer": self.dealer,
            "phases": {p: [as_number(a) for a in amounts] for p, amounts in self.phases.items()},
            "total": [as_number(a) for a in self.total],
        }


_HAND_JSON: dict = {}


def hand_json_template(phases) -> str:
    """One hand of ``settle``'s JSON output for these phases, every amount a ``%s``
    (see ``Settlement.json_text``); made once per book."""
    found = _HAND_JSON.get(phases)
    if found is None:
        found = _HAND_JSON[phases] = (
            '{"hand":%d,"dealer":%d,"phases":{'
            + ",".join(f'"{p}":[%s,%s,%s]' for p in phases)
            + '},"total":[%s,%s,%s]}'
        )
    return found


def _hand_json(hand: HandResult, template: str) -> str:
    amounts = [a for transfer in hand.phases.values() for a in transfer]
    for i, a in enumerate(amounts):
        if type(a) is not int:  # a half counter (%s of an int is the int)
            amounts[i] = number_text(a)
    total = [h // 2 if h % 2 == 0 else halves_text(h) for h in hand.halves]
    return template % (hand.number, hand.dealer, *amounts, *total)


class Settlement:
    """A session settled: every hand, the balances (and after each hand), the payments.
    It remembers what it settled (``options``, ``source``), so that a later version
    of the session settles only the hands from the first that changed."""

    def __init__(
        self, rulebook: str, players: list, hands: list, balances: list, payments: list, options=None, source=()
    ):
        self.rulebook, self.players, self.hands = rulebook, players, hands
        self.balances, self.payments = balances, payments
        self.options, self.source = options, source
        self._running = None

    @property
    def running(self) -> list:
        """The balances after each hand (worked out when first asked for: settle's output has none)."""
        if self._running is None:
            running, a, b, c = [], 0, 0, 0
            for hand in self.hands:
                x, y, z = hand.halves
                a, b, c = a + x, b + y, c + z
                running.append([from_halves(a), from_halves(b), from_halves(c)])
            self._running = running
        return self._running

    def as_json(self) -> dict:
        return {
            "rulebook": self.rulebook,
            "players": self.players,
            "hands": [h.as_json() for h in self.hands],
            "balances": [as_number(b) for b in self.balances],
            "payments": [p.as_json() for p in self.payments],
        }

    def json_text(self) -> str:
        """``as_json()`` as compact JSON text, the same as ``to_json_text(self.as_json())``:
        the hands, numbers only, are written straight from their amounts (a half counter
        exactly, as x.5), without building the dictionaries first."""
        head = json.dumps(
            {"rulebook": self.rulebook, "players": self.players}, ensure_ascii=False, separators=(",", ":")
        )
        tail = to_json_text(
            {"balances": [as_number(b) for b in self.balances], "payments": [p.as_json() for p in self.payments]}
        )
        template = hand_json_template(BOOKS[self.rulebook].phase_ids)
        return f'{head[:-1]},"hands":[{",".join([_hand_json(h, template) for h in self.hands])}],{tail[1:]}'

    def phase_totals(self) -> dict:
        """Each of the book's phases summed over the session, in the book's order."""
        return {p: add(*[h.phases[p] for h in self.hands]) for p in BOOKS[self.rulebook].phase_ids}

    def unchanged_hands(self, record: dict) -> int:
        """How many of this settlement's first hands ``record`` still has as they were
        (a hand's result depends on that hand alone, its balance on those before)."""
        if (record["rulebook"], record["options"]) != (self.rulebook, self.options):
            return 0
        old, new = self.source, record["hands"]
        count, limit = 0, min(len(old), len(new))
        while count < limit and (old[count] is new[count] or old[count] == new[count]):
            count += 1
        return count


def settle_hands(book: RuleBook, options: dict, hands: list, first_number: int = 1) -> list[HandResult]:
    phases_of, results = book.transfers, []
    for number, hand in enumerate(hands, first_number):
        phases = phases_of(hand, options)
        results.append(HandResult(number, hand["dealer"], phases, halves_sum(phases.values())))
    return results


def settle(record: dict, previous: Settlement | None = None) -> Settlement:
    """Settle a valid record (``validate`` it first). With ``previous``, an earlier
    settlement of the same session, only the hands from the first that changed
    are settled again (appending a hand settles one hand)."""
    book = BOOKS[record["rulebook"]]
    keep = previous.unchanged_hands(record) if previous is not None else 0
    hands = previous.hands[:keep] if keep else []
    hands += settle_hands(book, record["options"], record["hands"][keep:], keep + 1)
    a = b = c = 0
    for hand in hands:
        x, y, z = hand.halves
        a, b, c = a + x, b + y, c + z
    balances = [from_halves(a), from_halves(b), from_halves(c)]
    return Settlement(
        rulebook=book.id,
        players=[n.strip() for n in record["players"]],
        hands=hands,
        balances=balances,
        payments=fewest_payments(balances),
        options=record["options"],
        source=record["hands"],
    )
