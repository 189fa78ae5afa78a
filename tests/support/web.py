"""Shared helpers for the web tests: a hand as form fields, sessions made over HTTP."""

from __future__ import annotations

import json
import re


from scorekeeper.rules.record import settle

PLAYERS = ("Ann", "Ben", "Cat")


def http_request(
    host: str, port: int | None, method: str, path: str, fields=None, timeout: float = 10.0, source: str | None = None
) -> tuple[int, dict, bytes]:
    """One real HTTP request on a fresh connection (form-encoded ``fields`` if given):
    status, headers and body bytes. Loopback servers only. ``source``: the address
    to send from (127.0.0.2 and up are loopback too: another "device")."""
    import http.client
    from urllib.parse import urlencode

    conn = http.client.HTTPConnection(host, port, timeout=timeout, source_address=(source, 0) if source else None)
    try:
        body, headers = None, {}
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def hand_fields(hand: dict, version: int | None = None):
    """A stored-format hand as the hand form's fields (what taps would post),
    built from the form's field names alone (not from the app's own code)."""
    from werkzeug.datastructures import MultiDict

    def seat(value, nobody="nobody"):
        return nobody if value is None else str(value)

    fields = [("dealer", str(hand["dealer"])), ("trump", hand["trump"]), ("tiddy", seat(hand["tiddy"]))]
    if "turned_up" in hand:
        fields.append(("turned_up", hand["turned_up"]))
    auction = hand["auction"]
    fields += (
        [("buyer", "nobody")]
        if auction is None
        else [("buyer", str(auction["buyer"])), ("price", str(auction["price"]))]
    )
    if auction is not None and "bids" in auction:  # followed bid by bid on the call pad
        fields.append(("bids", json.dumps(auction["bids"])))
    ruff = hand["ruff"]
    if ruff is None:
        fields.append(("ruff_winner", "nobody"))
    else:
        fields.append(("ruff_winner", str(ruff["winner"])))
        fields += [(f"paid_{s}", str(ruff["paid"][s])) for s in range(3) if s != ruff["winner"]]
        if "calls" in ruff:  # followed call by call, and the showdown's totals
            fields.append(("ruff_calls", json.dumps(ruff["calls"])))
            fields += [(f"shown_total_{s}", str(t)) for s, t in enumerate(ruff.get("shown") or ()) if t is not None]
    fields += [(key, seat(hand[key])) for key in ("towser", "tumbler") if key in hand]  # cotton1674
    fields.append(("sets", "some" if any(hand["sets"]) else "none"))
    for s in range(3):
        fields += [(f"set_{s}", text) for text in hand["sets"][s]]
        fields += [(f"forfeits_{s}", text) for text in (hand.get("forfeits") or ([], [], []))[s]]
        fields.append((f"tricks_{s}", str(hand["tricks"][s])))
    for rank, holder in hand.get("honours", {}).items():
        fields.append((f"honour_{rank}", seat(holder, "discarded")))
    if "card_points" in hand:
        fields += [(f"card_points_{s}", str(hand["card_points"][s])) for s in range(3)]
        fields += [(key, seat(hand[key])) for key in ("tib", "tom") if hand["trump"] != "none"]
        fields.append(("last_trick", str(hand["last_trick"])))
    if hand.get("note"):
        fields.append(("note", hand["note"]))
    if version is not None:
        fields.append(("version", str(version)))
    return MultiDict(fields)


def tap(client, url, data):
    """Post a tap of the new-hand form as the page would: based on the version of
    the hand in progress that the form shows."""
    from werkzeug.datastructures import MultiDict

    page = client.get(url + "/hands/new").data.decode()
    fields = MultiDict(data)
    fields["draft_version"] = re.search(r'name="draft_version" value="(\d+)"', page).group(1)
    return client.post(url + "/hands/check", data=fields)


def post_change(client, url, path, data=None, version=None):
    """POST a change to the session at ``url`` (``/undo``, ``/hands/N/delete``, an edit's
    fields) carrying the version it is based on, as the page's form does: the
    session's current version unless ``version`` is given."""
    from werkzeug.datastructures import MultiDict

    fields = MultiDict(data or {})
    fields["version"] = str(version if version is not None else version_of(client, url))
    return client.post(url + path, data=fields)


def new_session(client, rulebook="parlett", players=PLAYERS, **extra) -> str:
    data = {
        "player_0": players[0],
        "player_1": players[1],
        "player_2": players[2],
        "rulebook": rulebook,
        "first_dealer": "0",
        "stake": "",
        **extra,
    }
    response = client.post("/sessions", data=data)
    assert response.status_code == 303, response.data
    return response.headers["Location"]


def export(client, url) -> dict:
    response = client.get(url + "/export.json")
    assert response.status_code == 200
    return json.loads(response.data)


def version_of(client, url) -> int:
    page = client.get(url).data.decode()
    return int(re.search(r"\?v=(\d+)-\d+-\d+-\w+\"", page).group(1))  # version-draft-said-scorer


def shown_balances(client, url) -> list[str]:
    page = client.get(url).data.decode()
    return re.findall(r'class="amount[^"]*" data-seat="\d">([^<]*)<', page)


def expected_balances(record) -> list[str]:
    from scorekeeper.rules.core import signed_counters

    return [signed_counters(b) for b in settle(record).balances]


def apply_change(op, hands: list) -> list:
    """The hands after an acknowledged change ``op`` = (kind, hand): what tests expect stored."""
    kind, payload = op
    if kind == "add":
        return hands + [payload]
    if kind == "edit":
        return [payload] + hands[1:]
    if kind == "delete":
        return hands[:-1]
    raise AssertionError(kind)
