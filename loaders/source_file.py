"""Reading input files: gzip by content, numbered lines, and content hashes for snapshots;
and the bounds every parser checks before a value may reach the graph.

Neo4j stores integers as signed 64-bit values and refuses an index entry over about 8 KiB,
so an oversized count or title would abort a whole batch at write time. Parsers call
``record_problem`` on each record (and ``bounded_int``, ``arxiv_id_and_version`` while
reading) and turn a problem into a ``Rejected`` item, so the rest of the file still loads.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import itertools
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import IO, cast

from .errors import SourceError
from .records import (
    MAX_YEAR,
    MIN_YEAR,
    FormatName,
    Origin,
    PaperRecord,
    PaperRef,
    ParsedItem,
    Rejected,
    SkipKind,
    Skipped,
    SnapshotRecord,
    StagedBlock,
)
from .text import normalize_name
from .titles import normalize_title, parse_arxiv_id

__all__ = [
    "BLOCK_CHARS",
    "MAX_LINE_LENGTH",
    "READ_ERRORS",
    "BlockStage",
    "DateSpan",
    "LineBlock",
    "LineItems",
    "LinePlace",
    "LongLine",
    "NumberedLine",
    "NumberedLines",
    "arxiv_id_and_version",
    "bounded_int",
    "content_sha256",
    "date_problem",
    "file_snapshot",
    "folder_sha256",
    "int_problem",
    "is_gzip",
    "latin1_line",
    "line_limit",
    "name_problem",
    "numbered_blocks",
    "numbered_lines",
    "open_binary",
    "open_text",
    "read_error",
    "read_head",
    "record_problem",
    "replaced",
    "snapshot_key",
    "title_problem",
    "undecodable",
    "version_problem",
    "year_problem",
]

GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20

LINE_RAW_LIMIT = 1000
"""How much of a rejected JSON line its reject keeps (a line may hold a paper's full text)."""


@dataclass(frozen=True)
class LinePlace:
    """Where a record of a JSON-lines file is read from, and the snapshot it belongs to:
    what its items' origin, rejects and skips say."""

    path: str
    line: int
    snapshot: str

    @property
    def origin(self) -> Origin:
        """The file and line, as the items say it."""
        return Origin(path=self.path, line=self.line)

    def reject(self, reason: str, raw: object) -> Rejected:
        """Return a Rejected here, keeping ``raw`` (text, or a value written out as JSON)
        cut at LINE_RAW_LIMIT."""
        text = raw if isinstance(raw, str) else json.dumps(raw)
        return Rejected(origin=self.origin, reason=reason, raw=text[:LINE_RAW_LIMIT])

    def skip(self, kind: SkipKind, detail: str) -> Skipped:
        """Return a Skipped here."""
        return Skipped(origin=self.origin, kind=kind, detail=detail)


MAX_LINE_LENGTH = 64 * 2**20
"""The longest line a parser reads, 64 MiB: 67,108,864 characters of a text file read as
UTF-8, or bytes of an .abs file (read as bytes, then decoded). No record is near that long;
a longer line is read past in pieces of a MiB, never held whole, and becomes a reject."""

MAX_INT = 2**63 - 1
"""The largest integer Neo4j stores (a signed 64-bit INTEGER); larger counts are rejected."""
MAX_TITLE_CHARS = 2000
"""The longest title that loads; the longest real arXiv title is a few hundred characters."""
MAX_NAME_CHARS = 500
"""The longest author name that loads."""
MAX_CATEGORY_CHARS = 40
"""The longest category code that loads (``physics.space-ph`` is 16)."""
MAX_ID_CHARS = 100
"""The longest text read as an arXiv id, URL prefix and version included."""
MAX_INDEX_BYTES = 8000
"""The longest UTF-8 index entry written (title, matching title, name, key); Neo4j's limit
is 8,167 bytes, and normalising (NFKC) can lengthen a text."""
_MAX_INT_DIGITS = len(str(MAX_INT))
_ASCII_GROWTH = 2
"""Normalising an ASCII title or name (LaTeX included) at most doubles its UTF-8 size: the
longest growth is ``.`` -> ``. `` in a name; tests/unit/test_parse_speedups.py checks it."""
if _ASCII_GROWTH * max(MAX_TITLE_CHARS, MAX_NAME_CHARS) > MAX_INDEX_BYTES:  # pragma: no cover
    raise AssertionError("the ASCII shortcut of title_problem/name_problem no longer holds")


READ_ERRORS = (OSError, EOFError, zlib.error)
"""What reading a file may raise: an I/O error, a truncated or bad gzip (``EOFError``,
``gzip.BadGzipFile``), or gzip data corrupt mid-stream (``zlib.error``)."""
_CORRUPT_HINT = "the compressed data is damaged: download or compress the file again"


def read_error(
    path: Path | str, exc: BaseException, hint: str = "check the file", what: str = "it"
) -> SourceError:
    """Return the SourceError for a file that failed to read with ``exc`` (one of
    READ_ERRORS): ``PATH: cannot read WHAT (reason)``, or ``PATH: cannot read WHAT: corrupt
    gzip data (reason)`` when the compressed data is corrupt mid-stream."""
    if isinstance(exc, zlib.error):
        return SourceError(f"{path}: cannot read {what}: corrupt gzip data ({exc})", _CORRUPT_HINT)
    return SourceError(f"{path}: cannot read {what} ({exc})", hint)


def is_gzip(path: Path) -> bool:
    """Return True when the file starts with the gzip magic bytes, whatever its name."""
    try:
        with path.open("rb") as handle:
            return handle.read(2) == GZIP_MAGIC
    except OSError as exc:
        raise SourceError(f"{path}: cannot read it ({exc.strerror})", "check the path") from exc


def open_binary(path: Path) -> IO[bytes]:
    """Return a binary handle on the file's content, decompressing gzip transparently."""
    if is_gzip(path):
        return cast(IO[bytes], gzip.open(path, "rb"))
    return path.open("rb")


class _Digesting(io.RawIOBase):
    """A binary handle that feeds every byte read through it to a hash."""

    def __init__(self, inner: IO[bytes], digest: hashlib._Hash) -> None:
        super().__init__()
        self._inner = inner
        self._digest = digest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        count: int = self._inner.readinto(buffer)  # type: ignore[attr-defined]
        self._digest.update(memoryview(buffer)[:count])
        return count

    def close(self) -> None:
        self._inner.close()
        super().close()


def open_text(path: Path, errors: str = "replace") -> io.TextIOWrapper:
    """Return a text handle (UTF-8, undecodable bytes replaced, CRLF kept) on the content;
    ``errors="surrogateescape"`` keeps each undecodable byte as a lone surrogate instead
    (``undecodable``, ``latin1_line``)."""
    return io.TextIOWrapper(open_binary(path), encoding="utf-8", errors=errors, newline="")


def _text(path: Path, digest: hashlib._Hash | None, errors: str) -> io.TextIOWrapper:
    """``open_text``, feeding the content to ``digest`` as ``numbered_lines`` says."""
    if digest is None:
        return open_text(path, errors)
    if not is_gzip(path):
        _hash_into(path, digest)
        return open_text(path, errors)
    hashed = io.BufferedReader(_Digesting(open_binary(path), digest), _CHUNK)
    return io.TextIOWrapper(hashed, encoding="utf-8", errors=errors, newline="")


_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def undecodable(text: str) -> bool:
    """Return True when a line read with ``errors="surrogateescape"`` holds bytes that are
    not UTF-8."""
    return not text.isascii() and _ESCAPED_BYTE.search(text) is not None


def latin1_line(text: str) -> str | None:
    """Return a line read with ``errors="surrogateescape"`` that is not UTF-8 decoded as
    Latin-1 instead, as the .abs parser reads such lines; None when the line mixes UTF-8
    characters with other bytes, which no one encoding reads (Latin-1 would garble them)."""
    if any(char >= "\x80" and not _ESCAPED_BYTE.match(char) for char in text):
        return None
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def replaced(text: str) -> str:
    """Return a text read with ``errors="surrogateescape"`` with each undecodable byte as
    U+FFFD, safe to write as UTF-8 (a reject's raw text)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@dataclass(frozen=True)
class LongLine:
    """A line over the limit (``MAX_LINE_LENGTH``), read past without being kept: how long
    it was, and its first characters or bytes (for the reject's raw text)."""

    length: int
    """Its length without the line ending: characters of a text line, bytes of a raw one."""
    head: str
    limit: int

    def reason(self, unit: str = "characters") -> str:
        """Return the reject reason: how long the line is, the limit, and what to do."""
        mib = f" ({self.limit >> 20} MiB)" if self.limit % 2**20 == 0 else ""
        return (
            f"the line is {self.length:,} {unit} long, over the limit of {self.limit:,}{mib}; "
            "it was read past and not loaded: no record is that long, so check that this is "
            "the file meant, or split the line into records"
        )


NumberedLine = tuple[int, str | LongLine]
"""A line as ``numbered_lines`` yields it: its number and its text (or LongLine)."""
LineItems = Callable[[str, str, int, str | LongLine], list[ParsedItem]]
"""A format's items for one line of a file, given the file's path, its snapshot key, the
line's number and the line: for a format whose lines are independent
(``loaders.arxiv_oai.line_items``)."""
BlockStage = Callable[[LineItems, str, str, Iterator[list[NumberedLine]]], Iterator[StagedBlock]]
"""What stages a file's lines a block at a time (bulk mode's ``ImportSink``): given a
format's LineItems, the file's path and snapshot key, and the blocks of its numbered lines,
it yields one StagedBlock a block, in order."""


def line_limit() -> int:
    """Return the line limit in force: ``MAX_LINE_LENGTH``, read when a file is opened, so
    that a test may lower it."""
    return MAX_LINE_LENGTH


_LONG_LINE_HEAD = 500
"""How much of an over-long line is kept, for the reject's raw text."""


def _read_past(handle: IO[str], line: str, limit: int) -> tuple[LongLine, bool]:
    """Read the rest of an over-long line whose first ``line`` was read, a MiB at a time;
    return it as a LongLine, and whether its last piece ended in a CR alone (the LF of a
    CRLF may follow, which is no line of its own)."""
    length = len(line)
    piece = line
    while piece and not piece.endswith(("\n", "\r")):
        piece = handle.readline(_CHUNK)
        length += len(piece)
    ending = 2 if piece.endswith("\r\n") else 1 if piece.endswith(("\n", "\r")) else 0
    found = LongLine(length=length - ending, head=line[:_LONG_LINE_HEAD], limit=limit)
    return found, piece.endswith("\r")


def numbered_lines(
    path: Path, digest: hashlib._Hash | None = None, errors: str = "replace"
) -> Iterator[tuple[int, str | LongLine]]:
    """Yield (1-based line number, line without its line ending) for every line, streaming.

    A line over ``MAX_LINE_LENGTH`` characters is yielded as a LongLine instead, read in
    pieces so that memory stays bounded; the parser rejects it and goes on. Line endings are
    LF, CRLF or CR.

    With ``digest``, the decompressed content is fed to it too: once every line has been
    read, ``digest.hexdigest()`` is ``content_sha256(path)``. A gzip file is hashed as it is
    read, sparing a second decompression; a plain one in a pass of its own, which costs less
    than routing the text read through the hash (docs/BENCHMARKS.md). ``errors`` is
    ``open_text``'s."""
    limit = line_limit()
    # A line that fits is read whole with its ending (two characters at most, CRLF).
    size = limit + 2
    try:
        with _text(path, digest, errors) as handle:
            number = 0
            after_cr = False
            while line := handle.readline(size):
                if after_cr and line == "\n":
                    # the LF of a CRLF that an over-long line's last piece ended before
                    after_cr = False
                    continue
                after_cr = False
                number += 1
                text = line.rstrip("\r\n")
                if len(text) <= limit:
                    yield number, text
                    continue
                long_line, after_cr = _read_past(handle, line, limit)
                yield number, long_line
    except READ_ERRORS as exc:
        raise read_error(path, exc, "check that the file is complete and not corrupt") from exc


BLOCK_CHARS = 1 << 20
"""The characters ``numbered_blocks`` reads at a time (then up to the end of the line)."""


@dataclass(frozen=True)
class LineBlock:
    """Whole lines read at once: ``text`` is one or more lines, each ending in LF, with no CR
    anywhere and none over the line limit; its first line is line ``first``."""

    first: int
    text: str


NumberedLines = Iterator[tuple[int, str | LongLine]]
"""Lines as ``numbered_lines`` yields them."""


def numbered_blocks(path: Path, errors: str = "replace") -> Iterator[LineBlock | NumberedLines]:
    """``numbered_lines`` in blocks where it can be: plain lines come as LineBlocks of
    ``BLOCK_CHARS`` characters and the rest of their last line. From the first block that
    cannot be one (it holds a CR, or a line over the limit) on, the rest of the file comes
    as one iterator of ``numbered_lines``' lines: the file is opened again and the lines
    handed over are skipped (a file with CRs from its first block on is read once). A last
    line without its LF comes alone, as such an iterator. The blocks' lines and the lines,
    in order, are exactly ``numbered_lines``' lines, a file that breaks off included: it is
    read again so, up to the same SourceError."""
    limit = line_limit()
    if limit < BLOCK_CHARS:  # only a test lowers the limit so far
        yield numbered_lines(path, errors=errors)
        return
    number = 0  # the lines handed over so far
    last_line: str | None = None  # the file's last line when it has no LF
    try:
        with _text(path, None, errors) as handle:
            while block := handle.read(max(BLOCK_CHARS, 1)):
                if not block.endswith("\n"):
                    block += handle.readline(limit + 2)  # to the end of its last line
                start = block.rfind("\n", 0, len(block) - 1) + 1  # of the last line
                if "\r" in block or len(block) - start - block.endswith("\n") > limit:
                    break
                if block.endswith("\n"):
                    yield LineBlock(number + 1, block)
                    number += block.count("\n")
                    continue
                # readline stopped short of the limit without a line ending: the end of the
                # file, whose last line has no LF
                if start:
                    yield LineBlock(number + 1, block[:start])
                    number += block.count("\n")
                last_line = block[start:]
                break
            else:
                return
    except READ_ERRORS:
        pass  # read again below, line by line, up to the same error
    if last_line is not None:
        yield iter(((number + 1, last_line),))
    else:
        yield itertools.islice(numbered_lines(path, errors=errors), number, None)


def read_head(path: Path, size: int = 65536) -> str:
    """Return the first ``size`` decompressed bytes as text, for format detection."""
    try:
        with open_binary(path) as handle:
            return handle.read(size).decode("utf-8", errors="replace")
    except READ_ERRORS as exc:
        raise read_error(path, exc) from exc


def content_sha256(path: Path) -> str:
    """Return the sha256 hex digest of the file's decompressed content, streaming."""
    digest = hashlib.sha256()
    _hash_into(path, digest)
    return digest.hexdigest()


def _hash_into(path: Path, digest: hashlib._Hash) -> None:
    """Feed the file's decompressed content to ``digest``, streaming."""
    try:
        with open_binary(path) as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except READ_ERRORS as exc:
        raise read_error(path, exc) from exc


def folder_sha256(root: Path, files: Iterable[Path]) -> str:
    """Return a sha256 over each file's path in the folder ``root`` and content digest (a
    file that cannot be read counts by its name: reading its records rejects it)."""
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.relative_to(root).as_posix().encode() + b"\0")
        try:
            digest.update(content_sha256(file).encode() + b"\n")
        except SourceError:
            digest.update(b"unreadable\n")
    return digest.hexdigest()


def snapshot_key(sha256: str, reading: str | None = None) -> str:
    """Return the Snapshot node key for content with this sha256, read as ``reading`` says
    where one content can state two sets of records (an edge list of SNAP integers read as
    hep-ph ids): ``sha256:<hex>``, or ``sha256:<hex>:<reading>``."""
    return f"sha256:{sha256}" if reading is None else f"sha256:{sha256}:{reading}"


def file_snapshot(path: Path, kind: FormatName) -> SnapshotRecord:
    """Return the snapshot of one file read as ``kind``: keyed by the sha256 of its
    decompressed content. Raises SourceError when the file cannot be read."""
    sha256 = content_sha256(path)
    return SnapshotRecord(key=snapshot_key(sha256), kind=kind, source=path.name, sha256=sha256)


@dataclass
class DateSpan:
    """The newest and oldest of the dates a snapshot's records state, gathered one by one:
    the closing snapshot's ``data_date`` and ``first_date``."""

    newest: date | None = None
    oldest: date | None = None

    def add(self, day: date | None) -> None:
        """Take one record's date into the span; None changes nothing."""
        if day is not None:
            self.newest = day if self.newest is None else max(self.newest, day)
            self.oldest = day if self.oldest is None else min(self.oldest, day)

    def closing(self, snapshot: SnapshotRecord) -> SnapshotRecord:
        """Return the snapshot again, dated by the span."""
        return snapshot.model_copy(update={"data_date": self.newest, "first_date": self.oldest})


def bounded_int(digits: str) -> int | None:
    """Return the integer written in decimal ``digits``, or None when it is over MAX_INT.

    Never raises for a long run of digits (Python refuses ``int()`` of over 4,300 digits).
    """
    digits = digits.lstrip("0") or "0"
    if len(digits) > _MAX_INT_DIGITS:
        return None
    value = int(digits)
    return value if value <= MAX_INT else None


def arxiv_id_and_version(text: str) -> tuple[str, int | None] | None:
    """Return (canonical arXiv id, version or None) like ``loaders.titles.parse_arxiv_id``.

    Returns None for text that is not an id or is longer than MAX_ID_CHARS. A version over
    MAX_INT is given as None (``version_problem`` says why). Never raises.
    """
    if len(text) > MAX_ID_CHARS:
        return None
    try:
        parsed = parse_arxiv_id(text)
    except ValueError:  # a version of thousands of digits
        return None
    if parsed is not None and parsed[1] is not None and parsed[1] > MAX_INT:
        return parsed[0], None
    return parsed


def version_problem(text: str) -> str | None:
    """Return why an arXiv id's version suffix cannot be stored, or None if it can."""
    match = re.search(r"v(\d+)\s*$", text.strip().removesuffix(".pdf"))
    if match and bounded_int(match[1]) is None:
        return f"the version v{_shown(match[1])} is over {MAX_INT:,}, the largest Neo4j stores"
    return None


def _shown(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _text_problem(what: str, text: str, chars: int, normalized: str) -> str | None:
    if len(text) > chars:
        return f"{what} is {len(text):,} characters long, over the limit of {chars:,}"
    size = max(len(text.encode("utf-8", "replace")), len(normalized.encode("utf-8", "replace")))
    if size > MAX_INDEX_BYTES:
        return f"{what} takes {size:,} bytes to index, over the limit of {MAX_INDEX_BYTES:,}"
    return None


def title_problem(title: str | None) -> str | None:
    """Return why a title is too large to load (see MAX_TITLE_CHARS), or None."""
    if title is None or (len(title) <= MAX_TITLE_CHARS and title.isascii()):
        return None  # within bounds without normalising it (see _ASCII_GROWTH)
    return _text_problem("the title", title, MAX_TITLE_CHARS, normalize_title(title))


def name_problem(name: str) -> str | None:
    """Return why an author name is too large to load (see MAX_NAME_CHARS), or None."""
    if len(name) <= MAX_NAME_CHARS and name.isascii():
        return None  # within bounds without normalising it (see _ASCII_GROWTH)
    return _name_problem(name)


@lru_cache(maxsize=1 << 14)  # an author's name comes back paper after paper
def _name_problem(name: str) -> str | None:
    return _text_problem(
        f"the author name {_shown(name)!r}", name, MAX_NAME_CHARS, normalize_name(name)
    )


def year_problem(what: str, year: int) -> str | None:
    """Return why ``year`` cannot be a year of the data (outside MIN_YEAR-MAX_YEAR), or None."""
    if MIN_YEAR <= year <= MAX_YEAR:
        return None
    return f"{what}: the year {year:04d} is not between {MIN_YEAR} and {MAX_YEAR}"


def date_problem(what: str, value: date) -> str | None:
    """Return why a date cannot be a date of the data (its year outside MIN_YEAR-MAX_YEAR),
    or None. Never the wall clock: the graph must not depend on when it was loaded."""
    return year_problem(what, value.year)


def int_problem(what: str, value: int | None) -> str | None:
    """Return why an integer cannot be stored in Neo4j, or None."""
    if value is None or abs(value) <= MAX_INT:
        return None
    return f"{what} {_shown(str(value))} is over {MAX_INT:,}, the largest Neo4j stores"


def _unicode_problem(item: PaperRecord | PaperRef) -> str | None:
    """Return which text of a record cannot be sent as UTF-8 (a lone surrogate), or None.

    JSON may spell one as an escape (``"\\ud800"``); the driver would fail on it at write.
    """
    if _encodable(item):
        return None
    texts: dict[str, str | None] = {"the title": item.title}
    if isinstance(item, PaperRecord):
        texts.update(
            {
                "the abstract": item.abstract,
                "the abstract excerpt": item.abstract_excerpt,
                "the license": item.license,
                "the DOI": item.doi,
                "the journal reference": item.journal_ref,
                "the comments": item.comments,
            }
        )
        texts.update({f"the author name {n}": name for n, name in enumerate(item.authors, 1)})
        texts.update({key: v for key, v in item.extra.items() if isinstance(v, str)})
    for what, text in texts.items():
        try:
            (text or "").encode("utf-8")
        except UnicodeEncodeError:
            return f"{what} holds a lone surrogate (e.g. a \\ud800 escape), not valid Unicode"
    return None


def _encodable(item: PaperRecord | PaperRef) -> bool:
    """Return True when every text of a record encodes as UTF-8 (the common case, checked
    in one pass; ``_unicode_problem`` then has nothing to name)."""
    if isinstance(item, PaperRecord):
        texts = [
            item.title or "",
            item.abstract or "",
            item.abstract_excerpt or "",
            item.license or "",
            item.doi or "",
            item.journal_ref or "",
            item.comments or "",
            *item.authors,
        ]
        if item.extra:
            texts.extend(value for value in item.extra.values() if isinstance(value, str))
    else:
        texts = [item.title or ""]
    try:
        "".join(texts).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _ints_fit(values: Iterable[int | None]) -> bool:
    """Return True when no value is over MAX_INT either way (``int_problem`` finds nothing)."""
    return all(value is None or -MAX_INT <= value <= MAX_INT for value in values)


def _plainly_fits(item: PaperRecord | PaperRef) -> bool:
    """Return True when ``record_problem`` certainly finds nothing: every check it makes
    passes on its shortcut (an ASCII title and names within their lengths, short ids and
    categories, integers within MAX_INT, texts that encode), the common case, in one pass
    with no message built. False says only that the full checks must run."""
    title, arxiv_id = item.title, item.arxiv_id
    if title is not None and (len(title) > MAX_TITLE_CHARS or not title.isascii()):
        return False
    if arxiv_id is not None and len(arxiv_id) > MAX_ID_CHARS:
        return False
    year, cited_by = item.year, item.stated_cited_by
    if (year is not None and not -MAX_INT <= year <= MAX_INT) or (
        cited_by is not None and not -MAX_INT <= cited_by <= MAX_INT
    ):
        return False
    if isinstance(item, PaperRecord) and not _paper_plainly_fits(item):
        return False
    return _encodable(item)


def _paper_plainly_fits(item: PaperRecord) -> bool:
    """``_plainly_fits``'s checks of what only a PaperRecord holds."""
    authors = item.authors
    if authors and (not "".join(authors).isascii() or max(map(len, authors)) > MAX_NAME_CHARS):
        return False
    primary = item.primary_category
    if primary is not None and len(primary) > MAX_CATEGORY_CHARS:
        return False
    if item.cross_categories and max(map(len, item.cross_categories)) > MAX_CATEGORY_CHARS:
        return False
    if item.histogram:
        return False  # rare enough to leave to the full checks
    counts = [
        item.version,
        item.stated_cited_by_in_map,
        item.stated_refs_in_map,
        item.stated_refs_total,
        item.listed_refs,
        item.listed_citing,
    ]
    if item.extra:
        counts.extend(value for value in item.extra.values() if isinstance(value, int))
    present = [value for value in counts if value is not None]  # most are None
    return not present or (min(present) >= -MAX_INT and max(present) <= MAX_INT)


def record_problem(item: PaperRecord | PaperRef) -> str | None:
    """Return why a record cannot be written to the graph, or None when it can.

    Checks the indexed texts (title, author names, category codes, arXiv id) against their
    bounds, every integer (counts, year, version, histogram, extra) against MAX_INT, and
    that every text is valid Unicode.
    """
    return None if _plainly_fits(item) else _found_problems(item)


def _found_problems(item: PaperRecord | PaperRef) -> str | None:
    """``record_problem``'s full checks, each problem found named."""
    problems = [title_problem(item.title), _unicode_problem(item)]
    if item.arxiv_id is not None and len(item.arxiv_id) > MAX_ID_CHARS:
        problems.append(f"the arXiv id is over {MAX_ID_CHARS} characters")
    counts: dict[str, int | None] = {"the year": item.year, "cited by": item.stated_cited_by}
    if isinstance(item, PaperRecord):
        problems.extend(name_problem(name) for name in item.authors)
        for code in (item.primary_category, *item.cross_categories):
            if code is not None and len(code) > MAX_CATEGORY_CHARS:
                problems.append(
                    f"the category {_shown(code)!r} is over {MAX_CATEGORY_CHARS} characters"
                )
        counts.update(
            {
                "the version": item.version,
                "cited by in the map": item.stated_cited_by_in_map,
                "references in the map": item.stated_refs_in_map,
                "references": item.stated_refs_total,
                "listed references": item.listed_refs,
                "listed citing papers": item.listed_citing,
            }
        )
        for year, count in item.histogram.items():
            counts[f"the histogram year {year}"] = year
            counts[f"the histogram count for {year}"] = count
        for key, value in item.extra.items():
            if isinstance(value, int) and not isinstance(value, bool):
                counts[key] = value
    if not _ints_fit(counts.values()):
        problems.extend(int_problem(what, value) for what, value in counts.items())
    found = [problem for problem in problems if problem]
    return "; ".join(dict.fromkeys(found)) if found else None
