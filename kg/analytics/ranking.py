"""Graph analytics over the map: rank papers and find communities on the CITES graph.

The default engine streams the citation graph of the papers in scope out of Neo4j in one
read (cypher/analytics/projection.cypher), builds an igraph graph and computes in igraph's
C core (kg/analytics/igraph_engine.py says exactly what each algorithm computes). ``engine="gds"``
runs the algorithm in the server's Graph Data Science plugin instead (kg/analytics/gds_engine.py);
``engine="auto"`` uses GDS when the server has it and the client is installed.

With ``write=True`` the values are stored on Paper nodes: first the property is removed
from every paper that has it (batched ``CALL { } IN TRANSACTIONS``), then the new values
are set in batched ``UNWIND`` writes, so papers outside the new run's scope keep no stale
value. Each written property is recorded as an ``AnalyticsRun`` node keyed by the property
name. Between the removal and the last batch, readers see the property on only some papers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from kg import queries
from kg.analytics import gds_engine, igraph_engine
from kg.analytics.igraph_engine import (
    ALGORITHMS,
    COMMUNITY_METHODS,
    COMMUNITY_PROPERTY,
    PROPERTIES,
    Algorithm,
    CitationGraph,
    CommunityMethod,
    RankOptions,
    Values,
    compute,
    indegree,
    modularity,
    top_indices,
)
from kg.analytics.stored import record_runs, write_rows
from kg.answers import (
    AnalyticsRun,
    Community,
    CommunityResult,
    RankedPaper,
    RankResult,
    Timings,
)
from kg.database import Database
from kg.errors import AnalyticsError, ParameterError
from kg.numbers import COUNT, COUNT_OR_ZERO, whole_number

if TYPE_CHECKING:
    import igraph

# The answers of rank and communities are defined in kg.answers; they are listed here too
# because scripts and the benchmarks name them as kg.analytics.RankResult and the like.
__all__ = [
    "ALGORITHMS",
    "COMMUNITY_METHODS",
    "ENGINES",
    "Algorithm",
    "AnalyticsError",
    "AnalyticsRun",
    "CitationGraph",
    "Community",
    "CommunityMethod",
    "CommunityResult",
    "Engine",
    "RankOptions",
    "RankResult",
    "RankedPaper",
    "Scope",
    "Timings",
    "analytics_runs",
    "choose_engine",
    "communities",
    "load_projection",
    "pagerank_tiers",
    "parse_years",
    "rank",
]

Engine = Literal["auto", "igraph", "gds"]
EngineName = Literal["igraph", "gds"]
ENGINES: tuple[Engine, ...] = ("auto", "igraph", "gds")
TOP1_SHARE = 0.01
TOP10_SHARE = 0.10
_STORED: dict[str, tuple[str, ...]] = {
    **{name: PROPERTIES[name] for name in ALGORITHMS},
    COMMUNITY_PROPERTY: (COMMUNITY_PROPERTY,),
}
"""The Paper properties each algorithm (or "community") stores, by name: the only property
names analytics/write_paper_values.cypher and clear_paper_values.cypher are ever given."""


@dataclass(frozen=True)
class Scope:
    """Which papers an analysis covers; citations count only between papers in scope.

    A year range leaves out papers whose year is unknown. A category keeps the papers whose
    primary category it is; stubs have none.
    """

    include_stubs: bool = True
    category: str | None = None
    year_from: int | None = None
    year_to: int | None = None

    def check(self) -> None:
        """Raise ParameterError for a year range that ends before it starts."""
        first, last = self.year_from, self.year_to
        if first is not None and last is not None and first > last:
            raise ParameterError(
                f"the year range {first}-{last} ends before it starts",
                "give the earlier year first, e.g. 2019-2023",
            )

    def params(self) -> dict[str, Any]:
        """Return the scope as the parameters of the projection queries, which are named
        as its fields."""
        return asdict(self)

    def describe(self) -> dict[str, Any]:
        """Return the scope as recorded with a run."""
        return {
            "include_stubs": self.include_stubs,
            "category": self.category,
            "years": [self.year_from, self.year_to],
        }


def parse_years(text: str) -> tuple[int | None, int | None]:
    """Return the (first, last) years of ``2019-2023``, ``2019-``, ``-2023`` or ``2019``.

    Raises ParameterError for anything else.
    """
    raw = text.strip()
    start, sep, end = raw.partition("-")
    parts = (start.strip(), end.strip()) if sep else (raw, raw)
    if not any(parts) or not all(p.isdigit() or p == "" for p in parts):
        raise ParameterError(
            f"{text!r} is not a year range", "write it as 2019-2023, 2019-, -2023 or 2019"
        )
    if any(len(p.lstrip("0")) > 4 for p in parts):
        raise ParameterError(
            f"{text!r} is not a year range", "give years of at most four digits, e.g. 2019-2023"
        )
    first = int(parts[0]) if parts[0] else None
    last = int(parts[1]) if parts[1] else None
    Scope(year_from=first, year_to=last).check()
    return first, last


def _read_projection(graph: Database, scope: Scope) -> tuple[list[str], list[list[str]]]:
    # Records, not dicts: Record.data() would walk every one of the hundreds of thousands of
    # cited keys in Python again; the two lists come out of the driver ready to use.
    records = queries.analytics.projection.run_records(graph, **scope.params())
    if not records:
        return [], []
    return list(records[0]["keys"]), list(records[0]["cites"])


def load_projection(graph: Database, scope: Scope | None = None) -> CitationGraph:
    """Return the citation graph of the papers in ``scope`` (default: all), read in one query.

    Citations of papers that a concurrent load added while it read are left out and counted
    (``CitationGraph.left_out``).
    """
    chosen = scope or Scope()
    chosen.check()
    keys, cites = _read_projection(graph, chosen)
    return CitationGraph.from_projection(keys, cites)


def choose_engine(graph: Database, engine: Engine) -> EngineName:
    """Return the engine to use for ``engine``: auto prefers GDS when the server has it and
    the graphdatascience client is installed.

    Raises AnalyticsError when GDS is asked for and the server or the client lacks it.
    """
    if engine == "igraph":
        return "igraph"
    if engine not in ENGINES:
        raise ParameterError(f"unknown engine {engine!r}", f"use one of {', '.join(ENGINES)}")
    version = gds_engine.gds_version(graph)
    if engine == "auto":
        return "gds" if version and gds_engine.client_installed() else "igraph"
    if version is None:
        raise AnalyticsError(
            f"the Neo4j server at {graph.uri} has no Graph Data Science plugin",
            "install GDS on the server, or use the igraph engine (the default: "
            'engine="igraph", --engine igraph)',
        )
    if not gds_engine.client_installed():
        raise AnalyticsError(
            "the GDS engine needs the graphdatascience package, which is not installed",
            gds_engine.INSTALL_HINT,
        )
    return "gds"


def _check_common(top: int, batch_size: int) -> None:
    COUNT_OR_ZERO.check("top", top)
    COUNT.check("batch_size", batch_size)


def _papers(
    graph: Database, keys: Sequence[str], columns: Mapping[str, Sequence[float]], order: list[int]
) -> list[RankedPaper]:
    """Return the papers at ``order`` (indices into ``keys``) with their details and values."""
    wanted = [keys[i] for i in order]
    details: dict[str, dict[str, Any]] = {}
    if wanted:
        details = {row["key"]: row for row in queries.analytics.papers.run(graph, keys=wanted)}
    papers = []
    for place, i in enumerate(order, start=1):
        row = details.get(keys[i], {})
        papers.append(
            RankedPaper(
                rank=place,
                key=keys[i],
                title=row.get("title"),
                year=row.get("year"),
                stub=bool(row.get("stub", False)),
                values={name: column[i] for name, column in columns.items()},
            )
        )
    return papers


def _parameters(
    algorithm: Algorithm, scope: Scope, options: RankOptions, engine: EngineName
) -> dict[str, Any]:
    """Return the settings that shaped a run's values, as recorded with it."""
    params: dict[str, Any] = {}
    if algorithm == "pagerank":
        params = {"damping": options.damping}
        if engine == "gds":  # igraph's PRPACK solves exactly, to 1e-10
            params.update(tolerance=options.tolerance, max_iterations=options.max_iterations)
    elif algorithm == "betweenness":
        params = {"samples": options.samples}
        if options.samples is not None:
            params["seed"] = options.seed
    elif algorithm == "hits" and engine == "gds":  # igraph's ARPACK runs to convergence
        params = {"max_iterations": options.max_iterations}
    return {**params, **scope.describe()}


