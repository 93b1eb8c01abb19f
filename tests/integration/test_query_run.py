"""Queries run themselves against a real Neo4j: the declared mode picks the transaction, a
transaction holds several queries, and the one write-back pair of the analytics touches only
the properties it is given."""

from __future__ import annotations

import dataclasses

import pytest
from neo4j import ManagedTransaction

from kg import queries
from kg.database import Database
from kg.errors import QueryFailed

PAPERS = [
    {"key": "a", "props": {"pagerank": 0.5, "indegree": 3.0}, "tier": 1},
    {"key": "b", "props": {"pagerank": 0.25, "indegree": 1.0}, "tier": 2},
]


def _papers(graph: Database) -> None:
    graph.write("UNWIND ['a', 'b'] AS key CREATE (:Paper {key: key})")


def _stored(graph: Database) -> list[dict[str, object]]:
    return graph.read(
        "MATCH (p:Paper) RETURN p.key AS key, p.pagerank AS pagerank, p.indegree AS indegree, "
        "p:PageRankTop1 AS top1, p:PageRankTop10 AS top10 ORDER BY key"
    )


def test_a_write_query_runs_in_a_write_transaction_and_fails_in_a_read_one(
    graph: Database,
) -> None:
    _papers(graph)
    write = queries.analytics.write_paper_values
    assert write.mode == "write"
    as_read = dataclasses.replace(write, mode="read")
    with pytest.raises(QueryFailed, match="READ transaction"):
        as_read.run(graph, rows=PAPERS)
    counters = write.run_counters(graph, rows=PAPERS)
    assert counters["properties_set"] == 4
    assert _stored(graph) == [
        {"key": "a", "pagerank": 0.5, "indegree": 3.0, "top1": True, "top10": False},
        {"key": "b", "pagerank": 0.25, "indegree": 1.0, "top1": False, "top10": True},
    ]
    assert queries.analytics.papers.run(graph, keys=["a"])[0]["key"] == "a"


def test_clearing_one_property_leaves_the_others_and_the_tiers(graph: Database) -> None:
    _papers(graph)
    queries.analytics.write_paper_values.run(graph, rows=PAPERS)
    clear = queries.analytics.clear_paper_values
    assert clear.run(graph, nulls={"indegree": None}, batch_size=1) == [{"cleared": 2}]
    assert [(r["pagerank"], r["indegree"], r["top1"]) for r in _stored(graph)] == [
        (0.5, None, True),
        (0.25, None, False),
    ]
    assert clear.run(graph, nulls={"pagerank": None}, tiers=True) == [{"cleared": 2}]
    assert all(r["pagerank"] is None and not r["top1"] and not r["top10"] for r in _stored(graph))
    assert clear.run(graph, nulls={"pagerank": None}, tiers=True) == [{"cleared": 0}]


def test_queries_run_together_inside_one_transaction(graph: Database) -> None:
    _papers(graph)
    write = queries.analytics.write_paper_values
    lock = queries.load.lock_papers

    def work(tx: ManagedTransaction) -> int:
        lock.run_in(tx, keys=["a", "b"]).consume()
        summary = write.run_in(tx, rows=PAPERS[:1]).consume()
        return summary.counters.properties_set

    assert graph.write_transaction(work) == 2
    assert _stored(graph)[0]["pagerank"] == 0.5
