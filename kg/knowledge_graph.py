"""KnowledgeGraph: the one face of the library, a Database with the map's questions, loads,
analytics and exports.

Each method runs one function of ``kg.questions`` on this connection and returns its typed
model, so a script can ask questions without touching Cypher:

    with KnowledgeGraph.connect() as kg:
        report = kg.paper("2110.03888")
        print(report.cited_by_in_map, report.stated_cited_by_in_map)
"""

from __future__ import annotations

from pathlib import Path

from kg import analytics, export, questions
from kg import refs as papers
from kg.analytics import similarity
from kg.analytics import time as timeline_analytics
from kg.answers import (
    AuthorReport,
    CategoryOverview,
    CategoryReport,
    ConnectResult,
    Neighbourhood,
    Overlap,
    PaperReport,
    PaperSnapshots,
    PaperSummary,
    PathResult,
    RecommendResult,
    SearchResult,
    Similarity,
)
from kg.database import Database
from kg.load import merges as merge_records
from kg.load.merges import MergeRecord, UnmergeResult
from kg.questions import seeds as seed_questions


class Analytics:
    """The analytics of one KnowledgeGraph: ``graph.analytics.rank("pagerank")``.

    Each method is the function of ``kg.analytics`` with this graph bound; see there for
    the options.
    """

    def __init__(self, graph: Database) -> None:
        self._graph = graph

    def rank(
        self,
        algorithm: analytics.Algorithm,
        *,
        scope: analytics.Scope | None = None,
        engine: analytics.Engine = "auto",
        options: analytics.RankOptions | None = None,
        top: int = 10,
        write: bool = False,
    ) -> analytics.RankResult:
        """Rank the papers by ``algorithm`` (see kg.analytics.rank)."""
        return analytics.rank(
            self._graph,
            algorithm,
            scope=scope,
            engine=engine,
            options=options,
            top=top,
            write=write,
        )

    def communities(
        self,
        *,
        scope: analytics.Scope | None = None,
        engine: analytics.Engine = "auto",
        method: analytics.CommunityMethod = "leiden",
        seed: int = 42,
        top: int = 10,
        write: bool = False,
    ) -> analytics.CommunityResult:
        """Partition the papers into communities (see kg.analytics.communities)."""
        return analytics.communities(
            self._graph, scope=scope, engine=engine, method=method, seed=seed, top=top, write=write
        )

    def bursts(
        self,
        *,
        scope: analytics.Scope | None = None,
        since: int | None = None,
        limit: int = 20,
        write: bool = False,
    ) -> timeline_analytics.BurstResult:
        """List citation bursts, strongest first (see kg.analytics.time.bursts)."""
        return timeline_analytics.bursts(
            self._graph, scope=scope, since=since, limit=limit, write=write
        )

    def beauties(
        self,
        *,
        scope: analytics.Scope | None = None,
        min_citations: int = 10,
        limit: int = 20,
        write: bool = False,
    ) -> timeline_analytics.BeautyResult:
        """List sleeping beauties by beauty coefficient (see
        kg.analytics.time.sleeping_beauties)."""
        return timeline_analytics.sleeping_beauties(
            self._graph, scope=scope, min_citations=min_citations, limit=limit, write=write
        )

    def traction(
        self,
        *,
        scope: analytics.Scope | None = None,
        as_of: int | None = None,
        window: int = 3,
        limit: int = 20,
        write: bool = False,
    ) -> timeline_analytics.TractionResult:
        """List papers gaining traction (see kg.analytics.time.traction)."""
        return timeline_analytics.traction(
            self._graph, scope=scope, as_of=as_of, window=window, limit=limit, write=write
        )

    def main_path(
        self,
        *,
        scope: analytics.Scope | None = None,
        key_routes: int = timeline_analytics.DEFAULT_KEY_ROUTES,
        write: bool = False,
    ) -> timeline_analytics.MainPathResult:
        """Return the global and key-route main paths (see kg.analytics.time.main_path)."""
        return timeline_analytics.main_path(
            self._graph, scope=scope, key_routes=key_routes, write=write
        )


