"""Crossref works: the REST API's work objects, as JSON lines, envelopes or list pages.

Reads the ``message`` of ``/works/{DOI}`` as JSON lines, the whole answer
``{"status": "ok", "message-type": "work", "message": {…}}``, a list page
``{"message": {"items": [...]}}`` (or ``{"items": [...]}``, as Crossref's public data files
hold them), or one work, pretty-printed or not (see ``loaders.json_records``).

From each work: its DOI (an arXiv DOI gives the arXiv id instead), title (the first of
``title``, markup removed), year and date (from ``published``, ``issued``,
``published-print``, ``published-online``: the first year stated, and the first full date
of that year), authors (``given`` and ``family``, or ``name``), abstract (JATS markup
removed, one paragraph per ``<jats:p>``, section titles left out), ``is-referenced-by-count``,
``reference-count`` and ``indexed`` (the date the record runs to). Each ``reference`` entry
with a ``DOI`` becomes a citation of that DOI; one without but with an ``article-title`` a
citation of that title (and ``year``); one with neither is counted in the paper's ``extra``
(``references_unnamed``). Containers, publishers, funders, licences and the rest are left
out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import Field

from .ids import AuthorIdKind, arxiv_from_doi, normal_author_id, normal_id
from .json_records import (
    Count,
    Input,
    JsonRecord,
    Unwrapped,
    WorkFormat,
    checked_ref,
    elements,
    json_kind,
    plain_text,
    stated_date,
)
from .records import MAX_YEAR, MIN_YEAR, PaperRecord, PaperRef, ParsedItem, Rejected
from .source_file import year_problem
from .text import collapse_spaces
from .titles import normalize_title

__all__ = ["parse"]

_YEAR = re.compile(r"^\s*(\d{4})(?!\d)")
_DATE_FIELDS = ("published", "issued", "published-print", "published-online")


class _Dated(Input):
    date_parts: list[list[int | None] | None] | None = Field(default=None, alias="date-parts")
    date_time: str | None = Field(default=None, alias="date-time")


class _Author(Input):
    given: str | None = None
    family: str | None = None
    name: str | None = None
    orcid: str | None = Field(default=None, alias="ORCID")


class _Reference(Input):
    doi: str | None = Field(default=None, alias="DOI")
    article_title: str | None = Field(default=None, alias="article-title")
    year: str | int | None = None


class _Work(Input):
    """The parts of a Crossref work that load; any may be missing or null."""

    doi: str | None = Field(default=None, alias="DOI")
    title: list[str] | str | None = None
    author: list[_Author] | None = None
    abstract: str | None = None
    published: _Dated | None = None
    issued: _Dated | None = None
    published_print: _Dated | None = Field(default=None, alias="published-print")
    published_online: _Dated | None = Field(default=None, alias="published-online")
    indexed: _Dated | None = None
    is_referenced_by_count: Count | None = Field(default=None, alias="is-referenced-by-count")
    reference_count: Count | None = Field(default=None, alias="reference-count")
    references_count: Count | None = Field(default=None, alias="references-count")
    reference: list[_Reference] | None = None

    def dated(self) -> dict[str, _Dated | None]:
        """Return the publication dates by field name, in the order they are read."""
        return dict(
            zip(
                _DATE_FIELDS,
                (self.published, self.issued, self.published_print, self.published_online),
                strict=True,
            )
        )


def _unwrap(value: Any) -> Unwrapped:
    """Return the works of a JSON value: an answer's ``message``, a list page's ``items``,
    a list's elements, or the value itself."""
    if isinstance(value, list):
        return elements(value)
    if not isinstance(value, dict) or "DOI" in value:
        return [((), value)]
    if "message" in value:
        message = value["message"]
        kind = value.get("message-type")
        if isinstance(message, dict) and isinstance(message.get("items"), list):
            return elements(message["items"], ("message", "items"))
        if kind not in (None, "work") or not isinstance(message, dict):
            return (
                f"a Crossref answer of message-type {str(kind)[:40]!r} holding a JSON "
                f"{json_kind(message)}, not works: give the answers of /works queries"
            )
        return [(("message",), message)]
    if isinstance(value.get("items"), list):
        return elements(value["items"], ("items",))
    return [((), value)]


def _parts(where: str, dated: _Dated | None) -> tuple[int | None, date | None] | str:
    """Return the year and the full date (None when only a year or month is given) of a
    ``date-parts`` value, or why it is none."""
    parts = (dated.date_parts or [None])[0] if dated else None
    if not parts or parts[0] is None:
        return None, None
    year = parts[0]
    if problem := year_problem(f"{where}.date-parts", year):
        return problem
    if len(parts) < 3 or parts[1] is None or parts[2] is None:
        return year, None
    try:
        return year, date(year, parts[1], parts[2])
    except (ValueError, OverflowError):
        return f"{where}.date-parts {parts[:3]} is no day of the calendar"


def _published(work: _Work) -> tuple[int | None, date | None] | str:
    """Return the work's year (the first stated) and date (the first full one of that
    year), or why a date is wrong."""
    year: int | None = None
    day: date | None = None
    for where, dated in work.dated().items():
        found = _parts(where, dated)
        if isinstance(found, str):
            return found
        stated_year, stated_day = found
        year = year or stated_year
        if day is None and stated_day is not None and stated_day.year == year:
            day = stated_day
    return year, day


