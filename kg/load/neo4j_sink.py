"""The graph writer: batches of validated records become idempotent UNWIND upserts.

Every statement is a named file in cypher/ (load_*, lock_titles, alias_holders,
reconcile_titles, merge_papers), run through ``execute_write``: each one MERGEs on a
constrained key, so a retried or repeated batch leaves the graph as it was.

Identity is a function of the set of records (``loaders.identity.title_plan``). A paper known
only by title is always written under its own title key; a batch's statements run in one
transaction that first locks the lock stripes of those titles. Once it has committed, a
second transaction reconciles every title the batch touched (and every title of each paper
it gave a year): it reads what is committed, and where the rule says two papers are one, or
that a key belongs elsewhere, it locks the titles' stripes, reads again and merges or moves
them. A paper that absorbed another or gave a key up is reconciled again under all its
titles, round after round, until nothing merges or moves. Writers
and reconcilers of one title run one after another, and each loader reconciles after its
own writes, so the last reconcile of a title sees every paper with it: several loaders at
once end where one sequential load ends. A reference to a title key that
was merged away before is written, under the same locks, to the paper that holds it in its
``aliases``: the same graph as writing the stub again and merging it, with no churn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from neo4j import ManagedTransaction

from kg import __version__, queries
from kg.answers.loads import WriteCounts
from kg.database import Database, update_counters
from kg.errors import IdentityUnsettled, OlderGraph
from loaders.identity import (
    TitleCandidate,
    TitlePlan,
    canonical_arxiv_id,
    normalize_name,
    normalize_title,
    parse_title_key,
    title_lock_stripe,
    title_plan,
)
from loaders.ids import (
    AuthorIdKind,
    author_key,
    author_merges,
    author_rank,
    id_merges,
    key_rank,
    parse_id_key,
)
from loaders.paper_properties import LINK_PROPERTIES, ROW_PROPERTIES
from loaders.records import CitationRecord, PaperRecord, PaperRef, SnapshotRecord
from loaders.taxonomy import category

__all__ = [
    "Batch",
    "GraphWriter",
    "KeyRef",
    "as_of_key",
    "author_id_rows",
    "author_names",
    "authors_held",
    "batch_id_keys",
    "batch_statements",
    "candidates_by_title",
    "category_row",
    "dated_keys",
    "listed_apart_rows",
    "newest_per_key",
    "paper_id_rows",
    "paper_row",
    "plan_titles",
    "record_authors",
    "record_order",
    "redirected",
    "ref_as_of",
    "reference_row",
    "snapshot_row",
    "sorted_stubs",
    "split_rows",
    "stub_row",
    "title_evidence",
    "title_refs",
    "touched_titles",
]

_T = TypeVar("_T")
_NO_DATE = "0000-00-00"
LOADER_VERSION = f"kg {__version__}"
IDENTITY_RULES_SINCE = (0, 10, 0)
"""The first kg version whose identity rules this one's equal: a graph with files loaded by
an older one holds title keys of other rules (kg 0.7.0 normalised titles anew,
``normalize_title``, and kg 0.9.0 drops invisible format characters from them, so that
``Sparse Cod\u200bing`` is ``Sparse Coding``), or papers holding keys with records of their
own that cannot be taken apart (kg 0.8.0 keeps their ``Folded`` copies), or papers without
the strong ids their records state (kg 0.10.0 keys and merges papers by DOI, OpenAlex,
Semantic Scholar, MAG and PubMed ids)."""


def _version(loaded_by: str) -> tuple[int, ...] | None:
    """(0, 6, 0) for 'kg 0.6.0'; None for what is not such a version."""
    parts = loaded_by.removeprefix("kg ").split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


"""Marks a snapshot loaded whole; a file is skipped only when the same version loaded it."""
RECONCILE_ROUNDS = 50
"""The most reconcile rounds one batch's titles may take (``GraphWriter.reconcile``): the rule
settles in a few, so more means a rule that does not, which must stop, not run on."""


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


def snapshot_row(snapshot: SnapshotRecord) -> dict[str, Any]:
    """Return the load_snapshots row of a snapshot; stated hashes become hash_<name> props."""
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
        if authored:
            statements.append(("load_author_names", {"rows": author_names(full)}))
            statements.append(("load_authors", {"rows": authored}))
            identified = author_id_rows(full)
            if identified:
                statements.append(("load_author_ids", {"rows": identified}))
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
        categorised = [
            {**entry, "named": [named[entry["key"]][code] for code in sorted(named[entry["key"]])]}
            for entry in newest_per_key(every_category)
        ]
        if categorised:
            statements.append(("load_categories", {"rows": categorised}))
    if batch.citations:
        stubs: dict[tuple[str, str | None, int | None], dict[str, Any]] = {}
        # the data dates each (citing, cited, snapshot) was stated at: its first and last
        # become rows, so that the edge keeps them however the records were batched
        edges: dict[tuple[str, str, str], set[date | None]] = {}
        for citation in batch.citations:
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
        statements.append(("load_stubs", {"rows": sorted_stubs(stubs.values())}))
        # named_citing and named_cited are set by ``redirected`` for a key merged away
        statements.append(
            (
                "load_citations",
                {
                    "rows": [
                        _citation_row(snapshot, as_of, (citing, cited), (citing, cited))
                        for (citing, cited, snapshot), dates in edges.items()
                        for as_of in _first_and_last(dates)
                    ]
                },
            )
        )
    identified = paper_id_rows(batch)
    if identified:
        statements.append(("load_paper_ids", {"rows": identified}))
    return statements


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
            # a paper holding a strong id a reference named keeps its key as a merge would
            aliased: dict[str, set[str]] = {}
            for row in rows:
                if row["named"] is not None and parse_id_key(row["named"]) is not None:
                    aliased.setdefault(row["key"], set()).add(row["named"])
            if aliased:
                result.append(
                    (
                        "load_id_aliases",
                        {
                            "rows": [
                                {"key": k, "aliases": sorted(aliased[k])} for k in sorted(aliased)
                            ]
                        },
                    )
                )
        elif name == "load_paper_ids":
            merged: dict[str, set[str]] = {}
            for row in rows:
                merged.setdefault(holders.get(row["key"], row["key"]), set()).update(row["ids"])
            rows = [{"key": key, "ids": sorted(merged[key])} for key in sorted(merged)]
        elif name == "load_citations":
            held = [
                (
                    row,
                    holders.get(row["citing"], row["citing"]),
                    holders.get(row["cited"], row["cited"]),
                )
                for row in rows
            ]
            rows = [
                _citation_row(
                    row["snapshot"], row["as_of"], (citing, cited), (row["citing"], row["cited"])
                )
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
            if selves:
                result.append(
                    ("load_self_citations", {"rows": [{"key": k, "entry": e} for k, e in selves]})
                )
        result.append((name, {"rows": rows}))
    return result


def _held(row: dict[str, Any], holders: dict[str, str]) -> dict[str, Any]:
    """A stub row written to the paper holding its key, which it keeps as ``named``."""
    holder = holders.get(row["key"], row["key"])
    return row if holder == row["key"] else {**row, "key": holder, "named": row["key"]}


def sorted_stubs(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stub rows oldest rank first, so that within one statement the best reference is
    applied last whichever order the file listed them in."""
    return sorted(rows, key=lambda row: (row["key"], row["ref_as_of"] or ""))


