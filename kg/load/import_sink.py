"""Bulk mode's offline half: the graph writer's statements replayed on a scratch store, then
written out as neo4j-admin import CSVs.

``ImportSink`` takes the same batches as ``kg.load.neo4j_sink.GraphWriter`` and gets the same
statements with the same rows from ``kg.load.neo4j_sink.batch_statements``. It applies each
``cypher/load_*`` statement to a scratch SQLite file instead of Neo4j, with the statement's
own semantics, and after each batch reconciles the titles it touched with the same identity
rule (``kg.loaders.identity.title_merges``, through ``kg.load.neo4j_sink.plan_merges``) and the
semantics of
``cypher/load/merge_papers.cypher``. So newest-record-wins, gap filling, stubs and title-only
merges come out exactly as the online loader makes them.

The scratch store keeps memory flat: only the current batch's nodes are held in Python.
"""

from __future__ import annotations

import marshal
import math
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from kg.load.neo4j_sink import (
    LOADER_VERSION,
    Batch,
    batch_statements,
    plan_merges,
    snapshot_row,
    touched_titles,
)
from kg.loaders.identity import canonical_arxiv_id
from kg.loaders.records import CitationRecord, PaperRef, SnapshotRecord
from kg.loaders.taxonomy import category

__all__ = ["ImportFiles", "ImportSink"]

_FILL_NEWER = (
    "title",
    "norm_title",
    "year",
    "published",
    "abstract",
    "abstract_excerpt",
    "license",
    "version",
    "doi",
    "journal_ref",
    "comments",
    "stated_cited_by",
    "stated_cited_by_in_map",
    "stated_refs_total",
    "stated_refs_in_map",
)
# Properties cypher/load/merge_papers.cypher takes from the paper with the newer record.
_FROM_NEWER = ("title", "norm_title", "year", *_FILL_NEWER[3:])
_DESCRIBED_FIXED = (
    "line",
    "as_of",
    "stated_cited_by",
    "stated_cited_by_in_map",
    "stated_refs_total",
    "stated_refs_in_map",
    "listed_refs",
    "listed_citing",
    "histogram_years",
    "histogram_counts",
)
# Paper properties as the CSV header types them; every one the load statements can set.
_PAPER_COLUMNS = (
    ("stub", "boolean"),
    ("arxiv_id", "string"),
    ("title", "string"),
    ("norm_title", "string"),
    ("year", "long"),
    ("published", "date"),
    ("abstract", "string"),
    ("abstract_excerpt", "string"),
    ("license", "string"),
    ("version", "long"),
    ("doi", "string"),
    ("journal_ref", "string"),
    ("comments", "string"),
    ("stated_cited_by", "long"),
    ("stated_cited_by_in_map", "long"),
    ("stated_refs_total", "long"),
    ("stated_refs_in_map", "long"),
    ("as_of", "string"),
    ("ref_as_of", "string"),
    ("aliases", "string[]"),
    ("authors_as_of", "string"),
    ("categories_as_of", "string"),
    ("primary_category", "string"),
)
_DESCRIBED_COLUMNS = (
    ("line", "long"),
    ("as_of", "date"),
    ("stated_cited_by", "long"),
    ("stated_cited_by_in_map", "long"),
    ("stated_refs_total", "long"),
    ("stated_refs_in_map", "long"),
    ("listed_refs", "long"),
    ("listed_citing", "long"),
    ("histogram_years", "long[]"),
    ("histogram_counts", "long[]"),
)
# Keys inside a paper's stored state that are relationships, not properties.
_AUTHORED = "_a"
_PRIMARY = "_p"
_CROSS = "_x"
_IN_CHUNK = 500
_ID_CACHE = 1 << 18
_TITLE_PREFIX = "title:"

_SCHEMA = """
CREATE TABLE papers (
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, norm_title TEXT, year INTEGER,
    has_id INTEGER NOT NULL, state BLOB NOT NULL);
CREATE INDEX papers_norm_title ON papers (norm_title);
CREATE TABLE described (
    paper INTEGER NOT NULL, snapshot INTEGER NOT NULL, state BLOB NOT NULL,
    PRIMARY KEY (paper, snapshot)) WITHOUT ROWID;
CREATE TABLE authors (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT);
CREATE TABLE cites (
    citing INTEGER NOT NULL, cited INTEGER NOT NULL, snaps TEXT NOT NULL, first TEXT, last TEXT,
    PRIMARY KEY (citing, cited)) WITHOUT ROWID;
CREATE TABLE title_cites (
    citing INTEGER NOT NULL, cited INTEGER NOT NULL, snaps TEXT NOT NULL, first TEXT, last TEXT,
    PRIMARY KEY (citing, cited)) WITHOUT ROWID;
CREATE INDEX title_cites_cited ON title_cites (cited);
"""
# cypher/load/citations.cypher as an upsert; snaps is the comma-joined list of snapshot numbers.
_UPSERT_CITES = """
INSERT INTO {table} (citing, cited, snaps, first, last) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (citing, cited) DO UPDATE SET
  snaps = CASE WHEN instr(',' || snaps || ',', ',' || excluded.snaps || ',') > 0 THEN snaps
               ELSE snaps || ',' || excluded.snaps END,
  first = CASE WHEN excluded.first IS NULL THEN first
               WHEN first IS NULL OR excluded.first < first THEN excluded.first ELSE first END,
  last = CASE WHEN excluded.last IS NULL THEN last
              WHEN last IS NULL OR excluded.last > last THEN excluded.last ELSE last END
"""


