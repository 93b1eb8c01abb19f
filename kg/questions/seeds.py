"""Questions over a set of seed papers: the literature connector and recommendations.

``connect`` finds, for every pair of seeds, the shortest citation paths between them over
CITES in either direction that pass through another paper (cypher/questions/connect_paths.cypher:
when two seeds cite each other directly, the two-hop paths), and ranks the papers on those paths
by PageRank inside the subgraph of the seeds and those papers (their CITES among each
other, computed in igraph as kg.analytics.igraph_engine does), ties by the number of paths through
the paper, then key.

``recommend`` scores every paper linked to a seed through one intermediate paper, or
directly, Adamic-Adar style (cypher/questions/recommend.cypher): each shared citer or shared
reference adds 1 / ln(its degree), each direct citation 1; each result carries its reasons
per seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from kg import queries
from kg.analytics.igraph_engine import CitationGraph, pagerank
from kg.answers import (
    CitationPath,
    ConnectorPaper,
    ConnectResult,
    PaperSummary,
    Recommendation,
    RecommendResult,
    SeedPath,
    SeedReason,
)
from kg.database import Database
from kg.errors import SimilarityError
from kg.numbers import COUNT, Bound
from kg.refs import resolve

__all__ = [
    "CONNECT_HOPS",
    "DEFAULT_CONNECT_HOPS",
    "DEFAULT_MAX_DEGREE",
    "DEFAULT_PATHS_PER_PAIR",
    "MAX_CONNECT_HOPS",
    "SEED_DEGREE",
    "connect",
    "recommend",
]

DEFAULT_CONNECT_HOPS: Final = 4
MAX_CONNECT_HOPS: Final = 30  # the literal bound `*..30` in connect_paths.cypher
CONNECT_HOPS: Final = Bound(2, MAX_CONNECT_HOPS)
"""The hops between two seeds the connector searches: two at least (one is a citation)."""
DEFAULT_PATHS_PER_PAIR: Final = 50
DEFAULT_MAX_DEGREE: Final = 1_000
SEED_DEGREE: Final = Bound(2)
"""The bounds of ``max_degree``: a paper with one link relates nothing to another."""


def _seeds(graph: Database, refs: Sequence[str], least: int) -> list[PaperSummary]:
    seeds: list[PaperSummary] = []
    for ref in refs:
        paper = resolve(graph, ref)
        if all(paper.key != seen.key for seen in seeds):
            seeds.append(paper)
    if len(seeds) < least:
        raise SimilarityError(
            f"{len(seeds)} distinct seed paper{'s' if len(seeds) != 1 else ''} given",
            f"name at least {least} different papers",
        )
    return seeds


def connect(
    graph: Database,
    refs: Sequence[str],
    *,
    max_hops: int = DEFAULT_CONNECT_HOPS,
    limit: int = 20,
    paths_per_pair: int = DEFAULT_PATHS_PER_PAIR,
) -> ConnectResult:
    """Return the papers on the shortest citation paths through another paper (either
    direction, 2 to ``max_hops`` hops) between every pair of the seeds ``refs``, ranked by
    PageRank in the subgraph of the seeds and those papers, with the paths (at most
    ``paths_per_pair`` per pair). Raises PaperNotFound or AmbiguousPaper for a bad REF,
    SimilarityError for fewer than two distinct seeds, ParameterError for a bound out of
    range.
    """
    max_hops = CONNECT_HOPS.check("max_hops", max_hops)
    limit = COUNT.check("limit", limit)
    paths_per_pair = COUNT.check("paths_per_pair", paths_per_pair)
    seeds = _seeds(graph, refs, 2)
    seed_keys = [seed.key for seed in seeds]
    rows = queries.questions.connect_paths.run(
        graph, keys=seed_keys, max_hops=max_hops, max_paths=paths_per_pair
    )
    paths = [
        SeedPath(
            source=row["source"],
            target=row["target"],
            path=CitationPath.model_validate(
                {"papers": row["papers"], "directions": row["directions"]}
            ),
        )
        for row in rows
    ]
    between: dict[str, PaperSummary] = {}
    through: Counter[str] = Counter()
    seeds_of: dict[str, set[str]] = {}
    for seed_path in paths:
        for paper in seed_path.path.papers[1:-1]:
            if paper.key in seed_keys:
                continue  # a seed between two others is not news
            between.setdefault(paper.key, paper)
            through[paper.key] += 1
            seeds_of.setdefault(paper.key, set()).update((seed_path.source, seed_path.target))
    results = _ranked(graph, seed_keys, between, through, seeds_of)[:limit]
    note = None
    if not results:
        note = f"no citation path within {max_hops} hops joins any two of the seeds"
    # The answer field by field, by name: alike in shape to other keyword constructions.
    return ConnectResult(
        seeds=seeds,
        max_hops=max_hops,
        results=results,
        paths=paths,
        unconnected=_unconnected(seed_keys, paths),
        note=note,
    )


def _unconnected(seed_keys: list[str], paths: list[SeedPath]) -> list[list[str]]:
    """Return the pairs of seeds (each sorted, in order) that no path joins."""
    linked = {(p.source, p.target) for p in paths}
    ordered = sorted(seed_keys)
    pairs = [[a, b] for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
    return [pair for pair in pairs if (pair[0], pair[1]) not in linked]


def _ranked(
    graph: Database,
    seed_keys: list[str],
    between: dict[str, PaperSummary],
    through: Counter[str],
    seeds_of: dict[str, set[str]],
) -> list[ConnectorPaper]:
    if not between:
        return []
    keys = sorted({*seed_keys, *between})
    edges = queries.questions.connect_subgraph.run(graph, keys=keys)
    sub = CitationGraph.from_pairs(((e["citing"], e["cited"]) for e in edges), keys)
    scores = dict(zip(sub.keys, pagerank(sub.to_igraph()), strict=True))
    order = sorted(between, key=lambda key: (-scores[key], -through[key], key))
    return [
        ConnectorPaper(
            **between[key].model_dump(),
            rank=place,
            pagerank=scores[key],
            paths=through[key],
            seeds=sorted(seeds_of[key]),
        )
        for place, key in enumerate(order, start=1)
    ]


def _text_similarity(
    graph: Database, seeds: list[str], keys: list[str]
) -> dict[tuple[str, str], float]:
    """Return the cosine similarity of the text embeddings of each (seed, paper) pair where
    both have one (`kg embed`); empty when no paper has one."""
    if not keys:
        return {}
    rows = queries.questions.text_similarity.run(graph, seeds=seeds, keys=keys)
    return {(row["seed"], row["key"]): float(row["similarity"]) for row in rows}


def recommend(
    graph: Database,
    refs: Sequence[str],
    *,
    limit: int = 20,
    max_degree: int = DEFAULT_MAX_DEGREE,
) -> RecommendResult:
    """Return the papers most related to the seeds ``refs`` by co-citation, coupling and
    direct citations together (Adamic-Adar over the seed set), best first, each with its
    reasons per seed, the similarity of the two abstracts among them when both papers have a
    text embedding (`kg embed`). Papers linking through an intermediate with more than
    ``max_degree`` citations are left out (counted in ``hubs_skipped``). Raises PaperNotFound or
    AmbiguousPaper for a bad REF, SimilarityError for no seed, ParameterError for a bad bound.
    """
    limit = COUNT.check("limit", limit)
    max_degree = SEED_DEGREE.check("max_degree", max_degree)
    seeds = _seeds(graph, refs, 1)
    rows = queries.questions.recommend.run(
        graph, keys=[s.key for s in seeds], limit=limit, max_degree=max_degree
    )
    hits: list[dict[str, Any]] = rows[0]["results"] if rows else []
    hubs_skipped = int(rows[0]["hubs_skipped"]) if rows else 0
    alike = _text_similarity(graph, [s.key for s in seeds], [hit["key"] for hit in hits])
    results = []
    for place, hit in enumerate(hits, start=1):
        reasons = sorted(
            (
                SeedReason.model_validate(
                    {**reason, "text_similarity": alike.get((reason["seed"], hit["key"]))}
                )
                for reason in hit["reasons"]
            ),
            key=lambda reason: (-reason.score, reason.seed),
        )
        results.append(
            Recommendation(
                key=hit["key"],
                arxiv_id=hit["arxiv_id"],
                title=hit["title"],
                year=hit["year"],
                stub=hit["stub"],
                rank=place,
                score=hit["score"],
                reasons=reasons,
            )
        )
    note = None
    if not results:
        note = "no paper cites, is cited by, or shares a citer or a reference with the seeds"
    return RecommendResult(
        seeds=seeds,
        results=results,
        hubs_skipped=hubs_skipped,
        max_degree=max_degree,
        note=note,
    )
