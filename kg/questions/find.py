"""Finding papers by what a user remembers of them: words of the title, an arXiv id, a key,
or, with text embeddings (`kg embed`), what the paper is about in the user's own words.

A search by title words ranks by relevance and importance together. It takes the
``TEXT_CANDIDATES`` best full-text hits, scales each hit's score by the best one's (the
relevance, 0 to 1: Lucene scores compare only within one query) and multiplies it by
``1 + IMPORTANCE_BOOST * importance``, where importance is the hybrid search's prior
(kg.questions.retrievers.importance: log(1 + citations in the map) over log(1 + 1000),
capped at 1). A product keeps relevance first, as a sum would not: a paper that matches
none of the words gains nothing from its citations, and a paper cited 1000 times or more
weighs up to 1 + IMPORTANCE_BOOST times a paper cited by none, so a title that matches the
words less closely (a longer title) but is the one everybody cites comes before the short
titles nobody cites.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from kg import queries
from kg.analytics.embed import Embedder, default_embedder, model_label
from kg.answers import SearchHit, SearchResult
from kg.database import Database
from kg.errors import ParameterError, QueryFailed
from kg.numbers import COUNT, COUNT_OR_ZERO
from kg.questions import retrievers
from kg.questions.bounds import SHOWN_AUTHORS, check_text
from kg.refs import MAX_SEARCH_WORDS, first_words, lookup
from kg.text import search_words

__all__ = [
    "IMPORTANCE_BOOST",
    "SEARCH_SCORE_CUTOFF",
    "SHOWN_AUTHORS",
    "TEXT_CANDIDATES",
    "SearchMode",
    "search",
]

TEXT_CANDIDATES: Final = 200
"""How many full-text hits, best text score first, a search by title words ranks."""
IMPORTANCE_BOOST: Final = 2.0
"""How much importance can multiply a text hit's relevance by, less one."""
SEARCH_SCORE_CUTOFF: Final = 0.2
"""Full-text hits scoring under this share of the best hit's score are cut from a search:
they match too few of the words for any number of citations to make them the paper meant."""
"""How many authors a search result lists before 'et al.'."""

SearchMode = Literal["text", "semantic", "hybrid"]


def search(
    graph: Database,
    text: str,
    limit: int,
    *,
    mode: SearchMode,
    offset: int,
    year_from: int | None,
    year_to: int | None,
    category: str | None,
    embedder: Embedder | None,
) -> SearchResult:
    """Return the papers ``text`` finds, best first, at most ``limit`` after skipping the
    first ``offset`` of the ranking, within the years and the category (primary or
    cross-listed) when given; each with its first authors, year and citations in the map.

    ``mode="text"`` (the default): the papers the text names exactly (key, arXiv id or
    normalised title; score None; only without a filter) followed by full-text title
    matches ranked by relevance times importance (see the module's docstring; ``total``
    counts the ranking). ``"semantic"``: the papers nearest in meaning (the vector index
    over `kg embed`'s vectors), scored by cosine similarity. ``"hybrid"``: meaning, title
    words and importance together (kg.questions.retrievers). A search by words uses the
    first MAX_SEARCH_WORDS words of ``text`` (the note says so). Raises ParameterError for
    empty text, text that is not valid (a lone surrogate), a bad limit, offset, mode or
    filter; EmbeddingUnavailable when a search by meaning has no model or no vectors."""
    limit = COUNT.check("limit", limit)
    offset = COUNT_OR_ZERO.check("offset", offset)
    if not check_text("text", text).strip():
        raise ParameterError("the search text is empty", "pass words of a title or an arXiv id")
    if mode not in get_args(SearchMode):
        raise ParameterError(
            f"the search mode is {mode!r}", "pass mode='text', 'semantic' or 'hybrid'"
        )
    filters = retrievers.Filters(year_from, year_to, category)
    exact = [] if filters.any or mode == "semantic" else _exact(graph, text)
    seen = {hit.key for hit in exact}
    words, cut = first_words(text)
    words = search_words(words)  # a title typed as it prints (AdS₅, 𝒩 = 4) finds its LaTeX
    depth = offset + limit
    if mode == "text":
        found, model = _by_words(graph, words, filters), None
    else:
        model_in_use = embedder if embedder is not None else default_embedder()
        model = model_label(model_in_use)
        found = _by_meaning(graph, mode, text, words, depth + len(exact), filters, model_in_use)
    ranking = exact + [hit for hit in found if hit.key not in seen]
    page = ranking[offset:depth]
    # A search by meaning brings each paper's details in its one query.
    results = page if mode == "semantic" else _with_details(graph, page)
    return SearchResult(
        text=text,
        results=results,
        mode=mode,
        offset=offset,
        total=len(ranking) if mode == "text" else None,
        model=model,
        note=_search_note(text, mode, found=bool(ranking), cut=cut),
    )


