"""The ingest benchmark: online loader, neo4j-admin import, naive loader and bulk mode, side
by side on the same data, on local servers it starts itself.

    python -m tests.bench.ingest --scales 1,10 --out docs/BENCHMARKS-ingest.md

Scale 1 is the real cit-HepTh (SNAP edges with ``--id-scheme snap-hepth`` plus the KDD Cup
abstracts); any other scale k is a synthetic set of k x 27,770 papers (``tests.bench.synthetic``;
a fraction such as 0.01 makes the tiny set of a smoke run).
For each scale, on fresh servers under a temporary KG_HOME with the same settings:

1. bulk mode end to end (parse + CSV + import + start + schema), CSVs kept;
2. ``neo4j-admin database import full`` of those CSVs alone: the practical limit;
3. the online loader (``KnowledgeGraph.load``) into an empty database;
4. the online loader again into the loaded graph: time, and counts and a checksum of the whole
   graph before and after (the same checksum also compares the bulk and online graphs);
5. once, the naive loader on a sample of the synthetic set, its rates extrapolated.

Every loader runs in a child process that reports its own peak RSS (``ru_maxrss`` of
RUSAGE_SELF, so the import tool's JVM, a child of bulk mode, is reported apart).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, LiteralString

from kg.database import Database
from kg.server.config import Connection, LocalSettings
from kg.server.local import LocalServer
from tests.bench.common import free_port, load_average, machine
from tests.bench.synthetic import generate
from tests.data import DATA_DIR
from tests.graph_dump import NODES, RELATIONSHIPS

REPO = Path(__file__).resolve().parents[2]
HEPTH = DATA_DIR / "data" / "cit-hepth"
HEPTH_PAPERS = 27_770


@dataclass(frozen=True)
class DataSet:
    """One benchmark input: its files in load order and how edge-list ids read."""

    name: str
    scale: float
    paths: list[Path]
    id_scheme: str


def _log(message: str) -> None:
    print(f"[{datetime.now(UTC):%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def _connection(settings: LocalSettings) -> Connection:
    password = settings.password_file.read_text(encoding="utf-8").strip()
    return Connection(settings.bolt_uri, "neo4j", password, "neo4j", external=False)


def checksum(settings: LocalSettings) -> dict[str, Any]:
    """Return node and relationship counts and an order-free checksum of the whole graph.

    Every node (labels, properties) and relationship (type, end keys, properties) is read as
    canonical JSON with tests.graph_dump's queries (so bookkeeping, a paper's ``changed_at``
    and the lock stripes, is left out), streamed; the checksum is the sum of their
    64-bit BLAKE2 hashes, so it changes when any node, relationship or property does.
    """

    def fold(query: LiteralString, shape: Callable[[Any], Any]) -> tuple[int, int]:
        count, total = 0, 0
        with (
            Database.connect(_connection(settings)) as graph,
            graph.driver.session(database="neo4j", fetch_size=10_000) as session,
        ):
            for record in session.run(query):
                text = json.dumps(shape(record), sort_keys=True, default=str)
                digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
                total = (total + int.from_bytes(digest, "big")) % (1 << 64)
                count += 1
        return count, total

    nodes, node_sum = fold(NODES, lambda r: {"labels": sorted(r["labels"]), "props": r["props"]})
    rels, rel_sum = fold(RELATIONSHIPS, lambda r: r.data())
    return {"nodes": nodes, "relationships": rels, "checksum": f"{node_sum:016x}{rel_sum:016x}"}


def run_child(spec: dict[str, Any], log: Path) -> dict[str, Any]:
    """Run one loader in a child process; return its JSON report plus wall time."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NEO4J_")}
    command = [sys.executable, "-m", "tests.bench.ingest", "--child", json.dumps(spec)]
    began = time.monotonic()
    with log.open("w", encoding="utf-8") as err:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=err, text=True
        )
        out, _ = process.communicate()
    wall = time.monotonic() - began
    if process.returncode != 0:
        raise RuntimeError(f"{spec['mode']} child failed ({process.returncode}); see {log}")
    report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    report["wall_seconds"] = wall
    return report


