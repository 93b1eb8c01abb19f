"""OpenAlex works: the snapshot's JSON lines, API result pages or one work object.

Reads work objects (``https://openalex.org/W…``) as the API and the snapshot write them:
JSON lines (gzipped or not, like the snapshot's ``data/works/updated_date=…/part_*.gz``), a
folder of such files, a result page ``{"meta": …, "results": [...]}`` or one work,
pretty-printed or not (see ``loaders.json_records``).

From each work: its title (``title``, else ``display_name``, markup removed), year
(``publication_year``), date (``publication_date``), authors (``authorships`` in order:
``author.display_name``, else ``raw_author_name``), abstract (rebuilt from
``abstract_inverted_index``), ids (``id``, the DOI, ``ids.mag``, ``ids.pmid``; an arXiv DOI,
or an arxiv.org location, gives the arXiv id instead), ``cited_by_count``,
``referenced_works_count``, ``updated_date`` (the date the record runs to) and the topics'
names, most relevant first, as the paper's ``topics`` property (a work without topics gives
its concepts' names). Each entry of ``referenced_works`` becomes a citation of that work by
its OpenAlex id. Institutions, venues and the rest are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from .ids import AuthorIdKind, IdKind, arxiv_from_doi, normal_author_id, normal_id
from .json_records import (
    Count,
    Input,
    JsonRecord,
    Unwrapped,
    WorkFormat,
    elements,
    json_kind,
    plain_text,
    stated_date,
)
from .records import PaperRecord, PaperRef, ParsedItem, Rejected
from .source_file import MAX_ID_CHARS, year_problem
from .text import collapse_spaces
from .titles import canonical_arxiv_id

__all__ = ["abstract_from_index", "arxiv_from_url", "parse"]

_ARXIV_URL = re.compile(
    r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?/?$", re.IGNORECASE
)
_DATACITE_URL = re.compile(r"^https?://api\.datacite\.org/dois/(.+)$", re.IGNORECASE)
_ENTITY_ID = re.compile(
    r"^(?:https?://(?:api\.)?openalex\.org/(?:\w+/)?)?([ASICTPFK])\d+$", re.IGNORECASE
)
_ENTITIES = {
    "A": "an author",
    "S": "a source",
    "I": "an institution",
    "C": "a concept",
    "T": "a topic",
    "P": "a publisher",
    "F": "a funder",
    "K": "a keyword",
}
_NUMBERED_IDS: tuple[IdKind, ...] = ("mag", "pmid")


class _Author(Input):
    id: str | None = None
    display_name: str | None = None
    orcid: str | None = None


class _Authorship(Input):
    author: _Author | None = None
    raw_author_name: str | None = None


class _Location(Input):
    landing_page_url: str | None = None
    pdf_url: str | None = None


class _Label(Input):
    display_name: str | None = None


class _Work(Input):
    """The parts of an OpenAlex work that load; any may be missing or null."""

    id: str | None = None
    doi: str | None = None
    title: str | None = None
    display_name: str | None = None
    publication_year: int | None = None
    publication_date: str | None = None
    ids: dict[str, str | int | None] | None = None
    authorships: list[_Authorship] | None = None
    abstract_inverted_index: dict[str, list[Count]] | None = None
    primary_location: _Location | None = None
    best_oa_location: _Location | None = None
    locations: list[_Location | None] | None = None
    cited_by_count: Count | None = None
    referenced_works_count: Count | None = None
    referenced_works: list[str] | None = None
    updated_date: str | None = None
    topics: list[_Label | None] | None = None
    concepts: list[_Label | None] | None = None


def _topics(work: _Work) -> tuple[str, ...] | None:
    """The work's topic names in the order OpenAlex gives them (most relevant first), else
    its concepts' (the older labels, on works that have no topics); None when neither."""
    for labels in (work.topics, work.concepts):
        names: list[str] = []
        for label in labels or ():
            name = plain_text(label.display_name or "") if label is not None else ""
            if name and name not in names:
                names.append(name)
        if names:
            return tuple(names)
    return None


