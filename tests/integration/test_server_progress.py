"""Long `kg db` work names its stages on stderr while stdout keeps the result."""

from __future__ import annotations

from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection


def test_reset_names_its_stages(graph: Database, kg_env: Connection) -> None:
    graph.write(
        "MERGE (a:Probe {name: 'a'}) MERGE (b:Probe {name: 'b'}) MERGE (c:Probe {name: 'c'}) "
        "MERGE (a)-[:LINKS]->(b)"
    )
    result = CliRunner().invoke(main, ["db", "reset", "--yes"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Deleted 3 nodes from {kg_env.database!r}\n"
    stages = result.stderr.splitlines()
    assert stages[0].startswith(f"counting what {kg_env.database!r} at {kg_env.uri} holds")
    assert stages[1] == "deleting 1 relationship, then 3 nodes…"
    assert graph.read("MATCH (n) RETURN count(n) AS n") == [{"n": 0}]
