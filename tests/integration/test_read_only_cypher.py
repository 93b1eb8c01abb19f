"""`kg cypher` without --write cannot change the graph, whatever the statement tries."""

from __future__ import annotations

from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from tests.graph_dump import dump_graph

WRITES = [
    "CREATE (:Evil)",
    "CREATE (n:Paper {key: 'x'}) RETURN n",
    "MERGE (:Evil {name: 'm'})",
    "MATCH (p:Paper) SET p.title = 'owned'",
    "MATCH (p:Paper) SET p += {title: 'owned'}",
    "MATCH (p:Paper) SET p:Owned",
    "MATCH (p:Paper) REMOVE p.title",
    "MATCH (p:Paper) REMOVE p:Paper",
    "MATCH (p:Paper) DELETE p",
    "MATCH (p:Paper) DETACH DELETE p",
    "MATCH ()-[r:CITES]->() DELETE r",
    "MATCH (a:Paper), (b:Paper) CREATE (a)-[:EVIL]->(b)",
    "MATCH (p:Paper) FOREACH (x IN [1] | CREATE (:Evil))",
    "UNWIND range(1, 3) AS i CREATE (:Evil {i: i})",
    "CALL { CREATE (:Evil) } RETURN 1",
    "MATCH (p:Paper) CALL (p) { SET p.evil = true } RETURN count(*)",
    "LOAD CSV FROM 'file:///etc/passwd' AS row CREATE (:Evil {row: row})",
    "CREATE INDEX evil_index IF NOT EXISTS FOR (n:Evil) ON (n.name)",
    "DROP CONSTRAINT paper_key IF EXISTS",
    "CREATE CONSTRAINT evil IF NOT EXISTS FOR (n:Evil) REQUIRE n.name IS UNIQUE",
    "CREATE DATABASE evil IF NOT EXISTS",
    "CREATE USER evil IF NOT EXISTS SET PASSWORD 'evil-password-123'",
    "ALTER CURRENT USER SET PASSWORD FROM 'x' TO 'y'",
    "TERMINATE TRANSACTIONS 'neo4j-transaction-1'",
    "SHOW TRANSACTIONS YIELD transactionId TERMINATE TRANSACTIONS transactionId",
    "CALL apoc.create.node(['Evil'], {name: 'apoc'})",
    "CALL apoc.merge.node(['Evil'], {name: 'apoc'})",
    "MATCH (p:Paper) CALL apoc.create.setProperty(p, 'evil', true) YIELD node RETURN node",
    "MATCH (p:Paper) CALL apoc.create.addLabels(p, ['Evil']) YIELD node RETURN node",
    "MATCH (p:Paper) WITH collect(p) AS ps CALL apoc.refactor.mergeNodes(ps) YIELD node "
    "RETURN node",
    "CALL apoc.periodic.iterate('MATCH (p:Paper) RETURN p', 'SET p.evil = true', {})",
    "CALL apoc.cypher.doIt('CREATE (:Evil) RETURN 1 AS x', {})",
    "CALL apoc.cypher.runWrite('CREATE (:Evil)', {})",
    "CALL db.createLabel('Evil')",
    "CALL db.createProperty('evil')",
    "CALL db.createRelationshipType('EVIL')",
    "MATCH (p:Paper) WITH p LIMIT 1 CALL apoc.nodes.delete(p, 1) YIELD value RETURN value",
]


def test_writes_without_write_are_refused(small_map: Database, kg_env: Connection) -> None:
    before = dump_graph(small_map)
    labels = small_map.read("CALL db.labels() YIELD label RETURN collect(label) AS l")[0]["l"]
    runner = CliRunner()
    for statement in WRITES:
        result = runner.invoke(main, ["cypher", statement])
        assert result.exit_code != 0, (statement, result.output)
        assert result.output.startswith("Error: "), (statement, result.output)
        assert "Traceback" not in result.output, statement
    assert dump_graph(small_map) == before
    after = small_map.read("CALL db.labels() YIELD label RETURN collect(label) AS l")[0]["l"]
    assert after == labels
    assert small_map.read("SHOW USERS YIELD user RETURN collect(user) AS u")[0]["u"] == ["neo4j"]
