"""Smoke runs of the benchmarks that load one input two ways on servers of their own and
compare the graphs (import_formats: one server it imports into four times; sources --load:
one per input and loader), at their smallest size under a temporary KG_HOME; reports are
checked for tables, figures and equal graphs, never for what the figures are (issue 36).
sources --load loads one input in make test and all six in make bench-smoke
(tests.bench.smoke.EVERY_SMOKE_RUN)."""

from __future__ import annotations

from pathlib import Path

from tests.bench.smoke import EVERY_SMOKE_RUN, is_number, own_server_env, run_bench, table_rows
from tests.bench.sources import INPUT_NAMES


def test_import_formats(tmp_path: Path) -> None:
    report = tmp_path / "formats.md"
    run_bench(
        "import_formats", "--scales", 0.01, "--heap", "1g", "--pagecache", "512m",
        "--out", report, "--work", tmp_path / "work", env=own_server_env(tmp_path / "home"),
        timeout=900,
    )  # fmt: skip
    rows = table_rows(report.read_text(encoding="utf-8"), "synthetic 0.01×")
    assert [row[0] for row in rows] == ["csv", "csv.gz", "parquet", "csv"]
    for row in rows:  # write s, MB, import s, nodes, relationships, each format's graph equal
        assert all(is_number(cell) for cell in row[1:6]), row
        assert row[6] == "yes", row


def test_sources_load_gives_bulk_equal_to_online(tmp_path: Path) -> None:
    report = tmp_path / "sources-load.md"
    # OpenAlex's works hold every kind of id the identity rules match on (DOI, arXiv, OpenAlex)
    names = INPUT_NAMES if EVERY_SMOKE_RUN else ("openalex",)
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