def _indexed(work: _Work) -> date | str | None:
    """Return the day Crossref last indexed the work (``indexed``), or why it is wrong."""
    if work.indexed is None:
        return None
    if work.indexed.date_time and work.indexed.date_time.strip():
        return stated_date("indexed.date-time", work.indexed.date_time)
    found = _parts("indexed", work.indexed)
    return found if isinstance(found, str) else found[1]


def _title(work: _Work) -> str | None:
    titles = [work.title] if isinstance(work.title, str) else work.title or []
    return next((text for title in titles if (text := plain_text(title))), None)


def _authors(work: _Work) -> tuple[tuple[str, ...], tuple[dict[AuthorIdKind, str], ...]]:
    """The work's author names in order, and each one's ORCID (one that is no ORCID is left
    out; the author stays, by name)."""
    names: list[str] = []
    ids: list[dict[AuthorIdKind, str]] = []
    for author in work.author or ():
        parts = (author.given or "", author.family or "")
        name = collapse_spaces(" ".join(parts)) if any(parts) else author.name
        if name and (name := collapse_spaces(name)):
            names.append(name)
            orcid = normal_author_id("orcid", author.orcid) if author.orcid else None
            ids.append({"orcid": orcid} if orcid else {})
    return tuple(names), tuple(ids)


def _ref_year(year: str | int | None) -> int | None:
    """Return a reference's year (``"2013a"`` is 2013), None when it states none."""
    if isinstance(year, int):
        found: int | None = year
    else:
        match = _YEAR.match(year or "")
        found = int(match.group(1)) if match else None
    return found if found is not None and MIN_YEAR <= found <= MAX_YEAR else None


def _cited(record: JsonRecord, work: _Work) -> tuple[list[PaperRef | Rejected], int]:
    """Return the paper each reference names (by DOI, else by title and year) or a Rejected
    for a DOI that is none, and the number of references that name none."""
    found: list[PaperRef | Rejected] = []
    unnamed = 0
    for place, ref in enumerate(work.reference or ()):
        where = f"reference[{place}]"
        title = plain_text(ref.article_title or "")
        doi = (ref.doi or "").strip()
        if doi:
            if arxiv_id := arxiv_from_doi(doi):
                found.append(PaperRef(arxiv_id=arxiv_id))
                continue
            if value := normal_id("doi", doi):
                found.append(PaperRef(ids={"doi": value}))
                continue
            if not normalize_title(title):
                found.append(
                    Rejected(
                        origin=record.origin,
                        reason=f"{where}.DOI {doi[:80]!r} is not a DOI (10.<digits>/…); that "
                        "reference was left out, the work and its other references loaded: "
                        "fix it",
                        raw=record.raw(),
                    )
                )
                continue
        if normalize_title(title):
            ref_paper = PaperRef(title=title, year=_ref_year(ref.year))
            found.append(checked_ref(ref_paper, record.origin, where, record.raw()))
        else:
            unnamed += 1
    return found, unnamed


def _paper(
    work: _Work, record: JsonRecord, snapshot: str
) -> tuple[PaperRecord, list[PaperRef | Rejected]] | str:
    """Return the PaperRecord of one work and the papers it cites, or why it is none;
    raises ValidationError for a record that is no PaperRecord."""
    stated_doi = (work.doi or "").strip()
    if not stated_doi:
        return (
            "the work has no 'DOI', which every Crossref work has: give the work object "
            "(the 'message' of /works/DOI)"
        )
    arxiv_id = arxiv_from_doi(stated_doi)
    doi = None if arxiv_id else normal_id("doi", stated_doi)
    if arxiv_id is None and doi is None:
        return f"'DOI' {stated_doi[:80]!r} is not a DOI (10.<digits>/…)"
    published = _published(work)
    if isinstance(published, str):
        return published
    as_of = _indexed(work)
    if isinstance(as_of, str):
        return as_of
    cited, unnamed = _cited(record, work)
    refs_total = work.reference_count
    if refs_total is None:
        refs_total = work.references_count
    if refs_total is None and work.reference is not None:
        refs_total = len(work.reference)
    paper = PaperRecord(
        origin=record.origin,
        snapshot=snapshot,
        as_of=as_of,
        arxiv_id=arxiv_id,
        ids={"doi": doi} if doi else {},
        doi=doi,
        title=_title(work),
        year=published[0],
        published=published[1],
        abstract=(plain_text(work.abstract, paragraphs=True) or None) if work.abstract else None,
        authors=_authors(work)[0],
        author_ids=_authors(work)[1],
        stated_cited_by=work.is_referenced_by_count,
        stated_refs_total=refs_total,
        extra={"references_unnamed": unnamed} if unnamed else {},
    )
    return paper, cited


_FORMAT = WorkFormat("crossref", _unwrap, _Work, _paper, "references")


def parse(path: Path) -> Iterator[ParsedItem]:
    """Yield the snapshot, one PaperRecord (or Rejected) per work followed by a
    CitationRecord per reference that names a paper (a Skipped where a work cites its own
    DOI), then the snapshot again with the newest ``indexed`` date as ``data_date`` (the
    oldest as ``first_date``).

    ``path`` is a file or a folder of them (``loaders.json_records``). Raises SourceError
    when it cannot be read, or is a folder without JSON files."""
    return _FORMAT.parse(path)
