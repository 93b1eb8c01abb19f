"""Semantic Scholar: Graph API paper objects, and the lines of the S2 datasets.

One parser reads each JSON value by its keys:

- a Graph API **paper object** (``/graph/v1/paper/…``, ``/paper/batch``, ``/paper/search``):
  ``paperId`` (the ``s2`` id), ``corpusId``, ``externalIds`` (``ArXiv``, ``DOI``, ``MAG``,
  ``PubMed``, ``CorpusId``; an arXiv DOI ``10.48550/arXiv.*`` is the arXiv id), ``title``,
  ``year``, ``publicationDate``, ``abstract``, ``authors[].name``, ``citationCount`` (stated
  cited by) and ``referenceCount`` (stated references) become a PaperRecord. Its nested
  ``citations`` (paper objects or ``{"citingPaper": {…}}``) become CitationRecords of each
  citing paper to it, its nested ``references`` (paper objects or ``{"citedPaper": {…}}``)
  CitationRecords of it to each cited paper; a nested paper is named by its ids, title and
  year. The objects come as JSON lines, as one pretty-printed object, as a page
  ``{"offset": …, "next": …, "data": [ … ]}`` (a page of ``/paper/{id}/citations`` gives
  the citing papers alone, as the page does not name the paper they cite), or as a JSON
  array (``/paper/batch``'s answer).
- the S2 **datasets**' lines (lower-case keys): ``papers`` (``corpusid``, ``externalids``,
  ``title``, ``year``, ``authors``, ``citationcount``, ``referencecount``,
  ``publicationdate``) and ``abstracts`` (``corpusid``, ``abstract``) become PaperRecords,
  ``citations`` (``citingcorpusid``, ``citedcorpusid``) a CitationRecord between two corpus
  ids.

Left out: venues, journals, fields of study, open-access facts, TLDRs, embeddings, author ids
and the citation contexts and intents. No field dates the data, so records have no
``as_of``. A nested paper or a dataset citation naming no paper (no id and no title, or a
null ``citedcorpusid``) is ``Skipped`` as an unresolved citation; a paper citing itself is
``Skipped`` as a self-citation. Any other bad value rejects the record it is in (a nested
paper's: that citation alone), never the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError

from .ids import AuthorIdKind, IdKind, arxiv_from_doi, normal_author_id, normal_id
from .json_records import (
    BadValue,
    describe,
    id_text,
    json_kind,
    not_json,
    stated_arxiv_id,
    strong_id,
)
from .records import CitationRecord, NamedPaper, PaperRecord, PaperRef, ParsedItem
from .source_file import (
    LinePlace,
    LongLine,
    date_problem,
    file_snapshot,
    numbered_lines,
    record_problem,
    year_problem,
)
from .text import collapse_spaces

__all__ = ["line_context", "parse"]

_FIX = "fix or remove this record"
_FIX_NESTED = "the citation was not loaded: fix or remove the entry"
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_PAPER_KEYS = frozenset(
    {"paperId", "corpusId", "corpusid", "externalIds", "externalids", "title", "citingcorpusid"}
)
_EXTERNAL: tuple[tuple[str, IdKind, str], ...] = (
    ("MAG", "mag", "a MAG id (digits)"),
    ("PubMed", "pmid", "a PubMed id (digits)"),
    ("CorpusId", "corpus", "a corpus id (digits)"),
)
_NO_PAPER = (
    "it names no paper: no paperId, corpusId or external id (ArXiv, DOI, MAG, PubMed) and no title"
)


class _Input(BaseModel):
    """Part of a Semantic Scholar object: unknown keys are ignored, known ones type-checked."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


class _Author(_Input):
    name: str | None = None
    author_id: Any = Field(  # a string of digits, or null
        default=None, validation_alias=AliasChoices("authorId", "authorid")
    )