def abstract_from_index(index: dict[str, list[int]]) -> str | None:
    """Return the abstract an inverted index encodes: each word put at each of its
    positions, in position order, joined by spaces (a position taken twice keeps its
    first word); None when it holds no words."""
    placed: dict[int, str] = {}
    for word, positions in index.items():
        for position in positions:
            placed.setdefault(position, word)
    return collapse_spaces(" ".join(placed[position] for position in sorted(placed))) or None


def arxiv_from_url(url: str) -> str | None:
    """Return the arXiv id of an arxiv.org abstract or PDF link, or of a link to an arXiv
    DOI (doi.org, DataCite's API); None for any other."""
    text = url.strip()
    if len(text) > MAX_ID_CHARS + 40:
        return None
    if match := _ARXIV_URL.match(text):
        return canonical_arxiv_id(match.group(1))
    if match := _DATACITE_URL.match(text):
        return arxiv_from_doi(unquote(match.group(1)))
    return arxiv_from_doi(text)


def _unwrap(value: Any) -> Unwrapped:
    """Return the works of a JSON value: a result page's ``results``, a list's elements, or
    the value itself."""
    if isinstance(value, list):
        return elements(value)
    if isinstance(value, dict) and "results" in value and "id" not in value:
        results = value["results"]
        if not isinstance(results, list):
            return (
                f"the page's 'results' is a JSON {json_kind(results)}, not a list of works: "
                "give the page as the API returned it"
            )
        return elements(results, ("results",))
    return [((), value)]


def _not_a_work(stated: str) -> str:
    entity = _ENTITY_ID.match(stated.strip())
    what = f": it is {_ENTITIES[entity.group(1).upper()]}'s id" if entity else ""
    return (
        f"'id' {stated[:80]!r} is not an OpenAlex work id (https://openalex.org/W…){what}; "
        "only work objects load"
    )


def _ids(work: _Work) -> tuple[dict[IdKind, str], str | None] | str:
    """Return the work's strong ids and arXiv id, or why one of them is no id."""
    stated = work.ids or {}
    found: dict[IdKind, str] = {}
    arxiv_id: str | None = None
    work_id = work.id if work.id is not None else stated.get("openalex")
    if work_id is not None and str(work_id).strip():
        value = normal_id("openalex", work_id)
        if value is None:
            return _not_a_work(str(work_id))
        found["openalex"] = value
    for where, doi in (("doi", work.doi), ("ids.doi", stated.get("doi"))):
        if doi is None or not str(doi).strip():
            continue
        from_doi = arxiv_from_doi(str(doi))
        if from_doi is not None:
            arxiv_id = arxiv_id or from_doi
            continue
        value = normal_id("doi", doi)
        if value is None:
            return f"{where} {str(doi)[:80]!r} is not a DOI (10.<digits>/…) nor an arXiv one"
        found.setdefault("doi", value)
    for kind in _NUMBERED_IDS:
        number = stated.get(kind)
        if number is None or not str(number).strip():
            continue
        value = normal_id(kind, number)
        if value is None:
            return f"ids.{kind} {str(number)[:80]!r} is not a {kind} id (digits)"
        found[kind] = value
    return found, arxiv_id or _arxiv_from_locations(work)


def _arxiv_from_locations(work: _Work) -> str | None:
    """Return the arXiv id of the first arxiv.org link among the work's locations."""
    for location in (work.primary_location, work.best_oa_location, *(work.locations or ())):
        for url in (location.landing_page_url, location.pdf_url) if location else ():
            if url and (arxiv_id := arxiv_from_url(url)):
                return arxiv_id
    return None


