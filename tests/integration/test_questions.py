"""The questions over the map, on a real Neo4j: small graphs built for each question, where
the answer is known by hand, and the seed page, whose report must match what the page says."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kg import questions
from kg.answers import Similarity, YearCount
from kg.cli import main
from kg.database import Database
from kg.errors import (
    AmbiguousPaper,
    AmbiguousReference,
    PaperNotFound,
    ParameterError,
    UnknownReference,
)
from kg.knowledge_graph import KnowledgeGraph
from kg.refs import resolve
from kg.server.config import Connection
from loaders.titles import normalize_name, normalize_title, title_key
from tests.data import SEED_PAGE, SEED_RECORD

PAGE = SEED_PAGE
RECORD = SEED_RECORD


def add_papers(graph: Database, *papers: dict[str, Any]) -> None:
    """MERGE papers by key; a title gets its norm_title, and stub defaults to false."""
    rows = [
        {"stub": False, **p, "norm_title": normalize_title(p["title"]) if p.get("title") else None}
        for p in papers
    ]
    graph.write("UNWIND $rows AS row MERGE (p:Paper {key: row.key}) SET p += row", {"rows": rows})


def add_cites(graph: Database, *pairs: tuple[str, str]) -> None:
    """MERGE a CITES edge for each (citing key, cited key)."""
    graph.write(
        "UNWIND $pairs AS pair MATCH (a:Paper {key: pair[0]}), (b:Paper {key: pair[1]}) "
        "MERGE (a)-[:CITES]->(b)",
        {"pairs": [list(p) for p in pairs]},
    )


def paper(key: str, year: int = 2020, **extra: Any) -> dict[str, Any]:
    return {"key": key, "title": f"Paper {key}", "year": year, **extra}


# The similarity graph: X, Y, Z and W cite A, B, C and the stub D.
#   X -> A, B, C      Y -> A, B      Z -> A, D      W -> B
# citers: A {X,Y,Z}  B {X,Y,W}  C {X}  D {Z};  refs: X {A,B,C}  Y {A,B}  Z {A,D}  W {B}
A, B, C, D = "2001.00001", "2001.00002", "2001.00003", "title:a dangling stub:2019"
X, Y, Z, W = "2101.00001", "2101.00002", "2101.00003", "2101.00004"


@pytest.fixture
def similarity_graph(graph: Database) -> Database:
    add_papers(
        graph,
        paper(A, 2017, stated_cited_by=10),
        paper(B, 2018, stated_cited_by=100),
        paper(C, 2019),
        {"key": D, "title": "A dangling stub", "year": 2019, "stub": True},
        paper(X, 2021),
        paper(Y, 2022),
        paper(Z, 2023),
        paper(W, 2024),
    )
    add_cites(graph, (X, A), (X, B), (X, C), (Y, A), (Y, B), (Z, A), (Z, D), (W, B))
    # Two sources stated A's cited-by; the newer link wins over the node's own count.
    graph.write(
        "MATCH (a:Paper {key: $a}) "
        "MERGE (old:Snapshot {key: 'old'}) SET old.data_date = date('2025-01-01') "
        "MERGE (new:Snapshot {key: 'new'}) SET new.data_date = date('2026-01-01') "
        "MERGE (a)-[o:DESCRIBED_IN]->(old) "
        "SET o.stated_cited_by = 500, o.as_of = date('2025-01-01') "
        "MERGE (a)-[n:DESCRIBED_IN]->(new) "
        "SET n.stated_cited_by = 1000, n.as_of = date('2026-01-01')",
        {"a": A},
    )
    return graph


# Per similar paper: its key, the citers (or references) shared, each side's count, cosine
# (shared / sqrt(product of the counts)) and Jaccard (shared / size of the union).
@pytest.mark.parametrize(
    ("ask", "ref", "measure", "expected"),
    [
        (
            questions.cocited,
            A,
            "co-citation",
            [
                (B, 2, 3, 3, 2 / math.sqrt(3 * 3), 2 / 4),
                (C, 1, 3, 1, 1 / math.sqrt(3), 1 / 3),
                (D, 1, 3, 1, 1 / math.sqrt(3), 1 / 3),
            ],
        ),
        (
            questions.coupled,
            X,
            "coupling",
            [
                (Y, 2, 3, 2, 2 / math.sqrt(6), 2 / 3),
                (W, 1, 3, 1, 1 / math.sqrt(3), 1 / 3),
                (Z, 1, 3, 2, 1 / math.sqrt(6), 1 / 4),
            ],
        ),
    ],
    ids=["cocitation", "coupling"],
)
def test_similarity_counts_and_scores(
    similarity_graph: Database,
    ask: Callable[[Database, str], Similarity],
    ref: str,
    measure: str,
    expected: list[tuple[str, int, int, int, float, float]],
) -> None:
    result = ask(similarity_graph, ref)
    assert result.paper.key == ref
    assert result.measure == measure
    assert [(r.key, r.together, r.size_a, r.size_b) for r in result.results] == [
        row[:4] for row in expected
    ]
    for found, (*_, cosine, jaccard) in zip(result.results, expected, strict=True):
        assert found.cosine == pytest.approx(cosine)
        assert found.jaccard == pytest.approx(jaccard)


def test_cocitation_marks_stubs_and_keeps_to_its_limit(similarity_graph: Database) -> None:
    b, _, d = questions.cocited(similarity_graph, A).results
    assert d.stub is True
    assert b.stub is False
    assert [r.key for r in questions.cocited(similarity_graph, A, limit=1).results] == [B]


def test_shared_references_sorted_by_stated_then_graph_cited_by(similarity_graph: Database) -> None:
    result = questions.shared_references(similarity_graph, X, Y)
    assert result.relation == "shared_references"
    assert (result.a.key, result.b.key) == (X, Y)
    rows = [(r.key, r.stated_cited_by, r.graph_cited_by, r.cited_by) for r in result.results]
    # A: the newest DESCRIBED_IN link (1000) beats the older one (500) and the node (10);
    # B: no link, so the node's stated count.
    assert rows == [(A, 1000, 3, 1000), (B, 100, 3, 100)]
    assert questions.shared_references(similarity_graph, X, W).results[0].key == B
    assert questions.shared_references(similarity_graph, W, Z).results == []


def test_common_citers(similarity_graph: Database) -> None:
    result = questions.common_citers(similarity_graph, A, B)
    assert result.relation == "common_citers"
    # Neither citer has a stated count: the graph in-degree (0 for both) is their cited_by.
    assert sorted((r.key, r.stated_cited_by, r.graph_cited_by) for r in result.results) == [
        (X, None, 0),
        (Y, None, 0),
    ]
    assert [r.key for r in questions.common_citers(similarity_graph, A, D).results] == [Z]
    assert questions.common_citers(similarity_graph, C, D).results == []


# The path graph:  S -> A1 -> M -> T,  S -> A2 -> M -> T  (two directed paths of 3 hops)
#                  S -> U <- T,  S -> V <- T              (two undirected paths of 2 hops)
#                  ISO stands alone.
S, A1, A2, M, T, U, V, ISO = (f"2201.0000{i}" for i in range(1, 9))


@pytest.fixture
def path_graph(graph: Database) -> Database:
    add_papers(graph, *(paper(key) for key in (S, A1, A2, M, T, U, V, ISO)))
    add_cites(graph, (S, A1), (A1, M), (S, A2), (A2, M), (M, T), (S, U), (T, U), (S, V), (T, V))
    return graph


def _keys(result: Any) -> list[list[str]]:
    return [[p.key for p in path.papers] for path in result.results]


def test_directed_shortest_path_follows_cites_forward(path_graph: Database) -> None:
    result = questions.citation_path(path_graph, S, T)
    assert result.found is True
    assert result.directed is True
    assert result.length == 3
    assert len(result.results) == 1
    assert _keys(result)[0] in ([S, A1, M, T], [S, A2, M, T])
    assert result.results[0].directions == ["cites", "cites", "cites"]


def test_undirected_shortest_path_is_shorter_and_says_each_hop_direction(
    path_graph: Database,
) -> None:
    result = questions.citation_path(path_graph, S, T, directed=False)
    assert result.length == 2
    assert _keys(result)[0] in ([S, U, T], [S, V, T])
    assert result.results[0].directions == ["cites", "cited_by"]


def test_all_shortest_paths_both_ways(path_graph: Database) -> None:
    directed = questions.citation_path(path_graph, S, T, all_paths=True)
    assert _keys(directed) == [[S, A1, M, T], [S, A2, M, T]]
    assert directed.length == 3
    undirected = questions.citation_path(path_graph, S, T, directed=False, all_paths=True)
    assert _keys(undirected) == [[S, U, T], [S, V, T]]
    assert all(p.directions == ["cites", "cited_by"] for p in undirected.results)


def test_no_path_within_the_bound_is_a_plain_result(path_graph: Database) -> None:
    backwards = questions.citation_path(path_graph, T, S)
    assert backwards.found is False
    assert backwards.length is None
    assert backwards.results == []
    assert backwards.message() == f"No citation path from {T} to {S} within 10 hops."
    too_short = questions.citation_path(path_graph, S, T, max_hops=2)
    assert too_short.found is False
    assert too_short.message() == f"No citation path from {S} to {T} within 2 hops."
    assert questions.citation_path(path_graph, S, T, directed=False, max_hops=2).found
    assert questions.citation_path(path_graph, T, S, directed=False).length == 2
    assert not questions.citation_path(path_graph, S, ISO, directed=False, all_paths=True).found
    same = questions.citation_path(path_graph, S, S)
    assert same.found
    assert same.length == 0
    assert _keys(same) == [[S]]
    with pytest.raises(ParameterError, match="max_hops is 31"):
        questions.citation_path(path_graph, S, T, max_hops=31)


def test_neighbourhood_distances_and_limit(path_graph: Database) -> None:
    one = questions.neighbourhood(path_graph, S, hops=1)
    assert {(p.key, p.distance) for p in one.results} == {(A1, 1), (A2, 1), (U, 1), (V, 1)}
    assert one.total == 4
    two = questions.neighbourhood(path_graph, S, hops=2)
    # Nearest first; at one distance the most cited first (U and V have two citers, A1 and
    # A2 one; M two, T one), then by key.
    assert [(p.key, p.distance, p.cited_by) for p in two.results] == [
        (U, 1, 2),
        (V, 1, 2),
        (A1, 1, 1),
        (A2, 1, 1),
        (M, 2, 2),
        (T, 2, 1),
    ]
    capped = questions.neighbourhood(path_graph, S, hops=3, limit=3)
    assert capped.total == 6
    assert [p.key for p in capped.results] == [U, V, A1]
    rest = questions.neighbourhood(path_graph, S, hops=3, limit=3, offset=3)
    assert (rest.total, rest.offset) == (6, 3)
    assert [p.key for p in rest.results] == [A2, M, T]
    # From T the graph is reached both ways: M and U, V cite or are cited by it.
    assert {(p.key, p.distance) for p in questions.neighbourhood(path_graph, T, 1).results} == {
        (M, 1),
        (U, 1),
        (V, 1),
    }
    alone = questions.neighbourhood(path_graph, ISO, hops=3)
    assert (alone.total, alone.results) == (0, [])


@pytest.fixture
def named_graph(graph: Database) -> Database:
    add_papers(
        graph,
        {"key": title_key("deep learning", 2015), "title": "Deep Learning", "year": 2015},
        {"key": title_key("deep learning", 2016), "title": "Deep learning.", "year": 2016},
        {"key": "2110.03888", "arxiv_id": "2110.03888", "title": "M6-10T", "year": 2021},
        {"key": "hep-th/9901001", "arxiv_id": "hep-th/9901001", "title": "Old", "year": 1999},
        {
            "key": title_key("attention is all you need", 2017),
            "title": "Attention Is All You Need",
            "year": 2017,
            "stub": True,
        },
    )
    return graph


def test_refs_resolve_by_key_arxiv_id_and_title(named_graph: Database) -> None:
    for ref in ("2110.03888", "arXiv:2110.03888v3", "https://arxiv.org/abs/2110.03888", "M6-10T"):
        assert resolve(named_graph, ref).key == "2110.03888"
    assert resolve(named_graph, "HEP-TH/9901001v2").key == "hep-th/9901001"
    assert resolve(named_graph, "title:deep learning:2016").year == 2016
    stub = resolve(named_graph, "attention is all you need!")
    assert (stub.key, stub.stub) == ("title:attention is all you need:2017", True)


def test_ambiguous_ref_lists_its_candidates(named_graph: Database) -> None:
    with pytest.raises(AmbiguousReference) as caught:
        resolve(named_graph, "DEEP LEARNING")
    assert isinstance(caught.value, AmbiguousPaper)
    assert [(c.key, c.year, c.title) for c in caught.value.candidates] == [
        ("title:deep learning:2015", 2015, "Deep Learning"),
        ("title:deep learning:2016", 2016, "Deep learning."),
    ]
    assert "'DEEP LEARNING' matches 2 papers" in str(caught.value)


def test_unknown_ref_suggests_near_titles(named_graph: Database) -> None:
    with pytest.raises(UnknownReference) as caught:
        resolve(named_graph, "Deep Lerning")
    assert isinstance(caught.value, PaperNotFound)
    assert {s.key for s in caught.value.suggestions} == {
        "title:deep learning:2015",
        "title:deep learning:2016",
    }
    with pytest.raises(UnknownReference) as unknown_id:
        resolve(named_graph, "2101.99999")
    assert unknown_id.value.suggestions == []
    assert "kg search" in str(unknown_id.value)


def test_search_by_title_words_and_by_id(named_graph: Database) -> None:
    hits = KnowledgeGraph.on(named_graph).search("learning").results
    assert {h.key for h in hits} == {"title:deep learning:2015", "title:deep learning:2016"}
    assert all(h.score is not None and h.score > 0 for h in hits)
    special = KnowledgeGraph.on(named_graph).search('attention: "need" (all)?').results
    assert [h.key for h in special] == ["title:attention is all you need:2017"]
    by_id = KnowledgeGraph.on(named_graph).search("arXiv:2110.03888").results
    assert [(h.key, h.score) for h in by_id] == [("2110.03888", None)]
    exact_first = KnowledgeGraph.on(named_graph).search("Attention Is All You Need").results
    assert (exact_first[0].key, exact_first[0].score) == (
        "title:attention is all you need:2017",
        None,
    )
    assert len(exact_first) == 1
    assert KnowledgeGraph.on(named_graph).search("zebra").results == []
    assert len(KnowledgeGraph.on(named_graph).search("learning", limit=1).results) == 1


@pytest.fixture
def people_graph(graph: Database) -> Database:
    add_papers(
        graph,
        paper("P1", 2019, stated_cited_by_in_map=5),
        paper("P2", 2020),
        paper("P3", 2021),
        paper("P4", 2022),
    )
    add_cites(graph, ("P2", "P1"), ("P3", "P1"), ("P3", "P2"))
    authorship = [
        ("P1", ["Alice Smith", "Bob Jones"]),
        ("P2", ["Alice Smith", "Carol White", "Bob Jones"]),
        ("P3", ["Bob Jones"]),
        ("P4", ["John Smith", "Bob Jonesson"]),
    ]
    rows = [
        {"paper": key, "key": normalize_name(name), "name": name, "position": i}
        for key, names in authorship
        for i, name in enumerate(names, start=1)
    ]
    graph.write(
        "UNWIND $rows AS row MATCH (p:Paper {key: row.paper}) "
        "MERGE (a:Author {key: row.key}) SET a.name = row.name "
        "MERGE (a)-[w:AUTHORED]->(p) SET w.position = row.position",
        {"rows": rows},
    )
    categories = [
        ("P1", "cs.LG", ["cs.CL", "stat.ML"]),
        ("P2", "cs.LG", ["cs.CL"]),
        ("P3", "cs.CL", ["cs.LG"]),
    ]
    graph.write(
        "UNWIND $rows AS row MATCH (p:Paper {key: row[0]}) "
        "MERGE (c:Category {code: row[1]}) MERGE (p)-[:PRIMARY_CATEGORY]->(c) "
        "WITH p, row UNWIND row[2] AS code "
        "MERGE (x:Category {code: code}) MERGE (p)-[:CROSS_LISTED]->(x)",
        {"rows": [list(row) for row in categories]},
    )
    return graph


def test_author_papers_coauthors_and_totals(people_graph: Database) -> None:
    report = questions.author(people_graph, "alice  SMITH")
    assert (report.key, report.name) == ("alice smith", "Alice Smith")
    assert [(p.key, p.position, p.graph_cited_by) for p in report.papers] == [
        ("P2", 1, 1),
        ("P1", 1, 2),
    ]
    assert [(c.name, c.papers) for c in report.coauthors] == [
        ("Bob Jones", 2),
        ("Carol White", 1),
    ]
    assert report.citations_in_map == 3  # P1 is cited twice, P2 once
    assert report.distinct_citers == 2  # by P2 and P3
    assert report.stated_cited_by_in_map == 5
    assert report.also == []
    # An exact name wins over a longer one holding the same words; a single match is taken.
    assert questions.author(people_graph, "Bob Jones").key == "bob jones"
    assert questions.author(people_graph, "carol").key == "carol white"
    # No source states a count for Carol's papers: no sum, rather than a 0 no source said
    assert questions.author(people_graph, "carol").stated_cited_by_in_map is None


def test_author_names_that_may_be_the_same_person(
    people_graph: Database, kg_env: Connection
) -> None:
    # Authors are keyed by name alone: the same surname and first initial are named as
    # maybe the same person, others (John Smith, Bob Jonesson) are not
    people_graph.write(
        "UNWIND $names AS name MATCH (p:Paper {key: 'P4'}) "
        "MERGE (a:Author {key: toLower(name)}) SET a.name = name MERGE (a)-[:AUTHORED]->(p)",
        {"names": ["A. Smith", "Alice B. Smith", "Smith"]},
    )
    report = questions.author(people_graph, "Alice Smith")
    assert [(o.name, o.papers) for o in report.also] == [("A. Smith", 1), ("Alice B. Smith", 1)]
    assert [(o.name, o.papers) for o in questions.author(people_graph, "A. Smith").also] == [
        ("Alice Smith", 2),
        ("Alice B. Smith", 1),
    ]
    assert questions.author(people_graph, "Bob Jones").also == []
    result = CliRunner().invoke(main, ["author", "Alice Smith"], env={"COLUMNS": "200"})
    assert (
        'may also be under: A. Smith (1 paper); Alice B. Smith (1 paper) (kg author "A. Smith")'
        in result.output
    )


def test_author_errors(people_graph: Database) -> None:
    with pytest.raises(questions.AmbiguousAuthor) as caught:
        questions.author(people_graph, "Smith")
    assert caught.value.candidates == ["alice smith", "john smith"]
    assert "'Smith' matches 2 authors" in str(caught.value)
    with pytest.raises(questions.AuthorNotFound, match="no author matches 'Nobody'"):
        questions.author(people_graph, "Nobody")


def test_categories_and_cross_listing_matrix(people_graph: Database) -> None:
    overview = questions.categories(people_graph)
    assert [(c.code, c.primary, c.cross_listed, c.total) for c in overview.results] == [
        ("cs.CL", 1, 2, 3),
        ("cs.LG", 2, 1, 3),
        ("stat.ML", 0, 1, 1),
    ]
    assert [(x.primary, x.cross, x.papers) for x in overview.cross_listing] == [
        ("cs.LG", "cs.CL", 2),
        ("cs.CL", "cs.LG", 1),
        ("cs.LG", "stat.ML", 1),
    ]
    lg = questions.category(people_graph, "CS.lg")
    assert (lg.code, lg.primary, lg.cross_listed) == ("cs.LG", 2, 1)
    assert [(p.key, p.role, p.graph_cited_by) for p in lg.results] == [
        ("P1", "primary", 2),
        ("P2", "primary", 1),
        ("P3", "cross_listed", 0),
    ]
    assert len(questions.category(people_graph, "cs.LG", limit=1).results) == 1
    with pytest.raises(questions.CategoryNotFound, match=r"no category 'math\.AG'"):
        questions.category(people_graph, "math.ag")


def test_seed_paper_report_matches_the_map_page(graph: Database, tmp_path: Path) -> None:
    KnowledgeGraph.on(graph).load([PAGE, RECORD], rejects_path=tmp_path / "rejects.jsonl")
    report = questions.paper_report(graph, "2110.03888")
    assert report.key == report.arxiv_id == "2110.03888"
    assert report.title == (
        "M6-10T: A Sharing-Delinking Paradigm for Efficient Multi-Trillion Parameter Pretraining"
    )
    assert report.published == date(2021, 10, 8)
    assert report.year == 2021
    assert report.stub is False
    assert report.primary_category is not None
    assert report.primary_category.code == "cs.LG"
    assert [c.code for c in report.cross_listed] == ["cs.CL"]
    assert len(report.authors) == 12
    assert [a.position for a in report.authors] == list(range(1, 13))
    assert report.authors[0].name == "Ang Wang"
    assert report.authors[-1].name == "Yong Li"
    assert report.abstract is not None
    assert report.abstract.endswith("It ends here.")  # the facts-only fixture's stand-in
    assert report.abstract_is_excerpt is False
    assert report.cited_by_in_map == 31
    assert report.stated_cited_by_in_map == 31
    assert report.stated_cited_by == 31
    assert report.builds_on == 40
    assert (report.stated_refs_in_map, report.stated_refs_total) == (40, 52)
    assert report.data_through == date(2026, 10, 14)
    per_year = {2021: 2, 2022: 14, 2023: 5, 2024: 7, 2025: 3}
    assert {c.year: c.count for c in report.citers_per_year} == per_year
    assert {c.year: c.count for c in report.stated_citers_per_year} == per_year
    assert len(report.references) == 40
    top = report.references[0]
    assert (top.title, top.year, top.stated_cited_by, top.cited_by) == (
        "Attention Is All You Need",
        2017,
        60361,
        60361,
    )
    assert top.graph_cited_by == 1
    assert [r.cited_by for r in report.references] == sorted(
        (r.cited_by for r in report.references), reverse=True
    )
    assert len(report.citers) == 31
    assert (report.citers[0].year, report.citers[0].cited_by) == (2022, 745)
    assert report.citers[0].title is not None
    assert report.citers[0].title.startswith("OFA: Unifying Architectures")
    assert report.citers[-1].cited_by == 0

    snapshots = questions.snapshots(graph, "2110.03888")
    assert [(s.kind, s.data_date) for s in snapshots.results] == [
        ("paper_json", date(2026, 5, 17)),
        ("map_page", date(2026, 10, 14)),
    ]
    assert snapshots.results[0].builder_version == "pith-number-builder-2026-05-17-v1"
    page = snapshots.results[1]
    assert (page.stated_cited_by_in_map, page.stated_refs_in_map, page.stated_refs_total) == (
        31,
        40,
        52,
    )


def test_stub_report_has_graph_counts_and_nothing_stated(similarity_graph: Database) -> None:
    report = questions.paper_report(similarity_graph, D)
    assert report.stub is True
    assert (report.cited_by_in_map, report.builds_on) == (1, 0)
    assert report.stated_cited_by_in_map is None
    assert report.citers_per_year == [YearCount(year=2023, count=1)]
    assert report.stated_citers_per_year == []
    assert report.primary_category is None
    assert report.authors == []
    assert report.data_through is None


def test_knowledge_graph_methods_answer_like_the_functions(
    similarity_graph: Database,
) -> None:
    knowledge = KnowledgeGraph(
        similarity_graph.driver, similarity_graph.database, similarity_graph.uri
    )
    assert knowledge.resolve(A).key == A
    assert knowledge.cocited(A) == questions.cocited(similarity_graph, A)
    assert knowledge.coupled(X, limit=1).results[0].key == Y
    assert [r.key for r in knowledge.shared_references(X, Y).results] == [A, B]
    assert knowledge.path(X, D, directed=False, max_hops=3).length == 3
    assert knowledge.near(D, hops=1).results[0].key == Z
    assert knowledge.paper(A).cited_by_in_map == 3
    assert knowledge.snapshots(A).results[-1].stated_cited_by == 1000
