"""KnowledgeGraph: the one face of the library, for scripts, the `kg` CLI and the web view.

A KnowledgeGraph is the connection (a ``Database``) with the map's questions, loads, merges
and schema as methods, and three parts for the rest: ``.analytics`` (ranking, communities,
similarity, time), ``.exports`` (files for other tools) and ``.plots`` (pictures)::

    import kg

    with kg.KnowledgeGraph.connect() as graph:
        report = graph.paper("hep-th/9711200")
        print(report.cited_by_sentence())
        top = graph.analytics.rank("pagerank", top=3).top

Most methods call a function of ``kg.questions``, ``kg.analytics``, ``kg.load``,
``kg.export`` or ``kg.plots`` with this graph as its first argument, and carry that
function's parameters and docstring (tests/unit/test_face_help.py checks that each pair
agrees). The pictures (matplotlib, igraph) and the load wing (its parsers, the import
tool's sink) are imported inside the methods that use them, so a question loads neither.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, LiteralString, Self, Unpack

from kg import export, questions, refs
from kg.analytics import ranking, similarity, time, time_series
from kg.analytics.embed import EMBED_MODEL_BATCH, embed_papers
from kg.analytics.ranking import parse_years
from kg.analytics.stored import WRITE_BACK_BATCH
from kg.analytics.vector_file import VECTOR_FILE_BATCH, load_vectors
from kg.answers import ConnectResult, RecommendResult
from kg.database import Database, Row
from kg.load import schema
from kg.load.leases import LOAD_TTL
from kg.questions import retrievers, seeds
from kg.questions.paper import DEFAULT_EXAMPLES
from kg.read_only import run_read_only

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from kg.analytics import RankOptions, Scope
    from kg.analytics.embed import Embedder
    from kg.analytics.igraph_engine import Algorithm, CommunityMethod
    from kg.analytics.ranking import Engine
    from kg.analytics.similarity import Measure
    from kg.answers import (
        AnalyticsRun,
        AuthorReport,
        BeautyResult,
        BulkSummary,
        BurstResult,
        CategoryOverview,
        CategoryReport,
        CommunityResult,
        EmbedReport,
        ExportSummary,
        GraphData,
        GraphLayer,
        KeptApart,
        LoadSummary,
        MainPathResult,
        MapOverview,
        MergeRecord,
        Neighbourhood,
        Overlap,
        PaperReport,
        PaperSnapshots,
        PaperSources,
        PaperSummary,
        PathResult,
        RankResult,
        SchemaReport,
        SearchResult,
        Similarity,
        SimilarityRun,
        StoredRun,
        TextNeighbours,
        TractionResult,
        UnmergeResult,
        VectorFileReport,
    )
    from kg.export import ExportedPaper, Selection
    from kg.load.pipeline import FormatChoice, StreamOptions
    from kg.paths import PathArg
    from kg.questions.find import SearchMode
    from kg.server.config import LocalSettings

__all__ = ["Analytics", "Exports", "KnowledgeGraph", "Plots", "parse_years"]


class _Part:
    """A part of the face (``graph.analytics``, ``graph.exports``): the graph it works on."""

    def __init__(self, graph: KnowledgeGraph) -> None:
        self.graph = graph


class Analytics(_Part):
    """Whole-map analytics of one graph: ``graph.analytics.rank("pagerank")``; see
    ``kg.analytics`` (ranking, communities), ``kg.analytics.similarity`` and
    ``kg.analytics.time`` for what each computes and stores with ``write=True``."""

    def rank(
        self,
        algorithm: Algorithm,
        *,
        scope: Scope | None = None,
        engine: Engine = "auto",
        options: RankOptions | Mapping[str, object] | None = None,
        top: int = 10,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> RankResult:
        """Rank the papers in ``scope`` by ``algorithm`` and return every value and the ``top``
        papers; with ``write`` store the values on the papers and record an AnalyticsRun.

        ``options`` are the RankOptions (damping, tolerance, max_iterations, samples, seed), or a
        mapping of some of them, e.g. ``{"damping": 0.5}``; each algorithm reads the ones it has.

        Raises ParameterError for an option that is no RankOptions field, of the wrong type or
        out of range, AnalyticsError for a missing engine, and the graph's errors
        (ConnectionFailed, QueryFailed) when Neo4j fails.
        """
        return ranking.rank(
            self.graph,
            algorithm,
            scope=scope,
            engine=engine,
            options=options,
            top=top,
            write=write,
            batch_size=batch_size,
        )

    def communities(
        self,
        *,
        scope: Scope | None = None,
        engine: Engine = "auto",
        method: CommunityMethod = "leiden",
        seed: int = 42,
        resolution: float = 1.0,
        top: int = 10,
        papers: int = 3,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> CommunityResult:
        """Partition the papers in ``scope`` into communities on the undirected citation graph
        and return the ``top`` largest with their ``papers`` most cited members (in-degree in
        scope); with ``write`` store each paper's community number and record an AnalyticsRun.

        A seed always gives the same partition. Raises ParameterError for a bad option,
        AnalyticsError for a missing engine, and the graph's errors when Neo4j fails.
        """
        return ranking.communities(
            self.graph,
            scope=scope,
            engine=engine,
            method=method,
            seed=seed,
            resolution=resolution,
            top=top,
            papers=papers,
            write=write,
            batch_size=batch_size,
        )

    def runs(self) -> list[AnalyticsRun]:
        """Return the recorded runs, one per stored property, ordered by property name."""
        return ranking.analytics_runs(self.graph)

    def similar(
        self,
        *,
        k: int = similarity.DEFAULT_K,
        write: bool = False,
        batch_size: int = similarity.SIMILARITY_WRITE_BATCH,
        measures: Sequence[Measure] = similarity.MEASURES,
        force: bool = False,
        writers: int = similarity.DEFAULT_WRITERS,
    ) -> SimilarityRun:
        """Compute every paper's top ``k`` co-cited and coupled papers over the whole citation
        graph; with ``write`` replace the stored CO_CITED / COUPLED relationships and record
        the run (AnalyticsRun ``co_cited`` and ``coupled``).

        With ``write``, when the stored runs keep ``k`` papers and no load has stamped a paper
        since they read the graph (similar_unchanged.cypher), the stored lists are what this run
        would write: nothing is read, computed or written, and the answer says so
        (``unchanged``). ``force`` computes and compares anyway. ``writers`` transactions write
        at once, each its own papers' lists.

        Raises ParameterError for a bad option and the graph's errors when Neo4j fails.
        """
        return similarity.run_similarity(
            self.graph,
            k=k,
            write=write,
            batch_size=batch_size,
            measures=measures,
            force=force,
            writers=writers,
        )

    def similarity_runs(self) -> list[StoredRun]:
        """Return the recorded similarity runs (none, one or both measures), co-citation first."""
        return similarity.stored_runs(self.graph)

    def bursts(
        self,
        *,
        scope: Scope | None = None,
        since: int | None = None,
        s: float = time_series.DEFAULT_S,
        gamma: float = time_series.DEFAULT_GAMMA,
        limit: int = 20,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> BurstResult:
        """Return the citation bursts of the papers in ``scope`` that last until ``since`` or
        later, strongest first, at most ``limit``; with ``write`` store each paper's strongest
        burst (burst_strength, burst_start, burst_end) and record the runs.

        Each paper's series runs from its year (or its first citation, if earlier) to the last
        year of its body of data (``CitationTimeline``); year ``t`` counts ``r`` citations to it
        of the ``d`` made that year in its body (kg.analytics.time_series explains the model).
        Raises ParameterError for a bad option.
        """
        return time.bursts(
            self.graph,
            scope=scope,
            since=since,
            s=s,
            gamma=gamma,
            limit=limit,
            write=write,
            batch_size=batch_size,
        )

    def beauties(
        self,
        *,
        scope: Scope | None = None,
        min_citations: int = 10,
        limit: int = 20,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> BeautyResult:
        """Return the papers in ``scope`` with at least ``min_citations`` citations, highest
        beauty coefficient first (Ke et al. 2015, see kg.analytics.time_series), at most
        ``limit``; with ``write`` store beauty and awakening (a year) on every scored paper.

        A paper's series starts in its year (citations dated earlier count in that year) and
        ends at the last year of its body of data (``CitationTimeline``); papers of unknown year
        are not scored. Raises ParameterError for a bad option.
        """
        return time.sleeping_beauties(
            self.graph,
            scope=scope,
            min_citations=min_citations,
            limit=limit,
            write=write,
            batch_size=batch_size,
        )

    def traction(
        self,
        *,
        scope: Scope | None = None,
        as_of: int | None = None,
        window: int = time_series.DEFAULT_WINDOW,
        min_citations: int = 5,
        min_cohort: int = 5,
        limit: int = 20,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> TractionResult:
        """Return the papers gaining traction: citations in the ``window`` years ending at
        ``as_of`` (default: the last year of each paper's body of data, ``CitationTimeline``,
        so that the default map's hep-th papers are scored up to 2003 and its ML papers up to
        their own last year; ``TractionResult.as_of`` is then None when those differ) against
        the mean of the papers of the same primary category and year
        (kg.analytics.time_series.traction), highest first, among papers with at least
        ``min_citations`` in the window and cohorts of at least ``min_cohort``; with ``write``
        store traction on every paper scored.

        Papers of unknown year or published after ``as_of`` are not scored. Raises
        ParameterError for a bad option.
        """
        return time.traction(
            self.graph,
            scope=scope,
            as_of=as_of,
            window=window,
            min_citations=min_citations,
            min_cohort=min_cohort,
            limit=limit,
            write=write,
            batch_size=batch_size,
        )

    def main_path(
        self,
        *,
        scope: Scope | None = None,
        key_routes: int = time.DEFAULT_KEY_ROUTES,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> MainPathResult:
        """Return the global main path and the key-route main path (from ``key_routes`` key
        arcs) of the citations among the papers in ``scope``, by search path count (see
        kg.analytics.mainpath); with ``write`` store spc (a share of all paths) on every
        citation used and flag main_path and key_route papers.

        Cycles are broken against time inside each strongly connected component (the citations
        of an earlier paper to a later one are dropped) and reported. Raises ParameterError for
        a bad option.
        """
        return time.main_path(
            self.graph, scope=scope, key_routes=key_routes, write=write, batch_size=batch_size
        )


class Exports(_Part):
    """Papers and their citations for other tools: ``graph.exports.write("gexf", path)``;
    ``FORMATS`` maps each format to its writer (see ``kg.export``)."""

    FORMATS = export.FORMATS

    def write(self, fmt: str, path: PathArg, selection: Selection | None = None) -> ExportSummary:
        """Write the selected papers (and, for network formats, their citations) to ``path`` in
        format ``fmt`` (a key of FORMATS; csv and vosviewer write a folder). Raises
        ParameterError for an unknown format, a path whose folder does not exist (a folder
        format's own folder is made) or an unwritable path, and the errors of
        select_keys."""
        return export.export(self.graph, fmt, path, selection)

    def select_keys(self, selection: Selection | None) -> list[str] | None:
        """Return the keys of the selected papers, or None for the whole graph (also for a
        ``selection`` of None, as an export takes it).

        Raises PaperNotFound or AmbiguousPaper for a bad ``around`` REF, ParameterError for a
        ``selection`` that is not a Selection, a bad hop count, top count or rank property, or a
        year range that ends before it starts (as ``kg.Scope`` does).
        """
        return export.select_keys(self.graph, selection)

    def papers(self, keys: list[str] | None) -> Iterator[ExportedPaper]:
        """Yield the selected papers in key order, a page at a time."""
        return export.papers(self.graph, keys)

    def citations(self, keys: list[str] | None) -> Iterator[tuple[str, str]]:
        """Yield (citing key, cited key) for every citation between selected papers, in order."""
        return export.citations(self.graph, keys)

    def graph_json(
        self,
        ref: str,
        path: PathArg,
        layer: GraphLayer = "citations",
        hops: int = 1,
        limit: int | None = None,
    ) -> ExportSummary:
        """Write one ``layer`` of ``ref``'s paper's graph to ``path`` as JSON: exactly the
        answer of ``graph_data(ref, layer, hops, limit)``, which the web view's /graph.json
        serves too. Raises the errors of graph_data, and ParameterError for a path whose
        folder does not exist or that cannot be written."""
        return export.export_graph_json(self.graph, ref, path, layer, hops, limit)


class Plots(_Part):
    """Pictures of the map as matplotlib figures: ``graph.plots.years(REF)``, ``ego`` and
    ``rank_distribution`` (see ``kg.plots``); ``save`` writes one as PNG, SVG or PDF."""

    def years(self, ref: str) -> Figure:
        """Bars of the papers citing ``ref``'s paper per year: counted in the graph beside what
        the newest source stated. Raises PaperNotFound or AmbiguousPaper for a bad REF."""
        from kg import plots

        return plots.years(self.graph, ref)

    def ego(
        self,
        ref: str,
        hops: int = 1,
        limit: int = 40,
        seed: int = 42,
        link: Callable[[str], str] | None = None,
    ) -> Figure:
        """The paper's neighbourhood within ``hops`` citation hops (its ``limit`` most cited
        papers there, as the web view's citations layer, ``graph_data``, gives them), laid out
        by Fruchterman-Reingold (seeded): an arrow points at the cited paper, size is the papers
        in the graph citing each (log scale), colour its year on the graph's first..last scale,
        with a legend of both below; the paper and the most cited are labelled with their
        shortened titles. With ``link``, each node of an SVG links to ``link(key)``.
        Raises PaperNotFound, AmbiguousPaper or ParameterError."""
        from kg import plots

        return plots.ego(self.graph, ref, hops, limit, seed, link)

    def rank_distribution(self, prop: str = "pagerank", bins: int = 50) -> Figure:
        """A histogram (log-log) of one value `kg rank --write` stored on the papers.
        Raises ParameterError when no paper holds it, or for fewer than 1 bin."""
        from kg import plots

        return plots.rank_distribution(self.graph, prop, bins)

    @staticmethod
    def save(figure: Figure, path: PathArg) -> Path:
        """Write ``figure`` to ``path`` (a Path or a str) as PNG, SVG or PDF by its suffix; return
        the path. Raises ParameterError for another suffix, a folder that does not exist (it is
        not made) or a path that cannot be written."""
        from kg import plots

        return plots.save(figure, path)


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

    def read_only(
        self, statement: LiteralString, params: Mapping[str, Any] | None = None
    ) -> list[Row]:
        """Run a user's ``statement`` in a READ transaction, once its plan shows it calls only
        READ_PROCEDURES (``check_plan``); return its rows as dicts.

        Raises ParameterError for a statement that calls another procedure, runs Cypher from a
        string or terminates transactions, and QueryFailed when Neo4j refuses it (any write).
        """
        return run_read_only(self, statement, params)

    def resolve(self, ref: str) -> PaperSummary:
        """Return the one paper ``ref`` names.

        Raises AmbiguousReference (an AmbiguousPaper) listing the candidates when several match,
        UnknownReference (a PaperNotFound) suggesting near titles when none does, and
        ParameterError for an empty ref.
        """
        return refs.resolve(self, ref)

    def paper(
        self,
        ref: str,
        *,
        limit: int | None = None,
        references_offset: int = 0,
        citers_offset: int = 0,
    ) -> PaperReport:
        """Return the map page of the paper ``ref`` names, rebuilt from the graph: graph counts
        beside stated ones, the citing-papers histogram both ways, references and citers sorted
        by cited-by (ties: the most cited in the graph first). Each list holds at most ``limit``
        papers (None: all) after skipping its first ``references_offset`` or ``citers_offset``;
        ``builds_on`` and ``cited_by_in_map`` count the whole lists. Raises PaperNotFound or
        AmbiguousPaper for a bad REF, ParameterError for a limit below 1 or an offset below 0."""
        return questions.paper_report(
            self, ref, limit=limit, references_offset=references_offset, citers_offset=citers_offset
        )

    def cocited(
        self, ref: str, limit: int = questions.DEFAULT_LIMIT, *, offset: int = 0
    ) -> Similarity:
        """Return the papers most often cited together with ``ref``'s paper, with the shared
        citer count, cosine (Salton) and Jaccard scores: from the stored CO_CITED relationships
        when they are fresh for the paper, else computed live within a path budget (``source``,
        ``capped`` say which); at most ``limit`` after skipping the first ``offset`` of the
        ranking. Raises PaperNotFound, AmbiguousPaper or ParameterError (limit below 1, offset
        below 0)."""
        return questions.cocited(self, ref, limit, offset=offset)

    def coupled(
        self, ref: str, limit: int = questions.DEFAULT_LIMIT, *, offset: int = 0
    ) -> Similarity:
        """Return the papers sharing the most references with ``ref``'s paper (bibliographic
        coupling), with cosine and Jaccard over reference sets: from the stored COUPLED
        relationships when fresh, else live within a path budget, as ``cocited``; at most
        ``limit`` after skipping the first ``offset``. Raises PaperNotFound, AmbiguousPaper or
        ParameterError (limit below 1, offset below 0)."""
        return questions.coupled(self, ref, limit, offset=offset)

    def shared_references(self, a: str, b: str) -> Overlap:
        """Return the papers both ``a`` and ``b`` cite, most cited first.
        Raises PaperNotFound or AmbiguousPaper for a bad REF, ParameterError when both name the
        same paper."""
        return questions.shared_references(self, a, b)

    def common_citers(self, a: str, b: str) -> Overlap:
        """Return the papers that cite both ``a`` and ``b``, most cited first.
        Raises PaperNotFound or AmbiguousPaper for a bad REF, ParameterError when both name the
        same paper."""
        return questions.common_citers(self, a, b)

    def path(
        self,
        source: str,
        target: str,
        *,
        directed: bool = True,
        all_paths: bool = False,
        max_hops: int = questions.DEFAULT_MAX_HOPS,
    ) -> PathResult:
        """Return the shortest citation path from ``source`` to ``target`` (all of them with
        ``all_paths``), following CITES forward, or either way unless ``directed``. No path
        within ``max_hops`` is a result with ``found`` False. Raises PaperNotFound,
        AmbiguousPaper, or ParameterError when max_hops is not from 1 to 30."""
        return questions.citation_path(
            self, source, target, directed=directed, all_paths=all_paths, max_hops=max_hops
        )

    def near(self, ref: str, hops: int = 2, limit: int = 50, *, offset: int = 0) -> Neighbourhood:
        """Return the papers within ``hops`` citation hops of ``ref``'s paper (either direction,
        1 to 3 hops), nearest first and, at one distance, the most cited in the map first (then
        by key): at most ``limit`` of them after skipping the first ``offset``. Raises
        PaperNotFound, AmbiguousPaper or ParameterError."""
        return questions.neighbourhood(self, ref, hops, limit, offset=offset)

    def graph_data(
        self, ref: str, layer: GraphLayer = "citations", hops: int = 1, limit: int | None = None
    ) -> GraphData:
        """Return one ``layer`` of ``ref``'s paper's graph as nodes and edges: ``citations``
        (its ``limit`` most cited papers within ``hops`` citation hops, either way, and the
        citations among them), ``cocited`` or ``coupled`` (its top ``limit`` papers by
        co-citation or coupling and the links among them, heaviest first). ``limit`` defaults
        to 30 for citations, 20 for the others. Raises PaperNotFound, AmbiguousPaper or
        ParameterError (another layer, hops not from 1 to 3, a limit below 1)."""
        return questions.graph_data(self, ref, layer, hops, limit)

    def search(
        self,
        text: str,
        limit: int = questions.DEFAULT_LIMIT,
        *,
        mode: SearchMode = "text",
        offset: int = 0,
        year_from: int | None = None,
        year_to: int | None = None,
        category: str | None = None,
        embedder: Embedder | None = None,
    ) -> SearchResult:
        """Return the papers ``text`` finds, best first, at most ``limit`` after skipping the
        first ``offset`` of the ranking, within the years and the category (primary or
        cross-listed) when given; each with its first authors, year and citations in the map.

        ``mode="text"`` (the default): the papers the text names exactly (key, arXiv id or
        normalised title; score None; only without a filter) followed by full-text title
        matches ranked by relevance times importance (see the module's docstring; ``total``
        counts the ranking). ``"semantic"``: the papers nearest in meaning (the vector index
        over `kg embed`'s vectors), scored by cosine similarity. ``"hybrid"``: meaning, title
        words and importance together (kg.questions.retrievers). A search by words uses the
        first MAX_SEARCH_WORDS words of ``text`` (the note says so). Raises ParameterError for
        empty text, text that is not valid (a lone surrogate), a bad limit, offset, mode or
        filter; EmbeddingUnavailable when a search by meaning has no model or no vectors."""
        return questions.search(
            self,
            text,
            limit,
            mode=mode,
            offset=offset,
            year_from=year_from,
            year_to=year_to,
            category=category,
            embedder=embedder,
        )

    def similar_by_text(self, ref: str, limit: int = questions.DEFAULT_LIMIT) -> TextNeighbours:
        """Return the papers nearest in meaning to the paper ``ref`` names, by the vectors
        stored (by `kg embed`, or brought from a file), best first. Raises PaperNotFound or
        AmbiguousPaper for a bad REF, ParameterError for a limit below 1, EmbeddingUnavailable
        when there is no index."""
        return retrievers.like_this(self, ref, limit)

    def embed(
        self,
        *,
        embedder: Embedder | None = None,
        batch_size: int = EMBED_MODEL_BATCH,
        on_progress: Callable[[int, int, int], None] | None = None,
    ) -> EmbedReport:
        """Embed every titled paper whose text (or model) changed since its vector was stored,
        store the vectors and create the vector index (built again whole after a run that
        embedded most papers). ``on_progress(checked, total, embedded)`` is called after each
        batch: papers checked of the titled ones, and papers embedded so far. Returns an
        EmbedReport. Raises EmbeddingUnavailable when the model is not installed,
        ParameterError for a bad batch size."""
        return embed_papers(self, embedder=embedder, batch_size=batch_size, on_progress=on_progress)

    def load_vectors(
        self,
        path: Path,
        *,
        model: str | None = None,
        replace: bool = False,
        batch_size: int = VECTOR_FILE_BATCH,
        on_progress: Callable[[int], None] | None = None,
    ) -> VectorFileReport:
        """Store the vectors of a file the user brings on the papers they name, and create the
        vector index for their dimension. ``on_progress(rows)`` is called after each batch.
        Returns a VectorFileReport. Raises SourceError when the file cannot be read,
        ParameterError for a bad batch size or when the map holds another model's vectors and
        ``replace`` is not set."""
        return load_vectors(
            self,
            path,
            model=model,
            replace=replace,
            batch_size=batch_size,
            on_progress=on_progress,
        )

    def author(self, name: str, *, limit: int | None = None, offset: int = 0) -> AuthorReport:
        """Return the papers, co-authors and in-map citation totals of the author ``name`` names:
        the one with that strong id (``orcid:…`` or an orcid.org URL, ``openalex:A…``, ``s2:…``),
        else the one with that normalised name (among its spellings, for an author keyed by an
        id; several such are ambiguous), else the only one whose name holds all its words.
        The papers are newest first, then the most cited in the map: at most ``limit`` (None:
        all) after skipping the first ``offset`` (``paper_count`` counts them all).
        Raises AuthorNotFound, AmbiguousAuthor, or ParameterError for an empty name, a limit
        below 1 or an offset below 0."""
        return questions.author(self, name, limit=limit, offset=offset)

    def category(self, code: str, limit: int = 50, *, offset: int = 0) -> CategoryReport:
        """Return a category's paper counts and its papers, most cited in the map first (then
        by key), at most ``limit`` after skipping the first ``offset``. The code matches
        case-insensitively for categories the taxonomy knows. Raises CategoryNotFound, or
        ParameterError for a limit below 1 or an offset below 0."""
        return questions.category(self, code, limit, offset=offset)

    def categories(self) -> CategoryOverview:
        """Return papers per category and the cross-listing matrix (how often papers with
        primary category X are cross-listed in Y)."""
        return questions.categories(self)

    def overview(self, top: int = 10, loads: int = 10) -> MapOverview:
        """Return the map's counts (papers, stubs, citations, authors, snapshots) and newest data
        date, its ``top`` most cited papers in the map and ``top`` most central by the stored
        PageRank (none before `kg rank pagerank --write`), every category with papers, and the
        ``loads`` snapshots with the newest data. Raises ParameterError for a top or loads below
        1."""
        return questions.overview(self, top, loads)

    def snapshots(self, ref: str) -> PaperSnapshots:
        """Return the snapshots that describe ``ref``'s paper, oldest data first, with the counts
        each one stated. Raises PaperNotFound or AmbiguousPaper for a bad REF."""
        return questions.snapshots(self, ref)

    def sources(self, ref: str, examples: int = DEFAULT_EXAMPLES) -> PaperSources:
        """Return what each source says of ``ref``'s paper beside what the graph holds: every
        snapshot that describes it or asserts a citation of or by it (oldest data first) with
        the reference and cited-by counts it states and the CITES it asserts, the graph's own
        counts, the references one kind of source names and another lacks, and the stubs each
        source names; each list of papers shows its first ``examples`` (0 to 1000), most cited
        in the graph first. Raises PaperNotFound or AmbiguousPaper for a bad REF and
        ParameterError for a bad ``examples``."""
        return questions.sources(self, ref, examples)

    # The multi-seed questions take the seeds as arguments, graph.recommend(A, B, C), where
    # the functions take a list.
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

    # graph.analytics.similar, here too: it stores the lists cocited and coupled read.
    def similar(
        self,
        *,
        k: int = similarity.DEFAULT_K,
        write: bool = False,
        batch_size: int = similarity.SIMILARITY_WRITE_BATCH,
        measures: Sequence[Measure] = similarity.MEASURES,
        force: bool = False,
        writers: int = similarity.DEFAULT_WRITERS,
    ) -> SimilarityRun:
        """Compute every paper's top ``k`` co-cited and coupled papers over the whole citation
        graph; with ``write`` replace the stored CO_CITED / COUPLED relationships and record
        the run (AnalyticsRun ``co_cited`` and ``coupled``).

        With ``write``, when the stored runs keep ``k`` papers and no load has stamped a paper
        since they read the graph (similar_unchanged.cypher), the stored lists are what this run
        would write: nothing is read, computed or written, and the answer says so
        (``unchanged``). ``force`` computes and compares anyway. ``writers`` transactions write
        at once, each its own papers' lists.

        Raises ParameterError for a bad option and the graph's errors when Neo4j fails.
        """
        return similarity.run_similarity(
            self,
            k=k,
            write=write,
            batch_size=batch_size,
            measures=measures,
            force=force,
            writers=writers,
        )

    def load(
        self,
        paths: Iterable[PathArg] | PathArg,
        *,
        fmt: FormatChoice = "auto",
        rejects_path: PathArg = Path("kg-load.rejects.jsonl"),
        on_file: Callable[[Path], None] | None = None,
        force: bool = False,
        keep_apart: PathArg | None = None,
        since: PathArg | None = None,
        **options: Unpack[StreamOptions],
    ) -> LoadSummary:
        """Load every file of ``paths`` into ``graph`` and return what happened.

        ``options`` are the StreamOptions (batch_size, strict, id_scheme, on_progress,
        keep_messages), by keyword. The schema is read first and applied only when a constraint
        or index is missing (``ensure_schema``). Bad records go to
        ``rejects_path`` (created only when there is one) and the rest still load; with
        ``strict`` the first bad record raises RecordRejected. A file found in a folder that
        cannot be read or recognised is counted as failed (``LoadSummary.failed``) and the
        others load. ``on_file`` is called as each file starts, ``on_progress`` with each record
        read. A file whose exact content this loader version loaded whole before is skipped
        (``FileSummary.unchanged``), unless ``force``.

        ``keep_apart`` names a file of splits (``kg merges --kept-apart --json``), recorded
        before anything loads, so the identity rule keeps those keys apart as after ``unmerge``;
        such keys that merged before are taken apart (counted as ``moved``).

        ``since`` names an older snapshot of the one file in ``paths``, loaded whole before: an
        incremental load writes only the records that changed since it
        (``kg.load.changes``; ``FileSummary.carried`` counts the others).

        Raises SourceError before anything loads for a missing path, a named file whose format
        cannot be told (with ``strict``: for any file that cannot be read), a ``keep_apart``
        file that is not a list of splits or a ``since`` that cannot be used, and
        LoadInterrupted when Neo4j fails mid-load.
        """
        from kg.load import pipeline

        return pipeline.load_paths(
            self,
            paths,
            fmt=fmt,
            rejects_path=rejects_path,
            on_file=on_file,
            force=force,
            keep_apart=keep_apart,
            since=since,
            **options,
        )

    # A bulk load builds an empty local database offline, with the server stopped: it needs
    # the settings, not an open connection.
    @staticmethod
    def bulk_load(
        paths: Iterable[PathArg] | PathArg,
        *,
        settings: LocalSettings | None = None,
        database: str | None = None,
        fmt: FormatChoice = "auto",
        rejects_path: PathArg = Path("kg-load.rejects.jsonl"),
        workdir: PathArg | None = None,
        keep_csv: bool = False,
        timeout: float = 300.0,
        on_stage: Callable[[str], None] | None = None,
        keep_apart: PathArg | None = None,
        **options: Unpack[StreamOptions],
    ) -> BulkSummary:
        """Load ``paths`` into the empty database of the local server with neo4j-admin import.

        Gives the graph ``kg.load.pipeline.load_paths`` gives for the same files, order and
        batch size; ``options`` are its StreamOptions (batch_size, strict, id_scheme, on_progress,
        keep_messages), by keyword. The server is stopped while the files are parsed and
        imported, then left running (when parsing fails it is started again if it was running).
        Scratch files go to a temporary folder in ``workdir`` (default: $KG_HOME/bulk), removed
        afterwards unless ``keep_csv``.

        Raises ConfigError when NEO4J_URI is set, ServerError when the local server is not
        installed or the import fails, NotEmptyError when the database holds a node,
        SourceError for unreadable input and RecordRejected (with ``strict``) for a bad record.
        ``on_stage`` is called with each stage's description (STAGE_NAMES) as it begins.
        ``keep_apart`` names a file of splits (``kg merges --kept-apart --json``), recorded in
        the new database before the online writer runs: a rebuild keeps the splits users made.
        """
        from kg.load import bulk

        return bulk.bulk_load(
            paths,
            settings=settings,
            database=database,
            fmt=fmt,
            rejects_path=rejects_path,
            workdir=workdir,
            keep_csv=keep_csv,
            timeout=timeout,
            on_stage=on_stage,
            keep_apart=keep_apart,
            **options,
        )

    @staticmethod
    def expand_paths(paths: list[Path]) -> list[Path]:
        """Return the input files: files as given, folders expanded in name order.

        The .abs files of a folder are one input, the folder (see ``input_files``). README files
        and hidden files are skipped. Raises SourceError for a path that does not exist.
        """
        from kg.load import pipeline

        return pipeline.expand_paths(paths)

    def merges(
        self, ref: str | None = None, limit: int = 100, *, contested: bool = False
    ) -> list[MergeRecord]:
        """Return the merge records: every paper that absorbed other keys (or ``ref``'s only).

        Each names what speaks against it: the other arXiv papers that contest its title
        (``MergeRecord.contested_by``) and the pages that list two of its keys apart
        (``listed_apart``). With ``contested``, only the merges something speaks against, and
        the papers a strong id names along with another (``shared_ids``: two arXiv papers that
        share a DOI, say, which the rule keeps apart), merged or not.
        """
        from kg.load import merges

        return merges.merges(self, ref, limit, contested=contested)

    def kept_apart(self, ref: str | None = None) -> list[KeptApart]:
        """Return the splits users made, newest first; with ``ref``, those that name its key
        (split from it, or keeping it apart). ``ref`` is a key as ``kg.refs.key_written`` reads
        it, else a paper reference, which must name a paper in the graph."""
        from kg.load import merges

        return merges.kept_apart(self, ref)

    def unmerge(
        self,
        ref: str,
        aliases: list[str] | None = None,
        *,
        dry_run: bool = False,
        wait: float = float(LOAD_TTL),
    ) -> UnmergeResult:
        """Split keys off the paper ``ref`` names and keep them apart on every later load.

        ``aliases`` are the keys to split off, each a key or the handle lists show for it
        (``kg.refs.handle_names``). Without them, a ``ref`` that names a key merged into the
        paper (an alias) splits that key only; any other ``ref`` splits every key the paper
        absorbed. The merged paper is removed; the result lists the sources that name it,
        whose reload writes each key as its own paper. With ``dry_run``, nothing changes: the
        result says what would be split (``removed`` False), for a caller to ask first.

        An unmerge runs alone: it waits up to ``wait`` seconds for the loads writing the graph
        to end (and a load started meanwhile waits for it; ``kg.load.leases``), so the graph is
        the one of the unmerge before or after each load, never a mix of both.

        Raises ParameterError when the paper absorbed no key, or not one of ``aliases``, and
        GraphBusy when loads still run after ``wait`` seconds.
        """
        from kg.load import merges

        return merges.unmerge(self, ref, aliases, dry_run=dry_run, wait=wait)

    def apply_schema(self) -> SchemaReport:
        """Apply every statement of cypher/schema.cypher (all IF NOT EXISTS) and wait for the
        indexes to come online. Returns which names were created and which existed.

        Each statement is an auto-commit transaction (schema commands cannot run in a managed
        one), retried on transient errors: repeating an IF NOT EXISTS is harmless.
        """
        return schema.apply_schema(self)

    def clear(self, batch_size: int = 10000) -> int:
        """Delete every relationship, then every node, in batches; the schema stays.

        Relationships go first so that no transaction holds a dense node's whole neighbourhood:
        the memory a batch needs stays bounded however connected the graph is.
        Returns the number of nodes deleted; raises ParameterError for a batch size below 1.
        """
        return schema.clear_database(self, batch_size)

    def is_empty(self) -> bool:
        """Return True when the database holds no node."""
        return schema.is_empty(self)
