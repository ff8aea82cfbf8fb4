"""The journal: every input the table received, written twice before its effect is shown.

Every record (a series begun, an input accepted, refused or ignored, a series finished) is one
link of a **hash chain**: its SHA-256 covers its sequence number, its whole content and the
previous record's hash. It is written to two independent places:

- ``journal.sqlite``: SQLite in WAL mode with ``synchronous=FULL`` (the record's payload and
  hash; read back in sequence order by the table itself, never through an index), and
- ``journal.sqlite.copy``: an append-only text file, one record per line with a CRC-32 of the
  line, fsync'd like the database.

Opening verifies both from the first record to the last. Any damage (a torn or truncated file, a
flipped bit in a row, an index, a WAL frame or a line, a foreign or empty file) ends a chain
where it is; the longer verified prefix of the two wins, the other is rebuilt from it, and a
file that was damaged is kept aside (``.damaged-<time>``), never overwritten. What was lost is
said in :attr:`Journal.problems` and :attr:`Journal.recovery`. Reading is bounded: a damaged
database cannot make opening hang (SQLite's progress handler stops a scan that has verified no
new record for :data:`READ_STALL_S`, and the integrity check after an allowance that grows with
the file), while a large healthy journal on a slow card takes as long as it takes.

**The format** (:data:`SCHEMA_VERSION`) is in the database's header (``application_id``
"SkT3") and in the first record (``{"id", "schema"}``). A journal of a newer format is refused
(:class:`JournalTooNew`) and left exactly as it is; a record kind or an input this version
cannot read, in a journal of this format, is damage like any other (the chain ends before it).
Format 2 (no checkpoints) is read as it is and written on in format 3. Format 1 (the first
controller's tables ``meta``, ``series``, ``inputs``: no chain, no copy) is converted on
opening, the old file kept as ``<path>.format1-<UTC time>``.

**A series of any length**: the live table writes a checkpoint before each deal's first input
(:meth:`Journal.checkpoint`); resuming starts a few deals back (:meth:`Journal.resume_point`),
and memory holds only the last deals' inputs (:data:`TAIL_DEALS`); older ones are read again
from the database when asked for (:meth:`Journal.iter_entries`).

**Loss reports** (``notice`` records, not tied to a series) stay open until a ``confirm``
record names them: :meth:`Journal.add_notice`, :meth:`Journal.confirm_notice`,
:meth:`Journal.open_notices`. A repair owes one: its facts go to ``<path>.notices`` before the
repair begins and leave it when the notice is written (:meth:`Journal.owed_notices`), so a power
cut in between loses neither.

One process at a time: :meth:`Journal.open` takes an exclusive ``flock`` on
``journal.sqlite.lock`` and refuses a second writer (:class:`JournalLocked`).

The **outbox** (docs/club-link.md): :meth:`Journal.append` takes ``outbox=[OutboxItem(...)]``
with the input that finished a game; the items are part of that very record (same SQLite
transaction, same hash, same line of the copy) and are listed in the ``outbox`` table.
:func:`read_outbox` reads them from another process while the table runs (a read-only WAL
reader; it never takes the lock) and verifies each against its record's hash.

>>> j = Journal.open(":memory:")
>>> sid = j.start_series({"players": ["A", "B", "C"]})
>>> j.append(sid, {"seat": 0, "press": "pass"}, "refused", line=1, reason="not now")
>>> [(e.line, e.status, e.reason) for e in j.entries(sid)]
[(1, 'refused', 'not now')]
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import itertools
import json
import os
import re
import sqlite3
import stat
import time
import uuid
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 3
# Formats whose records this version reads as they are: a format 2 journal is opened, and its
# header names format 3 from the first write on (its records stay as they are).
READABLE_FORMATS = frozenset({2, 3})
APPLICATION_ID = 0x536B5433  # "SkT3" in the SQLite header: our file, this format
# "SkT" and the format's digit: a later format changes only the digit, so a newer file is told
# from a foreign one (see _format_of).
APPLICATION_FAMILY = 0x536B5400
# The record kinds this version reads; any other, in a journal of this format, is damage.
KINDS = frozenset({"journal", "series", "input", "finish", "lost", "checkpoint", "notice",
                   "confirm"})
# "released": a series' last game sent to the club unconfirmed (Session.release_unconfirmed)
INPUT_STATUSES = frozenset({"accepted", "refused", "ignored", "prompt", "restart", "declined",
                            "released"})
GENESIS = hashlib.sha256(b"skat-table journal v2").digest()
# A bounded table's series (see Journal.checkpoint): resuming starts at the checkpoint this
# many deals before the last one written, and the input records before the checkpoint
# TAIL_DEALS before the last are let go from memory (read from the database when asked for).
RESUME_BACK = 4
TAIL_DEALS = 6
MAX_LOST_FILL = 100_000  # numbers of lost records kept unused after a recovery, at most
# A hang, not a large journal: reading stops when no new record verified for this long (a
# damaged b-tree can send a scan round in circles), and SQLite's integrity check, which visits each
# page once, gets this plus the file's size read at a slow SD card's pace.
READ_STALL_S = 20.0
READ_CHECK_BYTES_PER_S = 2_000_000
COPY_SUFFIX = ".copy"
LOCK_SUFFIX = ".lock"
# Journal.check_storage: a file this big is written, synced and removed beside the journal to
# see whether the storage takes writes again (a record takes a page or two of the WAL).
PROBE_SUFFIX = ".probe"
PROBE_BYTES = 65536
OPENED_READ_ONLY = "this journal was opened read-only"  # what writing to one says
# The facts of a repair whose notice is not in the chain yet (see Journal.owed_notices).
NOTICES_SUFFIX = ".notices"
_SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY,
    payload BLOB NOT NULL,
    hash BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER NOT NULL,
    n INTEGER NOT NULL,
    series INTEGER NOT NULL,
    game INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    PRIMARY KEY (seq, n)
) WITHOUT ROWID;
"""


class JournalError(Exception):
    """The journal cannot be opened or written; the message says what the players should know."""


class StorageError(JournalError):
    """The storage under the journal does not take a write: ``kind`` is ``"full"``,
    ``"read-only"`` (a read-only file system, no permission, or a journal opened read-only) or
    ``"failing"`` (an I/O error). Nothing of the record was taken into the chain: see
    :meth:`Journal.append`."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


class JournalLocked(JournalError):
    """Another process has the journal open (the service, or a second ``skat-table run``)."""


class JournalTooNew(JournalError):
    """The journal was written by a newer skat-table: it is refused and left as it is."""

    def __init__(self, path: str, version: int) -> None:
        self.version = version
        super().__init__(
            f"the journal {path} was written by a newer skat-table (journal format {version}); "
            f"this program reads format {SCHEMA_VERSION} and older: update skat-table to go on "
            "with it (the journal is left as it is)")


class SeriesMismatch(JournalError):
    """The journal's series was played with another configuration or another script."""


@dataclass(frozen=True)
class Entry:
    """One journalled input."""

    seq: int
    series: int
    line: int | None
    source: str
    input: dict[str, Any]
    status: str
    reason: str | None
    at: float


@dataclass(frozen=True)
class SeriesMark:
    """A series and where it lies in the chain: its config fingerprint and identity, whether
    it is finished, its first record (the ``series`` record) and its last record of any kind
    with that record's hash. The hash names everything the series is: a series that got one
    more record (an undo after its end) has another mark."""

    series: int
    config: dict[str, Any]
    identity: dict[str, Any]
    finished: bool
    first: int
    last: int
    last_hash: bytes


@dataclass(frozen=True)
class OutboxItem:
    """A finished game for the club (docs/club-link.md): ``revision`` counts from 1 and grows
    when an undo reopened the game and it finished again; ``payload`` is JSON-able."""

    game: int
    revision: int
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class OutboxRow:
    """An outbox item as :func:`read_outbox` returns it: ``seq`` is the journal record that
    holds it (ascending; pass the last one delivered as ``after_seq``), ``n`` its index there."""

    seq: int
    n: int
    series: int
    game: int
    revision: int
    payload: dict[str, Any]


class Record:
    """One link of the chain: ``kind`` is ``journal``, ``series``, ``input``, ``finish``.

    Verifying the chain reads the sequence number, kind and series without a JSON parse;
    opening also parses each input once to check this version can read it (``_check``), but
    keeps no parsed body: a year of play is held as bytes, parsed again when asked for.
    """

    __slots__ = ("_body", "hash", "kind", "payload", "seq", "series")

    def __init__(self, seq: int, kind: str, series: int, payload: bytes, digest: bytes,
                 body: dict[str, Any] | None = None) -> None:
        self.seq, self.kind, self.series = seq, kind, series
        self.payload, self.hash = payload, digest
        self._body = body

    @property
    def body(self) -> dict[str, Any]:
        if self._body is None:
            self._body = self.parsed()[3]
        return self._body

    def parsed(self) -> list[Any]:
        got = json.loads(self.payload)
        if not isinstance(got, list) or len(got) != 5 or not isinstance(got[3], dict):
            raise ValueError(f"record #{self.seq} is not a journal record")
        return got

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and (self.hash, self.payload) == (other.hash,
                                                                             other.payload)

    def __hash__(self) -> int:
        return hash(self.hash)