# Edge lists name the same papers over and over: remember recent canonical ids.
_canonical = lru_cache(maxsize=1 << 16)(canonical_arxiv_id)


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _chunks(items: Sequence[str], size: int = _IN_CHUNK) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _is_title_key(key: str) -> bool:
    return key.startswith(_TITLE_PREFIX)


class _Node:
    """One Paper as the current batch sees it: its number, key and properties."""

    __slots__ = ("id", "key", "state")

    def __init__(self, node_id: int, key: str, state: dict[str, Any]) -> None:
        self.id = node_id
        self.key = key
        self.state = state

    def get(self, name: str) -> Any:
        return self.state.get(name)

    def set(self, name: str, value: Any) -> None:
        """SET n.name = value: a null removes the property."""
        if value is None:
            self.state.pop(name, None)
        else:
            self.state[name] = value


@dataclass
class _Edge:
    """One CITES relationship's properties."""

    snaps: list[int]
    first: str | None
    last: str | None


@dataclass
class ImportFiles:
    """The CSV files for neo4j-admin import and what they hold."""

    nodes: dict[str, list[Path]] = field(default_factory=dict)
    relationships: dict[str, list[Path]] = field(default_factory=dict)
    multiline: list[Path] = field(default_factory=list)
    node_counts: dict[str, int] = field(default_factory=dict)
    relationship_counts: dict[str, int] = field(default_factory=dict)

    def import_arguments(self) -> list[str]:
        """Return the ``import full`` arguments naming the files: ``--nodes``,
        ``--relationships`` and, for files with line breaks in values, ``--multiline-fields``."""
        args = [f"--nodes={label}={path}" for label, paths in self.nodes.items() for path in paths]
        args += [
            f"--relationships={kind}={path}"
            for kind, paths in self.relationships.items()
            for path in paths
        ]
        if self.multiline:
            args += [
                "--multiline-fields-format=v2",
                "--multiline-fields=" + ",".join(str(p) for p in self.multiline),
            ]
        return args


