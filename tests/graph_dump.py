"""A canonical, order-free dump of a whole graph, to compare two graphs for equality.

The loader's lock stripes (``:TitleLock``), the copies of a paper's parts it keeps to take
the paper apart (``:Folded``: what each part held when they merged), a paper's
``changed_at`` (when a load last changed its citations, for the freshness of stored
similarity) and a split's ``recorded_at`` (when a user recorded it) are bookkeeping, not
data, and are left out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any, LiteralString

from kg.database import Database
from kg.load.import_sink import ImportFiles

NODES: LiteralString = """
MATCH (n) WHERE NOT n:TitleLock AND NOT n:Folded
RETURN labels(n) AS labels, n {.*, changed_at: null, recorded_at: null} AS props
"""
RELATIONSHIPS: LiteralString = """
MATCH (a)-[r]->(b) WHERE NOT a:Folded
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
        for row in graph.read(NODES)
    )
    relationships = sorted(_canonical(row) for row in graph.read(RELATIONSHIPS))
    return nodes, relationships


def create_from_import_files(graph: Database, files: ImportFiles) -> None:
    """Create in ``graph`` what ``neo4j-admin import`` would build from ``files``, reading
    the CSVs with the import tool's typing: the bulk path without stopping a server, for
    tests that compare it with the online loader many times. (The real import tool runs in
    tests/integration/test_bulk.py.)"""
    id_property: dict[str, str] = {}
    for label, paths in files.nodes.items():
        if label not in _LABELS:
            raise ValueError(f"unexpected label {label!r}")
        for path in paths:
            rows = list(_import_rows(path, real_dates=True))
            for row in rows:
                (column,) = [c for c in row if c.endswith(f":ID({label})")]
                name = column.split(":", 1)[0]
                id_property[label] = name
                row[name] = row.pop(column)
            graph.write(f"UNWIND $rows AS row CREATE (n:{label}) SET n = row", {"rows": rows})
    for kind, paths in files.relationships.items():
        if kind not in _TYPES:
            raise ValueError(f"unexpected relationship type {kind!r}")
        for path in paths:
            rows = list(_import_rows(path, real_dates=True))
            if not rows:
                continue
            (start_column,) = [c for c in rows[0] if c.startswith(":START_ID(")]
            (end_column,) = [c for c in rows[0] if c.startswith(":END_ID(")]
            start = start_column[len(":START_ID(") : -1]
            end = end_column[len(":END_ID(") : -1]
            if start not in _LABELS or end not in _LABELS:
                raise ValueError(f"unexpected id spaces {start!r}, {end!r}")
            items = [
                {"start": row.pop(start_column), "end": row.pop(end_column), "props": row}
                for row in rows
            ]
            graph.write(
                f"UNWIND $rows AS row "
                f"MATCH (a:{start} {{{id_property[start]}: row.start}}) "
                f"MATCH (b:{end} {{{id_property[end]}: row.end}}) "
                f"CREATE (a)-[r:{kind}]->(b) SET r = row.props",
                {"rows": items},
            )


_LABELS = ("Paper", "Author", "Category", "Snapshot")
_TYPES = ("CITES", "AUTHORED", "PRIMARY_CATEGORY", "CROSS_LISTED", "DESCRIBED_IN")


def _import_rows(path: Path, real_dates: bool = False) -> Iterator[dict[str, Any]]:
    """Yield each row of an import CSV as {column: typed value}, leaving out empty cells
    (no property); id columns keep their text; dates are ISO text unless ``real_dates``."""
    records = _csv_records(path.read_text(encoding="utf-8"))
    header = [name for name, _ in next(records)]
    for cells in records:
        row: dict[str, Any] = {}
        for column, (text, quoted) in zip(header, cells, strict=True):
            if column.startswith(":") or ":ID(" in column:
                row[column] = text
                continue
            name, _, kind = column.partition(":")
            if not quoted and text == "":
                continue
            value = _typed(text, kind or "string")
            row[name] = date.fromisoformat(value) if real_dates and kind == "date" else value
        yield row


def _typed(text: str, kind: str) -> Any:
    if kind.endswith("[]"):
        return [_typed(item, kind[:-2]) for item in text.split(";")] if text else []
    if kind in ("long", "int"):
        return int(text)
    if kind in ("double", "float"):
        special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
        return special[text] if text in special else float(text)
    if kind == "boolean":
        return text == "true"
    return text  # string, and date (a date dumps as its ISO text)


def _csv_records(text: str) -> Iterator[list[tuple[str, bool]]]:
    """Split import CSV text into records of (cell text, whether it was quoted): an unquoted
    empty cell is no property, a quoted one an empty string. Quoted cells may hold line
    breaks and doubled quotes."""
    cells: list[tuple[str, bool]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] == '"':
            j, parts = i + 1, []
            while True:
                k = text.index('"', j)
                parts.append(text[j:k])
                if k + 1 < n and text[k + 1] == '"':
                    parts.append('"')
                    j = k + 2
                    continue
                i = k + 1
                break
            cells.append(("".join(parts), True))
        else:
            k = i
            while k < n and text[k] not in ",\n":
                k += 1
            cells.append((text[i:k], False))
            i = k
        if i >= n or text[i] == "\n":
            yield cells
            cells = []
        i += 1


def differences(
    actual: tuple[list[str], list[str]], expected: tuple[list[str], list[str]], shown: int = 8
) -> str:
    """Return what is only in one of two dumps, a few lines a side, for an assert message."""
    lines = []
    for what, got, want in (
        ("nodes", set(actual[0]), set(expected[0])),
        ("relationships", set(actual[1]), set(expected[1])),
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