def _time_statements(graph: Database) -> dict[str, dict[str, float]]:
    """Wrap ``graph``'s write and read calls to add up, per named query, the seconds spent
    waiting for the server (sending, running, committing); returns the running totals."""
    from kg import queries

    names = {query.cypher: name for name, query in queries.all_queries().items()}
    totals: dict[str, dict[str, float]] = {}

    def add(name: str, began: float) -> None:
        entry = totals.setdefault(name, {"seconds": 0.0, "calls": 0})
        entry["seconds"] += time.monotonic() - began
        entry["calls"] += 1

    def timed(method: Callable[..., Any]) -> Callable[..., Any]:
        def call(query: LiteralString, params: Any = None, **options: Any) -> Any:
            began = time.monotonic()
            try:
                return method(query, params, **options)
            finally:
                add(names.get(query, "other"), began)

        return call

    def timed_transaction(method: Callable[..., Any], name: str) -> Callable[..., Any]:
        def call(work: Any) -> Any:
            began = time.monotonic()
            try:
                return method(work)
            finally:
                add(name, began)

        return call

    for attribute in ("write_counters", "write", "read", "run_autocommit"):
        setattr(graph, attribute, timed(getattr(graph, attribute)))
    # The writer sends a batch's statements in one managed transaction: timed as a whole.
    for attribute, name in (
        ("write_transaction", "a batch's write transaction (its statements together)"),
        ("read_transaction", "read transactions"),
    ):
        setattr(graph, attribute, timed_transaction(getattr(graph, attribute), name))
    return totals


