"""Which load statements plan an Eager operator (issue 11). Eager makes Neo4j hold every row
of a statement before writing; for the loader that is one batch (at most --batch-size rows).

Each statement is EXPLAINed (planned, not run) with the parameters the writer really sends
for a batch of the example map and the arXiv sample, against the server NEO4J_* or KG_HOME
names, after loading those files once (so the labels, properties and indexes exist):

    python -m tests.bench.plans
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from kg import queries
from kg.database import Database
from kg.load.pipeline import load_paths
from kg.load.rows import Batch, batch_statements, title_refs
from loaders.formats import parse_file
from loaders.records import CitationRecord, PaperRecord
from tests.data import EXAMPLES, FIXTURES

WRITE_STATEMENTS = (
    "load_snapshots",
    "load_papers",
    "load_author_names",
    "load_authors",
    "load_categories",
    "load_stubs",
    "load_citations",
    "lock_titles",
    "alias_holders",
    "reconcile_titles",
    "kept_apart",
    "merge_papers",
)


def _operators(plan: Any) -> list[str]:
    found = [plan.get("operatorType", "")]
    for child in plan.get("children", []):
        found.extend(_operators(child))
    return found


def _plan(graph: Database, name: str, params: dict[str, Any]) -> list[str]:
    # Statement names as the loader gives them (load_papers) name cypher/load/ files (papers).
    query = getattr(queries.load, name.removeprefix("load_"))
    with graph.driver.session(database=graph.database) as session:
        summary = session.run("EXPLAIN " + query.cypher, query.bind(params)).consume()
    assert summary.plan is not None, name
    return _operators(summary.plan)


def plans(graph: Database, rejects: Path) -> dict[str, list[str]]:
    """Return each write statement's plan operators, loading the sample files first."""
    load_paths(graph, [EXAMPLES / "map", FIXTURES / "arxiv" / "sample.jsonl"], rejects_path=rejects)
    batch = Batch()
    sources = [(path, "map_page") for path in sorted((EXAMPLES / "map").glob("*.txt"))]
    sources.append((FIXTURES / "arxiv" / "sample.jsonl", "arxiv_oai"))
    for path, fmt in sources:
        for item in parse_file(path, fmt):  # type: ignore[arg-type]
            if isinstance(item, PaperRecord):
                batch.papers.append(item)
            elif isinstance(item, CitationRecord):
                batch.citations.append(item)
    statements = dict(batch_statements(batch))
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
    return {name: _plan(graph, name, statements[name]) for name in WRITE_STATEMENTS}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, Database.connect() as graph:
        found = plans(graph, Path(folder) / "rejects.jsonl")
    print("| statement | Eager | operators |")
    print("| --- | --- | --- |")
    for name, operators in found.items():
        eager = "yes" if any("Eager" in op for op in operators) else "no"
        shown = ", ".join(op.split("@")[0] for op in operators)
        print(f"| `{name}` | {eager} | {shown} |")


if __name__ == "__main__":
    main()
