"""Bulk mode's staging store: what needs no rule goes to neo4j-admin import, the rest to the
online writer.

The load rules (newest record wins, gap filling, stubs, title merges, CITES provenance,
author names) are written once, in the ``cypher/load`` statements that
``kg.load.neo4j_sink.GraphWriter`` runs. ``ImportSink`` takes the same snapshots and batches
from ``kg.load.pipeline`` and only stages them in a scratch DuckDB database, as Arrow tables
a few batches at a time: each full record as the cells its import row would hold,
references by arXiv id alone as compact edges, any other citation by the keys of its richer
references. Records and rich citations are also kept whole, pickled into a file beside the
database in zstd frames (read back only for what goes online). Once every file is read it
splits them, in SQL over the whole input:

- **import**: what no rule can touch, because nothing else in the input names it: an arXiv
  paper with exactly one full record (or none: a plain stub), named by no reference that
  carries a title, year or count, whose authors are each spelled one way in the whole input;
  an edge asserted exactly once between two such papers; authors with one spelling. For
  these the statements would only copy the record's values onto new nodes, so
  ``write_csv`` has DuckDB write those values as the import CSVs (string ids: the keys
  themselves).
- **online**: everything else (title-only papers, papers with several records, references
  that state a title or a count, edges asserted twice) comes back from ``online_batches``,
  and bulk mode writes it through ``GraphWriter`` once the imported database is up, with
  the snapshots (``snapshots``) and the "loaded whole" marks (``marked``). The online
  statements merge it into what was imported exactly as they would into a graph the online
  loader had built.

The split is conservative: anything unusual goes online, which is always correct and only
slower. Memory stays flat: records live in the DuckDB file, and DuckDB's joins, groups and
sorts spill to a folder beside it past its memory limit (``memory``).
"""

from __future__ import annotations

import bisect
import math
import os
import pickle
import struct
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from kg.errors import ConfigError
from kg.load.rows import Batch, as_of_key, category_row, paper_row
from kg.load.stage_sql import PARQUET_TABLES, DuckDBStage, ImportFiles, write_import_files
from kg.load.stage_workers import StageWorkers
from loaders.paper_properties import (
    DESCRIBED_COLUMNS,
    LINK_PROPERTIES,
    PAPER_COLUMNS,
    ROW_PROPERTIES,
)
from loaders.records import (
    CitationRecord,
    EdgeChunk,
    Origin,
    PaperRecord,
    PaperRef,
    SnapshotRecord,
    StagedBlock,
)
from loaders.source_file import BlockStage, LineItems, NumberedLine
from loaders.text import normalize_name
from loaders.titles import canonical_arxiv_id

__all__ = [
    "PARALLEL_BYTES",
    "ImportFiles",
    "ImportSink",
    "StagedPaper",
    "check_stage_memory",
    "stage_block",
    "staged_paper",
]

_TITLE_PREFIX = "title:"
PARALLEL_BYTES = 8 << 20
"""The file size from which the stage reads a file's lines in its worker processes: below
it, starting them costs more than they save."""
# DuckDB's threads: the split's joins and groups and the CSV writes run in parallel, and each
# thread takes its share of the memory limit, so a few are enough.
_MAX_THREADS = 4
# Rows a streamed result hands over at a time.
_FETCH_ROWS = 2_048
# Rows the stage gathers in Python before it appends them to its tables: each append costs
# DuckDB a statement, so batches of the loader's size (2,000 records) are put together first;
# bounded, so memory stays flat.
_APPEND_ROWS = 32_768
# References by arXiv id alone whose key the stage remembers: an edge list names the same
# PaperRef object over and over (its parser keeps one per id), so its key is worked out once.
# Such a reference is small, and richer ones are not kept: memory stays flat.
_KNOWN_REFS = 1 << 15

