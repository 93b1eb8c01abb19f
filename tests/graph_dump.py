"""A canonical, order-free dump of a whole graph, to compare two graphs for equality.

The loader's lock stripes (``:TitleLock``) and a paper's ``changed_at`` (when a load last
changed its citations, for the freshness of stored similarity) are bookkeeping, not data,
and are left out.
"""

from __future__ import annotations

import json
from typing import Any

from kg.graph import Graph

_NODES = """
MATCH (n) WHERE NOT n:TitleLock
RETURN labels(n) AS labels, n {.*, changed_at: null} AS props
"""
_RELATIONSHIPS = """
MATCH (a)-[r]->(b)
RETURN type(r) AS type,
       coalesce(a.key, a.code) AS start,
       coalesce(b.key, b.code) AS end,
       properties(r) AS props
"""


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def dump_graph(graph: Graph) -> tuple[list[str], list[str]]:
    """Return every node and relationship as sorted canonical JSON strings."""
    nodes = sorted(
        _canonical({"labels": sorted(row["labels"]), "props": row["props"]})
        for row in graph.read(_NODES)
    )
    relationships = sorted(_canonical(row) for row in graph.read(_RELATIONSHIPS))
    return nodes, relationships
