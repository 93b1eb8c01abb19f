"""Fault injection on real processes: a `kg load` killed with -9 at two points, the Neo4j
server killed with -9 mid-load, and `kg db stop` mid-load. After each, the same command run
again gives exactly the graph of a clean load (the canonical dump of tests/graph_dump.py);
no output holds a traceback or a driver log line, and the rejects file holds every reject the
killed load had seen.

The input is a made-up edge list in cit-HepTh's shape (tests/hepth_like.py: 4,000 edges,
loaded in batches of 250) with six bad lines spread through it. Faults are timed from the
graph itself: a kill happens once the graph holds a given number of citations, so it
always lands mid-load.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from neo4j import ManagedTransaction

from kg.database import Database
from kg.errors import ConnectionFailed
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection, LocalSettings
from kg.server.local import LocalServer
from tests import hepth_like
from tests.conftest import local_settings_for
from tests.graph_dump import dump_graph
from tests.integration.test_server_concurrency import server_processes
from tests.unit.test_server_lock import kg_executable

pytestmark = pytest.mark.slow

EDGES = 4_000
BATCH = 250
# Bad lines and where they go (line numbers in the written file, header included).
BAD_LINES = {
    50: "9304045\t\t",
    800: "hep-th\t9304045",
    1_600: "12x34\t9304045",
    2_400: "1001 9304045 extra",
    3_200: "-5\t9304045",
    4_005: "9304045",
}
INTERRUPTED = re.compile(
    r"Error: (?P<cause>.+): loaded (?P<written>[\d,]+) of (?P<read>[\d,]+) records; "
    r"rerun the same command to finish \(loads are idempotent\)"
)
Dump = tuple[list[str], list[str]]


@dataclass(frozen=True)
class EdgeSlice:
    """The input file and the rejects a complete load of it reports, by line."""

    path: Path
    rejects: dict[int, str]


def write_edge_slice(path: Path, edges: int, bad_lines: dict[int, str]) -> EdgeSlice:
    """Write a SNAP header and ``edges`` made-up edges in cit-HepTh's shape to ``path``, with
    ``bad_lines`` put at their line numbers; return the file and its expected rejects."""
    header = hepth_like.SNAP_HEADER.format(nodes=6_000, edges=edges).splitlines(keepends=True)
    made = [line + "\n" for line in hepth_like.edge_lines(edges, 6_000)]
    lines: list[str] = []
    for line in header + made:
        while len(lines) + 1 in bad_lines:
            lines.append(bad_lines[len(lines) + 1] + "\n")
        lines.append(line)
    while len(lines) + 1 in bad_lines:
        lines.append(bad_lines[len(lines) + 1] + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return EdgeSlice(path, dict(bad_lines))


def citations(graph: Database) -> int:
    """How many CITES relationships the graph holds (from the count store: instant)."""
    return int(graph.read("MATCH ()-[r:CITES]->() RETURN count(r) AS n")[0]["n"])


@dataclass
class Run:
    """One finished `kg load` (or other kg command): exit code and both outputs."""

    code: int
    out: str
    err: str
    killed: bool = False

    def check_quiet(self) -> None:
        """Assert no traceback and no driver log line in either output."""
        for text in (self.out, self.err):
            for noise in ("Traceback", "retried", "routing information", "WARNING", "ERROR:"):
                assert noise not in text, text


def run_kg(
    env: dict[str, str],
    args: list[str],
    folder: Path,
    *,
    kill_when: Callable[[], bool] | None = None,
    timeout: float = 300,
) -> Run:
    """Run ``kg args``; with ``kill_when``, send SIGKILL as soon as it returns True."""
    folder.mkdir(parents=True, exist_ok=True)
    out_path, err_path = folder / "out.txt", folder / "err.txt"
    with out_path.open("w") as out, err_path.open("w") as err:
        process = subprocess.Popen([kg_executable(), *args], env=env, stdout=out, stderr=err)
        killed = False
        deadline = time.monotonic() + timeout
        try:
            while process.poll() is None and time.monotonic() < deadline:
                if kill_when is not None and kill_when():
                    process.send_signal(signal.SIGKILL)
                    killed = True
                    break
                time.sleep(0.05)
            code = process.wait(timeout=max(deadline - time.monotonic(), 1))
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    return Run(code, out_path.read_text(), err_path.read_text(), killed)


# The `kg` script, except that it first imports the command line, says so by creating a file,
# and waits for a line on stdin before it runs: processes imported ahead and released
# together overlap in their loads, not in their two seconds of imports.
_HELD = """
import sys
from kg.cli import main
import igraph  # what kg rank imports as it computes: a released ranker computes at once
open(sys.argv.pop(1), "w").close()
sys.stdin.readline()
sys.argv[0] = "kg"
main()
"""


@dataclass
class Held:
    """A `kg` process imported and waiting to be released."""

    process: subprocess.Popen[bytes]
    folder: Path

    @classmethod
    def start(cls, env: dict[str, str], args: list[str], folder: Path) -> Held:
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / "out.txt").open("w") as out, (folder / "err.txt").open("w") as err:
            process = subprocess.Popen(
                [sys.executable, "-c", _HELD, str(folder / "ready"), *args],
                env=env,
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=err,
            )
        return cls(process, folder)

    @property
    def ready(self) -> bool:
        return (self.folder / "ready").exists() or self.process.poll() is not None

    def release(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"go\n")
        self.process.stdin.close()

    def wait(self, deadline: float) -> Run:
        """Wait for it until ``deadline`` (then kill it); return its run."""
        return finish(self.process, self.folder, deadline)


def finish(process: subprocess.Popen[bytes], folder: Path, deadline: float) -> Run:
    """Wait for ``process`` until ``deadline`` (then kill it); return its run."""
    try:
        code = process.wait(timeout=max(deadline - time.monotonic(), 1))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return Run(code, (folder / "out.txt").read_text(), (folder / "err.txt").read_text())


def load_args(data: EdgeSlice, rejects: Path, batch: int = BATCH) -> list[str]:
    """The arguments of `kg load` for ``data``."""
    return [
        "load",
        "--id-scheme",
        "snap-hepth",
        "--batch-size",
        str(batch),
        str(data.path),
        "--rejects",
        str(rejects),
    ]


def check_rejects(path: Path, data: EdgeSlice, *, read_at_least: int) -> None:
    """Assert that the rejects file holds whole JSON lines, in order, for the bad lines read
    so far: every one up to line ``read_at_least`` and nothing that is not a bad line."""
    entries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    seen = [(entry["line"], entry["raw"]) for entry in entries]
    expected = sorted(data.rejects.items())
    assert seen == expected[: len(seen)], seen
    assert all(entry["file"] == str(data.path) for entry in entries)
    must = [line for line in data.rejects if line <= read_at_least]
    assert [line for line, _ in seen][: len(must)] == must, (seen, read_at_least)


def cli_env(connection: Connection) -> dict[str, str]:
    """The environment of a `kg` process talking to ``connection``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "KG_"))}
    env.update(
        NEO4J_URI=connection.uri,
        NEO4J_USER=connection.user,
        NEO4J_PASSWORD=connection.password,
        NEO4J_DATABASE=connection.database,
    )
    return env


