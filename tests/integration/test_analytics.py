"""Analytics against a real Neo4j: projection, write-back, run records, re-runs, scope, the
CLI, the GDS guard, and PageRank on the whole cit-HepTh graph against networkx."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from networkx import DiGraph, pagerank

from kg import analytics
from kg.analytics import AnalyticsError, RankOptions, Scope
from kg.analytics import gds_engine as analytics_gds
from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from tests.conftest import hepth_pairs

# Papers: key -> (year, primary category or None for a stub).
PAPERS: dict[str, tuple[int | None, str | None]] = {
    "2001.00001": (2019, "cs.LG"),
    "2001.00002": (2020, "cs.LG"),
    "2001.00003": (2021, "cs.LG"),
    "2001.00004": (2020, "cs.CL"),
    "2001.00005": (2022, "cs.CL"),
    "2001.00006": (None, "cs.CL"),
    "9901.00001": (2018, None),
    "9901.00002": (None, None),
}
CITES = [
    ("2001.00002", "2001.00001"),
    ("2001.00003", "2001.00001"),
    ("2001.00003", "2001.00002"),
    ("2001.00004", "2001.00001"),
    ("2001.00004", "2001.00002"),
    ("2001.00005", "2001.00004"),
    ("2001.00005", "2001.00003"),
    ("2001.00006", "2001.00005"),
    ("2001.00001", "9901.00001"),
    ("2001.00002", "9901.00001"),
    ("2001.00004", "9901.00002"),
    ("9901.00002", "9901.00001"),
]
STUBS = {key for key, (_, category) in PAPERS.items() if category is None}


def _seed(graph: Database) -> None:
    papers = [
        {"key": key, "year": year, "category": category, "stub": category is None}
        for key, (year, category) in PAPERS.items()
    ]
    graph.write(
        "UNWIND $papers AS row "
        "CREATE (p:Paper {key: row.key, year: row.year, stub: row.stub, title: 'T ' + row.key}) "
        "FOREACH (code IN CASE WHEN row.category IS NULL THEN [] ELSE [row.category] END | "
        "  SET p.primary_category = code "
        "  MERGE (c:Category {code: code}) MERGE (p)-[:PRIMARY_CATEGORY]->(c))",
        {"papers": papers},
    )
    graph.write(
        "UNWIND $edges AS e MATCH (a:Paper {key: e[0]}), (b:Paper {key: e[1]}) "
        "CREATE (a)-[:CITES]->(b)",
        {"edges": [list(edge) for edge in CITES]},
    )
    graph.write(
        "CREATE (:Snapshot {key: 's1', data_date: date('2024-05-01')}), "
        "(:Snapshot {key: 's2', data_date: date('2025-02-03')})"
    )


@pytest.fixture
def small(graph: Database) -> Database:
    """The test graph: six papers in two categories, two stubs, twelve citations."""
    _seed(graph)
    return graph


def _stored(graph: Database, prop: str) -> dict[str, Any]:
    rows = graph.read("MATCH (p:Paper) RETURN p.key AS key, properties(p) AS props")
    return {row["key"]: row["props"][prop] for row in rows if prop in row["props"]}


def _reference(edges: list[tuple[str, str]], nodes: set[str]) -> dict[str, float]:
    reference = DiGraph()
    reference.add_nodes_from(sorted(nodes))
    reference.add_edges_from(edges)
    result: dict[str, float] = pagerank(reference, tol=1e-13, max_iter=10_000)
    return result


def test_projection_reads_the_citation_graph(small: Database) -> None:
    citation = analytics.load_projection(small)
    assert citation.keys == tuple(sorted(PAPERS))
    pairs = {(citation.keys[a], citation.keys[b]) for a, b in citation.edges}
    assert pairs == set(CITES)


def test_pagerank_write_back_and_run_record(small: Database) -> None:
    result = KnowledgeGraph.on(small).analytics.rank(
        "pagerank", engine="igraph", top=3, write=True, batch_size=3
    )
    expected = _reference(CITES, set(PAPERS))
    assert result.scores() == pytest.approx(expected, abs=1e-9)
    assert result.written == len(PAPERS)
    assert _stored(small, "pagerank") == pytest.approx(expected, abs=1e-9)
    assert [p.key for p in result.top] == sorted(expected, key=lambda k: -expected[k])[:3]
    assert result.top[0].title == f"T {result.top[0].key}"
    top1 = small.read("MATCH (p:PageRankTop1) RETURN collect(p.key) AS keys")[0]["keys"]
    assert top1 == [result.top[0].key]
    runs = small.read("MATCH (r:AnalyticsRun) RETURN properties(r) AS run")
    assert len(runs) == 1
    run = runs[0]["run"]
    assert run["key"] == "pagerank"
    assert run["property"] == "pagerank"
    assert run["algorithm"] == "pagerank"
    assert run["engine"] == "igraph"
    assert (run["nodes"], run["edges"]) == (8, 12)
    assert run["snapshot"].iso_format() == "2025-02-03"
    assert json.loads(run["parameters"])["damping"] == 0.85
    assert run["seconds"] > 0
    assert run["computed_at"] is not None
    listed = analytics.analytics_runs(small)
    assert [r.key for r in listed] == ["pagerank"]
    assert listed[0].snapshot == "2025-02-03"


def test_rerun_replaces_values_and_leaves_no_stale_ones(small: Database) -> None:
    KnowledgeGraph.on(small).analytics.rank("pagerank", engine="igraph", write=True)
    assert set(_stored(small, "pagerank")) == set(PAPERS)
    second = KnowledgeGraph.on(small).analytics.rank(
        "pagerank", engine="igraph", scope=Scope(include_stubs=False), write=True
    )
    stored = _stored(small, "pagerank")
    assert set(stored) == set(PAPERS) - STUBS
    full = [edge for edge in CITES if not set(edge) & STUBS]
    assert stored == pytest.approx(_reference(full, set(PAPERS) - STUBS), abs=1e-9)
    assert stored == pytest.approx(second.scores(), abs=0)
    labelled = small.read(
        "MATCH (p:Paper) WHERE p:PageRankTop1 OR p:PageRankTop10 RETURN collect(p.key) AS k"
    )[0]["k"]
    assert not set(labelled) & STUBS
    runs = small.read("MATCH (r:AnalyticsRun {key: 'pagerank'}) RETURN r.parameters AS p")
    assert len(runs) == 1
    assert json.loads(runs[0]["p"])["include_stubs"] is False


def test_category_and_year_restrict_the_graph(small: Database) -> None:
    by_category = KnowledgeGraph.on(small).analytics.rank(
        "indegree", engine="igraph", scope=Scope(category="cs.LG"), top=10
    )
    assert by_category.keys == ("2001.00001", "2001.00002", "2001.00003")
    assert by_category.scores() == {"2001.00001": 2, "2001.00002": 1, "2001.00003": 0}
    assert by_category.edges == 3
    by_years = KnowledgeGraph.on(small).analytics.rank(
        "outdegree", engine="igraph", scope=Scope(year_from=2020, year_to=2021)
    )
    # 2001.00006 and the second stub have no year: a year range leaves them out.
    assert by_years.keys == ("2001.00002", "2001.00003", "2001.00004")
    assert by_years.scores() == {"2001.00002": 0, "2001.00003": 1, "2001.00004": 1}
    both = KnowledgeGraph.on(small).analytics.rank(
        "pagerank", engine="igraph", scope=Scope(category="cs.CL", year_from=2021)
    )
    assert both.keys == ("2001.00005",)
    assert both.scores() == {"2001.00005": pytest.approx(1.0)}


def test_every_algorithm_writes_its_properties(small: Database) -> None:
    for algorithm in analytics.ALGORITHMS:
        result = KnowledgeGraph.on(small).analytics.rank(
            algorithm, engine="igraph", write=True, options=RankOptions(samples=4)
        )
        for prop in result.properties:
            assert _stored(small, prop) == pytest.approx(result.scores(prop)), prop
    keys = [r.key for r in analytics.analytics_runs(small)]
    assert keys == sorted(
        [
            "betweenness",
            "hits_authority",
            "hits_hub",
            "indegree",
            "kcore",
            "outdegree",
            "pagerank",
        ]
    )
    indegree = _stored(small, "indegree")
    assert indegree["9901.00001"] == 3
    assert isinstance(indegree["9901.00001"], int)


def test_communities_write_and_repeat_with_a_seed(small: Database) -> None:
    first = KnowledgeGraph.on(small).analytics.communities(
        engine="igraph", seed=5, write=True, top=2, papers=2
    )
    second = KnowledgeGraph.on(small).analytics.communities(engine="igraph", seed=5)
    assert first.community_of() == second.community_of()
    assert _stored(small, "community") == first.community_of()
    assert first.count == len(set(first.membership))
    assert first.modularity is not None
    assert first.modularity > 0
    assert len(first.communities) == min(2, first.count)
    sizes = [c.size for c in first.communities]
    assert sizes == sorted(sizes, reverse=True)
    cited = [p.values["indegree"] for p in first.communities[0].top]
    assert cited == sorted(cited, reverse=True)
    run = small.read("MATCH (r:AnalyticsRun {key: 'community'}) RETURN r.algorithm AS a")
    assert run == [{"a": "leiden"}]


def test_gds_engine_agrees_with_igraph_or_is_refused_clearly(small: Database) -> None:
    # One test for both kinds of server, so it never skips: with GDS and the client, the two
    # engines must agree; without them, asking for GDS must fail with a hint.
    if analytics.choose_engine(small, "auto") == "igraph":
        with pytest.raises(AnalyticsError) as caught:
            KnowledgeGraph.on(small).analytics.rank("pagerank", engine="gds")
        if analytics_gds.gds_version(small) is None:
            assert "has no Graph Data Science plugin" in str(caught.value)
        else:
            assert "pip install graphdatascience" in str(caught.value)
        assert "--engine igraph" in str(caught.value)
        assert KnowledgeGraph.on(small).analytics.rank("pagerank", engine="auto").engine == "igraph"
        return
    options = RankOptions(tolerance=1e-10, max_iterations=1000)
    for algorithm in analytics.ALGORITHMS:
        ours = KnowledgeGraph.on(small).analytics.rank(algorithm, engine="igraph", options=options)
        theirs = KnowledgeGraph.on(small).analytics.rank(
            algorithm, engine="gds", options=options, write=True
        )
        assert theirs.engine == "gds"
        assert (theirs.keys, theirs.edges) == (ours.keys, ours.edges)
        for prop in ours.properties:
            assert theirs.scores(prop) == pytest.approx(ours.scores(prop), abs=1e-8), prop
            assert _stored(small, prop) == pytest.approx(theirs.scores(prop)), prop
    first = KnowledgeGraph.on(small).analytics.communities(engine="gds", seed=3)
    assert (
        KnowledgeGraph.on(small).analytics.communities(engine="gds", seed=3).membership
        == first.membership
    )


def test_empty_scope_gives_an_empty_result(small: Database) -> None:
    result = KnowledgeGraph.on(small).analytics.rank(
        "pagerank", engine="igraph", scope=Scope(category="math.AG")
    )
    assert (result.nodes, result.edges, result.top) == (0, 0, [])


def test_cli_rank_and_communities(small: Database, kg_env: Connection) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["rank", "pagerank", "--top", "2", "--json", "--write"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert [row["rank"] for row in payload["results"]] == [1, 2]
    assert payload["results"][0]["key"] == "9901.00001"
    assert payload["written"] == len(PAPERS)
    assert set(payload["timings"]) == {"projection", "build", "compute", "write", "total"}
    result = runner.invoke(main, ["rank", "indegree", "--no-stubs", "--category", "cs.LG"])
    assert result.exit_code == 0, result.output
    assert "2001.00001" in result.output
    assert "9901.00001" not in result.output
    result = runner.invoke(main, ["communities", "--json", "--seed", "3", "--top", "1"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert len(payload["results"]) == 1
    assert payload["results"][0]["size"] >= 2
    result = runner.invoke(main, ["rank", "pagerank", "--engine", "gds"])
    if analytics_gds.gds_version(small) is None:
        assert result.exit_code == 1
        assert "Error: the Neo4j server at" in result.output
        assert "has no Graph Data Science plugin" in result.output
    else:
        assert result.exit_code == (0 if analytics_gds.client_installed() else 1)
    result = runner.invoke(main, ["rank", "pagerank", "--damping", "2"])
    assert result.exit_code == 2  # a ParameterError: a usage error
    assert "Error: damping 2.0 is out of range" in result.output


@pytest.mark.slow
def test_hepth_pagerank_top_100_matches_networkx(hepth_citations: Database) -> None:
    result = KnowledgeGraph.on(hepth_citations).analytics.rank("pagerank", engine="igraph", top=100)
    pairs = hepth_pairs()
    assert (result.nodes, result.edges) == (27_769, len(pairs))
    reference = DiGraph(pairs)
    # networkx's own PageRank (its scipy form: 1.2 s here, where its pure-Python form took
    # 22.9 s for the same values, within 3e-17)
    expected = pagerank(reference, tol=1e-12, max_iter=1_000)
    expected_top = sorted(expected, key=lambda k: (-expected[k], k))[:100]
    assert [p.key for p in result.top] == expected_top
    ours = result.scores()
    assert sum(abs(ours[k] - expected[k]) for k in expected) < 1e-6
