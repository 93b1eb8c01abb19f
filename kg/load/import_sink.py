"""Bulk mode's staging store: what needs no rule goes to neo4j-admin import, the rest to the
online writer.

The load rules (newest record wins, gap filling, stubs, title merges, CITES provenance,
author names) are written once, in the ``cypher/load`` statements that
``kg.load.neo4j_sink.GraphWriter`` runs. ``ImportSink`` takes the same snapshots and batches
from ``kg.load.pipeline`` and only stages them in a scratch SQLite file. Once every file is
read it splits them:

- **import**: what no rule can touch, because nothing else in the input names it: an arXiv
  paper with exactly one full record (or none: a plain stub), named by no reference that
  carries a title, year or count, whose authors are each spelled one way in the whole input;
  an edge asserted exactly once between two such papers; authors with one spelling. For
  these the statements would only copy the record's values onto new nodes, so
  ``write_csv`` writes those values as the import CSVs (string ids: the keys themselves).
- **online**: everything else (title-only papers, papers with several records, references
  that state a title or a count, edges asserted twice) comes back from ``online_batches``,
  and bulk mode writes it through ``GraphWriter`` once the imported database is up, with
  the snapshots (``snapshots``) and the "loaded whole" marks (``marked``). The online
  statements merge it into what was imported exactly as they would into a graph the online
  loader had built.

The split is conservative: anything unusual goes online, which is always correct and only
slower. Memory stays flat: records live in the SQLite file, not in Python.
"""

from __future__ import annotations

import math
import pickle
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from kg.load.rows import Batch, as_of_key, category_row, paper_row
from loaders.paper_properties import (
    DESCRIBED_COLUMNS,
    LINK_PROPERTIES,
    PAPER_COLUMNS,
    ROW_PROPERTIES,
)
from loaders.records import CitationRecord, Origin, PaperRecord, PaperRef, SnapshotRecord
from loaders.titles import canonical_arxiv_id, normalize_name

__all__ = ["ImportFiles", "ImportSink"]

_TITLE_PREFIX = "title:"
# The page cache while splitting (``write_csv``), in MB: see there.
_SPLIT_CACHE_MB = 16
# A stub's cells after stub and arxiv_id (PAPER_COLUMNS' first two): no other property.
_EMPTY_AFTER_ID = [""] * (len(PAPER_COLUMNS) - 2)

_SCHEMA = """
CREATE TABLE records (key TEXT NOT NULL, record BLOB NOT NULL);
CREATE TABLE names (key TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (key, name)) WITHOUT ROWID;
CREATE TABLE rich_keys (key TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE rich_cites (record BLOB NOT NULL);
CREATE TABLE cites (citing TEXT NOT NULL, cited TEXT NOT NULL, snap INTEGER NOT NULL, as_of TEXT);
CREATE TABLE online_cites (citing TEXT NOT NULL, cited TEXT NOT NULL, snap INTEGER NOT NULL,
                           as_of TEXT);
CREATE TABLE online_keys (key TEXT PRIMARY KEY) WITHOUT ROWID;
"""

