"""The KDD Cup 2003 hep-th ``.abs`` metadata: a tarball, a directory or a single ``.abs`` file.

An ``.abs`` record is a header (``Paper:``, ``From:``, ``Date:``, ``Title:``, ``Authors:``,
``Comments:``, ``Subj-class:``, ``Journal-ref:``; a field may wrap onto indented lines)
followed by the abstract between ``\\\\`` lines. Lines end in LF, CRLF or CR (old Mac files);
a line that is not UTF-8 is read as Latin-1. The tarball is never extracted: one of up to
128 MiB (the KDD tarball is 55 MB) is decompressed once and held in memory, to be hashed and
read; a larger one is read as a stream, twice (hashed, then read). Yields a
``SnapshotRecord``, then one ``PaperRecord`` or ``Rejected`` per record.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import itertools
import os
import re
import stat
import tarfile
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import IO, Protocol

from pydantic import ValidationError

from .arxiv_oai import id_year_month, split_authors, validation_reason
from .errors import SourceError
from .plain_tar import PlainTar
from .records import (
    Origin,
    PaperRecord,
    PaperValues,
    ParsedItem,
    Rejected,
    SnapshotRecord,
    checked_paper,
)
from .source_file import (
    GZIP_MAGIC,
    READ_ERRORS,
    LongLine,
    arxiv_id_and_version,
    content_sha256,
    folder_sha256,
    line_limit,
    open_binary,
    read_error,
    record_problem,
    snapshot_key,
)
from .taxonomy import load_taxonomy
from .text import collapse_spaces

__all__ = [
    "ABS_SUFFIXES",
    "MAX_RECORD_LINES",
    "is_tar",
    "parse",
    "parse_abs",
    "parse_abs_date",
    "subject_code",
]

ABS_SUFFIXES = (".abs", ".abs.gz")
MAX_RECORD_LINES = 2000
"""A record longer than this is not an .abs record; it is rejected rather than buffered."""

RAW_LIMIT = 500
_WHOLE_MEMBER_BYTES = 1 << 20
"""A tar member up to this size is read and decoded in one go (an .abs file is a few KB);
a larger one is streamed line by line, so memory stays flat."""
_TAR_MAGIC_OFFSET = 257
_HELD_TAR_BYTES = 128 << 20
"""A tar whose content is up to this size is decompressed once, held, hashed and parsed
(the KDD tarball is 55 MB); a larger one is decompressed twice, so memory stays flat."""
_READ = 1 << 20
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_TEXT_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LONG_LINE_HEAD = 500
_FIELD = re.compile(r"^([A-Za-z][A-Za-z\-]*(?: \([^)]*\))?):\s*(.*)$")
_SEPARATOR = re.compile(r"^-{10,}\s*$")
_MARK = "\\\\"
_PAPER_LINE = re.compile(r"^Paper:\s*(\S*)")
_SIZE_NOTE = re.compile(r"\(\s*\d+\s*kb[^)]*\)\s*$", re.IGNORECASE)
_DAY_MONTH_YEAR = re.compile(r"\b(\d{1,2})[\s\-/]*([A-Za-z]{3,})\.?[\s\-,]+(\d{4}|\d{2})\b")
_MONTH_DAY_YEAR = re.compile(
    r"\b([A-Za-z]{3,})\.?\s+(\d{1,2}),?\s+\d{1,2}:\d{2}(?::\d{2})?\b.*?\b(\d{4})\b"
)
_COMMON_DATE = re.compile(r"[A-Z][a-z]{2}, (\d{1,2}) ([A-Z][a-z]{2}) (\d{4}|\d{2}) \d")
"""The start of a ``Date:`` as nearly every .abs file writes it (``Tue, 14 Dec 93 10:58:38``):
nothing before its day can start a ``_DAY_MONTH_YEAR`` match, so it is that regex's first."""
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})\b")
_MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
}
_ARCHIVES = frozenset(
    {
        "acc-phys",
        "adap-org",
        "alg-geom",
        "ao-sci",
        "astro-ph",
        "atom-ph",
        "bayes-an",
        "chao-dyn",
        "chem-ph",
        "cmp-lg",
        "comp-gas",
        "cond-mat",
        "cs",
        "dg-ga",
        "econ",
        "eess",
        "funct-an",
        "gr-qc",
        "hep-ex",
        "hep-lat",
        "hep-ph",
        "hep-th",
        "math",
        "math-ph",
        "mtrl-th",
        "nlin",
        "nucl-ex",
        "nucl-th",
        "patt-sol",
        "physics",
        "plasm-ph",
        "q-alg",
        "q-bio",
        "q-fin",
        "quant-ph",
        "solv-int",
        "stat",
        "supr-con",
    }
)
_CATEGORY = re.compile(r"^([a-z\-]+)(?:\.[A-Za-z\-]{2,})?$")
_SUBJECT_ALIASES = {
    # Subj-class names of the 1990s that the taxonomy now spells differently.
    "Mesoscopic Systems and Quantum Hall Effect": "cond-mat.mes-hall",
    "History of Physics": "physics.hist-ph",
    "Probability Theory": "math.PR",
}
_NOT_ALNUM = re.compile(r"[\W_]+")
_MAX_DATE_CHARS = 200
# arXiv opened in August 1991; a Date: before that or far after the id's month is a typo.
_DATE_SLACK_DAYS = 62


