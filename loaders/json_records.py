"""Reading the JSON records scholarly web APIs return (OpenAlex works, Crossref works).

One file holds JSON lines, one pretty-printed document, or several documents one after
another (``jq`` output); a value is a record, a list of records, or a page or envelope that
holds them (``{"meta": …, "results": [...]}``), which each format unwraps. Every record
keeps the line it starts on, inside a pretty-printed page too. A folder is read as one
input: every ``.json``, ``.jsonl``, ``.ndjson`` or ``.gz`` file in it and its subfolders, in
sorted order (an OpenAlex snapshot's ``data/works/updated_date=…/part_*.gz``).

``parse_records`` drives a format's parser: the snapshot first, each record's items, then
the snapshot again with the newest and oldest ``as_of`` of its papers. Data never raises: a
bad value becomes a ``Rejected`` saying where and why.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import stat
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import SourceError
from .ids import IdKind, normal_id
from .records import (
    CitationRecord,
    FormatName,
    Origin,
    PaperRecord,
    PaperRef,
    ParsedItem,
    Rejected,
    Skipped,
    SnapshotRecord,
)
from .source_file import (
    MAX_INT,
    DateSpan,
    LongLine,
    arxiv_id_and_version,
    date_problem,
    file_snapshot,
    folder_sha256,
    numbered_lines,
    record_problem,
    snapshot_key,
    version_problem,
)
from .text import collapse_spaces

__all__ = [
    "RAW_LIMIT",
    "BadValue",
    "Count",
    "Input",
    "JsonRecord",
    "Unwrapped",
    "WorkFormat",
    "checked_ref",
    "cited_items",
    "describe",
    "elements",
    "id_text",
    "input_files",
    "json_kind",
    "json_records",
    "not_json",
    "parse_records",
    "plain_text",
    "stated_arxiv_id",
    "stated_date",
    "strong_id",
    "validated",
]

RAW_LIMIT = 2000
"""How much of a rejected record's text the reject keeps."""
FILE_SUFFIXES = (".json", ".jsonl", ".ndjson", ".gz")
"""The files of a folder that are read: an OpenAlex snapshot's parts are ``part_000.gz``."""

_WALK_DEPTH = 3
"""How deep a pretty-printed document is walked to find where its records start:
``message.items[i]`` is three levels down."""
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_OPENS_DOCUMENT = ("{", "[", ",", ":")

Where = tuple[str | int, ...]
"""Where a value sits in a document: the keys and list places that lead to it."""
Unwrapped = list[tuple[Where, Any]] | str
"""What a format finds in one JSON value: its records, each with where it sits (``()`` for
the value itself), or why the value holds none (the reason of its reject)."""


class Input(BaseModel):
    """Part of an input record: unknown keys are ignored, known ones are type-checked."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True, populate_by_name=True)


_Model = TypeVar("_Model", bound=Input)
Count = Annotated[int, Field(ge=0, le=MAX_INT)]
"""A count a record states: a whole number from 0 to the largest Neo4j stores."""


@dataclass(frozen=True)
class JsonRecord:
    """One record of a file: where it starts, its decoded value, and its own line when it
    is one (else its text is the value written out again)."""

    origin: Origin
    value: Any
    text: str | None = None

    def raw(self) -> str:
        """Return the record's text for a reject, cut at RAW_LIMIT."""
        if self.text is not None:
            return self.text[:RAW_LIMIT]
        return json.dumps(self.value, ensure_ascii=False)[:RAW_LIMIT]


@dataclass(frozen=True)
class _Value:
    """One JSON value of a file: the line it starts on, its text when it is one line, and
    the line of the values inside it, by where they sit (pretty-printed documents)."""

    line: int
    value: Any
    text: str | None = None
    lines: dict[Where, int] = field(default_factory=dict)


def json_kind(value: object) -> str:
    """Return the JSON name of a decoded value's type: object, array, string, …"""
    kinds = {dict: "object", list: "array", str: "string", bool: "boolean"}
    if value is None:
        return "null"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return "number"
    return kinds.get(type(value), type(value).__name__)


