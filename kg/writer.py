"""The graph writer: batches of validated records become idempotent UNWIND upserts.

Every statement is a named file in cypher/ (load_*, resolve_titles, merge_*), run through
``execute_write``: each one MERGEs on a constrained key, so a retried or repeated batch
leaves the graph as it was. Entity resolution happens here, per batch: a paper known only
by title is matched to an existing paper with the same normalised title and a year at most
one apart, and title-only papers fold into a paper with an arXiv id when one arrives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from kg import queries
from kg.graph import Graph
from kg.resolve import canonical_arxiv_id, normalize_name, normalize_title, title_key
from kg.taxonomy import category
from loaders.records import CitationRecord, PaperRecord, PaperRef, SnapshotRecord

_NO_DATE = "0000-00-00"


@dataclass
class WriteCounts:
    """What the writes did, summed over batches, from the server's own counters."""

    nodes_created: int = 0
    nodes_deleted: int = 0
    relationships_created: int = 0
    relationships_deleted: int = 0
    properties_set: int = 0
    merged: int = 0

    def add(self, counters: dict[str, int]) -> None:
        """Add one statement's counters."""
        for name in (
            "nodes_created",
            "nodes_deleted",
            "relationships_created",
            "relationships_deleted",
            "properties_set",
        ):
            setattr(self, name, getattr(self, name) + counters.get(name, 0))


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
    }


def _category_row(code: str) -> dict[str, Any]:
    known = category(code)
    return {"code": known.code, "name": known.name, "archive": known.archive}


def paper_row(record: PaperRecord, key: str) -> dict[str, Any]:
    """Return the load_papers row of a full paper record stored under ``key``."""
    years = sorted(record.histogram)
    return {
        "key": key,
        "arxiv_id": canonical_arxiv_id(record.arxiv_id) if record.arxiv_id else None,
        "title": record.title,
        "norm_title": normalize_title(record.title) if record.title else None,
        "year": record.year,
        "published": record.published,
        "abstract": record.abstract,
        "abstract_excerpt": record.abstract_excerpt,
        "license": record.license,
        "version": record.version,
        "doi": record.doi,
        "journal_ref": record.journal_ref,
        "comments": record.comments,
        "stated_cited_by": record.stated_cited_by,
        "stated_cited_by_in_map": record.stated_cited_by_in_map,
        "stated_refs_total": record.stated_refs_total,
        "stated_refs_in_map": record.stated_refs_in_map,
        "listed_refs": record.listed_refs,
        "listed_citing": record.listed_citing,
        "histogram_years": years or None,
        "histogram_counts": [record.histogram[y] for y in years] or None,
        "extra": dict(record.extra),
        "as_of": as_of_key(record.as_of, record.snapshot),
        "as_of_date": record.as_of,
        "snapshot": record.snapshot,
        "line": record.origin.line,
    }