@dataclass
class Recovery:
    """What opening found and did: ``kept`` records restored, ``lost`` records known to have
    been there and not recoverable (None: unknown), files ``aside``, ``details`` in words."""

    kept: int = 0
    lost: int | None = 0
    aside: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    damaged: bool = False
    # No lost record was seen, but "nothing was lost" cannot be proven: "missing" (a file that
    # is missing or empty could have held later records), "unreadable" (a file that could not
    # be read to its end). None: both files are accounted for to their last record.
    unproven: str | None = None
    # Which repair this is: its notice names it (Journal.owed_notices), so that a notice is
    # written once, also when a power cut comes between the repair and the notice.
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    converted: bool = False  # a format 1 journal converted (a loss report only if it lost)


def _unproven(db: _Read, cp: _Read) -> str | None:
    """Why "nothing was lost" cannot be said of a repair that saw no lost record (see
    :attr:`Recovery.unproven`). Proof is both files read to their ends: each verified, or
    damaged with every row or line after the break counted; a missing or empty file proves
    nothing unless the other is missing or empty too (a journal that never held a record)."""
    nothing = {"missing", "empty"}
    if (db.state in nothing) != (cp.state in nothing):
        return "missing"
    if not (db.complete and cp.complete):
        return "unreadable"
    return None


def _damage_line(rec: Recovery, kept: int) -> str:
    lost = ("; later records may have been lost" if rec.lost is None else
            f"; {rec.lost} record(s) after it could not be recovered" if rec.lost else
            "; the other copy is missing: later records may have been lost"
            if rec.unproven == "missing" else
            "; the other copy cannot be read: later records may have been lost"
            if rec.unproven == "unreadable" else "")
    aside = f"; kept aside: {', '.join(rec.aside)}" if rec.aside else ""
    return f"{'; '.join(rec.details)}: {kept} record(s) verified and restored{lost}{aside}"


def _encode(seq: int, kind: str, series: int, body: Mapping[str, Any], at: float) -> bytes:
    # ASCII JSON: a lone surrogate or any other odd text survives as an escape, and a flipped
    # bit can never make a column undecodable: it only makes the hash disagree.
    return json.dumps([seq, kind, series, body, at], ensure_ascii=True, sort_keys=True,
                      separators=(",", ":")).encode("ascii")


def _link(prev: bytes, payload: bytes) -> bytes:
    return hashlib.sha256(prev + payload).digest()


def _decode(payload: bytes, digest: bytes, prev: bytes, seq: int) -> Record:
    """The record if ``payload`` is the next link after ``prev`` at ``seq``; ValueError if not."""
    if _link(prev, payload) != digest:
        raise ValueError(f"record #{seq} does not match its hash")
    # The hash holds, so the payload is one we wrote: its head is read without a JSON parse.
    head = b'[%d,"' % seq
    if not payload.startswith(head):
        raise ValueError(f"record #{seq} is out of sequence")
    try:
        quote = payload.index(b'"', len(head))
        comma = payload.index(b",", quote + 2)
        kind = payload[len(head):quote].decode("ascii")
        series = int(payload[quote + 2:comma])
    except (ValueError, UnicodeDecodeError):
        raise ValueError(f"record #{seq} is not a journal record") from None
    if kind not in KINDS:  # written by a program that knows more: this one cannot go past it
        raise ValueError(f"record #{seq} is of a kind this version does not know ({kind!r})")
    return Record(seq, kind, series, payload, digest)


def _check(rec: Record, path: str) -> None:
    """What the hash cannot say: that this version can read the record. ValueError if not
    (damage: the chain ends before it); :class:`JournalTooNew` if the journal's own first
    record names a newer format."""
    if rec.seq == 1:
        body = rec.parsed()[3]
        schema = body.get("schema") if rec.kind == "journal" else None
        if isinstance(schema, int) and not isinstance(schema, bool) and (
                schema > SCHEMA_VERSION):
            raise JournalTooNew(path, schema)
        if schema not in READABLE_FORMATS:
            raise ValueError(f"record #1 does not name journal format {SCHEMA_VERSION} "
                             f"({rec.kind} {schema!r})")
    elif rec.kind == "input" and not _plainly_readable(rec.payload):
        # Parsed here and not kept: the journal holds a year of play, the session re-parses
        # only the series it resumes.
        problem = _input_problem(rec.parsed()[3])
        if problem:
            raise ValueError(f"record #{rec.seq} holds an input this version cannot read "
                             f"({problem})")


# The inputs a table journals most (a card laid or gone, a press, the computer's card to lay),
# in the exact bytes this module writes them: such a record is one this version can read
# without parsing it (opening checks each of a year's records). The group says which: a prompt
# is only readable as a prompt, the others only with the statuses of a handled input.
_PLAIN_INPUT = re.compile(
    rb'\[[0-9]+,"input",[0-9]+,\{"input":\{(?:'
    rb'(?:"gone":(?:true|false),)?"tag":"[0-9a-f]{2,40}",'
    rb'"zone":"(?:deal|centre|skat|seat[0-3])"'
    rb'|"press":"(?:bid|yes|pass|skat|undo|concede|kontra|re|agree|disagree|enforce|play-on)",'
    rb'"seat":[0-3]'
    rb'|(?P<prompt>"prompt":"[CSHD][789TJQKA]","seat":[0-3]))\},'
    rb'"line":(?:null|-?[0-9]{1,18}),"reason":(?:null|"(?:[^"\\]|\\.)*"),'
    rb'"source":"(?:[^"\\]|\\.)*","status":"(?P<status>accepted|refused|ignored|prompt)"\},'
    rb'[-+0-9.eE]{1,40}\]')


def _plainly_readable(payload: bytes) -> bool:
    """Whether ``payload`` is one of the common inputs this version reads (see
    :data:`_PLAIN_INPUT`); False says nothing (the record is then parsed)."""
    m = _PLAIN_INPUT.fullmatch(payload)
    return m is not None and (m["prompt"] is not None) == (m["status"] == b"prompt")


@functools.cache
def _table_inputs() -> tuple[Any, Any]:
    """The table's input parser and the card parser: imported when first needed (the journal
    itself knows no rules) and once, as opening checks every input."""
    from engine.cards import Card
    from firmware_host.table.inputs import from_json

    return from_json, Card.parse


def _input_problem(body: Mapping[str, Any]) -> str | None:
    """Why the session could not replay this journalled input, or None (see Session.resume)."""
    from_json, parse_card = _table_inputs()
    inp, status = body.get("input"), body.get("status")
    if not isinstance(inp, dict):
        return "it holds no input"
    if status not in INPUT_STATUSES:
        return f"status {status!r}"
    try:
        if status == "prompt":
            if not isinstance(inp.get("seat"), int):
                return "a prompt without a seat"
            parse_card(inp["prompt"])
        elif status == "declined":
            missing = {"deal", "position", "level", "contract"} - set(inp)
            if missing:
                return f"a refusal without {', '.join(sorted(missing))}"
        elif status == "released":
            if not isinstance(inp.get("release"), int):
                return "a released game without its number"
        elif status != "restart" and "raw" not in inp:
            from_json(inp)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # ScriptError, CardError
        return str(exc)
    return None


def _copy_line(rec: Record) -> bytes:
    text = rec.hash.hex().encode("ascii") + b" " + rec.payload
    return b"%08x " % zlib.crc32(text) + text + b"\n"


def _describe(exc: BaseException) -> str:
    text = str(exc).lower()
    if "full" in text or getattr(exc, "errno", None) == 28:
        return "the storage is full"
    if ("readonly" in text or "read-only" in text or "permission" in text
            or getattr(exc, "errno", None) in (13, 30)):
        return "the storage is read-only"
    return f"the journal cannot be written ({exc})"


_FULL_WORDS = ("the storage is full", "database or disk is full", "no space left")
_READ_ONLY_WORDS = ("the storage is read-only", "readonly database", "read-only file system",
                    "permission denied", "opened read-only")


def storage_kind(exc: BaseException, path: str | None = None) -> str:
    """What an error says of the storage: ``"full"``, ``"read-only"`` or ``"failing"``.

    From the error itself (its ``kind``, errno, SQLite error name, or the words
    :func:`_describe` and SQLite use), else from the file system under ``path`` (mounted
    read-only, no free block): SQLite reports some of those as a plain I/O error.

    >>> storage_kind(OSError(28, "No space left on device"))
    'full'
    >>> storage_kind(JournalError("cannot open the journal j: the storage is read-only"))
    'read-only'
    >>> storage_kind(OSError(5, "Input/output error"))
    'failing'
    """
    kind = getattr(exc, "kind", None)
    if kind in ("full", "read-only", "failing"):
        return str(kind)
    errno_ = getattr(exc, "errno", None)
    name = str(getattr(exc, "sqlite_errorname", ""))
    text = str(exc).lower()
    if errno_ == 28 or name.startswith("SQLITE_FULL") or any(w in text for w in _FULL_WORDS):
        return "full"
    if errno_ in (1, 13, 30) or name.startswith(("SQLITE_READONLY", "SQLITE_PERM")) or any(
            w in text for w in _READ_ONLY_WORDS):
        return "read-only"
    if path and path != ":memory:":
        try:
            fs = os.statvfs(os.path.dirname(os.path.abspath(path)))
        except OSError:
            return "failing"
        if fs.f_flag & os.ST_RDONLY:
            return "read-only"
        if fs.f_bavail == 0:
            return "full"
    return "failing"


def _storage_error(exc: BaseException, path: str, prefix: str = "") -> StorageError:
    return StorageError(prefix + _describe(exc), storage_kind(exc, path))


# ---- reading the two copies ------------------------------------------------------------------


