"""Storing analytics results on the papers and recording the runs that computed them,
shared by rank, communities and the time analyses."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from kg import queries
from kg.analytics.igraph_engine import chunks
from kg.answers import AnalyticsRun
from kg.database import Database

__all__ = ["WRITE_BACK_BATCH", "record_runs", "write_rows"]

# Rows per write transaction when analytics store their results on the papers.
WRITE_BACK_BATCH = 10_000


def write_rows(
    graph: Database, query: queries.Query, rows: Sequence[dict[str, Any]], batch_size: int
) -> int:
    """Run the write ``query`` over ``rows`` (as ``$rows``) in batches; return the rows written."""
    written = 0
    for batch in chunks(rows, batch_size):
        query.run_counters(graph, rows=list(batch))
        written += len(batch)
    return written


def record_runs(
    graph: Database,
    algorithm: str,
    properties: Sequence[str],
    parameters: Mapping[str, Any],
    engine: str,
    nodes: int,
    edges: int,
    seconds: float,
) -> list[AnalyticsRun]:
    """Record an AnalyticsRun for each stored property and return them as stored."""
    text = json.dumps(parameters, sort_keys=True)
    runs = [
        {
            "key": prop,
            "algorithm": algorithm,
            "parameters": text,
            "engine": engine,
            "nodes": nodes,
            "edges": edges,
            "seconds": round(seconds, 3),
        }
        for prop in properties
    ]
    rows = queries.analytics.record_run.run(graph, runs=runs)
    return [AnalyticsRun.from_row(row) for row in rows]
