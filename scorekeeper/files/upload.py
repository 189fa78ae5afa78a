"""A session record from a file someone hands us: a ``gleek-session/1`` JSON file,
or a score sheet PDF, which carries that JSON as its attachment ``session.json``
(``scorekeeper.printing.sheet.render_sheet_pdf`` puts it there); or a club night's
record, ``gleek-night/1``, as a JSON file or carried by the night's sheet PDF as
``night.json`` (``printing.night_sheet``; the caller tells them apart by their
``format``, ``parsed_upload``).

Used by both doors, ``POST /import`` and the command line (``scorekeeper settle
sheet.pdf``, ``scorekeeper sheet sheet.pdf -o copy.pdf``), so a PDF that is not a
usable record gets the same problems everywhere: one plain line starting
``record:``, as for a file that is not JSON, then the record's own problems if
the attachment is there but wrong.

A PDF is hostile input, and pypdf's limits are per stream, not per file: 862
attachments of 2 MB each fit in a 2 MB upload (1.7 GB inflated, which the server
process never gave back). So the work of reading one is bounded as a whole:

- here, by counting: at most ``MAX_ATTACHMENTS`` entries of its attachment list
  are looked at, and only one attachment, the ``session.json`` or ``night.json``, is ever inflated
  (no stream past ``MAX_RECORD_BYTES``); a PDF listing more, or carrying two of
  them, is refused without inflating any;
- and, for the web import, by the operating system: ``read_isolated`` reads the
  PDF in a child process (forked from a small server process that has pypdf
  loaded, so it starts in milliseconds) under an address-space limit
  (``READ_MEMORY`` more than it starts with), a CPU limit (``READ_CPU_SECONDS``)
  and a deadline (``READ_DEADLINE``), at a lower CPU priority, one at a time per
  server process. Whatever pypdf does with a file, the server's own process only
  ever holds the upload and the record, and the child's memory goes back to the
  system when it exits.

Anything it cannot read becomes one such line, never a traceback. The PDF
itself is only as large as the web app accepts an upload (2 MB).
"""

from __future__ import annotations

import io
import itertools
import os
import resource
import threading

from ..limits import MAX_RECORD_BYTES  # as for a JSON upload; a 1000-hand record is ~0.5 MB
from ..rules import InvalidRecord
from ..rules.record import parse, validate

ATTACHMENT = "session.json"
NIGHT_ATTACHMENT = "night.json"  # a club night's sheet carries the whole night (gleek-night/1)
RECORDS = (ATTACHMENT, NIGHT_ATTACHMENT)
MAX_ATTACHMENTS = 16  # entries of a PDF's attachment list looked at (a sheet has one)
READ_MEMORY = 48 * 1024 * 1024  # bytes of address space the reading process may add to its own
READ_CPU_SECONDS = 1  # of CPU for reading one PDF (a 1,000-hand sheet takes ~0.05 s)
READ_DEADLINE = 5.0  # seconds of wall time (the CPU limit, with room for a busy machine)
READ_WAIT = 2.0  # seconds a request waits for this process's one reader to be free
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


def parsed_upload(data: bytes | str, isolated: bool = False):
    """The JSON an uploaded JSON or PDF file holds, parsed but not checked: a session's
    record or a club night's (``InvalidRecord`` if there is no JSON). ``isolated``: a
    PDF is read in a child process under limits (``read_isolated``; the web import),
    not in this one (the command line, a process of its own)."""
    if isolated and not isinstance(data, str) and is_pdf(data):
        return parse(read_isolated(data))
    return parse(record_text(data))


def load_upload(data: bytes | str, isolated: bool = False) -> dict:
    """The valid session record in an uploaded JSON or PDF file (``InvalidRecord`` otherwise)."""
    return checked_record(parsed_upload(data, isolated))


def checked_record(record) -> dict:
    """``record`` if it is a valid session record, else ``InvalidRecord`` with its problems."""
    problems = validate(record)
    if problems:
        raise InvalidRecord(problems)
    return record


