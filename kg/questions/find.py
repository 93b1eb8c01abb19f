"""Finding papers by what a user remembers of them: words of the title, an arXiv id, a key,
or, with text embeddings (`kg embed`), what the paper is about in the user's own words."""

from __future__ import annotations

from typing import Final, Literal, get_args

from kg.analytics.embed import Embedder, default_embedder, model_label
from kg.answers import SearchHit, SearchResult
from kg.database import Database
from kg.errors import ParameterError
from kg.questions import retrievers
from kg.questions.bounds import DEFAULT_LIMIT, check_range, check_text
from kg.refs import MAX_SEARCH_WORDS, escape_lucene, first_words, lookup, search_titles
from kg.text import search_words

__all__ = ["SEARCH_SCORE_CUTOFF", "SearchMode", "search"]

# Full-text hits scoring under this share of the best hit's score are cut from a search:
# Lucene scores are only comparable within one query, so the cut is relative.
SEARCH_SCORE_CUTOFF: Final = 0.5

SearchMode = Literal["text", "semantic", "hybrid"]


def search(
    graph: Database,
    text: str,
    limit: int = DEFAULT_LIMIT,
    *,
    mode: SearchMode = "text",
    year_from: int | None = None,
    year_to: int | None = None,
    category: str | None = None,
    embedder: Embedder | None = None,
) -> SearchResult:
    """Return the papers ``text`` finds, best first, at most ``limit``, within the years
    and the category (primary or cross-listed) when given.

    ``mode="text"`` (the default): the papers the text names exactly (key, arXiv id or
    normalised title; score None; only without a filter) followed by full-text title
    matches. ``"semantic"``: the papers nearest in meaning (the vector index over `kg embed`'s
    vectors), scored by cosine similarity. ``"hybrid"``: both rankings fused with an
    importance prior (kg.questions.retrievers). A search by words uses the first
    MAX_SEARCH_WORDS words of ``text`` (the note says so). Raises ParameterError for empty
    text, text that is not valid (a lone surrogate), a bad limit, mode or filter;
    EmbeddingUnavailable when a search by meaning has no model or no vectors."""
    limit = check_range("limit", limit, 1)
    if not check_text("text", text).strip():
        raise ParameterError("the search text is empty", "pass words of a title or an arXiv id")
    if mode not in get_args(SearchMode):
        raise ParameterError(
            f"the search mode is {mode!r}", "pass mode='text', 'semantic' or 'hybrid'"
        )
    filters = retrievers.Filters(year_from, year_to, category)
    exact = [] if filters.any or mode == "semantic" else _exact(graph, text)
    seen = {hit.key for hit in exact}
    model = None
    words, cut = first_words(text)
    words = search_words(words)  # a title typed as it prints (AdS₅, 𝒩 = 4) finds its LaTeX
    if mode == "text":
        found = _by_words(graph, words, limit + len(exact), filters)
    else:
        model_in_use = embedder if embedder is not None else default_embedder()
        retrievers.check_index(graph, model_in_use)
        model = model_label(model_in_use)
        vector = retrievers.query_vector(model_in_use, text)
        if mode == "semantic":
            found = retrievers.semantic(graph, vector, limit, filters)
        else:
            found = retrievers.hybrid(graph, words, vector, limit + len(exact), filters)
    results = (exact + [hit for hit in found if hit.key not in seen])[:limit]
    note = None
    if not results:
        note = (
            f"no paper title matches {text!r}; try fewer or other words, or an arXiv id"
            if mode == "text"
            else f"no paper with a text embedding matches {text!r} within the filters"
        )
    if cut and mode != "semantic":
        searched = f"the title search used the first {MAX_SEARCH_WORDS:,} words of the text"
        note = f"{note}; {searched}" if note else searched
    return SearchResult(text=text, results=results, mode=mode, model=model, note=note)


def _exact(graph: Database, text: str) -> list[SearchHit]:
    return [SearchHit.model_validate(p.model_dump()) for p in lookup(graph, text)]


def _by_words(
    graph: Database, text: str, limit: int, filters: retrievers.Filters
) -> list[SearchHit]:
    """Full-text title matches scoring at least SEARCH_SCORE_CUTOFF of the best one."""
    if filters.any:
        hits = retrievers.fulltext(graph, text, limit, filters)
    else:
        hits = search_titles(graph, escape_lucene(text), limit)
    best = max((hit.score or 0.0 for hit in hits), default=0.0)
    return [hit for hit in hits if (hit.score or 0.0) >= SEARCH_SCORE_CUTOFF * best]
