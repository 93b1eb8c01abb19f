"""The igraph engine of the analytics against networkx's reference implementations, on small
graphs built in Python; option checks, the Browser style file and the CLI's own errors."""

from __future__ import annotations

import json
import math
import random
import re
import sys

import networkx as nx
import pytest
from click.testing import CliRunner

# networkx's public pagerank and hits need scipy, which the project does not install; these
# are its pure-Python implementations of the same definitions.
from networkx.algorithms.link_analysis.hits_alg import _hits_python
from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python

from kg import analytics, queries
from kg.analytics import AnalyticsError, CitationGraph, RankOptions, Scope, ranking
from kg.analytics import gds_engine as analytics_gds
from kg.analytics import igraph_engine as analytics_engine
from kg.cli import main
from kg.errors import ParameterError

SEEDS = (1, 2, 3, 4, 5)


def _random_graph(seed: int, n: int = 60, p: float = 0.05) -> tuple[CitationGraph, nx.DiGraph]:
    """A random citation graph with dangling and isolated papers, in both libraries, with
    the same node order (sorted keys, as the projection query returns them)."""
    generated = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    keys = [f"p{node:03d}" for node in generated]
    pairs = [(f"p{a:03d}", f"p{b:03d}") for a, b in generated.edges()]
    citation = CitationGraph.from_pairs(pairs, keys)
    reference = nx.DiGraph()
    reference.add_nodes_from(citation.keys)
    reference.add_edges_from(pairs)
    return citation, reference


def _by_key(citation: CitationGraph, values: list[float] | list[int]) -> dict[str, float]:
    return dict(zip(citation.keys, values, strict=True))


def test_adjacency_becomes_index_edges_in_key_order() -> None:
    citation = CitationGraph.from_adjacency(["a", "b", "c"], [["b", "c"], ["c"], []])
    assert citation.edges == [(0, 1), (0, 2), (1, 2)]
    assert (citation.node_count, citation.edge_count) == (3, 3)
    network = citation.to_igraph()
    assert network.is_directed()
    assert network.get_edgelist() == [(0, 1), (0, 2), (1, 2)]


def test_a_cited_key_outside_the_node_list_is_refused() -> None:
    with pytest.raises(AnalyticsError, match="cited paper 'zz' outside its node list"):
        CitationGraph.from_adjacency(["a"], [["zz"]])


