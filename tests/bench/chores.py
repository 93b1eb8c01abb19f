"""The waits around an answer (issue 39): `kg paper` on a warm server, `kg --version`'s CPU,
`kg db reset` against a stop and a start, and a small load into a running server.

Run: python -m tests.bench.chores --papers 20 --seed 3 --empty-the-database

It EMPTIES the database of the local server of KG_HOME (`kg db reset --yes`), so point
KG_HOME at a home of its own. Before the reset it times `kg paper REF --limit 5` as a user
runs it (a new process each time, wall clock) for --papers random cit-HepTh papers, when the
graph holds cit-HepTh. Then, in this order:
- `kg --version`, 10 runs: CPU seconds (user + system) of the child;
- `kg db reset --yes` (the server restarted on an empty store, the schema applied), wall;
- `kg load examples/map` right after the reset: the server has planned no load statement
  since it started;
- `kg load examples/map --force` again: the same load into a server that has just run it;
- `kg db stop` then `kg db start`, wall clock, --restarts times (the median, and the start
  alone's median and spread); after the first, the same load again (`--force`) into the
  database that already holds it: the cold server's cost alone.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from kg.knowledge_graph import KnowledgeGraph
from tests.bench.common import hepth_keys, percentiles

REPO = Path(__file__).resolve().parents[2]


def _kg(*args: str) -> float:
    """Run ``kg ARGS`` in a new process; return its wall-clock seconds."""
    command = [str(Path(sys.executable).with_name("kg")), *args]
    began = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, text=True, cwd=REPO)
    return time.perf_counter() - began


def _cpu(*args: str) -> float:
    """Run ``kg ARGS`` in a new process; return its CPU seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    _kg(*args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--version-runs", type=int, default=10, help="runs of kg --version")
    parser.add_argument("--restarts", type=int, default=5, help="kg db stop + start rounds")
    parser.add_argument(
        "--empty-the-database",
        action="store_true",
        help="required: the benchmark resets the local server's database",
    )
    args = parser.parse_args()
    if not args.empty_the_database:
        parser.error("this benchmark empties the database: pass --empty-the-database")
    if args.restarts < 1:
        parser.error("--restarts takes 1 or more")
    load_before = os.getloadavg()[0]
    lines = [f"1-minute load average {load_before:.2f} at the start."]
    with KnowledgeGraph.connect() as kg:
        keys = hepth_keys(kg, cited=True)
    if keys:
        sample = random.Random(args.seed).sample(keys, min(args.papers, len(keys)))
        for key in sample[:3]:
            _kg("paper", key, "--limit", "5")  # warm-up
        walls = [_kg("paper", key, "--limit", "5") for key in sample]
        p50, p95, worst = percentiles(walls)
        lines.append(
            f"- `kg paper REF --limit 5`, {len(sample)} random cited cit-HepTh papers (seed "
            f"{args.seed}), a new process each, warm server: p50 {p50:.0f} ms, p95 {p95:.0f} "
            f"ms, max {worst:.0f} ms (goal ≤ 500 ms)"
        )
    else:
        lines.append("- `kg paper`: not measured (the graph holds no cit-HepTh)")
    cpu = sorted(_cpu("--version") for _ in range(args.version_runs))
    lines.append(
        f"- `kg --version`: CPU {cpu[0]:.3f} s min, {statistics.median(cpu):.3f} s median, "
        f"{cpu[-1]:.3f} s max over {len(cpu)} runs (goal ≤ 0.15 s)"
    )
    reset = _kg("db", "reset", "--yes")
    cold = _kg("load", "examples/map")
    warm = _kg("load", "examples/map", "--force")
    stops, starts = [], []
    restarted = 0.0
    for _ in range(args.restarts):
        stops.append(_kg("db", "stop"))
        starts.append(_kg("db", "start"))
        if len(starts) == 1:  # the same load, into the database that holds it, cold
            restarted = _kg("load", "examples/map", "--force")
    restart = statistics.median(stop + start for stop, start in zip(stops, starts, strict=True))
    lines.append(
        f"- `kg db stop` + `kg db start`: {restart:.1f} s (median of {len(starts)}); "
        f"`kg db reset --yes`: {reset:.1f} s: **{reset / restart:.2f}×** (goal ≤ 1.5×)"
    )
    lines.append(
        f"- `kg db start` alone (after a stop): median **{statistics.median(starts):.2f} s**, "
        f"{min(starts):.2f} to {max(starts):.2f} s over {len(starts)} runs; `kg db stop` "
        f"median {statistics.median(stops):.2f} s"
    )
    lines.append(
        f"- `kg load examples/map` (its 5 small files): right after the "
        f"reset {cold:.1f} s; again (`--force`) into the server that just ran it "
        f"**{warm:.1f} s** (goal ≤ 3 s); again after a stop and a start {restarted:.1f} s"
    )
    lines.append(f"1-minute load average {os.getloadavg()[0]:.2f} at the end.")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