def _month(name: str) -> int | None:
    """Return the month number of an English month name or abbreviation, else None."""
    return _MONTHS.get(name[:3].lower())


def _full_year(text: str) -> int:
    """Return a four-digit year; two-digit years are 1950-2049."""
    year = int(text)
    if len(text) == 2:
        year += 1900 if year >= 50 else 2000
    return year


def parse_abs_date(text: str) -> date | None:
    """Return the calendar date written in an ``.abs`` ``Date:`` value, or None if none is found.

    Handles ``Tue, 14 Dec 93 10:58:38 +0100``, ``Tue Dec 31 23:54:17 MET 1991 +0100``,
    ``12-MAR-1993 10:01:02.5``, ``01/02/93`` (day first) and their many time-zone
    spellings; the time is ignored.
    """
    common = _COMMON_DATE.match(text)
    if common and (month := _month(common.group(2))) is not None:
        # _DAY_MONTH_YEAR's first match, as _any_abs_date finds it
        try:
            return date(_full_year(common.group(3)), month, int(common.group(1)))
        except ValueError:
            pass
    return _any_abs_date(text)


def _any_abs_date(text: str) -> date | None:
    """``parse_abs_date`` of any ``Date:`` value, without the shortcut for the common one."""
    text = _SIZE_NOTE.sub("", text[:_MAX_DATE_CHARS])
    for match in _DAY_MONTH_YEAR.finditer(text):
        day, month = int(match.group(1)), _month(match.group(2))
        if month is not None:
            try:
                return date(_full_year(match.group(3)), month, day)
            except ValueError:
                continue
    for match in _MONTH_DAY_YEAR.finditer(text):
        month = _month(match.group(1))
        if month is not None:
            try:
                return date(int(match.group(3)), month, int(match.group(2)))
            except ValueError:
                continue
    if numeric := _NUMERIC_DATE.search(text):
        # Day first as in Europe, where most such dates come from; month first if that fails.
        first, second, year = int(numeric.group(1)), int(numeric.group(2)), numeric.group(3)
        for day, month in ((first, second), (second, first)):
            try:
                return date(_full_year(year), month, day)
            except ValueError:
                continue
    return None


def _fold(name: str) -> str:
    return _NOT_ALNUM.sub("", name.casefold())


@cache
def _subject_names() -> dict[str, str]:
    """Return the category code of each subject name, by its folded spelling.

    A name maps to its current category (``Quantum Algebra`` -> ``math.QA``, not the
    legacy ``q-alg``), else to its one legacy code; a name that several current categories
    share is left out, as it names none of them for sure.
    """
    current: dict[str, set[str]] = {}
    legacy: dict[str, set[str]] = {}
    for category in load_taxonomy().values():
        if category.name is None or category.alias_of is not None:
            continue
        target = legacy if category.legacy else current
        target.setdefault(_fold(category.name), set()).add(category.code)
    names = {name: min(codes) for name, codes in legacy.items() if len(codes) == 1}
    names.update({name: min(codes) for name, codes in current.items() if len(codes) == 1})
    for name in current.keys() & legacy.keys():
        if len(current[name]) > 1:
            names.pop(name, None)
    names.update({_fold(name): code for name, code in _SUBJECT_ALIASES.items()})
    return names


def subject_code(subject: str) -> str | None:
    """Return the arXiv category code of one ``Subj-class`` entry, or None if unknown.

    The entry is a code (``math.QA``) or a subject name in any case, spacing or hyphenation
    (``Quantum Algebra``, ``High-Energy Physics - Theory``).
    """
    subject = collapse_spaces(subject)
    match = _CATEGORY.match(subject)
    if match and match.group(1) in _ARCHIVES:
        return subject
    return _subject_names().get(_fold(subject)) if subject else None