class GraphWriter:
    """Writes snapshots, then batches of papers and citations, to one Graph."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.counts = WriteCounts()

    def _write(self, name: str, **params: Any) -> None:
        query = queries.get(name)
        self.counts.add(self.graph.write_counters(query.cypher, query.bind(params)))

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        """Upsert one Snapshot node; dates only ever widen."""
        self._write("load_snapshots", rows=[snapshot_row(snapshot)])

    def write_batch(self, batch: Batch) -> None:
        """Resolve, then upsert the batch's papers, authors, categories, stubs and CITES."""
        keys = self._resolve(batch)
        full = batch.papers
        if full:
            rows = [paper_row(r, keys[id(r)]) for r in full]
            self._write("load_papers", rows=rows)
            authored = [
                {
                    "key": keys[id(r)],
                    "as_of": as_of_key(r.as_of, r.snapshot),
                    "authors": [{"key": normalize_name(n), "name": n} for n in r.authors],
                }
                for r in full
                if r.authors
            ]
            if authored:
                self._write("load_authors", rows=authored)
            categorised = [
                {
                    "key": keys[id(r)],
                    "as_of": as_of_key(r.as_of, r.snapshot),
                    "primary": _category_row(r.primary_category),
                    "cross": [
                        _category_row(c) for c in r.cross_categories if c != r.primary_category
                    ],
                }
                for r in full
                if r.primary_category
            ]
            if categorised:
                self._write("load_categories", rows=categorised)
            self._merge_title_only(sorted({keys[id(r)] for r in full if r.arxiv_id}))
        if batch.citations:
            stubs: dict[str, dict[str, Any]] = {}
            edges: dict[tuple[str, str, str], dict[str, Any]] = {}
            for citation in batch.citations:
                citing = keys[id(citation.citing)]
                cited = keys[id(citation.cited)]
                for ref, key in ((citation.citing, citing), (citation.cited, cited)):
                    stubs[key] = _stub_row(ref, key, citation)
                edges[(citing, cited, citation.snapshot)] = {
                    "citing": citing,
                    "cited": cited,
                    "snapshot": citation.snapshot,
                    "as_of": citation.as_of,
                }
            self._write("load_stubs", rows=list(stubs.values()))
            self._write("load_citations", rows=list(edges.values()))

    def _resolve(self, batch: Batch) -> dict[int, str]:
        """Return the node key of every paper named in the batch, by the id() of its object.

        An arXiv id gives the key directly. A title-only paper takes the key of an existing
        paper with the same normalised title and a year at most one apart (preferring one
        with an arXiv id, then a full record, then the closest year), else its own title key.
        """
        keys: dict[int, str] = {}
        pending: list[tuple[int, str, int | None]] = []
        named: Iterable[PaperRecord | PaperRef] = [
            *batch.papers,
            *(ref for c in batch.citations for ref in (c.citing, c.cited)),
        ]
        for item in named:
            if item.arxiv_id:
                keys[id(item)] = item.key
            else:
                norm = normalize_title(item.title or "")
                keys[id(item)] = title_key(norm, item.year)
                pending.append((id(item), norm, item.year))
        if not pending:
            return keys
        refs = [
            {"i": i, "norm_title": norm, "year": year} for i, (_, norm, year) in enumerate(pending)
        ]
        query = queries.get("resolve_titles")
        best: dict[int, tuple[tuple[int, int, int, str], str]] = {}
        for row in self.graph.read(query.cypher, query.bind({"refs": refs})):
            year = pending[row["i"]][2]
            distance = (
                abs(row["year"] - year) if row["year"] is not None and year is not None else 2
            )
            rank = (0 if row["has_id"] else 1, 1 if row["stub"] else 0, distance, row["key"])
            if row["i"] not in best or rank < best[row["i"]][0]:
                best[row["i"]] = (rank, row["key"])
        for i, (_, key) in best.items():
            keys[pending[i][0]] = key
        return keys

    def _merge_title_only(self, keys: list[str]) -> None:
        if not keys:
            return
        query = queries.get("merge_candidates")
        pairs: dict[str, str] = {}
        for row in sorted(
            self.graph.read(query.cypher, query.bind({"keys": keys})),
            key=lambda r: (r["source"], r["target"]),
        ):
            pairs.setdefault(row["source"], row["target"])
        if pairs:
            merge = queries.get("merge_papers")
            rows = [{"source": s, "target": t} for s, t in pairs.items()]
            result = self.graph.write(merge.cypher, merge.bind({"pairs": rows}))
            self.counts.merged += int(result[0]["merged"]) if result else 0


def _stub_row(ref: PaperRef, key: str, citation: CitationRecord) -> dict[str, Any]:
    return {
        "key": key,
        "arxiv_id": canonical_arxiv_id(ref.arxiv_id) if ref.arxiv_id else None,
        "title": ref.title,
        "norm_title": normalize_title(ref.title) if ref.title else None,
        "year": ref.year,
        "snapshot": citation.snapshot,
        "stated_cited_by": ref.stated_cited_by,
        "as_of": citation.as_of,
    }
