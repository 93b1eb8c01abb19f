"""The question commands through click's CliRunner against a real Neo4j: JSON fields, tables,
the no-path sentence, and bad REFs as `Error:` with exit code 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from tests.integration.test_questions import PAGE, RECORD, add_cites, add_papers, paper

ATTENTION = "title:attention is all you need:2017"


@pytest.fixture
def seeded(graph: Database, kg_env: Connection, tmp_path: Path) -> Database:
    KnowledgeGraph.on(graph).load([PAGE, RECORD], rejects_path=tmp_path / "rejects.jsonl")
    return graph


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _json(*args: str) -> Any:
    result = _run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_paper_json_rebuilds_the_map_page(seeded: Database) -> None:
    report = _json("paper", "2110.03888")
    assert report["key"] == "2110.03888"
    assert report["published"] == "2021-10-08"
    assert report["data_through"] == "2026-10-14"
    assert report["primary_category"]["code"] == "cs.LG"
    assert [c["code"] for c in report["cross_listed"]] == ["cs.CL"]
    assert len(report["authors"]) == 12
    assert report["authors"][0] == {"key": "ang wang", "name": "Ang Wang", "position": 1}
    assert (report["cited_by_in_map"], report["stated_cited_by_in_map"]) == (31, 31)
    assert (report["builds_on"], report["stated_refs_in_map"], report["stated_refs_total"]) == (
        40,
        40,
        52,
    )
    histogram = [
        {"year": y, "count": n} for y, n in ((2021, 2), (2022, 14), (2023, 5), (2024, 7), (2025, 3))
    ]
    assert report["citers_per_year"] == histogram
    assert report["stated_citers_per_year"] == histogram
    assert report["references"][0] == {
        "key": ATTENTION,
        "arxiv_id": None,
        "title": "Attention Is All You Need",
        "year": 2017,
        "stub": True,
        "stated_cited_by": 60361,
        "graph_cited_by": 1,
        "cited_by": 60361,
    }
    assert len(report["citers"]) == 31


def test_paper_table_shows_both_counts(seeded: Database) -> None:
    result = CliRunner().invoke(main, ["paper", "arXiv:2110.03888v3"], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    assert (
        "Cited by 31 papers in the graph; the source states 31 in the map and 31 overall."
        in result.output
    )
    assert (
        "Builds on 40 papers in the graph; the source states 40 of its 52 references."
        in result.output
    )
    assert "2021: 2; 2022: 14; 2023: 5; 2024: 7; 2025: 3" in result.output


def test_ambiguous_and_unknown_refs_are_errors_with_candidates(seeded: Database) -> None:
    add_papers(
        seeded,
        {
            "key": "title:attention is all you need:2019",
            "title": "Attention is all you need",
            "year": 2019,
            "stub": True,
        },
    )
    ambiguous = _run("paper", "Attention Is All You Need")
    assert ambiguous.exit_code == 1
    assert ambiguous.output.startswith(
        "Error: 'Attention Is All You Need' matches 2 papers. Pass the key"
    )
    assert f"  {ATTENTION}  (2017)  Attention Is All You Need\n" in ambiguous.output
    assert "  title:attention is all you need:2019  (2019)" in ambiguous.output
    assert "Traceback" not in ambiguous.output

    unknown = _run("cocited", "Atention is all you ned", "--json")
    assert unknown.exit_code == 1
    error = json.loads(unknown.stdout)["error"]  # with --json, errors are JSON too
    assert error["message"] == "no paper matches 'Atention is all you ned'"
    assert ATTENTION in error["hint"]


def test_path_without_a_path_says_so(seeded: Database) -> None:
    result = _run("path", "Attention Is All You Need", "2110.03888", "--max-hops", "5")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == (
        f"No citation path from {ATTENTION} to 2110.03888 within 5 hops."
    )
    data = _json("path", "2110.03888", "Attention Is All You Need")
    assert data["found"] is True
    assert data["length"] == 1
    assert [p["key"] for p in data["results"][0]["papers"]] == ["2110.03888", ATTENTION]
    assert data["results"][0]["directions"] == ["cites"]


def test_list_results_sit_under_results(graph: Database, kg_env: Connection) -> None:
    add_papers(graph, *(paper(key) for key in ("A", "B", "C", "X", "Y")))
    add_cites(graph, ("X", "A"), ("X", "B"), ("Y", "A"), ("Y", "B"), ("Y", "C"))
    cocited = _json("cocited", "A")
    assert [(r["key"], r["together"]) for r in cocited["results"]] == [("B", 2), ("C", 1)]
    assert cocited["paper"]["key"] == "A"
    coupled = _json("coupled", "X", "--limit", "1")
    assert [(r["key"], r["together"]) for r in coupled["results"]] == [("Y", 2)]
    assert {r["key"] for r in _json("shared-refs", "X", "Y")["results"]} == {"A", "B"}
    assert {r["key"] for r in _json("common-citers", "A", "B")["results"]} == {"X", "Y"}
    near = _json("near", "C", "--hops", "2")
    assert [(r["key"], r["distance"]) for r in near["results"]] == [
        ("Y", 1),
        ("A", 2),
        ("B", 2),
    ]
    every = _json("path", "X", "Y", "--undirected", "--all")
    assert every["length"] == 2
    assert len(every["results"]) == 2
    assert [r["key"] for r in _json("search", "paper")["results"]] == ["A", "B", "C", "X", "Y"]
    assert _json("snapshots", "A")["results"] == []
    assert _json("categories") == {"results": [], "cross_listing": []}
    table = _run("cocited", "A")
    assert table.exit_code == 0
    assert "Co-citation of A: Paper A (2020)" in table.output


def test_author_and_category_commands(seeded: Database) -> None:
    author = _json("author", "ang wang")
    assert author["name"] == "Ang Wang"
    assert len(author["coauthors"]) == 11
    assert author["citations_in_map"] == 31
    category = _json("category", "cs.cl")
    assert (category["code"], category["primary"], category["cross_listed"]) == ("cs.CL", 0, 1)
    assert [(p["key"], p["role"]) for p in category["results"]] == [("2110.03888", "cross_listed")]
    overview = _json("categories")
    assert overview["cross_listing"] == [{"primary": "cs.LG", "cross": "cs.CL", "papers": 1}]
    missing = _run("category", "math.AG")
    assert missing.exit_code == 1
    assert missing.output.startswith("Error: no category 'math.AG' in the graph.")
    nobody = _run("author", "Nobody Atall")
    assert nobody.exit_code == 1
    assert nobody.output.startswith("Error: no author matches 'Nobody Atall'.")


def test_two_refs_to_one_paper_are_an_error(seeded: Database) -> None:
    """The same paper twice (by key and by version, by title and by key) printed 'none is
    cited by both', as though two papers had been compared; it is an error, in the CLI and
    in the library alike."""
    from kg import KnowledgeGraph, questions
    from kg.errors import ParameterError

    for command, a, b in (
        ("shared-refs", "2110.03888", "2110.03888v2"),
        ("common-citers", "Attention Is All You Need", ATTENTION),
        ("common-citers", "2110.03888", "2110.03888"),
    ):
        result = _run(command, a, b)
        assert result.exit_code == 2, result.output  # a ParameterError: a usage error
        assert result.output.startswith(f"Error: {a!r} and {b!r} both name the same paper, ")
        assert result.output.count("\n") == 1
        assert "both." not in result.output
    graph = KnowledgeGraph.on(seeded)
    with pytest.raises(ParameterError, match=r"both name the same paper, 2110\.03888"):
        graph.shared_references("2110.03888", "2110.03888v1")
    with pytest.raises(ParameterError, match="both name the same paper"):
        questions.common_citers(seeded, ATTENTION, "Attention is all you need")
