"""What several benchmark scripts share: loading cit-HepTh when the graph lacks it, their
sample of its papers, the latency percentiles they report, and how a report is printed and
written."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from kg.database import Database
from kg.load.pipeline import DEFAULT_BATCH_SIZE, load_paths

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
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> None:
    """Load ``paths`` (snap-hepth ids) when the graph holds fewer than ``papers`` papers
    whose key starts with hep-th/."""
    rows = graph.read("MATCH (p:Paper) WHERE p.key STARTS WITH 'hep-th/' RETURN count(p) AS n")
    if rows[0]["n"] < papers:
        print(f"loading {', '.join(str(path) for path in paths)} ...", flush=True)
        load_paths(
            graph, paths, id_scheme="snap-hepth", batch_size=batch_size, rejects_path=rejects
        )


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max of ``samples`` (seconds), in milliseconds."""
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return p50 * 1000, p95 * 1000, ordered[-1] * 1000


def print_and_write(lines: list[str], output: Path) -> None:
    """Print the report and write it to ``output``, making its folder if need be."""
    text = "\n".join(lines)
    print(text)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    print(f"written to {output}", file=sys.stderr)
