"""Finding papers by what a user remembers of them: words of the title, an arXiv id, a key."""

from __future__ import annotations

from typing import Final

from kg.answers import SearchHit, SearchResult
from kg.database import Database
from kg.errors import ParameterError
from kg.questions.bounds import DEFAULT_LIMIT, check_range, check_text
from kg.refs import MAX_SEARCH_WORDS, escape_lucene, first_words, lookup, search_titles

__all__ = ["SEARCH_SCORE_CUTOFF", "search"]

# Full-text hits scoring under this share of the best hit's score are cut from a search:
# Lucene scores are only comparable within one query, so the cut is relative.
SEARCH_SCORE_CUTOFF: Final = 0.5


def search(graph: Database, text: str, limit: int = DEFAULT_LIMIT) -> SearchResult:
    """Return the papers ``text`` names exactly (node key, arXiv id or normalised title,
    score None) followed by full-text title matches, best first, at most ``limit``. The
    title search uses the first MAX_SEARCH_WORDS words of ``text`` (the note says so).
    Raises ParameterError for empty text, text that is not valid (a lone surrogate) or a
    limit below 1."""
    limit = check_range("limit", limit, 1)
    if not check_text("text", text).strip():
        raise ParameterError("the search text is empty", "pass words of a title or an arXiv id")
    exact = [SearchHit.model_validate(p.model_dump()) for p in lookup(graph, text)]
    seen = {hit.key for hit in exact}
    words, cut = first_words(text)
    hits = search_titles(graph, escape_lucene(words), limit + len(exact))
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
    if cut:
        searched = f"the title search used the first {MAX_SEARCH_WORDS:,} words of the text"
        note = f"{note}; {searched}" if note else searched
    return SearchResult(text=text, results=results, note=note)
