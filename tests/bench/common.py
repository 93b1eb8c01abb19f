"""What several benchmark scripts share: loading cit-HepTh when the graph lacks it, their
sample of its papers, the latency percentiles they report, and how a report is printed and
written."""

from __future__ import annotations

import argparse
import os
import platform
import socket
import statistics
import sys
from pathlib import Path
from typing import Any

from kg.database import Database
from kg.knowledge_graph import LOAD_BATCH, KnowledgeGraph
from kg.server.install import NEO4J_VERSION, find_java

HEPTH_WITH_CITATIONS = (
    "MATCH (p:Paper) WHERE p.key STARTS WITH 'hep-th/' AND (p)-[:CITES]-() "
    "RETURN p.key AS key ORDER BY key"
)
HEPTH_CITED = (
    "MATCH (p:Paper) WHERE p.key STARTS WITH 'hep-th/' AND (p)<-[:CITES]-() "
    "RETURN p.key AS key ORDER BY key"
)


def hepth_keys(graph: Database, *, cited: bool = False) -> list[str]:
    """Keys of the cit-HepTh papers with a citation either way, in key order; with ``cited``,
    only those another paper cites."""
    return [row["key"] for row in graph.read(HEPTH_CITED if cited else HEPTH_WITH_CITATIONS)]


def ensure_hepth(
    graph: Database,
    paths: list[Path],
    *,
    papers: int,
    rejects: Path,
    batch_size: int = LOAD_BATCH,
) -> None:
    """Load ``paths`` (snap-hepth ids) when the graph holds fewer than ``papers`` papers
    whose key starts with hep-th/."""
    rows = graph.read("MATCH (p:Paper) WHERE p.key STARTS WITH 'hep-th/' RETURN count(p) AS n")
    if rows[0]["n"] < papers:
        print(f"loading {', '.join(str(path) for path in paths)} ...", flush=True)
        KnowledgeGraph.on(graph).load(
            paths, id_scheme="snap-hepth", batch_size=batch_size, rejects_path=rejects
        )


def add_data_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--data FILE...``: files to load instead of cit-HepTh into a graph that lacks it
    (a stand-in such as tests.bench.standin's, for a smoke run)."""
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        help="load these (snap-hepth ids) instead of cit-HepTh into a graph that lacks it",
    )


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max of ``samples`` (seconds), in milliseconds."""
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return p50 * 1000, p95 * 1000, ordered[-1] * 1000


def print_and_write(lines: list[str], output: Path) -> None:
    """Print the report and write it to ``output``, making its folder if need be."""
    text = "\n".join(lines) + "\n"
    print(text, end="")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    print(f"written to {output}", file=sys.stderr)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def machine() -> dict[str, Any]:
    """Return the cores, memory, CPU and software versions of this machine."""
    meminfo = Path("/proc/meminfo").read_text(encoding="utf-8").splitlines()
    total_kb = next(int(line.split()[1]) for line in meminfo if line.startswith("MemTotal:"))
    models = [
        line.split(":", 1)[1].strip()
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
        if line.startswith("model name")
    ]
    java = find_java()
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(total_kb / 1024 / 1024, 1),
        "cpu": models[0] if models else platform.processor(),
        "python": platform.python_version(),
        "java": java.major,
        "neo4j": NEO4J_VERSION,
        "kernel": platform.release(),
    }


def load_average() -> list[float]:
    """The 1-, 5- and 15-minute load averages, rounded."""
    return [round(x, 2) for x in os.getloadavg()]