@dataclass
class _Read:
    """What reading one file found. The streaming readers (:func:`_db_records`,
    :func:`_copy_records`) yield the verified records and keep only their count here;
    ``records`` holds them where a caller asked for the list (format 1, tests)."""

    records: list[Record]
    state: str  # "ok", "missing", "empty", "damaged"
    detail: str = ""
    seen: int = 0  # the highest sequence number there is evidence of
    good_bytes: int = 0  # the copy: bytes of verified lines
    unknown: int = 0  # the copy: lines after its break that are not records (noise, cut)
    # Every row or line was seen (verified, or counted as a lost record): the file cannot have
    # held a record that is not in ``seen``. False when part of it could not be read at all.
    complete: bool = True
    count: int = 0  # the verified records (streamed)

    def __post_init__(self) -> None:
        self.count = self.count or len(self.records)


def _drain(stream: Generator[Record, None, _Read]) -> _Read:
    """A streaming reader's records as a list, with what it found."""
    records = []
    while True:
        try:
            records.append(next(stream))
        except StopIteration as done:
            got: _Read = done.value
            if got.state != "format1":
                got.records = records
            return got


def _read_db(path: str) -> _Read:
    """Every record of the database that verifies, in a list (see :func:`_db_records`)."""
    return _drain(_db_records(path))


def _db_records(path: str) -> Generator[Record, None, _Read]:
    """Every record of the database that verifies, in sequence order, without an index:
    yielded one by one (a year of play is not held in memory); what the file holds besides
    is returned at the end.

    A database of format 1 comes back converted (state ``format1``, its records in the list,
    see :func:`_read_format1`); one of a newer format raises :class:`JournalTooNew` and is not
    touched.
    """
    if not os.path.lexists(path):
        return _Read([], "missing")
    if not _regular(path):
        return _Read([], "damaged", "it is not a regular file", complete=False)
    if os.path.getsize(path) == 0 and not os.path.exists(path + "-wal"):
        return _Read([], "empty")
    with open(path, "rb") as f:
        head = f.read(100)
    if not head.startswith(b"SQLite format 3\x00"):
        return _Read([], "damaged", "it is not a SQLite database (its header is damaged)",
                     complete=False)
    count = 0
    first: Record | None = None
    seen = 0  # rows after the first that does not verify
    deadline = [time.monotonic() + READ_STALL_S]  # moved on by every record verified
    conn = None
    detail = ""
    complete = True
    newer: int | None = None  # the format the header names, when newer than this one
    try:
        conn = sqlite3.connect(_read_uri(path), uri=True, timeout=5, check_same_thread=False)
        conn.text_factory = bytes
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline[0]), 10_000)
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        if app != APPLICATION_ID:
            version = _format_of(conn, app)
            if version == 1:
                conn.close()
                conn = None
                return _read_format1(path)
            if version is None or (version < SCHEMA_VERSION
                                    and version not in READABLE_FORMATS):
                raise ValueError("it is not a skat-table journal of this version")
            if version > SCHEMA_VERSION:
                newer = version
        prev = GENESIS
        for _seq, payload, digest in conn.execute(
                "SELECT seq, payload, hash FROM records ORDER BY seq"):
            if detail:
                seen += 1  # past a break only count what was there (never trust its numbers)
                continue
            try:
                rec = _decode(bytes(payload), bytes(digest), prev, count + 1)
                _check(rec, path)
            except (ValueError, TypeError) as exc:
                detail = str(exc)
                seen += 1
                continue
            count += 1
            first = first or rec
            yield rec
            prev = rec.hash
            # a new verified record is progress; rows past a break are not (a damaged b-tree
            # can hand the same rows round forever), so they stop at the limit
            deadline[0] = time.monotonic() + READ_STALL_S
        # Rows SQLite could not reach are not in ``seen``: only a clean check proves the scan
        # saw every row.
        deadline[0] = time.monotonic() + _check_allowance(path)
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check not in (b"ok", "ok"):
            complete = False
            detail = detail or f"SQLite finds it damaged ({_text(check)})"
    except (sqlite3.Error, ValueError, OverflowError, MemoryError) as exc:
        text = _text(str(exc))
        if "interrupted" in text:
            text = f"reading it stalled for {READ_STALL_S:g} s"
        detail = detail or text
        complete = False
    finally:
        if conn is not None:
            conn.close()
    if newer is not None:
        if first is None:  # nothing of this format in it: a newer program's file
            raise JournalTooNew(path, newer)
        # Its records are of this format: the header's digit is a flipped bit, not a version.
        detail = detail or (f"its header names journal format {newer}, its records format "
                            f"{first.parsed()[3].get('schema')}")
    return _Read([], "damaged" if detail else "ok", detail, count + seen, complete=complete,
                 count=count)


def _read_uri(path: str) -> str:
    """How the database is opened for reading. On a read-only file system SQLite cannot make
    the ``-shm`` a WAL database needs: with neither ``-wal`` nor ``-shm`` there (no process has
    it open, nothing waits in a WAL), the file is read as it is (``immutable``), so the journal
    of a table whose storage turned read-only still reads whole (Session.journal_path)."""
    if os.access(os.path.dirname(os.path.abspath(path)), os.W_OK) or any(
            os.path.lexists(path + s) for s in ("-wal", "-shm")):
        return f"file:{path}?mode=ro"
    return f"file:{path}?mode=ro&immutable=1"


def _format_of(conn: sqlite3.Connection, app: int) -> int | None:
    """The journal format a database that is not of this one says it has, or None (foreign):
    "SkT<digit>" in its header, or (format 1, which had no header mark) its ``meta`` table."""
    if app & 0xFFFFFF00 == APPLICATION_FAMILY and 0x30 <= app & 0xFF <= 0x39:
        return (app & 0xFF) - 0x30
    if app != 0:
        return None
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.Error:
        return None
    text = _text(row[0]).strip() if row else ""
    return int(text) if text.isdigit() and len(text) < 4 else None


def _crc_format1(seq: int, series: int, line: int | None, source: str, text: str, status: str,
                 reason: str | None) -> int:
    blob = f"{seq}\x1f{series}\x1f{line}\x1f{source}\x1f{text}\x1f{status}\x1f{reason}"
    return zlib.crc32(blob.encode("utf-8"))


def _check_allowance(path: str) -> float:
    """How long a pass over the whole database may take before it counts as a hang."""
    size = sum(os.path.getsize(p) for p in (path, path + "-wal") if os.path.exists(p))
    return READ_STALL_S + size / READ_CHECK_BYTES_PER_S


def _read_format1(path: str) -> _Read:
    """A format 1 journal (the first controller's: tables ``meta``, ``series`` and ``inputs``
    with a CRC per row, no chain, no copy) as the chain of this format it becomes.

    Rows are taken as that code took them: in sequence, up to the first whose CRC does not
    match or that is out of sequence; the rows from there on are counted as lost (``seen``).
    A series' identity was not kept then: rows with script lines were a replay's, the others
    the live table's.
    """
    deadline = time.monotonic() + _check_allowance(path)  # read whole: the file's allowance
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return _Read([], "damaged", f"it cannot be read ({exc})", complete=False)
    try:
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        series = conn.execute(
            "SELECT id, started, config, finished FROM series ORDER BY id").fetchall()
        rows = conn.execute("SELECT seq, series, line, source, input, status, reason, at, crc "
                            "FROM inputs ORDER BY seq").fetchall()
    except sqlite3.Error as exc:
        return _Read([], "damaged", f"its format 1 tables cannot be read ({exc})",
                     complete=False)
    finally:
        conn.close()
    good: list[tuple[Any, ...]] = []
    detail = ""
    for row in rows:
        seq, sid, line, source, text, status, reason, _at, crc = row
        if seq != len(good) + 1 or crc != _crc_format1(seq, sid, line, source, text, status,
                                                       reason):
            detail = f"its row #{len(good) + 1} does not match its CRC or is out of sequence"
            break
        good.append(row)
    records: list[Record] = []

    def add(kind: str, sid: int, body: dict[str, Any], at: float) -> None:
        prev = records[-1].hash if records else GENESIS
        payload = _encode(len(records) + 1, kind, sid, body, float(at))
        records.append(Record(len(records) + 1, kind, sid, payload, _link(prev, payload)))

    first = min([float(r[1]) for r in series] or [time.time()])
    # The same file converts to the same chain, so that a conversion cut short by a power cut
    # (the new copy written, the old file still in place) is met by an equal copy next time.
    made_from = hashlib.sha256(repr((series, rows[:1], rows[-1:], len(rows))).encode())
    journal_id = uuid.UUID(bytes=made_from.digest()[:16]).hex
    add("journal", 0, {"id": journal_id, "schema": SCHEMA_VERSION, "converted_from": 1},
        first)
    by_series: dict[int, list[tuple[Any, ...]]] = {}
    for row in good:
        by_series.setdefault(int(row[1]), []).append(row)
    taken = 0
    try:
        for sid, started, config, finished in series:
            its = by_series.get(int(sid), [])
            identity = ({"script": "replay"} if any(r[2] is not None for r in its)
                        else {"table": "live"})
            add("series", int(sid), {"config": json.loads(config), "identity": identity},
                started)
            for _seq, _sid, line, source, text, status, reason, at, _crc in its:
                add("input", int(sid), {"input": json.loads(text), "status": status,
                                        "line": line, "source": source, "reason": reason}, at)
                _check(records[-1], path)
                taken += 1
            if finished:
                add("finish", int(sid), {}, its[-1][7] if its else started)
    except (ValueError, TypeError) as exc:  # a row this version cannot read: damage
        detail = detail or str(exc)
        records.pop()
    lost = len(rows) - taken
    return _Read(records, "format1", detail, len(records) + lost)


