"""The search's retrievers beside the full-text one: by meaning, and hybrid.

``semantic`` embeds the query text with the model `kg embed` used (kg.analytics.embed) and
asks the vector index for the nearest papers (cypher/search/semantic.cypher), the vector
going in as a parameter. ``hybrid`` ranks by meaning, title words and importance together:
it takes the CANDIDATES nearest papers by meaning and the CANDIDATES best title matches
(each with its similarity to the query); those whose similarity is at least
``HYBRID_WINDOW`` of the best one's compete, scored (similarity / best similarity +
``TEXT_WEIGHT`` × title relevance) × (1 + ``IMPORTANCE_WEIGHT`` × importance), where title
relevance is the full-text score over the best title match's and importance is log(1 +
citations in the map) over log(1 + 1000), capped at 1; the others follow by similarity.
So among papers about as close in meaning, the one the field cites wins, and a paper much
closer in meaning than the rest keeps its place (docs/BENCHMARKS.md measures the choice
against each part alone).
``like_this`` is "more like this": the nearest papers to one paper's own vector.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from kg import queries
from kg.analytics.embed import Embedder, index_dimension
from kg.answers import PaperSummary, SearchHit, TextNeighbours
from kg.database import Database
from kg.errors import EmbeddingUnavailable, ParameterError
from kg.numbers import COUNT
from kg.questions.bounds import DEFAULT_LIMIT, SHOWN_AUTHORS, check_range, check_text
from kg.refs import escape_lucene, resolve, too_many_words

__all__ = [
    "CANDIDATES",
    "HYBRID_WINDOW",
    "IMPORTANCE_CAP",
    "IMPORTANCE_WEIGHT",
    "TEXT_WEIGHT",
    "Filters",
    "check_index",
    "fulltext",
    "hybrid",
    "importance",
    "like_this",
    "query_vector",
    "semantic",
]

HYBRID_WINDOW: Final = 0.8
TEXT_WEIGHT: Final = 0.1
IMPORTANCE_WEIGHT: Final = 1.0
CANDIDATES: Final = 200  # how deep each list of a hybrid search goes
# The index searches its HNSW graph as widely as the papers asked of it: asked for few, it
# may miss the nearest, so it is always asked for at least this many.
_LEAST_CANDIDATES: Final = 100
_FILTERED_DEPTH: Final = 10  # the index's candidates per result asked for, under a filter
_MAX_CANDIDATES: Final = 10_000


@dataclass(frozen=True)
class Filters:
    """The year range and the category a search keeps (None: no bound)."""

    year_from: int | None = None
    year_to: int | None = None
    category: str | None = None

    def __post_init__(self) -> None:
        for name in ("year_from", "year_to"):
            value = getattr(self, name)
            if value is not None:
                check_range(name, value, 0, 9999)
        first, last = self.year_from, self.year_to
        if first is not None and last is not None and first > last:
            raise ParameterError(
                f"the years run from {first} to {last}", "pass the first year before the last"
            )
        if self.category is not None and not check_text("category", self.category).strip():
            raise ParameterError("the category is empty", "pass a code such as hep-th")

    @property
    def any(self) -> bool:
        """Whether any filter is set."""
        return self.year_from is not None or self.year_to is not None or bool(self.category)

    def params(self) -> dict[str, Any]:
        """Return the filters as the search queries' $params."""
        return {"year_from": self.year_from, "year_to": self.year_to, "category": self.category}


def check_index(graph: Database, embedder: Embedder | None) -> None:
    """Raise EmbeddingUnavailable unless the vector index is there, online, and of the
    model's dimension (any dimension when ``embedder`` is None: the stored vectors are
    compared among themselves)."""
    dimension = index_dimension(graph)
    if dimension is None:
        raise EmbeddingUnavailable(
            "no paper has a text embedding yet", "run `kg embed` first, then search by meaning"
        )
    if embedder is not None and dimension != embedder.dimension:
        raise EmbeddingUnavailable(
            f"the vector index holds {dimension}-dimension vectors and "
            f"{embedder.name} makes {embedder.dimension}: a search by meaning needs vectors "
            "of the model that embeds the query",
            "remove them (kg query drop_embeddings, then kg query drop_vector_index) and run "
            "kg embed",
        )


def query_vector(embedder: Embedder, text: str) -> list[float]:
    """Return the embedding of a query text as a list for a $vector parameter."""
    vector: list[float] = embedder.embed([text])[0].astype(float).tolist()
    return vector