def _by_meaning(
    graph: Database,
    mode: SearchMode,
    text: str,
    words: str,
    depth: int,
    filters: retrievers.Filters,
    model: Embedder,
) -> list[SearchHit]:
    """Return the ``depth`` papers nearest in meaning to ``text`` ("semantic"), or those of
    the hybrid ranking of ``words`` and ``text`` ("hybrid"), within ``filters``.

    Raises EmbeddingUnavailable when ``model`` has no vectors in the graph.
    """
    vector = retrievers.query_vector(model, text)
    try:
        if mode == "semantic":
            return retrievers.semantic(graph, vector, depth, filters)
        return retrievers.hybrid(graph, words, vector, depth, filters)
    except QueryFailed:
        # Asked only now, not before every search: a missing index or one of another
        # dimension is what makes the query fail, and this names it.
        retrievers.check_index(graph, model)
        raise


def _search_note(text: str, mode: SearchMode, *, found: bool, cut: bool) -> str | None:
    """Return what a search says under its results: that nothing matched, and that it used
    only the first words of a long text; None when neither."""
    note = None
    if not found:
        note = (
            f"no paper title matches {text!r}; try fewer or other words, or an arXiv id"
            if mode == "text"
            else f"no paper with a text embedding matches {text!r} within the filters"
        )
    if cut and mode != "semantic":
        searched = f"the title search used the first {MAX_SEARCH_WORDS:,} words of the text"
        note = f"{note}; {searched}" if note else searched
    return note


def _exact(graph: Database, text: str) -> list[SearchHit]:
    return [SearchHit.model_validate(p.model_dump()) for p in lookup(graph, text)]


def _by_words(graph: Database, text: str, filters: retrievers.Filters) -> list[SearchHit]:
    """The TEXT_CANDIDATES best full-text title matches scoring at least SEARCH_SCORE_CUTOFF
    of the best one, ranked by relevance times importance (the module's docstring)."""
    hits = retrievers.fulltext(graph, text, TEXT_CANDIDATES, filters)
    best = max((hit.score or 0.0 for hit in hits), default=0.0)
    if best <= 0:
        return []
    ranked: list[tuple[float, SearchHit]] = []
    for hit in hits:
        relevance = (hit.score or 0.0) / best
        if relevance < SEARCH_SCORE_CUTOFF:
            continue
        score = relevance * (1 + IMPORTANCE_BOOST * retrievers.importance(hit.cited_by))
        ranked.append((score, hit.model_copy(update={"score": score, "text_score": relevance})))
    ranked.sort(key=lambda pair: (-pair[0], -(pair[1].cited_by or 0), pair[1].key))
    return [hit for _, hit in ranked]


def _with_details(graph: Database, hits: list[SearchHit]) -> list[SearchHit]:
    """The hits with their first authors, author count and citations in the map."""
    if not hits:
        return []
    rows = queries.search.hit_details.run(
        graph, keys=[hit.key for hit in hits], authors=SHOWN_AUTHORS
    )
    details = {row.pop("key"): row for row in rows}
    return [hit.model_copy(update=details.get(hit.key, {})) for hit in hits]
