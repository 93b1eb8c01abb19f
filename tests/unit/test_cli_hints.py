"""Hints that name the right next step, checked without a server."""

from __future__ import annotations

from click.testing import CliRunner

from kg.cli import main


def test_an_unreachable_remote_server_is_not_told_to_start_locally() -> None:
    env = {"NEO4J_URI": "neo4j+s://db.invalid:7687", "NEO4J_PASSWORD": "x"}
    result = CliRunner().invoke(main, ["stats"], env=env)
    assert result.exit_code == 1
    assert "cannot reach Neo4j at neo4j+s://db.invalid:7687" in result.output
    assert "kg db start" not in result.output
    assert "check NEO4J_URI" in result.output