def _subjects(subj_class: str) -> tuple[list[str], list[str]]:
    """Return (category codes, unknown entries) of a ``Subj-class`` value.

    Entries are separated by ``;``; a name may hold a comma (``Data Analysis, Statistics
    and Probability``), so a comma separates entries only where the whole is unknown.
    """
    codes: list[str] = []
    unknown: list[str] = []
    for item in subj_class.split(";"):
        if not item.strip():
            continue
        code = subject_code(item)
        if code is not None:
            codes.append(code)
            continue
        parts = [part for part in item.split(",") if part.strip()]
        found = [subject_code(part) for part in parts]
        if len(parts) > 1 and all(found):
            codes.extend(code for code in found if code)
        else:
            unknown.append(collapse_spaces(item))
    return codes, unknown


def _categories(
    arxiv_id: str, subj_class: str | None
) -> tuple[str | None, tuple[str, ...], list[str]]:
    """Return (primary, cross-list categories, unknown Subj-class entries): the old-style
    id's archive, then the categories ``Subj-class`` names by code or by subject name."""
    codes, unknown = _subjects(subj_class or "")
    primary = arxiv_id.split("/", 1)[0] if "/" in arxiv_id else None
    if primary is None and codes:
        primary = codes[0]
    cross = tuple(code for code in dict.fromkeys(codes) if code != primary)
    return primary, cross, unknown


def _published(arxiv_id: str, date_text: str | None) -> tuple[date | None, bool]:
    """Return (first-posted date, whether it was taken from the id's year and month)."""
    encoded = id_year_month(arxiv_id)
    written = parse_abs_date(date_text) if date_text else None
    if written is not None and encoded is not None:
        id_month = date(*encoded, 1)
        if abs((written - id_month).days) > _DATE_SLACK_DAYS:
            written = None
    if written is not None:
        return written, False
    if encoded is not None:
        return date(*encoded, 1), True
    return None, False


def _without_trailing_mark(text: str) -> str:
    """Return an abstract without the ``\\\\`` line-end marks left at its end."""
    while text.endswith(_MARK):
        text = text[: -len(_MARK)].rstrip()
    return text


def _reject(path: str, line: int, reason: str, raw: str) -> Rejected:
    return Rejected(origin=Origin(path=path, line=line), reason=reason, raw=raw[:RAW_LIMIT])


def parse_abs(
    lines: Iterable[tuple[int, str]] | str, path: str, snapshot: str
) -> PaperRecord | Rejected:
    """Return the PaperRecord for one ``.abs`` record, or a Rejected saying what is wrong.

    ``lines`` is the record's text, or its (1-based line number, line) pairs; ``path`` is
    the origin path and ``snapshot`` the SnapshotRecord key. Never raises for bad content.
    """
    return _abs_items(lines, path, snapshot)[0]


def _raw(numbered: list[tuple[int, str]]) -> str:
    """Return a record's first 12 lines of content, the raw text a Rejected carries."""
    content = (line for _, line in numbered if line.strip() and not _is_preamble(line))
    return "\n".join(itertools.islice(content, 12))


def _abs_items(
    lines: Iterable[tuple[int, str]] | str,
    path: str,
    snapshot: str,
    long_lines: dict[int, LongLine] | None = None,
) -> list[PaperRecord | Rejected]:
    """Return the PaperRecord for one record (or a Rejected), then a Rejected for each part
    of it that was left out (``Subj-class`` entries that name no arXiv category) and for
    each line over the limit among ``lines`` (``long_lines``, which stand in ``lines`` as
    blank lines). A record with such a line in its header or abstract is left out, which
    that line's Rejected says."""
    if isinstance(lines, str):
        numbered = list(enumerate(lines.splitlines(), start=1))
    else:
        numbered = lines if isinstance(lines, list) else list(lines)
    if not long_lines or not any(number in long_lines for number, _ in numbered):
        return _record_items(numbered, path, snapshot, {})
    long_here = {number: long_lines.pop(number) for number, _ in numbered if number in long_lines}
    return _record_items(numbered, path, snapshot, long_here)


def _long_reject(path: str, number: int, line: LongLine, spoiled: str | None) -> Rejected:
    reason = line.reason("bytes")
    if spoiled is not None:
        reason += f"; the record it stands in ({spoiled}) was left out with it"
    return _reject(path, number, reason, line.head)


