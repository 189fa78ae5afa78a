"""The new-session form ↔ a ``gleek-session/1`` record (the rule book does the checking)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from ..rules import BOOKS, DEFAULT_BOOK
from ..rules.core import SEATS
from ..rules.record import FORMAT, MAX_NAME, validate
from ..limits import MAX_TITLE
from .kinds import seat_of



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
    rulebook = form.get("rulebook", "") or DEFAULT_BOOK
    if rulebook not in BOOKS:
        bad("rulebook", "Choose a rule book.")
        rulebook = DEFAULT_BOOK
    book = BOOKS[rulebook]
    options = {}
    for option in book.options:
        raw = form.get(f"opt_{option.name}", "on" if option.default else "off")
        if raw not in ("on", "off"):
            bad(f"opt_{option.name}", "Choose on or off.")
        elif (raw == "on") != option.default:
            options[option.name] = raw == "on"
    first_dealer = seat_of(form.get("first_dealer", "0"))
    if first_dealer is None:
        bad("first_dealer", "Choose who deals first.")
        first_dealer = 0
    record = {"format": FORMAT, "rulebook": rulebook, "options": options,
              "players": players, "hands": []}
    confirm = form.get("confirm", "off")
    if confirm not in ("on", "off"):
        bad("confirm", "Choose on or off.")
    elif confirm == "on":
        record["confirm"] = True
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