class ImportSink:
    """The graph the online loader would build, kept in a scratch SQLite file.

    Feed it what ``kg.load.pipeline`` feeds ``GraphWriter`` (``write_snapshot``, ``write_batch``),
    then call ``write_csv``. Close it when done.
    """

    def __init__(self, path: Path, cache_mb: int = 64) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None)
        for pragma in (
            "journal_mode = OFF",
            "synchronous = OFF",
            "locking_mode = EXCLUSIVE",
            "temp_store = FILE",
            f"cache_size = -{cache_mb * 1024}",
        ):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.executescript(_SCHEMA)
        self.db.execute("BEGIN")
        self.merged = 0
        self._next_paper = 0
        self._next_author = 0
        self._snapshots: dict[str, dict[str, Any]] = {}
        self._snapshot_ids: dict[str, int] = {}
        self._categories: dict[str, dict[str, Any]] = {}
        # The current batch's view: key -> node (None: no such paper), and what changed.
        self._nodes: dict[str, _Node | None] = {}
        self._dirty: set[str] = set()
        self._deleted: dict[str, int] = {}
        self._ids: dict[str, int] = {}
        self._arxiv_ids: dict[str, int] = {}
        self._statements: dict[str, Callable[[list[dict[str, Any]]], None]] = {
            "load_papers": self._load_papers,
            "load_authors": self._load_authors,
            "load_categories": self._load_categories,
            "load_stubs": self._load_stubs,
            "load_citations": self._load_citations,
        }

    def close(self) -> None:
        """Close the scratch store (the file stays; its folder's owner removes it)."""
        self.db.close()

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        """load_snapshots: upsert one Snapshot; dates only ever widen."""
        row = snapshot_row(snapshot)
        node = self._snapshots.setdefault(row["key"], {"key": row["key"]})
        self._snapshot_ids.setdefault(row["key"], len(self._snapshot_ids))
        node["kind"] = row["kind"]
        if node.get("source") is None or row["source"] < node["source"]:
            node["source"] = row["source"]
        node["sha256"] = row["sha256"]
        if row["builder_version"] is not None:
            node["builder_version"] = row["builder_version"]
        data_date, first_date = _iso(row["data_date"]), _iso(row["first_date"])
        if data_date is not None and (
            node.get("data_date") is None or data_date > node["data_date"]
        ):
            node["data_date"] = data_date
        if first_date is not None and (
            node.get("first_date") is None or first_date < node["first_date"]
        ):
            node["first_date"] = first_date
        node.update(row["hashes"])

    def loaded_whole(self, snapshot_key: str) -> bool:
        """GraphWriter.loaded_whole: True when this run already took the snapshot whole."""
        node = self._snapshots.get(snapshot_key)
        return node is not None and node.get("loaded_by") == LOADER_VERSION

    def mark_loaded_whole(self, snapshot_key: str) -> None:
        """cypher/load/mark_snapshot_loaded.cypher."""
        self._snapshots[snapshot_key]["loaded_by"] = LOADER_VERSION

    def write_batch(self, batch: Batch) -> None:
        """Replay GraphWriter.write_batch: the batch's statements, then the reconciliation
        of the titles it touched."""
        if not batch.papers and all(
            _plain_ref(c.citing) and _plain_ref(c.cited) for c in batch.citations
        ):
            self._write_plain_citations(batch.citations)
            return
        for name, params in batch_statements(batch):
            self._statements[name](params["rows"])
        _, titles = touched_titles(batch)
        if titles:
            self._reconcile(titles)
        self._flush()
        self._nodes.clear()
        self._ids.clear()

    def _write_plain_citations(self, citations: list[CitationRecord]) -> None:
        """write_batch for citations that name both papers by arXiv id alone (edge lists).

        The same statements with what they come to for such rows: the keys are the ids, a
        stub row creates a missing paper and changes nothing else, an edge row upserts.
        """
        edges: dict[tuple[str, str, str], str | None] = {}
        for citation in citations:
            citing = _canonical(citation.citing.arxiv_id or "") or citation.citing.key
            cited = _canonical(citation.cited.arxiv_id or "") or citation.cited.key
            edges[(citing, cited, citation.snapshot)] = _iso(citation.as_of)
        keys = list(dict.fromkeys(key for edge in edges for key in edge[:2]))
        self._fetch_ids(keys)
        for key in keys:
            if self._node_id(key) is None:
                self._create(key, {"stub": True, "arxiv_id": key})
        ids = self._ids
        snapshots = self._snapshot_ids
        self.db.executemany(
            _UPSERT_CITES.format(table="cites"),
            [
                (ids[citing], ids[cited], str(snapshots[snapshot]), as_of, as_of)
                for (citing, cited, snapshot), as_of in edges.items()
            ],
        )
        self._flush()
        self._nodes.clear()
        self._ids.clear()

    # Reading and writing the scratch store.

    def _fetch(self, keys: Iterable[str]) -> None:
        """Bring the named papers into the batch's view."""
        missing = sorted({k for k in keys if k not in self._nodes})
        for chunk in _chunks(missing):
            marks = ",".join("?" * len(chunk))
            for node_id, key, state in self.db.execute(
                f"SELECT id, key, state FROM papers WHERE key IN ({marks})",  # noqa: S608
                chunk,
            ):
                self._nodes[key] = _Node(node_id, key, marshal.loads(state))
        for key in missing:
            self._nodes.setdefault(key, None)

    def _node(self, key: str) -> _Node | None:
        if key not in self._nodes:
            self._fetch([key])
        return self._nodes[key]

    def _create(self, key: str, state: dict[str, Any]) -> _Node:
        """MERGE's create branch: a new Paper with this key."""
        self._next_paper += 1
        node = _Node(self._next_paper, key, state)
        self._nodes[key] = node
        self._ids[key] = node.id
        self._remember(key, node.id)
        self._dirty.add(key)
        return node

    def _node_id(self, key: str) -> int | None:
        node = self._nodes.get(key)
        if node is not None:
            return node.id
        if key in self._nodes:
            return None
        return self._ids.get(key)

    def _fetch_ids(self, keys: Iterable[str]) -> None:
        """Learn the numbers of papers without reading their properties."""
        missing = []
        for key in keys:
            if key in self._nodes or key in self._ids:
                continue
            known = self._arxiv_ids.get(key)
            if known is None:
                missing.append(key)
            else:
                self._ids[key] = known
        for chunk in _chunks(sorted(set(missing))):
            marks = ",".join("?" * len(chunk))
            for node_id, key in self.db.execute(
                f"SELECT id, key FROM papers WHERE key IN ({marks})",  # noqa: S608
                chunk,
            ):
                self._ids[key] = node_id
                self._remember(key, node_id)

    def _remember(self, key: str, node_id: int) -> None:
        """Keep the number of a paper keyed by arXiv id (such a paper is never deleted)."""
        if _is_title_key(key):
            return
        if len(self._arxiv_ids) >= _ID_CACHE:
            self._arxiv_ids.clear()
        self._arxiv_ids[key] = node_id

    def _flush(self) -> None:
        """Write the batch's changed papers back to the store."""
        if self._deleted:
            ids = [(node_id,) for node_id in self._deleted.values()]
            self.db.executemany("DELETE FROM papers WHERE id = ?", ids)
            self.db.executemany("DELETE FROM described WHERE paper = ?", ids)
            self.db.executemany("DELETE FROM title_cites WHERE citing = ?", ids)
            self.db.executemany("DELETE FROM title_cites WHERE cited = ?", ids)
            self._deleted.clear()
        if self._dirty:
            rows = []
            for key in self._dirty:
                node = self._nodes[key]
                if node is None:
                    continue
                state = node.state
                rows.append(
                    (
                        node.id,
                        key,
                        state.get("norm_title"),
                        state.get("year"),
                        0 if state.get("arxiv_id") is None else 1,
                        marshal.dumps(state),
                    )
                )
            self.db.executemany(
                "INSERT OR REPLACE INTO papers (id, key, norm_title, year, has_id, state) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
            self._dirty.clear()

    def _described(self, paper: int, snapshot: int) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT state FROM described WHERE paper = ? AND snapshot = ?", (paper, snapshot)
        ).fetchone()
        return marshal.loads(row[0]) if row else None

    def _save_described(self, paper: int, snapshot: int, state: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO described (paper, snapshot, state) VALUES (?, ?, ?)",
            (paper, snapshot, marshal.dumps(state)),
        )

    # The statements.

    def _load_papers(self, rows: list[dict[str, Any]]) -> None:
        """cypher/load/papers.cypher: ``newer`` is read for every row before any row writes."""
        self._fetch(row["key"] for row in rows)
        nodes: list[tuple[_Node, bool]] = []
        for row in rows:
            node = self._node(row["key"]) or self._create(row["key"], {})
            as_of = node.get("as_of")
            nodes.append((node, as_of is None or row["as_of"] >= as_of))
        for row, (node, newer) in zip(rows, nodes, strict=True):
            self._dirty.add(node.key)
            node.set("stub", False)
            if row["arxiv_id"] is not None:
                node.set("arxiv_id", row["arxiv_id"])
            for name in _FILL_NEWER:
                value = row[name]
                if value is not None and (newer or node.get(name) is None):
                    node.set(name, _iso(value) if isinstance(value, date) else value)
            if newer:
                node.set("as_of", row["as_of"])
            snapshot = self._snapshot_ids[row["snapshot"]]
            described = self._described(node.id, snapshot) or {}
            row_date = _iso(row["as_of_date"]) or ""
            link_date = described.get("as_of") or ""
            if "line" in described and (
                row_date < link_date or (row_date == link_date and row["line"] < described["line"])
            ):
                continue
            for name in _DESCRIBED_FIXED:
                value = row["as_of_date"] if name == "as_of" else row[name]
                if value is None:
                    described.pop(name, None)
                else:
                    described[name] = _iso(value) if isinstance(value, date) else value
            for name, value in row["extra"].items():
                if value is None:
                    described.pop(name, None)
                else:
                    described[name] = value
            self._save_described(node.id, snapshot, described)

    def _load_authors(self, rows: list[dict[str, Any]]) -> None:
        """cypher/load/authors.cypher: every author named exists; filter and delete per row, then
        set, then link authors."""
        author_ids = self._author_ids([author for row in rows for author in row["authors"]])
        passing: list[tuple[_Node, dict[str, Any]]] = []
        for row in rows:
            node = self._node(row["key"])
            if node is None:
                continue
            seen = node.get("authors_as_of")
            if seen is None or row["as_of"] >= seen:
                node.state[_AUTHORED] = []
                passing.append((node, row))
        for node, row in passing:
            node.set("authors_as_of", row["as_of"])
            self._dirty.add(node.key)
        for node, row in passing:
            links: list[list[int]] = node.state[_AUTHORED]
            for position, author in enumerate(row["authors"], start=1):
                author_id = author_ids[author["key"]]
                for link in links:
                    if link[0] == author_id:
                        link[1] = position
                        break
                else:
                    links.append([author_id, position])

    def _author_ids(self, authors: list[dict[str, str]]) -> dict[str, int]:
        """MERGE (a:Author {key}); its name is the smallest spelling seen."""
        ids: dict[str, int] = {}
        names: dict[str, str] = {}
        wanted = list(dict.fromkeys(a["key"] for a in authors))
        for chunk in _chunks(wanted):
            marks = ",".join("?" * len(chunk))
            for author_id, key, name in self.db.execute(
                f"SELECT id, key, name FROM authors WHERE key IN ({marks})",  # noqa: S608
                chunk,
            ):
                ids[key] = author_id
                names[key] = name
        new: dict[str, int] = {}
        renamed: set[str] = set()
        for author in authors:
            key, name = author["key"], author["name"]
            if key not in ids:
                self._next_author += 1
                ids[key] = new[key] = self._next_author
                names[key] = name
            elif name < names[key]:
                names[key] = name
                renamed.add(key)
        self.db.executemany(
            "INSERT INTO authors (id, key, name) VALUES (?, ?, ?)",
            [(author_id, key, names[key]) for key, author_id in new.items()],
        )
        self.db.executemany(
            "UPDATE authors SET name = ? WHERE id = ?",
            [(names[key], ids[key]) for key in renamed - set(new)],
        )
        return ids

    def _load_categories(self, rows: list[dict[str, Any]]) -> None:
        """cypher/load/categories.cypher: every category named exists; filter and delete per row,
        then primary, then cross-lists."""
        for row in rows:
            for named in (row["primary"], *row["cross"]):
                self._category(named["code"])
        passing: list[tuple[_Node, dict[str, Any]]] = []
        for row in rows:
            node = self._node(row["key"])
            if node is None:
                continue
            seen = node.get("categories_as_of")
            if seen is None or row["as_of"] >= seen:
                node.state[_PRIMARY] = []
                node.state[_CROSS] = []
                passing.append((node, row))
        for node, row in passing:
            self._dirty.add(node.key)
            node.set("categories_as_of", row["as_of"])
            code = self._category(row["primary"]["code"])
            node.set("primary_category", code)
            if code not in node.state[_PRIMARY]:
                node.state[_PRIMARY].append(code)
        for node, row in passing:
            for cross in row["cross"]:
                code = self._category(cross["code"])
                if code not in node.state[_CROSS]:
                    node.state[_CROSS].append(code)

    def _category(self, raw: str) -> str:
        """MERGE (c:Category {code}) with the taxonomy's name and archive; returns the code."""
        known = category(raw)
        node = self._categories.setdefault(known.code, {"code": known.code})
        if known.name is not None:
            node["name"] = known.name
        node["archive"] = known.archive
        return known.code

    def _reconcile(self, norm_titles: list[str]) -> None:
        """GraphWriter.reconcile: the identity rule on every paper with these titles, then
        cypher/load/merge_papers.cypher for each merge it asks for, in the same order."""
        self._flush()
        rows: list[dict[str, Any]] = []
        for chunk in _chunks(norm_titles):
            marks = ",".join("?" * len(chunk))
            for key, norm, blob in self.db.execute(
                f"SELECT key, norm_title, state FROM papers "  # noqa: S608
                f"WHERE norm_title IN ({marks})",
                chunk,
            ):
                state = marshal.loads(blob)
                rows.append(
                    {
                        "norm_title": norm,
                        "key": key,
                        "arxiv_id": state.get("arxiv_id"),
                        "year": state.get("year"),
                        "aliases": state.get("aliases"),
                    }
                )
        for _, merges in sorted(plan_merges(rows).items()):
            for source, target in sorted(merges.items(), key=lambda m: (m[1], m[0])):
                self._merge_pair(source, target)

    def _merge_pair(self, source_key: str, target_key: str) -> None:
        """cypher/load/merge_papers.cypher for one pair."""
        self._fetch([source_key, target_key])
        source, target = self._nodes[source_key], self._nodes[target_key]
        if source is None or target is None or source.id == target.id:
            return
        self._flush()
        for other, edge in self._edges_from(source.id):
            if other != target.id:
                self._merge_edge(target.id, other, edge)
                self._delete_edge(source.id, other)
        for other, edge in self._edges_to(source.id):
            if other != target.id:
                self._merge_edge(other, target.id, edge)
                self._delete_edge(other, source.id)
        for snapshot, blob in self.db.execute(
            "SELECT snapshot, state FROM described WHERE paper = ?", (source.id,)
        ).fetchall():
            incoming = marshal.loads(blob)
            kept = self._described(target.id, snapshot) or {}
            merged = {**incoming, **kept}
            counts = (incoming.get("stated_cited_by"), kept.get("stated_cited_by"))
            known = [v for v in counts if v is not None]
            if known:
                merged["stated_cited_by"] = max(known)
            self._save_described(target.id, snapshot, merged)
        self.db.execute("DELETE FROM described WHERE paper = ?", (source.id,))
        newer_authors = _newer(source.get("authors_as_of"), target.get("authors_as_of"))
        newer_categories = _newer(source.get("categories_as_of"), target.get("categories_as_of"))
        if source.get("as_of") is not None or target.get("as_of") is not None:
            source_wins = _newer(source.get("as_of"), target.get("as_of"))
        else:
            source_wins = _newer(source.get("ref_as_of"), target.get("ref_as_of"))
        if newer_authors:
            target.state[_AUTHORED] = [list(link) for link in source.state.get(_AUTHORED, [])]
        if newer_categories:
            target.state[_PRIMARY] = list(source.state.get(_PRIMARY, []))
            target.state[_CROSS] = list(source.state.get(_CROSS, []))
        target.set("stub", bool(target.get("stub")) and bool(source.get("stub")))
        if target.get("arxiv_id") is None:
            target.set("arxiv_id", source.get("arxiv_id"))
        for name in _FROM_NEWER:
            theirs, ours = source.get(name), target.get(name)
            take = (source_wins and theirs is not None) or ours is None
            target.set(name, theirs if take else ours)
        for name in ("as_of", "ref_as_of"):
            if _newer(source.get(name), target.get(name)):
                target.set(name, source.get(name))
        if newer_authors:
            target.set("authors_as_of", source.get("authors_as_of"))
        if newer_categories:
            target.set("categories_as_of", source.get("categories_as_of"))
            target.set("primary_category", source.get("primary_category"))
        target.set(
            "aliases",
            sorted({*(target.get("aliases") or ()), source.key, *(source.get("aliases") or ())}),
        )
        self._dirty.add(target.key)
        self._nodes[source.key] = None
        self._ids.pop(source.key, None)
        self._dirty.discard(source.key)
        self._deleted[source.key] = source.id
        self.merged += 1
        self._flush()

    def _edges_from(self, paper: int) -> list[tuple[int, _Edge]]:
        return [
            (cited, _Edge([int(s) for s in snaps.split(",")], first, last))
            for cited, snaps, first, last in self.db.execute(
                "SELECT cited, snaps, first, last FROM title_cites WHERE citing = ?", (paper,)
            ).fetchall()
        ]

    def _edges_to(self, paper: int) -> list[tuple[int, _Edge]]:
        return [
            (citing, _Edge([int(s) for s in snaps.split(",")], first, last))
            for citing, snaps, first, last in self.db.execute(
                "SELECT citing, snaps, first, last FROM title_cites WHERE cited = ?", (paper,)
            ).fetchall()
        ]

    def _merge_edge(self, citing: int, cited: int, edge: _Edge) -> None:
        """MERGE (a)-[n:CITES]->(b) and fold ``edge`` into it as merge_papers does."""
        table = self._edge_table_by_ids(citing, cited)
        row = self.db.execute(
            f"SELECT snaps, first, last FROM {table} WHERE citing = ? AND cited = ?",  # noqa: S608
            (citing, cited),
        ).fetchone()
        if row is None:
            snaps: list[int] = []
            first, last = None, None
        else:
            snaps = [int(s) for s in row[0].split(",")]
            first, last = row[1], row[2]
        for snap in edge.snaps:
            if snap not in snaps:
                snaps.append(snap)
        if first is None or (edge.first is not None and edge.first < first):
            first = edge.first
        if last is None or (edge.last is not None and edge.last > last):
            last = edge.last
        self.db.execute(
            f"INSERT OR REPLACE INTO {table} (citing, cited, snaps, first, last) "  # noqa: S608
            "VALUES (?, ?, ?, ?, ?)",
            (citing, cited, ",".join(map(str, snaps)), first, last),
        )

    def _edge_table_by_ids(self, citing: int, cited: int) -> str:
        for paper in (citing, cited):
            key = self.db.execute("SELECT key FROM papers WHERE id = ?", (paper,)).fetchone()
            if key is not None and _is_title_key(key[0]):
                return "title_cites"
        return "cites"

    def _delete_edge(self, citing: int, cited: int) -> None:
        self.db.execute("DELETE FROM title_cites WHERE citing = ? AND cited = ?", (citing, cited))

    def _load_stubs(self, rows: list[dict[str, Any]]) -> None:
        """cypher/load/stubs.cypher: papers named by citations exist; new ones are stubs; a stub's
        title and year come from its best reference (ref_as_of)."""
        plain = [row for row in rows if _is_plain_stub(row)]
        rich = [row for row in rows if not _is_plain_stub(row)]
        self._fetch_ids(row["key"] for row in plain)
        self._fetch(row["key"] for row in rich)
        for row in rows:
            key = row["key"]
            if _is_plain_stub(row):
                if self._node_id(key) is None:
                    self._create(key, {"stub": True, "arxiv_id": row["arxiv_id"]})
                continue
            node = self._node(key)
            if node is None:
                node = self._create(key, {"stub": True})
                node.set("arxiv_id", row["arxiv_id"])
            if node.get("arxiv_id") is None and row["arxiv_id"] is not None:
                node.set("arxiv_id", row["arxiv_id"])
            rank = row["ref_as_of"]
            if rank is not None and (node.get("ref_as_of") is None or rank > node.get("ref_as_of")):
                stub = node.get("stub")
                node.set("ref_as_of", rank)
                for name in ("title", "norm_title", "year"):
                    if stub or node.get(name) is None:
                        node.set(name, row[name])
            self._dirty.add(key)
            if row["stated_cited_by"] is not None:
                snapshot = self._snapshot_ids[row["snapshot"]]
                described = self._described(node.id, snapshot) or {}
                count = described.get("stated_cited_by")
                as_of = _iso(row["as_of"])
                if (
                    count is None
                    or row["stated_cited_by"] > count
                    or (described.get("as_of") is None and as_of is not None)
                ):
                    if count is None or row["stated_cited_by"] > count:
                        described["stated_cited_by"] = row["stated_cited_by"]
                    if as_of is None:
                        described.pop("as_of", None)
                    else:
                        described["as_of"] = as_of
                self._save_described(node.id, snapshot, described)

    def _load_citations(self, rows: list[dict[str, Any]]) -> None:
        """cypher/load/citations.cypher: one CITES per pair, with its snapshots and seen dates."""
        plain: list[tuple[int, int, str, str | None, str | None]] = []
        titled: list[tuple[int, int, str, str | None, str | None]] = []
        for row in rows:
            citing = self._node_id(row["citing"])
            cited = self._node_id(row["cited"])
            if citing is None or cited is None:
                continue
            snap = str(self._snapshot_ids[row["snapshot"]])
            as_of = _iso(row["as_of"])
            values = (citing, cited, snap, as_of, as_of)
            if _is_title_key(row["citing"]) or _is_title_key(row["cited"]):
                titled.append(values)
            else:
                plain.append(values)
        if plain:
            self.db.executemany(_UPSERT_CITES.format(table="cites"), plain)
        if titled:
            self.db.executemany(_UPSERT_CITES.format(table="title_cites"), titled)

    # The import CSVs.

    def write_csv(self, folder: Path) -> ImportFiles:
        """Write the node and relationship CSVs for ``neo4j-admin database import full``
        into ``folder`` (integer ids, one id space per label) and return them."""
        self._flush()
        self.db.execute("COMMIT")
        self.db.execute("BEGIN")
        folder.mkdir(parents=True, exist_ok=True)
        files = ImportFiles()
        self._write_papers(folder, files)
        self._write_authors(folder, files)
        self._write_categories(folder, files)
        self._write_snapshots(folder, files)
        self._write_described(folder, files)
        self._write_cites(folder, files)
        return files

    def _write_papers(self, folder: Path, files: ImportFiles) -> None:
        papers, authored = folder / "papers.csv", folder / "authored.csv"
        primary, cross = folder / "primary_category.csv", folder / "cross_listed.csv"
        category_ids = {code: number for number, code in enumerate(sorted(self._categories))}
        counts = {"Paper": 0, "AUTHORED": 0, "PRIMARY_CATEGORY": 0, "CROSS_LISTED": 0}
        multiline = False
        with (
            _open(papers) as paper_out,
            _open(authored) as authored_out,
            _open(primary) as primary_out,
            _open(cross) as cross_out,
        ):
            paper_out.write(
                ":ID(Paper),key," + ",".join(f"{n}:{t}" for n, t in _PAPER_COLUMNS) + "\n"
            )
            authored_out.write(":START_ID(Author),:END_ID(Paper),position:long\n")
            primary_out.write(":START_ID(Paper),:END_ID(Category)\n")
            cross_out.write(":START_ID(Paper),:END_ID(Category)\n")
            lines: list[str] = []
            cursor = self.db.execute("SELECT id, key, state FROM papers ORDER BY id")
            while rows := cursor.fetchmany(10_000):
                for node_id, key, blob in rows:
                    state = marshal.loads(blob)
                    cells = [str(node_id), _string(key)]
                    cells += [_cell(state.get(name), kind) for name, kind in _PAPER_COLUMNS]
                    line = ",".join(cells)
                    multiline = multiline or "\n" in line or "\r" in line
                    lines.append(line)
                    for author_id, position in state.get(_AUTHORED, ()):
                        authored_out.write(f"{author_id},{node_id},{position}\n")
                        counts["AUTHORED"] += 1
                    for code in state.get(_PRIMARY, ()):
                        primary_out.write(f"{node_id},{category_ids[code]}\n")
                        counts["PRIMARY_CATEGORY"] += 1
                    for code in state.get(_CROSS, ()):
                        cross_out.write(f"{node_id},{category_ids[code]}\n")
                        counts["CROSS_LISTED"] += 1
                counts["Paper"] += len(rows)
                paper_out.write("\n".join(lines) + "\n")
                lines.clear()
        files.nodes["Paper"] = [papers]
        if multiline:
            files.multiline.append(papers)
        files.node_counts["Paper"] = counts.pop("Paper")
        for kind, path in (
            ("AUTHORED", authored),
            ("PRIMARY_CATEGORY", primary),
            ("CROSS_LISTED", cross),
        ):
            files.relationships[kind] = [path]
            files.relationship_counts[kind] = counts[kind]

    def _write_authors(self, folder: Path, files: ImportFiles) -> None:
        path = folder / "authors.csv"
        count = 0
        multiline = False
        with _open(path) as out:
            out.write(":ID(Author),key,name\n")
            cursor = self.db.execute("SELECT id, key, name FROM authors")
            while rows := cursor.fetchmany(10_000):
                text = "".join(f"{i},{_string(k)},{_string(n)}\n" for i, k, n in rows)
                multiline = multiline or text.count("\n") != len(rows) or "\r" in text
                out.write(text)
                count += len(rows)
        files.nodes["Author"] = [path]
        files.node_counts["Author"] = count
        if multiline:
            files.multiline.append(path)

    def _write_categories(self, folder: Path, files: ImportFiles) -> None:
        path = folder / "categories.csv"
        with _open(path) as out:
            out.write(":ID(Category),code,name,archive\n")
            for number, code in enumerate(sorted(self._categories)):
                node = self._categories[code]
                out.write(
                    f"{number},{_string(code)},{_cell(node.get('name'), 'string')},"
                    f"{_cell(node.get('archive'), 'string')}\n"
                )
        files.nodes["Category"] = [path]
        files.node_counts["Category"] = len(self._categories)

    def _write_snapshots(self, folder: Path, files: ImportFiles) -> None:
        path = folder / "snapshots.csv"
        fixed = (
            ("kind", "string"),
            ("source", "string"),
            ("sha256", "string"),
            ("builder_version", "string"),
            ("data_date", "date"),
            ("first_date", "date"),
        )
        names = {name for name, _ in fixed} | {"key"}
        hashes = sorted({k for node in self._snapshots.values() for k in node if k not in names})
        columns = [*fixed, *((name, "string") for name in hashes)]
        with _open(path) as out:
            out.write(":ID(Snapshot),key," + ",".join(f"{n}:{t}" for n, t in columns) + "\n")
            for key, node in self._snapshots.items():
                cells = [str(self._snapshot_ids[key]), _string(key)]
                cells += [_cell(node.get(name), kind) for name, kind in columns]
                out.write(",".join(cells) + "\n")
        files.nodes["Snapshot"] = [path]
        files.node_counts["Snapshot"] = len(self._snapshots)

    def _write_described(self, folder: Path, files: ImportFiles) -> None:
        """DESCRIBED_IN, one file per set of extra-property types (a column has one type)."""
        fixed = {name for name, _ in _DESCRIBED_COLUMNS}
        outputs: dict[tuple[tuple[str, str], ...], tuple[Path, IO[str]]] = {}
        count = 0
        try:
            cursor = self.db.execute("SELECT paper, snapshot, state FROM described")
            while rows := cursor.fetchmany(10_000):
                for paper, snapshot, blob in rows:
                    state = marshal.loads(blob)
                    extras = tuple(
                        sorted((k, _kind(v)) for k, v in state.items() if k not in fixed)
                    )
                    if extras not in outputs:
                        path = folder / f"described_in_{len(outputs)}.csv"
                        handle = _open(path)
                        outputs[extras] = (path, handle)
                        columns = [*_DESCRIBED_COLUMNS, *extras]
                        handle.write(
                            ":START_ID(Paper),:END_ID(Snapshot),"
                            + ",".join(f"{n}:{t}" for n, t in columns)
                            + "\n"
                        )
                    cells = [str(paper), str(snapshot)]
                    cells += [_cell(state.get(n), t) for n, t in (*_DESCRIBED_COLUMNS, *extras)]
                    line = ",".join(cells)
                    if "\n" in line or "\r" in line:
                        path = outputs[extras][0]
                        if path not in files.multiline:
                            files.multiline.append(path)
                    outputs[extras][1].write(line + "\n")
                    count += 1
        finally:
            for _, handle in outputs.values():
                handle.close()
        files.relationships["DESCRIBED_IN"] = [path for path, _ in outputs.values()]
        files.relationship_counts["DESCRIBED_IN"] = count

    def _write_cites(self, folder: Path, files: ImportFiles) -> None:
        path = folder / "cites.csv"
        keys = list(self._snapshot_ids)
        formatted: dict[str, str] = {}
        count = 0
        with _open(path) as out:
            out.write(
                ":START_ID(Paper),:END_ID(Paper),snapshots:string[],first_seen:date,last_seen:date\n"
            )
            for table in ("cites", "title_cites"):
                cursor = self.db.execute(
                    f"SELECT citing, cited, snaps, first, last FROM {table}"  # noqa: S608
                )
                while rows := cursor.fetchmany(50_000):
                    parts = []
                    for citing, cited, snaps, first, last in rows:
                        text = formatted.get(snaps)
                        if text is None:
                            text = _string(";".join(sorted(keys[int(s)] for s in snaps.split(","))))
                            formatted[snaps] = text
                        parts.append(f"{citing},{cited},{text},{first or ''},{last or ''}\n")
                    out.write("".join(parts))
                    count += len(rows)
        files.relationships["CITES"] = [path]
        files.relationship_counts["CITES"] = count


