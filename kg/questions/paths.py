"""Walking the citations hop by hop: the shortest paths between two papers, and the papers
within a few hops of one."""

from __future__ import annotations

from typing import Final

from kg import queries
from kg.answers import CitationPath, NearPaper, Neighbourhood, PathResult
from kg.database import Database
from kg.numbers import COUNT, COUNT_OR_ZERO
from kg.questions.bounds import (
    DEFAULT_MAX_HOPS,
    HOPS,
    LIST_INDEX_MAX,
    NEAR_HOPS,
)
from kg.refs import resolve

__all__ = ["citation_path", "neighbourhood"]

_PATH_QUERIES: Final = {
    (True, False): "questions.shortest_path",
    (False, False): "questions.shortest_path_undirected",
    (True, True): "questions.all_shortest_paths",
    (False, True): "questions.all_shortest_paths_undirected",
}


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
    max_hops = HOPS.check("max_hops", max_hops)
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


def neighbourhood(
    graph: Database, ref: str, hops: int = 2, limit: int = 50, *, offset: int = 0
) -> Neighbourhood:
    """Return the papers within ``hops`` citation hops of ``ref``'s paper (either direction,
    1 to 3 hops), nearest first and, at one distance, the most cited in the map first (then
    by key): at most ``limit`` of them after skipping the first ``offset``. Raises
    PaperNotFound, AmbiguousPaper or ParameterError."""
    hops = NEAR_HOPS.check("hops", hops)
    limit = COUNT.check("limit", limit)
    offset = COUNT_OR_ZERO.check("offset", offset)
    paper = resolve(graph, ref)
    row = queries.questions.neighbourhood.run(
        graph,
        key=paper.key,
        hops=hops,
        limit=min(limit, LIST_INDEX_MAX),
        offset=min(offset, LIST_INDEX_MAX),
    )[0]
    return Neighbourhood(
        paper=paper,
        hops=hops,
        limit=limit,
        offset=offset,
        total=row["total"],
        results=[NearPaper.model_validate(near) for near in row["papers"]],
        note=None if row["total"] else f"{paper.handle} has no citation links in the graph.",
    )
