"""The KG_HOME lock, the generated config, `kg db status` exit codes and quiet driver errors.

No server is started here: these run real `kg` processes against a home with no server,
or a port nothing listens on.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from kg.cli import main
from kg.server.local import LOCK_FILE, LocalServer, home_lock
from tests.conftest import free_port, local_settings_for


def kg_executable() -> str:
    """The `kg` script of the interpreter running the tests."""
    beside = Path(sys.executable).with_name("kg")
    found = str(beside) if beside.exists() else shutil.which("kg")
    assert found, "the kg script is not installed"
    return found


def kg_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment for a `kg` process on ``home`` (never the developer's own server)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "KG_"))}
    env.update(
        KG_HOME=str(home),
        KG_BOLT_PORT=str(free_port()),
        KG_HTTP_PORT=str(free_port()),
        KG_HEAP="1g",
        KG_PAGECACHE="256m",
        **extra,
    )
    return env


def test_status_exits_3_when_not_running_and_still_reports(tmp_path: Path) -> None:
    env = kg_env(tmp_path / "home")
    as_json = subprocess.run(
        [kg_executable(), "db", "status", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert as_json.returncode == 3, as_json.stderr
    report = json.loads(as_json.stdout)
    assert report["running"] is False
    assert report["pid"] is None
    assert as_json.stderr == ""

    table = CliRunner().invoke(main, ["db", "status"], env=env)
    assert table.exit_code == 3
    assert "running" in table.output
    assert "Error" not in table.output


def test_status_help_documents_the_exit_codes() -> None:
    text = CliRunner().invoke(main, ["db", "status", "--help"]).output
    assert "0  the local server is running" in text
    assert "3  it is not running" in text


def test_a_second_command_waits_for_the_lock(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with home_lock(home):
        assert (home / LOCK_FILE).read_text(encoding="utf-8").strip() == str(os.getpid())
        assert (home / LOCK_FILE).stat().st_mode & 0o777 == 0o600
        waiting = subprocess.Popen(
            [kg_executable(), "db", "stop"],
            env=kg_env(home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert waiting.stderr is not None
            line = waiting.stderr.readline()
            assert line.startswith(f"waiting for kg (pid {os.getpid()}), which holds"), line
            time.sleep(1.0)
            assert waiting.poll() is None, "kg db stop ran while another command held the lock"
        except BaseException:
            waiting.kill()
            waiting.wait()
            raise
    out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    assert out.strip() == "Neo4j was not running"


def test_the_lock_is_reentrant_in_one_process(tmp_path: Path) -> None:
    server = LocalServer(local_settings_for(tmp_path / "home"))
    with server.lock(), server.lock():
        # stop() takes the lock again inside a held one, as `kg db start` does on a timeout.
        assert server.stop() is False
    # Released: another process can take it at once.
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR); "
            "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)",
            str(tmp_path / "home" / LOCK_FILE),
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr


def test_config_turns_browser_telemetry_off_and_listens_on_loopback(tmp_path: Path) -> None:
    server = LocalServer(local_settings_for(tmp_path / "home"))
    lines = server.write_config().read_text(encoding="utf-8").splitlines()
    assert "client.allow_telemetry=false" in lines
    assert "dbms.usage_report.enabled=false" in lines
    assert "browser.remote_content_hostname_whitelist=localhost,127.0.0.1" in lines
    assert "server.default_listen_address=127.0.0.1" in lines
    assert "dbms.security.auth_enabled=true" in lines
    listen = [line for line in lines if ".listen_address=" in line]
    assert listen
    assert all(line.split("=", 1)[1].startswith("127.0.0.1") for line in listen)


def test_unreachable_server_prints_only_the_projects_line(tmp_path: Path) -> None:
    env = kg_env(
        tmp_path / "home",
        NEO4J_URI=f"neo4j://127.0.0.1:{free_port()}",
        NEO4J_PASSWORD="not-used",
    )
    began = time.monotonic()
    result = subprocess.run(
        [kg_executable(), "stats"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    seconds = time.monotonic() - began
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: cannot reach Neo4j at neo4j://127.0.0.1:")
    assert "routing information" not in result.stderr
    assert seconds < 15, f"took {seconds:.1f}s to report a closed port"