def candidates_by_title(rows: Iterable[dict[str, Any]]) -> dict[str, list[TitleCandidate]]:
    """Group reconcile_titles rows into the rule's candidates, by normalised title."""
    grouped: dict[str, list[TitleCandidate]] = {}
    for row in rows:
        if row["key"] is None:
            # Read without the stripes' locks, a paper another loader is merging away can
            # show with no properties left: it is no candidate (the locked reread decides).
            continue
        grouped.setdefault(row["norm_title"], []).append(
            TitleCandidate(
                key=row["key"],
                # A paper keyed by another strong id (a DOI, say) is fixed under its title
                # as an arXiv paper is: title keys may join it, and it joins no other
                arxiv_id=row["arxiv_id"]
                or (None if row["key"].startswith("title:") else row["key"]),
                year=row["year"],
                aliases=tuple(row["aliases"] or ()),
                stated_years=tuple(row.get("years") or ()),
                recorded=tuple(row.get("recorded") or ()),
            )
        )
    return grouped


def title_evidence(
    rows: Iterable[Mapping[str, Any]],
) -> tuple[list[str], dict[str, list[list[str]]]]:
    """Return, from title_evidence rows, the keys users split (sorted) and the keys pages
    list apart, per normalised title (each title's lists sorted)."""
    kept: set[str] = set()
    listed: dict[str, list[list[str]]] = {}
    for row in rows:
        if row["kind"] == "kept":
            kept.update(row["keys"])
        else:
            listed.setdefault(row["norm_title"], []).append(list(row["keys"]))
    return sorted(kept), {norm: sorted(lists) for norm, lists in listed.items()}


