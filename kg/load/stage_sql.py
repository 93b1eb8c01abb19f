"""Bulk mode's split and import files, as SQL that DuckDB and Spark both run.

The stage (``kg.load.import_sink.ImportSink``) holds the parsed records as tables: papers,
names, authored, paper_categories, extras, cites, rich_keys, and the lookups snapshots,
category_names and extra_sets. ``write_import_files`` splits them (``SPLIT``: what no rule
can touch goes to neo4j-admin import) and writes the import CSVs (``import_files``), through
a ``StageEngine``:

- ``DuckDBStage``: DuckDB, over the stage's own tables or over the Parquet files that
  ``ImportSink.write_parquet`` writes (``DuckDBStage.over_parquet``); DuckDB's ``COPY``
  writes the CSVs.
- ``kg.load.spark_stage.SparkStage``: Spark, over the same Parquet files, for a stage past
  one machine (``pip install 'kg-map[spark]'``).

The statements are written once, in the SQL both engines accept (``ANTI JOIN ... USING``,
``FILTER (WHERE ...)``, ``bool_and``), and both engines write the same CSV rows (in any order:
tests/unit/test_stage_spark.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import duckdb

from loaders.paper_properties import DESCRIBED_COLUMNS, PAPER_COLUMNS

__all__ = [
    "PARQUET_TABLES",
    "SPLIT",
    "Column",
    "DuckDBStage",
    "ImportFile",
    "ImportFiles",
    "Split",
    "StageEngine",
    "csv_header",
    "import_files",
    "write_import_files",
]

# The stage's tables the split reads, as Parquet files of these names (``<table>.parquet``).
PARQUET_TABLES = (
    "papers",
    "names",
    "authored",
    "paper_categories",
    "extras",
    "cites",
    "rich_keys",
    "snapshots",
    "category_names",
    "extra_sets",
)


class Split(NamedTuple):
    """A table of the split: its name, its query, and whether it is kept (or read anew)."""

    name: str
    query: str
    kept: bool


# The split, once every record is staged. The papers a rule may touch: named richly, or
# with several records, or with one that cannot be imported alone (titled only, strong ids,
# an author named twice, ';' in an array, extra properties whose names differ only in case).
# The edges: stated more than once, or touching such a paper.
SPLIT = (
    Split(
        "online_keys",
        "SELECT key FROM rich_keys UNION "
        "SELECT key FROM papers GROUP BY key HAVING count(*) > 1 OR NOT bool_and(plain)",
        kept=True,
    ),
    Split("import_papers", "SELECT * FROM papers ANTI JOIN online_keys USING (key)", kept=False),
    Split(
        "online_pairs",
        "SELECT citing, cited FROM cites GROUP BY citing, cited HAVING count(*) > 1 "
        "OR citing IN (SELECT key FROM online_keys) OR cited IN (SELECT key FROM online_keys)",
        kept=True,
    ),
    Split(
        "online_cites",
        "SELECT * FROM cites SEMI JOIN online_pairs USING (citing, cited)",
        kept=False,
    ),
)

# The stubs: papers named only by references by arXiv id, with stub and arxiv_id alone.
_STUBS = (
    "SELECT key, true, key"
    + ", NULL" * (len(PAPER_COLUMNS) - 2)
    + " FROM (SELECT citing AS key FROM cites UNION SELECT cited FROM cites)"
    " ANTI JOIN papers USING (key) ANTI JOIN online_keys USING (key)"
)


class Column(NamedTuple):
    """A column of an import CSV: the SQL expression of its cells, its header (as
    neo4j-admin import reads it) and its import type."""

    expression: str
    header: str
    kind: str

    @property
    def quoted(self) -> bool:
        """Strings and arrays (ids too) are always quoted, so an empty string stays a
        string and an empty cell is no property."""
        return self.kind == "string" or self.kind.endswith("[]")


def _columns(*pairs: str) -> tuple[Column, ...]:
    """Columns from 'expression header' words; the import type is the header's (an id's
    and an untyped header's is string)."""
    columns = []
    for pair in pairs:
        expression, header = pair.split(" ")
        kind = header.partition(":")[2] or "string"
        columns.append(Column(expression, header, "string" if "ID(" in kind else kind))
    return tuple(columns)


@dataclass(frozen=True)
class ImportFile:
    """One import CSV: nodes of a label or relationships of a type, written from the rows of
    ``source`` (a query's FROM and the rest)."""

    relationship: bool
    group: str
    name: str
    columns: tuple[Column, ...]
    source: str


