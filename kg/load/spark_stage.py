"""Bulk mode's split and import files on Spark, for a stage past one machine.

``write_import_files_on_spark`` reads the Parquet tables ``ImportSink.write_parquet`` wrote,
runs the split and the import files' queries of ``kg.load.stage_sql`` (the same statements
DuckDB runs) and writes the same CSV rows DuckDB's ``COPY`` writes, in any order. pyspark is
an optional extra (``pip install 'kg-map[spark]'``), imported only here and only when asked.

Each CSV row is one text cell built in SQL, quoted as DuckDB quotes (a string or an array
always, its quotes doubled; an empty cell for no value), so Spark's text writer adds nothing.
Spark writes a folder of part files in parallel; they are then joined, after the header, into
the one file neo4j-admin import is given.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import ConfigError
from kg.load.stage_sql import (
    PARQUET_TABLES,
    Column,
    ImportFile,
    ImportFiles,
    csv_header,
    write_import_files,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["SparkStage", "local_spark", "write_import_files_on_spark"]


def _spark_sql() -> Any:
    """Return the module pyspark.sql. Raises ConfigError when pyspark is not installed."""
    try:
        import pyspark.sql
    except ImportError as error:
        raise ConfigError(
            "staging on Spark needs pyspark, which is not installed",
            "pip install 'kg-map[spark]' (pyspark, with Java 17 or newer)",
        ) from error
    return pyspark.sql


@contextmanager
def local_spark(
    cores: int = 2, partitions: int = 4, config: Mapping[str, str] | None = None
) -> Iterator[SparkSession]:
    """Yield a Spark session in local mode on ``cores`` cores, shuffling into
    ``partitions`` partitions, with no web UI and the Spark settings ``config``; stop it on
    exit. Raises ConfigError when pyspark is not installed."""
    builder = (
        _spark_sql()
        .SparkSession.builder.master(f"local[{cores}]")
        .appName("kg-stage")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", str(partitions))
    )
    for key, value in (config or {}).items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    try:
        yield session
    finally:
        session.stop()


class SparkStage:
    """The split and the import files in Spark, over the Parquet tables in ``folder``."""

    def __init__(self, spark: SparkSession, folder: Path) -> None:
        self.spark = spark
        self._kept: list[Any] = []
        for table in PARQUET_TABLES:
            spark.read.parquet(str(folder / f"{table}.parquet")).createOrReplaceTempView(table)

    def create(self, name: str, query: str, kept: bool) -> None:
        frame = self.spark.sql(query)
        if kept:
            frame = frame.cache()
            self._kept.append(frame)
        frame.createOrReplaceTempView(name)

    def rows(self, query: str) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.spark.sql(query).collect()]

    def write_csv(self, path: Path, file: ImportFile) -> int:
        functions = _spark_sql().functions
        observation = _spark_sql().Observation(file.name)
        line = " || ',' || ".join(_cell(column) for column in file.columns)
        parts = path.with_name(path.name + ".parts")
        (
            self.spark.sql(f"SELECT {line} AS line {file.source}")
            .observe(observation, functions.count(functions.lit(1)).alias("rows"))
            .write.mode("overwrite")
            .text(str(parts))
        )
        with path.open("wb") as out:
            out.write(csv_header(file).encode() + b"\n")
            for part in sorted(parts.glob("part-*")):
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, out, 1 << 20)
        shutil.rmtree(parts)
        return int(observation.get["rows"])

    def release(self) -> None:
        """Drop the split's kept tables from Spark's cache."""
        for frame in self._kept:
            frame.unpersist()
        self._kept.clear()


def write_import_files_on_spark(
    tables: Path, folder: Path, spark: SparkSession | None = None
) -> ImportFiles:
    """Split the stage in ``tables`` (the Parquet files ``ImportSink.write_parquet`` wrote)
    on Spark and write the import CSVs into ``folder``; return them. ``spark`` is the
    session to run on: a cluster's, when both folders are on a file system its executors
    share with this machine (which joins each file's parts); without it, a local one on
    two cores.

    Raises ConfigError when pyspark is not installed."""
    if spark is None:
        with local_spark() as session:
            return write_import_files_on_spark(tables, folder, session)
    stage = SparkStage(spark, tables)
    try:
        return write_import_files(stage, folder)
    finally:
        stage.release()


def _cell(column: Column) -> str:
    """The SQL of a column's CSV cell as DuckDB's COPY writes it: a string or an array
    quoted with its quotes doubled, any other type as its text, no value as nothing."""
    text = f"CAST({column.expression} AS STRING)"
    if column.quoted:
        text = f"""concat('"', replace({text}, '"', '""'), '"')"""
    return f"coalesce({text}, '')"