def _record_items(
    numbered: list[tuple[int, str]],
    path: str,
    snapshot: str,
    long_lines: dict[int, LongLine],
) -> list[PaperRecord | Rejected]:
    """``_abs_items`` of one record's numbered lines, with its lines over the limit."""
    first_line = numbered[0][0] if numbered else 1
    read = _read_record(numbered, long_lines)
    if long_lines:
        paper = read.fields.get("paper", "").strip()
        described = f"'Paper: {paper[:60]}', from line {first_line}" if paper else None
        found: list[PaperRecord | Rejected] = [
            _long_reject(
                path,
                number,
                line,
                (described or f"from line {first_line}") if number == read.spoiled else None,
            )
            for number, line in long_lines.items()
        ]
        if read.spoiled is not None:
            return found
        if not any(line.strip() and not _is_preamble(line) for _, line in numbered):
            return found  # nothing but the lines over the limit
        return [*_record_items(numbered, path, snapshot, {}), *found]
    named = _named(read, numbered, path, first_line)
    if isinstance(named, Rejected):
        return [named]
    return _paper_items(read, numbered, path, snapshot, named)


@dataclass
class _ReadRecord:
    """The fields of one .abs record as read: each header field's first value (lower-case
    name) and its line, every Date line, the abstract's lines, and the first line over the
    limit in the header or abstract (``spoiled``), if any."""

    fields: dict[str, str] = field(default_factory=dict)
    field_lines: dict[str, int] = field(default_factory=dict)
    dates: list[str] = field(default_factory=list)
    abstract: list[str] = field(default_factory=list)
    spoiled: int | None = None


def _read_record(numbered: list[tuple[int, str]], long_lines: dict[int, LongLine]) -> _ReadRecord:
    """Read one record's numbered lines into its fields (``long_lines`` stand in them as
    blank lines); reading stops at a line over the limit past the preamble."""
    read = _ReadRecord()
    fields, field_lines = read.fields, read.field_lines
    current: str | None = None
    # The record is a preamble (separator, "\\"), the header, "\\", the abstract, "\\".
    phase = "preamble"
    for index, (number, line) in enumerate(numbered):
        if long_lines and number in long_lines:
            if phase != "preamble":
                read.spoiled = number
                break
            continue
        stripped = line.strip()
        if stripped == _MARK:
            if phase == "header":
                phase = "abstract"
                if not long_lines:  # the abstract runs to the next "\\" line
                    read.abstract = _abstract_lines(numbered, index + 1)
                    break
            elif phase == "abstract":
                break
            continue
        if phase == "abstract":
            read.abstract.append(line)
            continue
        if not stripped or (phase == "preamble" and _SEPARATOR.match(stripped)):
            current = None
            continue
        # A field's name starts with a letter, so its line starts with no space.
        match = _FIELD.match(line)
        if match:
            phase = "header"
            name, value = match.groups()
            name = name.lower()
            if name.startswith("date"):
                read.dates.append(value)
            if name not in fields:
                fields[name] = value
                field_lines[name] = number
                current = name
            else:
                current = None
        elif current is not None:
            fields[current] = f"{fields[current]} {stripped}"
    return read


def _abstract_lines(numbered: list[tuple[int, str]], start: int) -> list[str]:
    """Return the lines from ``start`` up to the next ``\\\\`` line (or the end), without
    their numbers."""
    rest = [line for _, line in numbered[start:]]
    marks = [at for at, line in enumerate(rest) if line.strip() == _MARK]
    return rest[: marks[0]] if marks else rest


def _named(
    read: _ReadRecord, numbered: list[tuple[int, str]], path: str, first_line: int
) -> tuple[str, str] | Rejected:
    """Return a record's arXiv id and title, or the Rejected of a record without them."""
    if "paper" not in read.fields:
        return _reject(
            path,
            first_line,
            "no 'Paper:' line; an .abs record must name its paper as 'Paper: hep-th/NNNNNNN'",
            _raw(numbered),
        )
    paper_line = read.field_lines["paper"]
    paper = read.fields["paper"].strip()
    parsed = arxiv_id_and_version(paper.split()[0]) if paper else None
    if parsed is None:
        return _reject(
            path,
            paper_line,
            f"'Paper: {paper[:60]}' is not an arXiv id; expected e.g. 'Paper: hep-th/9201001'",
            _raw(numbered),
        )
    arxiv_id = parsed[0]
    title = collapse_spaces(read.fields.get("title", ""))
    if not title:
        return _reject(
            path,
            read.field_lines.get("title", paper_line),
            f"{arxiv_id} has no title; add a 'Title:' line to the header",
            _raw(numbered),
        )
    return arxiv_id, title


