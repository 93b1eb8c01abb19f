"""Concurrency on a real Neo4j: four `kg load` processes at once on overlapping sources, with
questions and `kg rank pagerank --write` running alongside, give in every round the graph a
sequential load of the same sources gives; and ranking while a loader adds papers works.

The sources are slices of a made-up edge list in cit-HepTh's shape and of arXiv metadata
lines for its papers (tests/hepth_like.py), so every paper has an arXiv id (papers known
only by title are the identity tests' concern).
Each slice overlaps another, and each is loaded by two of the four processes, in different
orders. Analytics values are left out of the comparison: they are computed on whatever the
graph held at that moment.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg import questions
from kg.analytics.igraph_engine import CitationGraph
from kg.database import Database
from kg.errors import PaperNotFound
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection
from tests import hepth_like
from tests.graph_dump import dump_graph
from tests.integration.test_faults import (
    BAD_LINES,
    Held,
    cli_env,
    finish,
    load_args,
    write_edge_slice,
)
from tests.unit.test_server_lock import kg_executable

# At least ROUNDS rounds of the four loaders, more while KG_CONCURRENCY_BUDGET seconds last
# (a round is about 20 s on this project's 2-core machine)
ROUNDS = int(os.environ.get("KG_CONCURRENCY_ROUNDS", "3"))
BUDGET_SECONDS = float(os.environ.get("KG_CONCURRENCY_BUDGET", "60"))
ROUND_TIMEOUT = 240.0
LOAD_BATCH = 100
GROWING_EDGES = 8_000  # the load ranking runs beside: long enough for several rankings
Dump = tuple[list[str], list[str]]


PAPERS = 6_000
EDGES_MADE = hepth_like.edge_lines(2_500, PAPERS)
# The most cited paper and the first citing one, asked about while the loaders write.
ASKED = (
    f"hep-th/{hepth_like.hepth_number(0):07d}",
    f"hep-th/{int(EDGES_MADE[0].split()[0]):07d}",
)


def _in_order(edges: list[str]) -> list[int]:
    """The papers the edges name, in the order they first appear."""
    return list(dict.fromkeys(int(number) for line in edges for number in line.split()))


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two overlapping edge-list slices and two overlapping arXiv-lines slices."""
    folder = tmp_path_factory.mktemp("concurrency")
    papers = hepth_like.arxiv_lines(_in_order(EDGES_MADE))
    made = {
        "edges_a.txt": "".join(line + "\n" for line in EDGES_MADE[0:1_500]),
        "edges_b.txt": "".join(line + "\n" for line in EDGES_MADE[1_000:2_500]),
        "papers_a.jsonl": "".join(line + "\n" for line in papers[0:300]),
        "papers_b.jsonl": "".join(line + "\n" for line in papers[200:500]),
    }
    paths = {}
    for name, text in made.items():
        paths[name] = folder / name
        paths[name].write_text(text, encoding="utf-8")
    return paths


def data_dump(graph: Database) -> Dump:
    """The canonical dump without what analytics wrote (values, tier labels, run records)."""
    nodes, relationships = dump_graph(graph)
    kept = []
    for text in nodes:
        node = json.loads(text)
        if "AnalyticsRun" in node["labels"]:
            continue
        node["labels"] = [label for label in node["labels"] if not label.startswith("PageRank")]
        node["props"].pop("pagerank", None)
        kept.append(json.dumps(node, sort_keys=True, default=str))
    return sorted(kept), relationships