def test_pairs_are_deduplicated_and_sorted_with_isolated_keys() -> None:
    citation = CitationGraph.from_pairs([("b", "a"), ("b", "a"), ("c", "b")], ["d"])
    assert citation.keys == ("a", "b", "c", "d")
    assert citation.edges == [(1, 0), (2, 1)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("damping", [0.85, 0.5])
def test_pagerank_matches_networkx_with_dangling_papers(seed: int, damping: float) -> None:
    citation, reference = _random_graph(seed)
    dangling = [n for n in reference if reference.out_degree(n) == 0]
    assert dangling, "the graph must have papers that cite nothing"
    ours = _by_key(citation, analytics_engine.pagerank(citation.to_igraph(), damping))
    expected = _pagerank_python(reference, alpha=damping, tol=1e-13, max_iter=10_000)
    l1 = sum(abs(ours[k] - expected[k]) for k in expected)
    assert l1 < 1e-6
    assert math.isclose(sum(ours.values()), 1.0, abs_tol=1e-9)
    top = analytics_engine.top_indices(list(ours.values()), citation.keys, 10)
    expected_top = sorted(expected, key=lambda k: (-expected[k], k))[:10]
    assert [citation.keys[i] for i in top] == expected_top


def test_pagerank_spreads_a_dangling_paper_evenly() -> None:
    # b cites nothing: its score goes to every paper alike, so a (cited by no one) still
    # gets more than the teleport share alone.
    citation = CitationGraph.from_pairs([("a", "b")])
    ours = analytics_engine.pagerank(citation.to_igraph(), 0.85)
    expected = _pagerank_python(nx.DiGraph([("a", "b")]), alpha=0.85, tol=1e-14, max_iter=10_000)
    assert ours == pytest.approx([expected["a"], expected["b"]], abs=1e-9)
    assert ours[0] > 0.15 / 2


@pytest.mark.parametrize("seed", SEEDS)
def test_exact_betweenness_equals_networkx(seed: int) -> None:
    citation, reference = _random_graph(seed)
    ours = _by_key(citation, analytics_engine.betweenness(citation.to_igraph()))
    expected = nx.betweenness_centrality(reference, normalized=False)
    assert max(expected.values()) > 0
    for key, value in expected.items():
        assert ours[key] == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize(("seed", "samples"), [(1, 10), (2, 25), (3, 1), (7, 59)])
def test_sampled_betweenness_equals_networkx_on_the_same_sample(seed: int, samples: int) -> None:
    citation, reference = _random_graph(seed)
    ours = analytics_engine.betweenness(citation.to_igraph(), samples, seed)
    expected = nx.betweenness_centrality(reference, k=samples, normalized=False, seed=seed)
    values = [expected[key] for key in citation.keys]
    if samples == 1:
        # networkx leaves the one drawn source NaN (no other source informs it); we say 0.
        source = analytics_engine.sample_sources(len(values), 1, seed)[0]
        assert math.isnan(values[source])
        assert ours[source] == 0.0
        values[source] = 0.0
    assert ours == pytest.approx(values, abs=1e-9)


def test_sampled_betweenness_with_every_source_is_exact() -> None:
    citation, _ = _random_graph(4)
    network = citation.to_igraph()
    assert analytics_engine.betweenness(network, 10_000, 1) == analytics_engine.betweenness(network)


def test_sampled_betweenness_is_unbiased() -> None:
    citation, _ = _random_graph(5, n=40, p=0.08)
    network = citation.to_igraph()
    exact = analytics_engine.betweenness(network)
    runs = [analytics_engine.betweenness(network, 8, seed) for seed in range(400)]
    mean = [sum(run[v] for run in runs) / len(runs) for v in range(len(exact))]
    assert sum(exact) > 0
    assert sum(mean) == pytest.approx(sum(exact), rel=0.05)
    assert runs[3] == analytics_engine.betweenness(network, 8, 3)
    assert runs[3] != runs[4]


@pytest.mark.parametrize("seed", SEEDS)
def test_hits_matches_networkx(seed: int) -> None:
    citation, reference = _random_graph(seed, n=50, p=0.12)
    authority, hub = analytics_engine.hits(citation.to_igraph())
    hubs, authorities = _hits_python(reference, max_iter=100_000, tol=1e-14)
    assert _by_key(citation, authority) == pytest.approx(authorities, abs=1e-7)
    assert _by_key(citation, hub) == pytest.approx(hubs, abs=1e-7)
    assert sum(authority) == pytest.approx(1.0)


def test_hits_on_a_graph_without_citations_is_all_zero() -> None:
    network = CitationGraph.from_pairs([], ["a", "b"]).to_igraph()
    assert analytics_engine.hits(network) == ([0.0, 0.0], [0.0, 0.0])


@pytest.mark.parametrize("seed", SEEDS)
def test_degrees_equal_networkx(seed: int) -> None:
    citation, reference = _random_graph(seed)
    network = citation.to_igraph()
    assert _by_key(citation, analytics_engine.indegree(network)) == dict(reference.in_degree())
    assert _by_key(citation, analytics_engine.outdegree(network)) == dict(reference.out_degree())


@pytest.mark.parametrize("seed", SEEDS)
def test_kcore_equals_networkx_core_number(seed: int) -> None:
    citation, reference = _random_graph(seed, n=60, p=0.1)
    # Mutual citations count twice in networkx's directed core number; make sure some exist.
    mutual = [(b, a) for a, b in list(reference.edges())[:15]]
    reference.add_edges_from(mutual)
    citation = CitationGraph.from_pairs(list(reference.edges()), reference.nodes())
    ours = _by_key(citation, analytics_engine.kcore(citation.to_igraph()))
    expected = nx.core_number(reference)
    assert ours == expected
    assert max(expected.values()) >= 3


def _planted() -> tuple[CitationGraph, list[set[str]]]:
    """Three groups of eight papers that cite each other densely, joined by two citations."""
    groups = [{f"{name}{i}" for i in range(8)} for name in "abc"]
    pairs = [(x, y) for group in groups for x in group for y in group if x < y]
    pairs += [("a0", "b0"), ("b1", "c1")]
    return CitationGraph.from_pairs(pairs), groups


@pytest.mark.parametrize("method", analytics.COMMUNITY_METHODS)
def test_communities_recover_planted_groups(method: analytics.CommunityMethod) -> None:
    citation, groups = _planted()
    membership = analytics_engine.communities(citation.to_igraph(), method, seed=3)
    found: dict[int, set[str]] = {}
    for key, label in zip(citation.keys, membership, strict=True):
        found.setdefault(label, set()).add(key)
    assert sorted(map(sorted, found.values())) == sorted(map(sorted, groups))


@pytest.mark.parametrize("method", analytics.COMMUNITY_METHODS)
def test_communities_are_deterministic_for_a_seed(method: analytics.CommunityMethod) -> None:
    citation, _ = _random_graph(9, n=300, p=0.01)
    network = citation.to_igraph()
    random.seed(123)  # the global generator must not matter
    first = analytics_engine.communities(network, method, seed=11)
    random.seed(456)
    assert analytics_engine.communities(network, method, seed=11) == first
    assert len(set(first)) > 5
    sizes = [first.count(label) for label in range(len(set(first)))]
    assert sizes == sorted(sizes, reverse=True), "community 0 is the largest"


def test_seeding_communities_leaves_igraph_on_the_global_generator() -> None:
    citation, _ = _random_graph(2, n=100, p=0.03)
    network = citation.to_igraph()
    analytics_engine.communities(network, "leiden", seed=5)
    projection = analytics_engine.undirected(network)
    runs = []
    for _ in range(2):
        random.seed(99)
        runs.append(projection.community_leiden(objective_function="modularity").membership)
    assert runs[0] == runs[1]


def test_modularity_equals_networkx() -> None:
    citation, _ = _random_graph(6, n=200, p=0.02)
    network = citation.to_igraph()
    membership = analytics_engine.communities(network, "leiden", seed=1)
    undirected = nx.Graph()
    undirected.add_nodes_from(range(citation.node_count))
    undirected.add_edges_from(citation.edges)
    parts: dict[int, set[int]] = {}
    for node, label in enumerate(membership):
        parts.setdefault(label, set()).add(node)
    expected = nx.community.modularity(undirected, parts.values())
    assert analytics_engine.modularity(network, membership) == pytest.approx(expected, abs=1e-9)
    louvain = nx.community.louvain_communities(undirected, seed=1)
    assert expected >= nx.community.modularity(undirected, louvain) - 0.02


def test_renumber_orders_by_size_then_first_node() -> None:
    assert analytics_engine.renumber([5, 7, 7, 9, 5, 7]) == [1, 0, 0, 2, 1, 0]
    assert analytics_engine.renumber([3, 4]) == [0, 1]


def test_empty_graph_gives_empty_results() -> None:
    network = CitationGraph.from_pairs([]).to_igraph()
    for algorithm in analytics.ALGORITHMS:
        values = analytics_engine.compute(network, algorithm, RankOptions())
        assert all(list(column) == [] for column in values.values()), algorithm
    assert analytics_engine.communities(network) == []


def test_compute_names_its_properties() -> None:
    network = _planted()[0].to_igraph()
    for algorithm in analytics.ALGORITHMS:
        values = analytics_engine.compute(network, algorithm, RankOptions(samples=5))
        assert tuple(sorted(values)) == tuple(sorted(analytics_engine.PROPERTIES[algorithm]))


def test_top_indices_break_ties_by_key() -> None:
    assert analytics_engine.top_indices([1.0, 3.0, 3.0, 2.0], ["d", "c", "b", "a"], 3) == [
        2,
        1,
        3,
    ]
    assert analytics_engine.top_indices([1.0], ["a"], 0) == []


def test_pagerank_tiers_mark_the_top_one_and_ten_percent() -> None:
    order = list(range(250))
    tiers = analytics.pagerank_tiers(order, 250)
    assert tiers[:3] == [1, 1, 1]
    assert tiers[3] == 2
    assert tiers.count(1) == 3
    assert tiers.count(2) == 22
    assert analytics.pagerank_tiers([0], 1) == [1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (RankOptions(damping=1.0), "damping 1.0 is out of range"),
        (RankOptions(damping=0.0), "damping 0.0 is out of range"),
        (RankOptions(tolerance=0.0), "tolerance 0.0 is out of range"),
        (RankOptions(samples=0), "samples is 0"),
        (RankOptions(max_iterations=0), "max_iterations is 0"),
    ],
)
def test_options_out_of_range_are_refused(options: RankOptions, message: str) -> None:
    with pytest.raises(ParameterError, match=re.escape(message)):
        options.check()


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("2019-2023", (2019, 2023)),
        ("2019-", (2019, None)),
        ("-2023", (None, 2023)),
        ("2020", (2020, 2020)),
        (" 2019 - 2023 ", (2019, 2023)),
    ],
)
def test_year_ranges_parse(text: str, years: tuple[int | None, int | None]) -> None:
    assert analytics.parse_years(text) == years


