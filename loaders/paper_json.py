"""Parse paper JSON records: one object per file (on one line or indented), or JSON lines.

Each object names an arXiv paper (``source``), describes it (``paper``) and summarises what
a builder derived from it (``claims``, ``integrity``, ``references``, ``formal_canon``,
``author_claims``), stamped with a ``builder_version`` that embeds the build date.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from itertools import chain
from pathlib import Path
from typing import NamedTuple

from pydantic import Field, ValidationError

from .errors import SourceError
from .json_records import Count, Input, describe, json_kind, not_json
from .records import Origin, PaperRecord, ParsedItem, Rejected
from .source_file import (
    MAX_CATEGORY_CHARS,
    MAX_INT,
    DateSpan,
    LongLine,
    arxiv_id_and_version,
    date_problem,
    file_snapshot,
    numbered_lines,
    record_problem,
    version_problem,
    year_problem,
)
from .taxonomy import is_category_code
from .text import collapse_spaces

__all__ = ["parse", "split_authors"]

_BUILDER_DATE = re.compile(r"(\d{4}-\d{2}-\d{2})")
_ET_AL = re.compile(r"[,;]?\s*(?:and\s+)?(?:et\.?\s*al\.?|others)\s*$", re.IGNORECASE)
_AND = re.compile(r"(?:^|\s+)(?:and|&)\s+", re.IGNORECASE)
_NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
_HASHED_PARTS = ("claims", "integrity", "references", "formal_canon", "author_claims")
_FIX = "fix or remove this object"
_RAW_LIMIT = 100_000
_GIVE_RECORD = "give a paper record: one JSON object, or one object per line"

_Scalar = str | int | float | bool | None


class _Source(Input):
    id: str | None = None
    kind: str | None = None
    version: int | None = Field(default=None, ge=1, le=MAX_INT)


class _Paper(Input):
    title: str | None = None
    license: str | None = None
    primary_cat: str | None = None
    cross_cats: list[str] | None = None
    authors_text: str | None = None
    submitted_at: str | None = None
    abstract_excerpt: str | None = None


# The format's parts below, field for field as it names them: its schema as data, so the
# parts that state the same kind of facts (counts, a snapshot_sha256) read alike.
class _Claims(Input):
    count: Count | None = None
    snapshot_sha256: str | None = None


class _IntegritySummary(Input):
    critical: Count | None = None
    advisory: Count | None = None
    informational: Count | None = None


class _Integrity(Input):
    clean: bool | None = None
    available: bool | None = None
    endpoint: str | None = None
    summary: _IntegritySummary | None = None
    snapshot_sha256: str | None = None


class _References(Input):
    count: Count | None = None
    resolved_work: Count | None = None
    internal_anchors: Count | None = None
    snapshot_sha256: str | None = None


class _FormalCanon(Input):
    evidence_count: Count | None = None
    snapshot_sha256: str | None = None


class _AuthorClaims(Input):
    count: Count | None = None
    strong_count: Count | None = None
    snapshot_sha256: str | None = None


class _PaperJson(Input):
    """One paper JSON object; every part may be missing or null."""

    source: _Source | None = None
    paper: _Paper | None = None
    claims: _Claims | None = None
    integrity: _Integrity | None = None
    references: _References | None = None
    formal_canon: _FormalCanon | None = None
    author_claims: _AuthorClaims | None = None
    builder_version: str | None = None

    def hashes(self) -> dict[str, str]:
        """Return the snapshot_sha256 of each part that states one, by part name."""
        parts = {
            "claims": self.claims,
            "integrity": self.integrity,
            "references": self.references,
            "formal_canon": self.formal_canon,
            "author_claims": self.author_claims,
        }
        return {
            name: part.snapshot_sha256
            for name, part in parts.items()
            if part is not None and part.snapshot_sha256
        }

    def builder_date(self) -> date | None:
        """Return the date in ``builder_version`` (``...-2026-05-17-v1``), if it has one (a
        real day in MIN_YEAR-MAX_YEAR; ``_record`` rejects an object stating another)."""
        match = _BUILDER_DATE.search(self.builder_version or "")
        if match is None:
            return None
        try:
            stated = date.fromisoformat(match[1])
        except ValueError:
            return None
        return None if date_problem("builder_version", stated) else stated

    def builder_date_problem(self) -> str | None:
        """Return why the date in ``builder_version`` cannot be the data's date, or None."""
        match = _BUILDER_DATE.search(self.builder_version or "")
        year = int(match[1][:4]) if match else None
        return year_problem("builder_version", year) if year is not None else None