_RECORD_LINE = re.compile(rb"[0-9a-f]{8} [0-9a-f]{64} \[[0-9]+,")
_RECORD_HEAD = re.compile(rb"[0-9a-f]{8}( |$)")


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _read_copy(path: str) -> _Read:
    """Every line of the second copy that verifies, in a list (see :func:`_copy_records`)."""
    return _drain(_copy_records(path))


def _copy_records(path: str,
                  known: Callable[[int], tuple[Record, bytes] | None] = lambda seq: None
                  ) -> Generator[Record, None, _Read]:
    """Every line of the second copy that verifies (CRC, hash chain, sequence), yielded one
    by one; what the file holds besides is returned at the end. ``known(seq)``: the
    database's record there and the hash before it, verified already; a line that is that
    record byte for byte, after the same hash, is that record (no second SHA-256)."""
    if not os.path.lexists(path):
        return _Read([], "missing")
    if not _regular(path):  # a directory, a device such as /dev/zero, a dangling link
        return _Read([], "damaged", "it is not a regular file", complete=False)
    try:
        f = open(path, "rb")  # noqa: SIM115 - read while the records are taken, closed below
    except FileNotFoundError:
        return _Read([], "missing")
    except OSError as exc:
        return _Read([], "damaged", f"it cannot be read ({exc.strerror or exc})",
                     complete=False)
    journal_path = path.removesuffix(COPY_SUFFIX)
    count = 0
    prev = GENESIS
    detail = ""
    lines = 0
    good = 0  # bytes of verified lines
    after = unknown = 0  # lines after the first that does not verify: records, other
    with f:
        try:
            for raw in f:
                if not raw.endswith(b"\n"):
                    detail = detail or "its last line is cut short (a torn write)"
                    shaped = bool(_RECORD_HEAD.match(raw[:80]))
                    after += shaped
                    unknown += not shaped
                    break
                lines += 1
                if detail:
                    shaped = bool(_RECORD_LINE.match(raw[:80]))
                    after += shaped
                    unknown += not shaped
                    continue
                line = raw[:-1]
                try:
                    crc, text = line.split(b" ", 1)
                    if len(crc) != 8 or int(crc, 16) != zlib.crc32(text):
                        raise ValueError(f"line {lines} does not match its CRC")
                    hexdigest, payload = text.split(b" ", 1)
                    digest = bytes.fromhex(hexdigest.decode("ascii"))
                    same = known(lines)
                    if (same is not None and same[0].hash == digest and same[1] == prev
                            and same[0].payload == payload):
                        rec = same[0]
                    else:
                        rec = _decode(payload, digest, prev, lines)
                        _check(rec, journal_path)
                except (ValueError, UnicodeDecodeError) as exc:
                    if lines == 1:
                        _refuse_newer_copy(line, journal_path)
                    detail = str(exc)
                    shaped = bool(_RECORD_LINE.match(raw[:80]))
                    after += shaped
                    unknown += not shaped
                    continue
                count += 1
                good += len(raw)
                yield rec
                prev = rec.hash
        except OSError as exc:
            detail = detail or f"it cannot be read ({exc.strerror or exc})"
            unknown += 1
    if not lines and not detail and not unknown and not after:
        return _Read([], "empty")
    return _Read([], "damaged" if detail else "ok", detail, count + after, good, unknown,
                 complete=not unknown, count=count)


def _refuse_newer_copy(line: bytes, path: str) -> None:
    """A first line whose CRC holds but whose chain this version cannot verify (a newer format
    may start its chain elsewhere): if it is a journal record naming a newer format, the copy
    is that format's, not damage."""
    try:
        crc, text = line.split(b" ", 1)
        if int(crc, 16) != zlib.crc32(text):
            return
        got = json.loads(text.split(b" ", 1)[1])
        schema = got[3]["schema"] if got[:3] == [1, "journal", 0] else None
    except (ValueError, IndexError, KeyError, TypeError):
        return
    if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA_VERSION:
        raise JournalTooNew(path, schema)


# ---- the journal -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Mark:
    """A record left in the database: its place, its hash and the hash before it (so that
    read again it is verified like at opening)."""

    seq: int
    hash: bytes
    prev: bytes


@dataclass
class _Series:
    config: dict[str, Any]
    identity: dict[str, Any]
    finished: bool = False
    # The input records held in memory: all of them, or (a series with checkpoints) those
    # from ``kept_from`` on; the others are read from the database when asked for.
    records: list[Record] = field(default_factory=list)
    entries: list[Entry] | None = None  # parsed from the records when first asked for
    kept_from: int = 0  # the sequence number from which on ``records`` holds every input
    last_line: int = 0
    # deal number -> the latest checkpoint record written at that deal's start: where it is
    # and its hashes (its payload is read again when resuming), or the record (read-only)
    checkpoints: dict[int, _Mark | Record] = field(default_factory=dict)
    last_checkpoint: int = 0  # the deal of the latest checkpoint record
    # Where the series lies in the chain: its ``series`` record, and its last record of any
    # kind with that record's hash (what a reader on another connection checks its own
    # reading against: read_series_entries).
    first_seq: int = 0
    last_seq: int = 0
    last_hash: bytes = b""

    def all_entries(self) -> list[Entry]:
        if self.entries is None:
            self.entries = [_entry(rec) for rec in self.records]
        return self.entries

    def checkpoint(self, rec: Record, prev: bytes, deal: int, keep_all: bool) -> None:
        self.checkpoints[deal] = rec if keep_all else _Mark(rec.seq, rec.hash, prev)
        self.last_checkpoint = deal
        far = self.checkpoints.get(deal - TAIL_DEALS)
        if keep_all or far is None or far.seq <= self.kept_from:
            return
        cut = 0
        while cut < len(self.records) and self.records[cut].seq < far.seq:
            cut += 1
        del self.records[:cut]
        if self.entries is not None:
            del self.entries[:cut]
        self.kept_from = far.seq


def _entry(rec: Record) -> Entry:
    _, _, series, body, at = rec.parsed()
    return Entry(rec.seq, series, body.get("line"), str(body.get("source", "table")),
                 body.get("input") or {}, str(body.get("status", "")), body.get("reason"),
                 float(at))


@dataclass
class _Notices:
    """The loss reports of the chain (kinds ``notice`` and ``confirm``) and the repairs whose
    notice is owed (see :meth:`Journal.owed_notices`)."""

    bodies: dict[int, dict[str, Any]] = field(default_factory=dict)  # every notice, by seq
    confirmed: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq -> its confirm
    owed: list[dict[str, Any]] = field(default_factory=list)

    def repairs(self) -> set[str]:
        """The repairs the chain already holds a notice of."""
        return {str(b["repair"]) for b in self.bodies.values() if b.get("repair")}


def _repair_facts(rec: Recovery) -> dict[str, Any]:
    """What a repair found, as its notice needs it (:meth:`Journal.owed_notices`)."""
    return {"repair": rec.id, "kept": rec.kept, "lost": rec.lost,
            "unproven": None if rec.lost else rec.unproven, "details": list(rec.details),
            "aside": list(rec.aside), "converted": rec.converted}


