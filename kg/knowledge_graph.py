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
``kg.export`` or ``kg.plots`` with this graph as its first argument. Each is written out
with that function's parameters, so that editors and mypy read them, and declares their
defaults: the function takes the same parameters without defaults (the analytics, search,
the vectors, the pictures, graph JSON), so a default is written once, here, and the CLI
reads its own from these signatures. A method takes its docstring from the function
(``_documented_by``). The pictures (matplotlib, igraph) and the load wing (its parsers, the
import tool's sink) are imported inside the methods that use them, so a question loads
neither: their docstrings cannot be read when the class is built, so they live on the
methods here and the functions name the method. tests/unit/test_face_help.py checks that
each pair agrees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, LiteralString, Self, TypeVar

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
    from kg.load.pipeline import FormatChoice
    from kg.paths import PathArg
    from kg.questions.find import SearchMode
    from kg.server.config import LocalSettings
    from loaders.formats import IdScheme

__all__ = [
    "LOAD_BATCH",
    "STAGE_MEMORY",
    "Analytics",
    "Exports",
    "KnowledgeGraph",
    "Plots",
    "parse_years",
]

LOAD_BATCH: Final = 2000
"""Records per write transaction of a load, online or bulk (``batch_size``)."""
KEEP_MESSAGES: Final = 20
"""How many reject messages a load's summary keeps to show (``keep_messages``)."""
STAGE_MEMORY: Final = "512MB"
"""Bulk mode's staging store (DuckDB) memory, past which it spills to disk
(``stage_memory``): half the loader's budget of 1 GiB, as the loader's own Python (parsers,
rows, batches) takes 250 to 400 MB beside it (docs/BENCHMARKS.md, "Ingest")."""

_Method = TypeVar("_Method", bound=Callable[..., object])


def _documented_by(function: Callable[..., object]) -> Callable[[_Method], _Method]:
    """Return a decorator that gives a method of the face the docstring of ``function``, the
    library function it calls, so that help() shows it and it is written once.

    The decorator raises TypeError for a method that has a docstring of its own: two copies
    would drift.
    """

    def document(method: _Method) -> _Method:
        if method.__doc__ is not None:
            raise TypeError(f"{method.__qualname__}: the docstring belongs to the function only")
        method.__doc__ = function.__doc__
        return method

    return document


class _Part:
    """A part of the face (``graph.analytics``, ``graph.exports``): the graph it works on."""

    def __init__(self, graph: KnowledgeGraph) -> None:
        self.graph = graph


class Analytics(_Part):
    """Whole-map analytics of one graph: ``graph.analytics.rank("pagerank")``; see
    ``kg.analytics`` (ranking, communities), ``kg.analytics.similarity`` and
    ``kg.analytics.time`` for what each computes and stores with ``write=True``."""

    @_documented_by(ranking.rank)
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

    @_documented_by(ranking.communities)
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

    @_documented_by(ranking.analytics_runs)
    def runs(self) -> list[AnalyticsRun]:
        return ranking.analytics_runs(self.graph)

    @_documented_by(similarity.run_similarity)
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
        return similarity.run_similarity(
            self.graph,
            k=k,
            write=write,
            batch_size=batch_size,
            measures=measures,
            force=force,
            writers=writers,
        )

    @_documented_by(similarity.stored_runs)
    def similarity_runs(self) -> list[StoredRun]:
        return similarity.stored_runs(self.graph)

    @_documented_by(time.bursts)
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

    @_documented_by(time.sleeping_beauties)
    def beauties(
        self,
        *,
        scope: Scope | None = None,
        min_citations: int = 10,
        limit: int = 20,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> BeautyResult:
        return time.sleeping_beauties(
            self.graph,
            scope=scope,
            min_citations=min_citations,
            limit=limit,
            write=write,
            batch_size=batch_size,
        )

    @_documented_by(time.traction)
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

    @_documented_by(time.main_path)
    def main_path(
        self,
        *,
        scope: Scope | None = None,
        key_routes: int = time.DEFAULT_KEY_ROUTES,
        write: bool = False,
        batch_size: int = WRITE_BACK_BATCH,
    ) -> MainPathResult:
        return time.main_path(
            self.graph, scope=scope, key_routes=key_routes, write=write, batch_size=batch_size
        )


class Exports(_Part):
    """Papers and their citations for other tools: ``graph.exports.write("gexf", path)``;
    ``FORMATS`` maps each format to its writer (see ``kg.export``)."""

    FORMATS = export.FORMATS

    @_documented_by(export.export)
    def write(self, fmt: str, path: PathArg, selection: Selection | None = None) -> ExportSummary:
        return export.export(self.graph, fmt, path, selection)

    @_documented_by(export.select_keys)
    def select_keys(self, selection: Selection | None) -> list[str] | None:
        return export.select_keys(self.graph, selection)

    @_documented_by(export.papers)
    def papers(self, keys: list[str] | None) -> Iterator[ExportedPaper]:
        return export.papers(self.graph, keys)

    @_documented_by(export.citations)
    def citations(self, keys: list[str] | None) -> Iterator[tuple[str, str]]:
        return export.citations(self.graph, keys)

    @_documented_by(export.export_graph_json)
    def graph_json(
        self,
        ref: str,
        path: PathArg,
        layer: GraphLayer = "citations",
        hops: int = 1,
        limit: int | None = None,
    ) -> ExportSummary:
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

    @_documented_by(run_read_only)
    def read_only(
        self, statement: LiteralString, params: Mapping[str, Any] | None = None
    ) -> list[Row]:
        return run_read_only(self, statement, params)

    @_documented_by(refs.resolve)
    def resolve(self, ref: str) -> PaperSummary:
        return refs.resolve(self, ref)

    @_documented_by(questions.paper_report)
    def paper(
        self,
        ref: str,
        *,
        limit: int | None = None,
        references_offset: int = 0,
        citers_offset: int = 0,
    ) -> PaperReport:
        return questions.paper_report(
            self, ref, limit=limit, references_offset=references_offset, citers_offset=citers_offset
        )

    @_documented_by(questions.cocited)
    def cocited(
        self, ref: str, limit: int = questions.DEFAULT_LIMIT, *, offset: int = 0
    ) -> Similarity:
        return questions.cocited(self, ref, limit, offset=offset)

    @_documented_by(questions.coupled)
    def coupled(
        self, ref: str, limit: int = questions.DEFAULT_LIMIT, *, offset: int = 0
    ) -> Similarity:
        return questions.coupled(self, ref, limit, offset=offset)

    @_documented_by(questions.shared_references)
    def shared_references(self, a: str, b: str) -> Overlap:
        return questions.shared_references(self, a, b)

    @_documented_by(questions.common_citers)
    def common_citers(self, a: str, b: str) -> Overlap:
        return questions.common_citers(self, a, b)

    @_documented_by(questions.citation_path)
    def path(
        self,
        source: str,
        target: str,
        *,
        directed: bool = True,
        all_paths: bool = False,
        max_hops: int = questions.DEFAULT_MAX_HOPS,
    ) -> PathResult:
        return questions.citation_path(
            self, source, target, directed=directed, all_paths=all_paths, max_hops=max_hops
        )

    @_documented_by(questions.neighbourhood)
    def near(self, ref: str, hops: int = 2, limit: int = 50, *, offset: int = 0) -> Neighbourhood:
        return questions.neighbourhood(self, ref, hops, limit, offset=offset)

    @_documented_by(questions.graph_data)
    def graph_data(
        self, ref: str, layer: GraphLayer = "citations", hops: int = 1, limit: int | None = None
    ) -> GraphData:
        return questions.graph_data(self, ref, layer, hops, limit)

    @_documented_by(questions.search)
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

    @_documented_by(retrievers.like_this)
    def similar_by_text(self, ref: str, limit: int = questions.DEFAULT_LIMIT) -> TextNeighbours:
        return retrievers.like_this(self, ref, limit)

    @_documented_by(embed_papers)
    def embed(
        self,
        *,
        embedder: Embedder | None = None,
        batch_size: int = EMBED_MODEL_BATCH,
        on_progress: Callable[[int, int, int], None] | None = None,
    ) -> EmbedReport:
        return embed_papers(self, embedder=embedder, batch_size=batch_size, on_progress=on_progress)

    @_documented_by(load_vectors)
    def load_vectors(
        self,
        path: Path,
        *,
        model: str | None = None,
        replace: bool = False,
        batch_size: int = VECTOR_FILE_BATCH,
        on_progress: Callable[[int], None] | None = None,
    ) -> VectorFileReport:
        return load_vectors(
            self,
            path,
            model=model,
            replace=replace,
            batch_size=batch_size,
            on_progress=on_progress,
        )

    @_documented_by(questions.author)
    def author(self, name: str, *, limit: int | None = None, offset: int = 0) -> AuthorReport:
        return questions.author(self, name, limit=limit, offset=offset)

    @_documented_by(questions.category)
    def category(self, code: str, limit: int = 50, *, offset: int = 0) -> CategoryReport:
        return questions.category(self, code, limit, offset=offset)

    @_documented_by(questions.categories)
    def categories(self) -> CategoryOverview:
        return questions.categories(self)

    @_documented_by(questions.overview)
    def overview(self, top: int = 10, loads: int = 10) -> MapOverview:
        return questions.overview(self, top, loads)

    @_documented_by(questions.snapshots)
    def snapshots(self, ref: str) -> PaperSnapshots:
        return questions.snapshots(self, ref)

    @_documented_by(questions.sources)
    def sources(self, ref: str, examples: int = DEFAULT_EXAMPLES) -> PaperSources:
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

    def load(
        self,
        paths: Iterable[PathArg] | PathArg,
        *,
        fmt: FormatChoice = "auto",
        rejects_path: PathArg = Path("kg-load.rejects.jsonl"),
        batch_size: int = LOAD_BATCH,
        strict: bool = False,
        id_scheme: IdScheme = "arxiv",
        on_progress: Callable[[int], None] | None = None,
        keep_messages: int = KEEP_MESSAGES,
        on_file: Callable[[Path], None] | None = None,
        force: bool = False,
        keep_apart: PathArg | None = None,
        since: PathArg | None = None,
    ) -> LoadSummary:
        """Load every file of ``paths`` into ``graph`` and return what happened.

        The schema is read first and applied only when a constraint or index is missing
        (``ensure_schema``). Records are written ``batch_size`` to a transaction. Bad records
        go to ``rejects_path`` (created only when there is one) and the rest still load; the
        summary keeps the first ``keep_messages`` of their messages. With ``strict`` the first
        bad record raises RecordRejected. ``id_scheme`` says how an edge list's ids read
        (arXiv ids, or SNAP's integers). A file found in a folder that cannot be read or
        recognised is counted as failed (``LoadSummary.failed``) and the others load.
        ``on_file`` is called as each file starts, ``on_progress`` with each record read. A
        file whose exact content this loader version loaded whole before is skipped
        (``FileSummary.unchanged``), unless ``force``.

        ``keep_apart`` names a file of splits (``kg merges --kept-apart --json``), recorded
        before anything loads, so the identity rule keeps those keys apart as after ``unmerge``;
        such keys that merged before are taken apart (counted as ``moved``).

        ``since`` names an older snapshot of the one file in ``paths``, loaded whole before: an
        incremental load writes only the records that changed since it
        (``kg.load.changes``; ``FileSummary.carried`` counts the others).

        Raises ParameterError for a ``batch_size`` under 1, a negative ``keep_messages`` or an
        unknown ``fmt``, SourceError
        before anything loads for a missing path, a named file whose format cannot be told
        (with ``strict``: for any file that cannot be read), a ``keep_apart`` file that is not
        a list of splits or a ``since`` that cannot be used, and LoadInterrupted when Neo4j
        fails mid-load.
        """
        from kg.load import pipeline

        stream = pipeline.StreamSettings(
            batch_size, strict, id_scheme, on_progress, keep_messages, force, on_file
        )
        request = pipeline.LoadRequest(paths, fmt, rejects_path, keep_apart, since, stream)
        return pipeline.load_paths(self, request)

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
        batch_size: int = LOAD_BATCH,
        workdir: PathArg | None = None,
        keep_csv: bool = False,
        strict: bool = False,
        id_scheme: IdScheme = "arxiv",
        on_progress: Callable[[int], None] | None = None,
        keep_messages: int = KEEP_MESSAGES,
        timeout: float = 300.0,
        on_stage: Callable[[str], None] | None = None,
        keep_apart: PathArg | None = None,
        stage_memory: str = STAGE_MEMORY,
        stage_workers: int | None = None,
    ) -> BulkSummary:
        """Load ``paths`` into the empty database of the local server with neo4j-admin import.

        Gives the graph ``KnowledgeGraph.load`` gives for the same files, order and arguments
        (``fmt``, ``rejects_path``, ``batch_size``, ``strict``, ``id_scheme``, ``on_progress``,
        ``keep_messages``, ``keep_apart`` mean what they mean there). The server is stopped
        while the files are parsed and imported, then left running (when parsing fails it is
        started again if it was running). Scratch files (the staging store, DuckDB held to
        ``stage_memory``, as DuckDB reads a size, past which it spills to disk; the CSVs) go to a
        temporary folder in ``workdir`` (default: $KG_HOME/bulk), removed afterwards unless
        ``keep_csv``. ``settings`` are the local server's (default: $KG_HOME's), ``database``
        the one to build (default: NEO4J_DATABASE, else neo4j), ``timeout`` the seconds to
        wait for the server to stop or start.

        Raises ConfigError when NEO4J_URI is set or ``stage_memory`` is no size (as ``512MB``),
        ServerError when the local server is not installed or the import fails, NotEmptyError
        when the database holds a node, ParameterError as ``load`` does (and for
        ``stage_workers`` under 1), SourceError for unreadable input, RecordRejected (with
        ``strict``) for a bad record and StageWorkerFailed when a worker process of the stage
        stops without its answer. ``on_stage`` is called with each stage's description
        (STAGE_NAMES) as it begins.
        ``keep_apart`` names a file of splits (``kg merges --kept-apart --json``), recorded in
        the new database before the online writer runs: a rebuild keeps the splits users made.
        ``stage_workers`` processes stage the lines of large arXiv snapshot files side by side
        (1: all in this process; default: one a core, at most ``STAGE_WORKERS_MAX`` of
        kg.load.pipeline); the graph is the same for any number.
        """
        from kg.load import bulk, pipeline

        stream = pipeline.StreamSettings(
            batch_size, strict, id_scheme, on_progress, keep_messages, False, None
        )
        load = pipeline.LoadRequest(paths, fmt, rejects_path, keep_apart, None, stream)
        stage = (stage_memory, pipeline.stage_workers(stage_workers))
        request = bulk.BulkRequest(
            load, settings, database, workdir, keep_csv, timeout, on_stage, *stage
        )
        return bulk.bulk_load(request)

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

    @_documented_by(schema.apply_schema)
    def apply_schema(self) -> SchemaReport:
        return schema.apply_schema(self)

    @_documented_by(schema.clear_database)
    def clear(self, batch_size: int = 10000) -> int:
        return schema.clear_database(self, batch_size)

    @_documented_by(schema.is_empty)
    def is_empty(self) -> bool:
        return schema.is_empty(self)
