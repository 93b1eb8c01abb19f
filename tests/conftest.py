"""Shared fixtures. Integration tests get a real Neo4j, found in this order:

1. NEO4J_URI (with NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE) if set;
2. else a testcontainers Neo4j 5.26 container if a Docker engine answers;
3. else the project's managed local server, under a test-only KG_HOME on free ports.

Under CI=true a server that cannot be had fails the run; it is never skipped.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import random
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg.database import Database
from kg.load.schema import apply_schema, clear_database
from kg.server.config import Connection, LocalSettings
from kg.server.local import LocalServer
from loaders import edge_list
from loaders.records import CitationRecord
from tests.data import (
    EXAMPLES,
    HOSTILE_TITLE,
    REAL_HEPTH_EDGES,
    SEED_PAGE,
    SEED_RECORD,
    in_ci,
    missing_reason,
)


def _ephemeral_floor() -> int:
    """The lowest port the kernel hands out on its own (to ``bind`` to port 0 and to outgoing
    connections), 32768 by default."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now.

    The port is drawn below the kernel's ephemeral range, so no driver socket, chromedriver
    or other port-0 bind takes it before the server binds it. Under pytest-xdist (``make
    test`` runs two workers) each worker draws only ports of its own residue modulo the
    worker count, so two workers never pick the same one.
    """
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    index = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    floor = min(_ephemeral_floor(), 65_536)
    while True:
        port = random.randrange(10_000, floor - count, count) + index % count
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def _docker_answers() -> bool:
    if not shutil.which("docker"):
        return False
    try:
        result = subprocess.run(["docker", "info"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def local_settings_for(home: Path) -> LocalSettings:
    """Return settings for a test-only local server in ``home`` on two free ports."""
    bolt = free_port()
    http = free_port()
    while http == bolt:
        http = free_port()
    return LocalSettings(home=home, bolt_port=bolt, http_port=http, heap="2g", pagecache="1g")


@contextlib.contextmanager
def _machine_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (shared by every pytest-xdist worker of a run)."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _unavailable(reason: str) -> None:
    if in_ci():
        pytest.fail(f"no Neo4j for the integration tests under CI: {reason}", pytrace=False)
    pytest.skip(f"no Neo4j: {reason}")


def _announce(config: pytest.Config, line: str) -> None:
    """Write a line to the test log even while output is captured."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line(line)


@pytest.fixture(scope="session")
def neo4j_connection(
    tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
) -> Iterator[Connection]:
    """A connection to a real Neo4j for the whole test session."""
    uri = os.environ.get("NEO4J_URI")
    if uri:
        yield Connection(
            uri,
            os.environ.get("NEO4J_USER", "neo4j"),
            os.environ.get("NEO4J_PASSWORD", ""),
            os.environ.get("NEO4J_DATABASE", "neo4j"),
            external=True,
        )
        return
    if _docker_answers():
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer("neo4j:5.26-community") as container:
            yield Connection(
                container.get_connection_url(),
                "neo4j",
                container.password,
                "neo4j",
                external=True,
            )
        return
    settings = local_settings_for(tmp_path_factory.mktemp("kg-home"))
    server = LocalServer(settings)
    try:
        # Two workers install at once on a fresh machine: one Maven cache, so one at a time.
        with _machine_lock(tmp_path_factory.getbasetemp().parent / "kg-install.lock"):
            server.install()
        _, seconds = server.start(timeout=240)
    except Exception as exc:  # any failure to get a server is reported the same way
        _unavailable(str(exc))
    connection = Connection(
        settings.bolt_uri,
        "neo4j",
        settings.password_file.read_text(encoding="utf-8").strip(),
        "neo4j",
        external=False,
    )
    with Database.connect(connection) as probe:
        version = probe.read("CALL dbms.components() YIELD versions RETURN versions[0] AS v")
    _announce(
        pytestconfig,
        f"\nlocal Neo4j {version[0]['v']} started in {seconds:.1f}s for the tests and answers "
        f"at {settings.bolt_uri} (KG_HOME {settings.home})",
    )
    try:
        yield connection
    finally:
        # its store is thrown away with the session's folder: killed, not checkpointed
        server.stop(timeout=0)


@pytest.fixture(scope="session")
def session_graph(neo4j_connection: Connection) -> Iterator[Database]:
    """One Database (one driver) for the session, with the schema applied."""
    with Database.connect(neo4j_connection) as graph:
        apply_schema(graph)
        yield graph