@pytest.mark.parametrize("text", ["", "-", "nineteen", "2019-20x", "2019-2020-2021"])
def test_bad_year_ranges_are_refused(text: str) -> None:
    with pytest.raises(ParameterError, match="is not a year range"):
        analytics.parse_years(text)


def test_a_backwards_year_range_is_refused() -> None:
    with pytest.raises(ParameterError, match="2023-2019 ends before it starts"):
        analytics.parse_years("2023-2019")
    with pytest.raises(ParameterError, match="ends before it starts"):
        Scope(year_from=2, year_to=1).check()


def test_scope_is_what_the_projection_queries_take() -> None:
    scope = Scope(include_stubs=False, category="cs.LG", year_from=2019, year_to=2023)
    for name in ("analytics.projection", "analytics.gds_projection"):
        declared = {p.name for p in queries.get(name).params}
        assert set(scope.params()) <= declared
    bound = queries.analytics.projection.bind({})
    assert bound == {"include_stubs": True, "category": None, "year_from": None, "year_to": None}


def test_one_write_and_one_clear_query_take_every_stored_property() -> None:
    write = queries.analytics.write_paper_values
    clear = queries.analytics.clear_paper_values
    assert write.mode == "write"
    assert clear.mode == "auto"
    assert [p.name for p in write.params] == ["rows"]
    assert [p.name for p in clear.params] == ["nulls", "tiers", "batch_size"]
    assert "IN TRANSACTIONS" in clear.text
    # The property names travel as map keys, never in the query text.
    assert "SET p += row.props" in write.text
    assert "SET p += $nulls" in clear.text