def _plain_ref(ref: PaperRef) -> bool:
    """A reference by arXiv id and nothing else, as edge lists give."""
    return (
        ref.arxiv_id is not None
        and ref.title is None
        and ref.year is None
        and ref.stated_cited_by is None
    )


def _is_plain_stub(row: dict[str, Any]) -> bool:
    """A reference by arXiv id alone: it creates a stub or changes nothing."""
    return (
        row["title"] is None
        and row["norm_title"] is None
        and row["year"] is None
        and row["stated_cited_by"] is None
        and row["arxiv_id"] is not None
        and row["arxiv_id"] == row["key"]
    )


def _newer(theirs: str | None, ours: str | None) -> bool:
    """Cypher's ``theirs IS NOT NULL AND (ours IS NULL OR theirs > ours)``."""
    return theirs is not None and (ours is None or theirs > ours)


def _open(path: Path) -> IO[str]:
    return path.open("w", encoding="utf-8", newline="")


def _string(value: str) -> str:
    """A quoted CSV string: quotes doubled, so an empty string stays a string."""
    return '"' + value.replace('"', '""') + '"'


def _kind(value: Any) -> str:
    """The import type of an extra property value."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _cell(value: Any, kind: str) -> str:
    """One CSV cell of the given import type; an empty cell is no property."""
    if value is None:
        return ""
    if kind == "string":
        return _string(str(value))
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "double":
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(float(value))
    if kind.endswith("[]"):
        return _string(";".join(str(item) for item in value))
    return str(value)