class _Entry(NamedTuple):
    """A JSON object that passed type validation, with where it starts."""

    line: int
    raw: str
    doc: _PaperJson


def split_authors(text: str) -> tuple[str, ...]:
    """Return the author names in ``text`` in order, dropping a trailing ``et al.``.

    Names are separated by ``;`` when there is one, else by commas, and by ``and``/``&``;
    a suffix such as ``Jr.`` stays with the name before it.
    """
    text = _ET_AL.sub("", collapse_spaces(text))
    names: list[str] = []
    for chunk in text.split(";" if ";" in text else ","):
        for part in _AND.split(chunk):
            name = part.strip()
            if not name:
                continue
            if names and name.lower() in _NAME_SUFFIXES:
                names[-1] = f"{names[-1]}, {name}"
            else:
                names.append(name)
    return tuple(names)


def _has_et_al(text: str) -> bool:
    return bool(_ET_AL.search(collapse_spaces(text)))


def _texts(path: Path) -> Iterator[tuple[int, str | LongLine]]:
    """Yield (first line, JSON text): each non-blank line, or the whole indented object; a
    line over the limit as a LongLine (an indented object holding one is that line)."""
    lines = numbered_lines(path)
    for number, line in lines:
        if isinstance(line, LongLine):
            yield number, line
            continue
        line = line.lstrip("\ufeff") if number == 1 else line
        if not line.strip():
            continue
        if line.strip() in ("{", "["):
            # an indented document: it spans lines, so it is one record read whole
            rest: list[str] = []
            for later, text in lines:
                if isinstance(text, LongLine):
                    yield later, text
                    return
                rest.append(text)
            yield number, "\n".join([line, *rest])
            return
        yield number, line
        break
    for number, line in lines:
        if isinstance(line, LongLine) or line.strip():
            yield number, line


def _entries(path: Path) -> Iterator[_Entry | Rejected]:
    """Yield each JSON object, type-checked, or why it was rejected.

    A first text that is not JSON (and not a cut-off object), or JSON but not an object, is
    a bad line like any other when the text after it is an object. Raises SourceError when
    it is not, as the file then holds no paper objects at all.
    """
    first = True
    refused: tuple[SourceError, Rejected] | None = None  # the first text, while in doubt
    for number, text in _texts(path):
        origin = Origin(path=str(path), line=number)
        if isinstance(text, LongLine):
            yield Rejected(origin=origin, reason=text.reason(), raw=text.head)
            continue
        value, error = _decoded(text)
        if refused is not None:
            if not isinstance(value, dict):
                raise refused[0]
            yield refused[1]
            refused = None
        unfit = _unfit(path, origin, text, value, error)
        if unfit is not None:
            reject, refusal = unfit
            if first and refusal is not None:
                refused = (refusal, reject)
            else:
                yield reject
            first = False
            continue
        first = False
        try:
            yield _Entry(number, text, _PaperJson.model_validate(value))
        except ValidationError as exc:
            yield Rejected(origin=origin, reason=f"{describe(exc)}: {_FIX}", raw=text)
    if refused is not None:
        raise refused[0]


def _decoded(text: str) -> tuple[object, ValueError | RecursionError | None]:
    """Return the value of a JSON text, or None and why it is none."""
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as exc:
        return None, exc


def _unfit(
    path: Path, origin: Origin, text: str, value: object, error: ValueError | RecursionError | None
) -> tuple[Rejected, SourceError | None] | None:
    """Return the reject of a text that is not JSON, or JSON but not an object, with the
    error that refuses the file when it is the first text and no object follows (None for
    a cut-off object, a bad line whatever follows); None for an object."""
    if error is not None:
        what = not_json(error, "; the object may be truncated")
        reject = Rejected(origin=origin, reason=f"{what}: {_FIX}", raw=text[:_RAW_LIMIT])
        if text.lstrip().startswith("{"):
            return reject, None
        return reject, SourceError(
            f"{path}: the file is not JSON ({what} on line {origin.line})", _GIVE_RECORD
        )
    if isinstance(value, dict):
        return None
    kind = json_kind(value)
    reject = Rejected(
        origin=origin,
        reason=f"a JSON {kind} where a paper object should be: {_FIX}",
        raw=text[:_RAW_LIMIT],
    )
    return reject, SourceError(f"{path}: the file holds a JSON {kind}, not an object", _GIVE_RECORD)