def semantic(
    graph: Database,
    vector: Sequence[float],
    limit: int,
    filters: Filters,
    *,
    exclude: Sequence[str] = (),
) -> list[SearchHit]:
    """Return the papers nearest to ``vector`` in the vector index, best first, scored by
    cosine similarity, each with its first authors and citations in the map. Raises
    QueryFailed when there is no vector index of the vector's dimension."""
    candidates = limit + len(exclude)
    if filters.any:
        candidates *= _FILTERED_DEPTH
    candidates = max(candidates, _LEAST_CANDIDATES)
    rows = queries.search.semantic.run(
        graph,
        vector=list(vector),
        candidates=min(candidates, _MAX_CANDIDATES),
        limit=limit,
        exclude=list(exclude),
        authors=SHOWN_AUTHORS,
        **filters.params(),
    )
    return [SearchHit.model_validate({**row, "score": row["similarity"]}) for row in rows]


def fulltext(
    graph: Database,
    text: str,
    limit: int,
    filters: Filters,
    vector: Sequence[float] | None = None,
) -> list[SearchHit]:
    """Return the papers whose title matches ``text`` on the full-text index, best first,
    within the filters; with ``vector``, each with its similarity to it."""
    lucene = escape_lucene(text)
    if not lucene.strip():
        return []
    with too_many_words():
        rows = queries.search.fulltext.run(
            graph,
            query=lucene,
            limit=limit,
            vector=None if vector is None else list(vector),
            **filters.params(),
        )
    return [SearchHit.model_validate(row) for row in rows]


IMPORTANCE_CAP: Final = 1000
"""The citations in the map at which a paper's importance reaches 1."""


def importance(cited_by: int | None) -> float:
    """Return a paper's importance prior from its citations in the map: log(1 + cited_by)
    over log(1 + IMPORTANCE_CAP), capped at 1 (0 for none, 0.35 for 10, 0.67 for 100)."""
    return min(1.0, math.log1p(cited_by or 0) / math.log1p(IMPORTANCE_CAP))


def hybrid(
    graph: Database, text: str, vector: Sequence[float], limit: int, filters: Filters
) -> list[SearchHit]:
    """Return the papers ranked by meaning, title words and importance together (see the
    module's docstring), best first."""
    depth = max(CANDIDATES, limit)
    by_meaning = semantic(graph, vector, depth, filters)
    by_words = fulltext(graph, text, depth, filters, vector)
    best_words = max((hit.score or 0.0 for hit in by_words), default=0.0)
    relevance = {hit.key: (hit.score or 0.0) / best_words for hit in by_words} if best_words else {}
    hits: dict[str, SearchHit] = {}
    for hit in (*by_meaning, *by_words):
        if hit.similarity is not None and hit.key not in hits:
            hits[hit.key] = hit
    if not hits:
        return []
    best = max(hit.similarity or 0.0 for hit in hits.values())
    scores: dict[str, float] = {}
    for key, hit in hits.items():
        closeness = (hit.similarity or 0.0) / best if best > 0 else 0.0
        if closeness >= HYBRID_WINDOW:
            boost = 1 + IMPORTANCE_WEIGHT * importance(hit.cited_by)
            scores[key] = (closeness + TEXT_WEIGHT * relevance.get(key, 0.0)) * boost
    competing = sorted(scores, key=lambda key: (-scores[key], key))
    rest = sorted(hits.keys() - scores.keys(), key=lambda key: (-(hits[key].similarity or 0), key))
    return [
        hits[key].model_copy(update={"score": scores.get(key, hits[key].similarity)})
        for key in (competing + rest)[:limit]
    ]


def like_this(graph: Database, ref: str, limit: int = DEFAULT_LIMIT) -> TextNeighbours:
    """Return the papers nearest in meaning to the paper ``ref`` names, by the vectors
    stored (by `kg embed`, or brought from a file), best first. Raises PaperNotFound or
    AmbiguousPaper for a bad REF, ParameterError for a limit below 1, EmbeddingUnavailable
    when there is no index."""
    limit = COUNT.check("limit", limit)
    paper = resolve(graph, ref)
    check_index(graph, None)  # the paper's own stored vector is the query: no model runs
    summary = PaperSummary.model_validate(paper.model_dump())
    stored = queries.search.paper_vector.run(graph, key=paper.key)
    if not stored:
        note = f"{paper.handle} has no text embedding: it has no title, or `kg embed` has not run"
        return TextNeighbours(paper=summary, model=None, results=[], note=note)
    rows = queries.search.like_this.run(
        graph,
        key=paper.key,
        candidates=min(max(limit + 1, _LEAST_CANDIDATES), _MAX_CANDIDATES),
        limit=limit,
    )
    results = [SearchHit.model_validate({**row, "score": row["similarity"]}) for row in rows]
    empty = None if results else "no other paper has a text embedding"
    return TextNeighbours(paper=summary, model=stored[0]["model"], results=results, note=empty)
