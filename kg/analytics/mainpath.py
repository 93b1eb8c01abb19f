"""Main path analysis on a citation graph, as pure functions (no Neo4j here).

Arcs run the way knowledge flows, from the cited paper to the citing one (the reverse of
CITES), over nodes numbered ``0..n-1``. Following Batagelj, "Efficient algorithms for
citation network analysis" (2003):

- a *source* has no incoming arc (it cites nothing in scope), a *sink* no outgoing arc (it
  is not cited in scope); a paper with no arc at all is on no path and is left out;
- ``N-(v)`` counts the paths from any source to ``v`` (1 at a source), ``N+(v)`` the paths
  from ``v`` to any sink (1 at a sink); the search path count of arc ``(u, v)`` is
  ``SPC = N-(u) * N+(v)``, the number of source-to-sink paths through it, and the total
  flow is the number of source-to-sink paths. Counts are exact Python integers (they grow
  beyond any float on large graphs); ``share = SPC / total flow`` is what gets stored.

Main paths over the SPC weights:

- the *global* main path is the source-to-sink path with the largest sum of SPC (Liu and Lu
  2012); on a tie the path through the smallest node numbers wins;
- the *key-route* main path (Liu and Lu 2012) takes the ``k`` arcs of largest SPC and
  extends each back to a source and on to a sink, each step taking the adjacent arc of
  largest SPC (a local search; on a tie the smallest node); it is the union of those paths;
- the *forward local* main path (Hummon and Doreian 1989, as Batagelj computes it) starts at
  the heaviest arcs out of the sources and keeps following the heaviest outgoing arcs,
  every tied arc included.

SPC needs an acyclic graph. A citation graph has cycles (two papers citing each other,
e.g. 483 pairs in cit-HepTh): ``break_cycles`` finds the strongly connected components and,
inside each, drops every arc that runs against time (the cited paper is later than the
citing one by the caller's ``rank``: first-posted date, then key), which leaves each
component, and so the graph, acyclic. The dropped arcs are returned to be reported.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import igraph

__all__ = [
    "Acyclic",
    "SearchPathCounts",
    "break_cycles",
    "forward_local_main_path",
    "global_main_path",
    "key_route_main_path",
    "search_path_counts",
]

Arc = tuple[int, int]


def _digraph(n: int, arcs: Sequence[Arc]) -> igraph.Graph:
    """Return the directed igraph Graph of ``arcs`` on ``n`` nodes."""
    # Imported here, as in igraph_engine: igraph (which loads matplotlib when it is there)
    # takes most of a second and 80 MB, and most `kg` commands, loads among them, never
    # compute.
    import igraph

    return igraph.Graph(n=n, edges=list(arcs), directed=True)


@dataclass(frozen=True)
class Acyclic:
    """The arcs left once cycles are broken, the arcs dropped, and the cycles found."""

    arcs: list[Arc]
    dropped: list[Arc]
    cyclic_components: int
    largest_component: int
    mutual_pairs: int


def break_cycles(n: int, arcs: Sequence[Arc], rank: Sequence[int]) -> Acyclic:
    """Return the arcs with every cycle broken: inside each strongly connected component,
    the arcs ``(u, v)`` with ``rank[u] > rank[v]`` (the cited paper later than the citing
    one) are dropped. ``rank`` must give every node a distinct place in time.

    Raises ValueError when ``rank`` has repeated values or the wrong length.
    """
    if len(rank) != n or len(set(rank)) != n:
        raise ValueError("rank must give each of the n nodes a distinct place")
    pairs = set(arcs)
    mutual = sum(1 for u, v in pairs if u < v and (v, u) in pairs)
    graph = _digraph(n, arcs)
    membership = graph.connected_components(mode="strong").membership
    sizes: dict[int, int] = {}
    for component in membership:
        sizes[component] = sizes.get(component, 0) + 1
    kept: list[Arc] = []
    dropped: list[Arc] = []
    for u, v in arcs:
        same = membership[u] == membership[v]
        (dropped if same and rank[u] > rank[v] else kept).append((u, v))
    cyclic = [size for size in sizes.values() if size > 1]
    return Acyclic(kept, dropped, len(cyclic), max(cyclic, default=0), mutual)


@dataclass(frozen=True)
class SearchPathCounts:
    """SPC of every arc (in the order given), the path counts per node and the total flow."""

    arcs: list[Arc]
    weights: list[int]
    n_minus: list[int]
    n_plus: list[int]
    total_flow: int
    order: list[int]
    outgoing: list[list[int]]
    incoming: list[list[int]]

    def shares(self) -> list[float]:
        """Return each arc's SPC as a share of the total flow (0 to 1)."""
        if not self.total_flow:
            return [0.0] * len(self.weights)
        return [w / self.total_flow for w in self.weights]


def _adjacency(n: int, arcs: Sequence[Arc]) -> tuple[list[list[int]], list[list[int]]]:
    outgoing: list[list[int]] = [[] for _ in range(n)]
    incoming: list[list[int]] = [[] for _ in range(n)]
    for index, (u, v) in enumerate(arcs):
        outgoing[u].append(index)
        incoming[v].append(index)
    return outgoing, incoming


