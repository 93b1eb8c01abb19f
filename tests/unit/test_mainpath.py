"""Main path analysis: SPC on published and hand-worked examples, against brute-force path
counts on random DAGs, and the global, key-route and forward local main paths."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.analytics.mainpath import (
    break_cycles,
    forward_local_main_path,
    global_main_path,
    key_route_main_path,
    search_path_counts,
)

# The 11-vertex example of jfb-h/CitationNetworks.jl (test/runtests.jl; the MainPaths.jl
# documentation shows it too), an implementation of Batagelj (2003), with the SPC values and
# the forward local main path its tests publish; vertices 1..11 there are 0..10 here, arcs
# run from cited to citing. (The example figure of Batagelj's paper is an image this project
# could not retrieve, so its own numbers are not used; the hand network below, Batagelj's
# Kirchhoff property and brute-force path counts cover the rest.)
EXAMPLE = [(0, 2), (1, 2), (1, 3), (2, 4), (2, 6), (3, 5), (3, 9), (3, 10), (4, 7), (4, 8),
           (5, 8), (5, 9)]  # fmt: skip


def test_spc_of_the_published_example_in_full() -> None:
    """Published SPC, in arc order: 3, 3, 4, 4, 2, 2, 1, 1, 2, 2, 1, 1. By hand: N- is 1 at
    the sources 0 and 1, N-(2) = 2, N-(3) = 1, N-(4) = 2, N-(5) = 1; N+ is 1 at the sinks,
    N+(5) = 2, N+(4) = 2, N+(3) = N+(5) + 2 = 4, N+(2) = N+(4) + 1 = 3, N+(1) = 7,
    N+(0) = 3; the total flow is N+(0) + N+(1) = 10 source-to-sink paths."""
    spc = search_path_counts(11, EXAMPLE)
    assert spc.weights == [3, 3, 4, 4, 2, 2, 1, 1, 2, 2, 1, 1]
    assert spc.n_minus == [1, 1, 2, 1, 2, 1, 2, 2, 3, 2, 1]
    assert spc.n_plus == [3, 7, 3, 4, 2, 2, 1, 1, 1, 1, 1]
    assert spc.total_flow == 10
    assert spc.shares() == [w / 10 for w in spc.weights]


def test_forward_local_main_path_of_the_published_example() -> None:
    """Published: vertices 2, 4, 6, 9, 10 (1-based), arcs 2>4, 4>6, 6>9, 6>10. The heaviest
    arc out of a source is 1>3 (0-based, SPC 4), then 3>5 (2), then the tie 5>8 and 5>9."""
    assert forward_local_main_path(11, search_path_counts(11, EXAMPLE)) == [
        (1, 3),
        (3, 5),
        (5, 8),
        (5, 9),
    ]


def test_global_main_path_of_the_published_example() -> None:
    """Sums of SPC along each source-to-sink path: 0-2-4-7 and 0-2-4-8 and 1-2-4-7 and
    1-2-4-8 carry 3 + 4 + 2 = 9; 1-3-5-8 and 1-3-5-9 carry 7; 0-2-6 and 1-2-6 5; 1-3-9 and
    1-3-10 5. The four ties at 9 go to the smallest nodes: 0-2-4-7."""
    assert global_main_path(11, search_path_counts(11, EXAMPLE)) == [0, 2, 4, 7]


def test_key_route_main_path_of_the_published_example() -> None:
    """Key arcs by SPC: 1>3 and 2>4 (4 each; 1>3 first). From 1>3: 1 is a source; forward
    3>5 (2 beats 1, 1), then 5>8 or 5>9 (1 each: 8). From 2>4: back to 0 or 1 (3 each: 0);
    forward 4>7 or 4>8 (2 each: 7)."""
    spc = search_path_counts(11, EXAMPLE)
    assert key_route_main_path(11, spc, 1) == [(1, 3), (3, 5), (5, 8)]
    assert key_route_main_path(11, spc, 2) == [(0, 2), (1, 3), (2, 4), (3, 5), (4, 7), (5, 8)]
    with pytest.raises(ValueError, match="k must be"):
        key_route_main_path(11, spc, 0)


# A hand-worked network: A(0) and B(1) are sources, C(2) cites both, D(3) cites C, E(4) cites
# C and B, F(5) cites D and E.
HAND = [(0, 2), (1, 2), (1, 4), (2, 3), (2, 4), (3, 5), (4, 5)]


def test_spc_of_the_hand_network_in_full() -> None:
    """N-: A 1, B 1, C 2, D 2, E = C + B = 3, F = D + E = 5. N+: F 1, D 1, E 1, C = D + E = 2,
    A = 2, B = C + E = 3. SPC = N-(u) N+(v): A>C 2, B>C 2, B>E 1, C>D 2, C>E 2, D>F 2,
    E>F 3; total flow N+(A) + N+(B) = 5 = N-(F). Paths: ACDF 6, ACEF 7, BCDF 6, BCEF 7,
    BEF 4, so the global main path is ACEF (the tie with BCEF goes to A)."""
    spc = search_path_counts(6, HAND)
    assert spc.weights == [2, 2, 1, 2, 2, 2, 3]
    assert spc.n_minus == [1, 1, 2, 2, 3, 5]
    assert spc.n_plus == [2, 3, 2, 1, 1, 1]
    assert spc.total_flow == 5
    assert global_main_path(6, spc) == [0, 2, 4, 5]
    # Key arc E>F (3); back from E: C>E (2) beats B>E (1); back from C: A>C ties B>C: A.
    assert key_route_main_path(6, spc, 1) == [(0, 2), (2, 4), (4, 5)]


def test_kirchhoff_node_law() -> None:
    """Batagelj (2003): at every inner node inflow = outflow = N-(v) N+(v)."""
    spc = search_path_counts(6, HAND)
    for v in (2, 3, 4):
        inflow = sum(w for (a, b), w in zip(spc.arcs, spc.weights, strict=True) if b == v)
        outflow = sum(w for (a, b), w in zip(spc.arcs, spc.weights, strict=True) if a == v)
        assert inflow == outflow == spc.n_minus[v] * spc.n_plus[v]


def test_isolated_nodes_and_empty_graphs_are_on_no_path() -> None:
    spc = search_path_counts(3, [])
    assert spc.weights == []
    assert spc.total_flow == 0
    assert spc.n_minus == [0, 0, 0]
    assert global_main_path(3, spc) == []
    assert forward_local_main_path(3, spc) == []
    assert key_route_main_path(3, spc, 2) == []


def test_cycles_are_refused_then_broken_against_time() -> None:
    # 0 and 1 cite each other, 1 > 2 > 3 > 1 is a longer cycle; 4 is apart.
    arcs = [(0, 1), (1, 0), (1, 2), (2, 3), (3, 1), (3, 4)]
    with pytest.raises(ValueError, match="cycle"):
        search_path_counts(5, arcs)
    rank = [0, 1, 2, 3, 4]
    acyclic = break_cycles(5, arcs, rank)
    assert acyclic.dropped == [(1, 0), (3, 1)]
    assert acyclic.arcs == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert acyclic.cyclic_components == 1
    assert acyclic.largest_component == 4
    assert acyclic.mutual_pairs == 1
    assert search_path_counts(5, acyclic.arcs).weights == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="distinct"):
        break_cycles(5, arcs, [0, 0, 1, 2, 3])


def _brute_force(n: int, arcs: list[tuple[int, int]]) -> list[int]:
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(arcs)
    sources = [v for v in graph if graph.in_degree(v) == 0 and graph.out_degree(v) > 0]
    sinks = [v for v in graph if graph.out_degree(v) == 0 and graph.in_degree(v) > 0]
    counts = dict.fromkeys(arcs, 0)
    for s in sources:
        for t in sinks:
            for path in nx.all_simple_paths(graph, s, t):
                for arc in itertools.pairwise(path):
                    counts[arc] += 1
    return [counts[arc] for arc in arcs]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=9), st.floats(0.1, 0.7), st.integers(0, 10**6))
def test_spc_equals_brute_force_path_counts(n: int, density: float, seed: int) -> None:
    """On random DAGs (arcs from lower to higher numbers, in shuffled order) SPC equals the
    number of source-to-sink paths through each arc, counted by networkx one by one."""
    rng = random.Random(seed)
    arcs = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < density]
    rng.shuffle(arcs)
    spc = search_path_counts(n, arcs)
    assert spc.weights == _brute_force(n, arcs)
    paths = _brute_force_paths(n, arcs)
    assert spc.total_flow == len(paths)
    best = global_main_path(n, spc)
    if arcs:
        weight = dict(zip(arcs, spc.weights, strict=True))
        top = max(sum(weight[a] for a in itertools.pairwise(p)) for p in paths)
        assert sum(weight[a] for a in itertools.pairwise(best)) == top
        assert tuple(best) in {tuple(p) for p in paths}


def _brute_force_paths(n: int, arcs: list[tuple[int, int]]) -> list[list[int]]:
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(arcs)
    sources = [v for v in graph if graph.in_degree(v) == 0 and graph.out_degree(v) > 0]
    sinks = [v for v in graph if graph.out_degree(v) == 0 and graph.in_degree(v) > 0]
    return [p for s in sources for t in sinks for p in nx.all_simple_paths(graph, s, t)]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.integers(0, 10**6))
def test_breaking_cycles_leaves_a_dag_and_drops_only_backward_arcs(n: int, seed: int) -> None:
    rng = random.Random(seed)
    arcs = sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(3 * n)})
    arcs = [(u, v) for u, v in arcs if u != v]
    rank = list(range(n))
    rng.shuffle(rank)
    acyclic = break_cycles(n, arcs, rank)
    graph = nx.DiGraph(acyclic.arcs)
    assert nx.is_directed_acyclic_graph(graph)
    assert sorted(acyclic.arcs + acyclic.dropped) == arcs
    assert all(rank[u] > rank[v] for u, v in acyclic.dropped)
    search_path_counts(n, acyclic.arcs)