def _authors(work: _Work) -> tuple[tuple[str, ...], tuple[dict[AuthorIdKind, str], ...]]:
    """The work's author names in order, and each one's ORCID and OpenAlex author id (an id
    that is no such id is left out; the author stays, by name)."""
    names: list[str] = []
    ids: list[dict[AuthorIdKind, str]] = []
    for authorship in work.authorships or ():
        author = authorship.author
        name = (author.display_name if author else None) or authorship.raw_author_name
        if name and (name := collapse_spaces(name)):
            names.append(name)
            found: dict[AuthorIdKind, str] = {}
            orcid = normal_author_id("orcid", author.orcid) if author and author.orcid else None
            if orcid:
                found["orcid"] = orcid
            openalex = normal_author_id("openalex", author.id) if author and author.id else None
            if openalex:
                found["openalex"] = openalex
            ids.append(found)
    return tuple(names), tuple(ids)


def _paper(
    work: _Work, record: JsonRecord, snapshot: str
) -> tuple[PaperRecord, Iterator[PaperRef | Rejected]] | str:
    """Return the PaperRecord of one work and the works its ``referenced_works`` name
    (read as they are taken), or why it is none; raises ValidationError for a record that
    is no PaperRecord."""
    checked = _checked(work)
    if isinstance(checked, str):
        return checked
    ids, arxiv_id, dates = checked
    year = work.publication_year
    index = work.abstract_inverted_index
    references = work.referenced_works
    paper = PaperRecord(
        origin=record.origin,
        snapshot=snapshot,
        as_of=dates["updated_date"],
        arxiv_id=arxiv_id,
        ids=ids,
        doi=ids.get("doi"),
        title=plain_text(work.title or "") or plain_text(work.display_name or "") or None,
        year=year,
        published=dates["publication_date"],
        abstract=abstract_from_index(index) if index else None,
        authors=_authors(work)[0],
        author_ids=_authors(work)[1],
        stated_cited_by=work.cited_by_count,
        topics=_topics(work),
        stated_refs_total=(
            work.referenced_works_count
            if work.referenced_works_count is not None or references is None
            else len(references)
        ),
    )
    return paper, _cited(record, work)


def _checked(
    work: _Work,
) -> tuple[dict[IdKind, str], str | None, dict[str, date | None]] | str:
    """Return a work's strong ids, its arXiv id and its dates by field name, or why one of
    them cannot be read (or it has no id at all)."""
    found = _ids(work)
    if isinstance(found, str):
        return found
    ids, arxiv_id = found
    if not ids and arxiv_id is None:
        return (
            "the work has no 'id' (https://openalex.org/W…), DOI or arXiv id, so it cannot "
            "be told apart from others"
        )
    year = work.publication_year
    if year is not None and (problem := year_problem("publication_year", year)):
        return problem
    dates: dict[str, date | None] = {}
    for what, text in (
        ("publication_date", work.publication_date),
        ("updated_date", work.updated_date),
    ):
        stated = stated_date(what, text) if text and text.strip() else None
        if isinstance(stated, str):
            return stated
        dates[what] = stated
    return ids, arxiv_id, dates


def _cited(record: JsonRecord, work: _Work) -> Iterator[PaperRef | Rejected]:
    """Yield the work each ``referenced_works`` entry names, or a Rejected for one that
    names none."""
    for place, stated in enumerate(work.referenced_works or ()):
        value = normal_id("openalex", stated)
        if value is None:
            yield Rejected(
                origin=record.origin,
                reason=f"referenced_works[{place}] {stated[:80]!r} is not an OpenAlex work id "
                "(https://openalex.org/W…); that reference was left out, the work and its "
                "other references loaded: fix it",
                raw=record.raw(),
            )
            continue
        yield PaperRef(ids={"openalex": value})


_FORMAT = WorkFormat("openalex", _unwrap, _Work, _paper, "referenced_works")


def parse(path: Path) -> Iterator[ParsedItem]:
    """Yield the snapshot, one PaperRecord (or Rejected) per work followed by a
    CitationRecord per referenced work (a Skipped where a work lists itself), then the
    snapshot again with the newest ``updated_date`` as ``data_date`` (the oldest as
    ``first_date``).

    ``path`` is a file or a folder of them (``loaders.json_records``). Raises SourceError
    when it cannot be read, or is a folder without JSON files."""
    return _FORMAT.parse(path)