def plan_titles(
    grouped: dict[str, list[TitleCandidate]],
    kept_apart: Iterable[str] = (),
    listed: Mapping[str, list[list[str]]] | None = None,
) -> dict[str, TitlePlan]:
    """Return, per normalised title, what the identity rule asks for (``title_plan``: its
    merges and splits) among the candidates ``candidates_by_title``
    grouped; ``kept_apart`` are the keys users split (kg unmerge), which merge with nothing,
    and ``listed`` the keys pages list apart, per title (``title_evidence``)."""
    apart = frozenset(kept_apart)
    return {
        norm: title_plan(norm, candidates, apart, (listed or {}).get(norm, ()))
        for norm, candidates in grouped.items()
    }


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


_STATEMENT_QUERY: dict[str, str] = {
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


class GraphWriter:
    """Writes snapshots, then batches of papers and citations, to one Database."""

    def __init__(self, graph: Database) -> None:
        self.graph = graph
        self.counts = WriteCounts()

    def _transaction(self, work: Callable[[ManagedTransaction], _T]) -> _T:
        """Run ``work(tx)`` in one managed write transaction (retried as a whole)."""
        return self.graph.write_transaction(work)

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        """Upsert one Snapshot node; dates only ever widen."""
        self.counts.add(
            queries.load.snapshots.run_counters(self.graph, rows=[snapshot_row(snapshot)])
        )

    def write_author_names(self, rows: list[dict[str, str]]) -> None:
        """Make sure these authors exist, each with its smallest spelling (rows: key, name,
        several spellings of one author allowed)."""
        self.counts.add(queries.load.author_names.run_counters(self.graph, rows=rows))

    def loaded_whole(self, snapshot_key: str) -> bool:
        """Return True when this loader version loaded every record of the snapshot before."""
        rows = queries.load.snapshot_loaded_by.run(self.graph, key=snapshot_key)
        return bool(rows) and rows[0]["loaded_by"] == LOADER_VERSION

    def older_identity_rules(self) -> list[str]:
        """The kg versions older than IDENTITY_RULES_SINCE that loaded snapshots of the graph
        whole (sorted): a graph with their files is rebuilt for the rules to hold."""
        rows = queries.load.older_loaders.run(self.graph, current=LOADER_VERSION)
        return [
            row["loaded_by"]
            for row in rows
            if (version := _version(str(row["loaded_by"]))) is not None
            and version < IDENTITY_RULES_SINCE
        ]

    def write_follows(self, snapshot_key: str, since: str, unchanged: int) -> None:
        """Record that a snapshot follows an older one and restates ``unchanged`` of its
        records as they were (an incremental load)."""
        follows = queries.load.snapshot_follows.run_counters(
            self.graph, snapshot=snapshot_key, since=since, unchanged=unchanged
        )
        self.counts.add(follows)

    def mark_loaded_whole(self, snapshot_key: str) -> None:
        """Record on the Snapshot that every record of it is in, and by which loader."""
        mark = queries.load.mark_snapshot_loaded
        self.counts.add(mark.run_counters(self.graph, key=snapshot_key, loaded_by=LOADER_VERSION))

    def write_batch(self, batch: Batch) -> None:
        """Upsert the batch's papers, authors, categories, stubs and CITES in one transaction
        that holds the lock stripes of its title-only papers and the locks of the papers its
        full records name (taken before anything is read), then reconcile its titles."""
        statements = batch_statements(batch)
        title_only, every = touched_titles(batch)
        stripes = sorted({title_lock_stripe(norm) for norm in title_only})
        lock = queries.load.lock_titles
        lock_papers = queries.load.lock_papers
        find = queries.load.alias_holders
        refs = title_refs(batch)
        find_ids = queries.load.id_holders
        id_refs = sorted(
            {
                ref.key
                for c in batch.citations
                for ref in (c.citing, c.cited)
                if parse_id_key(ref.key) is not None
            }
            # a key a full record of the batch is written under is a paper of its own until
            # the reconcile merges it, its ids with it: references to it go there too
            - {record.key for record in batch.papers}
        )
        full = sorted({record.key for record in batch.papers})
        author_ids = sorted({i for row in author_id_rows(batch.papers) for i in row["ids"]})
        titled = sorted(
            {
                (r.key, normalize_title(r.title))
                for r in batch.papers
                if r.title and parse_title_key(r.key) is not None
            }
        )

        def work(tx: ManagedTransaction) -> tuple[list[dict[str, int]], list[str]]:
            todo = statements
            if stripes:
                lock.run_in(tx, stripes=stripes).consume()
            if full:
                lock_papers.run_in(tx, keys=full).consume()
            counters: list[dict[str, int]] = []
            # A paper that holds title keys with records of their own is taken apart before
            # a record is written to it, or under one of those keys (take_apart)
            titles = [{"key": k, "norm_title": n} for k, n in titled]
            owners = [row["holder"] for row in find.run_in(tx, refs=titles)] if titles else []
            parted = self.take_apart(tx, sorted({*full, *owners}), counters) if full else []
            holders: dict[str, str] = {}
            if refs:
                for row in find.run_in(tx, refs=refs):
                    holders[row["key"]] = min(row["holder"], holders.get(row["key"], row["holder"]))
            if id_refs:
                # a reference by a strong id that merged into another paper goes to it
                for row in find_ids.run_in(tx, keys=id_refs):
                    before = holders.get(row["key"], row["holder"])
                    holders[row["key"]] = min(row["holder"], before, key=key_rank)
            if holders:
                todo = redirected(statements, holders)
            if author_ids:
                # an author a source gives ids for is written to the one that holds them
                authors: dict[str, str] = {}
                for row in queries.load.author_holders.run_in(tx, keys=author_ids):
                    found = authors.get(row["key"], row["holder"])
                    authors[row["key"]] = min(row["holder"], found, key=author_rank)
                todo = authors_held(todo, authors)
            counters += [
                update_counters(queries.get(_STATEMENT_QUERY[name]).run_in(tx, **params).consume())
                for name, params in todo
            ]
            return counters, self._titles_of(tx, sorted({*dated_keys(todo), *parted}))

        counters, titles = self._transaction(work)
        for counter in counters:
            self.counts.add(counter)
        id_keys = batch_id_keys(batch)
        if id_keys:
            titles += self.reconcile_ids(id_keys)
        if author_ids:
            self.reconcile_authors(author_ids)
        every = sorted({*every, *titles})
        if every:
            self.reconcile(every)

    @staticmethod
    def _titles_of(tx: ManagedTransaction, keys: list[str]) -> list[str]:
        """Every normalised title of these papers (held and ALSO_TITLED)."""
        if not keys:
            return []
        return [row["norm_title"] for row in queries.load.paper_titles.run_in(tx, keys=keys)]

    @staticmethod
    def _evidence(
        tx: ManagedTransaction, grouped: dict[str, list[TitleCandidate]]
    ) -> tuple[list[str], dict[str, list[list[str]]]]:
        """The keys users split and the keys pages list apart, per title (``title_evidence``),
        under the titles among the ``candidates_by_title`` candidates that hold a title key
        (read only for those: two arXiv ids never merge)."""
        titled = sorted(
            norm
            for norm, found in grouped.items()
            if any(key.startswith("title:") for c in found for key in (c.key, *c.aliases))
        )
        if not titled:
            return [], {}
        return title_evidence(queries.load.title_evidence.run_in(tx, norm_titles=titled))

    @staticmethod
    def _split(
        tx: ManagedTransaction, holder: str, alias: str, counters: list[dict[str, int]]
    ) -> bool:
        """Take ``alias`` out of ``holder`` (split_key) and write it back as a paper of its
        own through the load statements (``split_rows``); False when the holder no longer
        holds it."""
        found = queries.load.split_key.run_in(tx, key=holder, alias=alias)
        row = found.single()
        counters.append(update_counters(found.consume()))
        if row is None:
            return False
        stubs, citations = split_rows(holder, alias, row.data())
        GraphWriter._write_back(tx, stubs, citations, counters)
        return True

    @staticmethod
    def take_apart(
        tx: ManagedTransaction, keys: list[str], counters: list[dict[str, int]]
    ) -> list[str]:
        """Take apart each of these papers that holds title keys with full records of their
        own (``recorded``): each such key becomes the paper it was before it merged again, with
        its record's values and what references stated under it (split_key, restore_folded,
        then ``split_rows`` through the load statements), and the paper gets back the values
        it held before they merged (restore_folded), from the copies merge_papers.cypher
        kept.
        Return the keys of the papers so written, sorted (the loader reconciles their
        titles, and the identity rule merges them again where it places them).

        The loader does this before it writes a record to such a paper or under such a key,
        and when the rule moves such a key, so no copy is ever stale: every paper then holds
        the values a load of its records in any order gives. It holds the lock stripes of the
        keys' titles first (which need not follow the stripes the transaction holds: a
        deadlock is retried)."""
        find = queries.load.take_apart
        rows = find.run_in(tx, keys=keys).data()
        locked: set[int] = set()
        while rows:
            stripes = {title_lock_stripe(n) for row in rows for n in row["norm_titles"]}
            if stripes <= locked:
                break
            queries.load.lock_titles.run_in(tx, stripes=sorted(stripes - locked)).consume()
            locked |= stripes
            rows = find.run_in(tx, keys=keys).data()
        written: set[str] = set()

        for row in rows:
            holder = row["key"]
            if row["missing"]:
                raise OlderGraph(holder, row["missing"])
            for part in row["parts"]:
                found = queries.load.split_key.run_in(tx, key=holder, alias=part)
                taken = found.single()
                counters.append(update_counters(found.consume()))
                if taken is None:
                    raise OlderGraph(holder, [part])
                restored = queries.load.restore_folded.run_in(tx, key=part)
                counters.append(update_counters(restored.consume()))
                stubs, citations = split_rows(holder, part, taken.data())
                GraphWriter._write_back(tx, stubs, citations, counters)
            base = queries.load.restore_folded.run_in(tx, key=holder)
            best = base.single()
            counters.append(update_counters(base.consume()))
            if best is not None and best["best"] is not None:
                GraphWriter._write_back(tx, [reference_row(best["best"], holder)], [], counters)
            written |= {holder, *row["parts"]}
        return sorted(written)

    @staticmethod
    def _write_back(
        tx: ManagedTransaction,
        stubs: list[dict[str, Any]],
        citations: list[dict[str, Any]],
        counters: list[dict[str, int]],
    ) -> None:
        """Write ``split_rows``' rows through the load statements."""
        for name, rows in (("load_stubs", stubs), ("load_citations", citations)):
            if rows:
                result = queries.get(_STATEMENT_QUERY[name]).run_in(tx, rows=rows)
                counters.append(update_counters(result.consume()))

    def reconcile_ids(self, id_keys: list[str]) -> list[str]:
        """Merge the papers that share these strong ids, as the rule for strong ids says
        (``loaders.ids.id_merges``); return every title of the papers that grew, which
        the title rule then reconciles.

        Each round is one transaction: it reads which papers the ids identify; only when
        some must merge does it lock those papers (in key order), read again and merge.
        A paper that absorbed another holds its ids too, so the next round looks at every
        id of the papers that grew, until a round merges nothing (at most
        ``RECONCILE_ROUNDS``, as for titles).
        """
        find = queries.load.paper_id_papers
        lock = queries.load.lock_papers
        merge = queries.load.merge_papers

        def plan(
            tx: ManagedTransaction, todo: list[str]
        ) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
            rows = find.run_in(tx, keys=todo).data()
            by_id: dict[str, list[str]] = {}
            ids_of: dict[str, list[str]] = {}
            for row in rows:
                by_id.setdefault(row["key"], []).append(row["paper"])
                ids_of[row["paper"]] = row["ids"]
            if not any(len(papers) > 1 for papers in by_id.values()):
                return [], ids_of
            kept = [k for row in queries.load.kept_apart_all.run_in(tx) for k in row["keys"]]
            return id_merges(by_id, kept), ids_of

        def work(
            tx: ManagedTransaction, todo: list[str]
        ) -> tuple[int, list[dict[str, int]], list[str], list[str]]:
            merges, _ids = plan(tx, todo)
            if not merges:
                return 0, [], [], []
            lock.run_in(tx, keys=sorted({key for pair in merges for key in pair})).consume()
            merges, ids_of = plan(tx, todo)
            merged = 0
            counters: list[dict[str, int]] = []
            grown: set[str] = set()
            next_ids: set[str] = set()
            for source, target in merges:
                result = merge.run_in(tx, source=source, target=target)
                done = sum(int(r["merged"]) for r in result)
                counters.append(update_counters(result.consume()))
                if done:
                    merged += done
                    grown.add(target)
                    next_ids.update(ids_of.get(source, ()), ids_of.get(target, ()))
            return merged, counters, sorted(next_ids), self._titles_of(tx, sorted(grown))

        titles: set[str] = set()
        rounds = 0
        todo = sorted(set(id_keys))
        while todo:
            if rounds == RECONCILE_ROUNDS:
                raise IdentityUnsettled(todo, rounds, "ids")
            rounds += 1
            merged, counters, todo, grown = self._transaction(functools.partial(work, todo=todo))
            for counter in counters:
                self.counts.add(counter)
            self.counts.merged += merged
            titles.update(grown)
        return sorted(titles)

    def reconcile_authors(self, id_keys: list[str]) -> int:
        """Merge the authors that share these strong ids (``loaders.ids.author_merges``);
        return how many merged away. Round after round, as ``reconcile_ids``: an author
        that absorbed another holds its ids too."""
        find = queries.load.author_id_authors
        merge = queries.load.merge_authors

        def work(
            tx: ManagedTransaction, todo: list[str]
        ) -> tuple[int, list[dict[str, int]], list[str]]:
            rows = find.run_in(tx, keys=todo).data()
            by_id: dict[str, list[str]] = {}
            ids_of: dict[str, list[str]] = {}
            for row in rows:
                by_id.setdefault(row["key"], []).append(row["author"])
                ids_of[row["author"]] = row["ids"]
            merged = 0
            counters: list[dict[str, int]] = []
            next_ids: set[str] = set()
            for source, target in author_merges(by_id):
                result = merge.run_in(tx, source=source, target=target)
                done = sum(int(r["merged"]) for r in result)
                counters.append(update_counters(result.consume()))
                if done:
                    merged += done
                    next_ids.update(ids_of.get(source, ()), ids_of.get(target, ()))
            return merged, counters, sorted(next_ids)

        total = 0
        rounds = 0
        todo = sorted(set(id_keys))
        while todo:
            if rounds == RECONCILE_ROUNDS:
                raise IdentityUnsettled(todo, rounds, "author ids")
            rounds += 1
            merged, counters, todo = self._transaction(functools.partial(work, todo=todo))
            for counter in counters:
                self.counts.add(counter)
            total += merged
        return total

    def reconcile(self, norm_titles: list[str]) -> int:
        """Merge the papers the identity rule makes one, among those with these normalised
        titles; return how many papers merged away.

        Each round is one transaction. It reads what is committed; only when some title
        needs a merge or a move does it lock the stripes of those titles (in order), read
        them again and apply the rule. A paper that absorbed another, or gave a key up,
        holds other keys and titles now, so the next round reconciles every title of those
        papers, until a round changes nothing. The rule places each key by the records
        alone, so this settles in a few rounds; a load that would need more than
        ``RECONCILE_ROUNDS`` stops with ``IdentityUnsettled`` instead of running on.
        """
        find = queries.load.reconcile_titles
        lock = queries.load.lock_titles
        merge = queries.load.merge_papers

        def work(
            tx: ManagedTransaction, todo: list[str]
        ) -> tuple[int, int, list[dict[str, int]], list[str]]:
            grouped = candidates_by_title(find.run_in(tx, norm_titles=todo).data())
            plans = plan_titles(grouped, *self._evidence(tx, grouped))
            needed = sorted(norm for norm, plan in plans.items() if plan.needed)
            if not needed:
                return 0, 0, [], []
            stripes = sorted({title_lock_stripe(norm) for norm in needed})
            lock.run_in(tx, stripes=stripes).consume()
            grouped = candidates_by_title(find.run_in(tx, norm_titles=needed).data())
            plans = plan_titles(grouped, *self._evidence(tx, grouped))
            merged = moved = 0
            counters: list[dict[str, int]] = []
            grown: set[str] = set()
            # A key with a record of its own moves by taking its paper apart: the rule then
            # merges the parts where it places them (the next round)
            recorded = {c.key: set(c.recorded) for found in grouped.values() for c in found}
            parted = sorted(
                {
                    holder
                    for plan in plans.values()
                    for holder, alias, _target in plan.splits
                    if alias in recorded.get(holder, ())
                }
            )
            if parted:
                apart = self.take_apart(tx, parted, counters)
                moved += len(apart) - len(parted)
                grown |= set(apart)
            # A key taken out of the paper that holds it goes straight to the one the rule
            # gives it (or stays a paper of its own); then title-only papers merge
            for _norm, plan in sorted(plans.items()):
                for holder, alias, target in plan.splits:
                    if holder in parted and alias in recorded.get(holder, ()):
                        continue
                    if self._split(tx, holder, alias, counters):
                        moved += 1
                        grown |= {holder, alias}
                        if target == alias:
                            continue
                        result = merge.run_in(tx, source=alias, target=target)
                        if sum(int(r["merged"]) for r in result):
                            grown.add(target)  # a move, not a merge: not counted as one
                        counters.append(update_counters(result.consume()))
            for _norm, plan in sorted(plans.items()):
                for source, target in sorted(plan.merges.items(), key=lambda m: (m[1], m[0])):
                    result = merge.run_in(tx, source=source, target=target)
                    done = sum(int(r["merged"]) for r in result)
                    counters.append(update_counters(result.consume()))
                    if done:
                        merged += done
                        grown.add(target)
            return merged, moved, counters, self._titles_of(tx, sorted(grown))

        total = 0
        rounds = 0
        todo = sorted(set(norm_titles))
        while todo:
            if rounds == RECONCILE_ROUNDS:
                raise IdentityUnsettled(todo, rounds)
            rounds += 1
            merged, moved, counters, grown = self._transaction(functools.partial(work, todo=todo))
            for counter in counters:
                self.counts.add(counter)
            self.counts.merged += merged
            self.counts.moved += moved
            total += merged
            todo = sorted(set(grown))
        return total


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