def _same_damage(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The same damage found again (an open whose repair failed, tried once more)."""
    keys = ("kept", "lost", "unproven", "details", "converted")
    return all(a.get(k) == b.get(k) for k in keys)


def _read_owed(path: str) -> tuple[list[dict[str, Any]], str | None]:
    """The owed repairs in ``path`` and, if it cannot be read, why (a CRC-checked line)."""
    try:
        with open(path, "rb") as f:
            data = f.read(1_000_000)
    except FileNotFoundError:
        return [], None
    except OSError as exc:
        return [], f"it cannot be read ({exc.strerror or exc})"
    head, _, text = data.rstrip(b"\n").partition(b" ")
    try:
        if head != b"%08x" % zlib.crc32(text):
            raise ValueError("its checksum does not match")
        owed = json.loads(text)["owed"]
        if not isinstance(owed, list) or not all(isinstance(o, dict) and o.get("repair")
                                                 for o in owed):
            raise ValueError("it holds no list of repairs")
    except (ValueError, KeyError, TypeError) as exc:
        return [], f"it is damaged ({exc})"
    return owed, None


def _write_owed(path: str, owed: Sequence[Mapping[str, Any]]) -> None:
    """Replace ``path`` by ``owed`` (none: remove it), durably: a new file synced, then moved
    in place, the directory synced."""
    if not owed:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
            _fsync_dir(path)
        return
    text = json.dumps({"owed": list(owed)}, ensure_ascii=True, sort_keys=True,
                      separators=(",", ":")).encode("ascii")
    tmp = path + ".new"
    with open(tmp, "wb") as f:
        f.write(b"%08x " % zlib.crc32(text) + text + b"\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path)


class Journal:
    """An open journal; see the module docstring."""

    def __init__(self, path: str, *, read_only: bool = False) -> None:
        """An empty view; :meth:`open` fills it from the files (see :meth:`_take`)."""
        self._conn: sqlite3.Connection = None  # type: ignore[assignment]
        self.path = path
        self.problems: list[str] = []
        self.recovery: Recovery | None = None
        self.read_only = read_only
        self.copy_fault: str | None = None  # the second copy could not be written
        self._copy_fd: int | None = None
        self._lock_fd: int | None = None
        self._copy_backlog: list[bytes] = []
        self._batch: list[bytes] | None = None
        self._series: dict[int, _Series] = {}
        self._revisions: dict[tuple[int, int], int] = {}
        self.journal_id = ""
        self._next_seq = 1
        self._last_hash = GENESIS
        self.opened_with = (0, GENESIS)
        self._notices = _Notices()

    @classmethod
    def _of(cls, conn: sqlite3.Connection, path: str, problems: list[str],
            records: Iterable[Record] = (), copy_fd: int | None = None,
            lock_fd: int | None = None, recovery: Recovery | None = None,
            read_only: bool = False, fill: int = 0) -> Journal:
        """A journal of ``records`` (a list: format 1, memory)."""
        journal = cls(path, read_only=read_only)
        for rec in records:
            journal._index(rec)
        return journal._take(conn, problems, copy_fd, lock_fd, recovery, fill)

    def _take(self, conn: sqlite3.Connection, problems: list[str], copy_fd: int | None = None,
              lock_fd: int | None = None, recovery: Recovery | None = None,
              fill: int = 0) -> Journal:
        """The records are indexed: take the files and say what opening found."""
        self._conn = conn
        self.problems = problems
        self.recovery = recovery
        self._copy_fd = copy_fd
        self._lock_fd = lock_fd
        # The verified chain opening found: (records, hash of the last); the corruption tests
        # compare it with the undamaged journal's chain.
        self.opened_with = (self._next_seq - 1, self._last_hash)
        if self._next_seq == 1 and not self.read_only:
            self._write_record("journal", 0, {"id": uuid.uuid4().hex, "schema": SCHEMA_VERSION},
                               durable=True)
        if fill and not self.read_only:
            # The lost records' numbers are not used again: whoever read them (the club link
            # acknowledges outbox items by number) must not mistake a new record for one of
            # them. One record per number lost, in one transaction.
            with contextlib.suppress(JournalError), self.batch():
                for _ in range(min(fill, MAX_LOST_FILL)):
                    self._write_record("lost", 0, {})
        return self

    # ---- opening and recovery --------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, *, read_only: bool = False) -> Journal:
        """Open (or create) a journal; raise :class:`JournalError` when that is impossible.

        ``read_only`` (export, a look at a running table's journal): no lock, no repair; what
        verifies is read and the problems are listed.
        """
        path = str(path)
        if path == ":memory:":
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            conn.executescript(_SCHEMA)
            return cls._of(conn, path, [])
        parent = Path(path).parent
        if not read_only:
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(f"cannot create the data directory {parent}: "
                                   f"{exc.strerror or exc}", storage_kind(exc, str(parent))
                                   ) from None
        if "\x00" in path:
            raise JournalError("the journal's path contains a NUL character")
        lock_fd = None if read_only else _lock(path)
        try:
            journal = cls._open_locked(path, lock_fd, read_only)
        except BaseException:
            if lock_fd is not None:
                os.close(lock_fd)
            raise
        journal._take_owed()
        return journal

    def _read_both(self, path: str, copy_path: str) -> tuple[_Read, _Read, int]:
        """Read the database and the copy side by side, record by record, and index the chain
        opening keeps: both agree, or where one has ended the other goes on (the longer
        wins); where they disagree, the chain ends before it (both files are still read to
        their ends, for what they say about lost records). Return (database, copy, the
        record both have up to: ``shared``). Nothing is held but the index."""
        db_stream = _db_records(path)
        db_now: list[tuple[Record, bytes] | None] = [None]

        def known(seq: int) -> tuple[Record, bytes] | None:
            got = db_now[0]
            return got if got is not None and got[0].seq == seq else None

        cp_stream = _copy_records(copy_path, known)
        db: _Read | None = None
        cp: _Read | None = None
        shared = 0
        conflict = False
        db_prev = GENESIS
        while db is None or cp is None:
            a = b = None
            if db is None:
                try:
                    a = next(db_stream)
                except StopIteration as done:
                    db = done.value
                    if db.state == "format1":
                        cp_stream.close()
                        return db, _Read([], "missing"), 0
                else:
                    db_now[0] = (a, db_prev)
                    db_prev = a.hash
            if cp is None:
                try:
                    b = next(cp_stream)
                except StopIteration as done:
                    cp = done.value
            if conflict:
                continue
            if a is not None and b is not None:
                if a.hash != b.hash:
                    conflict = True
                    continue
                shared += 1
                self._index(a)
            elif a is not None or b is not None:
                self._index(a or b)  # type: ignore[arg-type]
        return db, cp, shared

    @classmethod
    def _open_locked(cls, path: str, lock_fd: int | None, read_only: bool) -> Journal:
        copy_path = path + COPY_SUFFIX
        journal = cls(path, read_only=read_only)
        db, cp, shared = journal._read_both(path, copy_path)
        if db.state == "format1":
            return cls._convert(path, db, lock_fd, read_only)
        kept = journal._next_seq - 1  # the chain chosen: indexed while reading
        rec = Recovery(kept=kept)
        evidence = max(db.seen, cp.seen)
        conflict = shared < min(db.count, cp.count)
        if conflict:
            rec.details.append(
                f"the journal and its second copy disagree from record #{shared + 1} on "
                "(one of them belongs to another table or journal)")
        db_ok = db.state in ("ok", "missing", "empty") and db.count == kept
        cp_exact = cp.state == "ok" and cp.count == kept
        if db.state == "empty":
            rec.details.append("the journal database file was empty")
        elif db.state == "missing" and kept:
            rec.details.append("the journal database was missing")
        if db.state == "damaged":
            rec.details.append(f"the journal database is damaged: {db.detail}")
        elif db.state == "ok" and db.count < kept:
            rec.details.append(f"the journal database had lost its last "
                               f"{kept - db.count} record(s)")
        if cp.state == "damaged":
            rec.details.append(f"the journal's second copy is damaged: {cp.detail}")
        elif cp.state == "empty":
            rec.details.append("the journal's second copy was empty")
        elif cp.state == "missing" and kept:
            rec.details.append("the journal's second copy was missing")
        elif cp.state == "ok" and cp.count < kept - 1:
            rec.details.append(f"the journal's second copy had lost its last "
                               f"{kept - cp.count} record(s)")
        rec.lost = max(0, evidence - kept)
        fill = rec.lost
        if not rec.lost and cp.state == "damaged" and cp.unknown and kept < (
                cp.count + cp.unknown + 1):
            # The copy (written last, so the one that could be ahead) ends in what is not a
            # record: how much was there cannot be known. Said so; a margin of numbers is kept
            # unused all the same.
            rec.lost = None
            fill = cp.unknown
        if rec.lost == 0 and rec.details:
            rec.unproven = _unproven(db, cp)
        rec.damaged = bool(rec.details)
        problems: list[str] = []
        if read_only:
            if rec.damaged:
                problems.extend(rec.details)
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            conn.executescript(_SCHEMA)
            return journal._take(conn, problems, recovery=rec if rec.damaged else None)
        if rec.damaged:  # before the repair: its facts outlive a power cut (_owe_notice)
            cls._owe_notice(path, rec)
        # The chain chosen lies whole in the database (up to ``kept``) or in the copy.
        from_db = db.count >= kept

        def chosen() -> Iterator[Record]:
            stream = _db_records(path) if from_db else _copy_records(copy_path)
            return itertools.islice(stream, kept)

        try:
            # The copy first: until the rebuilt database is committed, the chosen records
            # must be durable somewhere, and the damaged database goes aside to be rebuilt.
            copy_fd = cls._repair_copy(copy_path, chosen, kept, cp, rec, cp_exact, conflict)
            if not db_ok or db.state == "damaged":
                # the copy holds the chosen chain now
                cls._rebuild_db(path, itertools.islice(_copy_records(copy_path), kept), db,
                                rec)
            conn = cls._connect(path)
        except OSError as exc:
            raise JournalError(f"cannot open the journal {path}: {_describe(exc)}") from None
        except sqlite3.Error as exc:
            raise JournalError(f"cannot open the journal {path}: {_describe(exc)}") from None
        if rec.damaged:
            problems.append(_damage_line(rec, kept))
        return journal._take(conn, problems, copy_fd, lock_fd,
                             recovery=rec if rec.damaged else None, fill=fill)

    @classmethod
    def _convert(cls, path: str, db: _Read, lock_fd: int | None, read_only: bool) -> Journal:
        """A format 1 database becomes a journal of this format (both files); the old file is
        kept as ``<path>.format1-<UTC time>``. Read-only: converted in memory only."""
        chosen = db.records
        rec = Recovery(kept=len(chosen), lost=max(0, db.seen - len(chosen)), converted=True)
        if db.detail:
            rec.details.append(f"the format 1 journal is damaged: {db.detail}")
        rec.damaged = bool(rec.details)
        n_series = sum(r.kind == "series" for r in chosen)
        n_inputs = sum(r.kind == "input" for r in chosen)
        said = (f"the journal was written in format 1 by an earlier skat-table: converted to "
                f"format {SCHEMA_VERSION} ({n_series} series, {n_inputs} input(s))")
        recovery = rec if rec.damaged else None
        if read_only:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            conn.executescript(_SCHEMA)
            problems = [f"{said} in memory (opened read-only)", *rec.details]
            return cls._of(conn, path, problems, chosen, recovery=recovery, read_only=True)
        copy_path = path + COPY_SUFFIX
        try:
            if rec.lost:  # a loss report: its facts outlive a power cut (_owe_notice)
                cls._owe_notice(path, rec)
            if os.path.lexists(copy_path):  # format 1 had no copy: this one is not its own
                rec.aside.append(cls._aside(copy_path, ("",)))
            # The converted chain is durable in the copy before the old file goes aside: a
            # power cut at any step leaves one of them whole.
            copy_fd = cls._repair_copy(copy_path, lambda: iter(chosen), len(chosen),
                                       _Read([], "missing"), rec, False, False)
            old = cls._aside(path, ("", "-wal", "-shm"), "format1")
            _fsync_dir(path)
            cls._rebuild_db(path, chosen, _Read([], "missing"), rec)
            conn = cls._connect(path)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"cannot convert the journal {path}: {_describe(exc)}") from None
        problems = [f"{said}; the old file is kept as {old}"]
        if rec.damaged:
            problems.append(_damage_line(rec, len(chosen)))
        return cls._of(conn, path, problems, chosen, copy_fd, lock_fd, recovery=recovery)

    @staticmethod
    def _aside(path: str, suffixes: Sequence[str], why: str = "damaged", *,
               link: bool = False) -> str:
        """Move the file(s) to ``<path>.<why>-<UTC time>``; ``link``: keep the file where it is
        as well (a hard link: the caller then replaces it in one rename)."""
        stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
        aside = f"{path}.{why}-{stamp}"
        n = 1
        while any(os.path.lexists(aside + s) for s in suffixes):
            n += 1
            aside = f"{path}.{why}-{stamp}-{n}"
        for s in suffixes:
            if os.path.lexists(path + s):
                if link:
                    try:
                        os.link(path + s, aside + s, follow_symlinks=False)
                        continue
                    except OSError:
                        pass  # a file system without hard links: moved, as without ``link``
                os.replace(path + s, aside + s)
        return aside

    @classmethod
    def _rebuild_db(cls, path: str, chosen: Iterable[Record], db: _Read, rec: Recovery
                    ) -> None:
        """Keep the old database aside (when it held anything) and write the chosen chain."""
        suffixes = ("", "-wal", "-shm")
        if db.state in ("ok", "damaged"):
            rec.aside.append(cls._aside(path, suffixes))
        else:
            for s in suffixes:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path + s)
        conn = cls._connect(path)
        try:
            conn.execute("BEGIN")
            for batch in _batched(chosen, 10_000):
                conn.executemany("INSERT INTO records VALUES (?, ?, ?)",
                                 [(r.seq, r.payload, r.hash) for r in batch])
                conn.executemany("INSERT INTO outbox VALUES (?, ?, ?, ?, ?)",
                                 [row for r in batch for row in _outbox_rows(r)])
            conn.execute("COMMIT")
        finally:
            conn.close()

    @classmethod
    def _repair_copy(cls, copy_path: str, chosen: Callable[[], Iterator[Record]], kept: int,
                     cp: _Read, rec: Recovery, exact: bool, conflict: bool) -> int:
        """Make the copy hold exactly the ``kept`` chosen records (``chosen()`` streams them);
        return its file, open for appending."""
        if not exact:
            torn_only = cp.state == "damaged" and cp.detail.startswith("its last line is cut")
            keep_prefix = not conflict and (cp.state == "ok" or torn_only)
            if keep_prefix:  # a verified prefix (perhaps with a torn last line): complete it
                with open(copy_path, "r+b") as f:
                    f.truncate(cp.good_bytes)
                    f.seek(cp.good_bytes)
                    f.writelines(_copy_line(r) for r in itertools.islice(
                        chosen(), cp.count, None))
                    f.flush()
                    os.fsync(f.fileno())
            else:
                tmp = copy_path + ".new"
                with open(tmp, "wb") as f:
                    f.writelines(_copy_line(r) for r in chosen())
                    f.flush()
                    os.fsync(f.fileno())
                if conflict or cp.state == "damaged":
                    # kept aside as it is, and replaced by the new copy in one rename: there
                    # is a whole copy at every moment
                    rec.aside.append(cls._aside(copy_path, ("",), link=True))
                os.replace(tmp, copy_path)
                _fsync_dir(copy_path)
        return os.open(copy_path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)

    @staticmethod
    def _connect(path: str) -> sqlite3.Connection:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.executescript(_SCHEMA)
        return conn

    # ---- the chain ---------------------------------------------------------------------------

    def _index(self, rec: Record) -> None:
        """Take a verified record into the in-memory view (series, entries, revisions)."""
        if rec.kind == "journal":
            self.journal_id = str(rec.body.get("id", ""))
        elif rec.kind == "series":
            body = rec.body
            self._series[rec.series] = _Series(dict(body.get("config") or {}),
                                               dict(body.get("identity") or {}),
                                               first_seq=rec.seq)
        elif rec.kind == "finish":
            if rec.series in self._series:
                self._series[rec.series].finished = True
        elif rec.kind == "checkpoint":
            s = self._series.get(rec.series)
            deal = rec.parsed()[3].get("deal")  # not kept parsed: a year holds thousands
            if s is not None and isinstance(deal, int):
                # read-only: the records are not in a database to be read again
                s.checkpoint(rec, self._last_hash, deal, keep_all=self.read_only)
        elif rec.kind == "input":
            s = self._series.get(rec.series)
            if s is not None:
                s.records.append(rec)
                if s.entries is not None:  # already parsed: keep it current
                    s.entries.append(_entry(rec))
                if b'"line":null' not in rec.payload:
                    line = rec.parsed()[3].get("line")
                    if isinstance(line, int) and line > s.last_line:
                        s.last_line = line
            if b'"outbox":' in rec.payload:
                for item in rec.parsed()[3].get("outbox") or ():
                    key = (rec.series, int(item["game"]))
                    self._revisions[key] = max(self._revisions.get(key, 0),
                                               int(item["revision"]))
        elif rec.kind in ("notice", "confirm"):
            self._index_notice(rec)
        if rec.kind in ("series", "input", "finish", "checkpoint"):
            s = self._series.get(rec.series)
            if s is not None:
                s.last_seq, s.last_hash = rec.seq, rec.hash
        self._next_seq = rec.seq + 1
        self._last_hash = rec.hash

    def _write_record(self, kind: str, series: int, body: Mapping[str, Any], *,
                      at: float | None = None, durable: bool = True) -> Record:
        if self.read_only:
            raise StorageError(OPENED_READ_ONLY, "read-only")
        seq = self._next_seq
        at = time.time() if at is None else at
        payload = _encode(seq, kind, series, body, at)
        rec = Record(seq, kind, series, payload, _link(self._last_hash, payload))
        in_batch = self._batch is not None
        try:
            if not durable and not in_batch:
                self._conn.execute("PRAGMA synchronous=OFF")
            try:
                rows = _outbox_rows(rec)
                if not rows:  # one statement: its own transaction
                    self._conn.execute("INSERT INTO records VALUES (?, ?, ?)",
                                       (seq, payload, rec.hash))
                else:  # the record and its outbox rows commit together or not at all
                    if not in_batch:
                        self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        self._conn.execute("INSERT INTO records VALUES (?, ?, ?)",
                                           (seq, payload, rec.hash))
                        self._conn.executemany("INSERT INTO outbox VALUES (?, ?, ?, ?, ?)",
                                               rows)
                    except BaseException:
                        # SQLite ends the transaction itself on some errors (a full disk):
                        # the error to say is the write's, not the rollback's
                        if not in_batch and self._conn.in_transaction:
                            with contextlib.suppress(sqlite3.Error):
                                self._conn.execute("ROLLBACK")
                        raise
                    if not in_batch:
                        self._conn.execute("COMMIT")
            finally:
                if not durable and not in_batch:
                    self._conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                if self._conn.in_transaction and not in_batch:
                    self._conn.execute("ROLLBACK")
            # Nothing was indexed: the chain in memory stays at the last record on disk, and the
            # next record gets this one's number and place (test_ctl_storage.py).
            raise _storage_error(exc, self.path) from None
        self._index(rec)
        line = _copy_line(rec)
        if self._batch is not None:
            self._batch.append(line)
        else:
            self._write_copy([line], durable)
        return rec

    def _write_copy(self, lines: list[bytes], durable: bool) -> None:
        """Append to the second copy; a failure is kept and retried, never lost or doubled."""
        if self._copy_fd is None:
            return
        self._copy_backlog.extend(lines)
        start = None
        try:
            start = os.fstat(self._copy_fd).st_size  # where the backlog begins (append-only)
            data = b"".join(self._copy_backlog)
            written = 0
            while written < len(data):
                written += os.write(self._copy_fd, data[written:])
            if durable:
                os.fdatasync(self._copy_fd)
            self._copy_backlog.clear()  # only now: a failed sync writes the backlog again
            self.copy_fault = None
        except OSError as exc:
            self.copy_fault = f"the journal's second copy: {_describe(exc)}"
            # A short write (a full card) or a failed sync leaves part or all of the backlog
            # behind it: cut it off, so that the backlog written again later follows the last
            # whole line and no line is there twice. Where
            # even that fails, the next open cuts the torn line and completes the copy from
            # the database, which holds the records.
            if start is not None:
                with contextlib.suppress(OSError):
                    os.ftruncate(self._copy_fd, start)

    def check_storage(self) -> None:
        """After a failed write: does the storage take a write now? The second copy's lines
        still waiting are written, and :data:`PROBE_BYTES` are written, synced and removed
        beside the journal (:data:`PROBE_SUFFIX`). :class:`StorageError` when it does not;
        the chain is never touched."""
        if self.read_only:
            raise StorageError(OPENED_READ_ONLY, "read-only")
        if self.path == ":memory:":
            return
        probe = self.path + PROBE_SUFFIX
        try:
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                data = bytes(PROBE_BYTES)
                written = 0
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise _storage_error(exc, self.path) from None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(probe)
        if self._copy_backlog:
            self._write_copy([], durable=True)
            if self.copy_fault is not None:
                raise StorageError(self.copy_fault,
                                   storage_kind(JournalError(self.copy_fault), self.path))

    # ---- series ------------------------------------------------------------------------------

    def start_series(self, config: Mapping[str, Any],
                     identity: Mapping[str, Any] | None = None) -> int:
        """Begin a series with its config fingerprint and identity (``{"script": ...}`` for a
        replayed script, ``{"table": "live"}`` for the table); its id counts from 1."""
        series = 1 + max(self._series, default=0)
        self._write_record("series", series, {"config": dict(config),
                                              "identity": dict(identity or {})})
        return series

    def series_identity(self, series: int) -> dict[str, Any]:
        return dict(self._series[series].identity)

    def open_series(self) -> tuple[int, dict[str, Any]] | None:
        """The latest series that is not finished: (id, the config it was started with)."""
        for sid in sorted(self._series, reverse=True):
            if not self._series[sid].finished:
                return sid, dict(self._series[sid].config)
        return None

    def latest_series(self) -> tuple[int, dict[str, Any]] | None:
        """The latest series, finished or not: (id, the config it was started with)."""
        if not self._series:
            return None
        sid = max(self._series)
        return sid, dict(self._series[sid].config)

    def all_series(self) -> list[tuple[int, dict[str, Any], bool]]:
        return [(sid, dict(s.config), s.finished) for sid, s in sorted(self._series.items())]

    def series_marks(self) -> list[SeriesMark]:
        """Every series with where it lies in the chain (for a reader on another thread or
        process: :func:`read_series_entries`)."""
        return [SeriesMark(sid, dict(s.config), dict(s.identity), s.finished, s.first_seq,
                           s.last_seq, s.last_hash) for sid, s in sorted(self._series.items())]

    def series_state(self, series: int) -> tuple[bool, int] | None:
        """Whether ``series`` is finished, and its last record's number (cheap: asked after
        every input by whoever keeps something derived from finished series)."""
        s = self._series.get(series)
        return None if s is None else (s.finished, s.last_seq)

    def finish_series(self, series: int) -> None:
        s = self._series.get(series)
        if s is not None and not s.finished:
            self._write_record("finish", series, {})

    # ---- notices: loss reports, shown until someone confirms them ---------------------------

    def add_notice(self, body: Mapping[str, Any]) -> int:
        """Write a loss report (``{"what": "recovery", ...}``; not tied to a series); its
        number. A body naming a ``repair`` of :meth:`owed_notices` settles it."""
        seq = self._write_record("notice", 0, dict(body)).seq
        repair = body.get("repair")
        if repair and any(o.get("repair") == repair for o in self._notices.owed):
            self._notices.owed = [o for o in self._notices.owed if o.get("repair") != repair]
            # Best effort: a file left behind is settled at the next open (the chain holds
            # the notice now).
            with contextlib.suppress(OSError):
                _write_owed(self.path + NOTICES_SUFFIX, self._notices.owed)
        return seq

    def confirm_notice(self, seq: int, by: str) -> bool:
        """Someone (``by``: "kiosk", "cli") has read open notice ``seq``: a ``confirm``
        record. False, and nothing written, when ``seq`` is no open notice."""
        if seq not in self._notices.bodies or seq in self._notices.confirmed:
            return False
        self._write_record("confirm", 0, {"confirms": seq, "by": by})
        return True

    def open_notices(self) -> list[tuple[int, dict[str, Any]]]:
        """The notices nobody has confirmed yet, oldest first: (number, body)."""
        return [(seq, dict(body)) for seq, body in sorted(self._notices.bodies.items())
                if seq not in self._notices.confirmed]

    def owed_notices(self) -> list[dict[str, Any]]:
        """The repairs whose notice is not in the chain yet, oldest first: what each found
        (``repair``, ``kept``, ``lost``, ``unproven``, ``details``, ``aside``,
        ``converted``). The session writes their notices with the table's position.

        A repair's facts are written to ``<path>.notices`` before the repair begins, and taken
        out when its notice is written: a power cut between the two leaves them there, and the
        next open, clean as it is, still owes that notice."""
        return [dict(o) for o in self._notices.owed]

    def _index_notice(self, rec: Record) -> None:
        body = rec.body
        if rec.kind == "notice":
            self._notices.bodies[rec.seq] = body
        elif isinstance(body.get("confirms"), int):
            self._notices.confirmed[body["confirms"]] = body

    @classmethod
    def _owe_notice(cls, path: str, rec: Recovery) -> None:
        """Before a repair: its facts into ``<path>.notices``, durably. The same damage found
        again (the last repair failed) is owed once. Where even this cannot be written, the
        facts live in memory only (the repair itself is likely to fail too)."""
        owed_path = path + NOTICES_SUFFIX
        with contextlib.suppress(OSError):
            owed, changed = cls._load_owed(owed_path, aside=True)
            facts = _repair_facts(rec)
            same = next((o for o in owed if _same_damage(o, facts)), None)
            if same is not None:
                rec.id = str(same["repair"])
            else:
                owed.append(facts)
                changed = True
            if changed:
                _write_owed(owed_path, owed)

    @classmethod
    def _load_owed(cls, owed_path: str, aside: bool) -> tuple[list[dict[str, Any]], bool]:
        """The owed repairs in ``owed_path``; True with them when the file could not be read:
        its facts are gone, and a notice says that much (the file is set aside if
        ``aside``)."""
        owed, problem = _read_owed(owed_path)
        if problem is None:
            return owed, False
        if aside and os.path.lexists(owed_path):
            cls._aside(owed_path, ("",))
        name = os.path.basename(owed_path)
        return [{"repair": f"unreadable-{time.time_ns()}", "kept": None, "lost": None,
                 "unproven": None, "converted": False, "aside": [],
                 "details": [f"the record of an earlier repair ({name}) {problem}"]}], True

    def _take_owed(self) -> None:
        """After opening: the repairs still owed a notice (the file's, less those the chain
        holds a notice of; and this open's own, with the files it set aside)."""
        if self.path == ":memory:":
            return
        owed_path = self.path + NOTICES_SUFFIX
        try:
            owed, changed = self._load_owed(owed_path, aside=not self.read_only)
        except OSError:  # the damaged file could not be set aside: read it next time
            owed, changed = [], False
        written = self._notices.repairs()
        keep = [o for o in owed if str(o["repair"]) not in written]
        rec = self.recovery
        if rec is not None and rec.id not in written and (rec.lost or not rec.converted):
            keep = [o for o in keep if o["repair"] != rec.id] + [_repair_facts(rec)]
        self._notices.owed = keep
        if not self.read_only and (changed or keep != owed):
            with contextlib.suppress(OSError):
                _write_owed(owed_path, keep)

    # ---- inputs --------------------------------------------------------------------------------

    def append(self, series: int, inp: Mapping[str, Any], status: str, *, line: int | None = None,
               source: str = "table", reason: str | None = None,
               at: float | None = None, durable: bool = True,
               outbox: Sequence[OutboxItem] = ()) -> None:
        """Write one input; raise :class:`StorageError` if the storage refuses it (then
        nothing of it is in the chain: the next record takes its number).

        ``durable`` rows are fsync'd on commit (database and copy). The others (inputs that
        changed nothing: a tag that left, a refusal) are only written: both files are
        append-only, so the next durable row's fsync makes them durable too, and a card picked
        up does not cost the next card laid an fsync's wait.

        ``outbox``: the finished game(s) this input produced, written in the same transaction
        (see :func:`read_outbox`).
        """
        body: dict[str, Any] = {"input": dict(inp), "status": status, "line": line,
                                "source": source, "reason": reason}
        if outbox:
            body["outbox"] = [{"game": o.game, "revision": o.revision,
                               "payload": dict(o.payload)} for o in outbox]
        self._write_record("input", series, body, at=at, durable=durable or bool(outbox))

    def next_revision(self, series: int, game: int) -> int:
        """The revision the next outbox item of this game gets: 1, or one more than the last."""
        return self._revisions.get((series, game), 0) + 1

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Many appends in one transaction (imports, benchmarks): one fsync at the end. A
        batch the storage refuses (its commit on a full card) raises :class:`JournalError`
        and leaves the chain as before it."""
        try:
            self._conn.execute("BEGIN")
        except sqlite3.Error as exc:
            raise JournalError(_describe(exc)) from None
        self._batch = []
        saved = (self._next_seq, self._last_hash)
        try:
            yield
            self._conn.execute("COMMIT")
        except BaseException as exc:
            if self._conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
            self._batch = None
            self._next_seq, self._last_hash = saved
            if isinstance(exc, sqlite3.Error):
                raise JournalError(_describe(exc)) from None
            raise
        lines, self._batch = self._batch, None
        self._write_copy(lines, durable=True)

    def entries(self, series: int) -> list[Entry]:
        return list(self.iter_entries(series))

    def iter_entries(self, series: int, after: int = 0) -> Iterator[Entry]:
        """The series' inputs in order (those after record ``after``), each verified: from
        memory, or, for the part a long series let go of, read again from the database."""
        s = self._series.get(series)
        if s is None:
            return iter([])
        held = list(s.all_entries())
        if after >= s.kept_from:
            return iter([e for e in held if e.seq > after])
        return self._read_entries(series, after, s.kept_from, held)

    def _read_entries(self, series: int, after: int, until: int, held: list[Entry]
                      ) -> Iterator[Entry]:
        start = max(after, 0) + 1
        row = self._conn.execute("SELECT hash FROM records WHERE seq = ?",
                                 (start - 1,)).fetchone()
        prev = GENESIS if start == 1 else (bytes(row[0]) if row else b"")
        for seq, payload, digest in self._conn.execute(
                "SELECT seq, payload, hash FROM records WHERE seq >= ? AND seq < ? "
                "ORDER BY seq", (start, until)).fetchall():
            try:
                rec = _decode(bytes(payload), bytes(digest), prev, seq)
            except ValueError as exc:
                raise JournalError(f"the journal changed under the table: {exc}") from None
            prev = rec.hash
            if rec.kind == "input" and rec.series == series:
                yield _entry(rec)
        yield from held

    def last_line(self, series: int) -> int:
        s = self._series.get(series)
        return s.last_line if s is not None else 0

    # ---- checkpoints -------------------------------------------------------------------------

    def checkpoint(self, series: int, deal: int, finished: Mapping[str, Any]) -> None:
        """Before the first input of ``deal``: the deal finished just before it, as the sheet
        keeps it (``finished``). A bounded table writes one at every deal's start; resuming
        then starts a few deals back (:meth:`resume_point`) instead of at the first input,
        and memory holds only the last deals' inputs. Written without its own fsync: the
        input after it makes both durable."""
        self._write_record("checkpoint", series, {"deal": deal, "finished": dict(finished)},
                           durable=False)

    def resume_point(self, series: int) -> tuple[Iterator[dict[str, Any]], int] | None:
        """Where resuming ``series`` may start: (the finished deals before it, as
        :meth:`checkpoint` wrote them, in order, read one by one; the record after which its
        inputs follow), or None: from the first input.

        The checkpoint chosen is the latest one of the deal :data:`RESUME_BACK` before the
        deal of the latest checkpoint. Undo cannot reach back past a deal's start more than a
        few deals (``Table(bounded=True)``), so no input after that checkpoint undoes one
        before it, and the deals before it are the ones the latest checkpoint of each later
        deal's start names. Each is read again from the database and verified against the
        hashes opening found; one that does not verify raises ``ValueError`` (the caller then
        replays the series from its first input).
        """
        s = self._series.get(series)
        if s is None or not s.last_checkpoint:
            return None
        start = s.last_checkpoint - RESUME_BACK
        if start < 2 or any(deal not in s.checkpoints for deal in range(2, start + 1)):
            return None
        marks = [s.checkpoints[deal] for deal in range(2, start + 1)]
        return self._finished_of(marks), marks[-1].seq

    def _finished_of(self, marks: Sequence[_Mark | Record]) -> Iterator[dict[str, Any]]:
        for i in range(0, len(marks), 500):
            chunk = marks[i:i + 500]
            wanted = [m for m in chunk if isinstance(m, _Mark)]
            found: dict[int, bytes] = {}
            if wanted:
                ask = ",".join("?" * len(wanted))
                try:
                    found = {seq: bytes(payload) for seq, payload in self._conn.execute(
                        f"SELECT seq, payload FROM records WHERE seq IN ({ask})",
                        [m.seq for m in wanted])}
                except sqlite3.Error as exc:
                    raise ValueError(f"the checkpoints cannot be read ({exc})") from None
            for m in chunk:
                if isinstance(m, _Mark):
                    payload = found.get(m.seq, b"")
                    if _link(m.prev, payload) != m.hash:
                        raise ValueError(f"checkpoint record #{m.seq} no longer verifies")
                    rec = Record(m.seq, "checkpoint", 0, payload, m.hash)
                else:
                    rec = m
                body = rec.parsed()[3].get("finished")
                if not isinstance(body, dict):
                    raise ValueError(f"checkpoint record #{m.seq} names no finished deal")
                yield body

    @property
    def records(self) -> int:
        """How many records the chain holds."""
        return self._next_seq - 1

    def close(self) -> None:
        # On a full disk the checkpoint fails: the WAL stays and is read back next time.
        with contextlib.suppress(sqlite3.Error):
            if not self.read_only:
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        for fd in (self._copy_fd, self._lock_fd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._copy_fd = self._lock_fd = None


def _batched(records: Iterable[Record], n: int) -> Iterator[list[Record]]:
    it = iter(records)
    while batch := list(itertools.islice(it, n)):
        yield batch


def _outbox_rows(rec: Record) -> list[tuple[int, int, int, int, int]]:
    if b'"outbox":' not in rec.payload:
        return []
    return [(rec.seq, n, rec.series, int(item["game"]), int(item["revision"]))
            for n, item in enumerate(rec.parsed()[3].get("outbox") or ())]


def _fsync_dir(path: str) -> None:
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _lock(path: str) -> int:
    """An exclusive flock on ``path.lock`` (holding the pid), or :class:`JournalLocked`."""
    lock_path = path + LOCK_SUFFIX
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
    except OSError as exc:
        raise _storage_error(exc, path, f"cannot open the journal {path}: ") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            other = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            other = ""
        os.close(fd)
        who = f" (process {other})" if other.isdigit() else ""
        raise JournalLocked(
            f"the journal {path} is in use by another skat-table process{who}: the table "
            "service is running (sudo systemctl stop skat-table first)") from None
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return fd


def read_outbox(path: str | Path, after_seq: int = 0, limit: int | None = None
                ) -> list[OutboxRow]:
    """The outbox items after journal record ``after_seq``, oldest first, each verified.

    For the club link in another process while the table runs: a read-only WAL reader that
    never takes the table's lock and never writes. An item whose record does not verify
    raises :class:`JournalError` (the table repairs its journal on its next start).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     j = Journal.open(os.path.join(d, "journal.sqlite"))
    ...     s = j.start_series({})
    ...     j.append(s, {"seat": 0, "press": "pass"}, "accepted",
    ...              outbox=[OutboxItem(1, 1, {"game": 1})])
    ...     rows = read_outbox(os.path.join(d, "journal.sqlite"))
    ...     j.close()
    >>> [(r.game, r.revision, r.payload) for r in rows]
    [(1, 1, {'game': 1})]
    """
    path = str(path)
    if not os.path.exists(path):
        return []
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}") from None
    try:
        sql = "SELECT seq, n, series, game, revision FROM outbox WHERE seq > ? ORDER BY seq, n"
        rows = conn.execute(sql + (f" LIMIT {int(limit)}" if limit else ""),
                            (after_seq,)).fetchall()
        out = []
        for seq, n, series, game, revision in rows:
            got = conn.execute("SELECT seq, payload, hash FROM records WHERE seq IN (?, ?) "
                               "ORDER BY seq", (seq - 1, seq)).fetchall()
            prev = GENESIS if seq == 1 else (bytes(got[0][2]) if len(got) == 2 else b"")
            try:
                rec = _decode(bytes(got[-1][1]), bytes(got[-1][2]), prev, seq)
                item = rec.body["outbox"][n]
                if (rec.series, item["game"], item["revision"]) != (series, game, revision):
                    raise ValueError("its outbox row does not match the record")
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise JournalError(f"outbox record #{seq} is damaged: {exc}") from None
            out.append(OutboxRow(seq, n, series, game, revision, dict(item["payload"])))
        return out
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal's outbox: {exc}") from None
    finally:
        conn.close()


READ_CHUNK = 2000  # records read at a time by read_series_entries (one short read each)


def read_series_entries(path: str | Path, mark: SeriesMark) -> Iterator[Entry]:
    """The inputs of the series ``mark`` names, read on a connection of their own (another
    thread of the table's process, or another process): a read-only WAL reader that never
    takes the table's lock and never writes, in short reads so that the table's journal is
    never held up.

    Every record from the series' first to its last is verified link by link, and the last
    one's hash must be the one in ``mark`` (what the table verified or wrote itself): a
    database that does not say what the journal said raises :class:`JournalError`, after the
    entries read so far (the caller keeps nothing of a series that did not read whole).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     j = Journal.open(os.path.join(d, "journal.sqlite"))
    ...     s = j.start_series({})
    ...     j.append(s, {"seat": 0, "press": "pass"}, "accepted")
    ...     got = list(read_series_entries(j.path, j.series_marks()[0]))
    ...     j.close()
    >>> [(e.series, e.input) for e in got]
    [(1, {'press': 'pass', 'seat': 0})]
    """
    path = str(path)
    if path == ":memory:" or not os.path.exists(path):
        raise JournalError(f"the journal {path} cannot be read from another connection")
    try:
        conn = sqlite3.connect(_read_uri(path), uri=True, timeout=5, check_same_thread=False)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}") from None
    try:
        row = conn.execute("SELECT hash FROM records WHERE seq = ?",
                           (mark.first - 1,)).fetchone()
        prev = GENESIS if mark.first <= 1 else (bytes(row[0]) if row else b"")
        seq = mark.first
        while seq <= mark.last:
            rows = conn.execute("SELECT seq, payload, hash FROM records WHERE seq >= ? "
                                "AND seq <= ? ORDER BY seq LIMIT ?",
                                (seq, mark.last, READ_CHUNK)).fetchall()
            if not rows:
                break
            for got, payload, digest in rows:
                if got != seq:
                    raise JournalError(f"record #{seq} is missing from the database")
                try:
                    rec = _decode(bytes(payload), bytes(digest), prev, got)
                except ValueError as exc:
                    raise JournalError(f"the journal does not verify: {exc}") from None
                prev = rec.hash
                if rec.kind == "input" and rec.series == mark.series:
                    yield _entry(rec)
                seq += 1
        if seq <= mark.last or prev != mark.last_hash:
            raise JournalError(f"series {mark.series} reads otherwise than the journal "
                               "verified it (records missing or not yet committed)")
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal: {exc}") from None
    finally:
        conn.close()