_PAPER_FILE = ImportFile(
    False,
    "Paper",
    "papers",
    (
        Column("key", "key:ID(Paper)", "string"),
        *(Column(f"p_{name}", f"{name}:{kind}", kind) for name, kind in PAPER_COLUMNS),
    ),
    # the stubs' columns take the papers' names
    f"FROM (SELECT key, {', '.join(f'p_{name}' for name, _ in PAPER_COLUMNS)} "  # noqa: S608
    f"FROM import_papers UNION ALL {_STUBS}) u",
)
_CATEGORY_ENDS = _columns("key :START_ID(Paper)", "code :END_ID(Category)")
_LIST_FILES = (
    ImportFile(
        True,
        "AUTHORED",
        "authored",
        _columns("author :START_ID(Author)", "key :END_ID(Paper)", "position position:long"),
        "FROM authored ANTI JOIN online_keys USING (key)",
    ),
    *(
        ImportFile(
            True,
            kind,
            name,
            _CATEGORY_ENDS,
            f"FROM paper_categories ANTI JOIN online_keys USING (key) WHERE {primary}is_primary",
        )
        for kind, name, primary in (
            ("PRIMARY_CATEGORY", "primary_category", ""),
            ("CROSS_LISTED", "cross_listed", "NOT "),
        )
    ),
)
# The edges asserted once between imported papers; each author with one of its spellings
# (author_spellings gives the online writer every spelling of the authors that have several,
# and it keeps the smallest); the imported papers' categories; the snapshots.
_LAST_FILES = (
    ImportFile(
        True,
        "CITES",
        "cites",
        _columns(
            "c.citing :START_ID(Paper)",
            "c.cited :END_ID(Paper)",
            "s.key snapshots:string[]",
            "c.as_of first_seen:date",
            "c.as_of last_seen:date",
        ),
        "FROM cites c ANTI JOIN online_pairs USING (citing, cited) JOIN snapshots s USING (snap)",
    ),
    ImportFile(
        False,
        "Author",
        "authors",
        _columns("key key:ID(Author)", "min(name) name"),
        "FROM names GROUP BY key",
    ),
    ImportFile(
        False,
        "Category",
        "categories",
        _columns("code code:ID(Category)", "name name", "archive archive"),
        "FROM category_names SEMI JOIN (SELECT code FROM paper_categories "
        "ANTI JOIN online_keys USING (key)) c USING (code) ORDER BY code",
    ),
    ImportFile(
        False,
        "Snapshot",
        "snapshots",
        _columns("key key:ID(Snapshot)"),
        "FROM snapshots ORDER BY snap",
    ),
)


class StageEngine(Protocol):
    """An engine that runs the split's SQL over the stage's tables and writes CSVs."""

    def create(self, name: str, query: str, kept: bool) -> None:
        """Name the result of ``query`` ``name``; keep it when ``kept`` (else a view)."""

    def rows(self, query: str) -> list[tuple[Any, ...]]:
        """Return the rows of a small result."""

    def write_csv(self, path: Path, file: ImportFile) -> int:
        """Write ``file`` as the CSV ``path``, a header and its rows; return its rows."""


def import_files(engine: StageEngine) -> list[ImportFile]:
    """Return the import files of a split stage, in the order they are written: papers,
    lists, one DESCRIBED_IN file per set of extra link properties, edges, authors,
    categories, snapshots."""
    sets: dict[int, list[tuple[str, str]]] = {}
    for number, name, kind in engine.rows(
        "SELECT number, name, kind FROM extra_sets ORDER BY number, slot"
    ):
        sets.setdefault(int(number), []).append((str(name), str(kind)))
    described = [
        _described(int(number), sets.get(int(number), []))
        for (number,) in engine.rows("SELECT DISTINCT extras FROM import_papers ORDER BY extras")
    ]
    return [_PAPER_FILE, *_LIST_FILES, *described, *_LAST_FILES]


