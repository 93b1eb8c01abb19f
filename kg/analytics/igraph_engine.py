"""The igraph engine of the analytics: the citation graph as integer edges, and each algorithm
computed in igraph's C core. No server is involved here, so every function can be checked
against a reference implementation on small graphs built in Python.

Conventions, the same whichever engine computes them:

- PageRank is the directed PageRank of networkx and igraph (PRPACK): a dangling paper (one
  that cites nothing in scope) spreads its score evenly over all papers; scores sum to 1.
- Betweenness is directed and unnormalised. Sampled betweenness estimates it from ``k``
  source papers drawn uniformly without replacement by ``random.Random(seed)``: each
  paper's dependencies on those sources are summed (exactly, over all targets) and scaled
  up to the ``n - 1`` possible sources, by ``(n - 1) / k`` for a paper that was not drawn
  and ``(n - 1) / (k - 1)`` for one that was (it cannot lie on its own paths). The estimate
  is unbiased, and with the same node order and seed it equals networkx's
  ``betweenness_centrality(G, k=k, normalized=False, seed=seed)`` (networkx >= 3.5).
- HITS hub and authority scores each sum to 1 (networkx's convention).
- k-core is the coreness over in- plus out-degree (a mutual citation counts twice), as
  ``networkx.core_number`` computes it on a directed graph.
- Communities are found on the undirected projection (mutual citations collapse to one
  edge) by Leiden with the modularity objective, or Louvain; igraph's random number
  generator is seeded for the call, so a seed always gives the same partition.
"""

from __future__ import annotations

import dataclasses
import random
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar

from kg.errors import AnalyticsError, ParameterError
from kg.numbers import COUNT, optional_whole_number, whole_number

if TYPE_CHECKING:
    import igraph

__all__ = [
    "CitationGraph",
    "RankOptions",
    "betweenness",
    "chunks",
    "communities",
    "compute",
    "hits",
    "indegree",
    "kcore",
    "modularity",
    "outdegree",
    "pagerank",
    "renumber",
    "sample_sources",
    "stored_properties",
    "storing_command",
    "top_indices",
    "undirected",
]

Algorithm = Literal["pagerank", "betweenness", "indegree", "outdegree", "hits", "kcore"]
ALGORITHMS: tuple[Algorithm, ...] = (
    "pagerank",
    "betweenness",
    "indegree",
    "outdegree",
    "hits",
    "kcore",
)
CommunityMethod = Literal["leiden", "louvain"]
COMMUNITY_METHODS: tuple[CommunityMethod, ...] = ("leiden", "louvain")

PROPERTIES: dict[Algorithm, tuple[str, ...]] = {
    "pagerank": ("pagerank",),
    "betweenness": ("betweenness",),
    "indegree": ("indegree",),
    "outdegree": ("outdegree",),
    "hits": ("hits_authority", "hits_hub"),
    "kcore": ("kcore",),
}
"""The Paper properties each algorithm writes; the first one is what papers are ranked by."""

COMMUNITY_PROPERTY = "community"


def storing_command(prop: str) -> str | None:
    """Return the command that stores Paper property ``prop`` (``kg rank hits --write``,
    ``kg communities --write``), or None when no command stores it."""
    if prop == COMMUNITY_PROPERTY:
        return "kg communities --write"
    for algorithm, names in PROPERTIES.items():
        if prop in names:
            return f"kg rank {algorithm} --write"
    return None


def stored_properties() -> tuple[str, ...]:
    """Return every Paper property an analytics command stores, the community last."""
    return (*(name for names in PROPERTIES.values() for name in names), COMMUNITY_PROPERTY)


Values = dict[str, Sequence[float]]
"""An algorithm's output: for each property, one value per node in graph order."""

T = TypeVar("T")


