"""Monospaced ledger lines drawn straight into a WeasyPrint PDF (a circle's sheets).

WeasyPrint lays out and draws a line of text in Python, glyph by glyph (~2.4 ms a
season-sheet ledger line of ~137 glyphs: 2.4 s for 1,000 evenings). The season sheet
lets WeasyPrint lay out everything else (the page head and foot, "Page N of M", the
ledger's column heading repeated on each page, the totals, the summary), leaves an
empty box of the right height where the ledger's lines go on each page, and then
writes those lines into the page's PDF content itself, as one text object a box:

- the font is DejaVu Sans Mono (the file fontconfig gives, as WeasyPrint uses),
  subset with fontTools and embedded as a Type0 / CIDFontType2 font with Identity-H
  and a ToUnicode CMap, so that ``pdftotext`` or pypdf read the lines back as they are;
- ``LedgerFont.encode`` gives a line's glyph string; ``text_ops`` the content of a box.

Every glyph of the font is 1233/2048 em wide, so a line needs no per-glyph position.
"""

from __future__ import annotations

import functools
import io
import subprocess
from pathlib import Path

import pydyf

FAMILY = "DejaVu Sans Mono"
FALLBACK_FILE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
RESOURCE_NAME = "FLedger"
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))
#: What ``words.wording`` writes in an amount beyond ASCII ("−2s 0¾d · €1.20"): in every
#: ledger font, so that one font, built once a process, draws every ledger of amounts.
AMOUNTS = "−¼½¾£€·"


