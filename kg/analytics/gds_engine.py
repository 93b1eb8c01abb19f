"""The Graph Data Science engine of the analytics, for servers that have the GDS plugin.

The papers in scope are projected into the GDS catalog with a Cypher projection
(cypher/analytics/gds_projection.cypher, the same scope rules as the igraph engine), the
algorithm streams its results through the ``graphdatascience`` client, node ids become
Paper keys (cypher/analytics/gds_keys.cypher), and the in-memory graph is dropped.

The client is imported only here and only when GDS is used: it is not a dependency of the
project (``pip install graphdatascience``, version 2 or later). Where GDS's definition
differs from the igraph engine's:

- PageRank: GDS's scores do not sum to 1; they are scaled here to do so, and then agree
  with igraph's to within the tolerance (checked with GDS 2.13.9 on Neo4j 5.26).
- Sampled betweenness: GDS picks its ``samplingSize`` sources by its own strategy and does
  not scale the result up; the values are returned as GDS gives them. Exact betweenness
  agrees with igraph's.
- HITS: GDS runs a fixed number of iterations; the scores are scaled here to sum to 1.
- k-core and communities run on the undirected projection, as in the igraph engine; GDS
  keeps a mutual citation as two parallel edges where igraph collapses it into one.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from kg import queries
from kg.analytics.igraph_engine import (
    Algorithm,
    CommunityMethod,
    RankOptions,
    Values,
    renumber,
)
from kg.database import Database
from kg.errors import AnalyticsError, QueryFailed

__all__ = [
    "client_installed",
    "communities",
    "gds_version",
    "rank",
]

INSTALL_HINT = (
    'pip install graphdatascience, or use the igraph engine (engine="igraph", --engine igraph)'
)
MIN_CLIENT_MAJOR = 2


def gds_version(graph: Database) -> str | None:
    """Return the version of the server's GDS plugin, or None when the server has none."""
    try:
        rows = queries.analytics.gds_version.run(graph)
    except QueryFailed:
        return None
    return str(rows[0]["version"]) if rows else None


def client_installed() -> bool:
    """Return True when the graphdatascience package can be imported."""
    return importlib.util.find_spec("graphdatascience") is not None


def _client(graph: Database) -> Any:
    # Imported by name at run time: the client is optional and ships no type stubs.
    try:
        client: Any = importlib.import_module("graphdatascience")
    except ImportError as exc:
        raise AnalyticsError(
            "the GDS engine needs the graphdatascience package, which is not installed",
            INSTALL_HINT,
        ) from exc
    version = importlib.metadata.version("graphdatascience")
    if int(version.split(".")[0]) < MIN_CLIENT_MAJOR:
        raise AnalyticsError(
            f"graphdatascience {version} is older than {MIN_CLIENT_MAJOR}.0, whose API we use",
            "pip install -U graphdatascience, or use the igraph engine "
            '(engine="igraph", --engine igraph)',
        )
    return client.GraphDataScience(
        graph.driver, database=graph.database, arrow=False, show_progress=False
    )


@contextmanager
def _projected(
    graph: Database, gds: Any, scope: dict[str, Any], undirected: bool
) -> Iterator[tuple[Any, int, int]]:
    """Yield (the projected graph or None when the scope is empty, nodes, relationships)."""
    # The GDS client runs the projection itself: it takes the text and the bound parameters.
    query = queries.analytics.gds_projection
    params = query.bind(
        {
            **scope,
            "graph_name": f"kg-analytics-{uuid.uuid4().hex[:12]}",
            "undirected": ["*"] if undirected else [],
        }
    )
    try:
        projected, result = gds.graph.project.cypher(query.text, **params)
    except ValueError:  # the client's way of saying the projection has no node
        yield None, 0, 0
        return
    try:
        yield projected, int(result.node_count), int(result.relationship_count)
    finally:
        projected.drop()


def _keys(graph: Database, ids: Sequence[int]) -> list[str]:
    rows = queries.analytics.gds_keys.run(graph, ids=[int(i) for i in ids])
    by_id = {int(row["id"]): str(row["key"]) for row in rows}
    return [by_id[int(i)] for i in ids]


def _unit_sum(values: Sequence[float]) -> list[float]:
    total = float(sum(values))
    return [float(v) / total for v in values] if total > 0 else [0.0 for _ in values]


