"""Questions over the map: one function per question, each taking a Database.

Every question runs named, read-only queries from ``cypher/`` (the same files run in Neo4j
Browser after ``:param``) and returns a model from ``kg.answers``. Papers are named by a REF
(see ``kg.refs``); a REF that names no paper, or several, raises before any question runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Final, Literal

from kg import queries
from kg.analytics import similarity
from kg.answers import (
    AuthorReport,
    CategoryCount,
    CategoryOverview,
    CategoryPaper,
    CategoryReport,
    CitationPath,
    CitedPaper,
    CrossListing,
    NearPaper,
    Neighbourhood,
    Overlap,
    PaperReport,
    PaperSnapshots,
    PaperSummary,
    PathResult,
    SearchHit,
    SearchResult,
    Similarity,
    SimilarityBasis,
    SimilarPaper,
    SnapshotLink,
    YearCount,
)
from kg.database import Database
from kg.errors import AmbiguousAuthor, AuthorNotFound, CategoryNotFound, ParameterError
from kg.loaders.identity import normalize_name
from kg.loaders.taxonomy import load_taxonomy
from kg.refs import escape_lucene, lookup, resolve, search_titles

DEFAULT_LIMIT: Final = 20
DEFAULT_MAX_HOPS: Final = 10
MAX_HOPS: Final = 30  # the literal bound `*..30` in the shortest-path queries
MAX_NEAR_HOPS: Final = 3  # the literal bound `*1..3` in neighbourhood.cypher
_AUTHOR_CANDIDATES: Final = 10
# Full-text hits scoring under this share of the best hit's score are cut from a search:
# Lucene scores are only comparable within one query, so the cut is relative.
SEARCH_SCORE_CUTOFF: Final = 0.5
_PATH_QUERIES: Final = {
    (True, False): "questions.shortest_path",
    (False, False): "questions.shortest_path_undirected",
    (True, True): "questions.all_shortest_paths",
    (False, True): "questions.all_shortest_paths_undirected",
}

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_MAX_HOPS",
    "MAX_HOPS",
    "MAX_NEAR_HOPS",
    "SEARCH_SCORE_CUTOFF",
    "AmbiguousAuthor",
    "AuthorNotFound",
    "CategoryNotFound",
    "author",
    "categories",
    "category",
    "citation_path",
    "cocited",
    "common_citers",
    "coupled",
    "neighbourhood",
    "paper_report",
    "search",
    "shared_references",
    "snapshots",
]


def _check_range(name: str, value: int, low: int, high: int | None = None) -> None:
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ParameterError(f"{name} is {value}", f"pass a {name} {bound}")


def _histogram(stated: Mapping[str, list[int]] | None) -> list[YearCount]:
    if not stated:
        return []
    return [
        YearCount(year=year, count=count)
        for year, count in zip(stated["years"], stated["counts"], strict=True)
    ]


def paper_report(graph: Database, ref: str) -> PaperReport:
    """Return the map page of the paper ``ref`` names, rebuilt from the graph: graph counts
    beside stated ones, the citing-papers histogram both ways, references and citers sorted
    by cited-by. Raises PaperNotFound or AmbiguousPaper for a bad REF."""
    key = resolve(graph, ref).key
    row = queries.questions.paper_report.run(graph, key=key)[0]
    abstract, excerpt = row.pop("abstract"), row.pop("abstract_excerpt")
    stated = row.pop("stated_histogram")
    return PaperReport.model_validate(
        {
            **row,
            "abstract": abstract or excerpt,
            "abstract_is_excerpt": not abstract and bool(excerpt),
            "stated_citers_per_year": _histogram(stated),
            "references": queries.questions.paper_references.run(graph, key=key),
            "citers": queries.questions.paper_citers.run(graph, key=key),
        }
    )


def _basis(graph: Database, key: str) -> SimilarityBasis:
    return SimilarityBasis.model_validate(queries.questions.similarity_basis.run(graph, key=key)[0])


def _papers(count: int) -> str:
    return f"{count:,} paper" if count == 1 else f"{count:,} papers"


def _cocited_note(graph: Database, paper: PaperSummary) -> str:
    basis = _basis(graph, paper.key)
    if not basis.citers:
        return f"{paper.handle} has no citers in the graph, so nothing is co-cited with it."
    return (
        f"{paper.handle} has {_papers(basis.citers)} citing it in the graph, none of which "
        "cites another paper in the graph (their references are not loaded), so nothing is "
        "co-cited with it."
    )


def _coupled_note(graph: Database, paper: PaperSummary) -> str:
    basis = _basis(graph, paper.key)
    if not basis.references:
        return (
            f"{paper.handle} cites no paper in the graph (its references are not loaded), "
            "so it shares references with none."
        )
    return (
        f"{paper.handle} cites {_papers(basis.references)} in the graph, none of which "
        "another paper cites, so it shares references with none."
    )


def _similarity(
    graph: Database, ref: str, limit: int, measure: Literal["co-citation", "coupling"]
) -> Similarity:
    _check_range("limit", limit, 1)
    paper = resolve(graph, ref)
    rows, verdict, bound = similarity.similar_rows(graph, paper.key, measure, limit)
    empty_note = _cocited_note if measure == "co-citation" else _coupled_note
    stored = verdict is not None and verdict.fresh
    return Similarity(
        paper=paper,
        measure=measure,
        results=[SimilarPaper.model_validate(row) for row in rows],
        note=None if rows else empty_note(graph, paper),
        source="materialised" if stored else "live",
        computed_at=_iso(verdict.computed_at) if stored and verdict else None,
        stale_reason=verdict.reason if verdict is not None else None,
        capped=bound.capped if bound else False,
        counted=bound.counted if bound else None,
        size_a=bound.size_a if bound else None,
    )


def _iso(value: object) -> str | None:
    if value is None:
        return None
    to_native = getattr(value, "to_native", None)
    native = to_native() if callable(to_native) else value
    isoformat = getattr(native, "isoformat", None)
    return str(isoformat(timespec="seconds")) if callable(isoformat) else str(native)


def cocited(graph: Database, ref: str, limit: int = DEFAULT_LIMIT) -> Similarity:
    """Return the papers most often cited together with ``ref``'s paper, with the shared
    citer count, cosine (Salton) and Jaccard scores: from the stored CO_CITED relationships
    when they are fresh for the paper, else computed live within a path budget (``source``,
    ``capped`` say which). Raises PaperNotFound, AmbiguousPaper or ParameterError (limit
    below 1)."""
    return _similarity(graph, ref, limit, "co-citation")


def coupled(graph: Database, ref: str, limit: int = DEFAULT_LIMIT) -> Similarity:
    """Return the papers sharing the most references with ``ref``'s paper (bibliographic
    coupling), with cosine and Jaccard over reference sets: from the stored COUPLED
    relationships when fresh, else live within a path budget, as ``cocited``. Raises
    PaperNotFound, AmbiguousPaper or ParameterError (limit below 1)."""
    return _similarity(graph, ref, limit, "coupling")


def shared_references(graph: Database, a: str, b: str) -> Overlap:
    """Return the papers both ``a`` and ``b`` cite, most cited first.
    Raises PaperNotFound or AmbiguousPaper for a bad REF."""
    first, second = resolve(graph, a), resolve(graph, b)
    rows = queries.questions.shared_references.run(graph, a=first.key, b=second.key)
    note = None
    if not rows:
        refs_a, refs_b = _basis(graph, first.key).references, _basis(graph, second.key).references
        note = (
            f"{first.handle} cites {_papers(refs_a)} in the graph and {second.handle} cites "
            f"{_papers(refs_b)}; none is cited by both."
        )
    return Overlap(
        a=first,
        b=second,
        relation="shared_references",
        results=[CitedPaper.model_validate(row) for row in rows],
        note=note,
    )


def common_citers(graph: Database, a: str, b: str) -> Overlap:
    """Return the papers that cite both ``a`` and ``b``, most cited first.
    Raises PaperNotFound or AmbiguousPaper for a bad REF."""
    first, second = resolve(graph, a), resolve(graph, b)
    rows = queries.questions.common_citers.run(graph, a=first.key, b=second.key)
    note = None
    if not rows:
        citers_a, citers_b = _basis(graph, first.key).citers, _basis(graph, second.key).citers
        note = (
            f"{_papers(citers_a)} cite {first.handle} in the graph and {_papers(citers_b)} "
            f"cite {second.handle}; none cites both."
        )
    return Overlap(
        a=first,
        b=second,
        relation="common_citers",
        results=[CitedPaper.model_validate(row) for row in rows],
        note=note,
    )


def citation_path(
    graph: Database,
    source: str,
    target: str,
    *,
    directed: bool = True,
    all_paths: bool = False,
    max_hops: int = DEFAULT_MAX_HOPS,
) -> PathResult:
    """Return the shortest citation path from ``source`` to ``target`` (all of them with
    ``all_paths``), following CITES forward, or either way unless ``directed``. No path
    within ``max_hops`` is a result with ``found`` False. Raises PaperNotFound,
    AmbiguousPaper, or ParameterError when max_hops is not from 1 to 30."""
    _check_range("max_hops", max_hops, 1, MAX_HOPS)
    start, end = resolve(graph, source), resolve(graph, target)
    if start.key == end.key:
        paths = [CitationPath(papers=[start], directions=[])]
    else:
        rows = queries.get(_PATH_QUERIES[(directed, all_paths)]).run(
            graph,
            source=start.key,
            target=end.key,
            max_hops=max_hops,
        )
        paths = [CitationPath.model_validate(row) for row in rows]
    return PathResult(
        source=start,
        target=end,
        directed=directed,
        all_paths=all_paths,
        max_hops=max_hops,
        found=bool(paths),
        length=paths[0].length if paths else None,
        results=paths,
    )


def neighbourhood(graph: Database, ref: str, hops: int = 2, limit: int = 50) -> Neighbourhood:
    """Return the papers within ``hops`` citation hops of ``ref``'s paper (either direction,
    1 to 3 hops), nearest first, at most ``limit`` of them. Raises PaperNotFound,
    AmbiguousPaper or ParameterError."""
    _check_range("hops", hops, 1, MAX_NEAR_HOPS)
    _check_range("limit", limit, 1)
    paper = resolve(graph, ref)
    row = queries.questions.neighbourhood.run(graph, key=paper.key, hops=hops, limit=limit)[0]
    return Neighbourhood(
        paper=paper,
        hops=hops,
        limit=limit,
        total=row["total"],
        results=[NearPaper.model_validate(near) for near in row["papers"]],
        note=None if row["total"] else f"{paper.handle} has no citation links in the graph.",
    )


def search(graph: Database, text: str, limit: int = DEFAULT_LIMIT) -> SearchResult:
    """Return the papers ``text`` names exactly (node key, arXiv id or normalised title,
    score None) followed by full-text title matches, best first, at most ``limit``.
    Raises ParameterError for empty text or a limit below 1."""
    _check_range("limit", limit, 1)
    if not text.strip():
        raise ParameterError("the search text is empty", "pass words of a title or an arXiv id")
    exact = [SearchHit.model_validate(p.model_dump()) for p in lookup(graph, text)]
    seen = {hit.key for hit in exact}
    hits = search_titles(graph, escape_lucene(text), limit + len(exact))
    best = max((hit.score or 0.0 for hit in hits), default=0.0)
    fuzzy = [
        hit
        for hit in hits
        if hit.key not in seen and (hit.score or 0.0) >= SEARCH_SCORE_CUTOFF * best
    ]
    results = (exact + fuzzy)[:limit]
    note = None
    if not results:
        note = f"no paper title matches {text!r}; try fewer or other words, or an arXiv id"
    return SearchResult(text=text, results=results, note=note)


def author(graph: Database, name: str) -> AuthorReport:
    """Return the papers, co-authors and in-map citation totals of the author ``name`` names:
    the one with that normalised name, else the only one whose name holds all its words.
    Raises AuthorNotFound, AmbiguousAuthor, or ParameterError for an empty name."""
    key = normalize_name(name)
    if not key:
        raise ParameterError("the author name is empty", "pass a name, e.g. 'Ang Wang'")
    candidates = queries.questions.author_candidates.run(
        graph, name_key=key, words=key.split(), limit=_AUTHOR_CANDIDATES
    )
    if not candidates:
        raise AuthorNotFound(
            f"no author matches {name!r}",
            "check the spelling, or find the paper with `kg search WORDS` and see its authors",
        )
    if not candidates[0]["exact"] and len(candidates) > 1:
        raise AmbiguousAuthor(name, candidates)
    row = queries.questions.author_report.run(graph, key=candidates[0]["key"])[0]
    return AuthorReport.model_validate(row)


@cache
def _known_codes() -> dict[str, str]:
    return {code.casefold(): code for code in load_taxonomy()}


def category(graph: Database, code: str, limit: int = 50) -> CategoryReport:
    """Return a category's paper counts and its papers, most cited in the map first, at most
    ``limit``. The code matches case-insensitively for categories the taxonomy knows.
    Raises CategoryNotFound, or ParameterError for a limit below 1."""
    _check_range("limit", limit, 1)
    canonical = _known_codes().get(code.strip().casefold(), code.strip())
    rows = queries.questions.category_report.run(graph, code=canonical, limit=limit)
    if not rows:
        raise CategoryNotFound(
            f"no category {canonical!r} in the graph",
            "list the categories the graph has with `kg categories`",
        )
    row = rows[0]
    papers = row.pop("papers")
    return CategoryReport.model_validate(
        {**row, "results": [CategoryPaper.model_validate(p) for p in papers]}
    )


def categories(graph: Database) -> CategoryOverview:
    """Return papers per category and the cross-listing matrix (how often papers with
    primary category X are cross-listed in Y)."""
    return CategoryOverview(
        results=[
            CategoryCount.model_validate(r) for r in queries.questions.category_counts.run(graph)
        ],
        cross_listing=[
            CrossListing.model_validate(r) for r in queries.questions.cross_listing.run(graph)
        ],
    )


def snapshots(graph: Database, ref: str) -> PaperSnapshots:
    """Return the snapshots that describe ``ref``'s paper, oldest data first, with the counts
    each one stated. Raises PaperNotFound or AmbiguousPaper for a bad REF."""
    paper = resolve(graph, ref)
    rows = queries.questions.paper_snapshots.run(graph, key=paper.key)
    return PaperSnapshots(paper=paper, results=[SnapshotLink.model_validate(r) for r in rows])
