"""Which load statements plan an Eager operator (issues 11 and 36). Eager makes Neo4j hold
every row of a statement before writing; for the loader that is one batch (at most
--batch-size rows).

Each statement is EXPLAINed (planned, not run) with the parameters the writer really sends
for a batch of the example map and the arXiv sample, against the server NEO4J_* or KG_HOME
names, after loading those files once (so the labels, properties and indexes exist):

    python -m tests.bench.plans

With --profile, each statement also runs once under PROFILE in a transaction that is rolled
back (the batch replayed onto the graph that already holds it, as an identical reload), and
the table gains its database hits; --against DIR profiles the .cypher files of DIR/load/ too
(another revision's, e.g. `git archive main cypher | tar -x -C /tmp/old`), for a before and
after.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from kg import queries
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.rows import Batch, batch_statements, snapshot_row, title_refs
from kg.queries import Query, parse_query_file
from loaders.formats import parse_file
from loaders.records import CitationRecord, PaperRecord, SnapshotRecord
from tests.data import EXAMPLES, FIXTURES

WRITE_STATEMENTS = (
    "load_snapshots",
    "load_papers",
    "load_author_names",
    "load_authors",
    "load_categories",
    "load_stubs",
    "load_citations",
    "load_self_citations",
    "load_paper_ids",
    "load_author_ids",
    "load_id_aliases",
    "lock_titles",
    "lock_papers",
    "alias_holders",
    "author_holders",
    "id_holders",
    "mark_snapshot_loaded",
    "snapshot_follows",
    "reconcile_titles",
    "kept_apart",
    "merge_papers",
)
"""Every statement the writer sends with a batch or a file, and the merge the reconcile runs."""


def has_eager(operators: list[str]) -> bool:
    """Return True when a plan's operators hold an Eager (EagerAggregation is no Eager)."""
    return any(op.split("@")[0] == "Eager" for op in operators)


def _operators(plan: Any) -> list[str]:
    found = [plan.get("operatorType", "")]
    for child in plan.get("children", []):
        found.extend(_operators(child))
    return found


def _db_hits(plan: Any) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(child) for child in plan.get("children", []))


def _query(name: str, folder: Path | None = None) -> Query:
    # Statement names as the loader gives them (load_papers) name cypher/load/ files (papers).
    if folder is None:
        return getattr(queries.load, name.removeprefix("load_"))  # type: ignore[no-any-return]
    return parse_query_file(folder / "load" / f"{name.removeprefix('load_')}.cypher", "load")


def _plan(graph: Database, query: Query, params: dict[str, Any]) -> list[str]:
    with graph.driver.session(database=graph.database) as session:
        summary = session.run("EXPLAIN " + query.cypher, query.bind(params)).consume()
    assert summary.plan is not None, query.name
    return _operators(summary.plan)


def _profile(graph: Database, query: Query, params: dict[str, Any]) -> int:
    """Run the statement under PROFILE, roll it back, and return its database hits."""
    with graph.driver.session(database=graph.database) as session:
        tx = session.begin_transaction()
        try:
            summary = tx.run("PROFILE " + query.cypher, query.bind(params)).consume()
        finally:
            tx.rollback()
    assert summary.profile is not None, query.name
    return _db_hits(summary.profile)


def sample_batch() -> tuple[Batch, list[SnapshotRecord]]:
    """The example map and the arXiv sample as one batch, and their snapshots."""
    batch = Batch()
    snapshots: list[SnapshotRecord] = []
    sources = [(path, "map_page") for path in sorted((EXAMPLES / "map").glob("*.txt"))]
    sources.append((FIXTURES / "arxiv" / "sample.jsonl", "arxiv_oai"))
    for path, fmt in sources:
        for item in parse_file(path, fmt):  # type: ignore[arg-type]
            if isinstance(item, PaperRecord):
                batch.papers.append(item)
            elif isinstance(item, CitationRecord):
                batch.citations.append(item)
            elif isinstance(item, SnapshotRecord):
                snapshots.append(item)
    return batch, snapshots


