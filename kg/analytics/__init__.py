"""Analytics over the whole map.

``ranking`` ranks papers and finds communities (``rank``, ``communities``) with one of two
engines: ``igraph_engine`` (the default, in this process) and ``gds_engine`` (the server's Database
Data Science plugin). ``similarity`` stores every paper's top co-cited and coupled papers;
``time`` finds bursts, sleeping beauties, traction and main paths, with the pure arithmetic in
``time_series`` and ``mainpath``.
"""

from kg.analytics.ranking import (
    ALGORITHMS,
    COMMUNITY_METHODS,
    DEFAULT_BATCH_SIZE,
    ENGINES,
    Algorithm,
    AnalyticsError,
    AnalyticsRun,
    CitationGraph,
    Community,
    CommunityMethod,
    CommunityResult,
    Engine,
    RankedPaper,
    RankOptions,
    RankResult,
    Scope,
    Timings,
    analytics_runs,
    choose_engine,
    communities,
    load_projection,
    pagerank_tiers,
    parse_years,
    rank,
)

__all__ = [
    "ALGORITHMS",
    "COMMUNITY_METHODS",
    "DEFAULT_BATCH_SIZE",
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
