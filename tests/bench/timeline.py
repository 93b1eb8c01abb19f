"""Benchmark of the time analytics (bursts, beauties, traction, main path) on cit-HepTh.

    python -m tests.bench.timeline [--repeat 3] [--output PATH]

Connects through NEO4J_* when set, else to the managed local server of KG_HOME (started if
it is not running, and stopped again afterwards). Loads cit-HepTh (``kg data get
cit-hepth``: the edges and the abstracts with dates, ``--id-scheme snap-hepth``) once when
the graph has no Paper. Then runs each analysis end to end with write-back (read, compute,
clear, write, record the run) ``--repeat`` times after one cold run, and reports the
medians, what each found and its top papers. Before each main path run the spc weights are
removed (not timed): rewriting a weight with the value it has would write nothing. The
report is printed and written as Markdown to ``--output``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kg import data
from kg.analytics import RankedPaper
from kg.analytics import time as timeline_analytics
from kg.answers import MainPathResult
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from tests.bench.analytics import _neo4j_version, _peak_rss_mib, _server
from tests.bench.common import add_data_option, print_and_write
from tests.data import REPO

_REMOVE_SPC = (
    "MATCH ()-[c:CITES]->() WHERE c.spc IS NOT NULL "
    "CALL (c) { REMOVE c.spc } IN TRANSACTIONS OF 10000 ROWS"
)


def _ensure_loaded(graph: Database, paths: list[Path] | None) -> float | None:
    """Load cit-HepTh (or ``paths``) when the graph has no Paper; return the seconds it took."""
    if graph.read("MATCH (p:Paper) RETURN count(p) AS n")[0]["n"]:
        return None
    print("loading cit-HepTh ...", file=sys.stderr)
    summary = KnowledgeGraph.on(graph).load(
        paths or data.get("cit-hepth"),
        id_scheme="snap-hepth",
        batch_size=10_000,
        rejects_path=Path(os.environ.get("TMPDIR", "/tmp")) / "bench-timeline.rejects.jsonl",
    )
    return summary.seconds


def _runs(func: Callable[[], Any], repeat: int) -> tuple[Any, float, list[float]]:
    """Run ``func`` once cold and ``repeat`` times warm; return the last result, the cold
    seconds and the warm seconds."""
    seconds = []
    result = None
    for _ in range(repeat + 1):
        began = time.perf_counter()
        result = func()
        seconds.append(time.perf_counter() - began)
    return result, seconds[0], seconds[1:]


def _top(papers: list[RankedPaper], fields: list[str]) -> list[str]:
    lines = ["| # | paper | year | " + " | ".join(fields) + " | title |"]
    lines.append("| ---: | --- | ---: | " + " | ".join("---:" for _ in fields) + " | --- |")
    for p in papers:
        cells = []
        for name in fields:
            value = p.values[name]
            if value is None:
                cells.append("")
            else:
                cells.append(f"{value:.4g}" if isinstance(value, float) else str(value))
        title = (p.title or "").replace("|", "\\|")[:70]
        lines.append(f"| {p.rank} | {p.key} | {p.year} | " + " | ".join(cells) + f" | {title} |")
    return lines


def run(repeat: int, paths: list[Path] | None = None) -> list[str]:
    """Run the benchmark (loading ``paths``, else cit-HepTh, into an empty graph) and return
    the report's lines."""
    load_start = os.getloadavg()[0]
    with _server() as graph:
        neo4j = _neo4j_version(graph)
        load_s = _ensure_loaded(graph, paths)
        timings: dict[str, tuple[float, list[float]]] = {}
        began = time.perf_counter()
        data = timeline_analytics.load_timeline(graph)
        read_s = time.perf_counter() - began
        burst, cold, warm = _runs(
            lambda: KnowledgeGraph.on(graph).analytics.bursts(since=2000, limit=10, write=True),
            repeat,
        )
        timings["bursts"] = cold, warm
        beauty, cold, warm = _runs(
            lambda: KnowledgeGraph.on(graph).analytics.beauties(limit=10, write=True), repeat
        )
        timings["beauties"] = cold, warm
        rising, cold, warm = _runs(
            lambda: KnowledgeGraph.on(graph).analytics.traction(as_of=2002, limit=10, write=True),
            repeat,
        )
        timings["traction"] = cold, warm

        def fresh_main_path() -> MainPathResult:
            # Setting a property to the value it has changes nothing, so a warm run would
            # write nothing: remove the weights first (untimed), as a first run finds them.
            graph.run_autocommit(_REMOVE_SPC)
            began = time.perf_counter()
            result = KnowledgeGraph.on(graph).analytics.main_path(key_routes=5, write=True)
            spent.append(time.perf_counter() - began)
            return result

        spent: list[float] = []
        path, _, _ = _runs(fresh_main_path, repeat)
        cold, warm = spent[0], spent[1:]
        timings["mainpath"] = cold, warm
        read_only, _, warm_read = _runs(
            lambda: KnowledgeGraph.on(graph).analytics.main_path(), repeat
        )
        del read_only
    lines = [
        "# Benchmarks: time analytics",
        "",
        f"Measured {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} with "
        f"`python -m tests.bench.timeline --repeat {repeat}` on {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {neo4j}. The machine is shared: its 1-minute "
        f"load average was {load_start:.1f} at the start and {os.getloadavg()[0]:.1f} at the end.",
        "",
        f"Graph: cit-HepTh with its abstracts, {data.node_count:,} papers and "
        f"{data.edge_count:,} citations; {data.undated:,} citations come from papers of unknown "
        "year"
        + (
            f" (loaded by this run in {load_s:.1f}s)."
            if load_s is not None
            else " (already loaded)."
        ),
        f"Reading the timeline projection alone: {read_s:.2f}s.",
        "",
        f"## End to end with write-back (one cold run, then the median of {repeat})",
        "",
        "| command | cold s | median s | min s |",
        "| --- | ---: | ---: | ---: |",
    ]
    commands = {
        "bursts": "kg bursts --since 2000 --write",
        "beauties": "kg beauties --write",
        "traction": "kg traction --as-of 2002 --write",
        "mainpath": "kg mainpath --key-routes 5 --write",
    }
    for name, (cold, warm) in timings.items():
        lines.append(
            f"| `{commands[name]}` | {cold:.2f} | {statistics.median(warm):.2f} | {min(warm):.2f} |"
        )
    median_read = statistics.median(warm_read)
    lines.append(f"| `kg mainpath` (no write) | | {median_read:.2f} | {min(warm_read):.2f} |")
    lines += [
        "",
        f"Written: bursts on {burst.run.written:,} papers, beauty on {beauty.run.written:,}, "
        f"traction on {rising.run.written:,}, main path {path.run.written:,} rows (spc on "
        "every citation kept, flags on the papers of both main paths).",
        "",
        f"## Bursts (s = 2, gamma = 1): {burst.bursts_found:,} bursts in "
        f"{burst.papers_with_bursts:,} papers; {burst.shown_of:,} last until 2000 or later",
        "",
        *_top(burst.top, ["burst_start", "burst_end", "strength"]),
        "",
        f"## Sleeping beauties (at least 10 citations): {beauty.scored:,} papers scored",
        "",
        *_top(beauty.top, ["beauty", "awakening", "peak", "citations"]),
        "",
        f"## Gaining traction in 2000-2002 (cohorts of at least 5): {rising.scored:,} scored",
        "",
        *_top(rising.top, ["traction", "recent", "expected", "cohort", "category"]),
        "",
        "## Main path",
        "",
        f"{path.arcs:,} citations kept; cycles: {path.mutual_pairs:,} mutual pairs, "
        f"{path.cyclic_components:,} strongly connected groups (the largest "
        f"{path.largest_component:,} papers), {path.dropped:,} citations against time dropped. "
        f"Source-to-sink paths: 10^{path.total_flow_log10:.1f}. Global main path: "
        f"{len(path.path)} papers; key-route main path from 5 key citations: "
        f"{len(path.key_route)} papers.",
        "",
        f"The first {min(20, len(path.path))} papers of the global main path, with the SPC "
        "share of the citation leading to each:",
        "",
        *_top(path.path[:20], ["spc_in"]),
        "",
        f"Peak RSS of the process: {_peak_rss_mib():.0f} MiB.",
        "",
    ]
    return lines


def main() -> None:
    """Parse the options, run the benchmark, print and write the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="warm runs of each command")
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "BENCHMARKS-timeline.md")
    add_data_option(parser)
    args = parser.parse_args()
    print_and_write(run(args.repeat, args.data), args.output)


if __name__ == "__main__":
    main()
