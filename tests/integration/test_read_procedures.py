"""The procedures a read-only `kg cypher` may call (kg.read_only.READ_PROCEDURES) are enough
for the project's own read queries: each query file of cypher/ that reads plans on a real
Neo4j and passes the check a user's statement must pass."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kg import queries
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.read_only import READ_PROCEDURES, check_plan, plan
from tests.data import EXAMPLES, SEED_PAGE, SEED_RECORD

_DUMMY = {
    "str": "x",
    "int": 1,
    "float": 0.5,
    "bool": True,
    "map": {},
    "list[str]": ["x"],
    "list[int]": [1],
    "list[float]": [0.5] * 384,  # a query vector of kg embed's model
    "list[map]": [{}],
}


@pytest.fixture(scope="module")
def loaded(session_graph: Database, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """The small map, loaded once: the planner knows its labels and indexes."""
    clear_database(session_graph)
    rejects = tmp_path_factory.mktemp("procedures") / "r.jsonl"
    KnowledgeGraph.on(session_graph).load(
        [EXAMPLES / "map", SEED_PAGE, SEED_RECORD], rejects_path=rejects
    )
    yield session_graph
    clear_database(session_graph)


def test_every_read_query_of_the_library_passes_the_check(loaded: Database) -> None:
    """What the project's own read queries call (db.index.fulltext.queryNodes, db.labels,
    apoc.path.subgraphNodes, ...) is allowed: each plans and passes, but those that call GDS
    on a server without it, which Neo4j cannot plan."""
    has_gds = bool(
        loaded.read("SHOW FUNCTIONS YIELD name WHERE name STARTS WITH 'gds.' RETURN name")
    )
    checked = []
    for query in queries.all_queries().values():
        if query.mode != "read":
            continue
        params = {p.name: p.default if p.has_default else _DUMMY[p.type] for p in query.params}
        if "gds." in query.text and not has_gds:
            continue
        check_plan(plan(loaded, query.cypher, params))
        checked.append(query.full_name)
    assert "questions.search_titles" in checked
    assert "questions.graph_stats" in checked
    assert "browser.neighbourhood_graph" in checked
    assert {"db.index.fulltext.queryNodes", "db.labels", "apoc.path.subgraphNodes"} <= (
        READ_PROCEDURES
    )
