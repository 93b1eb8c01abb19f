"""The managed local Neo4j: start, status, Browser, persistence, two instances, errors.

Security (loopback only, authentication, file modes, the password kept out of sight) is in
test_server_security.py; concurrent starts and a dying server in test_server_concurrency.py.
"""

from __future__ import annotations

import json
import socket
import stat
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from kg.server.install import NEO4J_VERSION
from tests.conftest import free_port


def _env(home: Path, bolt: int, http: int) -> dict[str, str | None]:
    return {
        "KG_HOME": str(home),
        "KG_BOLT_PORT": str(bolt),
        "KG_HTTP_PORT": str(http),
        "KG_HEAP": "1g",
        "KG_PAGECACHE": "256m",
        "NEO4J_URI": None,
        "NEO4J_PASSWORD": None,
    }


def test_the_test_server_is_neo4j_5_26(session_graph: Database) -> None:
    rows = session_graph.read("CALL dbms.components() YIELD name, versions, edition RETURN *")
    assert rows[0]["name"] == "Neo4j Kernel"
    assert rows[0]["versions"][0].startswith("5.26")


def test_second_instance_lifecycle(
    tmp_path: Path, neo4j_connection: Connection, session_graph: Database
) -> None:
    home = tmp_path / "second"
    bolt, http = free_port(), free_port()
    runner = CliRunner()
    env = _env(home, bolt, http)
    try:
        started = runner.invoke(main, ["db", "start"], env=env)
        assert started.exit_code == 0, started.output
        assert f"neo4j://127.0.0.1:{bolt}" in started.output
        password_file = home / "neo4j-password"
        password = password_file.read_text(encoding="utf-8").strip()
        assert stat.S_IMODE(password_file.stat().st_mode) == 0o600
        assert password not in started.output
        log_text = "".join(
            p.read_text(errors="replace") for p in (home / "neo4j" / "logs").glob("*.log")
        )
        assert password not in log_text

        status = runner.invoke(main, ["db", "status", "--json"], env=env)
        assert status.exit_code == 0, status.output
        report = json.loads(status.output)
        assert report["running"] is True
        assert report["version"] == NEO4J_VERSION
        assert report["bolt_uri"] == f"neo4j://127.0.0.1:{bolt}"
        assert report["browser_url"] == f"http://127.0.0.1:{http}/browser/"
        assert isinstance(report["pid"], int)

        with urllib.request.urlopen(report["browser_url"], timeout=10) as page:
            assert page.status == 200
            assert "Neo4j Browser" in page.read().decode("utf-8", errors="replace")

        # The fixture's server keeps answering while this one runs beside it.
        assert session_graph.read("RETURN 1 AS one") == [{"one": 1}]

        conf = (home / "neo4j" / "conf" / "neo4j.conf").read_text(encoding="utf-8")
        assert "server.default_listen_address=127.0.0.1" in conf
        assert "dbms.security.auth_enabled=true" in conf
        assert "client.allow_telemetry=false" in conf

        wrote = runner.invoke(
            main,
            [
                "cypher",
                "--write",
                "MERGE (n:Probe {name: $name}) RETURN n.name AS name",
                "-p",
                "name=kept",
            ],
            env=env,
        )
        assert wrote.exit_code == 0, wrote.output

        assert runner.invoke(main, ["db", "stop"], env=env).exit_code == 0
        stopped = runner.invoke(main, ["db", "status", "--json"], env=env)
        assert stopped.exit_code == 3
        assert json.loads(stopped.output)["running"] is False

        again = runner.invoke(main, ["db", "start"], env=env)
        assert again.exit_code == 0, again.output
        read = runner.invoke(
            main, ["cypher", "MATCH (n:Probe) RETURN n.name AS name", "--json"], env=env
        )
        assert json.loads(read.output) == {"results": [{"name": "kept"}]}

        # A reset of the local server drops the store: the data goes, the schema is applied
        # again, and the password and the settings stay.
        assert runner.invoke(main, ["init"], env=env).exit_code == 0
        reset = runner.invoke(main, ["db", "reset", "--yes"], env=env)
        assert reset.exit_code == 0, reset.output
        assert reset.stdout == (
            "Emptied 'neo4j' of the local server: its store was dropped, the schema applied again\n"
        )
        assert password_file.read_text(encoding="utf-8").strip() == password
        emptied = runner.invoke(
            main, ["cypher", "MATCH (n) RETURN count(n) AS n", "--json"], env=env
        )
        assert json.loads(emptied.output) == {"results": [{"n": 0}]}
        schema = runner.invoke(main, ["init", "--json"], env=env)
        assert json.loads(schema.output)["created"] == []
        assert json.loads(schema.output)["existing"]
    finally:
        runner.invoke(main, ["db", "stop"], env=env)


def test_port_in_use_is_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        result = CliRunner().invoke(
            main, ["db", "start"], env=_env(tmp_path / "busy", taken, free_port())
        )
    assert result.exit_code == 1
    assert f"Error: port {taken} on 127.0.0.1 is already in use" in result.output
    assert "KG_BOLT_PORT" in result.output
    assert "Traceback" not in result.output


def test_failed_start_shows_the_log_tail(tmp_path: Path) -> None:
    env = _env(tmp_path / "huge", free_port(), free_port())
    env["KG_HEAP"] = "100000g"
    result = CliRunner().invoke(main, ["db", "start", "--timeout", "60"], env=env)
    assert result.exit_code == 1
    assert "Error: Neo4j exited during start" in result.output
    assert "log tail:" in result.output
    assert "Traceback" not in result.output


def test_wrong_credentials_are_one_clear_line(neo4j_connection: Connection) -> None:
    env = {
        "NEO4J_URI": neo4j_connection.uri,
        "NEO4J_USER": neo4j_connection.user,
        "NEO4J_PASSWORD": "not-the-password",
    }
    result = CliRunner().invoke(main, ["stats"], env=env)
    assert result.exit_code == 1
    assert "refused the credentials" in result.output
    assert "Traceback" not in result.output


def test_unreachable_server_is_one_clear_line() -> None:
    env = {"NEO4J_URI": f"neo4j://127.0.0.1:{free_port()}", "NEO4J_PASSWORD": "x"}
    result = CliRunner().invoke(main, ["stats"], env=env)
    assert result.exit_code == 1
    assert "cannot reach Neo4j" in result.output
