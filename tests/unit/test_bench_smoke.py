"""Smoke runs of the benchmarks that need no server: each runs as ``python -m`` at a tiny
scale, writing to a temporary folder, and its report is checked for its tables and figures,
never for what the figures are (issue 36: no benchmark may rot unseen again). The ones that
need Neo4j are in tests/integration/test_bench_smoke_*.py."""

from __future__ import annotations

import gzip
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

from tests.bench.smoke import assert_figures, run_bench, table_rows
from tests.data import FIXTURES, REPO


def test_synthetic_writes_a_set(tmp_path: Path) -> None:
    out = run_bench("synthetic", "--papers", 200, "--out", tmp_path)
    assert "200 papers" in out
    with gzip.open(tmp_path / "arxiv-200-s1.jsonl.gz", "rt", encoding="utf-8") as lines:
        assert sum(1 for _ in lines) == 200
    assert (tmp_path / "cites-200-s1.csv").read_text(encoding="utf-8").startswith("citing,cited")


def test_titled_pages_writes_pages_records_and_twins(tmp_path: Path) -> None:
    out = run_bench(
        "titled_pages", "--pages", 3, "--twice", 0.2, "--arxiv", 0.5, "--own", 0.3,
        "--titles", 40, "--out", tmp_path,
    )  # fmt: skip
    pages, twice, owned = (int(n) for n in re.findall(r"\d+", out)[:3])
    assert (pages, twice > 0, owned > 0) == (3, True, True)
    assert len(list(tmp_path.glob("page*.txt"))) == 3
    assert len(list(tmp_path.glob("own*.txt"))) == owned
    assert (tmp_path / "arxiv.jsonl").stat().st_size
    assert (tmp_path / "twins.jsonl").stat().st_size


def test_sources_reports_every_input_and_the_profile(tmp_path: Path) -> None:
    report = tmp_path / "sources.md"
    run_bench(
        "sources", "--papers", 40, "--repeat", 1, "--work", tmp_path / "work", "--out", report
    )
    text = report.read_text(encoding="utf-8")
    rows = table_rows(text, "40 papers")
    assert len(rows) == 2 * 6  # the results and the inputs, one row per input each
    assert_figures(text, {"40 papers": 4})
    assert "## Where the time goes: OpenAlex at 40 papers (cProfile)" in text


def test_parse_times_digests_and_profiles() -> None:
    files = [FIXTURES / "arxiv" / "sample.jsonl", FIXTURES / "edges" / "snap_hepth.txt"]
    out = run_bench("parse", *files, "--id-scheme", "snap-hepth", "--repeat", 1, "--digest")
    for path in files:
        line = next(line for line in out.splitlines() if line.startswith(f"{path.name}:"))
        assert re.search(r" [1-9]\d* items, median \d+\.\d+ s .* digest [0-9a-f]{16}$", line)
    assert "digests differ" not in out
    assert re.search(r"total \(sum of medians\) \d+\.\d+ s, CPU \d+\.\d+ s", out)
    profile = run_bench("parse", files[0], "--profile", 5)
    assert "tottime" in profile


def test_title_rules_times_both_trees() -> None:
    out = run_bench("title_rules")
    assert re.fullmatch(
        r"normalize_title: 4168a9d \d+\.\d us a title; working tree \d+\.\d us a title\n", out
    )


@pytest.mark.skipif(
    importlib.util.find_spec("pylatexenc") is None,
    reason="pylatexenc is not installed (the latex benchmark measures against it; make bench "
    "installs it, it is no dependency of the project)",
)
def test_latex_compares_titles_and_names(tmp_path: Path) -> None:
    report = tmp_path / "latex.md"
    run_bench("latex", "--abstracts", FIXTURES / "abs" / "tree", "--out", report)
    text = report.read_text(encoding="utf-8")
    assert_figures(
        text,
        {
            "microseconds per title (best of 3)": 2,
            "distinct matching forms": 2,
            "microseconds per name with LaTeX (best of 3)": 2,
        },
    )


@pytest.mark.skipif(
    not Path("/usr/bin/time").exists() or not (REPO / ".venv" / "bin" / "python").exists(),
    reason="startup.sh runs the checkout's .venv under /usr/bin/time",
)
def test_startup_script_reports_the_cpu_of_kg_version() -> None:
    done = subprocess.run(
        ["bash", str(REPO / "tests" / "bench" / "startup.sh")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        rf"{re.escape(str(REPO))}: min \d\.\d\d median \d\.\d\d max \d\.\d\d s CPU\n", done.stdout
    )


def test_stage_profile_times_and_profiles_the_stage(tmp_path: Path) -> None:
    run_bench("synthetic", "--papers", 200, "--out", tmp_path)
    files = (tmp_path / "arxiv-200-s1.jsonl.gz", tmp_path / "cites-200-s1.csv")
    out = run_bench("stage_profile", *files, "--profile", 5)
    assert re.search(r"^stage \d+\.\d\d s, split and CSVs \d+\.\d\d s$", out, re.MULTILINE)
    sizes = re.search(
        r"^scratch at its peak ([\d.]+) MiB; with the CSVs written: CSVs ([\d.]+) MiB, records "
        r"file ([\d.]+) MiB, stage tables ([\d.]+) MiB, DuckDB file ([\d.]+) MiB$",
        out,
        re.MULTILINE,
    )
    assert sizes is not None, out
    peak, *parts = map(float, sizes.groups())
    assert all(part > 0 for part in parts[:3])  # the CSVs, the records file, the tables
    assert peak >= sum(parts) - 0.003  # each rounded to 0.001 MiB
    assert "tottime" in out  # cProfile's table