def pagerank_tiers(order: Sequence[int], count: int) -> list[int]:
    """Return each node's PageRank tier from ``order`` (node indices, highest score first):
    1 for the top 1% (at least one node), 2 for the rest of the top 10%, else 0. The tiers
    become labels that cypher/map.grass sizes nodes by."""
    tiers = [0] * count
    top1 = math.ceil(count * TOP1_SHARE)
    top10 = math.ceil(count * TOP10_SHARE)
    for place, i in enumerate(order):
        if place < top1:
            tiers[i] = 1
        elif place < top10:
            tiers[i] = 2
    return tiers


def _rows(name: str, keys: Sequence[str], values: Values) -> list[dict[str, Any]]:
    """Return the write_paper_values rows of ``name``: each paper's key and its properties
    (from our own table ``_STORED``), and for PageRank its tier."""
    props = _STORED[name]
    columns = [values[prop] for prop in props]
    rows: list[dict[str, Any]] = [
        {"key": key, "props": dict(zip(props, row_values, strict=True))}
        for key, *row_values in zip(keys, *columns, strict=True)
    ]
    if name == "pagerank":
        order = top_indices(columns[0], keys, len(keys))
        for row, tier in zip(rows, pagerank_tiers(order, len(keys)), strict=True):
            row["tier"] = tier
    return rows


