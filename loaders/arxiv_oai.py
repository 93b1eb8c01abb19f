"""The arXiv metadata snapshot (Kaggle / OAI JSON lines): one paper per line, streamed.

Each line is a JSON object with ``id``, ``title``, ``authors``, ``authors_parsed``,
``categories``, ``versions``, ``update_date`` and more; any field but ``id`` may be null or
missing. Yields a ``SnapshotRecord`` first, a ``PaperRecord`` or ``Rejected`` per non-blank
line, and a closing ``SnapshotRecord`` carrying the newest and oldest ``update_date``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import date
from email.utils import parsedate_to_datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import SourceError
from .records import (
    MAX_YEAR,
    MIN_YEAR,
    Origin,
    PaperRecord,
    ParsedItem,
    Rejected,
    SnapshotRecord,
    StagedBlock,
)
from .source_file import (
    MAX_CATEGORY_CHARS,
    MAX_INT,
    BlockStage,
    DateSpan,
    LongLine,
    NumberedLine,
    arxiv_id_and_version,
    bounded_int,
    date_problem,
    file_snapshot,
    latin1_line,
    numbered_lines,
    record_problem,
    replaced,
    undecodable,
    version_problem,
    year_problem,
)
from .taxonomy import is_category_code
from .text import collapse_spaces, latex_to_unicode

__all__ = [
    "BLOCK_LINES",
    "id_year_month",
    "latex_name",
    "line_items",
    "metadata_record",
    "parse",
    "parse_in_blocks",
    "split_authors",
    "validation_reason",
]

RAW_LIMIT = 500
BLOCK_LINES = 1_000
"""Lines a block of ``parse_in_blocks`` holds: enough that handing one to another process
costs little beside reading it, few enough that the blocks in flight stay small."""
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*(?:\n[ \t]*)+|\n(?=[ \t])")
_AND = re.compile(r"\s+(?:and|&)\s+|\\and\b", re.IGNORECASE)
_SEPARATORS = re.compile(r"[,;]")
_FLAT_PARENTHESES = re.compile(r"[^()]*(?:\([^()]*\)[^()]*)*")
"""Text whose parentheses all pair up and none nests (the common author string)."""
_PARENTHESISED = re.compile(r"\([^()]*\)")
_SUFFIX = re.compile(r"^(?:jr|jnr|sr|ii|iii|iv)\.?$", re.IGNORECASE)
_LEADING_AND = re.compile(r"^(?:and|&)\s+", re.IGNORECASE)
_NOT_NAMES = frozenset({"and", "latex", "tex", "revtex", "plain tex", "amstex"})
_ET_AL = re.compile(r"\s*\bet\.?\s+al\.?$", re.IGNORECASE)
_ASCII_DIGITS = frozenset("0123456789")
_VERSION = re.compile(r"^v(\d+)$")
_UPDATE_DATE_KEY = '"update_date"'
_UPDATE_DATE = re.compile(r'"update_date"\s*:\s*(?:null|"([0-9]{4}-[0-9]{2}-[0-9]{2})")')
_UNSURE = object()
_WRITTEN_YEAR = re.compile(r"(?<![\d:+\-.])([0-9]{3,})(?![\d:])")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# The one spelling arXiv writes ("Mon, 2 Apr 2007 19:18:42 GMT"), read without the email
# module; anything else goes through parsedate_to_datetime as before.
_ARXIV_DATE = re.compile(
    r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{1,2}) (" + "|".join(_MONTHS) + r") "
    r"([12][0-9]{3}) (?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9] GMT"
)


_ICONV = "iconv -f LATIN1 -t UTF-8 FILE > NEW"
_LATIN1_NOTE = (
    "the line is not UTF-8, so it was read as Latin-1, as the .abs parser reads such lines, "
    "and the record loaded so; if its text reads wrong, save the file as UTF-8 from its "
    f"real encoding (e.g. {_ICONV}) and load that"
)
_MIXED_BYTES = (
    "the line mixes UTF-8 characters with bytes that are not UTF-8, which no one encoding "
    "reads; it was not loaded: save the file as UTF-8 (e.g. "
    f"{_ICONV} when it is all Latin-1) or fix the line"
)


class _BadLine(Exception):
    """A line that cannot become a PaperRecord; its message is the Rejected reason."""


def latex_name(text: str) -> str:
    """Return a name with LaTeX letters (``\\l``, ``\\o``, ``\\aa``) and accents in Unicode."""
    return collapse_spaces(latex_to_unicode(text))


def split_authors(text: str) -> tuple[str, ...]:
    """Return the names in an arXiv author string, in order.

    Names are separated by ``,``, ``;``, `` and `` or `` & ``; parenthesised affiliations
    (nested too) are dropped and separate the names around them, LaTeX becomes Unicode,
    ``Jr.``-style suffixes join the name before them, and text from the first word with a
    digit on (``11 pages``, a report number) is cut off.
    """
    text = _drop_parentheses(collapse_spaces(text))
    names: list[str] = []
    for piece in _SEPARATORS.split(_AND.sub(",", text)):
        name, suffix = _piece_name(piece)
        if not name:
            continue
        if suffix and names:
            names[-1] = f"{names[-1]} {name}"
        else:
            names.append(name)
    return tuple(names)


@lru_cache(maxsize=1 << 16)  # an author comes back paper after paper
def _piece_name(piece: str) -> tuple[str, bool]:
    """Return the name one piece of an author string gives ('' for none: no words before
    one with a digit, or a word such as ``LaTeX``) and whether it is a ``Jr.``-style
    suffix."""
    words = []
    for word in _LEADING_AND.sub("", _ET_AL.sub("", piece.strip())).split():
        if _has_digit(word):
            break
        words.append(word)
    name = latex_name(" ".join(words)).strip(" :;-\u2013\u2014").lstrip(". ")
    if not name or name.lower() in _NOT_NAMES:
        return "", False
    return name, _SUFFIX.match(name) is not None


def _has_digit(word: str) -> bool:
    """Return True when a word holds a digit (``str.isdigit``), cheaply for ASCII words."""
    if word.isascii():
        return not _ASCII_DIGITS.isdisjoint(word)
    return any(char.isdigit() for char in word)


def _drop_parentheses(text: str) -> str:
    """Return ``text`` with each parenthesised part (nested too) replaced by a comma.

    An unmatched ``)`` becomes a comma; an unmatched ``(``, left by an affiliation cut off
    in a truncated field, drops everything from it on. One pass, so a hostile string of
    nested parentheses costs linear time.
    """
    if "(" not in text and ")" not in text:
        return text
    if _FLAT_PARENTHESES.fullmatch(text):
        return _PARENTHESISED.sub(",", text)
    return _drop_nested_parentheses(text)


def _drop_nested_parentheses(text: str) -> str:
    """``_drop_parentheses`` of any text, a character at a time."""
    kept: list[str] = []
    depth = 0
    opened = 0  # where, in ``kept``, the outermost open "(" stood
    for char in text:
        if char == "(":
            if depth == 0:
                opened = len(kept)
            depth += 1
        elif char == ")":
            if depth == 0:
                kept.append(",")
            else:
                depth -= 1
                if depth == 0:
                    kept.append(",")
        elif depth == 0:
            kept.append(char)
    return "".join(kept[:opened] if depth else kept)


def id_year_month(arxiv_id: str) -> tuple[int, int] | None:
    """Return the (year, month) an arXiv id encodes (``hep-th/9201001`` -> 1992, 1), or None."""
    digits = arxiv_id.rsplit("/", 1)[-1].split(".", 1)[0]
    if len(digits) < 4 or not digits[:4].isdigit():
        return None
    yy, month = int(digits[:2]), int(digits[2:4])
    if not 1 <= month <= 12:
        return None
    # Old-style ids start in August 1991; new-style ids start in April 2007.
    if "/" in arxiv_id:
        return (1900 + yy if yy >= 91 else 2000 + yy), month
    return 2000 + yy, month


def validation_reason(exc: ValidationError, element: str | None = None) -> str:
    """Return a one-line summary of a pydantic error, for a Rejected reason. With
    ``element``, the input is a list and an error names its element by its 1-based place
    (``split 2, keys: …`` for ``element="split"``)."""
    parts = []
    for error in exc.errors():
        loc = error["loc"]
        if element is not None and loc and isinstance(loc[0], int):
            where = ", ".join([f"{element} {loc[0] + 1}", *(str(item) for item in loc[1:])])
        else:
            where = ".".join(str(item) for item in loc)
        parts.append(f"{where}: {error['msg']}" if where else str(error["msg"]))
    return "; ".join(parts)


def _text(obj: dict[str, Any], field: str) -> str | None:
    """Return the field with white space collapsed, None when null, missing or blank."""
    value = obj.get(field)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _BadLine(f"field {field!r} must be a string or null, not {type(value).__name__}")
    return collapse_spaces(value) or None


def _abstract(obj: dict[str, Any]) -> str | None:
    """Return the abstract with its paragraphs kept, None when null, missing or blank.

    In the OAI text a blank line, or a line break followed by indentation, starts a new
    paragraph; white space is folded within each paragraph, and paragraphs are joined by
    a blank line as on a map page.
    """
    value = obj.get("abstract")
    if value is None:
        return None
    if not isinstance(value, str):
        raise _BadLine(f"field 'abstract' must be a string or null, not {type(value).__name__}")
    text = value.replace("\r\n", "\n").replace("\r", "\n").strip()
    paragraphs = (collapse_spaces(part) for part in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(part for part in paragraphs if part) or None


def _parsed_authors(value: Any) -> tuple[str, ...] | None:
    """Return names from ``authors_parsed`` ([last, first, suffix] lists), None if unusable."""
    if not isinstance(value, list) or not value:
        return None
    names = []
    for entry in value:
        if not isinstance(entry, list) or not all(isinstance(part, str) for part in entry):
            return None
        last, first, suffix = [*entry, "", "", ""][:3]
        name = latex_name(f"{first} {last} {suffix}")  # folded already
        if name:
            names.append(name)
    return tuple(names) or None


def _authors(obj: dict[str, Any]) -> tuple[str, ...]:
    """Return the authors, from ``authors_parsed`` when usable, else the ``authors`` string."""
    parsed = _parsed_authors(obj.get("authors_parsed"))
    if parsed is not None:
        return parsed
    text = _text(obj, "authors")
    return split_authors(text) if text else ()


def _categories(obj: dict[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    """Return (primary category, cross-list categories) from the space-separated field."""
    value = obj.get("categories")
    if value is None:
        return None, ()
    if not isinstance(value, str):
        raise _BadLine(
            f"field 'categories' must be a space-separated string such as 'hep-th math.QA', "
            f"not {type(value).__name__}"
        )
    codes = list(dict.fromkeys(value.split()))
    if not codes:
        return None, ()
    for code in codes:
        if len(code) > MAX_CATEGORY_CHARS or not is_category_code(code):
            raise _BadLine(
                f"categories: {code[:60]!r} is not an arXiv category code such as 'cs.LG'"
            )
    return codes[0], tuple(codes[1:])


def _versions(obj: dict[str, Any]) -> tuple[int | None, date | None]:
    """Return (latest version number, date of the first version) from ``versions``."""
    value = obj.get("versions")
    if value is None or value == []:
        return None, None
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise _BadLine(
            'field \'versions\' must be a list of {"version": "v1", "created": ...} objects'
        )
    numbers = [
        bounded_int(match.group(1))
        for item in value
        if isinstance(item.get("version"), str) and (match := _VERSION.match(item["version"]))
    ]
    if None in numbers:
        raise _BadLine(f"versions: a version number is over {MAX_INT:,}, the largest Neo4j stores")
    latest = max(number for number in numbers if number is not None) if numbers else len(value)
    created = value[0].get("created")
    if created is None:
        return latest, None
    if not isinstance(created, str):
        raise _BadLine(
            "versions[0].created must be a date string like 'Mon, 2 Apr 2007 19:18:42 GMT'"
        )
    written = _arxiv_date(created)
    if written is None:
        # The email module reads a year of 0 to 99 as 19xx/20xx, whatever its digits:
        # "Apr 0000" would be 2000. A year written with three or more digits is read as is.
        year = _WRITTEN_YEAR.search(created)
        if year and (len(year[1]) != 4 or year_problem("", int(year[1]))):
            raise _BadLine(
                f"versions[0].created: the year {year[1][:20]} is not between {MIN_YEAR} and "
                f"{MAX_YEAR} ({created[:60]!r}); fix the date"
            )
        try:
            written = parsedate_to_datetime(created).date()
        except (TypeError, ValueError, IndexError, OverflowError):
            raise _BadLine(
                f"bad date in versions[0].created: {created!r}; "
                "expected RFC 2822 like 'Mon, 2 Apr 2007 19:18:42 GMT'"
            ) from None
    if problem := date_problem("versions[0].created", written):
        raise _BadLine(f"{problem} ({created[:60]!r}); fix the date")
    return latest, written


def _arxiv_date(text: str) -> date | None:
    """Return the date of an arXiv-style ``created`` stamp in GMT, or None when it is spelt
    otherwise or names no real day (``parsedate_to_datetime`` then decides)."""
    match = _ARXIV_DATE.fullmatch(text)
    if match is None:
        return None
    try:
        return date(int(match[3]), _MONTHS.index(match[2]) + 1, int(match[1]))
    except ValueError:
        return None


def _update_date(obj: dict[str, Any]) -> date | None:
    """Return ``update_date`` as a date, None when null or missing."""
    value = obj.get("update_date")
    if value is None:
        return None
    if isinstance(value, str):
        try:
            stated = date.fromisoformat(value.strip())
        except ValueError:
            pass
        else:
            if problem := date_problem("update_date", stated):
                # A placeholder like 9999-12-31 would win over every later correction.
                raise _BadLine(f"{problem} ({value[:40]!r}); fix the date or set it to null")
            return stated
    raise _BadLine(f"bad update_date {value!r}; expected YYYY-MM-DD, e.g. '2008-11-13'")


def _paper(obj: Any, origin: Origin, snapshot: str) -> PaperRecord:
    """Return the PaperRecord for one decoded line; raises _BadLine when it is unusable."""
    if not isinstance(obj, dict):
        raise _BadLine(f"expected a JSON object per line, found a JSON {type(obj).__name__}")
    raw_id = obj.get("id")
    if raw_id is None:
        raise _BadLine("no 'id' field; every line needs an arXiv id such as '2110.03888'")
    if not isinstance(raw_id, str):
        raise _BadLine(
            f"'id' must be a string such as \"0704.0001\", not {type(raw_id).__name__} "
            f"{raw_id!r} (a number loses leading and trailing zeros)"
        )
    parsed = arxiv_id_and_version(raw_id)
    if parsed is None:
        raise _BadLine(
            f"id {raw_id[:60]!r} is not an arXiv id; expected e.g. '2110.03888' or 'hep-th/9901001'"
        )
    if problem := version_problem(raw_id):
        raise _BadLine(f"id: {problem}")
    arxiv_id, id_version = parsed
    primary, cross = _categories(obj)
    latest, published = _versions(obj)
    as_of = _update_date(obj)
    year = published.year if published else None
    if year is None and (encoded := id_year_month(arxiv_id)):
        year = encoded[0]
    report_no = _text(obj, "report-no")
    try:
        record = PaperRecord(
            origin=origin,
            snapshot=snapshot,
            as_of=as_of,
            arxiv_id=arxiv_id,
            version=latest or id_version,
            title=_text(obj, "title"),
            year=year,
            published=published,
            abstract=_abstract(obj),
            license=_text(obj, "license"),
            doi=_text(obj, "doi"),
            journal_ref=_text(obj, "journal-ref"),
            comments=_text(obj, "comments"),
            primary_category=primary,
            cross_categories=cross,
            authors=_authors(obj),
            extra={"report_no": report_no} if report_no else {},
        )
    except ValidationError as exc:
        raise _BadLine(f"invalid record: {validation_reason(exc)}") from None
    if problem := record_problem(record):
        raise _BadLine(problem)
    return record


def metadata_record(obj: object, origin: Origin, snapshot: str) -> PaperRecord | str:
    """Return the PaperRecord of one decoded line of the metadata snapshot (or an object of
    its shape, such as unarXive's ``metadata``), or why it cannot be one."""
    try:
        return _paper(obj, origin, snapshot)
    except _BadLine as exc:
        return str(exc)


def _stated_update_date(text: str) -> date | object | None:
    """Return the ``update_date`` a line states without decoding it, or ``_UNSURE``: when
    the key is absent (and no escape could spell it), None; when it is there once, with null
    or a real ISO date, that. Anything else is for the JSON decoder to read. (A line whose
    only ``update_date`` key sits in a nested object would be misread; arXiv's records have
    no nested one.)"""
    count = text.count(_UPDATE_DATE_KEY)
    if count == 0:
        return None if "\\u" not in text else _UNSURE
    match = _UPDATE_DATE.search(text) if count == 1 else None
    if match is None:
        return _UNSURE
    if not match[1]:
        return None
    try:
        stated = date.fromisoformat(match[1])
    except ValueError:  # no such day: the decoder rejects the line
        return _UNSURE
    return _UNSURE if date_problem("update_date", stated) else stated  # rejected there too


def parse(path: Path, unchanged: Callable[[str], bool] | None = None) -> Iterator[ParsedItem]:
    """Yield the snapshot, one PaperRecord or Rejected per non-blank line, then the snapshot
    again with ``data_date`` (newest ``update_date``) and ``first_date`` (oldest).

    ``unchanged`` (an incremental load) says which lines an older snapshot holds as they
    are: those are not decoded, and only their ``update_date`` counts for the dates.

    A line that is not UTF-8 is read as Latin-1, as the .abs parser reads such lines, and
    loads with a reject saying so (a note, so that nothing changes unsaid); one that mixes
    UTF-8 with other bytes is rejected. A line over ``MAX_LINE_LENGTH`` is rejected.

    Raises SourceError when the file cannot be read.
    """
    snapshot = file_snapshot(path, "arxiv_oai")
    yield snapshot
    span = DateSpan()
    shown = str(path)
    for number, line in numbered_lines(path, errors="surrogateescape"):
        decoded = _decoded(shown, number, line)
        if decoded is None:
            continue
        if isinstance(decoded, Rejected):
            yield decoded
            continue
        line, text, latin1 = decoded
        if unchanged is not None and not latin1 and _held(text, unchanged, span):
            continue
        origin = Origin(path=shown, line=number)
        for item in _line_items(origin, line, text, latin1, snapshot.key):
            if isinstance(item, PaperRecord):
                span.add(item.as_of)
            yield item
    yield span.closing(snapshot)


def line_items(path: str, snapshot: str, number: int, line: str | LongLine) -> list[ParsedItem]:
    """The items ``parse`` yields for line ``number`` of the file ``path`` (as ``Origin``
    names it) whose snapshot key is ``snapshot``, read whole (no older snapshot): a
    PaperRecord, a Rejected, both (a line read as Latin-1), or none (a blank line). Lines
    are independent of each other, so they can be read in any process (``parse_in_blocks``).
    """
    decoded = _decoded(path, number, line)
    if decoded is None:
        return []
    if isinstance(decoded, Rejected):
        return [decoded]
    line, text, latin1 = decoded
    return list(_line_items(Origin(path=path, line=number), line, text, latin1, snapshot))


def parse_in_blocks(path: Path, stage: BlockStage) -> Iterator[SnapshotRecord | StagedBlock]:
    """``parse`` of a whole file, its lines handed to ``stage`` in blocks of ``BLOCK_LINES``
    with ``line_items`` (bulk mode's stage runs it on them in other processes): yields the
    snapshot, the StagedBlocks ``stage`` yields in the order of their lines, then the
    snapshot dated by their records' ``as_of``, as ``parse`` does.

    Raises SourceError when the file cannot be read.
    """
    snapshot = file_snapshot(path, "arxiv_oai")
    yield snapshot
    span = DateSpan()
    blocks = _blocks(numbered_lines(path, errors="surrogateescape"))
    for staged in stage(line_items, str(path), snapshot.key, blocks):
        for day in staged.dates:
            span.add(day)
        yield staged
    yield span.closing(snapshot)


def _blocks(lines: Iterator[NumberedLine]) -> Iterator[list[NumberedLine]]:
    """``lines`` in blocks of ``BLOCK_LINES``; when reading them fails (a file that breaks
    off), the lines read before are a block, then the error is raised."""
    block: list[NumberedLine] = []
    try:
        for line in lines:
            block.append(line)
            if len(block) >= BLOCK_LINES:
                yield block
                block = []
    except SourceError:
        if block:
            yield block
        raise
    if block:
        yield block


def _decoded(
    path: str, number: int, line: str | LongLine
) -> tuple[str, str, bool] | Rejected | None:
    """Return a line as read (as Latin-1 when it is not UTF-8), its text without a leading
    byte order mark on line 1, and whether it was read as Latin-1; its Rejected when it is
    over the limit or mixes UTF-8 with other bytes; None when it is blank."""
    latin1 = False
    if isinstance(line, LongLine):
        return Rejected(
            origin=Origin(path=path, line=number), reason=line.reason(), raw=replaced(line.head)
        )
    if undecodable(line):
        decoded = latin1_line(line)
        if decoded is None:
            return Rejected(
                origin=Origin(path=path, line=number),
                reason=_MIXED_BYTES,
                raw=replaced(line)[:RAW_LIMIT],
            )
        line, latin1 = decoded, True
    text = line.lstrip("\ufeff") if number == 1 else line
    return (line, text, latin1) if text.strip() else None


def _held(text: str, unchanged: Callable[[str], bool], span: DateSpan) -> bool:
    """Return True when an older snapshot holds the line as it is (it is not decoded
    again), taking its ``update_date`` into the span."""
    stated = _stated_update_date(text)
    if stated is _UNSURE or not unchanged(text):
        return False
    if isinstance(stated, date):
        span.add(stated)
    return True


def _line_items(
    origin: Origin, line: str, text: str, latin1: bool, snapshot: str
) -> Iterator[ParsedItem]:
    """Yield the PaperRecord of one line's JSON ``text`` (then a note when the line was
    read as Latin-1), or why it is none."""
    try:
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise _BadLine(f"invalid JSON ({exc}); each line must be one JSON object") from None
        record = _paper(obj, origin, snapshot)
    except _BadLine as exc:
        yield Rejected(origin=origin, reason=str(exc), raw=line[:RAW_LIMIT])
        return
    yield record
    if latin1:
        yield Rejected(origin=origin, reason=_LATIN1_NOTE, raw=line[:RAW_LIMIT])