class KnowledgeGraph(Database):
    """A Database that answers the map's questions; open it with ``KnowledgeGraph.connect()``."""

    def export(
        self, fmt: str, path: Path, selection: export.Selection | None = None
    ) -> export.ExportSummary:
        """Write the selected papers and their citations to ``path`` in ``fmt`` (a key of
        kg.export.FORMATS); see kg.export.export."""
        return export.export(self, fmt, path, selection)

    @property
    def analytics(self) -> Analytics:
        """Ranking and communities over this graph: ``graph.analytics.rank("pagerank")``."""
        return Analytics(self)

    def resolve(self, ref: str) -> PaperSummary:
        """Return the paper ``ref`` names (node key, arXiv id or title).
        Raises PaperNotFound (with near titles) or AmbiguousPaper (with candidates)."""
        return papers.resolve(self, ref)

    def paper(self, ref: str) -> PaperReport:
        """Return the paper's map page rebuilt from the graph (see questions.paper_report)."""
        return questions.paper_report(self, ref)

    def cocited(self, ref: str, limit: int = questions.DEFAULT_LIMIT) -> Similarity:
        """Return the papers most often cited together with the paper (co-citation)."""
        return questions.cocited(self, ref, limit)

    def coupled(self, ref: str, limit: int = questions.DEFAULT_LIMIT) -> Similarity:
        """Return the papers sharing the most references with the paper (coupling)."""
        return questions.coupled(self, ref, limit)

    def shared_references(self, a: str, b: str) -> Overlap:
        """Return the papers both ``a`` and ``b`` cite."""
        return questions.shared_references(self, a, b)

    def common_citers(self, a: str, b: str) -> Overlap:
        """Return the papers citing both ``a`` and ``b``."""
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
        """Return the shortest citation path(s) from ``source`` to ``target`` within
        ``max_hops``; ``found`` is False when there is none."""
        return questions.citation_path(
            self, source, target, directed=directed, all_paths=all_paths, max_hops=max_hops
        )

    def near(self, ref: str, hops: int = 2, limit: int = 50) -> Neighbourhood:
        """Return the papers within ``hops`` (1 to 3) citation hops, nearest first."""
        return questions.neighbourhood(self, ref, hops, limit)

    def search(self, text: str, limit: int = questions.DEFAULT_LIMIT) -> SearchResult:
        """Return papers named exactly by ``text``, then full-text title matches."""
        return questions.search(self, text, limit)

    def author(self, name: str) -> AuthorReport:
        """Return an author's papers, co-authors and citation totals within the map."""
        return questions.author(self, name)

    def category(self, code: str, limit: int = 50) -> CategoryReport:
        """Return a category's paper counts and its most cited papers."""
        return questions.category(self, code, limit)

    def categories(self) -> CategoryOverview:
        """Return papers per category and the cross-listing matrix."""
        return questions.categories(self)

    def snapshots(self, ref: str) -> PaperSnapshots:
        """Return the snapshots describing the paper with the counts each stated."""
        return questions.snapshots(self, ref)

    def merges(self, ref: str | None = None, limit: int = 100) -> list[MergeRecord]:
        """Return the merge records (see kg.load.merges.merges): papers that absorbed other keys."""
        return merge_records.merges(self, ref, limit)

    def unmerge(self, ref: str, aliases: list[str] | None = None) -> UnmergeResult:
        """Split keys off a merged paper and keep them apart on every later load (see
        kg.load.merges.unmerge); reload the sources the result lists to rebuild them."""
        return merge_records.unmerge(self, ref, aliases)

    def similar(
        self, *, k: int = similarity.DEFAULT_K, write: bool = False
    ) -> similarity.SimilarityRun:
        """Compute every paper's top ``k`` co-cited and coupled papers; with ``write`` store
        them as CO_CITED / COUPLED relationships, which cocited and coupled then read while
        fresh (see kg.analytics.similarity.run_similarity)."""
        return similarity.run_similarity(self, k=k, write=write)

    def connector(
        self, *refs: str, max_hops: int = seed_questions.DEFAULT_CONNECT_HOPS, limit: int = 20
    ) -> ConnectResult:
        """Return the papers on the shortest citation paths between the seed papers, ranked
        by PageRank among them, with the paths (see kg.questions.seeds.connect)."""
        return seed_questions.connect(self, list(refs), max_hops=max_hops, limit=limit)

    def recommend(self, *refs: str, limit: int = 20) -> RecommendResult:
        """Return the papers most related to the seeds by co-citation, coupling and direct
        citations, each with its reasons (see kg.questions.seeds.recommend)."""
        return seed_questions.recommend(self, list(refs), limit=limit)
