"""Query latency on the full cit-HepTh graph: co-citation, coupling and shortest path.

Run: python -m tests.bench.latency [--papers 200] [--seed 7] [--out docs/BENCHMARKS-latency.md]

Uses NEO4J_* when set, else the local server of KG_HOME (start it with `kg db start`).
Loads cit-HepTh (edges and abstracts) first when the graph does not hold it. For each of
200 random papers that have citations it times, after one warm-up pass:
- the named query alone, through execute_read (what Neo4j Browser would run);
- the KnowledgeGraph method end to end (REF resolution, query, pydantic models).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from kg import queries
from kg.knowledge_graph import KnowledgeGraph
from kg.load.pipeline import load_paths
from tests.data import DATA_DIR

HEPTH = DATA_DIR / "data" / "cit-hepth"

Timed = Callable[[str, str], object]


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return p50 * 1000, p95 * 1000, ordered[-1] * 1000


def _ensure_hepth(kg: KnowledgeGraph) -> None:
    rows = kg.read("MATCH (p:Paper) WHERE p.key STARTS WITH 'hep-th/' RETURN count(p) AS n")
    if rows[0]["n"] < 29_555:
        print("loading cit-HepTh ...", flush=True)
        load_paths(
            kg,
            [HEPTH / "cit-HepTh.txt.gz", HEPTH / "cit-HepTh-abstracts.tar.gz"],
            id_scheme="snap-hepth",
            batch_size=10_000,
            rejects_path=Path("/tmp/kg-latency.rejects.jsonl"),
        )


def main() -> None:
    """Measure and write the latency table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("docs/BENCHMARKS-latency.md"))
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with KnowledgeGraph.connect() as kg:
        _ensure_hepth(kg)
        version = kg.read("CALL dbms.components() YIELD versions RETURN versions[0] AS v")[0]["v"]
        keys = [
            row["key"]
            for row in kg.read(
                "MATCH (p:Paper) WHERE p.key STARTS WITH 'hep-th/' AND (p)-[:CITES]-() "
                "RETURN p.key AS key ORDER BY key"
            )
        ]
        rng = random.Random(args.seed)
        sample = rng.sample(keys, args.papers)
        targets = rng.sample(keys, args.papers)
        cocited, coupled, path = (
            queries.get("cocited"),
            queries.get("coupled"),
            queries.get("shortest_path_undirected"),
        )
        cases: dict[str, Timed] = {
            "co-citation top-20 (query)": lambda a, b: cocited.run(kg, key=a, limit=20),
            "coupling top-20 (query)": lambda a, b: coupled.run(kg, key=a, limit=20),
            "shortest path, undirected (query)": lambda a, b: path.run(kg, source=a, target=b),
            "co-citation top-20 (kg.cocited)": lambda a, b: kg.cocited(a, limit=20),
            "coupling top-20 (kg.coupled)": lambda a, b: kg.coupled(a, limit=20),
            "shortest path (kg.path, directed)": lambda a, b: kg.path(a, b, max_hops=10),
        }
        results: list[tuple[str, float, float, float]] = []
        for name, run in cases.items():
            for a, b in zip(sample[:20], targets[:20], strict=True):
                run(a, b)
            samples = []
            for a, b in zip(sample, targets, strict=True):
                began = time.perf_counter()
                run(a, b)
                samples.append(time.perf_counter() - began)
            results.append((name, *_percentiles(samples)))
            print(f"{name}: p50 {results[-1][1]:.1f} ms, p95 {results[-1][2]:.1f} ms", flush=True)
    lines = [
        "# Query latency on cit-HepTh",
        "",
        f"{args.papers} random papers with citations (seed {args.seed}), after a warm-up of 20, "
        f"one at a time from one client. Neo4j {version} on {os.cpu_count()} cores "
        f"({platform.machine()}), Python {platform.python_version()}; 1-minute load average "
        f"{load_before:.1f} before and {os.getloadavg()[0]:.1f} after.",
        "",
        "Command: `python -m tests.bench.latency`",
        "",
        "| question | p50 (ms) | p95 (ms) | max (ms) |",
        "| --- | ---: | ---: | ---: |",
        *(f"| {n} | {p50:.1f} | {p95:.1f} | {worst:.1f} |" for n, p50, p95, worst in results),
        "",
    ]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