def _published(submitted_at: str | None) -> date | str | None:
    """Return the date of an ISO timestamp or date, None if absent, or why it is invalid."""
    if submitted_at is None or not submitted_at.strip():
        return None
    try:
        moment = datetime.fromisoformat(submitted_at.strip())
        # arXiv dates its submissions in UTC, so an offset timestamp is moved there first
        day = moment.astimezone(UTC).date() if moment.tzinfo else moment.date()
    except (ValueError, OverflowError):  # OverflowError: moved before year 1 or after 9999
        return (
            f"paper.submitted_at '{submitted_at[:60]}' is not an ISO timestamp like "
            f"2021-10-08T04:24:51Z: {_FIX}"
        )
    if problem := date_problem("paper.submitted_at", day):
        return f"{problem} ('{submitted_at[:60]}'): {_FIX}"
    return day


def _text(value: str | None) -> str | None:
    """Return a stated text without its surrounding spaces, or None if it states nothing."""
    return (value or "").strip() or None


def _submitted_at(submitted_at: str | None) -> str | None:
    """Return the submission moment as an ISO timestamp in UTC (``2021-10-08T04:24:51Z``),
    keeping the time of day that ``published`` drops; None for a bare date or none at all.

    Call it on a value ``_published`` accepted."""
    text = (submitted_at or "").strip()
    if len(text) <= len("2021-10-08"):
        return None
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        return moment.isoformat()  # no offset stated: kept as given, not guessed
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _extra(doc: _PaperJson, in_lines: bool, et_al: bool) -> dict[str, _Scalar]:
    """Return the flat summary facts of an object, leaving out those it does not state."""
    integrity = doc.integrity or _Integrity()
    summary = integrity.summary or _IntegritySummary()
    claims = doc.claims or _Claims()
    references = doc.references or _References()
    canon = doc.formal_canon or _FormalCanon()
    author_claims = doc.author_claims or _AuthorClaims()
    source = doc.source or _Source()
    facts: dict[str, _Scalar] = {
        "source_kind": _text(source.kind),
        "submitted_at": _submitted_at((doc.paper or _Paper()).submitted_at),
        "integrity_endpoint": _text(integrity.endpoint),
        "integrity_clean": integrity.clean,
        "integrity_available": integrity.available,
        "integrity_critical": summary.critical,
        "integrity_advisory": summary.advisory,
        "integrity_informational": summary.informational,
        "claims_count": claims.count,
        "references_count": references.count,
        "references_resolved_work": references.resolved_work,
        "references_internal_anchors": references.internal_anchors,
        "formal_canon_evidence_count": canon.evidence_count,
        "author_claims_count": author_claims.count,
        "author_claims_strong_count": author_claims.strong_count,
        "authors_et_al": True if et_al else None,
    }
    if in_lines:
        # the file's one snapshot cannot hold each object's build, so the paper keeps it
        facts["builder_version"] = doc.builder_version
        for name, digest in doc.hashes().items():
            facts[f"{name}_sha256"] = digest
    return {key: value for key, value in facts.items() if value is not None}


def _record(path: Path, entry: _Entry, snapshot: str, in_lines: bool) -> PaperRecord | Rejected:
    """Return the PaperRecord an object states, or why it cannot be one."""
    origin = Origin(path=str(path), line=entry.line)
    doc = entry.doc
    paper = doc.paper or _Paper()

    def reject(reason: str) -> Rejected:
        return Rejected(origin=origin, reason=reason, raw=entry.raw)

    named = _arxiv_id(doc.source or _Source())
    if isinstance(named, str):
        return reject(named)
    arxiv_id, version = named
    published = _published(paper.submitted_at)
    if isinstance(published, str):
        return reject(published)
    if problem := doc.builder_date_problem():
        # A placeholder date would win over every later build of the paper.
        return reject(f"{problem} ('{(doc.builder_version or '')[:80]}'): {_FIX}")
    title = collapse_spaces(paper.title) if paper.title else None
    if arxiv_id is None and not title:
        return reject(f"the object has neither a source.id nor a paper.title: {_FIX}")
    categories = _categories(paper)
    if isinstance(categories, str):
        return reject(categories)
    authors_text = paper.authors_text or ""
    try:
        record = PaperRecord(
            origin=origin,
            snapshot=snapshot,
            as_of=doc.builder_date(),
            arxiv_id=arxiv_id,
            version=version,
            title=title or None,
            year=published.year if published else None,
            published=published,
            abstract_excerpt=(paper.abstract_excerpt or "").strip() or None,
            license=(paper.license or "").strip() or None,
            primary_category=categories[0],
            cross_categories=categories[1],
            authors=split_authors(authors_text),
            extra=_extra(doc, in_lines, _has_et_al(authors_text)),
        )
    except ValidationError as exc:
        return reject(f"{describe(exc)}: {_FIX}")
    if problem := record_problem(record):
        return reject(f"{problem}: {_FIX}")
    return record


