"""`kg cypher --write` runs the user's statement once, in an auto-commit transaction, never
through the retried execute_write: a statement that is not safe to repeat (a CREATE) is
never run twice, and `CALL { } IN TRANSACTIONS`, which only an auto-commit transaction can
run, works."""

from __future__ import annotations

import os
import subprocess

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from tests.unit.test_server_lock import kg_executable


def _probes(graph: Database) -> int:
    return int(graph.read("MATCH (p:Probe) RETURN count(p) AS n")[0]["n"])


def test_a_write_runs_once_and_returns_its_rows(graph: Database, kg_env: Connection) -> None:
    statement = "CREATE (p:Probe {at: $at}) RETURN p.at AS at"
    result = CliRunner().invoke(main, ["cypher", "--write", "--json", "-p", "at=x", statement])
    assert result.exit_code == 0, result.output
    assert '"at": "x"' in result.output
    assert _probes(graph) == 1


def test_call_in_transactions_runs_with_write(graph: Database, kg_env: Connection) -> None:
    statement = (
        "UNWIND range(1, 10) AS i CALL (i) { CREATE (:Probe {i: i}) } IN TRANSACTIONS OF 3 ROWS"
    )
    result = CliRunner().invoke(main, ["cypher", "--write", statement])
    assert result.exit_code == 0, result.output
    assert _probes(graph) == 10
    # And the batched delete the README's clean-up would use.
    result = CliRunner().invoke(
        main, ["cypher", "--write", "MATCH (p:Probe) CALL (p) { DELETE p } IN TRANSACTIONS"]
    )
    assert result.exit_code == 0, result.output
    assert _probes(graph) == 0


def test_the_help_says_a_write_runs_once_unretried() -> None:
    result = CliRunner().invoke(main, ["cypher", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    assert "auto-commit transaction" in text
    assert "never retried" in text
    assert "IN TRANSACTIONS" in text


def test_a_write_that_fails_transiently_is_not_run_again(
    graph: Database, kg_env: Connection
) -> None:
    """A deadlock is a transient error, which execute_write retries (running the statement
    a second time, and then succeeding). Two `kg cypher --write` statements take nodes A and
    B in opposite orders, with a sleep between, so they deadlock and the server aborts one.
    Run once, the victim fails with one error line and only the other's increments stay;
    retried, both would succeed and every node would count two."""
    if not graph.read("SHOW PROCEDURES YIELD name WHERE name = 'apoc.util.sleep' RETURN name"):
        pytest.skip("the server has no APOC (apoc.util.sleep)")
    graph.write("CREATE (:Probe {k: 'A', n: 0}), (:Probe {k: 'B', n: 0})")
    env = {**os.environ, "NEO4J_URI": kg_env.uri, "NEO4J_USER": kg_env.user}
    env |= {"NEO4J_PASSWORD": kg_env.password, "NEO4J_DATABASE": kg_env.database}
    users = []
    for first, then in (("A", "B"), ("B", "A")):
        statement = (
            f"MATCH (x:Probe {{k: '{first}'}}) SET x.n = x.n + 1 "
            "WITH x CALL apoc.util.sleep(3000) "
            f"WITH x MATCH (y:Probe {{k: '{then}'}}) SET y.n = y.n + 1 RETURN x.n AS n"
        )
        users.append(
            subprocess.Popen(
                [kg_executable(), "cypher", "--write", statement],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    outputs = [user.communicate(timeout=60)[0] for user in users]
    codes = sorted(user.returncode for user in users)
    assert codes == [0, 1], outputs
    failed = next(out for user, out in zip(users, outputs, strict=True) if user.returncode)
    assert failed.startswith("Error: "), failed
    assert "Traceback" not in failed
    assert failed.startswith(
        "Error: the statement failed with Neo.TransientError.Transaction.DeadlockDetected and "
        "was not run again (--write runs it once, in an auto-commit transaction). "
    ), failed
    assert len(failed.strip().splitlines()) == 1, failed
    counts = graph.read("MATCH (p:Probe) RETURN p.k AS k, p.n AS n ORDER BY k")
    assert counts == [{"k": "A", "n": 1}, {"k": "B", "n": 1}]
