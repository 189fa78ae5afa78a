"""Where each hand stands with the players' OK, in the table's words."""

from __future__ import annotations

from .. import store
from ..rules import BOOKS
from ..rules.hand import sheet_words

NEEDED = 2  # OKs that make a hand agreed: the other two players'


def counted(agreement: store.Agreement, scorer: int | None) -> set:
    """The OKs that count: every player's but the scorer's own (where one keeps the score)."""
    return {s for s in agreement.agreed if s != scorer}


def status(agreement: store.Agreement, names, scorer: int | None = None) -> dict:
    """``agreed``, ``disputed`` or ``waiting`` (for whom), and a line saying so.
    ``scorer``: the seat keeping the score, whose own OK does not count (then the
    other two must agree); None: any two players' OKs agree the hand."""
    if agreement.disputed:
        who = "; ".join(f"{names[s]}: “{reason}”" for s, reason in sorted(agreement.disputed.items()))
        return {"state": "disputed", "text": f"disputed — {who}"}
    oks = counted(agreement, scorer)
    if len(oks) >= NEEDED:
        return {"state": "agreed", "text": "agreed by " + " and ".join(names[s] for s in sorted(oks))}
    waiting = [names[s] for s in range(3) if s not in agreement.agreed and s != scorer]
    if NEEDED - len(oks) == 1:
        return {"state": "waiting", "text": "1 more OK needed: " + " or ".join(waiting)}
    if scorer is not None:
        return {"state": "waiting", "text": f"OKs needed from {waiting[0]} and {waiting[1]}"}
    return {"state": "waiting", "text": f"{NEEDED} OKs needed: two of {', '.join(waiting[:-1])} and {waiting[-1]}"}


def summary(session: store.Session) -> dict | None:
    """ "12 of 12 hands agreed", and the hands that are not, each with its status
    (None without the option)."""
    if not session.confirm:
        return None
    names = tuple(session.players)
    states = {n + 1: status(a, names, session.scorer) for n, a in store.agreement(session).items()}
    agreed = sum(1 for s in states.values() if s["state"] == "agreed")
    others = [(n, s["text"]) for n, s in sorted(states.items()) if s["state"] != "agreed"]
    disputed = {n for n, s in states.items() if s["state"] == "disputed"}
    return {
        "line": f"{agreed} of {len(states)} hand{'s' if len(states) != 1 else ''} agreed",
        "others": others,
        "disputed": disputed,
    }


def sheet_line(session: store.Session) -> str | None:
    """The sheet's line ("At the table: 11 of 12 hands agreed; not agreed: 7 (disputed)"), as
    the table sees it: with its disputes and who keeps the score (None without the option)."""
    found = summary(session)
    if found is None:
        return None
    others = [f"{n} (disputed)" if n in found["disputed"] else str(n) for n, _ in found["others"]]
    return found["line"] + ("; not agreed: " + ", ".join(others) if others else "")


def card(session: store.Session, settlement, number: int, agreement: store.Agreement) -> dict:
    """A hand as the table agrees it: each player's total, the phase lines, the
    sets each declared by name, and the fingerprint an OK is given for."""
    book, names, hand = BOOKS[session.rulebook], tuple(session.players), session.hands[number - 1]
    options = book.resolved_options(session.options)
    result = settlement.hands[number - 1]
    reasons = book.reasons(hand, options, names)
    return {
        "number": number,
        "totals": result.total,
        "recorded": sheet_words(book, hand, options, names, result.phases),
        "phases": [(p.title, reasons[p.id]) for p in book.phase_info],
        "sets": reasons.get("sets", []),
        "seen": store.fingerprint(hand),
        "agreed": agreement.agreed,
        "scorer": session.scorer,
        "asked": [s for s in range(3) if s not in agreement.agreed and s != session.scorer],
        "asked_names": [names[s] for s in range(3) if s not in agreement.agreed and s != session.scorer],
        "status": status(agreement, names, session.scorer),
    }


def for_table(table, settlement) -> dict:
    """What the table page shows of the agreement (nothing without the option):
    each listed hand's status; on the scorer's link, the newest hand's card while
    it waits; on a player's link, the hands waiting for his OK."""
    session = table.session
    if not session.confirm or not session.hands:
        return {}
    names, last = tuple(session.players), len(session.hands)
    agreements = store.agreement(session)
    scorer = session.scorer
    out = {"statuses": {n + 1: status(a, names, scorer) for n, a in agreements.items()}}
    if table.can_edit and out["statuses"][last]["state"] == "waiting":
        out["card"] = card(session, settlement, last, agreements[last - 1])
    if table.seat is not None and table.seat != scorer:
        out["mine"] = [
            card(session, settlement, n + 1, a)
            for n, a in sorted(agreements.items(), reverse=True)
            if table.seat not in a.agreed and table.seat not in a.disputed and len(counted(a, scorer)) < NEEDED
        ][:12]
    return out