def search_path_counts(n: int, arcs: Sequence[Arc]) -> SearchPathCounts:
    """Return the SPC weights of ``arcs`` on ``n`` nodes.

    Raises ValueError when the arcs have a cycle or a self-loop, or repeat an arc.
    """
    if len(set(arcs)) != len(arcs):
        raise ValueError("an arc is repeated")
    if any(u == v for u, v in arcs):
        raise ValueError("an arc is a self-loop")
    graph = _digraph(n, arcs)
    if not graph.is_dag():
        raise ValueError("the arcs have a cycle: break it first (break_cycles)")
    order = graph.topological_sorting(mode="out")
    outgoing, incoming = _adjacency(n, arcs)
    n_minus = [0] * n
    for v in order:
        if incoming[v]:
            n_minus[v] = sum(n_minus[arcs[i][0]] for i in incoming[v])
        elif outgoing[v]:
            n_minus[v] = 1
    n_plus = [0] * n
    for v in reversed(order):
        if outgoing[v]:
            n_plus[v] = sum(n_plus[arcs[i][1]] for i in outgoing[v])
        elif incoming[v]:
            n_plus[v] = 1
    weights = [n_minus[u] * n_plus[v] for u, v in arcs]
    total = sum(n_plus[v] for v in range(n) if outgoing[v] and not incoming[v])
    return SearchPathCounts(list(arcs), weights, n_minus, n_plus, total, order, outgoing, incoming)


def global_main_path(n: int, spc: SearchPathCounts) -> list[int]:
    """Return the nodes of the source-to-sink path with the largest sum of SPC (empty when
    there is no arc)."""
    arcs, weights = spc.arcs, spc.weights
    outgoing, incoming = spc.outgoing, spc.incoming
    best: list[int | None] = [None] * n
    came: list[int | None] = [None] * n
    for v in spc.order:
        if not incoming[v]:
            best[v] = 0 if outgoing[v] else None
            continue
        for i in incoming[v]:
            u = arcs[i][0]
            value = best[u]
            if value is None:
                continue
            total = value + weights[i]
            current, previous = best[v], came[v]
            if current is None or total > current or (total == current and u < (previous or 0)):
                best[v], came[v] = total, u
    sinks = [v for v in range(n) if incoming[v] and not outgoing[v]]
    if not sinks:
        return []
    end = max(sinks, key=lambda v: (best[v] or 0, -v))
    path = [end]
    while came[path[-1]] is not None:
        before = came[path[-1]]
        assert before is not None
        path.append(before)
    path.reverse()
    return path


def _heaviest(indices: list[int], spc: SearchPathCounts, forward: bool) -> int:
    side = 1 if forward else 0
    return max(indices, key=lambda i: (spc.weights[i], -spc.arcs[i][side]))


def key_route_main_path(n: int, spc: SearchPathCounts, k: int) -> list[Arc]:
    """Return the arcs of the key-route main path from the ``k`` heaviest arcs (ties among
    them by smaller nodes), sorted.

    Raises ValueError for ``k < 1``.
    """
    if k < 1:
        raise ValueError(f"k must be 1 or more, got {k}")
    arcs = spc.arcs
    outgoing, incoming = spc.outgoing, spc.incoming
    ranked = heapq.nsmallest(k, range(len(arcs)), key=lambda i: (-spc.weights[i], arcs[i]))
    chosen: set[Arc] = set()
    for key_arc in ranked:
        chosen.add(arcs[key_arc])
        node = arcs[key_arc][0]
        while incoming[node]:
            step = _heaviest(incoming[node], spc, forward=False)
            chosen.add(arcs[step])
            node = arcs[step][0]
        node = arcs[key_arc][1]
        while outgoing[node]:
            step = _heaviest(outgoing[node], spc, forward=True)
            chosen.add(arcs[step])
            node = arcs[step][1]
    return sorted(chosen)


def forward_local_main_path(n: int, spc: SearchPathCounts) -> list[Arc]:
    """Return the arcs of the forward local main path, every tie followed, sorted: start at
    the heaviest arcs leaving a source, then from each reached node take its heaviest
    outgoing arcs until sinks."""
    arcs, weights = spc.arcs, spc.weights
    outgoing, incoming = spc.outgoing, spc.incoming
    starts = [i for v in range(n) if not incoming[v] for i in outgoing[v]]
    if not starts:
        return []
    top = max(weights[i] for i in starts)
    frontier = [i for i in starts if weights[i] == top]
    chosen: set[Arc] = set()
    seen: set[int] = set()
    while frontier:
        following: list[int] = []
        for i in frontier:
            chosen.add(arcs[i])
            v = arcs[i][1]
            if v in seen or not outgoing[v]:
                continue
            seen.add(v)
            heaviest = max(weights[j] for j in outgoing[v])
            following.extend(j for j in outgoing[v] if weights[j] == heaviest)
        frontier = following
    return sorted(chosen)
