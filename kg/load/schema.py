"""The schema (constraints and indexes from cypher/schema.cypher) and emptying a database."""

from __future__ import annotations

from typing import LiteralString

from kg import queries
from kg.answers.loads import SchemaReport
from kg.database import Database

__all__ = [
    "apply_schema",
    "clear_database",
    "is_empty",
    "schema_names",
]

_SHOW_CONSTRAINTS: LiteralString = "SHOW CONSTRAINTS YIELD name RETURN name"
_SHOW_INDEXES: LiteralString = (
    "SHOW INDEXES YIELD name, owningConstraint, entityType, type "
    "WHERE owningConstraint IS NULL AND type <> 'LOOKUP' RETURN name"
)


def schema_names(graph: Database) -> set[str]:
    """Return the names of the constraints and user indexes in the database."""
    rows = graph.run_autocommit(_SHOW_CONSTRAINTS) + graph.run_autocommit(_SHOW_INDEXES)
    return {row["name"] for row in rows}


def apply_schema(graph: Database) -> SchemaReport:
    """Apply every statement of cypher/schema.cypher (all IF NOT EXISTS) and wait for the
    indexes to come online. Returns which names were created and which existed."""
    before = schema_names(graph)
    queries.get("schema").run(graph)
    graph.run_autocommit("CALL db.awaitIndexes(300)")
    after = schema_names(graph)
    return SchemaReport(tuple(sorted(after - before)), tuple(sorted(after & before)))


def clear_database(graph: Database, batch_size: int = 10_000) -> int:
    """Delete every relationship, then every node, in batches; the schema stays.

    Relationships go first so that no transaction holds a dense node's whole neighbourhood:
    the memory a batch needs stays bounded however connected the graph is.
    Returns the number of nodes deleted.
    """
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