@pytest.fixture(scope="module")
def edge_slice(tmp_path_factory: pytest.TempPathFactory) -> EdgeSlice:
    return write_edge_slice(tmp_path_factory.mktemp("faults") / "edges.txt", EDGES, BAD_LINES)


@pytest.fixture(scope="module")
def clean_dump(
    session_graph: Database, edge_slice: EdgeSlice, tmp_path_factory: pytest.TempPathFactory
) -> Dump:
    """The canonical dump of one uninterrupted load of the slice."""
    clear_database(session_graph)
    summary = KnowledgeGraph.on(session_graph).load(
        [edge_slice.path],
        id_scheme="snap-hepth",
        batch_size=BATCH,
        rejects_path=tmp_path_factory.mktemp("clean") / "r.jsonl",
    )
    assert summary.rejected == len(BAD_LINES)
    assert summary.counts.relationships_created > EDGES - 100
    dump = dump_graph(session_graph)
    clear_database(session_graph)
    return dump


def test_a_loader_killed_twice_then_rerun_gives_the_clean_graph(
    graph: Database,
    neo4j_connection: Connection,
    edge_slice: EdgeSlice,
    clean_dump: Dump,
    tmp_path: Path,
) -> None:
    env = cli_env(neo4j_connection)
    rejects = tmp_path / "rejects.jsonl"
    args = load_args(edge_slice, rejects)
    seen: list[int] = []

    def holds(count: int) -> Callable[[], bool]:
        def check() -> bool:
            seen.append(citations(graph))
            return seen[-1] >= count

        return check

    # Killed after its first batch, then the rerun killed after several more.
    first = run_kg(env, args, tmp_path / "first", kill_when=holds(BATCH))
    assert first.killed, f"the load ended before the first kill: {first}"
    check_rejects(rejects, edge_slice, read_at_least=seen[-1])
    second = run_kg(env, args, tmp_path / "second", kill_when=holds(8 * BATCH))
    assert second.killed, f"the load ended before the second kill ({seen[-5:]}): {second}"
    assert citations(graph) < EDGES - 3 * BATCH
    check_rejects(rejects, edge_slice, read_at_least=seen[-1])
    final = run_kg(env, args, tmp_path / "final")
    assert final.code == 1, final.err  # the bad lines are rejected, as in a clean load
    for run in (first, second, final):
        run.check_quiet()
    check_rejects(rejects, edge_slice, read_at_least=10**9)
    assert f"{len(BAD_LINES)} records rejected" in final.out
    assert dump_graph(graph) == clean_dump


