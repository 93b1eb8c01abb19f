"""A canonical, order-free dump of a whole graph, to compare two graphs for equality.

The loader's lock stripes (``:TitleLock``) and a paper's ``changed_at`` (when a load last
changed its citations, for the freshness of stored similarity) are bookkeeping, not data,
and are left out.
"""

from __future__ import annotations

import json
from typing import Any

from kg.database import Database

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


def dump_graph(graph: Database) -> tuple[list[str], list[str]]:
    """Return every node and relationship as sorted canonical JSON strings."""
    nodes = sorted(
        _canonical({"labels": sorted(row["labels"]), "props": row["props"]})
        for row in graph.read(_NODES)
    )
    relationships = sorted(_canonical(row) for row in graph.read(_RELATIONSHIPS))
    return nodes, relationships


def differences(
    actual: tuple[list[str], list[str]], expected: tuple[list[str], list[str]], shown: int = 8
) -> str:
    """Return what is only in one of two dumps, a few lines a side, for an assert message."""
    lines = []
    for what, got, want in (
        ("nodes", *map(set, (actual[0], expected[0]))),
        ("relationships", *map(set, (actual[1], expected[1]))),
    ):
        paired = _paired(got - want, want - got)
        if paired:
            lines.append(f"{what} that differ in some properties ({len(paired)}):")
            lines.extend(f"  {line[:400]}" for line in paired[:shown])
            continue
        for label, items in (("only in actual", got - want), ("only in expected", want - got)):
            if items:
                lines.append(f"{what} {label} ({len(items)}):")
                lines.extend(f"  {item[:400]}" for item in sorted(items)[:shown])
    return "\n".join(lines) or "dumps differ only in the order or multiplicity of equal items"


def _paired(actual: set[str], expected: set[str]) -> list[str]:
    """Return, for items of the same key on both sides, the properties that differ; empty
    when the two sides do not pair up one to one."""

    def keyed(items: set[str]) -> dict[str, dict[str, Any]]:
        parsed = [json.loads(item) for item in items]
        return {
            _canonical(
                [
                    p.get("labels"),
                    p.get("type"),
                    p.get("start"),
                    p.get("end"),
                    p.get("props", {}).get("key"),
                    p.get("props", {}).get("code"),
                ]
            ): p
            for p in parsed
        }

    got, want = keyed(actual), keyed(expected)
    if len(got) != len(actual) or set(got) != set(want):
        return []
    lines = []
    for key in sorted(got):
        a, b = got[key].get("props", {}), want[key].get("props", {})
        changed = {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
        lines.append(f"{key}: actual/expected {changed}")
    return lines