@functools.lru_cache(maxsize=1)
def font_file() -> Path:
    """The file fontconfig gives for DejaVu Sans Mono (what WeasyPrint's Pango uses)."""
    try:
        found = subprocess.run(
            ["fc-match", "--format=%{file}", f"{FAMILY}:regular"], capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        found = ""
    path = Path(found) if found else FALLBACK_FILE
    return path if path.exists() and "DejaVuSansMono" in path.name.replace("-", "") else FALLBACK_FILE


class LedgerFont:
    """DejaVu Sans Mono subset to ``chars``, ready to embed."""

    def __init__(self, chars: str):
        from fontTools import subset  # ~80 ms: only where a ledger is drawn (the renderer process)
        from fontTools.ttLib import TTFont  # (fontTools, as above)

        whole = TTFont(str(font_file()), lazy=True)
        cmap = whole.getBestCmap()
        # beyond the BMP a UTF-16BE character is two codes: set by WeasyPrint instead, as one the font lacks
        self.missing = {c for c in chars if ord(c) not in cmap or ord(c) > 0xFFFF}
        chars = "".join(sorted(set(chars) - self.missing))
        options = subset.Options()
        options.layout_features = []
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.hinting = True
        options.drop_tables += ["FFTM"]  # FontForge's timestamp: fontTools cannot subset it (and warns)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=[ord(c) for c in chars])
        font = TTFont(str(font_file()))
        subsetter.subset(font)
        out = io.BytesIO()
        font.save(out)
        self.data = out.getvalue()
        em = font["head"].unitsPerEm
        self.scale = 1000 / em
        sub_cmap = font.getBestCmap()
        # a character's code (its CID) is its code point, two bytes: a line's glyph string is its UTF-16BE
        self.gids = {c: font.getGlyphID(sub_cmap[ord(c)]) for c in chars}
        top = max(ord(c) for c in chars) if chars else 0
        cid_to_gid = bytearray(2 * (top + 1))
        for c, gid in self.gids.items():
            cid_to_gid[2 * ord(c) : 2 * ord(c) + 2] = gid.to_bytes(2, "big")
        self.cid_to_gid = bytes(cid_to_gid)
        self.advance = font["hmtx"][sub_cmap[ord(chars[0])]][0] * self.scale if chars else 600
        head, hhea, os2 = font["head"], font["hhea"], font["OS/2"]
        self.bbox = [round(v * self.scale) for v in (head.xMin, head.yMin, head.xMax, head.yMax)]
        self.ascent = round(hhea.ascent * self.scale)
        self.descent = round(hhea.descent * self.scale)
        self.cap_height = round(getattr(os2, "sCapHeight", hhea.ascent) * self.scale)
        self.glyph_count = font["maxp"].numGlyphs

    @staticmethod
    def encode(line: str) -> bytes:
        """A line as a PDF string of two-byte codes (Identity-H): its UTF-16BE, escaped."""
        data = line.encode("utf-16-be").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        return b"(" + data.replace(b"\r", b"\\r") + b")"

    def add_to(self, pdf, compress: bool = True):
        """The Type0 font's objects added to a pydyf ``PDF``; its reference."""
        tag = "LEDGER+DejaVuSansMono"
        file = pydyf.Stream([self.data], pydyf.Dictionary({"Length1": len(self.data)}), compress=compress)
        pdf.add_object(file)
        descriptor = pydyf.Dictionary(
            {
                "Type": "/FontDescriptor",
                "FontName": f"/{tag}",
                "Flags": 33,
                "FontBBox": pydyf.Array(self.bbox),
                "ItalicAngle": 0,
                "Ascent": self.ascent,
                "Descent": self.descent,
                "CapHeight": self.cap_height,
                "StemV": 80,
                "FontFile2": file.reference,
            }
        )
        pdf.add_object(descriptor)
        cid_map = pydyf.Stream([self.cid_to_gid], compress=compress)
        pdf.add_object(cid_map)
        cid = pydyf.Dictionary(
            {
                "Type": "/Font",
                "Subtype": "/CIDFontType2",
                "BaseFont": f"/{tag}",
                "CIDSystemInfo": pydyf.Dictionary(
                    {"Registry": pydyf.String("Adobe"), "Ordering": pydyf.String("Identity"), "Supplement": 0}
                ),
                "FontDescriptor": descriptor.reference,
                "DW": round(self.advance),  # an integer: 602 for 602.05, 0.05 pt over a 137-glyph line at 7 pt
                "CIDToGIDMap": cid_map.reference,
            }
        )
        pdf.add_object(cid)
        to_unicode = pydyf.Stream([self._to_unicode()], compress=compress)
        pdf.add_object(to_unicode)
        font = pydyf.Dictionary(
            {
                "Type": "/Font",
                "Subtype": "/Type0",
                "BaseFont": f"/{tag}",
                "Encoding": "/Identity-H",
                "DescendantFonts": pydyf.Array([cid.reference]),
                "ToUnicode": to_unicode.reference,
            }
        )
        pdf.add_object(font)
        return font.reference

    def _to_unicode(self) -> bytes:
        pairs = sorted((ord(c), c) for c in self.gids)
        lines = [
            b"/CIDInit /ProcSet findresource begin",
            b"12 dict begin",
            b"begincmap",
            b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
            b"/CMapName /Adobe-Identity-UCS def",
            b"/CMapType 2 def",
            b"1 begincodespacerange",
            b"<0000> <ffff>",
            b"endcodespacerange",
        ]
        for start in range(0, len(pairs), 100):
            block = pairs[start : start + 100]
            lines.append(f"{len(block)} beginbfchar".encode())
            lines += [f"<{gid:04x}> <{ord(c):04x}>".encode() for gid, c in block]
            lines.append(b"endbfchar")
        lines += [b"endcmap", b"CMapName currentdict /CMap defineresource pop", b"end", b"end"]
        return b"\n".join(lines)


def ledger_font(text: str) -> LedgerFont:
    """A font for ``text``'s characters: printable ASCII, the amounts' others (``AMOUNTS``)
    and any more (an evening's title), each set built once per process (~0.5 s: fontTools
    and the subsetting)."""
    return _font_with(frozenset(text) - _BASE)


_BASE = frozenset(ASCII + AMOUNTS)


@functools.lru_cache(maxsize=8)
def _font_with(others: frozenset) -> LedgerFont:
    return LedgerFont(ASCII + AMOUNTS + "".join(sorted(others)))


def text_ops(font: LedgerFont, lines, x: float, y: float, size: float, leading: float) -> bytes:
    """One text object: ``lines`` from the first baseline at (x, y) in PDF points, downwards."""
    encode = font.encode
    head = f"BT\n/{RESOURCE_NAME} {size:g} Tf {leading:.4f} TL {x:.3f} {y:.3f} Td\n".encode()
    return head + b" Tj T*\n".join(encode(line) for line in lines) + b" Tj\nET"


def rule_ops(x0: float, x1: float, ys, width: float = 0.3, grey: float = 0.6) -> bytes:
    """Thin grey rules across (x0, x1) at each height in ``ys`` (PDF points)."""
    if not ys:
        return b""
    lines = "\n".join(f"{x0:.3f} {y:.3f} m {x1:.3f} {y:.3f} l" for y in ys)
    return f"q\n{grey:g} G {width:g} w\n{lines}\nS\nQ".encode()


__all__ = ["LedgerFont", "ledger_font", "rule_ops", "text_ops"]
