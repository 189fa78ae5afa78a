"""The new-session form ↔ a ``gleek-session/1`` record (the rule book does the checking)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from ..rules import BOOKS, DEFAULT_BOOK
from ..rules.core import SEATS
from ..rules.record import FORMAT, MAX_NAME, alike_names, validate
from ..limits import MAX_TITLE
from ..form.fields import seat_of
from ..words.wording import stake_choice


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
    **{choice: stake_choice(stake) for choice, stake in STAKES.items()},
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
    scorer: int | None = None  # who keeps the score, where the other players' OK is asked for


class Problems(dict):
    """Field name -> the problems found with it, in the form's words."""

    def bad(self, key: str, text: str) -> None:
        self.setdefault(key, []).append(text)


def parse_new_session(form) -> SessionForm:
    values = {k: form.get(k, "") for k in form.keys()}
    problems = Problems()
    players = read_players(form, problems)
    book = read_book(form, problems)
    first_dealer = seat_of(form.get("first_dealer", "0"))
    if first_dealer is None:
        problems.bad("first_dealer", "Choose who deals first.")
        first_dealer = 0
    record = {
        "format": FORMAT,
        "rulebook": book.id,
        "options": read_options(form, book, problems),
        "players": players,
        "hands": [],
    }
    read_about(form, record, problems)
    read_stake(form, record, problems)
    if not any(k.startswith("player_") for k in problems):
        check_record(record, problems)
    pin = form.get("pin", "").strip()
    if pin and not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
        problems.bad("pin", "A PIN is 4 to 8 digits (or leave it empty).")
    values.pop("pin", None)  # never echoed back into the page
    scorer = read_scorer(form, record, problems)
    return SessionForm(values, None if problems else record, first_dealer, dict(problems), pin, scorer)


def read_scorer(form, record: dict, problems: Problems) -> int | None:
    """Who keeps the score (a seat, or "none": any two players' OKs agree a hand);
    asked only where each hand needs the other players' OK."""
    raw = form.get("scorer", "none")
    if raw == "none":
        return None
    seat = seat_of(raw)
    if seat is None:
        problems.bad("scorer", "Choose who keeps the score, or “None of us”.")
    return seat if record.get("confirm") else None


def read_players(form, problems: Problems) -> list[str]:
    players = [form.get(f"player_{s}", "").strip() for s in SEATS]
    for seat, name in enumerate(players):
        if not name:
            problems.bad(f"player_{seat}", "Enter a name.")
        elif len(name) > MAX_NAME:
            problems.bad(f"player_{seat}", f"At most {MAX_NAME} characters.")
    return players


def read_book(form, problems: Problems):
    rulebook = form.get("rulebook", "") or DEFAULT_BOOK
    if rulebook not in BOOKS:
        problems.bad("rulebook", "Choose a rule book.")
        rulebook = DEFAULT_BOOK
    return BOOKS[rulebook]


def on_off(form, name: str, default: bool, problems: Problems) -> bool | None:
    raw = form.get(name, "on" if default else "off")
    if raw not in ("on", "off"):
        problems.bad(name, "Choose on or off.")
        return None
    return raw == "on"


def option_field(book, option) -> str:
    """The form's field of one book's option: named by the book too, since two
    books have an option of the same name (``tiddy``: wits1671's and cotton1674's),
    and one name for both made their chips one radio group across the page."""
    return f"opt_{book.id}_{option.name}"


def read_options(form, book, problems: Problems) -> dict:
    """The book's options that differ from their defaults (each from its own field,
    else from ``opt_<name>``, as a client that names only the option posts it)."""
    options = {}
    for option in book.options:
        field = option_field(book, option)
        raw = form.get(field, form.get(f"opt_{option.name}"))
        chosen = on_off({} if raw is None else {field: raw}, field, option.default, problems)  # said at its chips
        if chosen is not None and chosen != option.default:
            options[option.name] = chosen
    return options


def read_about(form, record: dict, problems: Problems) -> None:
    """Each hand needs the other players' OK; the title and date of the evening."""
    if on_off(form, "confirm", False, problems):
        record["confirm"] = True
    title = form.get("title", "").strip()
    if len(title) > MAX_TITLE:
        problems.bad("title", f"At most {MAX_TITLE} characters.")
    elif title:
        record["title"] = title
    played_on = form.get("played_on", "").strip()
    if played_on:
        record["played_on"] = played_on


def read_stake(form, record: dict, problems: Problems) -> None:
    choice = form.get("stake", "")
    if choice == "money":
        amount = form.get("stake_amount", "").strip().replace(",", ".")
        currency = form.get("stake_currency", "")
        if currency not in CURRENCIES:
            problems.bad("stake", "Choose EUR, GBP or USD.")
        elif len(amount) > 12:
            problems.bad("stake", "The money value of a counter must be a number above 0, such as 0.05.")
        else:
            record["stake"] = {"per_counter": amount, "currency": currency}
    elif choice in STAKES:
        if STAKES[choice]:
            record["stake"] = dict(STAKES[choice])
    else:
        problems.bad("stake", "Choose a stake.")


def check_record(record: dict, problems: Problems) -> None:
    """The record's own checks, worded for the new-session form."""
    found = validate(record)
    if not any(p.key == "players" for p in found):
        found += alike_names(record["players"])
    for problem in found:
        key = {"players": "player_0", "played_on": "played_on", "stake": "stake"}.get(problem.key, problem.key)
        text = str(problem)
        if problem.key == "stake":
            text = "The money value of a counter must be a number above 0, such as 0.05."
        if problem.key == "played_on":
            text = "Enter a real date."
        if problem.key == "players" and ("both called" in text or "one name here" in text):
            text = "Three different names, please: " + text.split(": ", 1)[1]
        problems.bad(key, text)


def today() -> str:
    return datetime.date.today().isoformat()
