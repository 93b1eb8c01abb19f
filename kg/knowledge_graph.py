"""KnowledgeGraph: the one face of the library, for scripts, the `kg` CLI and the web view.

A KnowledgeGraph is the connection (a ``Database``) with the map's questions, loads, merges
and schema as methods, and three parts for the rest: ``.analytics`` (ranking, communities,
similarity, time), ``.exports`` (files for other tools) and ``.plots`` (pictures)::

    import kg

    with kg.KnowledgeGraph.connect() as graph:
        report = graph.paper("hep-th/9711200")
        print(report.cited_by_sentence())
        top = graph.analytics.rank("pagerank", top=3).top

Most methods are a function of ``kg.questions``, ``kg.analytics``, ``kg.load`` or
``kg.export`` with this graph as its first argument: same parameters, same docstring, same
typed answer (``help(graph.plots.ego)`` shows the function's docstring and parameters).
The pictures load matplotlib and igraph only when one is drawn, or a method of
``graph.plots`` is looked up.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from kg import analytics, export, questions
from kg import read_only as user_cypher
from kg import refs as user_refs
from kg.analytics import embed, similarity, vector_file
from kg.analytics import time as time_analytics
from kg.analytics.ranking import parse_years
from kg.answers import ConnectResult, RecommendResult
from kg.database import Database
from kg.export import selection
from kg.load import schema
from kg.questions import retrievers, seeds


class _Later:
    """A function of a module that loads only when the function is first used: called, or
    bound to a graph (which is when ``help()`` reads its docstring and signature)."""

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self.__doc__ = f"See {module}.{name}."

    def load(self) -> Callable[..., Any]:
        """Return the function itself, importing its module."""
        function: Callable[..., Any] = getattr(import_module(self.module), self.name)
        return function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.load()(*args, **kwargs)


if TYPE_CHECKING:
    from kg.load.bulk import bulk_load as _bulk_load
    from kg.load.merges import kept_apart as _kept_apart
    from kg.load.merges import merges as _merges
    from kg.load.merges import unmerge as _unmerge
    from kg.load.pipeline import expand_paths as _expand_paths
    from kg.load.pipeline import load_paths as _load_paths
    from kg.plots import ego as _ego
    from kg.plots import rank_distribution as _rank_distribution
    from kg.plots import save as _save
    from kg.plots import years as _years
else:
    # matplotlib and igraph load on the first picture, not with the face: at run time each
    # of these imports its module when used (mypy reads the functions themselves).
    _years = _Later("kg.plots", "years")
    _ego = _Later("kg.plots", "ego")
    _rank_distribution = _Later("kg.plots", "rank_distribution")
    _save = _Later("kg.plots", "save")
    # The load wing (its parsers, the import tool's sink, numpy) loads with the first load,
    # merge or unmerge, not with every question.
    _load_paths = _Later("kg.load.pipeline", "load_paths")
    _expand_paths = _Later("kg.load.pipeline", "expand_paths")
    _bulk_load = _Later("kg.load.bulk", "bulk_load")
    _merges = _Later("kg.load.merges", "merges")
    _kept_apart = _Later("kg.load.merges", "kept_apart")
    _unmerge = _Later("kg.load.merges", "unmerge")

__all__ = ["Analytics", "Exports", "KnowledgeGraph", "Plots", "parse_years"]

P = ParamSpec("P")
R = TypeVar("R")


def _loaded(function: Callable[..., R]) -> Callable[..., R]:
    """Return ``function``, or the function a ``_Later`` stands for, loaded."""
    return function.load() if isinstance(function, _Later) else function


class _On(Generic[P, R]):
    """A library function ``f(graph, ...)`` as a method: ``graph.name(...)`` calls
    ``f(graph, ...)``, with f's parameters, docstring and answer, written once; ``help()``
    of the bound method shows f's docstring and its signature without the graph."""

    def __init__(self, function: Callable[Concatenate[Any, P], R]) -> None:
        self.function = function
        self.__doc__ = function.__doc__

    @overload
    def __get__(self, owner: None, kind: type) -> Self: ...
    @overload
    def __get__(self, owner: _Part | Database, kind: type) -> Callable[P, R]: ...
    def __get__(self, owner: _Part | Database | None, kind: type) -> Self | Callable[P, R]:
        if owner is None:
            return self
        graph = owner.graph if isinstance(owner, _Part) else owner
        function = _loaded(self.function)

        @functools.wraps(function)
        def bound(*args: P.args, **kwargs: P.kwargs) -> R:
            return function(graph, *args, **kwargs)

        signature = inspect.signature(function)
        # Read before __wrapped__: the function's own signature, less the graph it is bound to.
        bound.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=list(signature.parameters.values())[1:]
        )
        return bound


class _Static(Generic[P, R]):
    """A library function that takes no graph, as an attribute of the face or a part
    (``KnowledgeGraph.bulk_load``, ``graph.plots.save``): the function itself, loaded when
    first looked up."""

    def __init__(self, function: Callable[P, R]) -> None:
        self.function = function
        self.__doc__ = function.__doc__

    def __get__(self, owner: object | None, kind: type) -> Callable[P, R]:
        return _loaded(self.function)