# Edge lists name the same papers over and over, and papers the same authors: remember
# recent canonical ids and name keys.
_canonical = lru_cache(maxsize=1 << 16)(canonical_arxiv_id)
_name_key = lru_cache(maxsize=1 << 16)(normalize_name)


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
    """The staging store of bulk mode.

    Feed it what ``kg.load.pipeline`` feeds ``GraphWriter`` (``write_snapshot``,
    ``write_batch``, ``mark_loaded_whole``), then call ``write_csv`` for the import files,
    then hand ``snapshots``, ``online_batches`` and ``marked`` to a ``GraphWriter`` on the
    imported database. Close it when done.
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
        self.snapshots: list[SnapshotRecord] = []
        """Every snapshot record, in the order read: the online writer upserts them all."""
        self.marked: list[str] = []
        """The snapshots loaded whole, to mark once the online part is written."""
        self.online_keys = 0
        """How many papers the online writer gets (set by ``write_csv``)."""
        self.online_citations = 0
        """How many citations the online writer gets (set by ``write_csv``)."""
        self._snapshot_ids: dict[str, int] = {}
        self._sources: list[str] = []
        self._split = False

    def close(self) -> None:
        """Close the scratch store (the file stays; its folder's owner removes it)."""
        self.db.close()

    # What the pipeline feeds.

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        """Keep the snapshot for the online writer (cypher/load/snapshots.cypher)."""
        if snapshot.key not in self._snapshot_ids:
            self._snapshot_ids[snapshot.key] = len(self._snapshot_ids)
            self._sources.append(snapshot.source)
        self.snapshots.append(snapshot)

    def loaded_whole(self, snapshot_key: str) -> bool:
        """GraphWriter.loaded_whole: True when this run already took the snapshot whole."""
        return snapshot_key in self.marked

    def mark_loaded_whole(self, snapshot_key: str) -> None:
        """Keep the mark for the online writer (cypher/load/mark_snapshot_loaded.cypher)."""
        if snapshot_key not in self.marked:
            self.marked.append(snapshot_key)

    def write_batch(self, batch: Batch) -> None:
        """Stage the batch: full records whole, references by arXiv id alone as compact
        edges, any other citation whole with the keys of its richer references."""
        if batch.papers:
            self.db.executemany(
                "INSERT INTO records (key, record) VALUES (?, ?)",
                [(r.key, pickle.dumps(r, pickle.HIGHEST_PROTOCOL)) for r in batch.papers],
            )
            self.db.executemany(
                "INSERT OR IGNORE INTO rich_keys (key) VALUES (?)",
                [(r.key,) for r in batch.papers if _splits_in_import(r)],
            )
            self.db.executemany(
                "INSERT OR IGNORE INTO names (key, name) VALUES (?, ?)",
                # an author a source gives ids for is keyed by them, and written online
                [
                    (_name_key(n), n)
                    for r in batch.papers
                    for n, ids in zip(r.authors, r.author_ids or [{}] * len(r.authors), strict=True)
                    if not ids
                ],
            )
        plain: list[tuple[str, str, int, str | None]] = []
        rich: list[CitationRecord] = []
        rich_keys: set[str] = set()
        for citation in batch.citations:
            citing = _plain_key(citation.citing)
            cited = _plain_key(citation.cited)
            if citing is not None and cited is not None:
                as_of = citation.as_of.isoformat() if citation.as_of else None
                plain.append((citing, cited, self._snapshot_ids[citation.snapshot], as_of))
                continue
            rich.append(citation)
            for ref in (citation.citing, citation.cited):
                if _plain_key(ref) is None:
                    rich_keys.add(ref.key)
        if plain:
            self.db.executemany(
                "INSERT INTO cites (citing, cited, snap, as_of) VALUES (?, ?, ?, ?)", plain
            )
        if rich:
            self.db.executemany(
                "INSERT INTO rich_cites (record) VALUES (?)",
                [(pickle.dumps(c, pickle.HIGHEST_PROTOCOL),) for c in rich],
            )
            self.db.executemany(
                "INSERT OR IGNORE INTO rich_keys (key) VALUES (?)", [(k,) for k in rich_keys]
            )

    # The import files: the part no rule touches.

    def write_csv(self, folder: Path) -> ImportFiles:
        """Split what was staged (see the module's docstring) and write the import part as
        CSVs for ``neo4j-admin database import full --id-type=string`` into ``folder``."""
        self.db.execute("COMMIT")
        # The split's sorts (the GROUP BY over every edge above all) take as much memory as
        # the page cache's size beside the cache itself, and they read each table once: a
        # small cache keeps the loader's peak down at no cost in time.
        self.db.execute(f"PRAGMA cache_size = -{_SPLIT_CACHE_MB * 1024}")
        self.db.execute("BEGIN")
        folder.mkdir(parents=True, exist_ok=True)
        files = ImportFiles()
        online = self._online_keys()
        categories: dict[str, dict[str, Any]] = {}
        with _Writer(folder, files) as out:
            self._write_papers(out, online, categories)
            self._write_stubs(out, online)
            self._write_cites(out, online)
            # Each author with one of its spellings; author_spellings gives the online writer
            # every spelling of the authors that have several, and it keeps the smallest.
            out.node_file("Author", ("key:ID(Author)", "name"), "authors")
            for key, name in self.db.execute("SELECT key, name FROM names GROUP BY key"):
                out.node("Author", [_string(key), _string(name)])
            out.node_file("Category", ("code:ID(Category)", "name", "archive"), "categories")
            for code in sorted(categories):
                row = categories[code]
                out.node(
                    "Category",
                    [_string(code), _cell(row["name"], "string"), _cell(row["archive"], "string")],
                )
            out.node_file("Snapshot", ("key:ID(Snapshot)",), "snapshots")
            for key in self._snapshot_ids:
                out.node("Snapshot", [_string(key)])
        self.db.executemany(
            "INSERT OR IGNORE INTO online_keys (key) VALUES (?)", ((key,) for key in online)
        )
        self.online_citations += self.db.execute("SELECT count(*) FROM rich_cites").fetchone()[0]
        self.online_keys = len(online)
        self._split = True
        return files

    def _online_keys(self) -> set[str]:
        """The papers a rule may touch: named richly, titled only, or with several records
        (records whose authors are spelled more than one way join in ``_write_papers``)."""
        online = {key for (key,) in self.db.execute("SELECT key FROM rich_keys")}
        online.update(
            key
            for (key,) in self.db.execute(
                "SELECT key FROM records GROUP BY key HAVING count(*) > 1"
            )
        )
        return online

    def _write_papers(
        self,
        out: _Writer,
        online: set[str],
        categories: dict[str, dict[str, Any]],
    ) -> None:
        """The papers with one full record that nothing else names richly: the values that
        papers, authors and categories.cypher write on a new node, and its links."""
        out.node_file(
            "Paper",
            ("key:ID(Paper)", *(f"{name}:{kind}" for name, kind in PAPER_COLUMNS)),
            "papers",
        )
        out.relationship_file(
            "AUTHORED", ":START_ID(Author),:END_ID(Paper),position:long", "authored"
        )
        out.relationship_file(
            "PRIMARY_CATEGORY", ":START_ID(Paper),:END_ID(Category)", "primary_category"
        )
        out.relationship_file("CROSS_LISTED", ":START_ID(Paper),:END_ID(Category)", "cross_listed")
        cursor = self.db.execute("SELECT key, record FROM records")
        while rows := cursor.fetchmany(5_000):
            for key, blob in rows:
                if key in online:
                    continue
                record: PaperRecord = pickle.loads(blob)
                authors = [_name_key(name) for name in record.authors]
                # A record with strong ids besides arXiv's, or its authors', goes online: the
                # rules for strong ids may merge its paper or its authors with others
                # (reconcile_ids, reconcile_authors)
                if (
                    key.startswith(_TITLE_PREFIX)
                    or record.ids
                    or record.author_ids
                    or len(set(authors)) != len(authors)
                ):
                    online.add(key)
                    continue
                self._write_paper(out, key, record, authors, categories)

    def _write_paper(
        self,
        out: _Writer,
        key: str,
        record: PaperRecord,
        authors: list[str],
        categories: dict[str, dict[str, Any]],
    ) -> None:
        row = paper_row(record, key)
        props: dict[str, Any] = {name: row.get(name) for name, _ in PAPER_COLUMNS}
        props["stub"] = False
        props["years"] = [record.year] if record.year is not None else None
        if authors:
            props["authors_as_of"] = row["as_of"]
            for position, author in enumerate(authors, start=1):
                out.relationship("AUTHORED", [_string(author), _string(key), str(position)])
        if record.primary_category:
            primary = category_row(record.primary_category)
            cross = [category_row(c) for c in record.cross_categories]
            props["categories_as_of"] = as_of_key(record.as_of, record.snapshot)
            props["primary_category"] = primary["code"]
            categories[primary["code"]] = primary
            out.relationship("PRIMARY_CATEGORY", [_string(key), _string(primary["code"])])
            codes = dict.fromkeys(
                named["code"]
                for named, raw in zip(cross, record.cross_categories, strict=True)
                if raw != record.primary_category
            )
            for named in cross:
                categories[named["code"]] = named
            for code in codes:
                out.relationship("CROSS_LISTED", [_string(key), _string(code)])
        out.node("Paper", [_string(key), *(_cell(props[n], t) for n, t in PAPER_COLUMNS)])
        described = {
            **{name: value for name, value in row["extra"].items() if value is not None},
            **{link.name: row[link.row] for link in LINK_PROPERTIES},
        }
        out.described(key, record.snapshot, described)

    def _write_stubs(self, out: _Writer, online: set[str]) -> None:
        """Papers named only by references by arXiv id: stub, arxiv_id (stubs.cypher's create)."""
        cursor = self.db.execute(
            "SELECT key FROM (SELECT citing AS key FROM cites UNION SELECT cited FROM cites) "
            "WHERE key NOT IN (SELECT key FROM records)"
        )
        while rows := cursor.fetchmany(50_000):
            for (key,) in rows:
                if key not in online:
                    out.node("Paper", [_string(key), "true", _string(key), *_EMPTY_AFTER_ID])

    def _write_cites(self, out: _Writer, online: set[str]) -> None:
        """Edges asserted once between imported papers; the rest go to the online writer."""
        out.relationship_file(
            "CITES",
            ":START_ID(Paper),:END_ID(Paper),snapshots:string[],first_seen:date,last_seen:date",
            "cites",
        )
        snapshot_keys = list(self._snapshot_ids)
        quoted = [_string(key) for key in snapshot_keys]
        later: list[tuple[str, str, int, str | None]] = []
        cursor = self.db.execute(
            "SELECT citing, cited, count(*), min(snap), min(as_of), "
            "group_concat(snap || '|' || coalesce(as_of, ''), ',') "
            "FROM cites GROUP BY citing, cited"
        )
        while rows := cursor.fetchmany(50_000):
            lines: list[str] = []
            for citing, cited, count, snap, as_of, every in rows:
                if count == 1 and citing not in online and cited not in online:
                    day = as_of or ""
                    lines.append(f"{_string(citing)},{_string(cited)},{quoted[snap]},{day},{day}")
                    continue
                for item in every.split(","):
                    number, _, seen = item.partition("|")
                    later.append((citing, cited, int(number), seen or None))
            out.relationship_lines("CITES", lines)
            if later:
                self.db.executemany(
                    "INSERT INTO online_cites (citing, cited, snap, as_of) VALUES (?, ?, ?, ?)",
                    later,
                )
                self.online_citations += len(later)
                later.clear()

    # The online part.

    def author_spellings(self, chunk: int = 10_000) -> Iterator[list[dict[str, str]]]:
        """Yield, in chunks, every spelling of the authors spelled more than one way: the
        online writer's author_names statement gives each its smallest."""
        rows: list[dict[str, str]] = []
        for key, name in self.db.execute(
            "SELECT key, name FROM names WHERE key IN "
            "(SELECT key FROM names GROUP BY key HAVING count(*) > 1) ORDER BY key, name"
        ):
            rows.append({"key": key, "name": name, "norm_name": key})
            if len(rows) >= chunk:
                yield rows
                rows = []
        if rows:
            yield rows

    def online_batches(self, batch_size: int) -> Iterator[Batch]:
        """Yield, in batches of ``batch_size``, every record the import files left out: the
        online writer's statements apply the rules to them (call after ``write_csv``)."""
        if not self._split:
            raise RuntimeError("write_csv splits the staged records: call it first")
        batch = Batch()
        cursor = self.db.execute(
            "SELECT record FROM records WHERE key IN (SELECT key FROM online_keys)"
        )
        for (blob,) in cursor:
            batch.papers.append(pickle.loads(blob))
            if len(batch) >= batch_size:
                yield batch
                batch = Batch()
        for (blob,) in self.db.execute("SELECT record FROM rich_cites"):
            batch.citations.append(pickle.loads(blob))
            if len(batch) >= batch_size:
                yield batch
                batch = Batch()
        snapshot_keys = list(self._snapshot_ids)
        for citing, cited, snap, as_of in self.db.execute(
            "SELECT citing, cited, snap, as_of FROM online_cites"
        ):
            batch.citations.append(
                CitationRecord.model_construct(
                    origin=Origin.model_construct(path=self._sources[snap], line=1),
                    snapshot=snapshot_keys[snap],
                    as_of=date.fromisoformat(as_of) if as_of else None,
                    citing=PaperRef.model_construct(arxiv_id=citing),
                    cited=PaperRef.model_construct(arxiv_id=cited),
                )
            )
            if len(batch) >= batch_size:
                yield batch
                batch = Batch()
        if len(batch):
            yield batch


# The imported string-array properties a record states, read as its papers.cypher row does
_STRING_ARRAYS = tuple(
    p.read for p in ROW_PROPERTIES if p.imported and p.type == "string[]" and p.read is not None
)


def _splits_in_import(record: PaperRecord) -> bool:
    """Whether a string-array cell of the record would hold ';': neo4j-admin import splits
    array cells there (its default array delimiter), with no escape, so such a paper is
    written online."""
    for read in _STRING_ARRAYS:
        items = read(record)
        if isinstance(items, (list, tuple)) and any(";" in str(item) for item in items):
            return True
    return False


def _plain_key(ref: PaperRef) -> str | None:
    """The key of a reference by arXiv id and nothing else (as edge lists give), else None:
    such a reference creates a stub or changes nothing."""
    if ref.arxiv_id is None or ref.title is not None or ref.year is not None or ref.ids:
        return None
    if ref.stated_cited_by is not None:
        return None
    return _canonical(ref.arxiv_id)


class _Writer:
    """The import CSVs: one node file per label, one relationship file per type, and one
    DESCRIBED_IN file per set of extra-property types (a column has one type)."""

    def __init__(self, folder: Path, files: ImportFiles) -> None:
        self.folder = folder
        self.files = files
        self._handles: dict[str, tuple[Path, IO[str]]] = {}
        self._described: dict[tuple[tuple[str, str], ...], str] = {}

    def __enter__(self) -> _Writer:
        return self

    def __exit__(self, *_: object) -> None:
        for _path, handle in self._handles.values():
            handle.close()

    def _open(self, name: str, header: str, file_name: str) -> None:
        if name in self._handles:
            return
        path = self.folder / f"{file_name}.csv"
        handle = path.open("w", encoding="utf-8", newline="")
        handle.write(header + "\n")
        self._handles[name] = (path, handle)

    def node_file(self, label: str, columns: tuple[str, ...], file_name: str) -> None:
        self._open(label, ",".join(columns), file_name)
        self.files.nodes.setdefault(label, []).append(self._handles[label][0])
        self.files.node_counts.setdefault(label, 0)

    def relationship_file(self, kind: str, header: str, file_name: str) -> None:
        self._open(kind, header, file_name)
        self.files.relationships.setdefault(kind, []).append(self._handles[kind][0])
        self.files.relationship_counts.setdefault(kind, 0)

    def _line(self, name: str, cells: list[str]) -> None:
        path, handle = self._handles[name]
        line = ",".join(cells)
        if ("\n" in line or "\r" in line) and path not in self.files.multiline:
            self.files.multiline.append(path)
        handle.write(line + "\n")

    def node(self, label: str, cells: list[str]) -> None:
        self._line(label, cells)
        self.files.node_counts[label] += 1

    def relationship(self, kind: str, cells: list[str]) -> None:
        self._line(kind, cells)
        self.files.relationship_counts[kind] += 1

    def relationship_lines(self, kind: str, lines: list[str]) -> None:
        """Write many relationship lines at once (their cells already joined)."""
        if not lines:
            return
        path, handle = self._handles[kind]
        text = "\n".join(lines) + "\n"
        multiline = text.count("\n") != len(lines) or "\r" in text
        if multiline and path not in self.files.multiline:
            self.files.multiline.append(path)
        handle.write(text)
        self.files.relationship_counts[kind] += len(lines)

    def described(self, paper: str, snapshot: str, props: dict[str, Any]) -> None:
        fixed = {name for name, _ in DESCRIBED_COLUMNS}
        extras = tuple(sorted((k, _kind(v)) for k, v in props.items() if k not in fixed))
        name = self._described.get(extras)
        if name is None:
            name = f"described_in_{len(self._described)}"
            self._described[extras] = name
            columns = [*DESCRIBED_COLUMNS, *extras]
            self._open(
                name,
                ":START_ID(Paper),:END_ID(Snapshot)," + ",".join(f"{n}:{t}" for n, t in columns),
                name,
            )
            self.files.relationships.setdefault("DESCRIBED_IN", []).append(self._handles[name][0])
            self.files.relationship_counts.setdefault("DESCRIBED_IN", 0)
        cells = [_string(paper), _string(snapshot)]
        cells += [_cell(props.get(n), t) for n, t in (*DESCRIBED_COLUMNS, *extras)]
        self._line(name, cells)
        self.files.relationship_counts["DESCRIBED_IN"] += 1


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
    if kind == "date":
        return value.isoformat() if isinstance(value, date) else str(value)
    if kind == "double":
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(float(value))
    if kind.endswith("[]"):
        return _string(";".join(str(item) for item in value))
    return str(value)