def _paper_items(
    read: _ReadRecord,
    numbered: list[tuple[int, str]],
    path: str,
    snapshot: str,
    named: tuple[str, str],
) -> list[PaperRecord | Rejected]:
    """Return the PaperRecord of a record with its arXiv id and title (``named``), then the
    Rejected of its Subj-class entries that name no category; or the record's Rejected."""
    arxiv_id, title = named
    fields, paper_line = read.fields, read.field_lines["paper"]
    published, from_id = _published(arxiv_id, fields.get("date"))
    primary, cross, unknown = _categories(arxiv_id, fields.get("subj-class"))
    author_text = fields.get("authors", fields.get("author"))
    extra: dict[str, str | int | float | bool | None] = {}
    if report_no := collapse_spaces(fields.get("report-no", "")):
        extra["report_no"] = report_no
    if from_id:
        extra["published_from_id"] = True
    values: PaperValues = {
        "origin": Origin(path=path, line=paper_line),
        "snapshot": snapshot,
        "as_of": published,
        "arxiv_id": arxiv_id,
        "version": max(len(read.dates), 1),
        "title": title,
        "year": published.year if published else None,
        "published": published,
        "abstract": _without_trailing_mark(collapse_spaces("\n".join(read.abstract))) or None,
        "journal_ref": collapse_spaces(fields.get("journal-ref", "")) or None,
        "comments": collapse_spaces(fields.get("comments", "")) or None,
        "primary_category": primary,
        "cross_categories": cross,
        "authors": split_authors(author_text) if author_text else (),
        "extra": extra,
    }
    try:
        # Values validation keeps as they are need no validation (checked_paper says which).
        record = checked_paper(values) or PaperRecord(**values)
    except ValidationError as exc:
        return [
            _reject(path, paper_line, f"invalid record: {validation_reason(exc)}", _raw(numbered))
        ]
    if problem := record_problem(record):
        return [_reject(path, paper_line, problem, _raw(numbered))]
    items: list[PaperRecord | Rejected] = [record]
    if unknown:
        shown = "; ".join(f"'{entry[:80]}'" for entry in unknown)
        items.append(
            _reject(
                path,
                read.field_lines["subj-class"],
                f"Subj-class: {shown} names no arXiv category (e.g. 'Quantum Algebra' or "
                f"'math.QA'); {arxiv_id} loaded without it",
                _raw(numbered),
            )
        )
    return items


def _decode(data: bytes | bytearray) -> str:
    """Return a line of text: UTF-8, or Latin-1 for the odd old file that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class _Readable(Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...


def _lines(handle: _Readable) -> Iterator[tuple[int, str | LongLine]]:
    """Yield (1-based line number, line without its ending) from a binary handle, read a line
    or a MiB at a time (so the lines before a read error are yielded). A line ends in LF,
    CRLF or CR; one over ``MAX_LINE_LENGTH`` bytes is yielded as a LongLine, read past
    without being held whole."""
    limit = line_limit()
    number = 0
    pending = bytearray()  # the start of a line whose end is not read yet
    skipped: int | None = None  # how much of an over-long line was read past
    head = ""
    after_cr = False  # the last piece ended in CR: an LF first in the next is its CRLF
    while chunk := handle.readline(_READ):
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        after_cr = chunk.endswith(b"\r")
        if (
            skipped is None
            and not pending
            and len(chunk) <= limit
            and chunk.endswith(b"\n")
            and chunk.find(b"\r", 0, len(chunk) - 2) < 0
        ):
            number += 1  # one whole line, the common case
            yield number, _decode(chunk).rstrip("\r\n")
            continue
        pieces = _LINE_BREAK.split(chunk)
        for piece in itertools.islice(pieces, len(pieces) - 1):
            number += 1
            if skipped is not None:
                yield number, LongLine(skipped + len(piece), head, limit)
                skipped = None
            elif len(pending) + len(piece) > limit:
                line = pending + piece
                yield number, LongLine(len(line), _decode(line[:_LONG_LINE_HEAD]), limit)
            else:
                yield number, _decode(pending + piece)
            pending = bytearray()
        last = pieces[-1]
        if skipped is not None:
            skipped += len(last)
        elif len(pending) + len(last) > limit:
            skipped = len(pending) + len(last)
            head = _decode((pending + last)[:_LONG_LINE_HEAD])
            pending = bytearray()
        else:
            pending += last
    if skipped is not None:
        yield number + 1, LongLine(skipped, head, limit)
    elif pending:
        yield number + 1, _decode(pending)


def _member_items(data: bytes, name: str, snapshot: str) -> Iterator[PaperRecord | Rejected]:
    """Yield what ``_part_items`` yields for the ``_lines`` of this content (a tar member's,
    under 1 MiB). Content that is all UTF-8 (then every line is, as a line break never
    falls inside a UTF-8 character) and holds no line over the limit is decoded in one
    call; when it is one record, as an .abs file is, that record is read whole."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or len(data) > line_limit():
        yield from _part_items(_lines(io.BytesIO(data)), name, snapshot)
        return
    if "\r" in text:
        pieces = _TEXT_LINE_BREAK.split(text)
        papers = sum(line.startswith("Paper:") for line in pieces)
    else:
        pieces = text.split("\n")
        papers = text.startswith("Paper:") + text.count("\nPaper:")
    if pieces[-1] == "":
        pieces.pop()
    numbered = list(enumerate(pieces, start=1))
    if len(numbered) > MAX_RECORD_LINES or papers > 1:
        yield from _records(numbered, name, snapshot)
    # _records of lines of which at most one starts a record, none over the limit (a line
    # starting "Paper:" is content, neither blank nor preamble)
    elif papers or any(line.strip() and not _is_preamble(line) for line in pieces):
        yield from _abs_items(numbered, name, snapshot)