class _Part:
    """A part of the face (``graph.analytics``, ``graph.exports``): the graph it works on."""

    def __init__(self, graph: KnowledgeGraph) -> None:
        self.graph = graph


class Analytics(_Part):
    """Whole-map analytics of one graph: ``graph.analytics.rank("pagerank")``; see
    ``kg.analytics`` (ranking, communities), ``kg.analytics.similarity`` and
    ``kg.analytics.time`` for what each computes and stores with ``write=True``."""

    rank = _On(analytics.rank)
    communities = _On(analytics.communities)
    runs = _On(analytics.analytics_runs)
    similar = _On(similarity.run_similarity)
    similarity_runs = _On(similarity.stored_runs)
    bursts = _On(time_analytics.bursts)
    beauties = _On(time_analytics.sleeping_beauties)
    traction = _On(time_analytics.traction)
    main_path = _On(time_analytics.main_path)


class Exports(_Part):
    """Papers and their citations for other tools: ``graph.exports.write("gexf", path)``;
    ``FORMATS`` maps each format to its writer (see ``kg.export``)."""

    FORMATS = export.FORMATS
    write = _On(export.export)
    select_keys = _On(selection.select_keys)
    papers = _On(selection.papers)
    citations = _On(selection.citations)
    graph_json = _On(export.export_graph_json)


class Plots(_Part):
    """Pictures of the map as matplotlib figures: ``graph.plots.years(REF)``, ``ego`` and
    ``rank_distribution`` (see ``kg.plots``); ``save`` writes one as PNG, SVG or PDF."""

    years = _On(_years)
    ego = _On(_ego)
    rank_distribution = _On(_rank_distribution)
    save = _Static(_save)


class KnowledgeGraph(Database):
    """The map's knowledge graph: open it with ``KnowledgeGraph.connect()``, close it or
    use it as a context manager. Questions, loads, merges and the schema are methods;
    ``analytics``, ``exports`` and ``plots`` hold the rest."""

    @classmethod
    def on(cls, database: Database) -> Self:
        """Return the face over an open Database's driver (closing either closes both),
        sharing its bookmark manager, so reads through either see writes through the other."""
        return cls(database.driver, database.database, database.uri, database.bookmark_manager)

    @cached_property
    def analytics(self) -> Analytics:
        """Ranking, communities, similarity and time analytics: ``graph.analytics.rank(...)``."""
        return Analytics(self)

    @cached_property
    def exports(self) -> Exports:
        """Exports for other tools: ``graph.exports.write("gexf", Path("map.gexf"))``."""
        return Exports(self)

    @cached_property
    def plots(self) -> Plots:
        """Pictures: ``graph.plots.years(REF)``, ``ego``, ``rank_distribution``."""
        return Plots(self)

    read_only = _On(user_cypher.run_read_only)
    resolve = _On(user_refs.resolve)
    paper = _On(questions.paper_report)
    cocited = _On(questions.cocited)
    coupled = _On(questions.coupled)
    shared_references = _On(questions.shared_references)
    common_citers = _On(questions.common_citers)
    path = _On(questions.citation_path)
    near = _On(questions.neighbourhood)
    graph_data = _On(questions.graph_data)
    search = _On(questions.search)
    similar_by_text = _On(retrievers.like_this)
    embed = _On(embed.embed_papers)
    load_vectors = _On(vector_file.load_vectors)
    author = _On(questions.author)
    category = _On(questions.category)
    categories = _On(questions.categories)
    overview = _On(questions.overview)
    snapshots = _On(questions.snapshots)
    sources = _On(questions.sources)

    # The multi-seed questions take the seeds as arguments, graph.recommend(A, B, C), where
    # the functions take a list: written out rather than bound.
    def connector(
        self,
        *refs: str,
        max_hops: int = seeds.DEFAULT_CONNECT_HOPS,
        limit: int = 20,
        paths_per_pair: int = seeds.DEFAULT_PATHS_PER_PAIR,
    ) -> ConnectResult:
        """Return the papers on the shortest citation paths between the seed papers, ranked
        by PageRank among them, with the paths (see kg.questions.seeds.connect)."""
        return seeds.connect(
            self, list(refs), max_hops=max_hops, limit=limit, paths_per_pair=paths_per_pair
        )

    def recommend(
        self, *refs: str, limit: int = 20, max_degree: int = seeds.DEFAULT_MAX_DEGREE
    ) -> RecommendResult:
        """Return the papers most related to the seeds by co-citation, coupling and direct
        citations, each with its reasons (see kg.questions.seeds.recommend)."""
        return seeds.recommend(self, list(refs), limit=limit, max_degree=max_degree)

    similar = _On(similarity.run_similarity)  # graph.analytics.similar, for cocited/coupled

    load = _On(_load_paths)
    # A bulk load builds an empty local database offline, with the server stopped: it needs
    # the settings, not an open connection.
    bulk_load = _Static(_bulk_load)
    expand_paths = _Static(_expand_paths)  # the files a load of these paths reads
    merges = _On(_merges)
    kept_apart = _On(_kept_apart)
    unmerge = _On(_unmerge)
    apply_schema = _On(schema.apply_schema)
    clear = _On(schema.clear_database)
    is_empty = _On(schema.is_empty)