def test_every_stored_name_writes_its_own_properties_as_a_map() -> None:
    expected: dict[str, tuple[str, ...]] = {
        **{name: props for name, props in analytics_engine.PROPERTIES.items()},
        "community": ("community",),
    }
    assert expected == ranking._STORED
    keys = ["a", "b"]
    for name, props in expected.items():
        values: analytics_engine.Values = {prop: [1.0, 2.0] for prop in props}
        rows = ranking._rows(name, keys, values)
        assert [row["key"] for row in rows] == keys
        assert [row["props"] for row in rows] == [
            dict.fromkeys(props, 1.0),
            dict.fromkeys(props, 2.0),
        ]
        assert ("tier" in rows[0]) == (name == "pagerank")
    with pytest.raises(AssertionError, match="not one of the analytics' own stored names"):
        ranking._store(None, "title", keys, {}, 10)  # type: ignore[arg-type]


def test_missing_client_names_the_package_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "graphdatascience", None)
    assert not analytics_gds.client_installed() or "graphdatascience" in sys.modules
    with pytest.raises(AnalyticsError, match="pip install graphdatascience"):
        analytics_gds._client(None)  # type: ignore[arg-type]


def _grass(text: str) -> dict[str, dict[str, str]]:
    """Parse GraSS as Neo4j Browser's GraphStyleModel.parse does: outside quotes, braces
    open and close a rule and white space in selectors is dropped; quotes are stripped."""
    rules: dict[str, str] = {}
    keyword, props, inside_string, inside_props = "", "", False, False
    for char in text:
        if char == "'":
            inside_string = not inside_string
        elif char == "{" and not inside_string:
            inside_props = True
        elif char == "}" and not inside_string:
            inside_props = False
            rules[keyword] = props
            keyword, props = "", ""
        elif inside_props:
            props += char
        elif not char.isspace():
            keyword += char
    parsed: dict[str, dict[str, str]] = {}
    for selector, body in rules.items():
        parsed[selector] = {}
        for part in body.split(";"):
            key, _, value = part.partition(":")
            if key.strip() and value.strip():
                parsed[selector][key.strip()] = value.strip()
    return parsed


