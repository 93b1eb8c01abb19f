"""Bulk mode: load files into an empty local database with ``neo4j-admin database import``.

The files are parsed and validated exactly as ``kg.load.pipeline.load_paths`` does (same
parsers, same batches), into a scratch DuckDB staging store
(``kg.load.import_sink.ImportSink``), held to ``stage_memory`` beyond which it spills to disk.
What no load rule can touch (papers with one record that nothing else names richly, edges
asserted once between them) is written as import CSVs; the local server is stopped,
``import full`` builds the store, the server starts again and the schema is applied. Then
the rest (title-only papers, papers with several records, richer references, repeated
edges), the snapshots and the "loaded whole" marks go through the online writer,
``kg.load.neo4j_sink.GraphWriter``: the rules are the online loader's own statements, so the
result is the graph the online loader makes from the same files.

It needs the managed local server (the admin tool runs on its files while it is stopped),
and an empty database: it refuses a database that holds any node.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from kg.answers.loads import BulkSummary, KeptApart, LoadSummary
from kg.database import Database
from kg.errors import ConfigError, NotEmptyError, ServerError
from kg.load.import_sink import ImportFiles, ImportSink, check_stage_memory
from kg.load.merges import keep_apart as keep_apart_splits
from kg.load.neo4j_sink import GraphWriter, WriteBehind
from kg.load.pipeline import (
    LoadRequest,
    PlannedLoad,
    StreamSettings,
    as_format,
    load_files,
    planned_load,
)
from kg.load.schema import apply_schema, is_empty
from kg.paths import PathArg, as_paths, optional_path
from kg.server import config
from kg.server.config import Connection, LocalSettings
from kg.server.install import find_java
from kg.server.local import ADMIN_TOOL, LocalServer

__all__ = ["STAGE_NAMES", "BulkRequest", "BulkSummary", "bulk_load", "import_command", "run_import"]

_JVM_OPTIONS = (
    "-XX:+UseG1GC",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
)


STAGE_NAMES = {
    "parse": "parsing and staging records",
    "csv": "writing the import files",
    "stop": "stopping the local server",
    "import": "importing with neo4j-admin",
    "start": "starting the local server",
    "schema": "applying the schema",
    "online": "writing what a rule touches through the online writer",
}


@contextmanager
def _stage(
    stages: dict[str, float], name: str, on_stage: Callable[[str], None] | None = None
) -> Iterator[None]:
    if on_stage is not None:
        on_stage(STAGE_NAMES[name])
    began = time.monotonic()
    try:
        yield
    finally:
        stages[name] = stages.get(name, 0.0) + time.monotonic() - began


def _local_connection(settings: LocalSettings, database: str) -> Connection:
    password = config.read_password(settings.password_file)
    return Connection(settings.bolt_uri, config.DEFAULT_USER, password, database, external=False)


def _refuse_remote() -> None:
    if os.environ.get("NEO4J_URI"):
        raise ConfigError(
            "bulk mode works only with the local server that kg manages, and NEO4J_URI is set: "
            "neo4j-admin import must run on the server's own files while it is stopped",
            "unset NEO4J_URI to bulk-load into the local server in $KG_HOME, or load into "
            "the remote server online (graph.load, or kg load without --bulk)",
        )


def _check_empty(server: LocalServer, database: str, timeout: float) -> None:
    """Raise NotEmptyError when ``database`` holds a node; starts the server if it must look."""
    if server.pid() is None:
        if not (server.data_dir / "databases" / database).exists():
            return
        server.start(timeout=timeout)
    with Database.connect(_local_connection(server.settings, database)) as graph:
        if not is_empty(graph):
            raise NotEmptyError(
                f"bulk mode needs an empty database, and {database!r} at "
                f"{server.settings.bolt_uri} holds data",
                "load into it online (graph.load, or kg load without --bulk: the online "
                "loader merges into what is there), "
                "or empty it first with `kg db reset --yes`",
            )


def import_command(
    server: LocalServer, file_arguments: list[str], database: str, report: Path
) -> list[str]:
    """Return the ``neo4j-admin database import full`` command line bulk mode runs."""
    return [
        str(find_java().executable),
        f"-Xmx{server.settings.heap}",
        *_JVM_OPTIONS,
        "-cp",
        f"{server.lib_dir}/*",
        ADMIN_TOOL,
        "database",
        "import",
        "full",
        database,
        "--overwrite-destination=true",
        "--id-type=string",
        f"--report-file={report}",
        *file_arguments,
    ]


def run_import(server: LocalServer, file_arguments: list[str], database: str, log: Path) -> None:
    """Run ``neo4j-admin database import full`` into ``database``, replacing it.

    ``file_arguments`` name the CSVs (``ImportFiles.import_arguments()``). The server must be
    stopped. Raises ServerError with the tool's last lines when it fails.
    """
    if server.pid() is not None:
        raise ServerError(
            "neo4j-admin import needs the local server stopped", "stop it with `kg db stop`"
        )
    server.write_config()
    command = import_command(server, file_arguments, database, log.with_suffix(".report"))
    env = {**os.environ, "NEO4J_HOME": str(server.home), "NEO4J_CONF": str(server.home / "conf")}
    with log.open("w", encoding="utf-8") as out:
        result = subprocess.run(
            command, env=env, cwd=server.home, stdout=out, stderr=subprocess.STDOUT, check=False
        )
    if result.returncode != 0:
        lines = [
            line.strip() for line in log.read_text(errors="replace").splitlines() if line.strip()
        ]
        raise ServerError(
            f"neo4j-admin import failed (exit {result.returncode}): "
            + " | ".join(lines[-4:] or ["no output"]),
            f"see {log}",
        )


@dataclass(frozen=True)
class BulkRequest:
    """A bulk load as ``KnowledgeGraph.bulk_load`` hands it on, with every argument given:
    the load itself (with no older snapshot), and where and how the import runs."""

    load: LoadRequest
    settings: LocalSettings | None
    database: str | None
    workdir: PathArg | None
    keep_csv: bool
    timeout: float
    on_stage: Callable[[str], None] | None
    stage_memory: str
    stage_workers: int


def bulk_load(request: BulkRequest) -> BulkSummary:
    """Run the bulk load ``KnowledgeGraph.bulk_load`` describes (its arguments in
    ``request``)."""
    _refuse_remote()
    memory = check_stage_memory(request.stage_memory)
    load = request.load
    files = as_paths(load.paths, "paths")
    splits_file = optional_path(load.keep_apart, "keep_apart")
    scratch_base = optional_path(request.workdir, "workdir")
    stream = load.stream
    database = request.database or os.environ.get("NEO4J_DATABASE") or config.DEFAULT_DATABASE
    server = _installed(request.settings or config.local_settings())
    fmt = as_format(load.fmt)
    with planned_load(files, fmt, load.rejects_path, stream.strict, splits_file) as plan:
        run = _BulkRun.begin(server, database, request.timeout, request.on_stage)
        scratch, offline = _scratch(
            scratch_base or server.settings.home / "bulk", memory, request.stage_workers
        )
        try:
            import_files = run.import_offline(offline, scratch, plan, stream)
            with Database.connect(_local_connection(server.settings, database)) as graph:
                writer = run.write_online(graph, offline, plan.splits, stream.batch_size)
        finally:
            plan.rejects.close()
            offline.close()
            if not request.keep_csv:
                shutil.rmtree(scratch, ignore_errors=True)
            run.restore()
        summary = run.summary
        _count_bulk(summary, import_files, writer, offline)
        summary.csv_dir = str(scratch / "csv") if request.keep_csv else None
        summary.import_arguments = import_files.import_arguments() if request.keep_csv else []
        plan.finish(summary.load)
        return summary


@dataclass
class _BulkRun:
    """One bulk load's stages on the local server, timed into ``summary``; ``imported`` once
    the server was stopped for the import (from then on it is not restarted as found)."""

    server: LocalServer
    database: str
    timeout: float
    stopper: threading.Thread
    """Stops the server while the files are parsed."""
    was_running: bool
    on_stage: Callable[[str], None] | None
    summary: BulkSummary = field(default_factory=lambda: BulkSummary(load=LoadSummary()))
    imported: bool = False

    @classmethod
    def begin(
        cls,
        server: LocalServer,
        database: str,
        timeout: float,
        on_stage: Callable[[str], None] | None,
    ) -> _BulkRun:
        """Check that the database is empty and start stopping the server, which is not
        needed again until the import: it shuts down while the files are parsed.

        Raises NotEmptyError when the database holds a node.
        """
        was_running = server.pid() is not None
        _check_empty(server, database, timeout)
        stopper = threading.Thread(target=server.stop, name="kg-bulk-stop", daemon=True)
        stopper.start()
        return cls(server, database, timeout, stopper, was_running, on_stage)

    def restore(self) -> None:
        """When nothing was imported, leave the server as it was found."""
        if not self.imported:
            self.stopper.join()
            if self.was_running:
                self.server.start(timeout=self.timeout)

    def import_offline(
        self, offline: ImportSink, scratch: Path, plan: PlannedLoad, stream: StreamSettings
    ) -> ImportFiles:
        """Parse the files into ``offline``, write its import CSVs, stop the server and
        import them into the database, then start it again; return the import files."""
        stages = self.summary.stages
        with _stage(stages, "parse", self.on_stage):
            load_files(offline, plan.inputs, plan.formats, self.summary.load, plan.rejects, stream)
        with _stage(stages, "csv", self.on_stage):
            import_files = offline.write_csv(scratch / "csv")
        with _stage(stages, "stop", self.on_stage):
            self.stopper.join()
            self.server.stop()
        self.imported = True
        with _stage(stages, "import", self.on_stage):
            arguments = import_files.import_arguments()
            run_import(self.server, arguments, self.database, scratch / "import.log")
        with _stage(stages, "start", self.on_stage):
            self.server.start(timeout=self.timeout)
        return import_files

    def write_online(
        self, graph: Database, offline: ImportSink, splits: list[KeptApart], batch_size: int
    ) -> GraphWriter:
        """Apply the schema and the splits to the imported graph, then write what the import
        left to the rules through a GraphWriter; return the writer."""
        stages = self.summary.stages
        with _stage(stages, "schema", self.on_stage):
            apply_schema(graph)
            keep_apart_splits(graph, splits)
        with _stage(stages, "online", self.on_stage):
            writer = GraphWriter(graph)
            for snapshot in offline.snapshots:
                writer.write_snapshot(snapshot)
            for rows in offline.author_spellings():
                writer.write_author_names(rows)
            with WriteBehind(writer) as behind:  # the next batch is read while one is written
                for batch in offline.online_batches(batch_size):
                    behind.write_batch(batch)
            for key in offline.marked:
                writer.mark_loaded_whole(key)
        return writer


def _installed(settings: LocalSettings) -> LocalServer:
    """Return the local server of ``settings``. Raises ServerError when it is not installed."""
    server = LocalServer(settings)
    if server.installed_version() is None:
        raise ServerError(
            f"Neo4j is not installed in {server.home}", "run `kg db start` once to install it"
        )
    return server


def _scratch(base: Path, memory: str, workers: int) -> tuple[Path, ImportSink]:
    """Return a new scratch folder in ``base`` (made when missing) and the staging store in
    it, held to ``memory``, with ``workers`` worker processes."""
    base.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="kg-bulk-", dir=base))
    return scratch, ImportSink(scratch / "stage.duckdb", memory, workers)


def _count_bulk(
    summary: BulkSummary, import_files: ImportFiles, writer: GraphWriter, offline: ImportSink
) -> None:
    """Count into ``summary`` what the import and the online writer wrote."""
    summary.nodes = import_files.node_counts
    summary.relationships = import_files.relationship_counts
    counts = summary.load.counts
    counts.add(vars(writer.counts))
    counts.nodes_created += sum(summary.nodes.values())
    counts.relationships_created += sum(summary.relationships.values())
    counts.merged = writer.counts.merged
    summary.online_papers = offline.online_keys
    summary.online_citations = offline.online_citations
