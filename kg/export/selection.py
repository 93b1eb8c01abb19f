"""What an export takes from the graph: the selected papers and the citations among them.

A ``Selection`` says which papers: the whole graph, a paper's neighbourhood, a category, a
year range, a community, or the top N by a value `kg rank` wrote back. Papers and citations
are read in pages (keyset pagination on the node key), so an export of the whole graph
streams in constant memory; a selection other than the whole graph holds its keys.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from kg import queries
from kg.analytics.igraph_engine import COMMUNITY_PROPERTY, PROPERTIES
from kg.analytics.ranking import Scope
from kg.database import Database
from kg.errors import ParameterError
from kg.numbers import COUNT, optional_whole_number
from kg.questions.bounds import NEAR_HOPS, check_text
from kg.refs import resolve
from kg.text import display, display_key

__all__ = ["ExportedPaper", "Selection", "citations", "papers", "select_keys"]

_PAPERS_PAGE = 5000
_CITING_PAGE = 2000
_EVERYTHING = 1_000_000_000


@dataclass(frozen=True)
class Selection:
    """Which papers an export takes; every filter left as None is off."""

    around: str | None = None
    hops: int = 1
    category: str | None = None
    year_from: int | None = None
    year_to: int | None = None
    community: int | None = None
    top: int | None = None
    rank_by: str = "pagerank"

    @property
    def whole_graph(self) -> bool:
        """True when no filter is on: every paper and every citation."""
        return (
            self.around is None
            and self.category is None
            and self.year_from is None
            and self.year_to is None
            and self.community is None
            and self.top is None
        )

    def describe(self) -> str:
        """Return the selection in words, e.g. 'papers within 1 hop of hep-th/9711200'."""
        if self.whole_graph:
            return "the whole graph"
        parts = []
        if self.around is not None:
            parts.append(f"within {self.hops} hop{'s' if self.hops != 1 else ''} of {self.around}")
        if self.category is not None:
            parts.append(f"in {self.category}")
        if self.year_from is not None or self.year_to is not None:
            parts.append(f"from {self.year_from or '…'} to {self.year_to or '…'}")
        if self.community is not None:
            parts.append(f"in community {self.community}")
        if self.top is None:
            return "papers " + ", ".join(parts)
        top = f"the top {self.top:,} papers by {self.rank_by}"
        return f"{top} of those {', '.join(parts)}" if parts else top


@dataclass(frozen=True)
class ExportedPaper:
    """One paper as the exports write it."""

    key: str
    arxiv_id: str | None
    title: str | None
    year: int | None
    published: date | None
    doi: str | None
    journal_ref: str | None
    stub: bool
    pagerank: float | None
    community: int | None
    authors: tuple[str, ...]
    category: str | None
    cited_by: int

    @property
    def label(self) -> str:
        """The title as it prints (kg.text.display), else the key as a person reads it (a
        title key as its title and year)."""
        return display(self.title) or display_key(self.key)


def select_keys(graph: Database, selection: Selection | None) -> list[str] | None:
    """Return the keys of the selected papers, or None for the whole graph (also for a
    ``selection`` of None, as an export takes it).

    Raises PaperNotFound or AmbiguousPaper for a bad ``around`` REF, ParameterError for a
    ``selection`` that is not a Selection, a bad hop count, top count or rank property, or a
    year range that ends before it starts (as ``kg.Scope`` does).
    """
    if selection is None:
        return None
    _check(selection)
    if selection.whole_graph:
        return None
    keys = _around(graph, selection) if selection.around is not None else None
    filters = {name: getattr(selection, name) for name in _FILTERS}
    if any(value is not None for value in filters.values()):
        found = _filtered(graph, selection, filters)
        keys = found if keys is None else keys & found
    return sorted(keys or ())


_FILTERS = ("category", "year_from", "year_to", "community", "top")
"""The filters of a Selection that the selection query takes as its $params, by name."""


def _check(selection: object) -> None:
    """Raise ParameterError for a ``selection`` that is no Selection or holds a bad value."""
    if not isinstance(selection, Selection):
        raise ParameterError(
            f"selection is {selection!r}, not a kg.Selection",
            "pass kg.Selection(...), e.g. kg.Selection(around=REF, hops=1), or None for "
            "the whole graph",
        )
    if selection.around is not None:
        check_text("around", selection.around)
    if selection.category is not None:
        check_text("category", selection.category)
    NEAR_HOPS.check("hops", selection.hops)
    for name in ("year_from", "year_to", "community", "top"):
        optional_whole_number(name, getattr(selection, name))
    if selection.top is not None:
        COUNT.check("top", selection.top)
    # A reversed range is the error an analysis's Scope gives for it, not an empty selection.
    Scope(year_from=selection.year_from, year_to=selection.year_to).check()


def _around(graph: Database, selection: Selection) -> set[str]:
    """Return the keys within ``selection.hops`` of the paper ``selection.around`` names."""
    centre = resolve(graph, selection.around or "")
    row = queries.questions.neighbourhood.run(
        graph, key=centre.key, hops=selection.hops, limit=_EVERYTHING
    )[0]
    return {centre.key, *(paper["key"] for paper in row["papers"])}


def _filtered(graph: Database, selection: Selection, filters: dict[str, object]) -> set[str]:
    """Return the keys the ``filters`` select (ranked by ``selection.rank_by`` with a top)."""
    rank_by = selection.rank_by if selection.top is not None else None
    if rank_by is not None and rank_by not in _rank_properties():
        raise ParameterError(
            f"{rank_by!r} is not a property `kg rank` writes",
            f"pass one of {', '.join(sorted(_rank_properties()))}",
        )
    rows = queries.export.selection.run(graph, rank_by=rank_by, **filters)
    return {row["key"] for row in rows}


def _rank_properties() -> set[str]:
    return {COMMUNITY_PROPERTY, *(name for names in PROPERTIES.values() for name in names)}


def papers(graph: Database, keys: list[str] | None) -> Iterator[ExportedPaper]:
    """Yield the selected papers in key order, a page at a time."""
    after = ""
    while True:
        rows = queries.export.papers.run(graph, after=after, limit=_PAPERS_PAGE, keys=keys)
        for row in rows:
            yield _paper(row)
        if len(rows) < _PAPERS_PAGE:
            return
        after = rows[-1]["key"]


def _paper(row: dict[str, Any]) -> ExportedPaper:
    published = row["published"]
    return ExportedPaper(
        key=row["key"],
        arxiv_id=row["arxiv_id"],
        title=row["title"],
        year=row["year"],
        published=published.to_native() if published is not None else None,
        doi=row["doi"],
        journal_ref=row["journal_ref"],
        stub=row["stub"],
        pagerank=row["pagerank"],
        community=row["community"],
        authors=tuple(row["authors"]),
        category=row["category"],
        cited_by=row["cited_by"],
    )


def citations(graph: Database, keys: list[str] | None) -> Iterator[tuple[str, str]]:
    """Yield (citing key, cited key) for every citation between selected papers, in order."""
    after = ""
    while True:
        rows = queries.export.citations.run(graph, after=after, limit=_CITING_PAGE, keys=keys)
        for row in rows:
            for cited in row["cited"]:
                yield row["citing"], cited
        if len(rows) < _CITING_PAGE:
            return
        after = rows[-1]["citing"]
