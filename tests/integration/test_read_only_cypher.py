"""`kg cypher` without --write cannot change the graph, whatever the statement tries.

One table of write attempts (Cypher clauses, schema and admin commands, APOC and built-in
procedures, other databases), each run through the CLI on the small map: each must be
refused with one `Error:` line and exit code 1, and must leave the node, relationship,
property, label, index, constraint, user and database counts as they were. A last test
compares the whole graph's canonical dump with the one taken before the table ran.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection
from tests.data import EXAMPLES, SEED_PAGE, SEED_RECORD
from tests.graph_dump import dump_graph

WRITES = [
    # Cypher writes
    "CREATE (:Evil)",
    "CREATE (n:Paper {key: 'x'}) RETURN n",
    "create (:Evil {lower: true})",
    "/* only a read */ CREATE (:Evil)",
    "PROFILE CREATE (:Evil)",
    "CYPHER runtime=slotted CREATE (:Evil)",
    "MERGE (:Evil {name: 'm'})",
    "MERGE (p:Paper {key: '2110.03888'}) ON MATCH SET p.title = 'owned'",
    "MERGE (p:Paper {key: 'evil-new'}) ON CREATE SET p.title = 'owned'",
    "MATCH (p:Paper) SET p.title = 'owned'",
    "MATCH (p:Paper) SET p += {title: 'owned'}",
    "MATCH (p:Paper) SET p = {}",
    "MATCH (p:Paper) SET p:Owned",
    "MATCH ()-[r:CITES]->() SET r.evil = 1",
    "MATCH (p:Paper) REMOVE p.title",
    "MATCH (p:Paper) REMOVE p:Paper",
    "MATCH (p:Paper) DELETE p",
    "MATCH (p:Paper) DETACH DELETE p",
    "MATCH ()-[r:CITES]->() DELETE r",
    "MATCH (n) DETACH DELETE n",
    "MATCH (a:Paper), (b:Paper) CREATE (a)-[:EVIL]->(b)",
    "MATCH (p:Paper {key: '2110.03888'}) MERGE (p)-[:CITES]->(p)",
    "MATCH (p:Paper) FOREACH (x IN [1] | CREATE (:Evil))",
    "UNWIND range(1, 3) AS i CREATE (:Evil {i: i})",
    "CALL { CREATE (:Evil) } RETURN 1",
    "MATCH (p:Paper) CALL (p) { SET p.evil = true } RETURN count(*)",
    "MATCH (p:Paper) CALL (p) { DETACH DELETE p } IN TRANSACTIONS OF 1 ROWS",
    "UNWIND range(1, 3) AS i CALL (i) { CREATE (:Evil {i: i}) } IN TRANSACTIONS",
    "LOAD CSV FROM 'file:///etc/passwd' AS row CREATE (:Evil {row: row})",
    "LOAD CSV WITH HEADERS FROM 'file:///etc/hosts' AS row MERGE (:Evil {row: 1})",
    # schema
    "CREATE INDEX evil_index IF NOT EXISTS FOR (n:Evil) ON (n.name)",
    "CREATE RANGE INDEX evil_rel_index IF NOT EXISTS FOR ()-[r:CITES]-() ON (r.evil)",
    "CREATE TEXT INDEX evil_text IF NOT EXISTS FOR (n:Paper) ON (n.title)",
    "CREATE POINT INDEX evil_point IF NOT EXISTS FOR (n:Paper) ON (n.place)",
    "CREATE FULLTEXT INDEX evil_fulltext IF NOT EXISTS FOR (n:Paper) ON EACH [n.abstract]",
    "DROP INDEX paper_norm_title IF EXISTS",
    "DROP CONSTRAINT paper_key IF EXISTS",
    "CREATE CONSTRAINT evil IF NOT EXISTS FOR (n:Evil) REQUIRE n.name IS UNIQUE",
    # databases, users and roles
    "CREATE DATABASE evil IF NOT EXISTS",
    "DROP DATABASE neo4j IF EXISTS",
    "STOP DATABASE neo4j",
    "CREATE ALIAS evil_alias IF NOT EXISTS FOR DATABASE neo4j",
    "CREATE USER evil IF NOT EXISTS SET PASSWORD 'evil-password-123'",
    "USE system CREATE USER evil2 IF NOT EXISTS SET PASSWORD 'evil-password-123'",
    "ALTER USER neo4j SET PASSWORD 'owned-password-123' CHANGE NOT REQUIRED",
    "ALTER CURRENT USER SET PASSWORD FROM 'x' TO 'y'",
    "DROP USER neo4j IF EXISTS",
    "CREATE ROLE evil IF NOT EXISTS",
    "GRANT ROLE admin TO neo4j",
    # another database
    "USE system CREATE (:Evil)",
    "USE evil CREATE (:Evil)",
    # other sessions' work
    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
    "terminate transaction 'neo4j-transaction-1'",
    "SHOW TRANSACTIONS YIELD transactionId TERMINATE TRANSACTIONS transactionId",
    # APOC
    "CALL apoc.create.node(['Evil'], {name: 'apoc'})",
    "MATCH (a:Paper), (b:Paper) WITH a, b LIMIT 1 "
    "CALL apoc.create.relationship(a, 'EVIL', {}, b) YIELD rel RETURN rel",
    "MATCH (p:Paper) CALL apoc.create.setProperty(p, 'evil', true) YIELD node RETURN node",
    "MATCH (p:Paper) CALL apoc.create.addLabels(p, ['Evil']) YIELD node RETURN node",
    "MATCH (p:Paper) CALL apoc.create.removeLabels(p, ['Paper']) YIELD node RETURN node",
    "MATCH (p:Paper) CALL apoc.create.setLabels(p, ['Evil']) YIELD node RETURN node",
    "CALL apoc.merge.node(['Evil'], {name: 'apoc'})",
    "MATCH (a:Paper), (b:Paper) WITH a, b LIMIT 1 "
    "CALL apoc.merge.relationship(a, 'EVIL', {}, {}, b, {}) YIELD rel RETURN rel",
    "MATCH (p:Paper) WITH collect(p) AS ps CALL apoc.refactor.mergeNodes(ps) YIELD node "
    "RETURN node",
    "MATCH (p:Paper) WITH collect(p) AS ps CALL apoc.refactor.cloneNodes(ps) YIELD output "
    "RETURN output",
    "MATCH ()-[r:CITES]->() WITH r LIMIT 1 CALL apoc.refactor.setType(r, 'EVIL') "
    "YIELD output RETURN output",
    "CALL apoc.refactor.rename.label('Paper', 'Owned')",
    "CALL apoc.periodic.iterate('MATCH (p:Paper) RETURN p', 'SET p.evil = true', {})",
    "CALL apoc.periodic.commit('MATCH (p:Paper) WHERE p.evil IS NULL WITH p LIMIT 1 "
    "SET p.evil = true RETURN count(*)', {})",
    "CALL apoc.periodic.submit('evil', 'CREATE (:Evil)')",
    "CALL apoc.cypher.doIt('CREATE (:Evil) RETURN 1 AS x', {})",
    "CALL apoc.cypher.runWrite('CREATE (:Evil)', {})",
    "CALL apoc.cypher.runMany('CREATE (:Evil);', {})",
    "CALL apoc.do.when(true, 'CREATE (:Evil) RETURN 1 AS x', '', {})",
    "MATCH (p:Paper) WITH p LIMIT 1 CALL apoc.nodes.delete(p, 1) YIELD value RETURN value",
    "MATCH (p:Paper) WITH p LIMIT 1 CALL apoc.atomic.add(p, 'year', 1) YIELD newValue "
    "RETURN newValue",
    "CALL apoc.schema.assert({Evil: ['name']}, {})",
    # built-in and dbms procedures
    "CALL db.createLabel('Evil')",
    "CALL db.createProperty('evil')",
    "CALL db.createRelationshipType('EVIL')",
    "CALL dbms.setConfigValue('db.logs.query.enabled', 'OFF')",
    "CALL dbms.security.createUser('evil', 'evil-password-123', false)",
]

# The few the server refuses before the write guard is reached, and why; every other attempt
# must be refused by the guard itself (the READ transaction, or the TERMINATE check), so a
# statement that fails for a typo cannot pass as a refusal.
REFUSED_BEFORE_THE_GUARD = {
    "USE system CREATE USER evil2 IF NOT EXISTS SET PASSWORD 'evil-password-123'": (
        "The `USE` clause is not required for Administration Commands"
    ),
    "USE evil CREATE (:Evil)": "Graph not found: evil",
    # The procedure check plans a statement before it runs (EXPLAIN), and the system
    # database plans no CREATE: refused with the server's words, as a typo would be.
    "USE system CREATE (:Evil)": "The following unsupported clauses were used: CREATE",
    "CALL dbms.setConfigValue('db.logs.query.enabled', 'OFF')": (
        "There is no procedure with the name `dbms.setConfigValue`"
    ),
    "CALL dbms.security.createUser('evil', 'evil-password-123', false)": (
        "There is no procedure with the name `dbms.security.createUser`"
    ),
}


@pytest.fixture(scope="module")
def read_only_map(
    session_graph: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Database, tuple[list[str], list[str]]]]:
    """The small map, loaded once for the module, with its canonical dump."""
    clear_database(session_graph)
    rejects = tmp_path_factory.mktemp("read-only") / "r.jsonl"
    KnowledgeGraph.on(session_graph).load(
        [EXAMPLES / "map", SEED_PAGE, SEED_RECORD], rejects_path=rejects
    )
    yield session_graph, dump_graph(session_graph)
    clear_database(session_graph)


def _counts(graph: Database) -> dict[str, Any]:
    """What any write would change: graph, tokens, schema, users and databases."""
    row = graph.read(
        "MATCH (n) WITH count(n) AS nodes, sum(size(keys(n))) AS node_props, "
        "collect(DISTINCT labels(n)) AS node_labels "
        "OPTIONAL MATCH ()-[r]->() "
        "RETURN nodes, node_props, node_labels, count(r) AS relationships, "
        "sum(size(keys(r))) AS relationship_props"
    )[0]
    counts: dict[str, Any] = dict(row)
    for name, query in {
        "labels": "CALL db.labels() YIELD label RETURN collect(label) AS v",
        "types": "CALL db.relationshipTypes() YIELD relationshipType "
        "RETURN collect(relationshipType) AS v",
        "property_keys": "CALL db.propertyKeys() YIELD propertyKey "
        "RETURN collect(propertyKey) AS v",
        "indexes": "SHOW INDEXES YIELD name RETURN collect(name) AS v",
        "constraints": "SHOW CONSTRAINTS YIELD name RETURN collect(name) AS v",
        "users": "SHOW USERS YIELD user RETURN collect(user) AS v",
        "databases": "SHOW DATABASES YIELD name, currentStatus "
        "RETURN collect([name, currentStatus]) AS v",
    }.items():
        counts[name] = sorted(map(str, graph.read(query)[0]["v"]))
    return counts


def test_the_table_holds_57_distinct_attempts() -> None:
    assert len(set(WRITES)) == len(WRITES) >= 57
    assert set(REFUSED_BEFORE_THE_GUARD) <= set(WRITES)


@pytest.mark.parametrize("statement", WRITES)
def test_a_write_without_write_is_refused(
    read_only_map: tuple[Database, tuple[list[str], list[str]]],
    kg_env: Connection,
    statement: str,
) -> None:
    graph, _ = read_only_map
    before = _counts(graph)
    assert before["nodes"] > 0
    assert before["relationships"] > 0
    result = CliRunner().invoke(main, ["cypher", statement])
    # 2 where kg's procedure check refuses it (a ParameterError), 1 where the server does
    assert result.exit_code in (1, 2), (statement, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.output.startswith("Error: "), result.output
    assert "Traceback" not in result.output
    if statement in REFUSED_BEFORE_THE_GUARD:
        assert REFUSED_BEFORE_THE_GUARD[statement] in result.output, result.output
    else:
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert "a READ transaction" in result.output, result.output
    assert _counts(graph) == before


def test_nothing_was_written_by_the_whole_table(
    read_only_map: tuple[Database, tuple[list[str], list[str]]], kg_env: Connection
) -> None:
    graph, dump = read_only_map
    time.sleep(1)  # anything apoc.periodic.submit could have scheduled runs by now
    assert dump_graph(graph) == dump
    assert _counts(graph)["users"] == ["neo4j"]
    # A read still works: the refusals above are the write guard, not a broken command.
    result = CliRunner().invoke(main, ["cypher", "MATCH (p:Paper) RETURN count(p) AS n"])
    assert result.exit_code == 0, result.output