def _arxiv_id(source: _Source) -> tuple[str | None, int | None] | str:
    """Return the arXiv id and version the ``source`` part states (none when it states no
    id), or why it is no arXiv paper's."""
    if source.kind is not None and source.kind.lower() != "arxiv":
        return f"source.kind '{source.kind}' is not 'arxiv'; only arXiv papers load"
    if source.id is None or not source.id.strip():
        return None, source.version
    parsed = arxiv_id_and_version(source.id)
    if parsed is None:
        return (
            f"source.id '{source.id[:60]}' is not an arXiv id (expected e.g. 2110.03888 or "
            f"hep-th/9901001): {_FIX}"
        )
    if problem := version_problem(source.id):
        return f"source.id: {problem}: {_FIX}"
    return parsed[0], source.version or parsed[1]


def _categories(paper: _Paper) -> tuple[str | None, tuple[str, ...]] | str:
    """Return the primary category and the other categories, once each, or why one of
    them is no category code."""
    primary = (paper.primary_cat or "").strip() or None
    cross = tuple(
        dict.fromkeys(
            category.strip()
            for category in paper.cross_cats or []
            if category.strip() and category.strip() != primary
        )
    )
    for where, code in (("paper.primary_cat", primary), *(("paper.cross_cats", c) for c in cross)):
        if code is not None and not (len(code) <= MAX_CATEGORY_CHARS and is_category_code(code)):
            return f"{where} '{code[:60]}' is not an arXiv category code such as 'cs.LG': {_FIX}"
    return primary, cross


def _missing_paper(path: Path, entry: _Entry, record: PaperRecord) -> Rejected | None:
    """Return a reject for an object whose ``paper`` part is null or missing, else None.

    Its id and counts still load, but its title, authors, categories and dates are lost.
    """
    if entry.doc.paper is not None:
        return None
    return Rejected(
        origin=Origin(path=str(path), line=entry.line),
        reason=f"'paper' is null or missing, so {record.key} has no title, authors, categories or "
        "dates; its id and counts were loaded: add the paper part and load it again",
        raw=entry.raw[:_RAW_LIMIT],
    )


def parse(path: Path) -> Iterator[ParsedItem]:
    """Yield the snapshot, then one PaperRecord (or Rejected) per JSON object.

    A one-object file gives the snapshot its builder version, date and hashes. In a
    JSON-lines file each paper keeps its own in ``extra``, and a final snapshot states the
    newest build date, and the builder version when all objects share one.
    Raises SourceError when the file cannot be read, is empty, is not JSON, or holds JSON
    that is not an object.
    """
    snapshot = file_snapshot(path, "paper_json")
    entries = _entries(path)
    head = [entry for entry in (next(entries, None), next(entries, None)) if entry is not None]
    if not head:
        raise SourceError(f"{path}: the file is empty", "give a paper JSON record")
    in_lines = len(head) > 1
    only = head[0] if not in_lines and isinstance(head[0], _Entry) else None
    yield snapshot.model_copy(
        update={
            "data_date": only.doc.builder_date() if only else None,
            "builder_version": only.doc.builder_version if only else None,
            "hashes": only.doc.hashes() if only else {},
        }
    )
    span = DateSpan()
    versions: set[str | None] = set()
    for entry in chain(head, entries):
        if isinstance(entry, Rejected):
            yield entry
            continue
        record = _record(path, entry, snapshot.key, in_lines)
        if isinstance(record, PaperRecord):
            versions.add(entry.doc.builder_version)
            span.add(record.as_of)
        yield record
        if isinstance(record, PaperRecord) and (missing := _missing_paper(path, entry, record)):
            yield missing
    common = next(iter(versions)) if len(versions) == 1 else None
    if in_lines and (span.newest or common):
        yield snapshot.model_copy(update={"data_date": span.newest, "builder_version": common})