def _store(graph: Database, name: str, keys: Sequence[str], values: Values, batch_size: int) -> int:
    """Replace the stored values of ``name`` (an algorithm, or "community"): remove them
    from every paper, then write ``values`` in batches. Returns the papers written."""
    assert name in _STORED, f"{name!r} is not one of the analytics' own stored names"
    nulls = dict.fromkeys(_STORED[name])
    queries.analytics.clear_paper_values.run(
        graph, nulls=nulls, tiers=name == "pagerank", batch_size=batch_size
    )
    return write_rows(
        graph, queries.analytics.write_paper_values, _rows(name, keys, values), batch_size
    )


@dataclass(frozen=True)
class _Stored:
    """What a run stores: under which name (an algorithm, or "community"), recorded as which
    algorithm, its properties, and every paper's values."""

    name: str
    algorithm: str
    properties: tuple[str, ...]
    keys: Sequence[str]
    values: Values


@dataclass(frozen=True)
class _Read:
    """The papers a run computed over, and the seconds the igraph engine took to read them
    out of Neo4j and build its graph (none on GDS, which reads on the server)."""

    keys: tuple[str, ...]
    nodes: int
    edges: int
    left_out: int = 0
    projection: float = 0.0
    build: float = 0.0


def _network(graph: Database, scope: Scope, began: float) -> tuple[_Read, igraph.Graph]:
    """Read the citation graph of the papers in ``scope`` and build it in igraph, for rank
    and communities alike."""
    keys, cites = _read_projection(graph, scope)
    projection = time.perf_counter() - began
    mark = time.perf_counter()
    citation = CitationGraph.from_projection(keys, cites)
    del cites
    network = citation.to_igraph()
    read = _Read(
        citation.keys,
        citation.node_count,
        citation.edge_count,
        citation.left_out,
        projection,
        time.perf_counter() - mark,
    )
    return read, network


class _RunFields(TypedDict):
    """What a ranking and a partition report alike, besides their own answer."""

    engine: EngineName
    parameters: dict[str, Any]
    nodes: int
    edges: int
    keys: tuple[str, ...]
    timings: Timings
    written: int
    runs: list[AnalyticsRun]
    left_out: int


