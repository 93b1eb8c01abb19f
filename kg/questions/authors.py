"""The map by author: an author's papers, co-authors and in-map citation totals."""

from __future__ import annotations

from typing import Final

from kg import queries
from kg.answers import AuthorReport
from kg.database import Database
from kg.errors import AmbiguousAuthor, AuthorNotFound, ParameterError
from kg.loaders.identity import normalize_name
from kg.questions.bounds import check_text

__all__ = ["author"]

_AUTHOR_CANDIDATES: Final = 10


def author(graph: Database, name: str) -> AuthorReport:
    """Return the papers, co-authors and in-map citation totals of the author ``name`` names:
    the one with that normalised name, else the only one whose name holds all its words.
    Raises AuthorNotFound, AmbiguousAuthor, or ParameterError for an empty name."""
    key = normalize_name(check_text("name", name))
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
