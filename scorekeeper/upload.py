"""A session record from a file someone hands us: a ``gleek-session/1`` JSON file,
or a score sheet PDF, which carries that JSON as its attachment ``session.json``
(``scorekeeper.sheet.render_sheet_pdf`` puts it there).

Used by both doors, ``POST /import`` and the command line (``scorekeeper settle
sheet.pdf``, ``scorekeeper sheet sheet.pdf -o copy.pdf``), so a PDF that is not a
usable record gets the same problems everywhere: one plain line starting
``record:``, as for a file that is not JSON, then the record's own problems if
the attachment is there but wrong.

A PDF is hostile input: pypdf reads it under tight limits (no stream inflated
past ``MAX_RECORD_BYTES``), and anything it cannot read becomes one such line,
never a traceback. The PDF itself is only as large as the web app accepts an
upload (2 MB).
"""

from __future__ import annotations

from .limits import MAX_RECORD_BYTES  # as for a JSON upload; a 1000-hand record is ~0.5 MB
from .rules import InvalidRecord
from .rules.record import load

ATTACHMENT = "session.json"
#: pypdf's limits while it looks for the attachment (its defaults allow 75 MB a stream).
PDF_LIMITS = {
    "maximum_declared_stream_length": MAX_RECORD_BYTES * 4,
    "array_based_stream_maximum_output_length": MAX_RECORD_BYTES * 4,
    "zlib_maximum_output_length": MAX_RECORD_BYTES + 1,
    "zlib_maximum_recovery_input_length": MAX_RECORD_BYTES,
    "lzw_maximum_output_length": MAX_RECORD_BYTES + 1,
    "run_length_maximum_output_length": MAX_RECORD_BYTES + 1,
    "brotli_maximum_output_length": MAX_RECORD_BYTES + 1,
    "jbig2_maximum_output_length": MAX_RECORD_BYTES + 1,
    "stream_decoding_work_maximum_length": MAX_RECORD_BYTES * 8,
    "jbig2dec_binary": None,  # never run an external program on an upload
}
_QUIET = []  # the handler that keeps pypdf's own warnings off a command's stderr (made once)


def refuse(line: str):
    raise InvalidRecord([line])


def is_pdf(data: bytes) -> bool:
    """A PDF starts with ``%PDF-`` (readers allow junk before it in the first KB);
    a JSON record starts with ``{``."""
    head = data[:1024]
    return b"%PDF-" in head and not head.lstrip().startswith((b"{", b"["))


def record_text(data: bytes | str) -> bytes | str:
    """The record's JSON text in an uploaded file: the file itself, or the
    ``session.json`` a sheet PDF carries. Raises ``InvalidRecord`` (one line,
    ``record: …``) for a PDF that carries no usable one."""
    if isinstance(data, str) or not is_pdf(data):
        return data
    return pdf_attachment(data)


def load_upload(data: bytes | str) -> dict:
    """The valid record in an uploaded JSON or PDF file (``InvalidRecord`` otherwise)."""
    return load(record_text(data))


def pdf_attachment(data: bytes) -> bytes:
    import io
    import logging  # here, not at the top: ``settle FILE.json`` never reads a PDF

    import pypdf
    from pypdf import apply_configuration

    # pypdf logs what it finds wrong with a file ("EOF marker not found"); we say
    # it ourselves, in one line. A handler here keeps Python's last-resort
    # handler from printing those warnings on a command's stderr (an app's own
    # logging still receives them).
    if not _QUIET:
        _QUIET.append(logging.NullHandler())
        logging.getLogger("pypdf").addHandler(_QUIET[0])

    try:
        with apply_configuration(**PDF_LIMITS):
            reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted:
                refuse("record: this PDF is encrypted, so its session record cannot be read; "
                       "print the sheet again from the scorekeeper")
            found = [entry for entry in reader.attachment_list if entry.name == ATTACHMENT]
            contents = {entry.content for entry in found}
    except InvalidRecord:
        raise
    except pypdf.errors.LimitReachedError:
        refuse(f"record: the session record in this PDF is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB")
    except Exception:  # a damaged or hostile file: pypdf raises many kinds of error
        refuse("record: this file starts like a PDF but cannot be read (damaged, or not a PDF)")
    if not contents:
        refuse(f"record: this PDF carries no session record (a score sheet printed by the "
               f"scorekeeper has one attached, named {ATTACHMENT}); import the session's JSON export instead")
    if len(contents) > 1:
        refuse(f"record: this PDF carries {len(contents)} different {ATTACHMENT} attachments; "
               "it is not one session's sheet")
    text = contents.pop()
    if len(text) > MAX_RECORD_BYTES:
        refuse(f"record: the session record in this PDF is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB")
    return text
