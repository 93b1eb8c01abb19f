"""Smoke runs of the benchmarks that start and stop local servers of their own (ingest: one
per loader; import_formats: one it imports into three or four times; sources --load: one per
input and loader; chores: the KG_HOME server it stops, resets and starts again), each at its
smallest size under a temporary KG_HOME, with the Neo4j jars the installer links from its
jar cache; their reports are checked for tables and figures, never for what the figures are
(issue 36). make test runs ingest, import_formats (Parquet besides CSV) and chores; make
bench-smoke (tests.bench.smoke.EVERY_SMOKE_RUN) adds sources --load on all six inputs and
gzipped CSV to import_formats. In make test, test_bulk holds bulk = online on every source
format's fixture, and the sources script's parse-only smoke run is a unit test. They stay in
one file, so on one of make test's two workers: split over two files, the two workers ran
them side by side and the suite took longer (docs/BENCHMARKS.md, "make test from a fresh
clone")."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.smoke import EVERY_SMOKE_RUN, is_number, own_server_env, run_bench, table_rows
from tests.bench.sources import INPUT_NAMES
from tests.bench.standin import write_standin


def test_ingest(tmp_path: Path) -> None:
    report = tmp_path / "ingest.md"
    run_bench(
        "ingest", "--scales", 0.01, "--sample-papers", 300, "--naive-papers", 50,
        "--naive-edges", 100, "--heap", "1g", "--pagecache", "512m",
        "--out", report, "--work", tmp_path / "work", env=own_server_env(tmp_path / "home"),
        timeout=900,
    )  # fmt: skip
    text = report.read_text(encoding="utf-8")
    assert "## Naive loader (measured on a sample, extrapolated)" in text
    rows = table_rows(text, "synthetic 0.01×")
    results, stages = rows[:2]
    assert all(is_number(cell) for cell in results), results  # every loader ran
    assert all(is_number(cell) for cell in stages), stages
    statements = [row for row in rows if row[0].startswith("load.")]
    assert statements, "no statement of the online loader timed"
    assert all(is_number(cell) for row in statements for cell in row[1:])
    reload = next(row for row in rows if "→" in "".join(row))
    assert reload[-2:] == ["yes", "yes"]  # the reload changed nothing; bulk = online


def test_import_formats(tmp_path: Path) -> None:
    report = tmp_path / "formats.md"
    # Parquet, the format furthest from CSV (its jars, its import option). make bench-smoke
    # adds gzipped CSV and CSV again last; each import is a server's stop and start.
    formats = ["csv.gz", "parquet"] if EVERY_SMOKE_RUN else ["parquet"]
    last = ["csv"] if EVERY_SMOKE_RUN else []
    run_bench(
        "import_formats", "--scales", 0.01, "--formats", ",".join(formats), "--heap", "1g",
        "--pagecache", "512m", "--out", report, "--work", tmp_path / "work",
        *([] if last else ["--no-repeat"]),
        env=own_server_env(tmp_path / "home"), timeout=900,
    )  # fmt: skip
    rows = table_rows(report.read_text(encoding="utf-8"), "synthetic 0.01×")
    assert [row[0] for row in rows] == ["csv", *formats, *last]
    for row in rows:  # write s, MB, import s, nodes, relationships, each format's graph equal
        assert all(is_number(cell) for cell in row[1:6]), row
        assert row[6] == "yes", row


def test_sources_load_gives_bulk_equal_to_online(tmp_path: Path) -> None:
    if not EVERY_SMOKE_RUN:
        pytest.skip(
            "make bench-smoke runs sources --load (two servers per input); in make test, "
            "test_bulk holds bulk = online on every source format's fixture"
        )
    report = tmp_path / "sources-load.md"
    names = INPUT_NAMES
    run_bench(
        "sources", "--load", "--papers", 40, "--inputs", ",".join(names),
        "--heap", "1g", "--pagecache", "512m", "--work", tmp_path / "work", "--out", report,
        env=own_server_env(tmp_path / "home"), timeout=3600,
    )  # fmt: skip
    text = report.read_text(encoding="utf-8")
    for name in names:  # one row per source input, its two graphs equal
        (row,) = table_rows(text, name)
        assert row[0] == "40 papers", row
        assert all(is_number(cell) for cell in row[1:5]), row  # seconds, nodes, relationships
        assert row[-1] == "equal", row
    assert f"Equal: {len(names)} of {len(names)} rows." in text


def test_chores(tmp_path: Path) -> None:
    env = own_server_env(tmp_path / "home")
    kg = str(Path(sys.executable).with_name("kg"))
    paths = write_standin(tmp_path / "standin", papers=60)
    subprocess.run([kg, "db", "start"], env=env, check=True, capture_output=True, timeout=300)
    try:
        subprocess.run(
            [kg, "load", "--id-scheme", "snap-hepth", *map(str, paths)],
            env=env,
            check=True,
            capture_output=True,
            timeout=300,
        )
        out = run_bench(
            "chores", "--papers", 1, "--version-runs", 2, "--restarts", 1,
            "--empty-the-database",
            env=env, timeout=600,
        )  # fmt: skip
    finally:
        subprocess.run([kg, "db", "stop"], env=env, check=False, capture_output=True)
    assert re.search(r"`kg paper REF --limit 5`, 1 random .* p50 \d+ ms", out)
    assert re.search(r"`kg --version`: CPU \d\.\d{3} s min, .* over 2 runs", out)
    assert re.search(r"`kg db reset --yes`: \d+\.\d s: \*\*\d+\.\d\d×\*\*", out)
    assert re.search(r"`kg db start` alone .*: median \*\*\d+\.\d\d s\*\*, .* over 1 runs", out)
    assert re.search(r"right after the reset \d+\.\d s; again .* \*\*\d+\.\d s\*\*", out)
