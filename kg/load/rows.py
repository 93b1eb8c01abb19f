"""The rows both sinks write: validated records become the parameters of the load
statements (cypher/load_*), named as ``batch_statements`` names them.

``GraphWriter`` (kg.load.neo4j_sink) runs them in transactions; ``ImportSink``
(kg.load.import_sink) stages the same rows for neo4j-admin import. ``redirected``,
``authors_held`` and ``split_rows`` rewrite them for the papers that hold a key now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from loaders.ids import AuthorIdKind, author_key, author_rank, parse_id_key
from loaders.paper_properties import LINK_PROPERTIES, ROW_PROPERTIES
from loaders.records import CitationRecord, PaperRecord, PaperRef, SnapshotRecord
from loaders.taxonomy import category
from loaders.text import normalize_name
from loaders.titles import canonical_arxiv_id, normalize_title, parse_title_key

__all__ = [
    "SNAPSHOT_HASHES",
    "STATEMENT_QUERY",
    "Batch",
    "KeyRef",
    "as_of_key",
    "author_id_rows",
    "author_names",
    "authors_held",
    "batch_id_keys",
    "batch_statements",
    "category_row",
    "dated_keys",
    "listed_apart_rows",
    "newest_per_key",
    "paper_id_rows",
    "paper_row",
    "record_authors",
    "record_order",
    "redirected",
    "ref_as_of",
    "reference_row",
    "snapshot_row",
    "sorted_stubs",
    "split_rows",
    "stub_row",
    "title_refs",
    "touched_titles",
]

_NO_DATE = "0000-00-00"


@dataclass
class Batch:
    """Papers and citations waiting to be written together."""

    papers: list[PaperRecord] = field(default_factory=list)
    citations: list[CitationRecord] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.papers) + len(self.citations)


def as_of_key(as_of: date | None, snapshot: str) -> str:
    """Return the sort key that decides which record wins: its data date, then its snapshot."""
    return f"{as_of.isoformat() if as_of else _NO_DATE}|{snapshot}"


SNAPSHOT_HASHES = ("claims", "integrity", "references", "formal_canon", "author_claims")
"""The parts of a JSON record whose stated hashes a Snapshot keeps, as hash_<part>:
snapshots.cypher names each property, so that its plan holds no Eager."""


def snapshot_row(snapshot: SnapshotRecord) -> dict[str, Any]:
    """Return the load_snapshots row of a snapshot; stated hashes become hash_<name> props.

    Raises ValueError for a hash of a part SNAPSHOT_HASHES does not name (a loader that
    states a new part must add it there and to snapshots.cypher).
    """
    unknown = sorted(set(snapshot.hashes) - set(SNAPSHOT_HASHES))
    if unknown:
        raise ValueError(
            f"snapshot {snapshot.key} states hashes of {', '.join(unknown)}, which "
            "cypher/load/snapshots.cypher does not write: add them to SNAPSHOT_HASHES and it"
        )
    return {
        "key": snapshot.key,
        "kind": snapshot.kind,
        "source": snapshot.source,
        "sha256": snapshot.sha256,
        "data_date": snapshot.data_date,
        "first_date": snapshot.first_date,
        "builder_version": snapshot.builder_version,
        "hashes": {f"hash_{name}": value for name, value in snapshot.hashes.items()},
        "apart": listed_apart_rows(snapshot.listed_apart),
    }


def listed_apart_rows(listed_apart: Iterable[str]) -> list[dict[str, str]]:
    """The ListedApart rows of a snapshot's ``listed_apart`` entries: each with a title key
    among its keys, and that key's normalised title (two arXiv ids are two papers anyway)."""
    rows = []
    for entry in sorted(listed_apart):
        titles = [parsed[0] for k in entry.split("|") if (parsed := parse_title_key(k))]
        if titles:
            rows.append({"key": entry, "norm_title": titles[0]})
    return rows


def category_row(code: str) -> dict[str, Any]:
    """Return the row of a category as the load statements name it: code, name, archive."""
    known = category(code)
    return {"code": known.code, "name": known.name, "archive": known.archive}


