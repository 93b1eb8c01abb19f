"""The schema (constraints and indexes from cypher/schema.cypher) and emptying a database.

``kg init`` applies the schema (``apply_schema``); a load only reads it (``ensure_schema``)
and applies it when a constraint or index it needs is missing. So a load needs no schema
privilege once the schema is there (a cluster's ``editor`` role can load), and a load on a
cluster does not send seventeen schema commands to the leader every time. Every schema
statement is idempotent (IF NOT EXISTS), so each is retried on a transient error or a
leader switch; the SHOW commands run as retried reads.
"""

from __future__ import annotations

import re
from typing import LiteralString

from kg import queries
from kg.answers.loads import SchemaReport
from kg.database import Database
from kg.errors import QueryFailed
from kg.numbers import COUNT

__all__ = [
    "apply_schema",
    "clear_database",
    "ensure_schema",
    "is_empty",
    "missing_schema",
    "required_names",
    "schema_names",
]

_SHOW_CONSTRAINTS: LiteralString = "SHOW CONSTRAINTS YIELD name RETURN name"
_SHOW_INDEXES: LiteralString = (
    "SHOW INDEXES YIELD name, owningConstraint, entityType, type, state "
    "WHERE type <> 'LOOKUP' RETURN name, owningConstraint IS NULL AS own, state"
)
_AWAIT: LiteralString = "CALL db.awaitIndexes(300)"
_NAMED = re.compile(
    r"^\s*CREATE\s+(?:CONSTRAINT|(?:\w+\s+)?INDEX)\s+(\w+)\s+IF\s+NOT\s+EXISTS\b", re.IGNORECASE
)


def _show(graph: Database) -> tuple[set[str], bool]:
    """Return the names of the constraints and user indexes, and whether every index (a
    constraint's own included) is online."""
    indexes = graph.read(_SHOW_INDEXES)
    names = {row["name"] for row in graph.read(_SHOW_CONSTRAINTS)}
    names |= {row["name"] for row in indexes if row["own"]}
    return names, all(row["state"] == "ONLINE" for row in indexes)


def schema_names(graph: Database) -> set[str]:
    """Return the names of the constraints and user indexes in the database."""
    return _show(graph)[0]


def required_names() -> set[str]:
    """Return the name of every constraint and index cypher/schema.cypher creates."""
    found = (_NAMED.match(statement) for statement in queries.get("schema").script)
    return {match.group(1) for match in found if match}


def missing_schema(graph: Database) -> list[str]:
    """Return the names of the schema's constraints and indexes the database lacks, sorted."""
    return sorted(required_names() - schema_names(graph))


def apply_schema(graph: Database) -> SchemaReport:
    """Apply every statement of cypher/schema.cypher (all IF NOT EXISTS) and wait for the
    indexes to come online. Returns which names were created and which existed.

    Each statement is an auto-commit transaction (schema commands cannot run in a managed
    one), retried on transient errors: repeating an IF NOT EXISTS is harmless.
    """
    before = schema_names(graph)
    for statement in queries.get("schema").script:
        graph.run_autocommit(statement, retry=True)
    graph.read(_AWAIT)
    after = schema_names(graph)
    return SchemaReport(tuple(sorted(after - before)), tuple(sorted(after & before)))


def ensure_schema(graph: Database) -> SchemaReport | None:
    """Make sure the schema a load needs is there: read it (SHOW, as retried reads) and
    apply cypher/schema.cypher only when a constraint or index is missing. Returns the
    report of that application, or None when nothing was missing (an index still being
    built is waited for, which reads only).

    Raises QueryFailed, naming what is missing, when the schema is incomplete and the user
    may not create it.
    """
    names, online = _show(graph)
    missing = sorted(required_names() - names)
    if not missing:
        if not online:
            graph.read(_AWAIT)
        return None
    try:
        return apply_schema(graph)
    except QueryFailed as exc:
        raise QueryFailed(
            f"the database lacks {', '.join(missing)} of the schema, and creating "
            f"{'it' if len(missing) == 1 else 'them'} failed: {exc.message}",
            "run `kg init` once as a user allowed to create indexes and constraints "
            "(on a cluster or Aura: the architect or admin role); loads then only read it",
        ) from exc


def clear_database(graph: Database, batch_size: int = 10_000) -> int:
    """Delete every relationship, then every node, in batches; the schema stays.

    Relationships go first so that no transaction holds a dense node's whole neighbourhood:
    the memory a batch needs stays bounded however connected the graph is.
    Returns the number of nodes deleted; raises ParameterError for a batch size below 1.
    """
    batch_size = COUNT.check("batch_size", batch_size)
    graph.run_autocommit(
        "MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF $size ROWS",
        {"size": batch_size * 5},
    )
    rows = graph.run_autocommit(
        "MATCH (n) CALL (n) { DELETE n } IN TRANSACTIONS OF $size ROWS RETURN count(n) AS deleted",
        {"size": batch_size},
    )
    return int(rows[0]["deleted"]) if rows else 0


def is_empty(graph: Database) -> bool:
    """Return True when the database holds no node."""
    return not graph.read("MATCH (n) RETURN n LIMIT 1")
