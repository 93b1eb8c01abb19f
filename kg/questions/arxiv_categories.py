"""The map by arXiv category: a category's papers, and every category with its
cross-listings."""

from __future__ import annotations

from functools import cache

from kg import queries
from kg.answers import CategoryCount, CategoryOverview, CategoryPaper, CategoryReport, CrossListing
from kg.database import Database
from kg.errors import CategoryNotFound
from kg.numbers import COUNT, COUNT_OR_ZERO
from kg.questions.bounds import LIST_INDEX_MAX, check_text
from loaders.taxonomy import load_taxonomy

__all__ = ["categories", "category"]


@cache
def _known_codes() -> dict[str, str]:
    return {code.casefold(): code for code in load_taxonomy()}


def category(graph: Database, code: str, limit: int = 50, *, offset: int = 0) -> CategoryReport:
    """Return a category's paper counts and its papers, most cited in the map first (then
    by key), at most ``limit`` after skipping the first ``offset``. The code matches
    case-insensitively for categories the taxonomy knows. Raises CategoryNotFound, or
    ParameterError for a limit below 1 or an offset below 0."""
    limit = COUNT.check("limit", limit)
    offset = COUNT_OR_ZERO.check("offset", offset)
    code = check_text("code", code).strip()
    canonical = _known_codes().get(code.casefold(), code)
    rows = queries.questions.category_report.run(
        graph,
        code=canonical,
        limit=min(limit, LIST_INDEX_MAX),
        offset=min(offset, LIST_INDEX_MAX),
    )
    if not rows:
        raise CategoryNotFound(
            f"no category {canonical!r} in the graph",
            "list the categories the graph has with `kg categories`",
        )
    row = rows[0]
    papers = row.pop("papers")
    return CategoryReport.model_validate(
        {**row, "offset": offset, "results": [CategoryPaper.model_validate(p) for p in papers]}
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
