"""Players' names: how they are shortened and how wide they are drawn, in one place.

A name is made of graphemes (what a reader sees as one character: "é" written
as e + accent, a family emoji of seven code points, a flag) and words. Nothing
here ever splits a grapheme, and a short name is whole words: "🃏 Jo" stays
"🃏 Jo" (an emoji before the first word keeps the word), "Kit 🃏👑" is "Kit",
"Bartholomew-Fitzwilliam" is "Bartholomew…" (cut at its hyphen, and said so
with "…"). Only a single word longer than the room is cut inside, with "…".

The sheet, the PDF, the phone's column heads and the chart all call the
players by ``short_names``; the pages size a name to its box with
``widest_word_em`` (static/app.css, ``.fit``), so that it breaks only at spaces
and hyphens and never runs past its box.
"""

from __future__ import annotations

import functools
import unicodedata

import regex

GRAPHEME = regex.compile(r"\X")
#: A word that says who the player is (not only emoji or signs).
WORDLIKE = regex.compile(r"[\p{L}\p{N}]")
PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}|\p{Regional_Indicator}")
#: Where a name may break: before a space, after a hyphen.
PIECES = regex.compile(r"[^\s-]*-+|[^\s-]+")

#: A short name is at most this many graphemes ("…" included).
LABEL_GRAPHEMES = 12


def member_name(name: str) -> str:
    """A circle member's name as it is kept and compared: trimmed and composed (NFC),
    so that "José" typed as one letter é and as e followed by a combining accent is
    one name, not two members who look the same."""
    return unicodedata.normalize("NFC", name.strip())


def graphemes(text: str) -> list[str]:
    return GRAPHEME.findall(text)


def cut(text: str, length: int) -> str:
    """``text`` in at most ``length`` graphemes: whole if it fits; else the words
    that fit (broken at a space, or at a hyphen, which is dropped) and "…"; else,
    a single long word, as many whole graphemes as fit and "…"."""
    shown = graphemes(text)
    if len(shown) <= length:
        return text
    room = shown[: length - 1]
    for end in range(len(room), 0, -1):
        if shown[end].isspace() or shown[end] == "-" or room[end - 1] == "-":
            head = "".join(room[:end]).rstrip(" -")
            if WORDLIKE.search(head):
                return head + "…"
            break
    return "".join(room).rstrip() + "…"


def short_name(name: str) -> str:
    """A name's first word (with any emoji or signs before it: "🃏 Jo"), cut to
    ``LABEL_GRAPHEMES`` as ``cut`` does."""
    words = name.split()
    if not words:
        return name
    taken = []
    for word in words:
        taken.append(word)
        if WORDLIKE.search(word):
            break
    else:
        taken = words[:1]  # only emoji and signs: the first of them
    return cut(" ".join(taken), LABEL_GRAPHEMES)


def short_names(names) -> list[str]:
    """How the column heads and the hand lines call the players, the same
    everywhere: each one's ``short_name``, or the whole name where two short
    names would be the same ("Ann Smith", "Ann Jones"). The sheet's header
    spells out every short name that is not the whole name."""
    labels = [short_name(name) for name in names]
    return [name if labels.count(label) > 1 else label for name, label in zip(names, labels)]


# ---------------------------------------------------------------- widths

#: Advance widths of printable ASCII (space to "~"), in hundredths of an em, of
#: Noto Sans Bold, which Chromium draws system-ui in here; Roboto and SF are
#: about as wide. Other letters are measured by their base letter ("é" as "e").
_ASCII = (
    26,
    29,
    47,
    65,
    57,
    90,
    75,
    27,
    34,
    34,
    54,
    57,
    28,
    32,
    28,
    41,
    57,
    57,
    57,
    57,
    57,
    57,
    57,
    57,
    57,
    57,
    28,
    28,
    57,
    57,
    57,
    48,
    90,
    69,
    67,
    64,
    74,
    56,
    55,
    72,
    76,
    39,
    33,
    66,
    56,
    94,
    81,
    80,
    63,
    80,
    66,
    55,
    58,
    76,
    65,
    97,
    67,
    62,
    58,
    33,
    41,
    33,
    57,
    41,
    36,
    60,
    63,
    51,
    63,
    59,
    39,
    63,
    66,
    30,
    30,
    62,
    30,
    98,
    66,
    62,
    63,
    63,
    45,
    50,
    43,
    66,
    57,
    86,
    58,
    57,
    49,
    39,
    55,
    39,
    57,
)
#: An emoji or a CJK character; a letter of another script; the room kept for a face a little wider.
_WIDE_EM, _OTHER_EM, _MARGIN = 1.28, 0.8, 1.06


def grapheme_em(grapheme: str) -> float:
    """How wide one grapheme is drawn, in em of a bold sans serif."""
    if PICTOGRAPH.match(grapheme) or unicodedata.east_asian_width(grapheme[0]) in "WF":
        return _WIDE_EM
    base = unicodedata.normalize("NFD", grapheme)[0]
    if " " <= base <= "~":
        return _ASCII[ord(base) - 32] / 100
    if base == "…":
        return 0.85
    return _OTHER_EM


def widest_word_em(text: str) -> float:
    """How wide (in em of a bold face) the widest piece of ``text`` that cannot
    be broken is: a word, or a part of one up to and with its hyphen."""
    widest = max((sum(grapheme_em(g) for g in graphemes(piece)) for piece in PIECES.findall(text)), default=0)
    return round(max(widest, 1.0) * _MARGIN, 2)


@functools.lru_cache(maxsize=4096)
def fit_style(text: str) -> str:
    """The inline style that lets a name's box size it (``.fit`` in app.css).
    Kept per name: a table's live part asks for each of its recent hands' dealer
    (30 names a rendering, most of its time before this was kept)."""
    return f"--em: {widest_word_em(text)}"


def row_head_style(heads) -> str:
    """The inline style that gives a table's row heads (its first column, ``--row-head``
    in app.css) the room of the widest word among them: "Towser and Tumbler" breaks
    at its spaces, never inside "Tumbler"."""
    return f"--row-head: {max((widest_word_em(head) for head in heads), default=0)}"


def fit_for_chart(name: str, room: float, least: float = 0.7) -> tuple[str, float]:
    """``name`` as the chart's legend draws it in ``room`` em of its type, and the
    scale of its type: whole if it fits; else its short name ("Bartholomew…"),
    its type made smaller (down to ``least``) if need be; only if even that is
    too wide, as many whole graphemes as fit, and "…"."""

    def width(text):
        return sum(grapheme_em(g) for g in graphemes(text))

    if width(name) <= room:
        return name, 1.0
    short = short_name(name)
    if width(short) * least <= room:
        return short, min(1.0, round(room / width(short), 2))
    shown, used = [], width("…")
    for g in graphemes(name):
        if used + grapheme_em(g) > room / least:
            break
        shown.append(g)
        used += grapheme_em(g)
    return "".join(shown).rstrip(" -") + "…", least


def emoji_spans(text: str):
    """``text`` as runs, each ``(run, is_emoji)``: a drawing (the chart's SVG)
    gives the emoji runs the colour emoji font, as the sheet's text has them; its
    own face (DejaVu Sans) has black-and-white glyphs for some ("🃏")."""
    runs: list[list] = []
    for g in graphemes(text):
        emoji = bool(PICTOGRAPH.match(g))
        if runs and runs[-1][1] == emoji:
            runs[-1][0] += g
        else:
            runs.append([g, emoji])
    return [(run, emoji) for run, emoji in runs]
