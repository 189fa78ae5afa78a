"""A phone tapping the hand form over HTTP, as the page does: each tap posts the
answers so far, the version of the hand in progress the page shows, and the
calls the pads show (Flask's test client or any client with ``get``/``post``)."""

from __future__ import annotations

import html
import re

from werkzeug.datastructures import MultiDict

HX = {"HX-Request": "true"}


class Phone:
    def __init__(self, client, url: str):
        self.client, self.url, self.answers = client, url, MultiDict()

    def page(self) -> str:
        return self.client.get(self.url + "/hands/new").get_data(as_text=True)

    def tap(self, *pairs, expect: int = 200, **taps):
        """Set answers (``("trump", "hearts")``; a repeated field once per pair) and
        post them, with a pad's tap if given (``bid='[1, 13]'``)."""
        for name in {name for name, _ in pairs}:
            self.answers.poplist(name)
        for name, value in pairs:
            self.answers.add(name, value)
        page = self.page()
        data = MultiDict(self.answers)
        data["draft_version"] = re.search(r'name="draft_version" value="(\d+)"', page).group(1)
        for pad in ("bids", "ruff_calls"):
            shown = re.search(rf'name="{pad}" value="([^"]*)"', page)
            if shown:
                data[pad] = html.unescape(shown.group(1))
        for name, value in taps.items():
            data[name] = value
        response = self.client.post(self.url + "/hands/check", data=data, headers=HX)
        assert response.status_code == expect, (response.status_code, response.get_data(as_text=True)[:400])
        return response

    def calls(self, pad: str) -> list[str]:
        """The calls a pad offers now (``bid`` or ``ruff_call``), as its buttons post them."""
        return [html.unescape(v) for v in re.findall(rf"name=\"{pad}\" value='([^']*)'", self.page())]

    def call(self, pad: str, *words: str) -> str:
        """Tap the first call offered whose JSON has one of ``words`` (in that order of preference)."""
        offered = self.calls(pad)
        for word in words:
            for call in offered:
                if f'"{word}"' in call or (word == "bid" and '"' not in call):
                    self.tap(**{pad: call})
                    return call
        raise AssertionError(f"none of {words} in {offered}")
