"""Bulk mode's split on Spark (kg.load.spark_stage): pyspark in local mode, over the Parquet
tables the DuckDB stage writes, gives the same import files as DuckDB, row for row (in any
order), and a missing pyspark is a clear error."""

from __future__ import annotations

import csv
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from kg.errors import ConfigError
from kg.load.import_sink import ImportSink
from kg.load.rows import Batch
from kg.load.spark_stage import local_spark, write_import_files_on_spark
from kg.load.stage_sql import DuckDBStage, ImportFiles, write_import_files
from loaders.records import PaperRef, SnapshotRecord
from tests.data import in_ci
from tests.unit.test_import_stage import TRICKY, _cite, _paper

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

# A small input that reaches every import file and every rule of the split: quotes and a line
# break in a title, arrays, two sets of extra properties (a double, a boolean, an empty
# string), an author spelled two ways, categories, stubs, a paper with two records, an edge
# stated twice, a richer reference.
BATCHES = [
    Batch(
        papers=[
            _paper(
                "2101.00001",
                1,
                title=TRICKY,
                authors=("Ann Lee", "Bo Chen"),
                topics=("x", "y"),
                year=2021,
                primary_category="hep-th",
                cross_categories=("gr-qc", "hep-th"),
                extra={"score": 0.5, "flag": True, "note": ""},
            ),
            _paper("2101.00002", 2, title="Twice"),
            _paper("2101.00003", 3, title="Plain", authors=("ann  lee",), extra={"pages": 12}),
            _paper("2101.00006", 6, title="No extras", primary_category="gr-qc"),
        ],
        citations=[_cite("2101.00001", "2101.00009", 1), _cite("2101.00003", "2101.00001", 2)],
    ),
    Batch(
        papers=[_paper("2101.00002", 5, title="Twice again")],
        citations=[
            _cite("2101.00001", "2101.00002", 3),
            _cite("2101.00001", PaperRef(arxiv_id="2101.00005", year=2020), 4),
            _cite("2101.00009", "2101.00006", 5),
            _cite("2101.00009", "2101.00006", 6, "s2"),
            _cite("2101.00006", "2101.00007", 7, "s2"),
        ],
    ),
]


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    """One local Spark session for the module: two cores, two shuffle partitions, no UI."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        if in_ci():
            pytest.fail("pyspark is missing: make install puts it in (the dev extra)")
        pytest.skip("pyspark is not installed: pip install 'kg-map[spark]'")
    # A short run over a few rows: the JVM's quick compiler alone, and Spark's interpreted
    # plans in place of generated code, cost less here than compiling for speed
    quick = {
        "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
        "spark.sql.codegen.wholeStage": "false",
        "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    }
    with local_spark(2, 2, quick) as session:
        yield session


@pytest.fixture
def staged(tmp_path: Path) -> Iterator[ImportSink]:
    """A stage holding BATCHES, closed at the end."""
    sink = ImportSink(tmp_path / "stage.duckdb", "64MB")
    for name in ("s1", "s2"):
        sink.write_snapshot(
            SnapshotRecord(key=name, kind="edge_list", source=f"{name}.txt", sha256="0" * 64)
        )
    for batch in BATCHES:
        sink.write_batch(batch)
    yield sink
    sink.close()


def _content(files: ImportFiles) -> dict[str, object]:
    """What the import files hold, whatever their folder and the order of their rows: per
    file its header line, its raw lines as a multiset and its parsed rows as a multiset;
    and the files' groups, counts and which have line breaks."""
    content: dict[str, object] = {}
    for group in (files.nodes, files.relationships):
        for name, paths in group.items():
            for path in paths:
                text = path.read_text(encoding="utf-8")
                header, _, body = text.partition("\n")
                with path.open(encoding="utf-8", newline="") as handle:
                    rows = Counter(tuple(row) for row in list(csv.reader(handle))[1:])
                content[f"{name} {path.name}"] = (header, Counter(body.splitlines()), rows)
    content["counts"] = (files.node_counts, files.relationship_counts)
    content["multiline"] = sorted(path.name for path in files.multiline)
    return content


def test_spark_writes_the_import_files_duckdb_writes(
    spark: SparkSession, staged: ImportSink, tmp_path: Path
) -> None:
    tables = staged.write_parquet(tmp_path / "tables")
    on_duckdb = staged.write_csv(tmp_path / "duckdb")
    on_spark = write_import_files_on_spark(tables, tmp_path / "spark", spark)
    on_parquet = write_import_files(DuckDBStage.over_parquet(tables), tmp_path / "parquet")
    expected = _content(on_duckdb)
    # the input reaches every file: papers with stubs, both sets of extras, the lists
    # imported: 00001, 00003, 00006 and the stubs 00007, 00009 (00002 has two records,
    # 00005 is named with a year); authors "ann lee" (spelled two ways) and "bo chen"; the
    # edges stated once between imported papers; a DESCRIBED_IN file per set of extras
    assert expected["counts"] == (
        {"Paper": 5, "Author": 2, "Category": 2, "Snapshot": 2},
        {
            "AUTHORED": 3,
            "PRIMARY_CATEGORY": 2,
            "CROSS_LISTED": 1,
            "DESCRIBED_IN": 3,
            "CITES": 3,
        },
    )
    assert len(on_duckdb.relationships["DESCRIBED_IN"]) == 3
    assert expected["multiline"] == ["papers.csv"]
    assert _content(on_spark) == expected
    assert _content(on_parquet) == expected
    assert on_spark.import_arguments() == [
        argument.replace(str(tmp_path / "duckdb"), str(tmp_path / "spark"))
        for argument in on_duckdb.import_arguments()
    ]


def test_a_missing_pyspark_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a None in sys.modules makes the import fail, as when pyspark is not installed
    monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    with pytest.raises(ConfigError, match=r"pip install 'kg-map\[spark\]'"):
        write_import_files_on_spark(tmp_path, tmp_path / "csv")