def _child(spec: dict[str, Any]) -> None:
    """Inside the child: run one loader and print a JSON report with this process's peak RSS."""
    settings = LocalSettings(
        home=Path(spec.get("kg_home", ".")),
        bolt_port=spec.get("bolt_port", 0),
        http_port=spec.get("http_port", 0),
        heap=spec.get("heap", "1g"),
        pagecache=spec.get("pagecache", "1g"),
    )
    paths = [Path(p) for p in spec["paths"]]
    report: dict[str, Any] = {"mode": spec["mode"]}
    if spec["mode"] == "start":
        server = LocalServer(settings)
        server.install()
        report["started_seconds"] = server.start(timeout=600)[1]
    elif spec["mode"] == "bulk":
        from kg.knowledge_graph import KnowledgeGraph

        summary = KnowledgeGraph.bulk_load(
            paths,
            settings=settings,
            id_scheme=spec["id_scheme"],
            rejects_path=Path(spec["rejects"]),
            workdir=Path(spec["workdir"]),
            keep_csv=True,
        )
        report.update(summary.as_dict())
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        report["import_tool_peak_rss_mb"] = children / 1024
    elif spec["mode"] == "parse":
        from kg.load.pipeline import expand_paths
        from loaders.detect import detect_format
        from loaders.formats import parse_file, parse_in_columns

        files = [(path, detect_format(path)) for path in expand_paths(paths)]
        began = time.monotonic()
        items = 0
        for path, fmt in files:
            for _ in parse_file(path, fmt, spec["id_scheme"]):
                items += 1
        report.update(items=items, seconds=time.monotonic() - began)
        # as bulk mode reads them: an edge list's citations in columns (EdgeChunk)
        began = time.monotonic()
        for path, fmt in files:
            for _ in parse_in_columns(path, fmt, spec["id_scheme"]):
                pass
        report["columns_seconds"] = time.monotonic() - began
    elif spec["mode"] == "online":
        from kg.knowledge_graph import KnowledgeGraph

        with Database.connect(_connection(settings)) as graph:
            face = KnowledgeGraph.on(graph)  # timed itself: the face is its own Database
            statements = _time_statements(face)
            began = time.monotonic()
            report.update(
                face.load(
                    paths,
                    id_scheme=spec["id_scheme"],
                    rejects_path=Path(spec["rejects"]),
                ).as_dict()
            )
            report["seconds"] = time.monotonic() - began
            report["statements"] = statements
    else:
        from neo4j import GraphDatabase

        from kg.load.schema import apply_schema
        from tests.bench.naive import load_naive

        with Database.connect(_connection(settings)) as graph:
            apply_schema(graph)
        connection = _connection(settings)
        with GraphDatabase.driver(
            connection.uri, auth=(connection.user, connection.password)
        ) as driver:
            result = load_naive(driver, "neo4j", paths[0], paths[1], spec["papers"], spec["edges"])
        report.update(
            papers=result.papers,
            edges=result.edges,
            paper_seconds=result.paper_seconds,
            edge_seconds=result.edge_seconds,
        )
    report["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(report, default=str))


class Bench:
    """One benchmark run: its work folder, server settings and the results so far."""

    def __init__(self, work: Path, heap: str, pagecache: str) -> None:
        self.work = work
        self.heap = heap
        self.pagecache = pagecache
        self.results: dict[str, Any] = {
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": machine(),
            "settings": {"heap": heap, "pagecache": pagecache},
            "load_average_start": load_average(),
            "datasets": [],
        }

    def server(self, name: str) -> LocalServer:
        """Install and start a fresh local server under the work folder."""
        settings = LocalSettings(
            home=self.work / name,
            bolt_port=free_port(),
            http_port=free_port(),
            heap=self.heap,
            pagecache=self.pagecache,
        )
        server = LocalServer(settings)
        # Started from a short-lived child, the server is not this process's child: the
        # loader children that stop and start it again can then see it exit.
        spec = {
            "mode": "start",
            "kg_home": str(settings.home),
            "bolt_port": settings.bolt_port,
            "http_port": settings.http_port,
            "heap": settings.heap,
            "pagecache": settings.pagecache,
            "paths": [],
        }
        run_child(spec, self.work / f"start-{name}.log")
        return server

    def spec(self, server: LocalServer, mode: str, data: DataSet, **extra: Any) -> dict[str, Any]:
        """The child-process spec for one loader run against ``server``."""
        s = server.settings
        return {
            "mode": mode,
            "kg_home": str(s.home),
            "bolt_port": s.bolt_port,
            "http_port": s.http_port,
            "heap": s.heap,
            "pagecache": s.pagecache,
            "paths": [str(p) for p in data.paths],
            "id_scheme": data.id_scheme,
            "rejects": str(self.work / f"{mode}-{data.scale}.rejects.jsonl"),
            "workdir": str(self.work / "scratch"),
            **extra,
        }

    def save(self) -> None:
        """Write the results so far to results.json in the work folder."""
        path = self.work / "results.json"
        path.write_text(json.dumps(self.results, indent=2, default=str), encoding="utf-8")

    def naive(self, sample: DataSet, papers: int, edges: int) -> None:
        """Measure the naive loader on the first ``papers`` records and ``edges`` edges."""
        server = self.server("naive")
        try:
            _log(f"naive loader: {papers} papers, {edges} edges")
            spec = self.spec(server, "naive", sample, papers=papers, edges=edges)
            self.results["naive"] = run_child(spec, self.work / "naive.log")
        finally:
            server.stop()
            shutil.rmtree(server.settings.home, ignore_errors=True)
        self.save()

    def run(self, data: DataSet, online: bool, parse_only: bool = True) -> None:
        """Measure parsing alone (if ``parse_only``), bulk mode, import alone, and (if
        ``online``) the online loader twice."""
        from kg.load.bulk import import_command, run_import

        entry: dict[str, Any] = {
            "name": data.name,
            "scale": data.scale,
            "files": [str(p) for p in data.paths],
            "input_mb": round(sum(p.stat().st_size for p in data.paths) / 2**20, 1),
            "id_scheme": data.id_scheme,
            "load_average_before": load_average(),
        }
        self.results["datasets"].append(entry)
        if parse_only:
            _log(f"{data.name}: parsing alone")
            entry["parse_only"] = run_child(
                {
                    "mode": "parse",
                    "paths": [str(p) for p in data.paths],
                    "id_scheme": data.id_scheme,
                },
                self.work / f"parse-{data.scale}.log",
            )
            self.save()
        bulk_server = self.server(f"bulk-{data.scale}")
        try:
            _log(f"{data.name}: bulk mode")
            report = run_child(
                self.spec(bulk_server, "bulk", data), self.work / f"bulk-{data.scale}.log"
            )
            entry["bulk"] = report
            self.save()
            if online:
                _log(f"{data.name}: checksum of the bulk graph")
                entry["bulk_checksum"] = checksum(bulk_server.settings)
            bulk_server.stop()
            arguments = report["bulk"]["import_arguments"]
            log = self.work / f"import-{data.scale}.log"
            entry["import_command"] = " ".join(
                import_command(bulk_server, arguments, "neo4j", log.with_suffix(".report"))
            )
            _log(f"{data.name}: neo4j-admin import alone")
            began = time.monotonic()
            run_import(bulk_server, arguments, "neo4j", log)
            entry["import_seconds"] = time.monotonic() - began
            self.save()
        finally:
            bulk_server.stop()
            csv_dir = entry.get("bulk", {}).get("bulk", {}).get("csv_dir")
            if csv_dir:
                shutil.rmtree(Path(csv_dir).parent, ignore_errors=True)
            shutil.rmtree(bulk_server.settings.home, ignore_errors=True)
        if not online:
            entry["online_skipped"] = True
            self.save()
            return
        online_server = self.server(f"online-{data.scale}")
        try:
            _log(f"{data.name}: online loader")
            entry["online"] = run_child(
                self.spec(online_server, "online", data), self.work / f"online-{data.scale}.log"
            )
            self.save()
            _log(f"{data.name}: checksum of the online graph")
            entry["online_checksum"] = checksum(online_server.settings)
            _log(f"{data.name}: online loader again (idempotent reload)")
            entry["reload"] = run_child(
                self.spec(online_server, "online", data), self.work / f"reload-{data.scale}.log"
            )
            entry["reload_checksum"] = checksum(online_server.settings)
            self.save()
        finally:
            online_server.stop()
            shutil.rmtree(online_server.settings.home, ignore_errors=True)
        entry["load_average_after"] = load_average()
        self.save()


def _rate(count: float, seconds: float | None) -> str:
    return f"{count / seconds:,.0f}" if seconds else "–"


def _seconds(value: float | None) -> str:
    return f"{value:,.1f}" if value is not None else "–"


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}×" if a and b else "–"