def _finish(
    graph: Database,
    read: _Read,
    stored: _Stored | None,
    parameters: dict[str, Any],
    engine: EngineName,
    *,
    began: float,
    compute_s: float,
    batch_size: int,
) -> _RunFields:
    """Store a run's values and record an AnalyticsRun per property when ``stored`` says
    what (with write), for rank and communities alike; return what both report."""
    written, write_s = 0, 0.0
    runs: list[AnalyticsRun] = []
    if stored is not None:
        mark = time.perf_counter()
        written = _store(graph, stored.name, stored.keys, stored.values, batch_size)
        runs = record_runs(
            graph,
            stored.algorithm,
            stored.properties,
            parameters,
            engine,
            read.nodes,
            read.edges,
            time.perf_counter() - began,
        )
        write_s = time.perf_counter() - mark
    total = time.perf_counter() - began
    return _RunFields(
        engine=engine,
        parameters=parameters,
        nodes=read.nodes,
        edges=read.edges,
        keys=read.keys,
        timings=Timings(read.projection, read.build, compute_s, write_s, total),
        written=written,
        runs=runs,
        left_out=read.left_out,
    )


def rank(
    graph: Database,
    algorithm: Algorithm,
    *,
    scope: Scope | None,
    engine: Engine,
    options: RankOptions | Mapping[str, object] | None,
    top: int,
    write: bool,
    batch_size: int,
) -> RankResult:
    """Rank the papers in ``scope`` by ``algorithm`` and return every value and the ``top``
    papers; with ``write`` store the values on the papers and record an AnalyticsRun.

    ``options`` are the RankOptions (damping, tolerance, max_iterations, samples, seed), or a
    mapping of some of them, e.g. ``{"damping": 0.5}``; each algorithm reads the ones it has.

    Raises ParameterError for an option that is no RankOptions field, of the wrong type or
    out of range, AnalyticsError for a missing engine, and the graph's errors
    (ConnectionFailed, QueryFailed) when Neo4j fails.
    """
    if algorithm not in ALGORITHMS:
        raise ParameterError(
            f"unknown algorithm {algorithm!r}", f"use one of {', '.join(ALGORITHMS)}"
        )
    chosen_scope = scope or Scope()
    chosen_options = RankOptions.of(options)
    chosen_scope.check()
    chosen_options.check()
    _check_common(top, batch_size)
    began = time.perf_counter()
    used = choose_engine(graph, engine)
    if used == "igraph":
        read, network = _network(graph, chosen_scope, began)
        mark = time.perf_counter()
        values = compute(network, algorithm, chosen_options)
    else:
        mark = time.perf_counter()
        gds_keys, values, nodes, edges = gds_engine.rank(
            graph, algorithm, chosen_scope.params(), chosen_options
        )
        read = _Read(tuple(gds_keys), nodes, edges)
    compute_s = time.perf_counter() - mark
    properties = PROPERTIES[algorithm]
    order = top_indices(values[properties[0]], read.keys, top) if read.keys else []
    listed = _papers(graph, read.keys, values, order)
    parameters = _parameters(algorithm, chosen_scope, chosen_options, used)
    stored = _Stored(algorithm, algorithm, properties, read.keys, values) if write else None
    run = _finish(
        graph,
        read,
        stored,
        parameters,
        used,
        began=began,
        compute_s=compute_s,
        batch_size=batch_size,
    )
    return RankResult(algorithm=algorithm, properties=properties, values=values, top=listed, **run)