# The import types DuckDB writes as neo4j-admin import reads them; the others (arrays joined
# by ';', doubles as Java spells them) are staged as their CSV text.
_NATIVE = {"boolean": pa.bool_(), "long": pa.int64(), "date": pa.date32()}
# The staged cells of a record's import rows: its paper's (p_), its DESCRIBED_IN link's (d_).
_CELLS = (
    *((f"p_{name}", kind) for name, kind in PAPER_COLUMNS),
    *((f"d_{name}", kind) for name, kind in DESCRIBED_COLUMNS),
)
_DESCRIBED_NAMES = frozenset(name for name, _ in DESCRIBED_COLUMNS)
# Each cell's name, import type and whether it is staged as itself (booleans, longs and
# dates: DuckDB writes them as the import reads them) rather than as its CSV text before
# quoting (_text), in _CELLS order
_STAGED_PAPER = tuple((name, kind, kind in _NATIVE) for name, kind in PAPER_COLUMNS)
_STAGED_DESCRIBED = tuple((name, kind, kind in _NATIVE) for name, kind in DESCRIBED_COLUMNS)
_PAPER_NAMES = tuple(name for name, _ in PAPER_COLUMNS)
_DESCRIBED_ORDER = tuple(name for name, _ in DESCRIBED_COLUMNS)
# The cells of a record that is not imported alone
_NO_CELLS = (None,) * len(_CELLS)

_ARROW = {
    "text": pa.string(),
    "long": pa.int64(),
    "int": pa.int32(),
    "bool": pa.bool_(),
    "date": pa.date32(),
    "blob": pa.binary(),
}


def _schema(columns: str, *more: tuple[str, pa.DataType]) -> pa.Schema:
    """The Arrow schema of ``columns`` ('name:type' words, types as ``_ARROW`` names them)
    followed by ``more``."""
    named = [(name, _ARROW[kind]) for name, _, kind in (c.partition(":") for c in columns.split())]
    return pa.schema([*named, *more])


_TABLES: dict[str, pa.Schema] = {
    # every full record: its key, its place in the input, whether it alone could be
    # imported, its snapshot, its set of extra DESCRIBED_IN properties, where it is kept
    # whole (an offset in the records file), its cells
    "papers": _schema(
        "key:text seq:long plain:bool snapshot:text extras:int record:long",
        *((name, _NATIVE.get(kind, pa.string())) for name, kind in _CELLS),
    ),
    "names": _schema("key:text name:text"),
    "authored": _schema("key:text author:text position:long"),
    "paper_categories": _schema("key:text code:text is_primary:bool"),
    "extras": _schema("key:text slot:int value:text"),
    "cites": _schema("citing:text cited:text snap:int as_of:date seq:long"),
    "rich_cites": _schema("seq:long record:long"),
    "rich_keys": _schema("key:text"),
}

# Edge lists name the same papers over and over, and papers the same authors: remember
# recent canonical ids and name keys.
_canonical = lru_cache(maxsize=1 << 16)(canonical_arxiv_id)
_name_key = lru_cache(maxsize=1 << 16)(normalize_name)
# and the same few categories: the rows are only read
_category_row = lru_cache(maxsize=1 << 12)(category_row)


def check_stage_memory(memory: str) -> str:
    """Return ``memory`` when DuckDB takes it as a memory limit (``1GB``, ``512MB``).

    Raises ConfigError when it does not.
    """
    try:
        duckdb.connect(config={"memory_limit": memory}).close()
    except duckdb.Error as error:
        raise ConfigError(
            f"the staging store's memory {memory!r} is not a size: {error}",
            "give a number and a unit, as '512MB' or '4GB'",
        ) from error
    return memory


