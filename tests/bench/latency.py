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
import time
from collections.abc import Callable
from pathlib import Path

from kg import queries
from kg.knowledge_graph import KnowledgeGraph
from tests.bench.common import add_data_option, ensure_hepth, hepth_keys, percentiles
from tests.data import DATA_DIR

HEPTH = DATA_DIR / "data" / "cit-hepth"

Timed = Callable[[str, str], object]


def main() -> None:
    """Measure and write the latency table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("docs/BENCHMARKS-latency.md"))
    add_data_option(parser)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with KnowledgeGraph.connect() as kg:
        ensure_hepth(
            kg,
            args.data or [HEPTH / "cit-HepTh.txt.gz", HEPTH / "cit-HepTh-abstracts.tar.gz"],
            papers=1 if args.data else 29_555,
            rejects=Path("/tmp/kg-latency.rejects.jsonl"),
            batch_size=10_000,
        )
        version = kg.read("CALL dbms.components() YIELD versions RETURN versions[0] AS v")[0]["v"]
        keys = hepth_keys(kg)
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
        warm = min(20, args.papers)
        for name, run in cases.items():
            for a, b in zip(sample[:warm], targets[:warm], strict=True):
                run(a, b)
            samples = []
            for a, b in zip(sample, targets, strict=True):
                began = time.perf_counter()
                run(a, b)
                samples.append(time.perf_counter() - began)
            results.append((name, *percentiles(samples)))
            print(f"{name}: p50 {results[-1][1]:.1f} ms, p95 {results[-1][2]:.1f} ms", flush=True)
    lines = [
        "# Query latency on cit-HepTh",
        "",
        f"{args.papers} random papers with citations (seed {args.seed}), after a warm-up of "
        f"{min(20, args.papers)}, "
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