def communities(
    graph: Database,
    *,
    scope: Scope | None,
    engine: Engine,
    method: CommunityMethod,
    seed: int,
    resolution: float,
    top: int,
    papers: int,
    write: bool,
    batch_size: int,
) -> CommunityResult:
    """Partition the papers in ``scope`` into communities on the undirected citation graph
    and return the ``top`` largest with their ``papers`` most cited members (in-degree in
    scope); with ``write`` store each paper's community number and record an AnalyticsRun.

    A seed always gives the same partition. Raises ParameterError for a bad option,
    AnalyticsError for a missing engine, and the graph's errors when Neo4j fails.
    """
    chosen_scope = scope or Scope()
    _check_communities(chosen_scope, method, seed, resolution, (top, papers, batch_size))
    began = time.perf_counter()
    used = choose_engine(graph, engine)
    quality: float | None = None
    if used == "igraph":
        read, network = _network(graph, chosen_scope, began)
        mark = time.perf_counter()
        membership = igraph_engine.communities(network, method, seed, resolution)
        quality = modularity(network, membership, resolution)
        cited: Sequence[float] = indegree(network)
    else:
        mark = time.perf_counter()
        read, membership, cited = _gds_communities(graph, chosen_scope, method, seed, resolution)
    compute_s = time.perf_counter() - mark
    count, shown = _largest(graph, read.keys, membership, cited, top, papers)
    parameters: dict[str, Any] = {"method": method, "seed": seed, "resolution": resolution}
    parameters.update(chosen_scope.describe())
    values: Values = {COMMUNITY_PROPERTY: membership}
    stored = _Stored(COMMUNITY_PROPERTY, method, (COMMUNITY_PROPERTY,), read.keys, values)
    run = _finish(
        graph,
        read,
        stored if write else None,
        parameters,
        used,
        began=began,
        compute_s=compute_s,
        batch_size=batch_size,
    )
    return CommunityResult(
        method=method,
        count=count,
        modularity=quality,
        membership=membership,
        communities=shown,
        **run,
    )


def _check_communities(
    scope: Scope,
    method: CommunityMethod,
    seed: int,
    resolution: float,
    counts: tuple[int, int, int],
) -> None:
    """Check the options of ``communities`` (``counts``: top, papers, batch_size).

    Raises ParameterError for a bad one.
    """
    top, papers, batch_size = counts
    if method not in COMMUNITY_METHODS:
        raise ParameterError(
            f"unknown community method {method!r}", f"use one of {', '.join(COMMUNITY_METHODS)}"
        )
    scope.check()
    _check_common(top, batch_size)
    COUNT_OR_ZERO.check("papers", papers)
    whole_number("seed", seed)
    if resolution <= 0:
        raise ParameterError(f"resolution {resolution} is not positive", "use e.g. 1.0")


def _largest(
    graph: Database,
    keys: Sequence[str],
    membership: list[int],
    cited: Sequence[float],
    top: int,
    papers: int,
) -> tuple[int, list[Community]]:
    """Return how many communities ``membership`` makes, and the ``top`` first by label
    with their ``papers`` most cited members."""
    members: dict[int, list[int]] = {}
    for node, label in enumerate(membership):
        members.setdefault(label, []).append(node)
    shown = [
        _community(graph, keys, label, members[label], cited, papers)
        for label in sorted(members)[:top]
    ]
    return len(members), shown


def _gds_communities(
    graph: Database, scope: Scope, method: CommunityMethod, seed: int, resolution: float
) -> tuple[_Read, list[int], Sequence[float]]:
    """Return what GDS read of ``scope``, each paper's community and its in-degree in scope.

    Raises AnalyticsError when the graph changed between the two projections.
    """
    gds_keys, membership, nodes, edges = gds_engine.communities(
        graph, scope.params(), method, seed, resolution
    )
    degree_keys, degrees, _, _ = gds_engine.rank(graph, "indegree", scope.params(), RankOptions())
    if degree_keys != gds_keys:
        raise AnalyticsError(
            "the graph changed between two GDS projections", "run the command again"
        )
    return _Read(tuple(gds_keys), nodes, edges), membership, degrees["indegree"]


def _community(
    graph: Database,
    keys: Sequence[str],
    label: int,
    nodes_in: list[int],
    cited: Sequence[float],
    papers: int,
) -> Community:
    """Return community ``label`` (its nodes ``nodes_in``) with its ``papers`` most cited."""
    best = sorted(nodes_in, key=lambda i: (-cited[i], keys[i]))[:papers]
    return Community(label, len(nodes_in), _papers(graph, keys, {"indegree": cited}, best))


def analytics_runs(graph: Database) -> list[AnalyticsRun]:
    """Return the recorded runs, one per stored property, ordered by property name."""
    return [AnalyticsRun.from_row(row) for row in queries.analytics.runs.run(graph)]