class _Paper(_Input):
    """A Graph API paper object, or a line of the papers or abstracts dataset."""

    paper_id: str | None = Field(default=None, validation_alias="paperId")
    corpus_id: Any = Field(  # a number or a string of digits, checked by _strong_id
        default=None, validation_alias=AliasChoices("corpusId", "corpusid")
    )
    external_ids: dict[str, Any] | None = Field(
        default=None, validation_alias=AliasChoices("externalIds", "externalids")
    )
    title: str | None = None
    year: int | None = None
    publication_date: str | None = Field(
        default=None, validation_alias=AliasChoices("publicationDate", "publicationdate")
    )
    abstract: str | None = None
    authors: list[_Author] | None = None
    citation_count: int | None = Field(
        default=None, ge=0, validation_alias=AliasChoices("citationCount", "citationcount")
    )
    reference_count: int | None = Field(
        default=None, ge=0, validation_alias=AliasChoices("referenceCount", "referencecount")
    )
    citations: list[Any] | None = None
    references: list[Any] | None = None


@dataclass
class _Named:
    """What names a paper: its arXiv id, other strong ids, title, year and date."""

    arxiv_id: str | None = None
    ids: dict[IdKind, str] = field(default_factory=dict)
    title: str | None = None
    year: int | None = None
    published: date | None = None
    doi: str | None = None
    """The DOI as the source writes it (the normal form is in ``ids``)."""

    def names_a_paper(self) -> bool:
        return bool(self.arxiv_id or self.ids or self.title)

    def fields(self) -> dict[str, Any]:
        """The fields of a record or reference that name its paper."""
        return {"arxiv_id": self.arxiv_id, "ids": self.ids, "title": self.title, "year": self.year}