def _named_row(named: PaperRecord | PaperRef, key: str) -> dict[str, Any]:
    """The row fields that name a paper: its key, arXiv id, title and year."""
    return {
        "key": key,
        "arxiv_id": canonical_arxiv_id(named.arxiv_id) if named.arxiv_id else None,
        "title": named.title,
        "norm_title": normalize_title(named.title) if named.title else None,
        "year": named.year,
    }


def paper_row(record: PaperRecord, key: str) -> dict[str, Any]:
    """Return the load_papers row of a full paper record stored under ``key``: the values
    ``loaders.paper_properties`` reads from it (the paper's, its link's), its ``extra``
    facts, its as_of key and date, its snapshot."""
    row: dict[str, Any] = {"key": key}
    row.update((p.name, p.read(record)) for p in ROW_PROPERTIES if p.read)
    row.update((p.row, p.read(record)) for p in LINK_PROPERTIES)
    row["extra"] = dict(record.extra)
    row["as_of"] = as_of_key(record.as_of, record.snapshot)
    row["snapshot"] = record.snapshot
    return row


def record_order(record: PaperRecord) -> tuple[str, int]:
    """The order in which full records of one paper apply: oldest first by as-of key, then by
    line, so the newest record (the last in its file among equals) wins in any batch size."""
    return as_of_key(record.as_of, record.snapshot), record.origin.line


def ref_as_of(ref: PaperRef, as_of: date | None, snapshot: str) -> str | None:
    """Return the rank of a reference's title and year for a paper known only from
    references: the newest data date, then the snapshot key, then the spelling itself
    (so a tie never depends on order). None when the reference states no title."""
    if not ref.title:
        return None
    year = "" if ref.year is None else str(ref.year)
    return f"{as_of_key(as_of, snapshot)}|{ref.title}|{year}"


@dataclass(frozen=True)
class KeyRef:
    """One entry of a paper's ``key_refs``: the best reference under one of its keys, as
    ``'<key>|<ref_as_of>'`` (``ref_as_of`` is data date|snapshot|title|year)."""

    key: str
    rank: str
    """Its ``ref_as_of``."""
    snapshot: str
    title: str
    year: int | None

    @classmethod
    def parse(cls, entry: str) -> KeyRef:
        """Read one entry (no key or snapshot key holds '|'; a title may)."""
        key, rank = entry.split("|", 1)
        _date, snapshot, spelled = rank.split("|", 2)
        title, year = spelled.rsplit("|", 1)
        return cls(key, rank, snapshot, title, int(year) if year else None)