@dataclass(frozen=True)
class _Figures:
    """One data set's figures as the report reads them: {} or None where a run did not happen."""

    name: str
    bulk: dict[str, Any]  # bulk mode end to end: wall time, peak RSS of loader and import tool
    loader: dict[str, Any]  # the bulk loader's own report inside it: counts and stages
    online: dict[str, Any]
    papers: int
    cites: int
    parse_s: float | None
    parse_columns_s: float | None
    bulk_s: float | None
    online_s: float | None
    import_s: float | None
    naive_s: float | None  # extrapolated from the naive loader's rates on its sample


def _figures(
    results: dict[str, Any], naive_paper_rate: float | None, naive_edge_rate: float | None
) -> list[_Figures]:
    """Each data set's figures; the naive time only where the naive loader was measured."""
    found = []
    for entry in results["datasets"]:
        bulk = entry.get("bulk", {})
        loader = bulk.get("bulk", {})
        online = entry.get("online", {})
        papers = loader.get("nodes", {}).get("Paper", 0)
        cites = loader.get("relationships", {}).get("CITES", 0)
        found.append(
            _Figures(
                name=entry["name"],
                bulk=bulk,
                loader=loader,
                online=online,
                papers=papers,
                cites=cites,
                parse_s=entry.get("parse_only", {}).get("seconds"),
                parse_columns_s=entry.get("parse_only", {}).get("columns_seconds"),
                bulk_s=bulk.get("wall_seconds"),
                online_s=online.get("wall_seconds"),
                import_s=entry.get("import_seconds"),
                naive_s=(
                    papers / naive_paper_rate + cites / naive_edge_rate
                    if naive_paper_rate and naive_edge_rate
                    else None
                ),
            )
        )
    return found


