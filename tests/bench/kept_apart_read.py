"""What reading the users' splits costs a reconcile round: ``kept_apart`` (the splits of
the round's titles, read by their label) in one transaction, with none recorded and with a
hundred, each median of five runs of 500 reads for ten titles. Every round that reconciles
a title holding a title key now reads them, to take apart keys a split file names that
merged before (until 1878cc5, only a round whose titles were contested did). Uses the
server NEO4J_* or KG_HOME names; the hundred splits it records are removed again.
``--load DIR`` first loads DIR (into an emptied database: ``kg db reset --yes``) and counts
the reconcile rounds that read the lists and splits, and their time:

    python -m tests.bench.kept_apart_read [--load DIR]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from neo4j import ManagedTransaction

from kg import queries
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load import neo4j_sink
from loaders.identity import TitleCandidate

TITLES = [f"bench title {i}" for i in range(10)]


def _per_read(graph: Database, reads: int = 500) -> float:
    """Milliseconds per kept_apart read, over ``reads`` reads in one transaction."""

    def work(tx: ManagedTransaction) -> float:
        began = time.perf_counter()
        for _ in range(reads):
            list(queries.load.kept_apart.run_in(tx, norm_titles=TITLES))
        return (time.perf_counter() - began) / reads * 1000

    return graph.write_transaction(work)


def _load(graph: Database, folder: Path) -> None:
    """Load ``folder``, counting the rounds that read the pages' lists and the splits."""
    evidence = neo4j_sink.GraphWriter._evidence
    rounds = [0, 0.0]

    def counted(
        tx: ManagedTransaction, grouped: dict[str, list[TitleCandidate]]
    ) -> tuple[list[str], dict[str, list[list[str]]]]:
        began = time.perf_counter()
        try:
            return evidence(tx, grouped)
        finally:
            rounds[0] += 1
            rounds[1] += time.perf_counter() - began

    neo4j_sink.GraphWriter._evidence = staticmethod(counted)  # type: ignore[method-assign]
    began = time.monotonic()
    summary = KnowledgeGraph.on(graph).load(
        [folder], rejects_path=folder.with_suffix(".rejects.jsonl")
    )
    print(
        f"loaded {summary.read:,} records in {time.monotonic() - began:.1f} s "
        f"(merged {summary.counts.merged:,}, moved {summary.counts.moved:,}); "
        f"{rounds[0]:,} reads of the lists and splits, {rounds[1] * 1000:.0f} ms in all"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=Path, help="a folder to load first, counting rounds")
    parser.add_argument("--reads", type=int, default=500, help="reads per timed transaction")
    args = parser.parse_args()
    with Database.connect() as graph:
        if args.load:
            _load(graph, args.load)
        for splits in (0, 100):
            graph.write(
                "UNWIND range(1, $n) AS i CREATE (:KeepApart {key: 'bench:' + i, "
                "keys: ['title:bench ' + i + ':2010'], norm_titles: ['bench ' + i]})",
                {"n": splits},
            )
            runs = [_per_read(graph, args.reads) for _ in range(5)]
            print(f"{splits} splits recorded: {statistics.median(runs):.3f} ms per read")
        graph.write("MATCH (k:KeepApart) WHERE k.key STARTS WITH 'bench:' DELETE k")


if __name__ == "__main__":
    main()