@dataclass(frozen=True)
class CitationGraph:
    """The directed CITES graph of the papers in scope.

    Node ``i`` is the paper ``keys[i]``; each edge is a (citing, cited) pair of node indices.
    ``left_out`` counts the citations of a projection that named a paper outside the node
    list (see ``from_projection``).
    """

    keys: tuple[str, ...]
    edges: list[tuple[int, int]]
    left_out: int = 0

    @classmethod
    def from_adjacency(cls, keys: Sequence[str], cites: Sequence[Sequence[str]]) -> CitationGraph:
        """Return the graph of ``keys`` where ``keys[i]`` cites each key in ``cites[i]``.

        Raises AnalyticsError when a cited key is not one of ``keys``.
        """
        index = {key: i for i, key in enumerate(keys)}
        try:
            edges = [(i, index[cited]) for i, targets in enumerate(cites) for cited in targets]
        except KeyError as exc:
            raise AnalyticsError(
                f"the projection names a cited paper {exc.args[0]!r} outside its node list",
                "report this as a bug in cypher/analytics/projection.cypher",
            ) from None
        return cls(tuple(keys), edges)

    @classmethod
    def from_projection(cls, keys: Sequence[str], cites: Sequence[Sequence[str]]) -> CitationGraph:
        """Return the graph of a projection read while the graph may change: as
        ``from_adjacency``, but a citation of a paper outside ``keys`` is left out and counted
        in ``left_out``.

        Neo4j reads are read-committed, even within one query: a paper committed by a loader
        after the projection's label scan went past is missing from the node list, yet a
        citation to it can be seen when the citing paper's relationships are read later.
        Such a paper was not in the graph when the node list was read, so leaving its
        citations out gives the graph as of that moment.
        """
        index = {key: i for i, key in enumerate(keys)}
        edges: list[tuple[int, int]] = []
        left_out = 0
        for i, targets in enumerate(cites):
            for cited in targets:
                j = index.get(cited)
                if j is None:
                    left_out += 1
                else:
                    edges.append((i, j))
        return cls(tuple(keys), edges, left_out)

    @classmethod
    def from_pairs(
        cls, pairs: Iterable[tuple[str, str]], keys: Iterable[str] = ()
    ) -> CitationGraph:
        """Return the graph of (citing, cited) key pairs plus any isolated ``keys``.

        Nodes are ordered by key, as the projection query orders them; repeated pairs
        count once.
        """
        unique = sorted(set(pairs))
        ordered = sorted({*keys, *(k for pair in unique for k in pair)})
        index = {key: i for i, key in enumerate(ordered)}
        return cls(tuple(ordered), [(index[a], index[b]) for a, b in unique])

    @property
    def node_count(self) -> int:
        """How many papers are in scope."""
        return len(self.keys)

    @property
    def edge_count(self) -> int:
        """How many citations join papers in scope."""
        return len(self.edges)

    def to_igraph(self) -> igraph.Graph:
        """Return the graph as a directed igraph Graph with the same node order."""
        # Imported here: igraph takes half a second to import, and most `kg` commands
        # never compute.
        import igraph

        return igraph.Graph(n=len(self.keys), edges=self.edges, directed=True)