def _records(
    lines: Iterable[tuple[int, str | LongLine]], path: str, snapshot: str
) -> Iterator[PaperRecord | Rejected]:
    """Yield one parsed item per record in a stream of lines.

    A ``Paper:`` line after a separator or ``\\\\`` line, or naming an arXiv id, starts a new
    record, so a file may hold one record or a whole concatenated listing. A line over the
    limit (a LongLine) is a Rejected, and so is the record whose header or abstract holds it.
    """
    chunk: list[tuple[int, str]] = []
    has_paper = False
    # The last non-blank line kept; whether it was preamble is asked only at a "Paper:" line.
    last_kept: str | None = None
    skipping_from: int | None = None
    long_lines: dict[int, LongLine] = {}  # those in ``chunk``, which holds them as blank
    for number, item in lines:
        if isinstance(item, LongLine):
            if skipping_from is None:
                long_lines[number] = item
            else:
                yield _reject(path, number, item.reason("bytes"), item.head)
            line = ""
        else:
            line = item
        starts = _PAPER_LINE.match(line) if line.startswith("Paper:") else None
        if starts and (
            last_kept is None
            or _is_preamble(last_kept)
            or arxiv_id_and_version(starts.group(1)) is not None
        ):
            if skipping_from is not None:
                yield _overflow(path, skipping_from)
                skipping_from, chunk = None, []
            elif has_paper:
                # The separator and "\\" lines just before belong to the new record (a line
                # over the limit, held as blank, is content: it stays).
                cut = len(chunk)
                while cut and (
                    (not chunk[cut - 1][1].strip() and chunk[cut - 1][0] not in long_lines)
                    or _is_preamble(chunk[cut - 1][1])
                ):
                    cut -= 1
                yield from _abs_items(chunk[:cut], path, snapshot, long_lines)
                chunk = chunk[cut:]
            has_paper = True
        elif skipping_from is not None:
            continue
        chunk.append((number, line))
        if line and not line.isspace():  # line.strip() is not empty
            last_kept = line
        if len(chunk) > MAX_RECORD_LINES:
            for at, long_line in long_lines.items():
                yield _reject(path, at, long_line.reason("bytes"), long_line.head)
            skipping_from, chunk, has_paper = chunk[0][0], [], False
            long_lines = {}
    if skipping_from is not None:
        yield _overflow(path, skipping_from)
    elif long_lines or any(line.strip() and not _is_preamble(line) for _, line in chunk):
        yield from _abs_items(chunk, path, snapshot, long_lines)


def _is_preamble(line: str) -> bool:
    stripped = line.strip()
    # ``_SEPARATOR`` on stripped text: ten or more dashes and nothing else.
    return stripped == _MARK or (len(stripped) >= 10 and not stripped.strip("-"))


def _overflow(path: str, line: int) -> Rejected:
    return _reject(
        path,
        line,
        f"record runs over {MAX_RECORD_LINES} lines without a new 'Paper:' line; "
        "this does not look like an .abs file, check the input",
        "",
    )


def is_tar(path: Path) -> bool:
    """Return True when the (decompressed) file is a tar archive (ustar magic)."""
    try:
        with open_binary(path) as handle:
            head = handle.read(_TAR_MAGIC_OFFSET + 5)
    except READ_ERRORS as exc:
        raise read_error(path, exc) from exc
    return head[_TAR_MAGIC_OFFSET:] == b"ustar"


