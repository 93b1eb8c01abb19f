"""The import tool's input formats, side by side (issue 36): bulk mode's stage written as
CSV (what ``kg load --bulk`` writes), as gzipped CSV, and as Parquet, each imported with
``neo4j-admin database import full`` into the same fresh local server.

    python -m tests.bench.import_formats --scales 1,10 --out docs/BENCHMARKS-import-formats.md

For each scale (1: the real cit-HepTh; k: a synthetic set of k x 27,770 papers, as in
``tests.bench.ingest``), bulk mode loads the data once with its CSVs and staging store kept.
Then the stage is split and its import files written again from that store, by the same
SQL (``kg.load.stage_sql``), as gzipped CSV and as Parquet (arrays as Parquet lists), and each
format is imported in turn, CSV first and last; after each import the server starts and the
graph's checksum is compared with the first CSV import's. The write time of the CSVs is bulk
mode's own ``csv`` stage.

The import tool reads Parquet (a public beta since Neo4j 5.25) through Hadoop's classes,
four of whose jars the Neo4j artifact on Maven Central does not bring (woodstox, stax2,
commons-collections4, Hadoop's shaded Guava): this benchmark fetches them with Maven into
its own server's lib folder, and kg's installer does not.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb

from kg.load.bulk import run_import
from kg.load.stage_sql import SPLIT, Column, DuckDBStage, _quote, import_files
from kg.server.install import _maven_copy, find_java, find_mvn
from tests.bench.common import load_average, machine
from tests.bench.ingest import Bench, DataSet, checksum, datasets, run_child

PARQUET_JARS = [
    ("com.fasterxml.woodstox", "woodstox-core", "6.5.1"),
    ("org.codehaus.woodstox", "stax2-api", "4.2.1"),
    ("org.apache.commons", "commons-collections4", "4.4"),
    ("org.apache.hadoop.thirdparty", "hadoop-shaded-guava", "1.3.0"),
]
FORMATS = ("csv", "csv.gz", "parquet")


def _log(message: str) -> None:
    print(f"[import_formats {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _cell(column: Column, fmt: str) -> str:
    """The SQL of a column's cells in ``fmt``: arrays, staged as ';'-joined text for the
    CSVs, become Parquet lists."""
    if fmt != "parquet" or not column.kind.endswith("[]"):
        return column.expression
    listed = f"string_split({column.expression}, ';')"
    return listed if column.kind == "string[]" else f"CAST({listed} AS BIGINT[])"


def write_files(stage: DuckDBStage, folder: Path, fmt: str, multiline_csv: set[str]) -> list[str]:
    """Write the stage's import files into ``folder`` as ``fmt``; return the import tool's
    file arguments (with ``--input-type`` for Parquet). The gzipped CSVs named in
    ``multiline_csv`` (by their plain CSV's name) are read as bulk mode's are, as values
    with line breaks."""
    folder.mkdir(parents=True, exist_ok=True)
    for split in SPLIT:  # the split again, as bulk mode's csv stage makes it before writing
        stage.create(split.name, split.query, split.kept)
    arguments = ["--input-type=parquet"] if fmt == "parquet" else []
    multiline = []
    for file in import_files(stage):
        path = folder / f"{file.name}.{fmt}"
        selected = ", ".join(f"{_cell(c, fmt)} AS {_quote(c.header)}" for c in file.columns)
        if fmt == "parquet":
            options = "FORMAT parquet"
        else:
            quoted = ", ".join(_quote(c.header) for c in file.columns if c.quoted)
            options = f"FORMAT csv, HEADER true, FORCE_QUOTE ({quoted}), COMPRESSION gzip"
            if f"{file.name}.csv" in multiline_csv:
                multiline.append(path)
        stage.db.execute(f"COPY (SELECT {selected} {file.source}) TO ? ({options})", [str(path)])
        kind = "relationships" if file.relationship else "nodes"
        arguments.append(f"--{kind}={file.group}={path}")
    if multiline:  # as bulk mode tells the tool of its CSVs with line breaks in values
        arguments += [
            "--multiline-fields-format=v2",
            "--multiline-fields=" + ",".join(str(p) for p in multiline),
        ]
    return arguments


def _size_mb(arguments: list[str]) -> float:
    paths = [Path(a.split("=", 2)[2]) for a in arguments if a.startswith(("--nodes=", "--rel"))]
    return sum(p.stat().st_size for p in paths) / 2**20


def measure(
    bench: Bench,
    data: DataSet,
    work: Path,
    formats: tuple[str, ...] = FORMATS[1:],
    repeat: bool = True,
) -> dict[str, Any]:
    """Bulk-load ``data`` once with its files kept, write them again as each of ``formats``
    (besides CSV), and import CSV, each of them, and (``repeat``) CSV again; return the
    rows."""
    server = bench.server(f"formats-{data.scale}")
    entry: dict[str, Any] = {"name": data.name, "load_average_before": load_average()}
    try:
        _log(f"{data.name}: bulk mode, files kept")
        report = run_child(bench.spec(server, "bulk", data), work / f"bulk-{data.scale}.log")
        csv_dir = Path(report["bulk"]["csv_dir"])
        if "parquet" in formats:
            staging = _maven_copy(
                work, find_mvn(), find_java(), "parquet-jars", PARQUET_JARS, server.lib_dir
            )
            for jar in staging.glob("*.jar"):
                if not (server.lib_dir / jar.name).exists():
                    shutil.copy2(jar, server.lib_dir)
        written: dict[str, tuple[float, list[str]]] = {
            "csv": (report["bulk"]["stages"]["csv"], report["bulk"]["import_arguments"])
        }
        multiline = {
            Path(path).name
            for argument in written["csv"][1]
            if argument.startswith("--multiline-fields=")
            for path in argument.split("=", 1)[1].split(",")
        }
        stage = DuckDBStage(duckdb.connect(str(csv_dir.parent / "stage.duckdb")))
        try:
            for fmt in formats:
                began = time.monotonic()
                arguments = write_files(stage, work / f"{fmt}-{data.scale}", fmt, multiline)
                written[fmt] = (time.monotonic() - began, arguments)
        finally:
            stage.db.close()
        rows = []
        reference = None
        for fmt in ("csv", *formats, *(("csv",) if repeat else ())):
            write_seconds, arguments = written[fmt]
            server.stop()
            _log(f"{data.name}: import from {fmt}")
            began = time.monotonic()
            run_import(server, arguments, "neo4j", work / f"import-{fmt}-{data.scale}.log")
            seconds = time.monotonic() - began
            server.start(timeout=600)
            found = checksum(server.settings)
            reference = reference or found
            rows.append(
                {
                    "format": fmt,
                    "write_seconds": write_seconds,
                    "mb": _size_mb(arguments),
                    "import_seconds": seconds,
                    "equal": found == reference,
                    "nodes": found["nodes"],
                    "relationships": found["relationships"],
                }
            )
        entry["rows"] = rows
    finally:
        server.stop()
        shutil.rmtree(server.settings.home, ignore_errors=True)
    entry["load_average_after"] = load_average()
    return entry


def _machine_line(found: dict[str, Any]) -> str:
    return (
        f"{found['cores']} cores ({found['cpu']}), {found['memory_gib']} GiB, Python "
        f"{found['python']}, Java {found['java']}, Neo4j {found['neo4j']}"
    )


def render(results: dict[str, Any]) -> list[str]:
    lines = [
        "# The import tool's input formats",
        "",
        "Produced by `tests/bench/import_formats.py`; every figure comes from the run below.",
        "",
        f"- Command: `{results['command']}`",
        f"- Started {results['started']}; {_machine_line(results['machine'])}.",
        f"- Server: heap {results['heap']}, page cache {results['pagecache']}.",
        "",
        "| data | format | write s | files MB | import s | nodes | relationships | same graph "
        "as the first CSV import | load average before |",
        "|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for entry in results["datasets"]:
        for row in entry["rows"]:
            lines.append(
                f"| {entry['name']} | {row['format']} | {row['write_seconds']:.1f} | "
                f"{row['mb']:,.1f} | {row['import_seconds']:.1f} | {row['nodes']:,} | "
                f"{row['relationships']:,} | {'yes' if row['equal'] else 'NO'} | "
                f"{entry['load_average_before'][0]:.2f} |"
            )
    return [*lines, ""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="1,10", help="comma-separated, e.g. 1,10 or 0.01")
    parser.add_argument("--out", type=Path, default=Path("docs/BENCHMARKS-import-formats.md"))
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary one)")
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="2g")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--formats",
        default=",".join(FORMATS[1:]),
        help=f"besides CSV, comma-separated (default {','.join(FORMATS[1:])})",
    )
    parser.add_argument(
        "--no-repeat",
        action="store_true",
        help="import CSV first only, not last again too (which shows whether the machine "
        "drifted while the formats ran): a smoke run's saving of a stop, import and start",
    )
    args = parser.parse_args(argv)
    formats = tuple(args.formats.split(","))
    if not set(formats) <= set(FORMATS[1:]):
        parser.error(f"--formats takes {', '.join(FORMATS[1:])}, not {args.formats!r}")
    work = args.work or Path(tempfile.mkdtemp(prefix="kg-bench-formats-"))
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(work, args.heap, args.pagecache)
    results: dict[str, Any] = {
        "command": "python -m tests.bench.import_formats " + " ".join(argv or sys.argv[1:]),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "heap": args.heap,
        "pagecache": args.pagecache,
        "datasets": [],
    }
    try:
        scales = [float(s) for s in args.scales.split(",")]
        for data in datasets(scales, work, args.seed):
            results["datasets"].append(
                measure(bench, data, work, formats, repeat=not args.no_repeat)
            )
            args.out.write_text("\n".join(render(results)), encoding="utf-8")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(render(results)))


if __name__ == "__main__":
    main()