def elements(value: list[Any], where: Where = ()) -> list[tuple[Where, Any]]:
    """Return each element of a list with where it sits, for an ``Unwrapped``."""
    return [((*where, place), item) for place, item in enumerate(value)]


def describe(exc: ValidationError, width: int = 60) -> str:
    """Return a record's validation errors as ``where: what, got …`` phrases, each value
    shown in at most ``width`` characters."""
    phrases = []
    for error in exc.errors()[:3]:
        where = ".".join(str(part) for part in error["loc"]) or "the object"
        got = error.get("input")
        if error["type"] in ("model_type", "dict_type"):
            what = "should be a JSON object"
        else:
            what = error["msg"][0].lower() + error["msg"][1:]
        shown = json.dumps(got, ensure_ascii=False, default=str)[:width]
        phrases.append(f"{where} {what}, got {json_kind(got)} {shown}")
    return "; ".join(phrases)


class BadValue(Exception):
    """A value of a record that cannot be read; its message is the reject's reason (without
    the fix)."""


def id_text(value: object, where: str, expected: str, width: int) -> str | None:
    """Return an id a record states, as text (a whole number too), None when null or blank;
    raises BadValue saying it should be ``expected`` for a value of another type, showing
    ``width`` characters of it."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        shown = json.dumps(value)[:width]
        raise BadValue(f"{where} should be {expected}, got {json_kind(value)} {shown}")
    return str(value).strip() or None


def stated_arxiv_id(text: str | None, where: str, example: str) -> str | None:
    """Return the canonical arXiv id (no version) of a stated one, None when none is
    stated; raises BadValue, with an ``example`` of a new-style id, for text that is no
    arXiv id or has a version that is none."""
    if text is None:
        return None
    parsed = arxiv_id_and_version(text)
    if parsed is None or version_problem(text):
        raise BadValue(
            f"{where} {text[:80]!r} is not an arXiv id (e.g. {example} or hep-th/9901001)"
        )
    return parsed[0]


def strong_id(kind: IdKind, text: str | None, where: str, what: str) -> str | None:
    """Return the normal form of a stated id of ``kind``, None when none is stated; raises
    BadValue naming ``where`` and ``what`` the id should be when it is no such id."""
    if text is None:
        return None
    normal = normal_id(kind, text)
    if normal is None:
        raise BadValue(f"{where} {text[:80]!r} is not {what}")
    return normal


def validated(record: JsonRecord, model: type[_Model]) -> _Model | str:
    """Return a record's value read as ``model`` (a work object), or why it is none: not
    an object, or its validation errors (``describe``)."""
    if not isinstance(record.value, dict):
        return f"a JSON {json_kind(record.value)} where a work object should be"
    try:
        return model.model_validate(record.value)
    except ValidationError as exc:
        return describe(exc)


_INLINE_TAGS = (
    "a|b|big|bold|br|em|font|i|italic|math|mi|mn|mo|mrow|msub|msubsup|msup|mtext|p|sc|scp|"
    "small|span|strong|sub|sup|tt|u"
)
# A tag is a namespaced one (<jats:p>, <mml:mi>) or an HTML or MathML inline one; any other
# text between angle brackets (x<y and z>w) is text.
_TAG = rf"</?(?:[A-Za-z][\w.-]*:[A-Za-z][\w.-]*|(?i:{_INLINE_TAGS}))(?:\s[^<>]*)?/?>"
_TAG_RUN = re.compile(rf"(?:{_TAG})+")
_TAG_NAME = re.compile(r"</?([A-Za-z][\w.:-]*)")
_CHARACTER_REFERENCE = re.compile(
    r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
)
_HEADING = re.compile(r"<((?:\w+:)?title)\b[^>]*>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_PARAGRAPH = re.compile(r"</?(?:\w+:)?(?:p|sec)\b[^<>]*>", re.IGNORECASE)
_JOINING_TAGS = frozenset({"sup", "sub"})


def _tag_run(match: re.Match[str]) -> str:
    """Return what a run of inline tags becomes: nothing, or a space where it stood between
    two words with none (``of<i>SHELX</i>``); never one before a sub- or superscript."""
    names = {name.rsplit(":", 1)[-1].lower() for name in _TAG_NAME.findall(match.group(0))}
    text, start, end = match.string, match.start(), match.end()
    between_words = start > 0 and end < len(text) and text[start - 1].isalnum()
    if between_words and text[end].isalnum() and not names & _JOINING_TAGS:
        return " "
    return ""


def plain_text(markup: str, paragraphs: bool = False) -> str:
    """Return a text with its markup removed: HTML, JATS and MathML tags (``<i>``,
    ``<jats:p>``), then character references (``&amp;``, not a bare ``&``); white space
    folded.

    With ``paragraphs``, section headings (``<jats:title>Abstract</jats:title>``) are left
    out and each paragraph (``<jats:p>``) is kept apart, joined by a blank line.
    """
    if paragraphs:
        parts = _PARAGRAPH.split(_HEADING.sub("\n", markup))
        texts = (plain_text(part) for part in parts)
        return "\n\n".join(text for text in texts if text)
    if "<" in markup:
        markup = _TAG_RUN.sub(_tag_run, markup)
    if "&" in markup:
        markup = _CHARACTER_REFERENCE.sub(lambda match: html.unescape(match.group(0)), markup)
    return collapse_spaces(markup)


def stated_date(what: str, text: str) -> date | str:
    """Return the date of an ISO date or timestamp (a timestamp with an offset is moved to
    UTC first), or why it is none or out of range, for a reject."""
    stripped = text.strip()
    try:
        if len(stripped) <= len("2021-10-08"):
            stated = date.fromisoformat(stripped)
        else:
            moment = datetime.fromisoformat(stripped)
            stated = moment.astimezone(UTC).date() if moment.tzinfo else moment.date()
    except (ValueError, OverflowError):
        return f"{what} {stripped[:60]!r} is not an ISO date like 2024-01-31"
    if problem := date_problem(what, stated):
        return f"{problem} ({stripped[:60]!r})"
    return stated


def input_files(path: Path) -> list[Path]:
    """Return the files a path names: itself, or a folder's ``FILE_SUFFIXES`` files (in any
    subfolder, hidden ones left out), sorted. Raises SourceError for a folder of none."""
    if not path.is_dir():
        return [path]
    found: list[Path] = []
    for folder, subfolders, names in os.walk(path):
        subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
        for name in sorted(names):
            if name.startswith(".") or not name.lower().endswith(FILE_SUFFIXES):
                continue
            file = Path(folder, name)
            try:
                regular = stat.S_ISREG(file.stat().st_mode)
            except OSError:
                regular = True  # a link that leads nowhere: reading it rejects it by name
            if regular:
                found.append(file)
    if not found:
        raise SourceError(
            f"{path}: the folder holds no JSON files ({', '.join(FILE_SUFFIXES)})",
            "pass a JSON file, or a folder of them (an OpenAlex snapshot's data/works)",
        )
    return found


def _opens_document(line: str) -> bool:
    """Return True when a file's first line opens a pretty-printed document (``{``, or
    ``{"meta": {``): it ends where no JSON line ends."""
    return line[0] in "{[" and (len(line) == 1 or line.endswith(_OPENS_DOCUMENT))


def not_json(exc: ValueError | RecursionError, truncated: str = "") -> str:
    """Return why a text is not loadable JSON, for a reject; ``truncated`` follows the
    place of a decoding error (``; the record may be truncated``)."""
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON ({exc.msg} at column {exc.colno}){truncated}"
    if isinstance(exc, RecursionError):
        return "the JSON is nested too deep to read"
    return f"not loadable JSON ({exc})"  # e.g. an integer of more than 4,300 digits


def _skip(text: str, at: int) -> int:
    match = _WS.match(text, at)
    return match.end() if match else at


def _walk(text: str, at: int, where: Where, starts: dict[Where, int]) -> tuple[Any, int]:
    """Decode the JSON value at ``at`` (no white space before it) as ``json.loads`` would,
    noting where each value down to ``_WALK_DEPTH`` levels starts; return it and its end."""
    starts[where] = at
    opening = text[at : at + 1]
    if len(where) >= _WALK_DEPTH or opening not in ("{", "["):
        return _DECODER.raw_decode(text, at)
    closing = "}" if opening == "{" else "]"
    found: Any = {} if opening == "{" else []
    at = _skip(text, at + 1)
    if text[at : at + 1] == closing:
        return found, at + 1
    while True:
        if opening == "{":
            if text[at : at + 1] != '"':
                raise json.JSONDecodeError(
                    "Expecting property name enclosed in double quotes", text, at
                )
            key, at = scanstring(text, at + 1)
            at = _skip(text, at)
            if text[at : at + 1] != ":":
                raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
            value, at = _walk(text, _skip(text, at + 1), (*where, key), starts)
            found[key] = value
        else:
            value, at = _walk(text, at, (*where, len(found)), starts)
            found.append(value)
        at = _skip(text, at)
        if text[at : at + 1] == closing:
            return found, at + 1
        if text[at : at + 1] != ",":
            raise json.JSONDecodeError(f"Expecting ',' delimiter or '{closing}'", text, at)
        at = _skip(text, at + 1)


def _document_values(path: Path, first: int, text: str) -> Iterator[_Value | Rejected]:
    """Yield the values of a pretty-printed document (or of several, one after another),
    each with the lines its inner values start on; a value that is not JSON is rejected,
    and with it the rest of the file, which cannot be read past it."""
    breaks = [match.start() for match in re.finditer("\n", text)]

    def line(offset: int) -> int:
        return first + bisect_right(breaks, offset - 1)

    at = _skip(text, 0)
    while at < len(text):
        starts: dict[Where, int] = {}
        try:
            value, end = _walk(text, at, (), starts)
        except (ValueError, RecursionError) as exc:
            where = f" on line {line(exc.pos)}" if isinstance(exc, json.JSONDecodeError) else ""
            yield Rejected(
                origin=Origin(path=str(path), line=line(at)),
                reason=f"{not_json(exc)}{where}; the file was not read past it: fix the "
                "JSON (a truncated download?) and load the file again",
                raw=text[at : at + RAW_LIMIT],
            )
            return
        lines = {where: line(offset) for where, offset in starts.items()}
        yield _Value(line=line(at), value=value, lines=lines)
        at = _skip(text, end)


def _values(path: Path) -> Iterator[_Value | Rejected]:
    """Yield each JSON value of one file: one per non-blank line, or the values of the
    pretty-printed document it is. A line over the limit, or text that is not JSON, is a
    Rejected."""
    source = str(path)
    lines = numbered_lines(path)
    for number, line in lines:
        if isinstance(line, LongLine):
            yield _long_line(source, number, line)
            continue
        stripped = (line.lstrip("\ufeff") if number == 1 else line).strip()
        if not stripped:
            continue
        if not _opens_document(stripped):
            yield _line_value(source, number, stripped)
            break
        yield from _document(path, [(number, stripped), *lines])
        return
    for number, line in lines:
        yield from _one_line(source, number, line)


def _document(path: Path, lines: list[tuple[int, str | LongLine]]) -> Iterator[_Value | Rejected]:
    """Yield the values of a file whose first line opens a document; when it is no
    document but JSON lines after a first line cut short (most lines an object each),
    the values of its lines."""
    source = str(path)
    long_lines = [(number, line) for number, line in lines if isinstance(line, LongLine)]
    long_line = long_lines[0] if long_lines else None
    if long_line is None:
        text = "\n".join(str(line) for _, line in lines)
        values = _document_values(path, lines[0][0], text)
        first = next(values, None)
        if not (isinstance(first, Rejected) and _json_lines(lines)):
            yield from (value for value in (first, *values) if value is not None)
            return
    elif not _json_lines(lines):
        yield _long_line(
            source,
            *long_line,
            f"; the document from line {lines[0][0]} holding it was not loaded",
        )
        return
    for number, line in lines:
        yield from _one_line(source, number, line)


def _json_lines(lines: list[tuple[int, str | LongLine]]) -> bool:
    """Return True when most non-blank lines are a JSON object each (JSON lines)."""
    texts = [line.strip() for _, line in lines if isinstance(line, str) and line.strip()]
    whole = 0
    for text in texts:
        if text.startswith("{") and text.endswith("}"):
            with contextlib.suppress(ValueError, RecursionError):
                whole += isinstance(json.loads(text), dict)
    return whole > 0 and 2 * whole >= len(texts)


def _long_line(source: str, number: int, line: LongLine, more: str = "") -> Rejected:
    return Rejected(
        origin=Origin(path=source, line=number), reason=line.reason() + more, raw=line.head
    )


def _one_line(source: str, number: int, line: str | LongLine) -> Iterator[_Value | Rejected]:
    """Yield the value of one line of JSON lines, or its Rejected; nothing for a blank."""
    if isinstance(line, LongLine):
        yield _long_line(source, number, line)
    elif stripped := line.strip():
        yield _line_value(source, number, stripped)


def _line_value(source: str, number: int, text: str) -> _Value | Rejected:
    try:
        return _Value(line=number, value=json.loads(text), text=text)
    except (ValueError, RecursionError) as exc:
        return Rejected(
            origin=Origin(path=source, line=number),
            reason=f"{not_json(exc)}; each line must be one JSON object: fix or remove the "
            "line (a truncated download?)",
            raw=text[:RAW_LIMIT],
        )


def json_records(path: Path, unwrap: Callable[[Any], Unwrapped]) -> Iterator[JsonRecord | Rejected]:
    """Yield each record of one file, as ``unwrap`` finds them in its JSON values, with the
    line it starts on; a value that holds none is rejected with ``unwrap``'s reason."""
    for found in _values(path):
        if isinstance(found, Rejected):
            yield found
            continue
        unwrapped = unwrap(found.value)
        if isinstance(unwrapped, str):
            raw = JsonRecord(Origin(path=str(path), line=found.line), found.value, found.text)
            yield Rejected(origin=raw.origin, reason=unwrapped, raw=raw.raw())
            continue
        for where, value in unwrapped:
            origin = Origin(path=str(path), line=found.lines.get(where, found.line))
            yield JsonRecord(origin, value, found.text if where == () else None)


def cited_items(
    record: PaperRecord, cited: Iterable[PaperRef | Rejected], what: str
) -> Iterator[CitationRecord | Skipped | Rejected]:
    """Yield a CitationRecord from a paper to each paper it cites, once each; a paper that
    cites itself (one of its ids) a Skipped; a reference that cannot be one its Rejected.
    ``what`` names the references in the Skipped's detail (``referenced_works``)."""
    citing = record.ref()
    own = set(citing.id_keys)
    if citing.arxiv_id is not None:
        own.add(citing.arxiv_id)
    seen: set[str] = set()
    for ref in cited:
        if isinstance(ref, Rejected):
            yield ref
            continue
        if ref.key in seen:
            continue
        seen.add(ref.key)
        if own & {*ref.id_keys, ref.arxiv_id}:
            yield Skipped(
                origin=record.origin,
                kind="self-citation",
                detail=f"{record.key} lists itself in its {what}",
            )
            continue
        yield CitationRecord(
            origin=record.origin,
            snapshot=record.snapshot,
            as_of=record.as_of,
            citing=citing,
            cited=ref,
        )


def checked_ref(ref: PaperRef, origin: Origin, what: str, raw: str) -> PaperRef | Rejected:
    """Return a reference, or a Rejected when it cannot be written (a title too long)."""
    if problem := record_problem(ref):
        return Rejected(
            origin=origin,
            reason=f"{what}: {problem}; that reference was left out, the paper and its other "
            "references loaded",
            raw=raw[:RAW_LIMIT],
        )
    return ref


def parse_records(
    path: Path,
    kind: FormatName,
    unwrap: Callable[[Any], Unwrapped],
    items: Callable[[JsonRecord, str], Iterable[ParsedItem]],
) -> Iterator[ParsedItem]:
    """Yield the snapshot of a file or folder, each record's ``items`` (given the record
    and the snapshot key), then the snapshot again with the newest ``as_of`` of its papers
    as ``data_date`` and the oldest as ``first_date``.

    Raises SourceError when the path cannot be read, or is a folder without JSON files.
    """
    files = input_files(path)
    snapshot = _folder_snapshot(path, kind, files) if path.is_dir() else file_snapshot(path, kind)
    yield snapshot
    span = DateSpan()
    for file in files:
        try:
            for record in json_records(file, unwrap):
                if isinstance(record, Rejected):
                    yield record
                    continue
                for item in items(record, snapshot.key):
                    if isinstance(item, PaperRecord):
                        span.add(item.as_of)
                    yield item
        except SourceError as exc:
            if not path.is_dir():
                raise
            yield Rejected(
                origin=Origin(path=str(file), line=1),
                reason=f"{exc.message.removeprefix(f'{file}: ')}: {exc.hint}; the records "
                "read before the error and the folder's other files loaded",
            )
    yield span.closing(snapshot)


def _folder_snapshot(path: Path, kind: FormatName, files: list[Path]) -> SnapshotRecord:
    """Return the snapshot of a folder of files read as one input."""
    sha256 = folder_sha256(path, files)
    return SnapshotRecord(key=snapshot_key(sha256), kind=kind, source=path.name, sha256=sha256)


_WORK_FIX = "fix or remove this work"
_Found = tuple[PaperRecord, Iterable[PaperRef | Rejected]]
"""A work's PaperRecord and the papers it cites (or the Rejected of a reference)."""


@dataclass(frozen=True)
class WorkFormat(Generic[_Model]):
    """A format of work objects (OpenAlex's, Crossref's): where a JSON value holds its
    works, the model a work is read as, and how a work read so becomes a PaperRecord and
    the papers it cites. Reading, rejecting and citing are the same for every such format;
    a new one declares these four things."""

    kind: FormatName
    unwrap: Callable[[Any], Unwrapped]
    model: type[_Model]
    paper: Callable[
        [_Model, JsonRecord, str], tuple[PaperRecord, Iterable[PaperRef | Rejected]] | str
    ]
    """The PaperRecord of a work (given the record and the snapshot key) and the papers it
    cites, or why it is none; a ValidationError of the record is a reason too."""
    references: str
    """What a work calls its references, for a self-citation's Skipped."""

    def parse(self, path: Path) -> Iterator[ParsedItem]:
        """Yield the items of a file or folder of works (``parse_records``)."""
        return parse_records(path, self.kind, self.unwrap, self.items)

    def items(self, record: JsonRecord, snapshot: str) -> Iterator[ParsedItem]:
        """Yield a work's PaperRecord and then a CitationRecord to each paper it cites
        (``cited_items``), or its Rejected."""
        found = self._paper(record, snapshot)
        if isinstance(found, str):
            yield Rejected(origin=record.origin, reason=f"{found}: {_WORK_FIX}", raw=record.raw())
            return
        paper, cited = found
        yield paper
        yield from cited_items(paper, cited, self.references)

    def _paper(self, record: JsonRecord, snapshot: str) -> _Found | str:
        work = validated(record, self.model)
        if isinstance(work, str):
            return work
        try:
            found = self.paper(work, record, snapshot)
        except ValidationError as exc:
            return describe(exc)
        if isinstance(found, str):
            return found
        if problem := record_problem(found[0]):
            return problem
        return found