def _held_tar(path: Path) -> bytes | None:
    """Return the decompressed content of a (gzipped) tar of at most ``_HELD_TAR_BYTES``,
    read in one pass, so that it is hashed and parsed without decompressing it twice;
    None for any other file, a larger one, or one that fails to read (then it is read
    twice, streaming, and the failure reported as there)."""
    try:
        if path.stat().st_size > _HELD_TAR_BYTES or _gzip_size(path) > _HELD_TAR_BYTES:
            return None
        if not is_tar(path):
            return None
        held = io.BytesIO()  # written a MiB at a time, so memory holds the content once
        with open_binary(path) as handle:
            while chunk := handle.read(_READ):
                if held.write(chunk) and held.tell() > _HELD_TAR_BYTES:
                    return None
    except (SourceError, *READ_ERRORS):
        return None
    return held.getvalue()


def _gzip_size(path: Path) -> int:
    """Return the decompressed size a gzip file states in its last four bytes (modulo
    2**32, of its last member only: a hint, not a bound), or 0 for a file that is no gzip."""
    with path.open("rb") as handle:
        if handle.read(2) != GZIP_MAGIC:
            return 0
        handle.seek(-4, os.SEEK_END)
        return int.from_bytes(handle.read(4), "little")


def _abs_files(root: Path) -> Iterator[Path]:
    """Yield the ``.abs`` files under a directory in sorted order, walking lazily.

    A FIFO, socket or device named ``.abs`` is left out (opening a FIFO waits for a writer
    forever); a link that leads nowhere is yielded, so that reading it rejects it by name.
    """
    for folder, subfolders, names in os.walk(root):
        subfolders.sort()
        for name in sorted(names):
            if name.endswith(ABS_SUFFIXES):
                file = Path(folder, name)
                try:
                    regular = stat.S_ISREG(file.stat().st_mode)
                except OSError:
                    regular = True  # a link that leads nowhere, or no permission
                if regular:
                    yield file


def _directory_sha256(root: Path) -> str:
    """Return a sha256 over every ``.abs`` file's relative path and content digest (a file
    that cannot be read counts by its name, and is rejected when its records are read)."""
    return folder_sha256(root, _abs_files(root))


def _unreadable(name: str, line: int, reason: str, hint: str) -> Rejected:
    """Return the Rejected of a folder's ``.abs`` file or a tar's member that cannot be
    read from ``line`` on: the records before it, and the other files, still load."""
    if line == 1:
        return _reject(name, line, f"{reason}: {hint}; the other .abs files loaded", "")
    return _reject(
        name,
        line,
        f"{reason}, from this line on: {hint}, then load it again (the records that end "
        "before this line and the other .abs files loaded)",
        "",
    )


def _part_items(
    lines: Iterable[tuple[int, str | LongLine]], name: str, snapshot: str
) -> Iterator[PaperRecord | Rejected]:
    """Yield the records of one ``.abs`` file of a folder or tar, then, when its content
    breaks off (a truncated or corrupt gzip, an I/O error), a Rejected saying where."""
    last = 0

    def counted() -> Iterator[tuple[int, str | LongLine]]:
        nonlocal last
        for number, line in lines:
            last = number
            yield number, line

    try:
        yield from _records(counted(), name, snapshot)
    except READ_ERRORS as exc:
        error = read_error(name, exc, "check that it is complete and not corrupt")
        yield _unreadable(name, last + 1, error.message.removeprefix(f"{name}: "), error.hint)


def _content_items(data: bytes, name: str, snapshot: str) -> Iterator[PaperRecord | Rejected]:
    """Yield the records of one ``.abs`` (or ``.abs.gz``) tar member's content."""
    if name.endswith(".gz"):
        yield from _part_items(_lines(gzip.GzipFile(fileobj=io.BytesIO(data))), name, snapshot)
    else:
        yield from _member_items(data, name, snapshot)


def _opened(path: Path, held: bytes | None) -> IO[bytes]:
    """Return a handle on a file's decompressed content, or on ``held`` when given."""
    return open_binary(path) if held is None else io.BytesIO(held)


def _tar_items(
    path: Path, snapshot: str, held: bytes | None = None
) -> Iterator[PaperRecord | Rejected]:
    """Yield the records of every ``.abs`` member of a (gzipped) tar, streaming it once (a
    second time from where a member is not plain, see ``PlainTar``); from ``held``, its
    decompressed content, when ``_held_tar`` read it whole."""
    found = 0
    try:
        with _opened(path, held) as handle:
            plain = PlainTar(handle, _WHOLE_MEMBER_BYTES)
            for name, content in plain.members():
                if content is not None and name.endswith(ABS_SUFFIXES):
                    found += 1
                    yield from _content_items(content, f"{path}:{name}", snapshot)
        if not plain.finished:
            found += yield from _tarfile_items(path, snapshot, plain.passed, held)
    except (tarfile.TarError, *READ_ERRORS) as exc:
        raise read_error(
            path, exc, "check that the file is complete and not corrupt", "the tar archive"
        ) from exc
    if not found:
        raise SourceError(
            f"{path}: the tar archive holds no .abs files",
            "pass the KDD Cup 2003 cit-HepTh-abstracts tarball or a directory of .abs files",
        )