def _described(number: int, extras: list[tuple[str, str]]) -> ImportFile:
    """The DESCRIBED_IN links of the imported papers with the set ``number`` of extra
    properties, ``extras`` (name, import type): a column has one type, and their values
    are gathered from their rows by slot."""
    source = "FROM import_papers p"
    if extras:
        gathered = ", ".join(
            f"max(value) FILTER (WHERE slot = {slot}) AS e{slot}" for slot in range(len(extras))
        )
        # the stage's own names and slot numbers, never user data
        source += f" JOIN (SELECT key, {gathered} FROM extras GROUP BY key) x ON x.key = p.key"  # noqa: S608
    columns = (
        *_columns("p.key :START_ID(Paper)", "p.snapshot :END_ID(Snapshot)"),
        *(Column(f"p.d_{name}", f"{name}:{kind}", kind) for name, kind in DESCRIBED_COLUMNS),
        *(Column(f"x.e{slot}", f"{name}:{kind}", kind) for slot, (name, kind) in enumerate(extras)),
    )
    source += f" WHERE p.extras = {number}"
    return ImportFile(True, "DESCRIBED_IN", f"described_in_{number}", columns, source)


@dataclass
class ImportFiles:
    """The CSV files for neo4j-admin import and what they hold."""

    nodes: dict[str, list[Path]] = field(default_factory=dict)
    relationships: dict[str, list[Path]] = field(default_factory=dict)
    multiline: list[Path] = field(default_factory=list)
    node_counts: dict[str, int] = field(default_factory=dict)
    relationship_counts: dict[str, int] = field(default_factory=dict)

    def add(self, file: ImportFile, path: Path, count: int) -> None:
        """Note ``path``, the CSV of ``file`` with ``count`` rows, and whether values in it
        have line breaks."""
        paths, counts = (
            (self.relationships, self.relationship_counts)
            if file.relationship
            else (self.nodes, self.node_counts)
        )
        paths.setdefault(file.group, []).append(path)
        counts[file.group] = counts.get(file.group, 0) + count
        if _has_line_breaks(path, count) and path not in self.multiline:
            self.multiline.append(path)

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


def write_import_files(engine: StageEngine, folder: Path) -> ImportFiles:
    """Split the stage ``engine`` reads (``SPLIT``) and have it write the import part as CSVs
    for ``neo4j-admin database import full --id-type=string`` into ``folder``; return them."""
    folder.mkdir(parents=True, exist_ok=True)
    for split in SPLIT:
        engine.create(split.name, split.query, split.kept)
    files = ImportFiles()
    for file in import_files(engine):
        path = folder / f"{file.name}.csv"
        files.add(file, path, engine.write_csv(path, file))
    return files


def csv_header(file: ImportFile) -> str:
    """The header line of ``file``'s CSV as DuckDB writes it: a quoted column's name
    quoted, another's only when it holds a comma, a quote or a line break."""
    return ",".join(
        _quote(column.header)
        if column.quoted or any(c in column.header for c in ',"\r\n')
        else column.header
        for column in file.columns
    )


class DuckDBStage:
    """The split and the import files in DuckDB: ``COPY`` writes each CSV."""

    def __init__(self, db: duckdb.DuckDBPyConnection) -> None:
        self.db = db

    @classmethod
    def over_parquet(cls, folder: Path) -> DuckDBStage:
        """Return a stage in a new in-memory DuckDB that reads the Parquet tables in
        ``folder`` (as ``ImportSink.write_parquet`` writes them)."""
        db = duckdb.connect(config={"preserve_insertion_order": False})
        for table in PARQUET_TABLES:
            db.read_parquet(str(folder / f"{table}.parquet")).create_view(table)
        return cls(db)

    def create(self, name: str, query: str, kept: bool) -> None:
        kind = "TABLE" if kept else "VIEW"
        self.db.execute(f"CREATE OR REPLACE {kind} {name} AS {query}")

    def rows(self, query: str) -> list[tuple[Any, ...]]:
        return self.db.execute(query).fetchall()

    def write_csv(self, path: Path, file: ImportFile) -> int:
        selected = ", ".join(f"{c.expression} AS {_quote(c.header)}" for c in file.columns)
        quoted = ", ".join(_quote(c.header) for c in file.columns if c.quoted)
        ((count,),) = self.db.execute(
            f"COPY (SELECT {selected} {file.source}) TO ? "
            f"(FORMAT csv, HEADER true, FORCE_QUOTE ({quoted}))",
            [str(path)],
        ).fetchall()
        return int(count)


def _has_line_breaks(path: Path, rows: int) -> bool:
    """Whether a CSV of ``rows`` rows and a header has line breaks inside values: then
    neo4j-admin import must be told (--multiline-fields)."""
    lines = 0
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 24):
            if b"\r" in chunk:
                return True
            lines += chunk.count(b"\n")
    return lines != rows + 1


def _quote(name: str) -> str:
    """``name`` in double quotes, its quotes doubled: a DuckDB identifier, a CSV cell."""
    return '"' + name.replace('"', '""') + '"'