class ImportSink:
    """The staging store of bulk mode.

    Feed it what ``kg.load.pipeline`` feeds ``GraphWriter`` (``write_snapshot``,
    ``write_batch``, ``mark_loaded_whole``), then call ``write_csv`` for the import files,
    then hand ``snapshots``, ``author_spellings``, ``online_batches`` and ``marked`` to a
    ``GraphWriter`` on the imported database. Close it when done.

    ``path`` is the DuckDB file; DuckDB spills what passes ``memory`` (a size such as
    ``1GB``) to a folder beside it. Raises duckdb.Error for a memory it does not take.
    """

    def __init__(
        self, path: Path, memory: str, workers: int = 1, parallel_bytes: int = PARALLEL_BYTES
    ) -> None:
        self.path = path
        self.workers = workers
        """Worker processes that stage the lines of large files (``block_stage``)."""
        self.parallel_bytes = parallel_bytes
        """The size from which a file's lines are staged in the worker processes."""
        self._workers: StageWorkers | None = None
        self.db = duckdb.connect(
            path,
            config={
                "memory_limit": memory,
                "temp_directory": str(path.with_name(path.name + ".tmp")),
                "threads": min(os.cpu_count() or 1, _MAX_THREADS),
                # no result here needs the order of its input (those that do sort): without
                # it, DuckDB need not buffer rows to keep their order, which is what runs out
                # of memory when a table or CSV larger than memory is written
                "preserve_insertion_order": False,
            },
        )
        try:
            self._parts = _Parts(path.with_name(path.name + ".tables"))
        except BaseException:
            self.db.close()
            raise
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
        self._categories: dict[str, dict[str, Any]] = {}
        self._extra_sets: dict[tuple[tuple[str, str], ...], int] = {(): 0}
        self._seq = 0
        self._split = False
        self._rows = _Rows()
        self._records = _Records(path.with_name(path.name + ".records"))
        self._ref_keys: dict[int, tuple[PaperRef, str]] = {}

    def close(self) -> None:
        """Close the scratch store (the files stay; their folder's owner removes them) and
        stop its worker processes."""
        try:
            self._stop_workers()
            self._parts.close()
        finally:
            self._records.close()
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
        """Stage the batch: full records as their import cells (and whole in the records
        file), references by arXiv id alone as compact edges, any other citation whole with
        the keys of its richer references. The rows go to the stage's tables a few batches
        at a time, as Arrow tables."""
        self._add_papers(map(staged_paper, batch.papers))
        self._stage_citations(batch.citations, self._rows)
        self._end_batch()

    def write_edges(self, chunk: EdgeChunk) -> None:
        """Stage an edge list's chunk of citations as the compact edges ``write_batch``
        stages its references by arXiv id alone: their keys are the chunk's canonical ids,
        and they come as columns, without a Python object each."""
        count = len(chunk)
        first = self._seq + 1
        self._seq += count
        snap = self._snapshot_ids[chunk.snapshot]
        schema = _TABLES["cites"]
        columns = [
            pa.array(chunk.citing, pa.string()),
            pa.array(chunk.cited, pa.string()),
            pa.repeat(pa.scalar(snap, schema.field("snap").type), count),
            pa.nulls(count, schema.field("as_of").type),
            pa.array(range(first, first + count), schema.field("seq").type),
        ]
        self._rows.add_table("cites", pa.Table.from_arrays(columns, schema=schema))
        if self._rows.count >= _APPEND_ROWS:
            self._flush()

    def _seal(self) -> None:
        """End the staging: stop the worker processes (their memory goes back while the
        import runs) and have DuckDB read the staged tables."""
        self._stop_workers()
        self._parts.seal(self.db)

    def _stop_workers(self) -> None:
        if self._workers is not None:
            self._workers.close()
            self._workers = None

    def _flush(self) -> None:
        """Append the rows gathered so far to the stage's tables."""
        self._rows.append_to(self._parts)
        self._records.flush()

    def _stage_citations(self, citations: Sequence[CitationRecord], rows: _Rows) -> None:
        """Add the citations' rows: an edge between two references by arXiv id alone, or
        the citation whole (in the records file) and the keys of its richer references."""
        cites = rows.rows["cites"]
        key_of = self._plain_key
        snapshot_ids = self._snapshot_ids
        seq = self._seq
        rich_keys: set[str] = set()
        for citation in citations:
            seq += 1
            citing = key_of(citation.citing)
            cited = key_of(citation.cited)
            if citing is not None and cited is not None:
                snap = snapshot_ids[citation.snapshot]
                cites.append((citing, cited, snap, citation.as_of, seq))
                continue
            rows.add("rich_cites", seq, self._records.add(citation))
            rich_keys.update(
                ref.key for ref in (citation.citing, citation.cited) if not _plain_key(ref)
            )
        self._seq = seq
        for key in rich_keys:
            rows.add("rich_keys", key)

    def _plain_key(self, ref: PaperRef) -> str | None:
        """``_plain_key(ref)``, remembered for a reference object by arXiv id alone (kept
        alive with its key, so its id is not reused while remembered)."""
        known = self._ref_keys.get(id(ref))
        if known is not None and known[0] is ref:
            return known[1]
        key = _plain_key(ref)
        if key is not None:
            if len(self._ref_keys) >= _KNOWN_REFS:
                self._ref_keys.clear()
            self._ref_keys[id(ref)] = (ref, key)
        return key

    def _add_papers(self, papers: Iterable[StagedPaper]) -> None:
        """Add staged records' rows (``_add_paper``), then their authors' spellings, each
        once."""
        names: set[tuple[str, str]] = set()
        for paper in papers:
            self._add_paper(paper, self._rows, names)
        for key, name in names:
            self._rows.add("names", key, name)

    def _end_batch(self) -> None:
        """Write the records kept whole, and append the rows once there are enough."""
        self._records.flush()
        if self._rows.count >= _APPEND_ROWS:
            self._flush()

    def _add_paper(self, paper: StagedPaper, rows: _Rows, names: set[tuple[str, str]]) -> None:
        """Add a staged record's rows: itself, its authors' spellings and, when it alone
        could be imported, its import cells, authors, categories and extra properties."""
        self._seq += 1
        key = paper.key
        names.update(paper.names)
        extras = 0
        if paper.cells is not None:
            authored = rows.rows["authored"]
            for position, author in enumerate(paper.authored, start=1):
                authored.append((key, author, position))
            for named, is_primary in paper.categories:
                self._categories[named["code"]] = named
                rows.add("paper_categories", key, named["code"], is_primary)
            if paper.extras is None:
                extras = -1
            else:
                for slot, value in enumerate(paper.extra_values):
                    rows.add("extras", key, slot, value)
                extras = self._extra_sets.setdefault(paper.extras, len(self._extra_sets))
        rows.add(
            "papers",
            key,
            self._seq,
            paper.cells is not None and extras >= 0,
            paper.snapshot,
            extras,
            self._records.add_pickled(paper.record),
            *(_NO_CELLS if paper.cells is None else paper.cells),
        )

    def block_stage(self, path: Path) -> BlockStage | None:
        """The BlockStage that stages ``path``'s lines in the stage's worker processes, when
        there are two or more and the file holds at least ``parallel_bytes``; else None."""
        try:
            size = path.stat().st_size
        except OSError:
            return None  # the parser says why it cannot read the file
        if self.workers < 2 or size < self.parallel_bytes:
            return None
        if self._workers is None:
            self._workers = StageWorkers(self.workers)
        return self._workers.staged

    def write_staged(self, block: StagedBlock) -> None:
        """Stage a block the worker processes staged (``stage_block``), as ``write_batch``
        stages its records."""
        self._add_papers(item for item in block.items if isinstance(item, StagedPaper))
        self._end_batch()

    # The import files: the part no rule touches.

    def write_csv(self, folder: Path) -> ImportFiles:
        """Split what was staged (see the module's docstring) and have DuckDB write the
        import part as CSVs for ``neo4j-admin database import full --id-type=string`` into
        ``folder``; return them."""
        folder.mkdir(parents=True, exist_ok=True)
        self._flush()
        self._seal()
        self._stage_lookups()
        files = write_import_files(DuckDBStage(self.db), folder)
        self.online_keys = self._count("online_keys")
        self.online_citations = self._count("rich_cites") + self._count("online_cites")
        self._split = True
        return files

    def write_parquet(self, folder: Path) -> Path:
        """Write the tables the split reads (``kg.load.stage_sql.PARQUET_TABLES``) as Parquet
        files into ``folder``, for the split on another engine (DuckDBStage.over_parquet,
        kg.load.spark_stage); return ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        self._flush()
        self._seal()
        self._stage_lookups()
        for table in PARQUET_TABLES:
            # the stage's own table names; a record's offset in the records file beside the
            # stage stays here, for the online part
            self.db.execute(
                f"COPY (SELECT * EXCLUDE (record) FROM {table}) TO ? (FORMAT parquet)"  # noqa: S608
                if table == "papers"
                else f"COPY {table} TO ? (FORMAT parquet)",
                [str(folder / f"{table}.parquet")],
            )
        return folder

    def _stage_lookups(self) -> None:
        """Stage the snapshots by number, the categories' names and the sets of extra link
        properties (a row a property: the set's number, its slot, name and import type), for
        the CSVs."""
        extra_sets = [
            {"number": number, "slot": slot, "name": name, "kind": kind}
            for extras, number in self._extra_sets.items()
            for slot, (name, kind) in enumerate(extras)
        ]
        lookups = {
            "snapshots": pa.table(
                {
                    "snap": pa.array(self._snapshot_ids.values(), pa.int32()),
                    "key": pa.array(self._snapshot_ids, pa.string()),
                }
            ),
            "category_names": pa.Table.from_pylist(
                list(self._categories.values()), schema=_schema("code:text name:text archive:text")
            ),
            "extra_sets": pa.Table.from_pylist(
                extra_sets, schema=_schema("number:int slot:int name:text kind:text")
            ),
        }
        for name, table in lookups.items():
            self.db.register("lookup", table)
            self.db.execute(f"CREATE OR REPLACE TABLE {name} AS FROM lookup")
            self.db.unregister("lookup")

    def _count(self, table: str) -> int:
        """The rows of a table of the stage (one of its own names, never user data)."""
        ((count,),) = self.db.execute(f"SELECT count(*) FROM {table}").fetchall()  # noqa: S608
        return int(count)

    # The online part.

    def author_spellings(self, chunk: int = 10_000) -> Iterator[list[dict[str, str]]]:
        """Yield, in chunks, every spelling of the authors spelled more than one way: the
        online writer's author_names statement gives each its smallest."""
        rows: list[dict[str, str]] = []
        for key, name in self._stream(
            "SELECT DISTINCT key, name FROM names WHERE key IN "
            "(SELECT key FROM names GROUP BY key HAVING count(DISTINCT name) > 1) "
            "ORDER BY key, name"
        ):
            rows.append({"key": key, "name": name, "norm_name": key})
            if len(rows) >= chunk:
                yield rows
                rows = []
        if rows:
            yield rows

    def online_batches(self, batch_size: int) -> Iterator[Batch]:
        """Yield, in batches of ``batch_size``, every record the import files left out, in
        the order read (edges by their ends): the online writer's statements apply the rules
        to them. Raises RuntimeError before ``write_csv``."""
        if not self._split:
            raise RuntimeError("write_csv splits the staged records: call it first")
        batch = Batch()
        for (at,) in self._stream(
            "SELECT record FROM papers SEMI JOIN online_keys USING (key) ORDER BY seq"
        ):
            batch.papers.append(self._records.read(at))
            if len(batch) >= batch_size:
                yield batch
                batch = Batch()
        for (at,) in self._stream("SELECT record FROM rich_cites ORDER BY seq"):
            batch.citations.append(self._records.read(at))
            if len(batch) >= batch_size:
                yield batch
                batch = Batch()
        snapshot_keys = list(self._snapshot_ids)
        for citing, cited, snap, as_of in self._stream(
            "SELECT citing, cited, snap, as_of FROM online_cites ORDER BY citing, cited, seq"
        ):
            batch.citations.append(
                CitationRecord.model_construct(
                    origin=Origin.model_construct(path=self._sources[snap], line=1),
                    snapshot=snapshot_keys[snap],
                    as_of=as_of,
                    citing=PaperRef.model_construct(arxiv_id=citing),
                    cited=PaperRef.model_construct(arxiv_id=cited),
                )
            )
            if len(batch) >= batch_size:
                yield batch
                batch = Batch()
        if len(batch):
            yield batch

    def _stream(self, query: str) -> Iterator[tuple[Any, ...]]:
        """Yield the rows of ``query`` a chunk at a time, as DuckDB streams them."""
        reader = self.db.sql(query).to_arrow_reader(_FETCH_ROWS)
        for chunk in reader or ():
            yield from zip(*(column.to_pylist() for column in chunk.columns), strict=True)


class _Rows:
    """Rows for the stage, per table, appended to it as one Arrow table per table."""

    def __init__(self) -> None:
        self.rows: dict[str, list[tuple[Any, ...]]] = {table: [] for table in _TABLES}
        self.tables: list[tuple[str, pa.Table]] = []
        """Rows that came as Arrow tables already, with the table they go to."""

    @property
    def count(self) -> int:
        """The rows gathered, in all tables."""
        return sum(map(len, self.rows.values())) + sum(len(rows) for _, rows in self.tables)

    def add(self, table: str, *values: Any) -> None:
        self.rows[table].append(values)

    def add_table(self, table: str, rows: pa.Table) -> None:
        """Add rows to ``table`` that are an Arrow table of its schema already."""
        self.tables.append((table, rows))

    def append_to(self, parts: _Parts) -> None:
        """Append each table's rows, if any, to its table's part file, and forget them."""
        for table, arrow in self.tables:
            parts.append(table, arrow)
        self.tables.clear()
        for table, rows in self.rows.items():
            if rows:
                schema = _TABLES[table]
                columns = [
                    pa.array(column, kind)
                    for column, kind in zip(zip(*rows, strict=True), schema.types, strict=True)
                ]
                parts.append(table, pa.Table.from_arrays(columns, schema=schema))
                rows.clear()


class _Parts:
    """The stage's tables while files are read: a Parquet file each in ``folder``, a row
    group an append. Appending to a Parquet file costs a fraction of inserting the rows into
    DuckDB's own tables, and takes less disk (docs/BENCHMARKS.md, "The stage in worker
    processes"); once every file is read, DuckDB reads them as views of the tables' names
    (``seal``)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.paths = {table: folder / f"{table}.parquet" for table in _TABLES}
        self.writers: dict[str, pq.ParquetWriter] | None = {
            table: pq.ParquetWriter(path, _TABLES[table], compression="zstd")
            for table, path in self.paths.items()
        }
        self.sealed = False

    def append(self, table: str, rows: pa.Table) -> None:
        """Append ``rows`` (of the table's schema) to the table. Raises RuntimeError once
        sealed."""
        if self.writers is None:
            raise RuntimeError("the stage's tables are sealed: nothing more can be staged")
        self.writers[table].write_table(rows)

    def seal(self, db: duckdb.DuckDBPyConnection) -> None:
        """Close the files and have ``db`` read each as a view of its table's name (once)."""
        if self.sealed:
            return
        self.close()
        for table, path in self.paths.items():
            db.read_parquet(str(path)).create_view(table)
        self.sealed = True

    def close(self) -> None:
        """Close the files, once: every one, even when one fails (raised after)."""
        writers, self.writers = self.writers, None
        failed: Exception | None = None
        for writer in (writers or {}).values():
            try:
                writer.close()
            except Exception as error:  # a full disk: the others still close
                failed = failed or error
        if failed is not None:
            raise failed


class _Records:
    """Records kept whole, pickled one after the other in a file beside the stage, each
    read back by its offset: only those the online writer gets are ever read. Appending
    bytes to a file costs far less than storing them in a DuckDB column.

    Each flush writes the records kept since the last one as a frame, compressed with zstd
    (a frame's size, then its bytes): a block of records takes a quarter of its pickles'
    space or less (4.5x smaller on cit-HepTh's abstracts). A record's offset counts the
    pickles' bytes before it, as if they were stored plain; reading one decompresses its
    frame, and the last frame read stays decompressed, since the online writer reads them in
    order."""

    def __init__(self, path: Path) -> None:
        self.file = path.open("w+b")
        self.size = 0
        self.pending: list[bytes] = []
        self._frames: list[int] = []
        """Where each frame starts in the file."""
        self._starts: list[int] = []
        """The offset of each frame's first record."""
        self._codec = pa.Codec("zstd", compression_level=1)
        self._read: tuple[int, memoryview] | None = None
        """The last frame read: its first record's offset and its pickles."""

    def add(self, record: PaperRecord | CitationRecord) -> int:
        """Keep ``record``; return its offset."""
        return self.add_pickled(pickle.dumps(record, pickle.HIGHEST_PROTOCOL))

    def add_pickled(self, data: bytes) -> int:
        """Keep a record pickled as ``data``; return its offset."""
        at = self.size
        self.pending.append(data)
        self.size += len(data)
        return at

    def flush(self) -> None:
        """Write the records kept since the last flush, as a frame."""
        if self.pending:
            plain = b"".join(self.pending)
            packed = self._codec.compress(plain, asbytes=True)
            self.file.seek(0, os.SEEK_END)
            self._frames.append(self.file.tell())
            self._starts.append(self.size - len(plain))
            self.file.write(_FRAME_HEAD.pack(len(packed), len(plain)))
            self.file.write(packed)
            self.pending.clear()

    def read(self, at: int) -> Any:
        """The record kept at offset ``at``."""
        self.flush()
        frame = bisect.bisect_right(self._starts, at) - 1
        start = self._starts[frame]
        if self._read is None or self._read[0] != start:
            self.file.seek(self._frames[frame])
            packed, plain = _FRAME_HEAD.unpack(self.file.read(_FRAME_HEAD.size))
            data = self._codec.decompress(self.file.read(packed), plain, asbytes=True)
            self._read = (start, memoryview(data))
        # bytes past a pickle's end are not read
        return pickle.loads(self._read[1][at - start :])

    def close(self) -> None:
        self.file.close()


_FRAME_HEAD = struct.Struct("<QQ")
"""A frame of the records file: its compressed size and its pickles' size."""


class StagedPaper(NamedTuple):
    """What the stage keeps of a full record, worked out from the record alone
    (``staged_paper``), so in any process: ``ImportSink`` adds its rows in input order."""

    key: str
    snapshot: str
    record: bytes
    """The record, pickled (kept whole for the online writer)."""
    names: tuple[tuple[str, str], ...]
    """(name key, spelling) of each author not keyed by a source's ids."""
    cells: tuple[Any, ...] | None
    """Its import cells in ``_CELLS`` order; None when it goes online whatever the split."""
    authored: tuple[str, ...]
    """With cells: its authors' keys in order."""
    categories: tuple[tuple[dict[str, Any], bool], ...]
    """With cells: its category rows (``category_row``), each with whether it is primary."""
    extras: tuple[tuple[str, str], ...] | None
    """With cells: the (name, import type) of its extra link properties, sorted; None when
    two of their columns would clash."""
    extra_values: tuple[str | None, ...]
    """With cells and extras: their CSV texts, in that order."""


def staged_paper(record: PaperRecord) -> StagedPaper:
    """What the stage keeps of a full record: it, its authors' spellings and, when it alone
    could be imported, its import cells (the values papers, authors and categories.cypher
    write on a new node, and its link's), authors, categories and extra properties."""
    key = record.key
    authors = [_name_key(name) for name in record.authors]
    if record.author_ids:
        # an author a source gives ids for is keyed by them, and written online
        names = tuple(
            (author, name)
            for author, name, ids in zip(authors, record.authors, record.author_ids, strict=True)
            if not ids
        )
    else:
        names = tuple(zip(authors, record.authors, strict=True))
    record_bytes = pickle.dumps(record, pickle.HIGHEST_PROTOCOL)
    # A record with strong ids besides arXiv's, or its authors', goes online: the rules
    # for strong ids may merge its paper or its authors with others (reconcile_ids,
    # reconcile_authors)
    if (
        key.startswith(_TITLE_PREFIX)
        or record.ids
        or record.author_ids
        or len(set(authors)) != len(authors)
        or _splits_in_import(record)
    ):
        return StagedPaper(key, record.snapshot, record_bytes, names, None, (), (), (), ())
    row = paper_row(record, key)
    row["stub"] = False
    row["years"] = [record.year] if record.year is not None else None
    if authors:
        row["authors_as_of"] = row["as_of"]
    categories: tuple[tuple[dict[str, Any], bool], ...] = ()
    if record.primary_category:
        row["categories_as_of"] = as_of_key(record.as_of, record.snapshot)
        categories = _categories(record)
        row["primary_category"] = categories[0][0]["code"]
    described = {name: value for name, value in row["extra"].items() if value is not None}
    described.update((link.name, row[link.row]) for link in LINK_PROPERTIES)
    cells = tuple(
        [
            value if value is None or native else _text(value, kind)
            for value, (name, kind, native) in zip(
                map(row.get, _PAPER_NAMES), _STAGED_PAPER, strict=True
            )
        ]
        + [
            value if value is None or native else _text(value, kind)
            for value, (name, kind, native) in zip(
                map(described.__getitem__, _DESCRIBED_ORDER), _STAGED_DESCRIBED, strict=True
            )
        ]
    )
    extras, extra_values = _extras(described)
    return StagedPaper(
        key, record.snapshot, record_bytes, names, cells, tuple(authors), categories, extras,
        extra_values,
    )  # fmt: skip


def stage_block(
    line_items: LineItems, path: str, snapshot: str, block: list[NumberedLine]
) -> StagedBlock:
    """A block of a file's lines as the stage keeps them (``ImportSink``'s BlockStage, run
    in its worker processes): each line's items (``line_items``), a full record as its
    StagedPaper, anything else (a reject, a skip) as it is; and the records' dates."""
    dates: list[date | None] = []
    items: list[object] = []
    for number, line in block:
        for item in line_items(path, snapshot, number, line):
            if isinstance(item, PaperRecord):
                dates.append(item.as_of)
                items.append(staged_paper(item))
            elif isinstance(item, CitationRecord | SnapshotRecord):  # pragma: no cover
                raise TypeError(f"{type(item).__name__} in a block of independent lines")
            else:
                items.append(item)
    return StagedBlock(dates, items)


def _categories(record: PaperRecord) -> tuple[tuple[dict[str, Any], bool], ...]:
    """A record's PRIMARY_CATEGORY row then its CROSS_LISTED rows (each code once, the
    primary's own spelling not again), each with whether it is primary."""
    primary = _category_row(str(record.primary_category))
    cross = {
        named["code"]: named
        for named, raw in zip(
            map(_category_row, record.cross_categories), record.cross_categories, strict=True
        )
        if raw != record.primary_category
    }
    return ((primary, True), *((named, False) for named in cross.values()))


def _extras(
    described: dict[str, Any],
) -> tuple[tuple[tuple[str, str], ...] | None, tuple[str | None, ...]]:
    """A record's extra link properties: their (name, import type), sorted, and their CSV
    texts; (None, ()) when two columns would have one name in DuckDB, which compares names
    regardless of case (such a paper goes online)."""
    extras = tuple(
        sorted(
            (name, _kind(value))
            for name, value in described.items()
            if name not in _DESCRIBED_NAMES
        )
    )
    columns = [name.casefold() for name in (*_DESCRIBED_NAMES, *(name for name, _ in extras))]
    if len(set(columns)) != len(columns):
        return None, ()
    return extras, tuple(_text(described[name], kind) for name, kind in extras)


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


def _kind(value: Any) -> str:
    """The import type of an extra property value."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _text(value: Any, kind: str) -> str | None:
    """A value's CSV text as the import reads the type, before quoting; None for none."""
    if value is None:
        return None
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "double":
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(float(value))
    if kind.endswith("[]"):
        return ";".join(str(item) for item in value)
    return value.isoformat() if isinstance(value, date) else str(value)
