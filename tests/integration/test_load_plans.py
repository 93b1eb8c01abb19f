"""No load statement plans an Eager operator (issue 36), but those EAGER_ALLOWED lists, each
with why. Eager makes Neo4j hold a whole batch's rows before it writes, and changes which of
a batch's rows see each other's writes.

Each statement the loader sends is EXPLAINed with the parameters of a real batch (the
example map and the arXiv sample, loaded once first: tests.bench.plans)."""

from __future__ import annotations

from pathlib import Path

from kg.database import Database
from tests.bench.plans import WRITE_STATEMENTS, has_eager, plans

_DELETES = (
    "a MATCH ... DELETE of a relationship found by expanding from a node plans an Eager "
    "on Neo4j 5.26 (only a seek by element id as the plan's first leaf does not)"
)

EAGER_ALLOWED: dict[str, str] = {
    "load_papers": f"deletes the ALSO_TITLED loop of the title a paper takes: {_DELETES}",
    "load_stubs": f"deletes the ALSO_TITLED loop of the title a stub takes: {_DELETES}",
    "load_authors": f"replaces a paper's AUTHORED links: {_DELETES}",
    "load_categories": f"replaces a paper's category links: {_DELETES}",
    "load_self_citations": "SET p:Paper takes the paper's write lock after MATCH (p:Paper) "
    "read the label, and the planner takes that for a conflict",
    "merge_papers": "moves and deletes the relationships and node of the paper that merges "
    "away; it runs once per merge, not per batch",
}
"""The statements that still plan an Eager, and why (docs/BENCHMARKS.md, Eager operators)."""


def test_no_load_plan_holds_an_eager_but_the_listed_ones(graph: Database, tmp_path: Path) -> None:
    found = plans(graph, tmp_path / "rejects.jsonl")
    assert set(found) == set(WRITE_STATEMENTS)
    eager = {name for name, operators in found.items() if has_eager(operators)}
    assert sorted(eager - EAGER_ALLOWED.keys()) == [], "these plan an Eager now"
    # an entry that no longer plans one leaves the list, so that it cannot come back unseen
    assert sorted(EAGER_ALLOWED.keys() - eager) == [], "these no longer plan an Eager"


def test_the_allow_list_names_only_statements_the_plans_cover() -> None:
    assert EAGER_ALLOWED.keys() <= set(WRITE_STATEMENTS)
    assert all(reason.strip() for reason in EAGER_ALLOWED.values())
