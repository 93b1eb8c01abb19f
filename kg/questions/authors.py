"""The map by author: an author's papers, co-authors and in-map citation totals."""

from __future__ import annotations

from typing import Final

from kg import queries
from kg.answers import AuthorReport
from kg.database import Database
from kg.errors import AmbiguousAuthor, AuthorNotFound, ParameterError
from kg.numbers import COUNT, COUNT_OR_ZERO
from kg.questions.bounds import LIST_INDEX_MAX, check_text
from loaders.ids import read_author_id
from loaders.titles import normalize_name

__all__ = ["author"]

_AUTHOR_CANDIDATES: Final = 10


def author(
    graph: Database, name: str, *, limit: int | None = None, offset: int = 0
) -> AuthorReport:
    """Return the papers, co-authors and in-map citation totals of the author ``name`` names:
    the one with that strong id (``orcid:…`` or an orcid.org URL, ``openalex:A…``, ``s2:…``),
    else the one with that normalised name (among its spellings, for an author keyed by an
    id; several such are ambiguous), else the only one whose name holds all its words.
    The papers are newest first, then the most cited in the map: at most ``limit`` (None:
    all) after skipping the first ``offset`` (``paper_count`` counts them all).
    Raises AuthorNotFound, AmbiguousAuthor, or ParameterError for an empty name, a limit
    below 1 or an offset below 0."""
    if limit is not None:
        limit = COUNT.check("limit", limit)
    offset = COUNT_OR_ZERO.check("offset", offset)
    strong = read_author_id(check_text("name", name))
    if strong is not None:
        found = queries.questions.author_by_id.run(graph, id=strong)
        if not found:
            raise AuthorNotFound(
                f"no author has the id {strong!r}",
                "check the id, or pass the author's name",
            )
        return _report(graph, found[0]["key"], limit, offset)
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
    exact = [row for row in candidates if row["exact"]]
    # several people of one name, each known by a strong id (an ORCID), are not one
    if len(exact) > 1 or (not exact and len(candidates) > 1):
        raise AmbiguousAuthor(name, exact or candidates)
    return _report(graph, candidates[0]["key"], limit, offset)


def _report(graph: Database, key: str, limit: int | None, offset: int) -> AuthorReport:
    row = queries.questions.author_report.run(
        graph,
        key=key,
        offset=min(offset, LIST_INDEX_MAX),
        limit=None if limit is None else min(limit, LIST_INDEX_MAX),
    )[0]
    return AuthorReport.model_validate({**row, "offset": offset})
