"""unarXive (2022 and later): arXiv papers' full text as JSON lines, one paper per line.

The shape read (unarXive's ``doc/data_format.md`` and the scripts that build it)::

    {"paper_id": "2105.05862",                 # the arXiv id (old style with its slash)
     "metadata": {"id": "2105.05862", "title": ..., "authors": ..., "categories": ...,
                  "doi": ..., "versions": [...], "update_date": ..., "abstract": ...},
     "abstract": {...}, "body_text": [...], "ref_entries": {...},
     "bib_entries": {"<ref_id>": {
         "bib_entry_raw": "A. Author, Title, J. 1 (2000) 1, arXiv:1206.2606",
         "contained_arXiv_ids": [{"id": "1206.2606", "text": ..., "start": ..., "end": ...}],
         "contained_links": [...],
         "ids": {"open_alex_id": "https://openalex.org/W…", "sem_open_alex_id": "https://semopenalex.org/work/W…",
                 "arxiv_id": "", "pubmed_id": "", "pmc_id": "", "doi": "10.…"}}}}

``metadata`` is a record of the arXiv metadata snapshot (``loaders.arxiv_oai``), or ``{}``
where unarXive found none: it gives the PaperRecord, dated by its ``update_date``; without
it the paper is its arXiv id alone. Each bib entry that names a paper by an id is a
CitationRecord of the paper citing it: the cited paper's arXiv id is ``ids.arxiv_id``, else
the first of ``contained_arXiv_ids`` (a plain id string there is read too), and its other
ids ``ids.doi`` (an arXiv DOI is the arXiv id), ``ids.open_alex_id`` (else the W id of
``sem_open_alex_id``) and ``ids.pubmed_id``; each further arXiv id in
``contained_arXiv_ids`` (one bib entry listing several papers) is a citation of its own. An
empty string is no id. ``pmc_id`` is not read (no kind of id the graph keeps), nor the full
text, the raw reference text and the links.

A bib entry naming no paper by id is ``Skipped`` as an unresolved citation, one naming the
paper itself as a self-citation. A bad value rejects what it is in: a bad id that bib
entry's citations, bad metadata the paper's record (its citations still load), a line that
is no JSON object or whose ``paper_id`` is no arXiv id the whole line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .arxiv_oai import metadata_record, validation_reason
from .ids import IdKind, arxiv_from_doi, normal_id
from .json_records import BadValue, id_text, json_kind, not_json, stated_arxiv_id, strong_id
from .records import CitationRecord, PaperRecord, PaperRef, ParsedItem
from .source_file import (
    LinePlace,
    LongLine,
    arxiv_id_and_version,
    file_snapshot,
    numbered_lines,
    record_problem,
)

__all__ = ["parse"]

_FIX_LINE = "fix or remove this line"
_FIX_ENTRY = "its citation was not loaded: fix or remove the id"
_WHAT: dict[IdKind, str] = {
    "openalex": "an OpenAlex work id (W and digits, or its openalex.org URL)",
    "pmid": "a PubMed id (digits, or its pubmed.ncbi.nlm.nih.gov URL)",
}
_SEMOPENALEX = re.compile(r"^https?://semopenalex\.org/work/(w\d+)/?$", re.IGNORECASE | re.ASCII)


def _stated(value: object, where: str) -> str | None:
    """Return an id as stated, None when null or blank; raises BadValue for another type."""
    return id_text(value, where, "a string", 60)


def _arxiv(value: object, where: str) -> str | None:
    """Return the canonical arXiv id of a stated one, None when none is stated."""
    return stated_arxiv_id(_stated(value, where), where, "1206.2606")


def _strong(kind: IdKind, value: object, where: str) -> str | None:
    return strong_id(kind, _stated(value, where), where, _WHAT[kind])


def _contained(entry: dict[str, Any], where: str) -> list[str]:
    """Return the arXiv ids of ``contained_arXiv_ids``, in order, once each."""
    value = entry.get("contained_arXiv_ids")
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadValue(f"{where}.contained_arXiv_ids should be an array, got {json_kind(value)}")
    found: list[str] = []
    for index, item in enumerate(value):
        stated = item.get("id") if isinstance(item, dict) else item
        arxiv_id = _arxiv(stated, f"{where}.contained_arXiv_ids[{index}].id")
        if arxiv_id is not None and arxiv_id not in found:
            found.append(arxiv_id)
    return found


def _cited(entry: object, where: str) -> list[PaperRef]:
    """Return the papers a bib entry names by id (none for an unresolved entry); raises BadValue
    for an id that is no id of its kind."""
    if not isinstance(entry, dict):
        raise BadValue(f"{where} should be an object, got {json_kind(entry)}")
    ids = entry.get("ids")
    if ids is None:
        ids = {}
    if not isinstance(ids, dict):
        raise BadValue(f"{where}.ids should be an object, got {json_kind(ids)}")
    contained = _contained(entry, where)
    arxiv_id = _arxiv(ids.get("arxiv_id"), f"{where}.ids.arxiv_id")
    arxiv_id = arxiv_id or (contained[0] if contained else None)
    strong: dict[IdKind, str] = {}
    doi = _stated(ids.get("doi"), f"{where}.ids.doi")
    if doi is not None:
        from_doi = arxiv_from_doi(doi)
        if from_doi is not None:
            arxiv_id = arxiv_id or from_doi
        elif (strong_doi := normal_id("doi", doi)) is not None:
            strong["doi"] = strong_doi
        else:
            raise BadValue(f"{where}.ids.doi {doi[:80]!r} is not a DOI (e.g. 10.1086/156337)")
    openalex = _strong("openalex", ids.get("open_alex_id"), f"{where}.ids.open_alex_id")
    if openalex is None:
        semantic = _stated(ids.get("sem_open_alex_id"), f"{where}.ids.sem_open_alex_id")
        match = _SEMOPENALEX.match(semantic or "")
        openalex = match.group(1).upper() if match else None
    if openalex is not None:
        strong["openalex"] = openalex
    pmid = _strong("pmid", ids.get("pubmed_id"), f"{where}.ids.pubmed_id")
    if pmid is not None:
        strong["pmid"] = pmid
    refs = [PaperRef(arxiv_id=arxiv_id, ids=strong)] if arxiv_id or strong else []
    refs += [PaperRef(arxiv_id=other) for other in contained if other != arxiv_id]
    return refs


def _record(where: LinePlace, arxiv_id: str, metadata: object) -> PaperRecord | str:
    """Return the paper's record from its metadata, or why the metadata cannot be one."""
    if metadata is None or metadata == {}:
        metadata = {"id": arxiv_id}  # unarXive found no metadata: the id alone
    if not isinstance(metadata, dict):
        return f"metadata should be an object, got {json_kind(metadata)}"
    stated = metadata.get("id")
    if stated is None:
        metadata = {**metadata, "id": arxiv_id}
    elif not isinstance(stated, str) or arxiv_id_and_version(stated) is None:
        return f"metadata.id {json.dumps(stated)[:60]} is not an arXiv id"
    elif (parsed := arxiv_id_and_version(stated)) and parsed[0] != arxiv_id:
        return f"metadata.id {stated[:60]!r} is another paper than paper_id {arxiv_id!r}"
    record = metadata_record(metadata, where.origin, where.snapshot)
    return record if isinstance(record, PaperRecord) else f"metadata: {record}"