@dataclass
class OwnServer:
    """A local server of the test's own, so the session's server is never harmed."""

    settings: LocalSettings
    server: LocalServer

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "KG_"))}
        env.update(
            KG_HOME=str(self.settings.home),
            KG_BOLT_PORT=str(self.settings.bolt_port),
            KG_HTTP_PORT=str(self.settings.http_port),
            KG_HEAP=self.settings.heap,
            KG_PAGECACHE=self.settings.pagecache,
        )
        return env

    def connect(self) -> Database:
        password = self.settings.password_file.read_text(encoding="utf-8").strip()
        return Database.connect(
            Connection(self.settings.bolt_uri, "neo4j", password, "neo4j", external=False)
        )

    def start(self) -> None:
        # Through `kg db start`, as a user would: the server is then no child of the test
        # process, so once stopped or killed it is reaped at once rather than left a zombie
        # that `kg db stop` in another process would wait on.
        started = run_kg(
            self.env, ["db", "start", "--timeout", "240"], self.settings.home / "kg-start"
        )
        assert started.code == 0, started


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnServer]:
    settings = local_settings_for(tmp_path_factory.mktemp("kg-faults-home"))
    server = LocalServer(settings)
    running = OwnServer(settings, server)
    running.start()
    try:
        yield running
    finally:
        server.stop(timeout=0)  # its store goes with the module's folder: not checkpointed
        for pid in server_processes(settings.home):
            os.kill(pid, signal.SIGKILL)


def _interrupted(run: Run, uri: str) -> tuple[int, int]:
    """Assert that a load ended with the one interrupted-load line; return (written, read)."""
    assert run.code == 1, run.out + run.err
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    match = INTERRUPTED.fullmatch(lines[0])
    assert match, lines[0]
    assert uri in match["cause"]
    written, read = (int(match[name].replace(",", "")) for name in ("written", "read"))
    assert 0 < written <= read
    return written, read