ANALYSIS_MARK = "<!-- analysis: written by hand, kept when the benchmark rewrites this file -->"


def write_report(path: Path, results: dict[str, Any], command: str) -> None:
    """Write the rendered report to ``path``, keeping a hand-written analysis already there."""
    kept = ""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if ANALYSIS_MARK in text:
            kept = text[text.index(ANALYSIS_MARK) :]
    rendered = render(results, command)
    path.write_text(rendered + ("\n" + kept if kept else ""), encoding="utf-8")


def render(results: dict[str, Any], command: str) -> str:
    """Return the Markdown report of a benchmark run."""
    m = results["machine"]
    s = results["settings"]
    lines = [
        "# Ingest benchmark",
        "",
        "Produced by `tests/bench/ingest.py`; every figure below comes from the run described "
        "here. Rerun it with the command at the end.",
        "",
        "## Machine and settings",
        "",
        f"- {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB memory (from /proc), "
        f"Linux {m['kernel']}, Python {m['python']}, Java {m['java']}, Neo4j {m['neo4j']} "
        "community (managed local server).",
        f"- Every server: heap {s['heap']}, page cache {s['pagecache']}, fresh KG_HOME, "
        "127.0.0.1. The import tool runs with the same heap (`-Xmx`) and its defaults "
        "otherwise (threads = cores).",
        f"- Load average when the run started: {results['load_average_start']} "
        "(other work on the machine shares its cores; see the notes).",
        f"- Run started {results['started']}.",
        "",
    ]
    naive = results.get("naive")
    naive_paper_rate = naive_edge_rate = None
    if naive:
        naive_paper_rate = naive["papers"] / naive["paper_seconds"]
        naive_edge_rate = naive["edges"] / naive["edge_seconds"]
        lines += [
            "## Naive loader (measured on a sample, extrapolated)",
            "",
            f"One auto-commit `session.run` per record: {naive['papers']:,} papers in "
            f"{naive['paper_seconds']:.1f} s ({naive_paper_rate:,.0f} papers/s) and "
            f"{naive['edges']:,} edges in {naive['edge_seconds']:.1f} s "
            f"({naive_edge_rate:,.0f} edges/s), peak RSS {naive['peak_rss_mb']:.0f} MB. "
            "Its time for a whole set below is extrapolated from these rates: "
            "papers / paper rate + edges / edge rate. It writes less than the project "
            "(no authors, categories or snapshots), which flatters it.",
            "",
        ]
    lines += [
        "## Results",
        "",
        "| data | papers | CITES | online s | online papers/s | online CITES/s | import alone s "
        "| bulk end to end s | naive s (extrap.) | online / import | online / naive "
        "| bulk / import |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    figures = _figures(results, naive_paper_rate, naive_edge_rate)
    for f in figures:
        lines.append(
            f"| {f.name} | {f.papers:,} | {f.cites:,} | {_seconds(f.online_s)} | "
            f"{_rate(f.papers, f.online_s)} | {_rate(f.cites, f.online_s)} | "
            f"{_seconds(f.import_s)} | {_seconds(f.bulk_s)} | {_seconds(f.naive_s)} | "
            f"{_ratio(f.online_s, f.import_s)} | "
            f"{_ratio(f.naive_s, f.online_s) if f.online_s else '–'} | "
            f"{_ratio(f.bulk_s, f.import_s)} |"
        )
    lines += [
        "",
        "`online / naive` is how many times faster the online loader is than the naive one.",
        "",
        "## Bulk mode stages and peak memory",
        "",
        "`parse alone` only iterates the project's parsers over the files (no writes): the "
        "floor for any loader that validates with them. `in columns` is the same as bulk mode "
        "reads the files: an edge list's citations as EdgeChunks, no record each. Bulk `stop` "
        "is what remains of the server's shutdown after parsing (it shuts down while the "
        "files are parsed).",
        "",
        "| data | parse alone s | parse alone, in columns s | bulk parse + merge s | CSV s "
        "| stop s | import s | start s "
        "| schema s | bulk loader peak RSS MB | import tool peak RSS MB "
        "| online loader peak RSS MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for f in figures:
        stages = f.loader.get("stages", {})
        online_rss = f.online.get("peak_rss_mb")
        lines.append(
            f"| {f.name} | {_seconds(f.parse_s)} | {_seconds(f.parse_columns_s)} | "
            + " | ".join(
                _seconds(stages.get(k))
                for k in ("parse", "csv", "stop", "import", "start", "schema")
            )
            + f" | {f.bulk.get('peak_rss_mb', 0):,.0f} | "
            f"{f.bulk.get('import_tool_peak_rss_mb', 0):,.0f} | "
            f"{f'{online_rss:,.0f}' if online_rss else 'not run'} |"
        )
    lines += _profile(results)
    lines += _goals(figures)
    lines += [
        "",
        "## Re-loading the same data (idempotent path)",
        "",
        "| data | reload s | nodes before → after | relationships before → after "
        "| checksum before → after | unchanged | bulk graph = online graph |",
        "|---|---:|---|---|---|---|---|",
    ]
    for entry in results["datasets"]:
        if "reload" not in entry:
            continue
        before, after = entry["online_checksum"], entry["reload_checksum"]
        bulk_sum = entry.get("bulk_checksum")
        lines.append(
            f"| {entry['name']} | {entry['reload']['wall_seconds']:,.1f} | "
            f"{before['nodes']:,} → {after['nodes']:,} | "
            f"{before['relationships']:,} → {after['relationships']:,} | "
            f"`{before['checksum']}` → `{after['checksum']}` | "
            f"{'yes' if before == after else 'NO'} | "
            f"{'yes' if bulk_sum == before else 'NO'} |"
        )
    lines += ["", "## Commands", "", "```", command, "```", ""]
    for entry in results["datasets"]:
        if "import_command" in entry:
            lines += [
                f"neo4j-admin import alone, {entry['name']} (paths in the run's temporary folder):",
                "",
                "```",
                entry["import_command"],
                "```",
                "",
            ]
    return "\n".join(lines)


def _profile(results: dict[str, Any]) -> list[str]:
    """Where the online loader's time goes: server round trips per statement, and the rest."""
    lines = [
        "",
        "## Where the online loader's time goes",
        "",
        "Seconds the loader waited for the server per statement (send, run, commit; timed in "
        "the loader process around each call), and the rest of its time: its own work "
        "(parsing, validation, building rows) that the server's work did not hide. A batch "
        "is written in a thread of its own while the next is read and planned "
        "(kg.load.neo4j_sink.WriteBehind), so the loader's own work overlaps the batch "
        "transactions, and only what outlasts them shows here.",
        "",
        "| data | statement | calls | seconds | share |",
        "|---|---|---:|---:|---:|",
    ]
    for entry in results["datasets"]:
        online = entry.get("online")
        if not online or "statements" not in online:
            continue
        total = online["seconds"]
        statements = online["statements"]
        waited = sum(v["seconds"] for v in statements.values())
        rows = sorted(statements.items(), key=lambda item: -item[1]["seconds"])
        rows.append(("client side, not hidden behind the server", {"seconds": total - waited}))
        for name, value in rows:
            lines.append(
                f"| {entry['name']} | {name} | {value.get('calls', '')} | "
                f"{value['seconds']:,.1f} | {value['seconds'] / total:.0%} |"
            )
    return lines


def _goals(figures: list[_Figures]) -> list[str]:
    """The issue's four goals against the figures of this run."""
    lines = ["", "## Goals", "", "| goal | data | measured | met |", "|---|---|---|---|"]
    for f in figures:
        if f.online_s and f.naive_s is not None:
            speedup = f.naive_s / f.online_s
            lines.append(
                f"| online ≥ 50× faster than naive | {f.name} | {speedup:.1f}× | "
                f"{'yes' if speedup >= 50 else 'no'} |"
            )
        if f.online_s and f.import_s:
            ratio = f.online_s / f.import_s
            lines.append(
                f"| online within 4× of neo4j-admin import | {f.name} | {ratio:.1f}× | "
                f"{'yes' if ratio <= 4 else 'no'} |"
            )
        if f.bulk_s and f.import_s:
            ratio = f.bulk_s / f.import_s
            lines.append(
                f"| bulk end to end within 1.5× of import alone | {f.name} | {ratio:.1f}× | "
                f"{'yes' if ratio <= 1.5 else 'no'} |"
            )
        for label, report in (("bulk", f.bulk), ("online", f.online)):
            if report.get("peak_rss_mb"):
                rss = report["peak_rss_mb"]
                lines.append(
                    f"| loader peak RSS < 1 GiB, DuckDB's memory counted ({label} loader) | "
                    f"{f.name} | {rss:,.0f} MB | {'yes' if rss < 1024 else 'no'} |"
                )
    return lines


def datasets(scales: list[float], work: Path, seed: int) -> list[DataSet]:
    """Return the inputs: the real cit-HepTh for scale 1, synthetic sets for the others."""
    found = []
    for scale in scales:
        if scale == 1:
            found.append(
                DataSet(
                    "cit-HepTh (real)",
                    1,
                    [HEPTH / "cit-HepTh-abstracts.tar.gz", HEPTH / "cit-HepTh.txt.gz"],
                    "snap-hepth",
                )
            )
        else:
            _log(f"generating the synthetic {scale:g}x set")
            made = generate(round(scale * HEPTH_PAPERS), seed, work / "data")
            found.append(DataSet(f"synthetic {scale:g}×", scale, [made.arxiv, made.edges], "arxiv"))
    return found


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and run the benchmark (or, with --child, one loader)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", default="1,10", help="comma-separated, e.g. 1,10,100 or 0.01")
    parser.add_argument(
        "--online-max-scale",
        type=int,
        default=10,
        help="above this scale only bulk mode and import run (the online loader takes hours)",
    )
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "BENCHMARKS-ingest.md")
    parser.add_argument("--work", type=Path, help="work folder (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    parser.add_argument("--heap", default="2g")
    parser.add_argument("--pagecache", default="2g")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--naive-papers", type=int, default=5000)
    parser.add_argument("--naive-edges", type=int, default=20000)
    parser.add_argument(
        "--sample-papers", type=int, default=HEPTH_PAPERS, help="synthetic set the naive reads"
    )
    parser.add_argument(
        "--skip-parse",
        action="store_true",
        help="do not time parsing alone (it took 516 s of a 100x run)",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(json.loads(args.child))
        return
    command = "python -m tests.bench.ingest " + " ".join(argv or sys.argv[1:])
    scales = [float(s) for s in args.scales.split(",") if s.strip()]
    work = args.work or Path(tempfile.mkdtemp(prefix="kg-bench-ingest-"))
    work.mkdir(parents=True, exist_ok=True)
    _log(f"work folder {work}")
    bench = Bench(work, args.heap, args.pagecache)
    try:
        sample = generate(args.sample_papers, args.seed, work / "data")
        bench.naive(
            DataSet("synthetic 1× sample", 1, [sample.arxiv, sample.edges], "arxiv"),
            args.naive_papers,
            args.naive_edges,
        )
        for data in datasets(scales, work, args.seed):
            bench.run(
                data, online=data.scale <= args.online_max_scale, parse_only=not args.skip_parse
            )
            write_report(args.out, bench.results, command)
        bench.results["load_average_end"] = load_average()
        bench.save()
        write_report(args.out, bench.results, command)
        _log(f"wrote {args.out}; raw results in {work / 'results.json'}")
    finally:
        if not args.keep:
            shutil.rmtree(work / "data", ignore_errors=True)
            shutil.rmtree(work / "scratch", ignore_errors=True)


if __name__ == "__main__":
    main()