def _tarfile_items(
    path: Path, snapshot: str, passed: int, held: bytes | None = None
) -> Generator[PaperRecord | Rejected, None, int]:
    """Yield the records of every ``.abs`` member of a (gzipped) tar (from ``held``, its
    content, if given) but the first ``passed`` members, read by tarfile; return how many
    ``.abs`` members it read."""
    found = 0
    with _opened(path, held) as handle, tarfile.open(fileobj=handle, mode="r|*") as archive:
        for _ in range(passed):
            archive.next()
        while (member := archive.next()) is not None:
            # Stream mode still keeps every member it has passed (29,555 TarInfo for the
            # KDD tarball); forget them so memory stays flat. typeshed omits the attribute.
            archive.members.clear()  # type: ignore[attr-defined]
            if not (member.isfile() and member.name.endswith(ABS_SUFFIXES)):
                continue
            content = archive.extractfile(member)
            if content is None:
                continue
            found += 1
            name = f"{path}:{member.name}"
            with content:
                if member.size <= _WHOLE_MEMBER_BYTES:
                    # Read whole first: an error here is the archive's, one while the
                    # content is decompressed the member's own.
                    yield from _content_items(content.read(), name, snapshot)
                    continue
                lines = _lines(gzip.GzipFile(fileobj=content) if name.endswith(".gz") else content)
                yield from _part_items(lines, name, snapshot)
    return found


def _file_items(file: Path, snapshot: str) -> Iterator[PaperRecord | Rejected]:
    """Yield the records of one plain or gzipped ``.abs`` file."""
    try:
        with open_binary(file) as handle:
            yield from _records(_lines(handle), str(file), snapshot)
    except READ_ERRORS as exc:
        raise read_error(file, exc, "check that the file is complete and not corrupt") from exc


def _folder_file_items(file: Path, snapshot: str) -> Iterator[PaperRecord | Rejected]:
    """Yield the records of one ``.abs`` file of a folder; one that cannot be read, or not
    to its end, is rejected by name, and the folder's other files still load."""
    if not file.exists():
        yield _unreadable(
            str(file),
            1,
            "a symbolic link that leads nowhere (a loop, or a missing target)",
            "point the link at an .abs file, or remove it",
        )
        return
    try:
        handle = open_binary(file)
    except READ_ERRORS as exc:
        error = read_error(file, exc, "check it")
        yield _unreadable(str(file), 1, error.message.removeprefix(f"{file}: "), error.hint)
        return
    except SourceError as exc:
        yield _unreadable(str(file), 1, exc.message.removeprefix(f"{file}: "), "check it")
        return
    with handle:
        yield from _part_items(_lines(handle), str(file), snapshot)


def parse(path: Path) -> Iterator[ParsedItem]:
    """Yield the snapshot, then one PaperRecord or Rejected per ``.abs`` record.

    ``path`` is a (gzipped) tarball of ``.abs`` files, a directory of them, or one file.
    A file of the directory or member of the tarball that cannot be read (a truncated or
    corrupt gzip, a link that leads nowhere) is a Rejected naming it, and the others load;
    a FIFO, socket or device named ``.abs`` is skipped. Raises SourceError when ``path``
    itself cannot be read or holds no ``.abs`` files.
    """
    if path.is_dir():
        sha256 = _directory_sha256(path)
        if sha256 == hashlib.sha256().hexdigest():
            raise SourceError(
                f"{path}: the directory holds no .abs files", "pass a directory of .abs files"
            )
        held = None
    else:
        held = _held_tar(path)
        sha256 = content_sha256(path) if held is None else hashlib.sha256(held).hexdigest()
    key = snapshot_key(sha256)
    yield SnapshotRecord(key=key, kind="hepth_abs", source=path.name, sha256=sha256)
    if path.is_dir():
        for file in _abs_files(path):
            yield from _folder_file_items(file, key)
    elif held is not None:
        yield from _tar_items(path, key, held)
    elif is_tar(path):
        yield from _tar_items(path, key)
    else:
        yield from _file_items(path, key)
