"""Time analytics against a real Neo4j: bursts, beauties, traction and main paths on small
hand-built graphs, written back with run records, through Python and the CLI."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner

from kg.analytics import Scope, analytics_runs
from kg.cli import main
from kg.database import Database
from kg.errors import ParameterError
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection

A, B, F = "9501.00001", "9501.00002", "9501.00003"


def _papers(graph: Database, papers: list[dict[str, Any]], cites: list[tuple[str, str]]) -> None:
    graph.write(
        "UNWIND $papers AS row "
        "CREATE (p:Paper {key: row.key, year: row.year, stub: false, title: 'T ' + row.key, "
        "  primary_category: row.category, published: date(row.published)})",
        {"papers": papers},
    )
    graph.write(
        "UNWIND $edges AS e MATCH (a:Paper {key: e[0]}), (b:Paper {key: e[1]}) "
        "CREATE (a)-[:CITES]->(b)",
        {"edges": [list(edge) for edge in cites]},
    )


def _paper(key: str, year: int, category: str = "hep-th", day: str = "03-01") -> dict[str, Any]:
    return {"key": key, "year": year, "category": category, "published": f"{year}-{day}"}


@pytest.fixture
def years(graph: Database) -> Database:
    """A (1995) sleeps until 1999 and bursts in 2000; B (1995) is cited once a year from
    1996; F (1995, math-ph) five times a year by fillers. Citations made per year (d):
    1996-1998 6, 1999 7, 2000 14 (P00b and P00c also cite each other)."""
    papers = [_paper(A, 1995), _paper(B, 1995), _paper(F, 1995, "math-ph")]
    cites: list[tuple[str, str]] = []
    for year in range(1996, 2001):
        for i in range(5):
            key = f"{year % 100:02d}01.9000{i}"
            papers.append(_paper(key, year))
            cites.append((key, F))
        key = f"{year % 100:02d}01.00001"
        papers.append(_paper(key, year))
        cites.append((key, B))
        if year >= 1999:
            cites.append((key, A))
    for i, letter in enumerate("bcdef"):
        key = f"0001.0010{i}"
        papers.append(_paper(key, 2000, day=f"0{i + 1}-10"))
        cites.append((key, A))
        del letter
    cites += [("0001.00100", "0001.00101"), ("0001.00101", "0001.00100")]
    # A paper of unknown year cites F and B: it counts in no series, and makes F and its
    # fillers one body of data with A and B (CitationTimeline), whose citations d counts
    papers.append({"key": UNDATED, "year": None, "category": "hep-th", "published": None})
    cites += [(UNDATED, F), (UNDATED, B)]
    _papers(graph, papers, cites)
    return graph


UNDATED = "hep-th/0000001"


def test_bursts_read_the_yearly_counts_and_write_back(years: Database) -> None:
    """A's series 1995-2000 is r = 0, 0, 0, 0, 1, 6 of d = 0, 6, 6, 6, 7, 14: p0 = 7/39,
    p1 = 14/39; 2000 saves 6 ln 2 + 8 ln(25/32) = 2.184 > ln 6 = 1.792, 1999 would cost
    ln 2 - 6 ln(32/25) < 0 more: one burst, 2000-2000. B and F never burst."""
    result = KnowledgeGraph.on(years).analytics.bursts(since=2000, write=True)
    assert [(p.key, p.values["burst_start"], p.values["burst_end"]) for p in result.top] == [
        (A, 2000, 2000)
    ]
    assert result.top[0].values["strength"] == pytest.approx(
        6 * math.log(2) + 8 * math.log(25 / 32)
    )
    assert result.papers_with_bursts == 1
    stored = years.read(
        "MATCH (p:Paper) WHERE p.burst_strength IS NOT NULL "
        "RETURN p.key AS key, p.burst_start AS start, p.burst_end AS end"
    )
    assert stored == [{"key": A, "start": 2000, "end": 2000}]
    runs = {run.key: run for run in analytics_runs(years)}
    assert {"burst_strength", "burst_start", "burst_end"} <= set(runs)
    assert runs["burst_strength"].algorithm == "kleinberg-bursts"
    assert runs["burst_strength"].parameters["s"] == 2.0
    assert KnowledgeGraph.on(years).analytics.bursts(since=2001).top == []


def test_data_no_citation_connects_changes_nothing(years: Database) -> None:
    """Papers of 2020 citing only each other are a body of data of their own: A's series
    still ends in 2000 (over 2001-2020 its n would be 26 and ln 26 > 2.184, no burst), and
    its traction is still counted up to 2000; the 2020 papers are counted up to 2020."""
    later = ["2001.00001", "2001.00002", "2001.00003"]
    _papers(
        years,
        [_paper(key, 2020) for key in later],
        [(later[0], later[1]), (later[2], later[1]), (later[2], later[0])],
    )
    found = KnowledgeGraph.on(years).analytics.bursts(since=2000)
    assert [(p.key, p.values["burst_start"], p.values["burst_end"]) for p in found.top] == [
        (A, 2000, 2000)
    ]
    rising = KnowledgeGraph.on(years).analytics.traction(window=2, min_cohort=2, min_citations=1)
    assert rising.as_of is None  # the two bodies end in 2000 and 2020
    ratios = {p.key: p.values["traction"] for p in rising.top}
    assert ratios[A] == pytest.approx(8 / 5.5)
    # 2020's papers: later[1] cited twice, later[0] once, later[2] never: mean 1
    assert ratios[later[1]] == pytest.approx(3 / 2)


def test_beauties_and_traction(years: Database) -> None:
    """A: c = 0, 0, 0, 0, 1, 6, l_t = 1.2 t, B = 1.2 + 2.4 + 3.6 + (4.8 - 1) + 0 = 11, awakening at
    t = 4 (|6t - 5c_t| = 0, 6, 12, 18, 19, 0): 1999. B and F peak a year after publication:
    B = 0. Traction in 1999-2000: A 7 and B 2 citations, hep-th 1995 mean 4.5:
    A (7 + 1) / 5.5, B 3 / 5.5; F is alone in math-ph 1995."""
    beauty = KnowledgeGraph.on(years).analytics.beauties(min_citations=2, write=True)
    assert [(p.key, p.values["beauty"], p.values["awakening"]) for p in beauty.top] == [
        (A, pytest.approx(11.0), 1999),
        (B, 0.0, 1995),
        (F, 0.0, 1995),
    ]
    assert beauty.scored == 3
    stored = years.read(
        "MATCH (p:Paper {key: $key}) RETURN p.beauty AS b, p.awakening AS a", {"key": A}
    )
    assert stored == [{"b": pytest.approx(11.0), "a": 1999}]
    rising = KnowledgeGraph.on(years).analytics.traction(
        as_of=2000, window=2, min_cohort=2, min_citations=1, write=True
    )
    ratios = {p.key: p.values["traction"] for p in rising.top}
    assert ratios == {
        A: pytest.approx(8 / 5.5),
        B: pytest.approx(3 / 5.5),
        "0001.00100": pytest.approx(2 / (1 + 2 / 11)),
        "0001.00101": pytest.approx(2 / (1 + 2 / 11)),
    }
    assert F not in ratios
    written = years.read("MATCH (p:Paper) WHERE p.traction IS NOT NULL RETURN count(p) AS n")
    assert written == [{"n": rising.scored}]
    assert {"beauty", "awakening", "traction"} <= {run.key for run in analytics_runs(years)}


# The hand network of tests/unit/test_mainpath.py: A(0) and B(1) are cited by C(2), D(3)
# cites C, E(4) cites C and B, F(5) cites D and E; plus M1 and M2 citing each other.
HAND = ["9001.00001", "9101.00001", "9201.00001", "9301.00001", "9401.00001", "9501.00001"]
M1, M2 = "0101.00001", "0101.00002"


@pytest.fixture
def hand(graph: Database) -> Database:
    papers = [_paper(key, 1990 + i) for i, key in enumerate(HAND)]
    papers += [_paper(M1, 2001, day="01-01"), _paper(M2, 2001, day="06-01")]
    flow = [(0, 2), (1, 2), (1, 4), (2, 3), (2, 4), (3, 5), (4, 5)]
    cites = [(HAND[v], HAND[u]) for u, v in flow] + [(M1, M2), (M2, M1)]
    _papers(graph, papers, cites)
    return graph


def test_main_path_writes_spc_and_flags(hand: Database) -> None:
    """SPC of the hand network (2, 2, 1, 2, 2, 2, 3) plus the pair, once M1's citation of the
    later M2 is dropped (1): total flow 6. Global main path A C E F (7); key routes from
    E>F and A>C: A C E F and C D F."""
    result = KnowledgeGraph.on(hand).analytics.main_path(key_routes=2, write=True)
    a, b, c, d, e, f = HAND
    assert [p.key for p in result.path] == [a, c, e, f]
    assert [p.values["spc_in"] for p in result.path] == [None, 2 / 6, 2 / 6, 3 / 6]
    assert [p.key for p in result.key_route] == [a, c, d, e, f]
    assert (result.dropped, result.mutual_pairs, result.cyclic_components) == (1, 1, 1)
    assert result.total_flow_log10 == pytest.approx(math.log10(6))
    spc = {
        (row["citing"], row["cited"]): row["spc"]
        for row in hand.read(
            "MATCH (x:Paper)-[r:CITES]->(y:Paper) "
            "RETURN x.key AS citing, y.key AS cited, r.spc AS spc"
        )
    }
    assert spc == {
        (c, a): 2 / 6, (c, b): 2 / 6, (e, b): 1 / 6, (d, c): 2 / 6, (e, c): 2 / 6,
        (f, d): 2 / 6, (f, e): 3 / 6, (M2, M1): 1 / 6, (M1, M2): None,
    }  # fmt: skip
    flags = hand.read(
        "MATCH (p:Paper) WHERE p.main_path IS NOT NULL "
        "RETURN p.key AS key, p.main_path AS main, p.key_route AS route ORDER BY key"
    )
    assert flags == [
        {"key": key, "main": key in (a, c, e, f), "route": True} for key in sorted([a, c, d, e, f])
    ]
    runs = {run.key: run for run in analytics_runs(hand)}
    assert runs["spc"].algorithm == "main-path-spc"
    assert runs["spc"].edges == 9
    assert runs["spc"].nodes == 8
    # A narrower scope replaces every flag and weight of the earlier run.
    KnowledgeGraph.on(hand).analytics.main_path(scope=Scope(year_from=2001), write=True)
    assert hand.read("MATCH (p:Paper) WHERE p.main_path RETURN p.key AS k ORDER BY k") == [
        {"k": M1},
        {"k": M2},
    ]
    assert hand.read("MATCH ()-[r:CITES]->() WHERE r.spc IS NOT NULL RETURN count(r) AS n") == [
        {"n": 1}
    ]


def test_mainpath_json_lists_at_most_limit_papers_and_says_of_how_many(
    hand: Database, kg_env: Connection
) -> None:
    """--json listed every paper of both paths whatever --limit said, while the table
    showed --limit of them."""
    runner = CliRunner()
    shown = runner.invoke(main, ["mainpath", "--json", "--key-routes", "2", "--limit", "2"])
    assert shown.exit_code == 0, shown.output
    payload = json.loads(shown.output)
    assert [row["key"] for row in payload["results"]] == [HAND[0], HAND[2]]
    assert [row["key"] for row in payload["key_route"]] == [HAND[0], HAND[2]]
    assert (payload["main_path_papers"], payload["key_route_papers"]) == (4, 5)
    everything = json.loads(runner.invoke(main, ["mainpath", "--json", "--key-routes", "2"]).output)
    assert [row["key"] for row in everything["results"]] == [HAND[0], HAND[2], HAND[4], HAND[5]]
    assert len(everything["key_route"]) == everything["key_route_papers"] == 5
    # The key route's citations are its structure, not a list --limit cuts.
    assert payload["key_route_citations"] == everything["key_route_citations"]


def test_the_cli_lists_and_refuses_bad_options(hand: Database, kg_env: Connection) -> None:
    runner = CliRunner()
    shown = runner.invoke(main, ["mainpath", "--json", "--key-routes", "1"])
    assert shown.exit_code == 0, shown.output
    payload = json.loads(shown.output)
    assert [row["key"] for row in payload["results"]] == [HAND[0], HAND[2], HAND[4], HAND[5]]
    assert payload["dropped_arcs"] == 1
    table = runner.invoke(main, ["mainpath", "--limit", "2"])
    assert table.exit_code == 0, table.output
    assert "global main path" in table.output
    assert "showing 2 of 4" in table.output
    assert "1 mutual pairs" in table.output
    for command in (["bursts"], ["beauties", "--min-citations", "1"], ["traction"]):
        listed = runner.invoke(main, [*command, "--json", "--write"])
        assert listed.exit_code == 0, listed.output
        assert json.loads(listed.output)["runs"]
    bad = runner.invoke(main, ["bursts", "--s", "1"])
    assert bad.exit_code == 2  # a ParameterError: a usage error
    assert "Error: s 1.0 is not above 1. The burst state's rate" in bad.output
    wrong = runner.invoke(main, ["traction", "--years", "2003-2001", "--json"])
    assert wrong.exit_code == 2
    assert (
        json.loads(wrong.output)["error"]["message"]
        == "the year range 2003-2001 ends before it starts"
    )
    facade = KnowledgeGraph(hand.driver, hand.database, hand.uri).analytics
    assert [p.key for p in facade.main_path(key_routes=1).path] == [HAND[i] for i in (0, 2, 4, 5)]
    assert facade.bursts().run.nodes == facade.beauties().run.nodes == 8
    assert facade.traction(as_of=1995, window=1).as_of == 1995
    with pytest.raises(ParameterError, match="key_routes is 0"):
        KnowledgeGraph.on(hand).analytics.main_path(key_routes=0)
    empty = runner.invoke(main, ["beauties", "--category", "nowhere"])
    assert empty.exit_code == 0
    assert "No papers in scope" in empty.output