def pdf_attachment(data: bytes) -> bytes:
    import logging  # here, not at the top: ``settle FILE.json`` never reads a PDF

    import pypdf  # ~190 ms: only where a PDF is read (the reader's forkserver preloads it)
    from pypdf import apply_configuration  # (pypdf, as above)

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
                refuse(
                    "record: this PDF is encrypted, so its session record cannot be read; "
                    "print the sheet again from the scorekeeper"
                )
            # The list is read lazily: each entry is resolved as it is reached, and
            # nothing is inflated until ``.content``. Stop one past the bound.
            listed = list(itertools.islice(reader.attachment_list, MAX_ATTACHMENTS + 1))
            if len(listed) > MAX_ATTACHMENTS:
                refuse(
                    f"record: this PDF has more than {MAX_ATTACHMENTS} attachments (a score sheet printed "
                    f"by the scorekeeper has one, {ATTACHMENT}); it was not read"
                )
            found = [entry for entry in listed if entry.name in RECORDS]
            if len(found) > 1:
                kinds = {entry.name for entry in found}
                refuse(
                    f"record: this PDF carries {len(found)} {found[0].name} attachments; it is not one "
                    f"{'session' if found[0].name == ATTACHMENT else 'club night'}'s sheet"
                    if len(kinds) == 1
                    else f"record: this PDF carries both {ATTACHMENT} and {NIGHT_ATTACHMENT}; it is not one "
                    "session's sheet nor one club night's"
                )
            contents = {entry.content for entry in found}  # at most one stream inflated
    except (InvalidRecord, MemoryError):  # MemoryError: past the reading process's limit (read_isolated)
        raise
    except pypdf.errors.LimitReachedError:
        refuse(f"record: the session record in this PDF is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB")
    except Exception:  # a damaged or hostile file: pypdf raises many kinds of error
        refuse("record: this file starts like a PDF but cannot be read (damaged, or not a PDF)")
    if not contents:
        refuse(
            f"record: this PDF carries no session record (a score sheet printed by the "
            f"scorekeeper has one attached, named {ATTACHMENT}; a club night's sheet, {NIGHT_ATTACHMENT}); "
            "import the session's JSON export instead"
        )
    text = contents.pop()
    if len(text) > MAX_RECORD_BYTES:
        refuse(f"record: the session record in this PDF is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB")
    return text


# ---------------------------------------------------------------- reading a PDF in a child process


class ReaderBusy(Exception):
    """This server process's PDF reader stayed taken for ``READ_WAIT`` s: try again soon."""

    retry_after = 5


_reader = threading.Semaphore(1)  # one PDF read at a time per server process
_context = []  # the forkserver context, made on first use


def _forkserver():
    """A small server process (started on first use) that has pypdf and this module
    loaded; each read is a fork of it, not of the web server (whose threads and
    SQLite connections a fork would copy mid-use)."""
    if not _context:
        import multiprocessing  # ~12 ms: not for settle's start (settle imports this module)

        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["pypdf", "scorekeeper.files.upload"])
        _context.append(context)
    return _context[0]


def _address_space() -> int:
    """This process's virtual memory size in bytes (Linux), 0 if unknown."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _read_in_child(conn, memory: int, cpu_seconds: int) -> None:
    """In the child: limits first, then read the PDF the parent sends, answer, exit."""
    try:
        os.nice(10)  # the server's requests come first
    except OSError:
        pass
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    start = _address_space()
    if start:
        resource.setrlimit(resource.RLIMIT_AS, (start + memory, start + memory))
    try:
        data = conn.recv_bytes(MAX_RECORD_BYTES + 1024 * 1024)
        answer = ("ok", pdf_attachment(data))
    except InvalidRecord as refused:
        answer = ("refused", [str(p) for p in refused.problems])
    except MemoryError:
        answer = ("too much", None)
    conn.send(answer)
    conn.close()


def read_isolated(
    data: bytes, memory: int | None = None, cpu_seconds: int | None = None, deadline: float | None = None
) -> bytes:
    """``pdf_attachment(data)``, computed in a child process under limits (see the
    module's docstring). A PDF that needs more than they allow is refused with one
    line; ``ReaderBusy`` if this process's reader stays taken."""
    memory = READ_MEMORY if memory is None else memory
    cpu_seconds = READ_CPU_SECONDS if cpu_seconds is None else cpu_seconds
    deadline = READ_DEADLINE if deadline is None else deadline
    if not _reader.acquire(timeout=READ_WAIT):
        raise ReaderBusy()
    try:
        context = _forkserver()
        ours, theirs = context.Pipe()
        child = context.Process(target=_read_in_child, args=(theirs, memory, cpu_seconds), daemon=True)
        child.start()
        theirs.close()
        kind, value = "died", None
        try:
            ours.send_bytes(data)
            if ours.poll(deadline):
                kind, value = ours.recv()
            else:
                kind = "too slow"
        except (EOFError, OSError):
            pass  # the child was stopped by a limit (CPU: SIGXCPU) before it answered
        finally:
            if child.is_alive():
                child.kill()
            child.join(timeout=5)
            ours.close()
    finally:
        _reader.release()
    if kind == "ok":
        return value
    if kind == "refused":
        raise InvalidRecord(value)
    refuse(
        f"record: reading this PDF takes more work than reading a score sheet does "
        f"(more than {memory // (1024 * 1024)} MB or {cpu_seconds} s); it was not read"
    )