def _entries(value: object) -> list[tuple[str, object]] | None:
    """Return the (ref_id, entry) pairs of ``bib_entries``, None when it is no object."""
    if value is None:
        return []
    if isinstance(value, dict):
        return [(str(key), entry) for key, entry in value.items()]
    if isinstance(value, list):  # an array of entries: named by their place
        return [(str(index), entry) for index, entry in enumerate(value)]
    return None


def _paper(where: LinePlace, obj: object, raw: str) -> Iterator[ParsedItem]:
    """Yield the PaperRecord of one decoded line and its citations, or why it has none."""
    if not isinstance(obj, dict):
        yield where.reject(
            f"a JSON {json_kind(obj)} where an unarXive paper object should be: {_FIX_LINE}",
            raw,
        )
        return
    try:
        arxiv_id = _arxiv(obj.get("paper_id"), "paper_id")
    except BadValue as exc:
        yield where.reject(f"{exc}; the line was not loaded: {_FIX_LINE}", raw)
        return
    if arxiv_id is None:
        yield where.reject(
            f"no paper_id; every line needs the paper's arXiv id such as '2105.05862': {_FIX_LINE}",
            raw,
        )
        return
    record = _record(where, arxiv_id, obj.get("metadata"))
    if isinstance(record, PaperRecord):
        yield record
    else:
        yield where.reject(
            f"{record}; the paper's metadata was not loaded (its citations were): fix the metadata",
            raw,
        )
    entries = _entries(obj.get("bib_entries"))
    if entries is None:
        yield where.reject(
            f"bib_entries should be an object of bib entries, got "
            f"{json_kind(obj.get('bib_entries'))}; no citation of {arxiv_id} was loaded: fix "
            "bib_entries",
            raw,
        )
        return
    citing = PaperRef(arxiv_id=arxiv_id)
    as_of = record.as_of if isinstance(record, PaperRecord) else None
    for ref_id, entry in entries:
        name = f"bib_entries[{ref_id[:60]!r}]"
        try:
            cited = _cited(entry, name)
            problem = next(filter(None, map(record_problem, cited)), None)
        except BadValue as exc:
            problem = str(exc)
        except ValidationError as exc:
            problem = validation_reason(exc)
        if problem is not None:
            yield where.reject(f"{problem}; {_FIX_ENTRY}", json.dumps(entry))
            continue
        if not cited:
            yield where.skip("unresolved citation", f"{name} of {arxiv_id} names no paper by id")
        for ref in cited:
            if ref.arxiv_id == arxiv_id:
                yield where.skip("self-citation", f"{arxiv_id} cites itself ({name})")
                continue
            yield CitationRecord(
                origin=where.origin, snapshot=where.snapshot, as_of=as_of, citing=citing, cited=ref
            )


def parse(path: Path, unchanged: Callable[[str], bool] | None = None) -> Iterator[ParsedItem]:
    """Yield the snapshot, then for each non-blank line the paper's PaperRecord and a
    CitationRecord per bib entry naming a paper by id, or Rejected and Skipped items.

    ``unchanged`` (an incremental load) says which lines an older snapshot holds as they
    are: those are not read. Raises SourceError when the file cannot be read.
    """
    snapshot = file_snapshot(path, "unarxive")
    yield snapshot
    for number, line in numbered_lines(path):
        where = LinePlace(str(path), number, snapshot.key)
        if isinstance(line, LongLine):
            yield where.reject(line.reason(), line.head)
            continue
        text = line.lstrip("\ufeff") if number == 1 else line
        if not text.strip() or (unchanged is not None and unchanged(text)):
            continue
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError) as exc:
            yield where.reject(f"{not_json(exc, '; it may be truncated')}: {_FIX_LINE}", text)
            continue
        yield from _paper(where, obj, text)