def _fault_then_rerun(
    own_server: OwnServer,
    data: EdgeSlice,
    clean_dump: Dump,
    folder: Path,
    fault: Callable[[], None],
    *,
    paused: bool = False,
) -> None:
    """Load, apply ``fault`` once the graph holds 5 batches, check the loader's last line,
    start the server again, rerun the same command, and compare with the clean load. With
    ``paused`` the loader is stopped (SIGSTOP) while the fault runs to its end and continued
    after, so that a fault that takes seconds (a clean stop) still comes before the load's
    last batch, however fast the load has become."""
    with own_server.connect() as graph:
        clear_database(graph)
    rejects = folder / "rejects.jsonl"
    args = load_args(data, rejects)
    loader = subprocess.Popen(
        [kg_executable(), *args],
        env=own_server.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with own_server.connect() as graph:
            deadline = time.monotonic() + 120
            while citations(graph) < 5 * BATCH and time.monotonic() < deadline:
                assert loader.poll() is None, loader.communicate()
                time.sleep(0.05)
            seen = citations(graph)
        assert loader.poll() is None, "the load ended before the fault"
        if paused:
            os.kill(loader.pid, signal.SIGSTOP)
        try:
            fault()
        finally:
            if paused:
                os.kill(loader.pid, signal.SIGCONT)
        faulted = time.monotonic()
        out, err = loader.communicate(timeout=120)
        ended = time.monotonic() - faulted
    finally:
        if loader.poll() is None:
            loader.kill()
            loader.wait()
    run = Run(loader.returncode, out, err)
    run.check_quiet()
    written, read = _interrupted(run, own_server.settings.bolt_uri)
    # Retries end after 15 s (kg/database.py); the driver's default would be 30 s, and before
    # the bound a dead server took over a minute of driver log lines to report.
    assert ended < 45, f"the loader took {ended:.0f}s to give up"
    (folder / "figures.json").write_text(
        json.dumps({"gave_up_after": ended, "written": written, "read": read, "seen": seen})
    )
    check_rejects(rejects, data, read_at_least=seen)
    own_server.start()
    with own_server.connect() as graph:
        # Every batch the loader counted as written survived the fault.
        assert written <= citations(graph) <= read
    rerun = run_kg(own_server.env, args, folder / "rerun")
    rerun.check_quiet()
    assert rerun.code == 1, rerun.err  # the bad lines, as in a clean load
    check_rejects(rejects, data, read_at_least=10**9)
    with own_server.connect() as graph:
        assert dump_graph(graph) == clean_dump


def test_a_commit_the_stopping_server_never_made_is_an_error_not_a_success(
    own_server: OwnServer, tmp_path: Path
) -> None:
    """A client idle inside a write transaction while the server stops cleanly: Neo4j rolls
    the transaction back, closes the connection and leaves a bare SUCCESS in the socket,
    which the driver takes for the COMMIT's answer. The face's write says the commit went
    unconfirmed (no bookmark), so a loader never counts such a batch as written."""
    with own_server.connect() as graph:
        clear_database(graph)

        def write_then_stop(tx: ManagedTransaction) -> None:
            tx.run("CREATE (:Probe)").consume()
            stopped = run_kg(own_server.env, ["db", "stop"], tmp_path / "stop")
            assert stopped.code == 0, stopped.err

        with pytest.raises(ConnectionFailed, match="did not confirm a commit"):
            graph.write_transaction(write_then_stop)
    own_server.start()
    with own_server.connect() as graph:
        assert graph.read("MATCH (n:Probe) RETURN count(n) AS n") == [{"n": 0}]


def test_the_server_killed_mid_load_then_rerun_gives_the_clean_graph(
    own_server: OwnServer, edge_slice: EdgeSlice, clean_dump: Dump, tmp_path: Path
) -> None:
    def kill_server() -> None:
        for pid in server_processes(own_server.settings.home):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while server_processes(own_server.settings.home) and time.monotonic() < deadline:
            time.sleep(0.1)

    _fault_then_rerun(own_server, edge_slice, clean_dump, tmp_path, kill_server)


def test_kg_db_stop_mid_load_then_rerun_gives_the_clean_graph(
    own_server: OwnServer, edge_slice: EdgeSlice, clean_dump: Dump, tmp_path: Path
) -> None:
    stops: list[Run] = []
    # Imported ahead, so that the stop begins the moment it is released.
    stopper = Held.start(own_server.env, ["db", "stop"], tmp_path / "stop")
    deadline = time.monotonic() + 120
    while not stopper.ready and time.monotonic() < deadline:
        time.sleep(0.05)

    def stop_server() -> None:
        stopper.release()
        stops.append(stopper.wait(time.monotonic() + 120))

    # The stop is a clean shutdown of some seconds, which a 4,000-edge load could outrun.
    _fault_then_rerun(own_server, edge_slice, clean_dump, tmp_path, stop_server, paused=True)
    [stop] = stops
    assert stop.code == 0, stop.err
    assert stop.out.strip() == "Neo4j stopped"