@pytest.fixture
def graph(session_graph: Database) -> Iterator[Database]:
    """The session's Database, emptied before and after each test that uses it."""
    clear_database(session_graph)
    yield session_graph
    clear_database(session_graph)


@pytest.fixture
def small_map(graph: Database, tmp_path: Path) -> Database:
    """The example map and the seed page and record, plus 2101.99999, a paper citing
    2110.03888 whose title is hostile to XML, HTML and terminals (HOSTILE_TITLE)."""
    from kg.knowledge_graph import KnowledgeGraph

    KnowledgeGraph.on(graph).load(
        [EXAMPLES / "map", SEED_PAGE, SEED_RECORD], rejects_path=tmp_path / "r"
    )
    graph.write(
        "MERGE (p:Paper {key: '2101.99999'}) SET p.arxiv_id = '2101.99999', p.title = $title, "
        "p.year = 2021, p.stub = false "
        "WITH p MATCH (q:Paper {key: '2110.03888'}) MERGE (p)-[:CITES]->(q)",
        {"title": HOSTILE_TITLE},
    )
    return graph


@functools.cache
def hepth_pairs() -> tuple[tuple[str, str], ...]:
    """The distinct (citing, cited) pairs of the real cit-HepTh edge list (KG_DATA_DIR), sorted,
    as the parser gives them (self-citations are reported, not given); a test using it is
    marked ``needs_data(REAL_HEPTH_EDGES)``."""
    return tuple(
        sorted(
            {
                (item.citing.key, item.cited.key)
                for item in edge_list.parse(REAL_HEPTH_EDGES, id_scheme="snap-hepth")
                if isinstance(item, CitationRecord)
            }
        )
    )


@pytest.fixture(scope="module")
def hepth_citations(session_graph: Database) -> Iterator[Database]:
    """The cit-HepTh citation graph alone (no metadata), written straight from the edge list
    (hepth_pairs) in a few seconds: for tests that need its CITES, not the loader, which
    test_load's whole-set test covers on the same file. Skipped (failed under CI=true) when
    KG_DATA_DIR does not hold it."""
    reason = missing_reason((REAL_HEPTH_EDGES,))
    if reason is not None:
        if in_ci():
            pytest.fail(f"{reason}; under CI=true real-data tests must run", pytrace=False)
        pytest.skip(reason)
    clear_database(session_graph)
    pairs = hepth_pairs()
    keys = sorted({key for pair in pairs for key in pair})
    for start in range(0, len(keys), 20_000):
        session_graph.write(
            "UNWIND $keys AS key CREATE (:Paper {key: key, stub: true})",
            {"keys": keys[start : start + 20_000]},
        )
    for start in range(0, len(pairs), 50_000):
        session_graph.write(
            "UNWIND $pairs AS pair MATCH (a:Paper {key: pair[0]}), (b:Paper {key: pair[1]}) "
            "CREATE (a)-[:CITES]->(b)",
            {"pairs": [list(pair) for pair in pairs[start : start + 50_000]]},
        )
    yield session_graph
    clear_database(session_graph)


@pytest.fixture
def kg_env(neo4j_connection: Connection, monkeypatch: pytest.MonkeyPatch) -> Connection:
    """Point the CLI (through NEO4J_*) at the test server."""
    monkeypatch.setenv("NEO4J_URI", neo4j_connection.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_connection.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_connection.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_connection.database)
    return neo4j_connection


def pytest_configure(config: pytest.Config) -> None:
    """Refuse parallel workers against one external database, which they would empty under
    each other."""
    workers = config.getoption("numprocesses", default=None)
    if os.environ.get("NEO4J_URI") and workers not in (None, 0, 1):
        raise pytest.UsageError(
            "NEO4J_URI names one database, which parallel workers would empty under each "
            "other: run the suite in one worker (make test TEST_WORKERS=0, or pytest -n 0)"
        )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test under tests/integration as an integration test, and run those first:
    with `make test`'s two workers taking files in this order, the many short unit files
    come last and even out the end."""
    for item in items:
        if "integration" in Path(str(item.fspath)).parts:
            item.add_marker(pytest.mark.integration)
    items.sort(key=lambda item: item.get_closest_marker("integration") is None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (fail under CI) a test marked ``needs_data`` whose real data is missing."""
    for marker in item.iter_markers("needs_data"):
        reason = missing_reason(tuple(Path(p) for p in marker.args))
        if reason is None:
            continue
        if in_ci():
            pytest.fail(f"{reason}; under CI=true real-data tests must run", pytrace=False)
        pytest.skip(reason)
