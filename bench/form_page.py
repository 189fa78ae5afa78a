"""The hand form as a browser holds it, for the benchmarks: the page's elements,
the out-of-band pieces of each tap's answer swapped in by id (as htmx does), and
the form's fields serialised as the browser posts them (FormData order: hidden
inputs, checked chips, typed boxes). Just enough of a browser to post a tap with
the ``draft_version`` and ``sig_<section>`` values the page holds after the
previous answer, never guessed.

tinyhtml5 is an HTML5 parser WeasyPrint already depends on (no new package).
"""

from __future__ import annotations

from urllib.parse import urlencode

import tinyhtml5


def parse(html: str):
    return tinyhtml5.parse(html, namespace_html_elements=False)


class FormPage:
    """The hand form page (``GET …/hands/new``) and what taps did to it."""

    def __init__(self, html: str):
        self.root = parse(html)

    def element(self, id_: str):
        return next((el for el in self.root.iter() if el.get("id") == id_), None)

    @property
    def form(self):
        return self.element("hand-form")

    def swap(self, answer: str) -> list[str]:
        """Apply a tap's answer: each top-level piece marked ``hx-swap-oob``
        replaces the page's element of the same id. The ids swapped, in order."""
        body = parse(answer).find("body")
        parents = {child: parent for parent in self.root.iter() for child in parent}
        swapped = []
        for piece in list(body):
            if piece.get("hx-swap-oob") is None:
                continue
            old = self.element(piece.get("id"))
            if old is None:
                raise AssertionError(f"the answer swaps #{piece.get('id')}, which the page does not have")
            parent = parents[old]
            index = list(parent).index(old)
            piece.tail = old.tail
            parent.remove(old)
            parent.insert(index, piece)
            swapped.append(piece.get("id"))
        return swapped

    def fields(self) -> list[tuple[str, str]]:
        out = []
        for el in self.form.iter():
            name = el.get("name")
            if not name:
                continue
            if el.tag == "input":
                kind = (el.get("type") or "text").lower()
                if kind in ("submit", "button", "image", "reset"):
                    continue
                if kind in ("radio", "checkbox"):
                    if el.get("checked") is not None:
                        out.append((name, el.get("value", "on")))
                else:
                    out.append((name, el.get("value", "")))
            elif el.tag == "textarea":
                out.append((name, el.text or ""))
        return out

    def value(self, name: str) -> str:
        return next((v for n, v in self.fields() if n == name), "")

    def chips(self, name: str) -> list[str]:
        """The values offered for ``name`` (radio or checkbox chips)."""
        return [el.get("value") for el in self.form.iter("input") if el.get("name") == name]

    def choose(self, name: str, value: str) -> None:
        """Tap a chip (a radio: the others of its name go off)."""
        found = False
        for el in self.form.iter("input"):
            if el.get("name") != name:
                continue
            if el.get("value") == value:
                el.set("checked", "")
                found = True
            elif (el.get("type") or "").lower() == "radio":
                el.attrib.pop("checked", None)
        if not found:
            raise AssertionError(f"no chip {name}={value} on the page; offered: {self.chips(name)}")

    def buttons(self, name: str) -> list[tuple[str, str]]:
        """(value, label) of the submit buttons named ``name`` (a call pad's calls)."""
        return [
            (el.get("value"), "".join(el.itertext()).strip())
            for el in self.form.iter("button")
            if el.get("name") == name
        ]

    def text(self, id_: str) -> str:
        el = self.element(id_)
        return " ".join("".join(el.itertext()).split()) if el is not None else ""

    def body(self, changed: str = "", button: tuple[str, str] | None = None) -> bytes:
        """The tap as the browser posts it: the form's fields, the tapped button
        (htmx adds a submit button's name and value), and app.js's ``changed``."""
        fields = self.fields()
        if button is not None:
            fields.append(button)
        fields.append(("changed", changed))
        return urlencode(fields).encode()