def newest_per_key(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Keep the last row of each key (rows come oldest first): a list replaced as a whole
    (authors, categories) comes from the newest record alone."""
    return list({row["key"]: row for row in rows}.values())


def record_authors(record: PaperRecord) -> list[tuple[str, str, dict[AuthorIdKind, str]]]:
    """Return a record's authors in order as (node key, name, strong ids): an author the
    source gives ids for is keyed by its first (``loaders.ids.author_key``), any other by
    its normalised name."""
    ids = record.author_ids or tuple({} for _ in record.authors)
    return [
        (author_key(found, normalize_name(name)), name, found)
        for name, found in zip(record.authors, ids, strict=True)
    ]


def author_names(records: Iterable[PaperRecord]) -> list[dict[str, str]]:
    """Return the author_names rows of records: every spelling of each author in them, once,
    sorted, with its normalised form. Which spelling names the author is
    author_names.cypher's rule alone."""
    spellings = {
        (key, name, normalize_name(name)) for r in records for key, name, _ids in record_authors(r)
    }
    return [{"key": k, "name": n, "norm_name": m} for k, n, m in sorted(spellings)]


def author_id_rows(records: Iterable[PaperRecord]) -> list[dict[str, Any]]:
    """Return the load_author_ids rows of records: each author a source gives strong ids
    for, by its own key, with every id key any of the records gives it (sorted)."""
    found: dict[str, set[str]] = {}
    for record in records:
        for key, _name, ids in record_authors(record):
            if ids:
                found.setdefault(key, set()).update(f"{k}:{v}" for k, v in ids.items())
    return [{"key": key, "ids": sorted(found[key])} for key in sorted(found)]


def authors_held(
    statements: list[tuple[str, dict[str, Any]]], holders: Mapping[str, str]
) -> list[tuple[str, dict[str, Any]]]:
    """Return the statements with each author written to the author that now holds one of
    its ids (``holders``: id key -> author key; the first in ``author_rank``) where that one
    ranks before the author's own key, so a record of an author who merged into another
    writes nothing new."""
    moved: dict[str, str] = {}
    for name, params in statements:
        if name == "load_author_ids":
            for row in params["rows"]:
                # the holder only where it ranks first: else the author is written under
                # its own key, and the reconcile merges the holder into it
                best = min(
                    [row["key"], *(holders[i] for i in row["ids"] if i in holders)], key=author_rank
                )
                if best != row["key"]:
                    moved[row["key"]] = best
    if not moved:
        return statements
    result: list[tuple[str, dict[str, Any]]] = []
    for name, params in statements:
        rows = params["rows"]
        if name in ("load_author_names", "load_author_ids"):
            rows = [{**row, "key": moved.get(row["key"], row["key"])} for row in rows]
        elif name == "load_authors":
            rows = [
                {
                    **row,
                    "authors": [
                        {**a, "key": moved.get(a["key"], a["key"])} for a in row["authors"]
                    ],
                }
                for row in rows
            ]
        result.append((name, {"rows": rows}))
    return result


def title_refs(batch: Batch) -> list[dict[str, str]]:
    """Return the title keys (and normalised titles) of the papers the batch's citations
    name by title only."""
    refs: dict[str, str] = {}
    for citation in batch.citations:
        for ref in (citation.citing, citation.cited):
            if ref.title and parse_title_key(ref.key) is not None:
                refs[ref.key] = normalize_title(ref.title)
    return [{"key": key, "norm_title": norm} for key, norm in sorted(refs.items())]


def touched_titles(batch: Batch) -> tuple[list[str], list[str]]:
    """Return the normalised titles a batch names: (those of title-only papers, all)."""
    title_only: set[str] = set()
    every: set[str] = set()
    named: Iterable[PaperRecord | PaperRef] = [
        *batch.papers,
        *(ref for c in batch.citations for ref in (c.citing, c.cited)),
    ]
    for item in named:
        if not item.title:
            continue
        norm = normalize_title(item.title)
        if not norm:
            continue
        every.add(norm)
        if not item.arxiv_id:
            title_only.add(norm)
    return sorted(title_only), sorted(every)


def batch_statements(batch: Batch) -> list[tuple[str, dict[str, Any]]]:
    """Return the load statements of one batch, in order, with their parameters.

    Every paper goes under its own key (``NamedPaper.key``): the arXiv id, else its title key.
    """
    statements: list[tuple[str, dict[str, Any]]] = []
    full = sorted(batch.papers, key=record_order)
    if full:
        statements.append(("load_papers", {"rows": [paper_row(r, r.key) for r in full]}))
        statements += _author_statements(full)
        categorised = _category_rows(full)
        if categorised:
            statements.append(("load_categories", {"rows": categorised}))
    if batch.citations:
        statements += _citation_statements(batch.citations)
    identified = paper_id_rows(batch)
    if identified:
        statements.append(("load_paper_ids", {"rows": identified}))
    return statements


def _author_statements(full: list[PaperRecord]) -> list[tuple[str, dict[str, Any]]]:
    """The author statements of a batch's full records (oldest first): their spellings, each
    paper's authors from its newest record, and the strong ids sources give them."""
    authored = newest_per_key(
        [
            {
                "key": r.key,
                "as_of": as_of_key(r.as_of, r.snapshot),
                "authors": [{"key": k, "name": n} for k, n, _ids in record_authors(r)],
            }
            for r in full
            if r.authors
        ]
    )
    if not authored:
        return []
    statements: list[tuple[str, dict[str, Any]]] = [
        ("load_author_names", {"rows": author_names(full)}),
        ("load_authors", {"rows": authored}),
    ]
    identified = author_id_rows(full)
    if identified:
        statements.append(("load_author_ids", {"rows": identified}))
    return statements


def _category_rows(full: list[PaperRecord]) -> list[dict[str, Any]]:
    """The load_categories rows of a batch's full records (oldest first): each paper's
    categories from its newest record, naming every category any of its records gives."""
    every_category: list[dict[str, Any]] = [
        {
            "key": r.key,
            "as_of": as_of_key(r.as_of, r.snapshot),
            "primary": category_row(r.primary_category),
            "cross": [category_row(c) for c in r.cross_categories if c != r.primary_category],
        }
        for r in full
        if r.primary_category
    ]
    # Every category any record names exists, in any grouping: the newest row of a paper
    # sets its links, and names the categories of its batch's older rows too.
    named: dict[str, dict[str, dict[str, Any]]] = {}
    for entry in every_category:
        for each in (entry["primary"], *entry["cross"]):
            named.setdefault(entry["key"], {})[each["code"]] = each
    return [
        {**entry, "named": [named[entry["key"]][code] for code in sorted(named[entry["key"]])]}
        for entry in newest_per_key(every_category)
    ]


def _citation_statements(citations: list[CitationRecord]) -> list[tuple[str, dict[str, Any]]]:
    """The load_stubs and load_citations statements of a batch's citations."""
    stubs: dict[tuple[str, str | None, int | None], dict[str, Any]] = {}
    # the data dates each (citing, cited, snapshot) was stated at: its first and last
    # become rows, so that the edge keeps them however the records were batched
    edges: dict[tuple[str, str, str], set[date | None]] = {}
    for citation in citations:
        citing = citation.citing.key
        cited = citation.cited.key
        for ref, key in ((citation.citing, citing), (citation.cited, cited)):
            row = stub_row(ref, key, citation)
            stubs[(key, row["ref_as_of"], row["stated_cited_by"])] = row
        if citing == cited:
            # A page's reference under its own key (a title-only page citing its title
            # and year) names the page's paper: no citation, in any order of the loads
            continue
        edges.setdefault((citing, cited, citation.snapshot), set()).add(citation.as_of)
    # named_citing and named_cited are set by ``redirected`` for a key merged away
    edge_rows = [
        _citation_row(snapshot, as_of, (citing, cited), (citing, cited))
        for (citing, cited, snapshot), dates in edges.items()
        for as_of in _first_and_last(dates)
    ]
    return [
        ("load_stubs", {"rows": sorted_stubs(stubs.values())}),
        ("load_citations", {"rows": edge_rows}),
    ]


def paper_id_rows(batch: Batch) -> list[dict[str, Any]]:
    """Return the load_paper_ids rows of a batch: each paper its records and references
    state strong ids for (``NamedPaper.ids``), with those ids' keys, sorted."""
    ids: dict[str, set[str]] = {}
    named: Iterable[PaperRecord | PaperRef] = [
        *batch.papers,
        *(ref for c in batch.citations for ref in (c.citing, c.cited)),
    ]
    for item in named:
        if item.ids:
            ids.setdefault(item.key, set()).update(item.id_keys)
    return [{"key": key, "ids": sorted(ids[key])} for key in sorted(ids)]


def batch_id_keys(batch: Batch) -> list[str]:
    """Every strong id key the batch's records and references state, sorted."""
    return sorted({key for row in paper_id_rows(batch) for key in row["ids"]})


def dated_keys(statements: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Return the keys of the papers these statements give a year: those of full records and
    of references that state one. A new year can chain a paper to others under any of its
    titles, so the batch's reconcile covers all of them."""
    keys: set[str] = set()
    for name, params in statements:
        if name in ("load_papers", "load_stubs"):
            keys.update(row["key"] for row in params["rows"] if row["year"] is not None)
    return sorted(keys)


def redirected(
    statements: list[tuple[str, dict[str, Any]]], holders: dict[str, str]
) -> list[tuple[str, dict[str, Any]]]:
    """Return the statements with references to title keys merged away before written to
    the paper that holds them; a citation keeps the keys it named (``named_citing``,
    ``named_cited``: CITES ``named``), and a reference the key it named (``named``: the
    paper's ``key_refs``). A citation between two keys of one paper is no edge: it is kept
    on the paper (``load_self_citations``: its ``self_cites``).

    Writing a reference to the holder gives the graph that writing it under its own key and
    merging gives, without creating and deleting the stub again on every load.
    """
    result: list[tuple[str, dict[str, Any]]] = []
    for name, params in statements:
        rows = params["rows"]
        if name == "load_stubs":
            rows = sorted_stubs(_held(row, holders) for row in rows)
            result += _id_aliases(rows)
        elif name == "load_paper_ids":
            rows = _held_ids(rows, holders)
        elif name == "load_citations":
            rows, selves = _held_citations(rows, holders)
            result += selves
        result.append((name, {"rows": rows}))
    return result


def _id_aliases(stubs: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The load_id_aliases statement of redirected stub rows, if any: a paper holding a
    strong id a reference named keeps its key as a merge would."""
    aliased: dict[str, set[str]] = {}
    for row in stubs:
        if row["named"] is not None and parse_id_key(row["named"]) is not None:
            aliased.setdefault(row["key"], set()).add(row["named"])
    if not aliased:
        return []
    rows = [{"key": k, "aliases": sorted(aliased[k])} for k in sorted(aliased)]
    return [("load_id_aliases", {"rows": rows})]


def _held_ids(rows: list[dict[str, Any]], holders: dict[str, str]) -> list[dict[str, Any]]:
    """load_paper_ids rows written to the papers holding their keys, one row per paper."""
    merged: dict[str, set[str]] = {}
    for row in rows:
        merged.setdefault(holders.get(row["key"], row["key"]), set()).update(row["ids"])
    return [{"key": key, "ids": sorted(merged[key])} for key in sorted(merged)]


def _held_citations(
    rows: list[dict[str, Any]], holders: dict[str, str]
) -> tuple[list[dict[str, Any]], list[tuple[str, dict[str, Any]]]]:
    """Return load_citations rows written between the papers holding their keys, and the
    load_self_citations statement (if any) of those that end up within one paper."""
    held = [
        (row, holders.get(row["citing"], row["citing"]), holders.get(row["cited"], row["cited"]))
        for row in rows
    ]
    edges = [
        _citation_row(row["snapshot"], row["as_of"], (citing, cited), (row["citing"], row["cited"]))
        for row, citing, cited in held
        if citing != cited
    ]
    selves = sorted(
        {
            (citing, f"{row['snapshot']}|{row['citing']}|{row['cited']}")
            for row, citing, cited in held
            if citing == cited and row["citing"] != row["cited"]
        }
    )
    if not selves:
        return edges, []
    return edges, [("load_self_citations", {"rows": [{"key": k, "entry": e} for k, e in selves]})]


def _held(row: dict[str, Any], holders: dict[str, str]) -> dict[str, Any]:
    """A stub row written to the paper holding its key, which it keeps as ``named``."""
    holder = holders.get(row["key"], row["key"])
    return row if holder == row["key"] else {**row, "key": holder, "named": row["key"]}


def sorted_stubs(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stub rows oldest rank first, so that within one statement the best reference is
    applied last whichever order the file listed them in."""
    return sorted(rows, key=lambda row: (row["key"], row["ref_as_of"] or ""))


def reference_row(entry: str, key: str) -> dict[str, Any]:
    """Return the load_stubs row that writes one ``key_refs`` entry (``KeyRef``) back to the
    paper under ``key``, naming the key it came under when that is another."""
    ref = KeyRef.parse(entry)
    return {
        "key": key,
        "arxiv_id": None,
        "title": ref.title,
        "norm_title": normalize_title(ref.title),
        "year": ref.year,
        "ref_as_of": ref.rank,
        "snapshot": ref.snapshot,
        "stated_cited_by": None,
        "as_of": None,
        "named": ref.key if ref.key != key else None,
    }


def split_rows(
    holder: str, alias: str, found: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the load_stubs and load_citations rows that write back what split_key took out
    of ``holder`` for ``alias``: the key as a stub of its own (its best reference and the
    counts it was stated with), the citations that named it, those between it and the
    holder, and the holder's best remaining reference when the key's gave it its title.

    Writing them through the load statements gives the graph a load with the key kept
    apart gives, since every rule of those statements is a fold of what each key stated.
    """
    norm, year = parse_title_key(alias) or ("", None)
    stub = {
        "key": alias,
        "arxiv_id": None,
        "title": None,
        "norm_title": norm,
        "year": year,
        "ref_as_of": None,
        "snapshot": None,
        "stated_cited_by": None,
        "as_of": None,
        "named": None,
    }
    stubs = [
        reference_row(entry, key)
        for entry, key in ((found["entry"], alias), (found["best"], holder))
        if entry is not None
    ]
    for stated in found["described"]:
        stubs.append(
            {
                **stub,
                "snapshot": stated["snapshot"],
                "stated_cited_by": stated["count"],
                "as_of": stated["as_of"],
            }
        )
    citations = []
    for cite in found["cites"]:
        snapshot, citing, cited = cite["entry"].split("|")
        ends = (alias, cite["other"]) if cite["outgoing"] else (cite["other"], alias)
        citations.append(_citation_row(snapshot, cite["as_of"], ends, (citing, cited)))
    for cite in found["selves"]:
        snapshot, citing, cited = cite["entry"].split("|")
        ends = (alias if citing == alias else holder, alias if cited == alias else holder)
        citations.append(_citation_row(snapshot, cite["as_of"], ends, (citing, cited)))
    return sorted_stubs(stubs), citations


def _first_and_last(dates: set[date | None]) -> list[date | None]:
    """The dates an edge's rows carry: its first and last data dates (one when they are
    the same), or None when no record of it gave a date."""
    known = sorted(day for day in dates if day is not None)
    if not known:
        return [None]
    return [known[0]] if known[0] == known[-1] else [known[0], known[-1]]


def _citation_row(
    snapshot: str, as_of: Any, ends: tuple[str, str], named: tuple[str, str]
) -> dict[str, Any]:
    """A load_citations row between ``ends``, whose source named them ``named``."""
    return {
        "citing": ends[0],
        "cited": ends[1],
        "snapshot": snapshot,
        "as_of": as_of,
        "named_citing": named[0] if named[0] != ends[0] else None,
        "named_cited": named[1] if named[1] != ends[1] else None,
    }


STATEMENT_QUERY: dict[str, str] = {
    "load_papers": "load.papers",
    "load_author_names": "load.author_names",
    "load_authors": "load.authors",
    "load_categories": "load.categories",
    "load_stubs": "load.stubs",
    "load_citations": "load.citations",
    "load_self_citations": "load.self_citations",
    "load_paper_ids": "load.paper_ids",
    "load_author_ids": "load.author_ids",
    "load_id_aliases": "load.id_aliases",
}
"""The query each statement name of ``batch_statements`` runs (the import sink replays the
same names)."""


def stub_row(ref: PaperRef, key: str, citation: CitationRecord) -> dict[str, Any]:
    """Return the load_stubs row of a paper a citation names, stored under ``key``."""
    return {
        **_named_row(ref, key),
        "ref_as_of": ref_as_of(ref, citation.as_of, citation.snapshot),
        "snapshot": citation.snapshot,
        "stated_cited_by": ref.stated_cited_by,
        "as_of": citation.as_of,
        "named": None,  # set by ``redirected`` for a key merged away
    }