def _decodes(text: str) -> object:
    """Return the JSON value ``text`` holds, or ``BadValue`` when it holds none."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return BadValue


def _id_text(value: object, where: str) -> str | None:
    """Return an id value as text, None when null or blank; raises BadValue for another type."""
    return id_text(value, where, "a string or a whole number", 80)


def _strong_id(kind: IdKind, value: object, where: str, what: str) -> str | None:
    return strong_id(kind, _id_text(value, where), where, what)


def _named(doc: _Paper, dataset: bool) -> _Named:
    """Return what names the paper of ``doc``; raises BadValue for a value of no such id, a
    year or date outside MIN_YEAR-MAX_YEAR, or a date that is no date."""
    external_field = "externalids" if dataset else "externalIds"
    corpus_field = "corpusid" if dataset else "corpusId"
    date_field = "publicationdate" if dataset else "publicationDate"
    named = _Named()
    found: dict[IdKind, str | None] = {
        "s2": _strong_id("s2", doc.paper_id, "paperId", "a paperId (40 hex digits)"),
        "corpus": _strong_id("corpus", doc.corpus_id, corpus_field, "a corpus id (digits)"),
    }
    external = doc.external_ids or {}
    arxiv_where = f"{external_field}.ArXiv"
    named.arxiv_id = stated_arxiv_id(
        _id_text(external.get("ArXiv"), arxiv_where), arxiv_where, "1706.03762"
    )
    doi_text = _id_text(external.get("DOI"), f"{external_field}.DOI")
    if doi_text is not None:
        from_doi = arxiv_from_doi(doi_text)
        if from_doi is not None:
            named.arxiv_id = named.arxiv_id or from_doi
        else:
            found["doi"] = normal_id("doi", doi_text)
            if found["doi"] is None:
                raise BadValue(
                    f"{external_field}.DOI {doi_text[:80]!r} is not a DOI (10., a registrant "
                    "code, / and a suffix, e.g. 10.1145/3292500.3330701)"
                )
            named.doi = doi_text
    for name, kind, what in _EXTERNAL:
        stated = _strong_id(kind, external.get(name), f"{external_field}.{name}", what)
        found[kind] = found.get(kind) or stated  # corpusId before externalIds.CorpusId
    named.ids = {kind: value for kind, value in found.items() if value}
    named.title = collapse_spaces(doc.title) or None if doc.title else None
    if doc.year is not None and (problem := year_problem("year", doc.year)):
        raise BadValue(problem)
    named.year = doc.year
    text = (doc.publication_date or "").strip()
    if text:
        try:
            published = date.fromisoformat(text)
        except ValueError:
            raise BadValue(f"{date_field} {text[:40]!r} is not a date like 2017-06-12") from None
        if problem := date_problem(date_field, published):
            raise BadValue(problem)
        named.published = published
        named.year = named.year or published.year
    return named


def _abstract(text: str | None) -> str | None:
    """Return the abstract with white space folded within each paragraph, or None."""
    if text is None:
        return None
    paragraphs = (collapse_spaces(part) for part in _PARAGRAPH_BREAK.split(text.strip()))
    return "\n\n".join(part for part in paragraphs if part) or None


def _same_paper(one: NamedPaper, other: NamedPaper) -> bool:
    """Return True when two papers share their arXiv id or any strong id."""
    if one.arxiv_id is not None and one.arxiv_id == other.arxiv_id:
        return True
    return any(other.ids.get(kind) == value for kind, value in one.ids.items())


def _unwrapped(item: dict[str, Any], wrapper: str) -> dict[str, Any]:
    """Return the paper object of ``{"citingPaper": {...}}`` (or ``citedPaper``), else the
    item itself."""
    inner = item.get(wrapper)
    if isinstance(inner, dict) and not _PAPER_KEYS & item.keys():
        return inner
    return item


def _nested_ref(item: object, wrapper: str) -> PaperRef | None:
    """Return the PaperRef of a nested paper, None when it names no paper; raises BadValue."""
    if item is None:
        return None
    if not isinstance(item, dict):
        raise BadValue(f"a JSON {json_kind(item)} where a paper object should be")
    try:
        doc = _Paper.model_validate(_unwrapped(item, wrapper))
        named = _named(doc, dataset=False)
        if not named.names_a_paper():
            return None
        ref = PaperRef(**named.fields(), stated_cited_by=doc.citation_count)
    except ValidationError as exc:
        raise BadValue(describe(exc, width=80)) from None
    if problem := record_problem(ref):
        raise BadValue(problem)
    return ref


def _citations(
    where: LinePlace, record: PaperRecord, items: list[Any], cited_by: bool
) -> Iterator[ParsedItem]:
    """Yield the CitationRecords of a paper's nested ``citations`` (``cited_by``: each item
    cites the paper) or ``references`` (the paper cites each item)."""
    name, wrapper = ("citations", "citingPaper") if cited_by else ("references", "citedPaper")
    paper = record.ref(stated_cited_by=record.stated_cited_by)
    for index, item in enumerate(items):
        entry = f"{name}[{index}]"
        try:
            other = _nested_ref(item, wrapper)
        except BadValue as exc:
            yield where.reject(f"{entry}: {exc}: {_FIX_NESTED}", item)
            continue
        if other is None:
            yield where.skip(
                "unresolved citation", f"{entry} of {record.key} names no paper (no id, no title)"
            )
            continue
        if _same_paper(paper, other):
            yield where.skip("self-citation", f"{record.key} cites itself ({entry})")
            continue
        citing, cited = (other, paper) if cited_by else (paper, other)
        yield CitationRecord(
            origin=where.origin, snapshot=where.snapshot, citing=citing, cited=cited
        )


def _paper(where: LinePlace, obj: dict[str, Any], raw: object) -> Iterator[ParsedItem]:
    """Yield the PaperRecord of a paper object or dataset line, then its nested citations;
    or why it cannot be one."""
    dataset = "corpusid" in obj or "externalids" in obj
    try:
        doc = _Paper.model_validate(obj)
        named = _named(doc, dataset)
    except ValidationError as exc:
        yield where.reject(f"{describe(exc, width=80)}: {_FIX}", raw)
        return
    except BadValue as exc:
        yield where.reject(f"{exc}: {_FIX}", raw)
        return
    if not named.names_a_paper():
        said = obj.get("error") or obj.get("message")
        if isinstance(said, str) and not _PAPER_KEYS & obj.keys():
            reason = (
                f"an API error answer ({said[:120]!r}), not a paper object: fetch the paper "
                "again, or remove this record"
            )
        else:
            reason = f"{_NO_PAPER}: add one, or remove this record"
        yield where.reject(reason, raw)
        return
    try:
        record = PaperRecord(
            origin=where.origin,
            snapshot=where.snapshot,
            **named.fields(),
            published=named.published,
            abstract=_abstract(doc.abstract),
            doi=named.doi,
            authors=tuple(collapse_spaces(a.name or "") for a in _named_authors(doc.authors)),
            author_ids=tuple(_author_ids(a) for a in _named_authors(doc.authors)),
            stated_cited_by=doc.citation_count,
            stated_refs_total=doc.reference_count,
        )
    except ValidationError as exc:
        yield where.reject(f"{describe(exc, width=80)}: {_FIX}", raw)
        return
    if problem := record_problem(record):
        yield where.reject(f"{problem}: {_FIX}", raw)
        return
    yield record
    yield from _citations(where, record, doc.citations or [], cited_by=True)
    yield from _citations(where, record, doc.references or [], cited_by=False)


def _corpus_citation(where: LinePlace, obj: dict[str, Any], raw: object) -> ParsedItem:
    """Return the CitationRecord of a line of the citations dataset, or why there is none."""
    found: dict[str, str | None] = {}
    for name in ("citingcorpusid", "citedcorpusid"):
        try:
            found[name] = _strong_id("corpus", obj.get(name), name, "a corpus id (digits)")
        except BadValue as exc:
            return where.reject(f"{exc}: {_FIX}", raw)
    citing, cited = found["citingcorpusid"], found["citedcorpusid"]
    if citing is None or cited is None:
        missing = "citingcorpusid" if citing is None else "citedcorpusid"
        return where.skip(
            "unresolved citation", f"{missing} is null: Semantic Scholar did not resolve the paper"
        )
    if citing == cited:
        return where.skip("self-citation", f"corpus:{citing} cites itself")
    return CitationRecord(
        origin=where.origin,
        snapshot=where.snapshot,
        citing=PaperRef(ids={"corpus": citing}),
        cited=PaperRef(ids={"corpus": cited}),
    )


def _object(where: LinePlace, obj: dict[str, Any], raw: object) -> Iterator[ParsedItem]:
    """Yield the records of one JSON object: a dataset citation, or a paper."""
    if "citingcorpusid" in obj or "citedcorpusid" in obj:
        yield _corpus_citation(where, obj, raw)
        return
    if "paperId" not in obj:
        obj = _unwrapped(_unwrapped(obj, "citingPaper"), "citedPaper")
    yield from _paper(where, obj, raw)


def _element_spans(text: str, page: bool) -> list[tuple[int, int]] | None:
    """Return where each element of a JSON array (``page``: of the top-level object's
    ``data`` array) starts and ends in ``text``, or None when they cannot be found (the
    text is known to be valid JSON)."""
    decoder = json.JSONDecoder()

    def skip(at: int) -> int:
        match = _WHITESPACE.match(text, at)
        return match.end() if match else at

    try:
        at = skip(0)
        if page:
            if text[at] != "{":
                return None
            at = skip(at + 1)
            while text[at] != "}":
                name, at = decoder.raw_decode(text, at)
                at = skip(skip(at) + 1)  # past the colon
                if name == "data" and text[at] == "[":
                    break
                _, at = decoder.raw_decode(text, at)
                at = skip(at)
                at = skip(at + 1) if text[at] == "," else at
            else:
                return None
        if text[at] != "[":
            return None
        at = skip(at + 1)
        spans: list[tuple[int, int]] = []
        while text[at] != "]":
            _, end = decoder.raw_decode(text, at)
            spans.append((at, end))
            at = skip(end)
            at = skip(at + 1) if text[at] == "," else at
        return spans
    except (ValueError, IndexError, RecursionError):
        return None


def _value(where: LinePlace, text: str, value: object) -> Iterator[ParsedItem]:
    """Yield the records of one decoded JSON text: an object, a page or an array of them."""
    if isinstance(value, dict) and not (
        isinstance(value.get("data"), list) and not _PAPER_KEYS & value.keys()
    ):
        yield from _object(where, value, text)
        return
    if not isinstance(value, dict | list):
        yield where.reject(
            f"a JSON {json_kind(value)} where a Semantic Scholar paper object should be: {_FIX}",
            text,
        )
        return
    page = isinstance(value, dict)
    items: list[Any] = value["data"] if isinstance(value, dict) else value
    spans = _element_spans(text, page) if "\n" in text else None
    if spans is None or len(spans) != len(items):
        spans = None
    for index, item in enumerate(items):
        at, end = spans[index] if spans else (0, 0)
        here = LinePlace(where.path, where.line + text.count("\n", 0, at), where.snapshot)
        raw = text[at:end] if spans else item
        if isinstance(item, dict):
            yield from _object(here, item, raw)
        else:
            where_in = f"data[{index}]" if page else f"element {index + 1} of the array"
            answer = (
                " (the batch endpoint's answer for an id it does not know)" if item is None else ""
            )
            yield here.reject(
                f"{where_in} is a JSON {json_kind(item)}{answer}, not a paper object: "
                "nothing to load; remove it",
                raw,
            )


def _first_lines(path: Path, count: int) -> list[str]:
    """Return the file's first ``count`` non-blank lines, stripped; a line over the limit
    ends them."""
    found: list[str] = []
    for number, line in numbered_lines(path):
        if isinstance(line, LongLine):
            break
        text = (line.lstrip("\ufeff") if number == 1 else line).strip()
        if text:
            found.append(text)
            if len(found) == count:
                break
    return found


def _one_document(path: Path) -> bool:
    """Return True when the file holds one JSON value written over several lines (one
    pretty-printed object, page or array), False for JSON lines.

    Its first line is then no JSON value but opens one, and its second line is no JSON
    object (a JSON-lines file whose first line is broken has whole objects after it)."""
    lines = _first_lines(path, 2)
    if not lines or not lines[0].startswith(("{", "[")) or _decodes(lines[0]) is not BadValue:
        return False
    return len(lines) == 2 and not isinstance(_decodes(lines[1]), dict)


def line_context(path: Path) -> object:
    """Return what besides a line's text decides its records (``SourceFormat.line_context``):
    nothing for JSON lines, and for one document over several lines a value equal to no
    other, since its records are not single lines. Raises SourceError when the file cannot
    be read."""
    return (object(),) if _one_document(path) else None


def _texts(
    path: Path, unchanged: Callable[[str], bool] | None
) -> Iterator[tuple[int, str | LongLine]]:
    """Yield (first line, JSON text): the whole document when the file holds one over several
    lines, else each non-blank line that ``unchanged`` does not name."""
    document = _one_document(path)
    lines = numbered_lines(path)
    held: list[str] = []
    start = 0
    for number, line in lines:
        if isinstance(line, LongLine):
            yield number, line
            if document:
                return  # the document cannot be read without it
            continue
        text = line.lstrip("\ufeff") if number == 1 else line
        if document:
            if held or text.strip():
                start = start or number
                held.append(text)
            continue
        if not text.strip() or (unchanged is not None and unchanged(text)):
            continue
        yield number, text
    if held:
        yield start, "\n".join(held)


def parse(path: Path, unchanged: Callable[[str], bool] | None = None) -> Iterator[ParsedItem]:
    """Yield the snapshot, then the records of each JSON value: a PaperRecord per paper and
    a CitationRecord per nested citation or reference or dataset citation line, and a
    Rejected or Skipped item for each that cannot be one.

    ``unchanged`` (an incremental load of JSON lines) says which lines an older snapshot
    holds as they are: those are not read. Raises SourceError when the file cannot be read.
    """
    snapshot = file_snapshot(path, "semantic_scholar")
    yield snapshot
    for number, text in _texts(path, unchanged):
        where = LinePlace(str(path), number, snapshot.key)
        if isinstance(text, LongLine):
            yield where.reject(text.reason(), text.head)
            continue
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as exc:
            reason = not_json(exc, "; the record may be truncated")
            yield where.reject(f"{reason}: {_FIX}", text)
            continue
        yield from _value(where, text, value)


def _named_authors(authors: list[_Author] | None) -> list[_Author]:
    """The authors with a name, in order."""
    return [author for author in authors or () if author.name and author.name.strip()]


def _author_ids(author: _Author) -> dict[AuthorIdKind, str]:
    """An author's Semantic Scholar authorId, when it is one."""
    found = normal_author_id("s2", author.author_id) if author.author_id is not None else None
    return {"s2": found} if found else {}
