"""The waits around an answer (issue 39): `kg paper` on a warm server, `kg --version`'s CPU,
`kg db reset` against a stop and a start, and a small load into a running server.

Run: python -m tests.bench.chores --papers 20 --seed 3 --empty-the-database

It EMPTIES the database of the local server of KG_HOME (`kg db reset --yes`), so point
KG_HOME at a home of its own. Before the reset it times `kg paper REF --limit 5` as a user
runs it (a new process each time, wall clock) for --papers random cit-HepTh papers, when the
graph holds cit-HepTh. Then, in this order:
- `kg --version`, 10 runs: CPU seconds (user + system) of the child;
- `kg db stop` then `kg db start`, wall clock;
- `kg db reset --yes` (the server restarted on an empty store, the schema applied), wall;
- `kg load examples/map` right after the reset: the server has planned no load statement
  since it started;
- `kg load examples/map --force` again: the same load into a server that has just run it;
- the same after `kg db stop` and `kg db start`, into the database that already holds it
  (`--force`), the cold server's cost alone.
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
    parser.add_argument(
        "--empty-the-database",
        action="store_true",
        help="required: the benchmark resets the local server's database",
    )
    args = parser.parse_args()
    if not args.empty_the_database:
        parser.error("this benchmark empties the database: pass --empty-the-database")
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
    restart = _kg("db", "stop") + _kg("db", "start")
    reset = _kg("db", "reset", "--yes")
    lines.append(
        f"- `kg db stop` + `kg db start`: {restart:.1f} s; `kg db reset --yes`: {reset:.1f} s: "
        f"**{reset / restart:.2f}×** (goal ≤ 1.5×)"
    )
    cold = _kg("load", "examples/map")
    warm = _kg("load", "examples/map", "--force")
    _kg("db", "stop")
    _kg("db", "start")
    restarted = _kg("load", "examples/map", "--force")
    lines.append(
        f"- `kg load examples/map` (its 5 small files): right after the "
        f"reset {cold:.1f} s; again (`--force`) into the server that just ran it "
        f"**{warm:.1f} s** (goal ≤ 3 s); again after a stop and a start {restarted:.1f} s"
    )
    lines.append(f"1-minute load average {os.getloadavg()[0]:.2f} at the end.")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
