"""The naive loader: what most hand-written import scripts do, as the benchmark's floor.

One ``session.run`` per record, each its own auto-commit transaction: a ``MERGE`` of the
paper with ``SET`` of its properties, then one ``MATCH``/``MATCH``/``MERGE`` per edge. The
input is read with ``json`` and ``csv`` (no validation, no authors or categories), and the
project's constraints are in place, so every MERGE is an index lookup. It is measured on a
sample and its rates are extrapolated.

    python -m tests.bench.naive --uri neo4j://127.0.0.1:7687 --arxiv A.jsonl.gz --edges E.csv
(password in $NEO4J_PASSWORD)
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from neo4j import Driver, GraphDatabase

__all__ = ["NaiveResult", "load_naive"]

_PAPER = """
MERGE (p:Paper {key: $key})
SET p.arxiv_id = $key, p.title = $title, p.abstract = $abstract, p.year = $year,
    p.doi = $doi, p.license = $license, p.stub = false
"""
_CITES = """
MATCH (a:Paper {key: $citing})
MATCH (b:Paper {key: $cited})
MERGE (a)-[:CITES]->(b)
"""


@dataclass(frozen=True)
class NaiveResult:
    """How many papers and edges the naive loader wrote, and how long each part took."""

    papers: int
    edges: int
    paper_seconds: float
    edge_seconds: float

    @property
    def papers_per_second(self) -> float:
        """Papers written per second."""
        return self.papers / self.paper_seconds if self.paper_seconds else 0.0

    @property
    def edges_per_second(self) -> float:
        """Edges written per second."""
        return self.edges / self.edge_seconds if self.edge_seconds else 0.0


def _year(record: dict[str, object]) -> int | None:
    versions = record.get("versions")
    if isinstance(versions, list) and versions and isinstance(versions[0], dict):
        created = str(versions[0].get("created", ""))
        for word in created.split():
            if len(word) == 4 and word.isdigit():
                return int(word)
    return None


def load_naive(
    driver: Driver, database: str, arxiv: Path, edges: Path, max_papers: int, max_edges: int
) -> NaiveResult:
    """Write up to ``max_papers`` records and ``max_edges`` edges, one transaction each.

    Edges whose ends are not among the papers written are skipped, so the sample's edges
    all create a relationship. Returns the counts and the seconds each part took.
    """
    keys: set[str] = set()
    with driver.session(database=database) as session:
        began = time.monotonic()
        with gzip.open(arxiv, "rt", encoding="utf-8") as lines:
            for line in lines:
                if len(keys) >= max_papers:
                    break
                record = json.loads(line)
                key = str(record["id"])
                session.run(
                    _PAPER,
                    key=key,
                    title=record.get("title"),
                    abstract=record.get("abstract"),
                    year=_year(record),
                    doi=record.get("doi"),
                    license=record.get("license"),
                ).consume()
                keys.add(key)
        paper_seconds = time.monotonic() - began
        written = 0
        began = time.monotonic()
        with edges.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            next(reader)
            for citing, cited in reader:
                if written >= max_edges:
                    break
                if citing in keys and cited in keys:
                    session.run(_CITES, citing=citing, cited=cited).consume()
                    written += 1
        edge_seconds = time.monotonic() - began
    return NaiveResult(len(keys), written, paper_seconds, edge_seconds)


def main(argv: list[str] | None = None) -> None:
    """Run the naive loader once and print its result as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--user", default="neo4j")
    parser.add_argument("--database", default="neo4j")
    parser.add_argument("--arxiv", type=Path, required=True, help="gzipped arXiv JSON lines")
    parser.add_argument("--edges", type=Path, required=True, help="citing,cited CSV")
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--max-edges", type=int, default=20000)
    args = parser.parse_args(argv)
    password = os.environ["NEO4J_PASSWORD"]
    with GraphDatabase.driver(args.uri, auth=(args.user, password)) as driver:
        result = load_naive(
            driver, args.database, args.arxiv, args.edges, args.papers, args.max_edges
        )
    print(
        json.dumps(
            {
                **asdict(result),
                "papers_per_second": result.papers_per_second,
                "edges_per_second": result.edges_per_second,
            }
        )
    )


if __name__ == "__main__":
    main()
