"""Rows of one statement see each other's writes, whatever the plan: the load statements
that lost their Eager (issue 36) test and write each row in one FOREACH, and two rows of one
edge or one snapshot in one batch must give what two batches give."""

from __future__ import annotations

from datetime import date
from typing import Any

from kg import queries
from kg.database import Database


def _edge_rows() -> list[dict[str, Any]]:
    """One edge stated by three snapshots, one of them naming a key merged into the cited
    paper, in an order that is not theirs."""
    row = {"citing": "2001.00001", "cited": "2001.00002", "named_citing": None}
    return [
        {**row, "snapshot": "s2", "as_of": date(2020, 5, 1), "named_cited": None},
        {**row, "snapshot": "s1", "as_of": date(2020, 1, 1), "named_cited": "title:x:2001"},
        {**row, "snapshot": "s3", "as_of": None, "named_cited": None},
    ]


def _edge(graph: Database) -> dict[str, Any]:
    found = graph.read(
        "MATCH (:Paper {key: '2001.00001'})-[r:CITES]->(:Paper {key: '2001.00002'}) "
        "RETURN r.snapshots AS snapshots, r.named AS named, toString(r.first_seen) AS first, "
        "toString(r.last_seen) AS last"
    )
    assert len(found) == 1
    return found[0]


def test_rows_of_one_edge_in_one_batch_give_what_three_batches_give(graph: Database) -> None:
    graph.write("UNWIND ['2001.00001', '2001.00002'] AS key MERGE (:Paper {key: key})")
    for row in _edge_rows():
        queries.load.citations.run_counters(graph, rows=[row])
    apart = _edge(graph)
    assert apart == {
        "snapshots": ["s1", "s2", "s3"],
        "named": [
            "s1|2001.00001|title:x:2001",
            "s2|2001.00001|2001.00002",
            "s3|2001.00001|2001.00002",
        ],
        "first": "2020-01-01",
        "last": "2020-05-01",
    }
    graph.write("MATCH ()-[r:CITES]->() DELETE r")
    queries.load.citations.run_counters(graph, rows=_edge_rows())
    assert _edge(graph) == apart
    again = queries.load.citations.run_counters(graph, rows=_edge_rows())
    assert again.get("properties_set", 0) == 0


def test_two_rows_of_one_snapshot_widen_its_dates_and_write_nothing_again(
    graph: Database,
) -> None:
    row: dict[str, Any] = {
        "key": "sha256:" + "1" * 64,
        "kind": "paper_json",
        "sha256": "1" * 64,
        "first_date": None,
        "builder_version": None,
        "apart": [],
    }
    rows = [
        {**row, "source": "b.json", "data_date": date(2020, 1, 1), "hashes": {}},
        {
            **row,
            "source": "a.json",
            "data_date": date(2021, 1, 1),
            "hashes": {"hash_claims": "c" * 64},
        },
        {**row, "source": "c.json", "data_date": None, "hashes": {}},
    ]
    queries.load.snapshots.run_counters(graph, rows=rows)
    found = graph.read(
        "MATCH (s:Snapshot) RETURN s.source AS source, toString(s.data_date) AS data_date, "
        "s.hash_claims AS claims"
    )
    assert found == [{"source": "a.json", "data_date": "2021-01-01", "claims": "c" * 64}]
    again = queries.load.snapshots.run_counters(graph, rows=rows)
    assert again.get("properties_set", 0) == 0
