"""Smoke runs of the benchmarks that read a graph through NEO4J_*, all on the session's
server and one tiny stand-in for cit-HepTh (tests.bench.standin), loaded once: each runs as
``python -m`` at its smallest size and its report is checked for its tables and figures,
never for what the figures are (issue 36). The tests run in file order: the benchmarks that
write into the graph (the embedding, the plans' and the splits' loads) come after those
that read it as loaded."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg import queries
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection
from tests.bench.smoke import assert_figures, run_bench
from tests.bench.standin import write_standin
from tests.bench.synthetic import generate
from tests.bench.titled_pages import write_pages
from tests.data import REPO

PAPERS = 100
PARAPHRASES = Path(__file__).resolve().parents[1] / "bench" / "paraphrases.tsv"


@pytest.fixture(scope="module")
def env(neo4j_connection: Connection, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a benchmark's child: the session's server, a KG_HOME of its own."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "KG_"))}
    return {
        **base,
        "KG_HOME": str(tmp_path_factory.mktemp("bench-kg-home")),
        "NEO4J_URI": neo4j_connection.uri,
        "NEO4J_USER": neo4j_connection.user,
        "NEO4J_PASSWORD": neo4j_connection.password,
        "NEO4J_DATABASE": neo4j_connection.database,
    }


@pytest.fixture(scope="module")
def standin(
    session_graph: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[str]]:
    """The stand-in's files (edges, abstracts), loaded into the emptied session graph; the
    graph is emptied again after the module, and the vector index dropped."""
    folder = tmp_path_factory.mktemp("standin")
    paths = write_standin(folder, papers=PAPERS)
    clear_database(session_graph)
    KnowledgeGraph.on(session_graph).load(
        paths, id_scheme="snap-hepth", rejects_path=folder / "rejects"
    )
    yield [str(path) for path in paths]
    clear_database(session_graph)
    # The embedding benchmark made the vector index, which emptying the graph leaves: the
    # next test file of this worker must find the schema kg init makes and nothing else.
    queries.analytics.drop_vector_index.run(session_graph)


def test_timeline(env: dict[str, str], standin: list[str], tmp_path: Path) -> None:
    report = tmp_path / "timeline.md"
    run_bench("timeline", "--repeat", 1, "--output", report, "--data", *standin, env=env)
    text = report.read_text(encoding="utf-8")
    assert f"{PAPERS} papers" in text
    assert_figures(
        text,
        {
            "`kg bursts --since 2000 --write`": 3,
            "`kg beauties --write`": 3,
            "`kg traction --as-of 2002 --write`": 3,
            "`kg mainpath --key-routes 5 --write`": 3,
            "`kg mainpath` (no write)": 2,
        },
    )
    assert "## Main path" in text


def test_analytics(env: dict[str, str], standin: list[str], tmp_path: Path) -> None:
    report = tmp_path / "analytics.md"
    run_bench(
        "analytics", "--repeat", 1, "--nx-samples", 5, "--output", report,
        "--edges", standin[0], env=env,
    )  # fmt: skip
    text = report.read_text(encoding="utf-8")
    assert_figures(
        text,
        {
            "**end to end**": 3,
            "PageRank compute": 3,
            "exact betweenness": 3,
            "pure Python, tol=1e-12": 3,
        },
    )
    assert re.search(r"takes \d+\.\d+s median", text)


def test_latency(env: dict[str, str], standin: list[str], tmp_path: Path) -> None:
    report = tmp_path / "latency.md"
    run_bench("latency", "--papers", 5, "--out", report, "--data", *standin, env=env)
    text = report.read_text(encoding="utf-8")
    for question in ("co-citation top-20 (kg.cocited)", "shortest path (kg.path, directed)"):
        assert_figures(text, {question: 3})
    assert text.count("\n| ") == 8  # the header, its rule and the six questions


def test_web(env: dict[str, str], standin: list[str], tmp_path: Path) -> None:
    report = tmp_path / "web.md"
    run_bench("web", "--papers", 5, "--out", report, env=env)
    text = report.read_text(encoding="utf-8")
    assert_figures(text, {"paper page": 4, "search (3 title words)": 4})
    assert text.count("\n| ") == 8  # the header, its rule and the six pages


def test_similarity(env: dict[str, str], standin: list[str]) -> None:
    out = run_bench(
        "similarity", "--papers", 5, "--checked", 5, "--warm", 2, "--compare-writers", "1,2",
        "--data", *standin, env=env,
    )  # fmt: skip
    assert re.search(r"`kg similar --write` end to end \(new process\): \*\*\d+\.\d s\*\*", out)
    assert "10 of 10 lists" in out
    assert_figures(
        out,
        {
            "co-citation top-20, stored query alone": 3,
            "coupling top-20, exact live query (coupled.cypher)": 3,
        },
    )
    assert re.search(r"by writers at once: 1: \d+\.\d s, 2: \d+\.\d s\.", out)
    estimate = run_bench("similarity", "--all-pairs-estimate", 3, env=env)
    assert re.search(r"^coupled\.cypher: mean \d+\.\d ms -> \d+\.\d min$", estimate, re.M)


def test_embed_and_its_choices(env: dict[str, str], standin: list[str], tmp_path: Path) -> None:
    kg = str(Path(sys.executable).with_name("kg"))
    subprocess.run([kg, "embed"], env=env, check=True, capture_output=True, timeout=300)
    lines = PARAPHRASES.read_text(encoding="utf-8").splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("arxiv_id"))
    paraphrases = tmp_path / "paraphrases.tsv"
    paraphrases.write_text("\n".join(lines[: header + 3]) + "\n", encoding="utf-8")
    out = run_bench("embed", "--queries", 3, "--quality", 3, "--paraphrases", paraphrases, env=env)
    assert f"papers in the vector index: {PAPERS}" in out
    for mode in ("text", "semantic", "hybrid"):
        assert re.search(rf"search {mode}, 3 queries: p50 \d+\.\d ms", out)
        assert re.search(rf"paraphrases with the paper in the top 10, {mode}: \d/2", out)
    assert re.search(r"top-20 overlap with co-citation's top 20, by meaning: \d\.\d{3}", out)
    only = run_bench("embed", "--only-paraphrases", "--paraphrases", paraphrases, env=env)
    assert "paraphrases with the paper in the top 10, hybrid" in only
    choices = run_bench(
        "embed_choices", "--texts", 8, "--abstracts", 3, "--refill",
        "--paraphrases", paraphrases, env=env,
    )  # fmt: skip
    assert re.search(r"batches of 32: \d+\.\d texts/s over 8 texts", choices)
    assert re.search(r"built again whole in \d+\.\ds:\n  the 10 nearest: p50 \d", choices)
    assert len(re.findall(r": \d/2 paraphrases, \d/3 abstracts", choices)) == 9


def test_title_plans(env: dict[str, str], standin: list[str]) -> None:
    for options in ((), ("--identity", REPO / "loaders" / "identity.py")):
        out = run_bench("title_plans", *options, env=env)
        assert re.match(rf"{PAPERS} titles, {PAPERS} candidates: \d+\.\d ms, best of 5\n", out)
        assert "titles whose plan asks for a change: 0" in out


def test_kept_apart_read(env: dict[str, str], standin: list[str], tmp_path: Path) -> None:
    folder = tmp_path / "titled"
    write_pages(folder, 2, 0.2, titles=30, arxiv=0.3, own=0.5)
    out = run_bench("kept_apart_read", "--reads", 5, "--load", folder, env=env)
    assert re.search(r"loaded \d+ records in .*; [1-9]\d* reads of the lists and splits", out)
    assert re.search(r"0 splits recorded: \d+\.\d{3} ms per read", out)
    assert re.search(r"100 splits recorded: \d+\.\d{3} ms per read", out)


def test_plans(env: dict[str, str], standin: list[str]) -> None:
    out = run_bench("plans", env=env)
    for name in ("load_papers", "load_citations", "merge_papers"):
        assert re.search(rf"^\| `{name}` \| (yes|no) \| \w", out, re.MULTILINE), name


def test_naive(env: dict[str, str], standin: list[str], tmp_path: Path) -> None:
    made = generate(200, 1, tmp_path)
    out = run_bench(
        "naive", "--uri", env["NEO4J_URI"], "--user", env["NEO4J_USER"],
        "--database", env["NEO4J_DATABASE"], "--arxiv", made.arxiv, "--edges", made.edges,
        "--papers", 20, "--max-edges", 30, env=env,
    )  # fmt: skip
    result = json.loads(out)
    assert (result["papers"], result["edges"]) == (20, 30)
    assert result["papers_per_second"] > 0


def test_incremental_last_as_it_empties_the_graph(
    env: dict[str, str], standin: list[str], tmp_path: Path
) -> None:
    report = tmp_path / "incremental.md"
    run_bench(
        "incremental", "--papers", 200, "--changed", 0.05, "--empty-neo4j-database",
        "--out", report, env=env,
    )  # fmt: skip
    text = report.read_text(encoding="utf-8")
    assert_figures(
        text,
        {
            "older full": 7,
            "newer --since older": 7,
            "newer in full on the older": 7,
            "newer full": 7,
        },
    )
    assert "as the older and newer snapshots loaded in full: True." in text