@dataclass(frozen=True)
class RankOptions:
    """Options of the ranking algorithms; each algorithm reads the ones it has."""

    damping: float = 0.85
    tolerance: float = 1e-7
    max_iterations: int = 100
    samples: int | None = None
    seed: int = 42

    @classmethod
    def of(cls, options: RankOptions | Mapping[str, object] | None) -> RankOptions:
        """Return ``options`` as RankOptions: as they are, the defaults for None, or a mapping
        of field names to values (``{"damping": 0.5}``) over the defaults. Raises
        ParameterError for a name that is not a field, or options of another type."""
        if options is None:
            return cls()
        if isinstance(options, RankOptions):
            return options
        if not isinstance(options, Mapping):
            raise ParameterError(
                f"options is {options!r}",
                'pass kg.analytics.RankOptions(...) or a dict of its fields, e.g. {"damping": 0.5}',
            )
        names = [field.name for field in dataclasses.fields(cls)]
        unknown = sorted(str(name) for name in options if name not in names)
        if unknown:
            raise ParameterError(
                f"no rank option {', '.join(map(repr, unknown))}",
                f"the options are {', '.join(names)}",
            )
        return cls(**{str(name): value for name, value in options.items()})  # type: ignore[arg-type]

    def check(self) -> None:
        """Raise ParameterError for an option of the wrong type or out of its range."""
        for name in ("damping", "tolerance"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ParameterError(
                    f"{name} is {value!r}, not a number", f"pass {name} as a float"
                )
        COUNT.check("max_iterations", self.max_iterations)
        whole_number("seed", self.seed)
        if optional_whole_number("samples", self.samples) is not None:
            COUNT.check("samples", self.samples)
        if not 0.0 < self.damping < 1.0:
            raise ParameterError(
                f"damping {self.damping} is out of range", "use a value between 0 and 1, e.g. 0.85"
            )
        if not 0.0 < self.tolerance < 1.0:
            raise ParameterError(
                f"tolerance {self.tolerance} is out of range",
                "use a small positive value, e.g. 1e-7",
            )


def pagerank(graph: igraph.Graph, damping: float = 0.85) -> list[float]:
    """Return the directed PageRank of every node (PRPACK, solved to 1e-10; sums to 1)."""
    if graph.vcount() == 0:
        return []
    return [float(x) for x in graph.pagerank(directed=True, damping=damping)]


def indegree(graph: igraph.Graph) -> list[int]:
    """Return how many in-scope papers cite each node."""
    return [int(x) for x in graph.indegree()]


def outdegree(graph: igraph.Graph) -> list[int]:
    """Return how many in-scope papers each node cites."""
    return [int(x) for x in graph.outdegree()]


def sample_sources(node_count: int, samples: int, seed: int) -> list[int]:
    """Return the source nodes of sampled betweenness: ``samples`` of ``range(node_count)``
    drawn without replacement by ``random.Random(seed)``, in draw order."""
    return random.Random(seed).sample(range(node_count), samples)


def betweenness(graph: igraph.Graph, samples: int | None = None, seed: int = 42) -> list[float]:
    """Return directed, unnormalised betweenness: exact, or estimated from ``samples``
    uniformly drawn source nodes as the module docstring says (exact when ``samples`` is
    at least the node count)."""
    n = graph.vcount()
    if n == 0:
        return []
    if samples is None or samples >= n:
        return [float(x) for x in graph.betweenness(directed=True)]
    sources = sample_sources(n, samples, seed)
    drawn = set(sources)
    partial = graph.betweenness(directed=True, sources=sources)
    # A drawn paper's own paths add nothing to it, so k - 1 sources informed its value.
    scale_drawn = (n - 1) / (samples - 1) if samples > 1 else 0.0
    scale_other = (n - 1) / samples
    return [float(x) * (scale_drawn if v in drawn else scale_other) for v, x in enumerate(partial)]


def _unit_sum(values: Sequence[float]) -> list[float]:
    # ARPACK can return -0.0 or tiny negative noise for zero entries.
    cleaned = [max(float(v), 0.0) for v in values]
    total = sum(cleaned)
    return [v / total for v in cleaned] if total > 0 else [0.0] * len(cleaned)


def hits(graph: igraph.Graph) -> tuple[list[float], list[float]]:
    """Return (authority, hub) scores, each summing to 1; all zero on a graph with no edges."""
    n = graph.vcount()
    if graph.ecount() == 0:
        return [0.0] * n, [0.0] * n
    with warnings.catch_warnings():
        # igraph warns when many scores are zero; in a citation graph every paper that cites
        # nothing (or is cited by nothing) has a zero hub (or authority) score by definition.
        warnings.filterwarnings("ignore", message="More than 30% of hub or authority scores")
        authority = _unit_sum(graph.authority_score(scale=False))
        hub = _unit_sum(graph.hub_score(scale=False))
    return authority, hub


def kcore(graph: igraph.Graph) -> list[int]:
    """Return each node's coreness over in- plus out-degree."""
    return [int(x) for x in graph.coreness(mode="all")]


def compute(graph: igraph.Graph, algorithm: Algorithm, options: RankOptions) -> Values:
    """Return the values of ``algorithm`` on ``graph``, keyed by the property names of
    PROPERTIES. Raises ParameterError for options out of range."""
    options.check()
    if algorithm == "pagerank":
        return {"pagerank": pagerank(graph, options.damping)}
    if algorithm == "betweenness":
        return {"betweenness": betweenness(graph, options.samples, options.seed)}
    if algorithm == "indegree":
        return {"indegree": indegree(graph)}
    if algorithm == "outdegree":
        return {"outdegree": outdegree(graph)}
    if algorithm == "hits":
        authority, hub = hits(graph)
        return {"hits_authority": authority, "hits_hub": hub}
    if algorithm == "kcore":
        return {"kcore": kcore(graph)}
    raise ParameterError(f"unknown algorithm {algorithm!r}", f"use one of {', '.join(ALGORITHMS)}")


def undirected(graph: igraph.Graph) -> igraph.Graph:
    """Return the undirected projection: a mutual citation becomes one edge."""
    copy = graph.copy()
    copy.to_undirected(mode="collapse")
    return copy


def communities(
    graph: igraph.Graph,
    method: CommunityMethod = "leiden",
    seed: int = 42,
    resolution: float = 1.0,
) -> list[int]:
    """Return each node's community on the undirected projection, numbered from 0 by
    decreasing size (ties: the community whose first node comes first).

    Leiden optimises modularity until the partition no longer changes; Louvain is igraph's
    multilevel method. igraph's random number generator is seeded with ``seed`` for the
    call and put back afterwards. Raises ParameterError for a resolution that is not positive.
    """
    if resolution <= 0:
        raise ParameterError(f"resolution {resolution} is not positive", "use e.g. 1.0")
    if graph.vcount() == 0:
        return []
    import igraph

    projection = undirected(graph)
    igraph.set_random_number_generator(random.Random(seed))
    try:
        if method == "leiden":
            clustering = projection.community_leiden(
                objective_function="modularity", resolution=resolution, n_iterations=-1
            )
        elif method == "louvain":
            clustering = projection.community_multilevel(resolution=resolution)
        else:
            raise ParameterError(
                f"unknown community method {method!r}",
                f"use one of {', '.join(COMMUNITY_METHODS)}",
            )
    finally:
        igraph.set_random_number_generator(random)
    return renumber(list(clustering.membership))


def renumber(membership: Sequence[int]) -> list[int]:
    """Return ``membership`` with communities renumbered 0, 1, ... by decreasing size,
    ties broken by the first node of each community."""
    sizes: dict[int, int] = {}
    first: dict[int, int] = {}
    for node, label in enumerate(membership):
        sizes[label] = sizes.get(label, 0) + 1
        first.setdefault(label, node)
    order = sorted(sizes, key=lambda label: (-sizes[label], first[label]))
    new = {label: i for i, label in enumerate(order)}
    return [new[label] for label in membership]


def modularity(graph: igraph.Graph, membership: Sequence[int], resolution: float = 1.0) -> float:
    """Return the modularity of ``membership`` on the undirected projection of ``graph``."""
    if graph.vcount() == 0 or graph.ecount() == 0:
        return 0.0
    return float(undirected(graph).modularity(list(membership), resolution=resolution))


def top_indices(values: Sequence[float], keys: Sequence[str], count: int) -> list[int]:
    """Return the indices of the ``count`` highest values, ties by key, highest first."""
    order = sorted(range(len(values)), key=lambda i: (-values[i], keys[i]))
    return order[: max(count, 0)]


def chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Yield consecutive slices of ``items`` of at most ``size`` elements."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
