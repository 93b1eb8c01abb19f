"""`kg unmerge` racing `kg load --force` of the same pages (issue 41, defect 6).

Before, the two ran into each other: the unmerge removed the merged paper with what the
load's first pages had just written to it, while its later pages already wrote the split
keys; both exited 0 with four citations and four DESCRIBED_IN links missing, a graph
neither order gives, or the loader failed with "Unable to load NODE". Now they serialise
through a lease in the graph (kg/load/leases.py): each round must end with both at exit 0
and the graph of one sequential order or the other (the canonical dump of
tests/graph_dump.py).
"""

from __future__ import annotations

import time
from pathlib import Path

from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.merges import merges, unmerge
from kg.load.schema import clear_database
from kg.server.config import Connection
from tests.graph_dump import differences, dump_graph
from tests.integration.test_faults import Held, Run, cli_env
from tests.map_pages import map_page

ROUNDS = 3
PAGES = 16
ROUND_SECONDS = 60.0
EARLY, LATE = "title:sparse coding:2010", "title:sparse coding:2011"
Dump = tuple[list[str], list[str]]


def _pages(folder: Path) -> list[Path]:
    """PAGES pages, each its own file, citing "Sparse Coding" by title only, as 2010 or 2011:
    the identity rule makes one paper of the two keys (their years are one apart)."""
    pages = []
    for n in range(PAGES):
        cited = f"{2010 + n % 2}Sparse Coding{'.' if n % 3 else ''}cited by 5"
        path = folder / f"page-{n:02d}.txt"
        path.write_text(
            map_page(f"Citing paper {n}", f"2301.{n + 10:05d}", 2023, "2026-01-01", [cited]),
            encoding="utf-8",
        )
        pages.append(path)
    return pages


def _merged(graph: Database, pages: list[Path], rejects: Path) -> None:
    """The graph both orders start from: every page loaded, the two keys one paper."""
    clear_database(graph)
    summary = KnowledgeGraph.on(graph).load(pages, batch_size=1, rejects_path=rejects)
    assert summary.rejected == 0, summary.reject_messages
    assert [(m.key, [k.key for k in m.merged]) for m in merges(graph)] == [(EARLY, [LATE])]


def test_unmerge_racing_a_forced_load_gives_one_sequential_graph(
    graph: Database, neo4j_connection: Connection, tmp_path: Path
) -> None:
    pages = _pages(tmp_path)
    rejects = tmp_path / "r.jsonl"

    def load() -> None:
        KnowledgeGraph.on(graph).load(pages, batch_size=1, rejects_path=rejects, force=True)

    def split() -> None:
        assert unmerge(graph, EARLY).removed

    orders: dict[str, Dump] = {}
    for name, steps in (
        ("load, then unmerge", (load, split)),
        ("unmerge, then load", (split, load)),
    ):
        _merged(graph, pages, rejects)
        for step in steps:
            step()
        orders[name] = dump_graph(graph)
    assert orders["load, then unmerge"] != orders["unmerge, then load"]

    env = cli_env(neo4j_connection)
    load_args = [
        "load",
        *map(str, pages),
        "--force",
        "--batch-size",
        "1",
        "--rejects",
        str(rejects),
    ]
    # How long the load takes once released: the unmerges below start across that time,
    # so that each lands before, in the middle of, or after the load's writes.
    _merged(graph, pages, rejects)
    [calibration], seconds = _race(env, [(load_args, 0.0)], tmp_path / "calibration")
    assert calibration.code == 0, calibration
    seen: list[str] = []
    for number in range(ROUNDS):
        _merged(graph, pages, rejects)
        delay = seconds * number / ROUNDS
        runs, _ = _race(
            env,
            [(load_args, 0.0), (["unmerge", EARLY, "--yes"], delay)],
            tmp_path / f"round-{number}",
        )
        for run in runs:
            assert run.code == 0, run
            run.check_quiet()
        got = dump_graph(graph)
        matched = [name for name, dump in orders.items() if dump == got]
        assert matched, f"round {number} (unmerge {delay:.2f}s in) matches neither order:\n" + (
            "\n".join(f"against {name}:\n{differences(got, dump)}" for name, dump in orders.items())
        )
        seen.extend(matched)
    assert len(seen) == ROUNDS
    (tmp_path / "orders.txt").write_text("\n".join(seen) + "\n", encoding="utf-8")


def _race(
    env: dict[str, str], starts: list[tuple[list[str], float]], folder: Path
) -> tuple[list[Run], float]:
    """Start ``kg`` with each of ``starts``' arguments, imported ahead, and release each its
    delay after the first; return their runs and the seconds from the first release to the
    last exit."""
    deadline = time.monotonic() + ROUND_SECONDS
    racers = [Held.start(env, args, folder / str(n)) for n, (args, _) in enumerate(starts)]
    try:
        while not all(racer.ready for racer in racers):
            assert time.monotonic() < deadline, "the kg processes did not start"
            time.sleep(0.05)
        began = time.monotonic()
        for racer, (_, delay) in zip(racers, starts, strict=True):
            time.sleep(max(0.0, began + delay - time.monotonic()))
            racer.release()
        runs = [racer.wait(deadline) for racer in racers]
        seconds = time.monotonic() - began
    finally:
        for racer in racers:
            if racer.process.poll() is None:
                racer.process.kill()
                racer.process.wait()
    return runs, seconds
