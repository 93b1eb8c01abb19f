"""The arXiv metadata snapshot (Kaggle / OAI JSON lines): one paper per line, streamed.

Each line is a JSON object with ``id``, ``title``, ``authors``, ``authors_parsed``,
``categories``, ``versions``, ``update_date`` and more; any field but ``id`` may be null or
missing. Yields a ``SnapshotRecord`` first, a ``PaperRecord`` or ``Rejected`` per non-blank
line, and a closing ``SnapshotRecord`` carrying the newest and oldest ``update_date``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from kg.resolve import collapse_spaces, latex_to_unicode, parse_arxiv_id
from loaders.records import (
    Origin,
    PaperRecord,
    ParsedItem,
    Rejected,
    SnapshotRecord,
)
from loaders.source_file import content_sha256, numbered_lines, snapshot_key

__all__ = ["id_year_month", "latex_name", "parse", "split_authors", "validation_reason"]

RAW_LIMIT = 500
_PARENTHESES = re.compile(r"\([^()]*\)")
_AND = re.compile(r"\s+(?:and|&)\s+|\\and\b", re.IGNORECASE)
_SEPARATORS = re.compile(r"[,;]")
_SUFFIX = re.compile(r"^(?:jr|jnr|sr|ii|iii|iv)\.?$", re.IGNORECASE)
_LEADING_AND = re.compile(r"^(?:and|&)\s+", re.IGNORECASE)
_NOT_NAMES = frozenset({"and", "latex", "tex", "revtex", "plain tex", "amstex"})
_ET_AL = re.compile(r"\s*\bet\.?\s+al\.?$", re.IGNORECASE)
_VERSION = re.compile(r"^v(\d+)$")


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
    text = collapse_spaces(text)
    previous = None
    while previous != text:
        previous, text = text, _PARENTHESES.sub(",", text)
    # An affiliation cut off by a truncated field leaves an unmatched "(": drop its tail.
    text = text.split("(", 1)[0].replace(")", ",")
    names: list[str] = []
    for piece in _SEPARATORS.split(_AND.sub(",", text)):
        words = []
        for word in _LEADING_AND.sub("", _ET_AL.sub("", piece.strip())).split():
            if any(char.isdigit() for char in word):
                break
            words.append(word)
        name = latex_name(" ".join(words)).strip(" :;-").lstrip(". ")
        if not name or name.lower() in _NOT_NAMES:
            continue
        if _SUFFIX.match(name) and names:
            names[-1] = f"{names[-1]} {name}"
        else:
            names.append(name)
    return tuple(names)


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


def validation_reason(exc: ValidationError) -> str:
    """Return a one-line summary of a pydantic error, for a Rejected reason."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(item) for item in error["loc"])
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


def _parsed_authors(value: Any) -> tuple[str, ...] | None:
    """Return names from ``authors_parsed`` ([last, first, suffix] lists), None if unusable."""
    if not isinstance(value, list) or not value:
        return None
    names = []
    for entry in value:
        if not isinstance(entry, list) or not all(isinstance(part, str) for part in entry):
            return None
        last, first, suffix = [*entry, "", "", ""][:3]
        name = collapse_spaces(latex_name(f"{first} {last} {suffix}"))
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
        int(match.group(1))
        for item in value
        if isinstance(item.get("version"), str) and (match := _VERSION.match(item["version"]))
    ]
    latest = max(numbers) if numbers else len(value)
    created = value[0].get("created")
    if created is None:
        return latest, None
    if not isinstance(created, str):
        raise _BadLine(
            "versions[0].created must be a date string like 'Mon, 2 Apr 2007 19:18:42 GMT'"
        )
    try:
        return latest, parsedate_to_datetime(created).date()
    except (TypeError, ValueError, IndexError):
        raise _BadLine(
            f"bad date in versions[0].created: {created!r}; "
            "expected RFC 2822 like 'Mon, 2 Apr 2007 19:18:42 GMT'"
        ) from None


def _update_date(obj: dict[str, Any]) -> date | None:
    """Return ``update_date`` as a date, None when null or missing."""
    value = obj.get("update_date")
    if value is None:
        return None
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
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
    parsed = parse_arxiv_id(raw_id)
    if parsed is None:
        raise _BadLine(
            f"id {raw_id!r} is not an arXiv id; expected e.g. '2110.03888' or 'hep-th/9901001'"
        )
    arxiv_id, id_version = parsed
    primary, cross = _categories(obj)
    latest, published = _versions(obj)
    as_of = _update_date(obj)
    year = published.year if published else None
    if year is None and (encoded := id_year_month(arxiv_id)):
        year = encoded[0]
    report_no = _text(obj, "report-no")
    try:
        return PaperRecord(
            origin=origin,
            snapshot=snapshot,
            as_of=as_of,
            arxiv_id=arxiv_id,
            version=latest or id_version,
            title=_text(obj, "title"),
            year=year,
            published=published,
            abstract=_text(obj, "abstract"),
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


def parse(path: Path) -> Iterator[ParsedItem]:
    """Yield the snapshot, one PaperRecord or Rejected per non-blank line, then the snapshot
    again with ``data_date`` (newest ``update_date``) and ``first_date`` (oldest).

    Raises SourceError when the file cannot be read.
    """
    sha256 = content_sha256(path)
    snapshot = SnapshotRecord(
        key=snapshot_key(sha256), kind="arxiv_dump", source=path.name, sha256=sha256
    )
    yield snapshot
    newest: date | None = None
    oldest: date | None = None
    for number, line in numbered_lines(path):
        text = line.lstrip("\ufeff") if number == 1 else line
        if not text.strip():
            continue
        origin = Origin(path=str(path), line=number)
        try:
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise _BadLine(f"invalid JSON ({exc}); each line must be one JSON object") from None
            record = _paper(obj, origin, snapshot.key)
        except _BadLine as exc:
            yield Rejected(origin=origin, reason=str(exc), raw=line[:RAW_LIMIT])
            continue
        if record.as_of is not None:
            newest = record.as_of if newest is None else max(newest, record.as_of)
            oldest = record.as_of if oldest is None else min(oldest, record.as_of)
        yield record
    yield snapshot.model_copy(update={"data_date": newest, "first_date": oldest})
