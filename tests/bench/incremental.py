"""The incremental-load benchmark: a newer snapshot in which a share of the records changed,
loaded with ``--since`` against the same snapshot loaded in full.

    python -m tests.bench.incremental --papers 27770 --out docs/BENCHMARKS-incremental.md

It writes a synthetic set (``tests.bench.synthetic``: the arXiv snapshot and its edge list),
then a newer snapshot of each in which ``--changed`` of the records changed (a revised
abstract and a newer update date for that share of the papers, and that share of new
edges), and times, on a fresh local server under a temporary KG_HOME (or, with
``--empty-neo4j-database``, in the database NEO4J_* names, which it empties: a smoke run's):

1. the older snapshot loaded in full into an empty database;
2. the newer one loaded incrementally on top (``KnowledgeGraph.on(...).load(since=older)``);
3. the newer one loaded in full on top of the older one (what a load without ``--since``
   costs), after emptying the database and loading the older one again;
4. the newer one loaded in full into an empty database (a full load of the same snapshot).

Each row reports the server's write counters; the incremental and full graphs must hold the
same facts (papers' values, authors, categories, citations), which the script checks.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import random
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection, LocalSettings
from kg.server.local import LocalServer
from tests.bench.common import free_port, load_average, machine, print_and_write
from tests.bench.synthetic import generate
from tests.integration.test_incremental import FACTS

REPO = Path(__file__).resolve().parents[2]


def newer_snapshot(arxiv: Path, edges: Path, share: float, seed: int, out: Path) -> list[Path]:
    """Write the newer snapshot of ``arxiv`` and ``edges``: ``share`` of the records revised
    and ``share`` of new edges; return [arXiv file, edge file]."""
    rng = random.Random(seed)
    with gzip.open(arxiv, "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    for at in rng.sample(range(len(lines)), round(share * len(lines))):
        record = json.loads(lines[at])
        record["abstract"] += " Revised."
        record["update_date"] = "2026-11-30"
        lines[at] = json.dumps(record, ensure_ascii=False)
    newer_arxiv = out / f"newer-{arxiv.name}"
    with gzip.open(newer_arxiv, "wt", encoding="utf-8", compresslevel=6) as handle:
        handle.write("\n".join(lines) + "\n")
    rows = edges.read_text(encoding="utf-8").splitlines()
    ids = [json.loads(line)["id"] for line in lines]
    present = set(rows[1:])
    added: list[str] = []
    while len(added) < round(share * (len(rows) - 1)):
        citing, cited = sorted(rng.sample(ids, 2), reverse=True)
        row = f"{citing},{cited}"
        if row not in present:
            present.add(row)
            added.append(row)
    newer_edges = out / f"newer-{edges.name}"
    newer_edges.write_text("\n".join([*rows, *added]) + "\n", encoding="utf-8")
    return [newer_arxiv, newer_edges]


def _timed_load(
    graph: Database, files: list[Path], rejects: Path, since: list[Path] | None = None
) -> dict[str, Any]:
    """Load ``files`` one after the other (each ``--since`` its older file, if given)."""
    began = time.monotonic()
    totals = {"written": 0, "carried": 0, "nodes": 0, "relationships": 0, "properties": 0}
    for n, path in enumerate(files):
        older = since[n] if since else None
        summary = KnowledgeGraph.on(graph).load([path], since=older, rejects_path=rejects)
        totals["written"] += sum(f.papers + f.citations for f in summary.files)
        totals["carried"] += sum(f.carried for f in summary.files)
        totals["nodes"] += summary.counts.nodes_created
        totals["relationships"] += summary.counts.relationships_created
        totals["properties"] += summary.counts.properties_set
    return {"seconds": time.monotonic() - began, **totals}


def _facts(graph: Database) -> dict[str, list[dict[str, Any]]]:
    return {name: graph.read(query) for name, query in FACTS.items()}


@contextlib.contextmanager
def _empty_graph(work: Path, in_neo4j: bool) -> Iterator[Database]:
    """Yield an empty database: with ``in_neo4j``, NEO4J_*'s, emptied; else that of a fresh
    local server under ``work``, stopped afterwards."""
    if in_neo4j:
        with Database.connect() as graph:
            clear_database(graph)
            yield graph
        return
    settings = LocalSettings(
        home=work / "home", bolt_port=free_port(), http_port=free_port(), heap="2g", pagecache="2g"
    )
    server = LocalServer(settings)
    server.install()
    server.start()
    password = settings.password_file.read_text(encoding="utf-8").strip()
    try:
        connection = Connection(settings.bolt_uri, "neo4j", password, "neo4j", external=False)
        with Database.connect(connection) as graph:
            yield graph
    finally:
        server.stop()


def run(papers: int, share: float, seed: int, work: Path, in_neo4j: bool = False) -> dict[str, Any]:
    """Run the four loads (in NEO4J_*'s database, emptied, with ``in_neo4j``); return their
    figures."""
    made = generate(papers, seed, work / "data")
    older = [made.arxiv, made.edges]
    newer = newer_snapshot(made.arxiv, made.edges, share, seed, work / "data")
    rejects = work / "rejects.jsonl"
    results: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "load_average_start": load_average(),
        "papers": made.papers,
        "citations": made.citations,
        "share": share,
    }
    with _empty_graph(work, in_neo4j) as graph:
        results["older full"] = _timed_load(graph, older, rejects)
        results["newer --since older"] = _timed_load(graph, newer, rejects, since=older)
        incremental = _facts(graph)
        clear_database(graph)
        _timed_load(graph, older, rejects)
        results["newer in full on the older"] = _timed_load(graph, newer, rejects)
        results["same facts"] = _facts(graph) == incremental
        clear_database(graph)
        results["newer full"] = _timed_load(graph, newer, rejects)
    results["load_average_end"] = load_average()
    results["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return results


def render(results: dict[str, Any], command: str) -> list[str]:
    """The report as Markdown lines."""
    full = results["newer full"]["seconds"]
    lines = [
        "# Incremental loads",
        "",
        f"Command: `{command}`",
        "",
        f"Run {results['started']} on {results['machine']['cores']} cores; load average "
        f"{results['load_average_start']} at the start, {results['load_average_end']} at the end. "
        f"A synthetic set of {results['papers']:,} papers and {results['citations']:,} "
        f"citations; the newer snapshot revises {results['share']:.0%} of the papers and adds "
        f"{results['share']:.0%} new edges.",
        "",
        "| load | seconds | of a full load | records written | records carried | "
        "nodes created | relationships created | properties set |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in ("older full", "newer --since older", "newer in full on the older", "newer full"):
        row = results[name]
        lines.append(
            f"| {name} | {row['seconds']:.1f} | {row['seconds'] / full:.0%} | "
            f"{row['written']:,} | {row['carried']:,} | {row['nodes']:,} | "
            f"{row['relationships']:,} | {row['properties']:,} |"
        )
    ratio = results["newer --since older"]["seconds"] / full
    lines += [
        "",
        f"- Incremental load: {ratio:.1%} of a full load of the same snapshot (goal at most "
        f"10%: {'met' if ratio <= 0.10 else 'not met'}).",
        "- The incremental graph holds the same facts (papers' values, authors, categories, "
        "citations, the snapshots' dates) as the older and newer snapshots loaded in full: "
        f"{results['same facts']}.",
        f"- Peak RSS of the benchmark process: {results['peak_rss_mb']:.0f} MB (it also holds "
        "every fact of two whole graphs to compare them, so this bounds the loader's from above).",
    ]
    return lines


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, run, print and write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=27_770, help="papers (default 27,770)")
    parser.add_argument("--changed", type=float, default=0.01, help="share changed (0.01)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--out", type=Path, default=REPO / "docs" / "BENCHMARKS-incremental.md", help="report"
    )
    parser.add_argument(
        "--empty-neo4j-database",
        action="store_true",
        help="run in the database NEO4J_* names, EMPTYING it, instead of a server of its own",
    )
    args = parser.parse_args(argv)
    words = sys.argv[1:] if argv is None else argv
    work = Path(tempfile.mkdtemp(prefix="kg-bench-incremental-"))
    try:
        results = run(args.papers, args.changed, args.seed, work, args.empty_neo4j_database)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    command = " ".join(["python -m tests.bench.incremental", *words])
    print_and_write(render(results, command.strip()), args.out)


if __name__ == "__main__":
    main()