def first_load_hits(graph: Database, folder: Path | None = None) -> dict[str, int]:
    """Return the db hits of each statement of the sample batch written onto an empty graph:
    its snapshots, then its statements in the writer's order, in one transaction under
    PROFILE, rolled back. ``folder``: another revision's cypher/ folder.

    Raises RuntimeError when the graph holds papers already.
    """
    if graph.read("MATCH (p:Paper) RETURN count(p) AS n")[0]["n"]:
        raise RuntimeError("the first-load profile needs an empty graph: kg db reset --yes")
    batch, snapshots = sample_batch()
    steps = [("load_snapshots", {"rows": [snapshot_row(s) for s in snapshots]})]
    hits: dict[str, int] = {}
    with graph.driver.session(database=graph.database) as session:
        tx = session.begin_transaction()
        try:
            for name, params in steps + batch_statements(batch):
                query = _query(name, folder)
                summary = tx.run("PROFILE " + query.cypher, query.bind(params)).consume()
                assert summary.profile is not None, name
                hits[name] = hits.get(name, 0) + _db_hits(summary.profile)
        finally:
            tx.rollback()
    return hits


def load_samples(graph: Database, rejects: Path) -> dict[str, dict[str, Any]]:
    """Load the sample files, and return each statement's parameters for a batch of them."""
    KnowledgeGraph.on(graph).load(
        [EXAMPLES / "map", FIXTURES / "arxiv" / "sample.jsonl"], rejects_path=rejects
    )
    batch, _snapshots = sample_batch()
    statements = dict(batch_statements(batch))
    some = batch.papers[0].key
    statements["load_self_citations"] = {"rows": [{"key": some, "entry": f"x|{some}|title:x:2000"}]}
    statements["load_author_ids"] = {"rows": [{"key": "openalex:A1", "ids": ["openalex:A1"]}]}
    statements["load_id_aliases"] = {"rows": [{"key": some, "aliases": ["doi:10.1/x"]}]}
    statements["lock_papers"] = {"keys": sorted({paper.key for paper in batch.papers})}
    statements["author_holders"] = {"keys": ["openalex:A1", "orcid:0000-0002-1825-0097"]}
    statements["id_holders"] = {"keys": ["doi:10.1/x"]}
    statements["mark_snapshot_loaded"] = {"key": "sha256:x", "loaded_by": "kg 0"}
    statements["snapshot_follows"] = {"snapshot": "sha256:x", "since": "sha256:y", "unchanged": 1}
    statements["load_snapshots"] = {
        "rows": [
            {
                "key": "sha256:x",
                "kind": "map_page",
                "source": "x.txt",
                "sha256": "0" * 64,
                "data_date": None,
                "first_date": None,
                "builder_version": None,
                "hashes": {},
            }
        ]
    }
    statements["lock_titles"] = {"stripes": [1, 2]}
    statements["alias_holders"] = {"refs": title_refs(batch)}
    statements["reconcile_titles"] = {"norm_titles": ["deep learning"]}
    statements["kept_apart"] = {"norm_titles": ["deep learning"]}
    statements["merge_papers"] = {"source": "title:a:2001", "target": "title:a:2000"}
    return statements


def plans(graph: Database, rejects: Path) -> dict[str, list[str]]:
    """Return each write statement's plan operators, loading the sample files first."""
    statements = load_samples(graph, rejects)
    return {name: _plan(graph, _query(name), statements[name]) for name in WRITE_STATEMENTS}


def _print_first_load(graph: Database, against: Path | None) -> None:
    after = first_load_hits(graph)
    before = first_load_hits(graph, against) if against else {}
    print("| statement (first load) | db hits before | db hits |")
    print("| --- | ---: | ---: |")
    for name, hits in after.items():
        print(f"| `{name}` | {before.get(name, '')} | {hits} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="add each statement's db hits")
    parser.add_argument("--against", type=Path, help="a cypher/ folder to profile as well")
    parser.add_argument(
        "--first-load", action="store_true", help="profile the batch onto an empty graph first"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, Database.connect() as graph:
        if args.first_load:
            _print_first_load(graph, args.against)
        statements = load_samples(graph, Path(folder) / "rejects.jsonl")
        rows = []
        for name in WRITE_STATEMENTS:
            operators = _plan(graph, _query(name), statements[name])
            cells = [f"`{name}`", "yes" if has_eager(operators) else "no"]
            if args.against:
                before = _query(name, args.against)
                cells.append(str(_profile(graph, before, statements[name])))
            if args.profile or args.against:
                cells.append(str(_profile(graph, _query(name), statements[name])))
            cells.append(", ".join(op.split("@")[0] for op in operators))
            rows.append(cells)
    head = ["statement", "Eager"]
    head += ["db hits before"] if args.against else []
    head += ["db hits"] if args.profile or args.against else []
    print("| " + " | ".join([*head, "operators"]) + " |")
    print("|" + " --- |" * (len(head) + 1))
    for cells in rows:
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
