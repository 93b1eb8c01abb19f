"""The map at a glance: its size and data date, its most cited and most central papers, its
categories and its newest snapshots, in one round trip (the web view's home page)."""

from __future__ import annotations

from kg import queries
from kg.answers import MapOverview
from kg.database import Database
from kg.numbers import COUNT

__all__ = ["overview"]


def overview(graph: Database, top: int = 10, loads: int = 10) -> MapOverview:
    """Return the map's counts (papers, stubs, citations, authors, snapshots) and newest data
    date, its ``top`` most cited papers in the map and ``top`` most central by the stored
    PageRank (none before `kg rank pagerank --write`), every category with papers, and the
    ``loads`` snapshots with the newest data. Raises ParameterError for a top or loads below
    1."""
    top = COUNT.check("top", top)
    loads = COUNT.check("loads", loads)
    row = queries.questions.overview.run(graph, top=top, loads=loads)[0]
    return MapOverview.model_validate(row)