def _streamed(
    graph: Database, frame: Any, columns: dict[str, Callable[[Any], float]]
) -> tuple[list[str], Values]:
    """Return keys and values from a GDS stream frame, sorted by key like the projection."""
    ids = [int(i) for i in frame["nodeId"]]
    keys = _keys(graph, ids)
    rows = [
        (key, {name: pick(record) for name, pick in columns.items()})
        for key, record in zip(keys, frame.to_dict("records"), strict=True)
    ]
    rows.sort(key=lambda row: row[0])
    values: dict[str, Sequence[float]] = {name: [row[1][name] for row in rows] for name in columns}
    return [row[0] for row in rows], values


def rank(
    graph: Database, algorithm: Algorithm, scope: dict[str, Any], options: RankOptions
) -> tuple[list[str], Values, int, int]:
    """Run ``algorithm`` in GDS; return (keys sorted, values per property, nodes, edges).

    Raises AnalyticsError when the client is missing or GDS rejects the call.
    """
    options.check()
    gds = _client(graph)
    undirected = algorithm == "kcore"
    with _projected(graph, gds, scope, undirected) as (projected, nodes, edges):
        if projected is None:
            return [], {}, 0, 0
        try:
            keys, values = _run_rank(graph, gds, projected, algorithm, options)
        except Exception as exc:  # the client raises the driver's errors or its own
            raise AnalyticsError(
                f"GDS could not run {algorithm}: {exc}", "check the GDS version and its log"
            ) from exc
    # An undirected projection stores each citation in both directions.
    return keys, values, nodes, edges // 2 if undirected else edges


def _score(record: Any) -> float:
    return float(record["score"])


def _run_rank(
    graph: Database, gds: Any, projected: Any, algorithm: Algorithm, options: RankOptions
) -> tuple[list[str], Values]:
    if algorithm == "pagerank":
        frame = gds.page_rank.stream(
            projected,
            damping_factor=options.damping,
            tolerance=options.tolerance,
            max_iterations=options.max_iterations,
        )
        keys, values = _streamed(graph, frame, {"pagerank": _score})
        return keys, {"pagerank": _unit_sum(values["pagerank"])}
    if algorithm == "betweenness":
        config: dict[str, Any] = {}
        if options.samples is not None:
            config = {"sampling_size": options.samples, "sampling_seed": options.seed}
        frame = gds.betweenness.stream(projected, **config)
        return _streamed(graph, frame, {"betweenness": _score})
    if algorithm in ("indegree", "outdegree"):
        orientation = "REVERSE" if algorithm == "indegree" else "NATURAL"
        frame = gds.degree.stream(projected, orientation=orientation)
        return _streamed(graph, frame, {algorithm: _score})
    if algorithm == "hits":
        frame = gds.hits.stream(projected, hits_iterations=options.max_iterations)
        keys, values = _streamed(
            graph,
            frame,
            {
                "hits_authority": lambda r: float(r["values"]["auth"]),
                "hits_hub": lambda r: float(r["values"]["hub"]),
            },
        )
        return keys, {name: _unit_sum(column) for name, column in values.items()}
    frame = gds.kcore.stream(projected)
    return _streamed(graph, frame, {"kcore": lambda r: float(r["coreValue"])})


def communities(
    graph: Database, scope: dict[str, Any], method: CommunityMethod, seed: int, resolution: float
) -> tuple[list[str], list[int], int, int]:
    """Run Leiden or Louvain in GDS on the undirected projection, with one thread so a
    seed repeats; return (keys sorted, membership renumbered by size, nodes, edges).

    Raises AnalyticsError when the client is missing or GDS rejects the call.
    """
    if method == "louvain" and resolution != 1.0:
        raise AnalyticsError(
            "GDS's Louvain has no resolution setting",
            'use the leiden method or the igraph engine (method="leiden" or engine="igraph"; '
            "--method leiden or --engine igraph)",
        )
    gds = _client(graph)
    with _projected(graph, gds, scope, True) as (projected, nodes, edges):
        if projected is None:
            return [], [], 0, 0
        try:
            if method == "leiden":
                frame = gds.leiden.stream(
                    projected, random_seed=seed, gamma=resolution, concurrency=1
                )
            else:
                frame = gds.louvain.stream(projected, concurrency=1)
            keys, values = _streamed(graph, frame, {"community": lambda r: float(r["communityId"])})
        except Exception as exc:  # the client raises the driver's errors or its own
            raise AnalyticsError(
                f"GDS could not run {method}: {exc}", "check the GDS version and its log"
            ) from exc
    membership = renumber([int(v) for v in values["community"]])
    return keys, membership, nodes, edges // 2
