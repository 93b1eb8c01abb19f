"""Smoke runs of the benchmarks that start and stop local servers of their own (ingest: one
per loader; chores: the KG_HOME server it stops, resets and starts again), each at its
smallest size under a temporary KG_HOME, with the Neo4j jars the installer links from its
jar cache; their reports are checked for tables and figures, never for what the figures are
(issue 36). The two that compare graphs loaded two ways are in test_bench_smoke_imports.py,
a file of their own so that make test's two workers share the four runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.bench.smoke import is_number, own_server_env, run_bench, table_rows
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
            "chores", "--papers", 3, "--version-runs", 2, "--empty-the-database",
            env=env, timeout=600,
        )  # fmt: skip
    finally:
        subprocess.run([kg, "db", "stop"], env=env, check=False, capture_output=True)
    assert re.search(r"`kg paper REF --limit 5`, 3 random .* p50 \d+ ms", out)
    assert re.search(r"`kg --version`: CPU \d\.\d{3} s min, .* over 2 runs", out)
    assert re.search(r"`kg db reset --yes`: \d+\.\d s: \*\*\d+\.\d\d×\*\*", out)
    assert re.search(r"right after the reset \d+\.\d s; again .* \*\*\d+\.\d s\*\*", out)