def test_browser_style_captions_and_sizes_papers() -> None:
    text = (queries.cypher_dir() / "map.grass").read_text(encoding="utf-8")
    assert "//" not in text, "Browser's GraSS parser has no comments"
    assert "/*" not in text, "Browser's GraSS parser has no comments"
    rules = _grass(text)
    assert all(re.fullmatch(r"(node|relationship)(\.\w+)?", s) for s in rules), rules
    assert rules["node.Paper"]["caption"] == "{title}"
    assert rules["node.Author"]["caption"] == "{name}"
    assert rules["node.Category"]["caption"] == "{code}"
    assert "caption" in rules["node.Snapshot"]

    def size(selector: str) -> int:
        return int(rules[selector]["diameter"].removesuffix("px"))

    assert size("node.PageRankTop1") > size("node.PageRankTop10") > size("node.Paper")
    # Later rules win in Browser, so the tiers must come after node.Paper.
    order = list(rules)
    assert order.index("node.Paper") < order.index("node.PageRankTop10")
    assert order.index("node.PageRankTop10") < order.index("node.PageRankTop1")


def test_pagerank_write_labels_the_tiers_the_style_sizes() -> None:
    write = queries.analytics.write_paper_values.text
    clear = queries.analytics.clear_paper_values.text
    for label in ("PageRankTop1", "PageRankTop10"):
        assert f"p:{label}" in write
        assert f"p:{label}" in clear


def test_cli_refuses_a_bad_year_range_before_connecting() -> None:
    result = CliRunner().invoke(main, ["rank", "pagerank", "--years", "later"])
    assert result.exit_code == 2  # a ParameterError: a usage error
    assert "Error: 'later' is not a year range. Write it as 2019-2023" in result.output


def test_cli_lists_the_algorithms() -> None:
    result = CliRunner().invoke(main, ["rank", "--help"])
    assert result.exit_code == 0
    for algorithm in analytics.ALGORITHMS:
        assert algorithm in result.output
    result = CliRunner().invoke(main, ["rank", "closeness"])
    assert result.exit_code == 2
    assert "'closeness' is not one of" in result.output


def test_run_record_round_trips_its_parameters() -> None:
    run = analytics.AnalyticsRun.from_row(
        {
            "key": "pagerank",
            "algorithm": "pagerank",
            "property": "pagerank",
            "parameters": json.dumps({"damping": 0.85}),
            "engine": "igraph",
            "nodes": 3,
            "edges": 2,
            "snapshot": None,
            "seconds": 0.5,
            "computed_at": "2025-01-01T00:00:00Z",
        }
    )
    assert run.parameters == {"damping": 0.85}
    assert run.snapshot is None
    assert run.computed_at == "2025-01-01T00:00:00Z"


def test_rank_options_may_be_a_mapping_of_their_fields() -> None:
    assert RankOptions.of({"damping": 0.5, "samples": 3}) == RankOptions(damping=0.5, samples=3)
    assert RankOptions.of(None) == RankOptions()
    with pytest.raises(ParameterError, match="no rank option 'dampen'"):
        RankOptions.of({"dampen": 0.5})
    with pytest.raises(ParameterError, match="options is 3"):
        RankOptions.of(3)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="not a number"):
        RankOptions.of({"damping": "0.5"}).check()
