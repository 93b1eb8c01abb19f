"""`kg serve` checks the graph and the port before it prints the map's URL: Neo4j stopped
printed the URL then ~80 lines of ExceptionGroup/ServiceUnavailable traceback, and a port
in use the URL then uvicorn's raw [Errno 98]; each is one `Error:` line now."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from tests.conftest import free_port


def test_serve_with_neo4j_stopped_is_one_error_line() -> None:
    closed = free_port()  # nothing listens there: a Neo4j that is not running
    env = {"NEO4J_URI": f"neo4j://127.0.0.1:{closed}", "NEO4J_PASSWORD": "x"}
    result = CliRunner().invoke(main, ["serve", "--port", str(free_port())], env=env)
    assert result.exit_code == 1, result.output
    assert result.output == (
        f"Error: cannot reach Neo4j at neo4j://127.0.0.1:{closed}. Start the local server "
        "with `kg db start`, or check NEO4J_URI\n"
    )


def test_serve_on_a_port_in_use_is_one_error_line(kg_env: Connection) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 1, result.output
    assert result.output == (
        f"Error: port {port} on 127.0.0.1 is already in use. Stop what listens there, "
        "or pass another --port\n"
    )


def test_serve_serves_the_map(small_map: Database, kg_env: Connection) -> None:
    port = free_port()
    kg = Path(sys.executable).with_name("kg")
    served = subprocess.Popen(
        [str(kg), "serve", "--port", str(port)],
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert served.stdout is not None
        line = served.stdout.readline()
        assert line.startswith(f"the map: http://127.0.0.1:{port}/"), served.stderr
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/paper/1810.04805") as page:
            assert page.status == 200
            assert "BERT" in page.read().decode()
    finally:
        served.send_signal(signal.SIGINT)
        _, errors = served.communicate(timeout=30)
    assert "Traceback" not in errors
