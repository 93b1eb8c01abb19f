"""Two `kg db start` at once on a fresh KG_HOME, and a server that dies under a client.

Each test runs real `kg` processes on its own home and free ports, and leaves no server behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg.server.local import ENTRY_POINT
from tests.unit.test_server_lock import kg_env, kg_executable


def server_processes(home: Path) -> list[int]:
    """Every process whose command line is a Neo4j server of ``home`` (pid file or not)."""
    wanted = f"--home-dir={home / 'neo4j'}"
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        if ENTRY_POINT in args and wanted in args:
            found.append(int(entry.name))
    return found


def kg(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [kg_executable(), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    """A fresh KG_HOME; any server left in it is killed afterwards."""
    path = tmp_path / "kg-home"
    yield path
    for pid in server_processes(path):
        os.kill(pid, signal.SIGKILL)


def test_two_starts_at_once_make_one_server_that_stop_finds_without_its_pid_file(
    home: Path,
) -> None:
    # One server for both cases: a start costs 20 to 40 s of the suite.
    env = kg_env(home)
    starts = [
        subprocess.Popen(
            [kg_executable(), "db", "start", "--timeout", "240"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [(p.wait(timeout=600), *p.communicate()) for p in starts]
    for code, out, err in results:
        assert code == 0, f"{out}\n{err}"
        assert "Traceback" not in err
    outputs = sorted(out.splitlines()[0] for _, out, _ in results)
    assert outputs[0].startswith("Neo4j 5.26"), outputs
    assert " started in " in outputs[0]
    assert outputs[1].startswith("Neo4j is already running (pid "), outputs
    # The one that started it named each stage of install and start on stderr.
    stages = next(err for _, out, err in results if " started in " in out)
    installed: tuple[str, ...] = ("fetching Neo4j 5.26", "copying plugins")
    if "from the jar cache" in stages:  # an install kept before: linked, no Maven
        installed = ("linking the jars of Neo4j 5.26",)
    for stage in (
        *installed,
        "setting the initial password",
        "starting Neo4j",
        "waiting for Bolt",
    ):
        assert stage in stages, stages
    # The other one waited for it rather than racing it. It names the holder's pid when the
    # holder has written it; a waiter that reads the lock file in the instant between the
    # holder's flock and that write says "another kg command" (both name the lock file).
    waited = next(err for _, out, err in results if "already running" in out)
    assert any(f"waiting for {who}" in waited for who in ("kg (pid ", "another kg command")), waited
    assert f"which holds {home / 'kg.lock'}" in waited, waited

    running = server_processes(home)
    assert len(running) == 1, running
    status = kg(env, "db", "status", "--json")
    assert status.returncode == 0, status.stderr
    report = json.loads(status.stdout)
    assert report["running"] is True
    assert report["pid"] == running[0]

    # What an older kg left behind after two racing starts: a server nobody tracks. Status
    # and stop still find it.
    (home / "neo4j" / "run" / "kg-neo4j.pid").unlink()
    untracked = kg(env, "db", "status", "--json")
    assert untracked.returncode == 0, untracked.stderr
    assert json.loads(untracked.stdout)["pid"] == running[0]
    stop = kg(env, "db", "stop")
    assert stop.returncode == 0, stop.stderr
    assert stop.stdout.strip() == "Neo4j stopped"
    assert server_processes(home) == []
    stopped = kg(env, "db", "status", "--json")
    assert stopped.returncode == 3
    assert json.loads(stopped.stdout)["running"] is False
    assert kg(env, "db", "stop").stdout.strip() == "Neo4j was not running"


_CLIENT = """
import sys, time
from kg.database import Database
from kg.errors import KGError
graph = Database.connect()
graph.write("MERGE (:Probe {name: 'before'})")
print("ready", flush=True)
sys.stdin.readline()
began = time.monotonic()
try:
    graph.write("MERGE (:Probe {name: 'after'})")
except KGError as exc:
    print(f"Error: {exc}", file=sys.stderr)
print(f"{time.monotonic() - began:.1f}", flush=True)
"""


def test_a_dead_server_is_reported_promptly_without_driver_logs(home: Path) -> None:
    env = kg_env(home)
    assert kg(env, "db", "start", "--timeout", "240").returncode == 0
    client = subprocess.Popen(
        [sys.executable, "-c", _CLIENT],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert client.stdout is not None
        assert client.stdin is not None
        assert client.stdout.readline().strip() == "ready"
        # Killed, as when Neo4j dies mid-load.
        for pid in server_processes(home):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while server_processes(home) and time.monotonic() < deadline:
            time.sleep(0.1)
        client.stdin.write("\n")
        client.stdin.flush()
        out, err = client.communicate(timeout=120)
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
    seconds = float(out.strip().splitlines()[-1])
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("Error: cannot reach Neo4j at neo4j://127.0.0.1:"), err
    assert "retried" not in err
    assert "routing information" not in err
    # 15 s of retries plus connection timeouts: 28 s measured on a quiet run, 30.6 s with
    # three test suites on the 2 cores. The driver's default of 30 s of retries would add
    # 15 s to either, which this bound still tells apart.
    assert seconds < 40, f"took {seconds}s to report a dead server"
    assert server_processes(home) == []
    assert kg(env, "db", "status").returncode == 3