@pytest.fixture(scope="module")
def sequential_dump(
    session_graph: Database, sources: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> Dump:
    clear_database(session_graph)
    KnowledgeGraph.on(session_graph).load(
        list(sources.values()),
        id_scheme="snap-hepth",
        batch_size=LOAD_BATCH,
        rejects_path=tmp_path_factory.mktemp("sequential") / "r.jsonl",
    )
    dump = data_dump(session_graph)
    clear_database(session_graph)
    assert len(dump[0]) > 1_000
    assert len(dump[1]) > 2_500
    return dump


def _ask_questions(graph: Database, stop: threading.Event, asked: list[str]) -> None:
    """Ask questions until ``stop``; a paper not there yet is an answer, any other error is
    recorded in ``asked`` and fails the round."""
    while not stop.is_set():
        for ask in (
            lambda: questions.cocited(graph, ASKED[0], 5),
            lambda: questions.paper_report(graph, ASKED[1]),
            lambda: graph.read("MATCH (p:Paper) RETURN count(p) AS n"),
        ):
            try:
                ask()
                asked.append("ok")
            except PaperNotFound:
                asked.append("not yet")
            except Exception as exc:  # every failure is reported by the test
                asked.append(f"failed: {type(exc).__name__}: {exc}")
            stop.wait(0.1)


def _start(env: dict[str, str], args: list[str], folder: Path) -> subprocess.Popen[bytes]:
    """Start ``kg args`` with its outputs going to files in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "out.txt").open("w") as out, (folder / "err.txt").open("w") as err:
        return subprocess.Popen([kg_executable(), *args], env=env, stdout=out, stderr=err)


@pytest.mark.slow
def test_four_loaders_with_queries_and_ranking_give_the_sequential_graph(
    graph: Database,
    neo4j_connection: Connection,
    sources: dict[str, Path],
    sequential_dump: Dump,
    tmp_path: Path,
) -> None:
    env = cli_env(neo4j_connection)
    s = sources
    plans = [
        [s["edges_a.txt"], s["papers_a.jsonl"]],
        [s["papers_b.jsonl"], s["edges_b.txt"]],
        [s["edges_b.txt"], s["papers_a.jsonl"]],
        [s["papers_b.jsonl"], s["edges_a.txt"]],
    ]
    ranks_during_loads = 0
    answers: list[str] = []
    started = time.monotonic()
    number = 0
    while number < ROUNDS or time.monotonic() - started < BUDGET_SECONDS:
        began = time.monotonic()
        clear_database(graph)
        folder = tmp_path / f"round-{number}"
        deadline = time.monotonic() + ROUND_TIMEOUT
        loaders = [
            Held.start(
                env,
                [
                    "load",
                    "--id-scheme",
                    "snap-hepth",
                    "--batch-size",
                    str(LOAD_BATCH),
                    *map(str, plan),
                    "--rejects",
                    str(folder / f"loader-{i}" / "r.jsonl"),
                ],
                folder / f"loader-{i}",
            )
            for i, plan in enumerate(plans)
        ]
        ranker = Held.start(
            env, ["rank", "pagerank", "--write", "--top", "3", "--json"], folder / "rank"
        )
        stop = threading.Event()
        asker = threading.Thread(target=_ask_questions, args=(graph, stop, answers))
        try:
            while not all(held.ready for held in [*loaders, ranker]):
                assert time.monotonic() < deadline, "the kg processes did not start"
                time.sleep(0.05)
            asker.start()
            for held in loaders:
                held.release()
            # Rank once the loaders write, so that it reads and writes among their batches.
            while not _holds_papers(graph) and any(h.process.poll() is None for h in loaders):
                time.sleep(0.02)
            ranker.release()
            rank = ranker.wait(deadline)
            ranks_during_loads += any(held.process.poll() is None for held in loaders)
            runs = [held.wait(deadline) for held in loaders]
        finally:
            stop.set()
            if asker.is_alive():
                asker.join()
            for held in [*loaders, ranker]:
                if held.process.poll() is None:
                    held.process.kill()
                    held.process.wait()
        for run in [*runs, rank]:
            assert run.code == 0, run
            run.check_quiet()
        assert json.loads(rank.out)["written"] > 0
        assert data_dump(graph) == sequential_dump, f"round {number} differs"
        (folder / "seconds.txt").write_text(f"{time.monotonic() - began:.1f}\n")
        number += 1
    failures = [answer for answer in answers if answer.startswith("failed")]
    assert not failures, failures[:5]
    assert answers.count("ok") > number
    # Nearly every ranking ends while loaders still write; timing may make one miss.
    assert ranks_during_loads >= number // 2, (ranks_during_loads, number)


def _holds_papers(graph: Database) -> bool:
    return bool(graph.read("MATCH (p:Paper) RETURN count(p) > 0 AS any")[0]["any"])


def test_a_projection_tolerates_papers_added_while_it_read() -> None:
    # 'c' was committed after the node list was read, but a citation of it was seen.
    citation = CitationGraph.from_projection(["a", "b"], [["b", "c"], ["a"]])
    assert citation.keys == ("a", "b")
    assert citation.edges == [(0, 1), (1, 0)]
    assert citation.left_out == 1


@pytest.fixture
def growing_load(
    graph: Database, neo4j_connection: Connection, tmp_path: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A `kg load` adding papers and citations, batch by batch, while the test runs."""
    data = write_edge_slice(tmp_path / "edges.txt", GROWING_EDGES, BAD_LINES)
    loader = _start(
        cli_env(neo4j_connection),
        load_args(data, tmp_path / "r.jsonl", batch=100),
        tmp_path / "loader",
    )
    try:
        yield loader
    finally:
        finish(loader, tmp_path / "loader", time.monotonic() + ROUND_TIMEOUT)


@pytest.mark.slow
def test_ranking_while_a_loader_adds_papers(
    graph: Database, growing_load: subprocess.Popen[bytes]
) -> None:
    results = []
    while growing_load.poll() is None:
        for algorithm in ("pagerank", "indegree"):
            result = KnowledgeGraph.on(graph).analytics.rank(algorithm, engine="igraph", top=3)
            assert result.nodes >= len(result.top)
            results.append(result)
        communities = KnowledgeGraph.on(graph).analytics.communities(engine="igraph", top=1)
        assert communities.nodes == len(communities.membership)
    assert growing_load.returncode == 1  # the slice's bad lines
    assert len(results) >= 6, "the load ended before ranking could overlap it"
