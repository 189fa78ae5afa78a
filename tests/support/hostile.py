"""Hostile files, written byte by byte (not by the app, nor by a PDF library that
would tidy them up), for the trust tests and the benchmarks."""

from __future__ import annotations

import zlib


def pdf_with_attachments(
    count: int, inflated: int, name: str = "session.json", content: bytes | None = None, level: int = 9
) -> bytes:
    """A PDF whose name tree lists ``count`` attachments, all called ``name``,
    each its own FlateDecode stream inflating to ``inflated`` bytes (zeros
    compress ~1000:1, so 862 of 2 MB fit in a 2 MB upload). ``content``: what
    each inflates to instead (then ``inflated`` is ignored)."""
    data = content if content is not None else bytes(inflated)
    packed = zlib.compress(data, level)
    objects: list[bytes] = []  # objects[i] is object i + 1

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in below, once the tree's numbers are known
    pages = add(b"<< /Type /Pages /Kids [] /Count 0 >>")
    pairs = []
    for _ in range(count):
        stream = add(
            b"<< /Type /EmbeddedFile /Filter /FlateDecode /Length %d >>\nstream\n" % len(packed)
            + packed
            + b"\nendstream"
        )
        spec = add(
            b"<< /Type /Filespec /F (%s) /UF (%s) /EF << /F %d 0 R >> >>" % (name.encode(), name.encode(), stream)
        )
        pairs.append(b"(%s) %d 0 R" % (name.encode(), spec))
    tree = add(b"<< /Names [" + b" ".join(pairs) + b"] >>")
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R /Names << /EmbeddedFiles %d 0 R >> >>" % (pages, tree)
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    return bytes(out)


def many_attachments_pdf() -> bytes:
    """The zip-bomb PDF: 862 attachments named session.json, each inflating
    to 2 MB, in a file under the 2 MB upload limit."""
    return pdf_with_attachments(862, 2 * 1024 * 1024)
