"""What a paper shares with others: co-citation and coupling (stored or live), and the
references or citers two papers have in common."""

from __future__ import annotations

from typing import Final, Literal

from kg import queries
from kg.analytics import similarity
from kg.answers import CitedPaper, Overlap, PaperSummary, Similarity, SimilarityBasis, SimilarPaper
from kg.database import Database
from kg.errors import ParameterError
from kg.numbers import COUNT, COUNT_OR_ZERO
from kg.questions.bounds import DEFAULT_LIMIT, LIST_INDEX_MAX
from kg.refs import key_written, parse_ref, resolve

__all__ = ["cocited", "common_citers", "coupled", "shared_references"]

OverlapRelation = Literal["shared_references", "common_citers"]


def _basis(graph: Database, key: str) -> SimilarityBasis:
    return SimilarityBasis.model_validate(queries.questions.similarity_basis.run(graph, key=key)[0])


def _papers(count: int) -> str:
    return f"{count:,} paper" if count == 1 else f"{count:,} papers"


def _cocited_note(graph: Database, paper: PaperSummary) -> str:
    basis = _basis(graph, paper.key)
    if not basis.citers:
        return f"{paper.handle} has no citers in the graph, so nothing is co-cited with it."
    return (
        f"{paper.handle} has {_papers(basis.citers)} citing it in the graph, none of which "
        "cites another paper in the graph (their references are not loaded), so nothing is "
        "co-cited with it."
    )


def _coupled_note(graph: Database, paper: PaperSummary) -> str:
    basis = _basis(graph, paper.key)
    if not basis.references:
        return (
            f"{paper.handle} cites no paper in the graph (its references are not loaded), "
            "so it shares references with none."
        )
    return (
        f"{paper.handle} cites {_papers(basis.references)} in the graph, none of which "
        "another paper cites, so it shares references with none."
    )


def _similarity(
    graph: Database,
    ref: str,
    limit: int,
    measure: Literal["co-citation", "coupling"],
    offset: int = 0,
) -> Similarity:
    limit = COUNT.check("limit", limit)
    offset = COUNT_OR_ZERO.check("offset", offset)
    # A page of a ranked top list: the top offset + limit, less the first offset.
    limit, asked = min(offset + limit, LIST_INDEX_MAX), limit
    # One round trip when the REF is written as a key (an arXiv id, a title key, an id key)
    # and a paper has it: the stored answer finds the paper too. Else the REF is resolved
    # first, by every tier.
    parse_ref(ref)  # a ParameterError for a REF that is empty or not valid text
    key = key_written(ref)
    stored = similarity.stored_answer(graph, key, measure, limit) if key is not None else None
    if stored is not None:
        paper = stored.paper
    else:
        paper = resolve(graph, ref)
        stored = similarity.stored_answer(graph, paper.key, measure, limit)
    rows, verdict, bound = similarity.similar_rows(graph, paper.key, measure, limit, stored=stored)
    empty_note = _cocited_note if measure == "co-citation" else _coupled_note
    fresh = verdict is not None and verdict.fresh
    return Similarity(
        paper=paper,
        measure=measure,
        offset=offset,
        results=[SimilarPaper.model_validate(row) for row in rows[offset : offset + asked]],
        note=None if rows else empty_note(graph, paper),
        source="materialised" if fresh else "live",
        computed_at=_iso(verdict.computed_at) if fresh and verdict else None,
        stale_reason=verdict.reason if verdict is not None else None,
        capped=bound.capped if bound else False,
        counted=bound.counted if bound else None,
        size_a=bound.size_a if bound else None,
    )


def _iso(value: object) -> str | None:
    if value is None:
        return None
    to_native = getattr(value, "to_native", None)
    native = to_native() if callable(to_native) else value
    isoformat = getattr(native, "isoformat", None)
    return str(isoformat(timespec="seconds")) if callable(isoformat) else str(native)


def cocited(
    graph: Database, ref: str, limit: int = DEFAULT_LIMIT, *, offset: int = 0
) -> Similarity:
    """Return the papers most often cited together with ``ref``'s paper, with the shared
    citer count, cosine (Salton) and Jaccard scores: from the stored CO_CITED relationships
    when they are fresh for the paper, else computed live within a path budget (``source``,
    ``capped`` say which); at most ``limit`` after skipping the first ``offset`` of the
    ranking. Raises PaperNotFound, AmbiguousPaper or ParameterError (limit below 1, offset
    below 0)."""
    return _similarity(graph, ref, limit, "co-citation", offset)


def coupled(
    graph: Database, ref: str, limit: int = DEFAULT_LIMIT, *, offset: int = 0
) -> Similarity:
    """Return the papers sharing the most references with ``ref``'s paper (bibliographic
    coupling), with cosine and Jaccard over reference sets: from the stored COUPLED
    relationships when fresh, else live within a path budget, as ``cocited``; at most
    ``limit`` after skipping the first ``offset``. Raises PaperNotFound, AmbiguousPaper or
    ParameterError (limit below 1, offset below 0)."""
    return _similarity(graph, ref, limit, "coupling", offset)


_OVERLAP_QUERIES: Final = {
    "shared_references": "questions.shared_references",
    "common_citers": "questions.common_citers",
}


def _overlap(graph: Database, a: str, b: str, relation: OverlapRelation) -> Overlap:
    first, second = resolve(graph, a), resolve(graph, b)
    if first.key == second.key:
        what = "cites" if relation == "shared_references" else "is cited by"
        raise ParameterError(
            f"{a!r} and {b!r} both name the same paper, {first.handle}",
            f"name two different papers: this asks what both {what}",
        )
    rows = queries.get(_OVERLAP_QUERIES[relation]).run(graph, a=first.key, b=second.key)
    note = None
    if not rows:
        basis_a, basis_b = _basis(graph, first.key), _basis(graph, second.key)
        if relation == "shared_references":
            note = (
                f"{first.handle} cites {_papers(basis_a.references)} in the graph and "
                f"{second.handle} cites {_papers(basis_b.references)}; none is cited by both."
            )
        else:
            note = (
                f"{_papers(basis_a.citers)} cite {first.handle} in the graph and "
                f"{_papers(basis_b.citers)} cite {second.handle}; none cites both."
            )
    return Overlap(
        a=first,
        b=second,
        relation=relation,
        results=[CitedPaper.model_validate(row) for row in rows],
        note=note,
    )


def shared_references(graph: Database, a: str, b: str) -> Overlap:
    """Return the papers both ``a`` and ``b`` cite, most cited first.
    Raises PaperNotFound or AmbiguousPaper for a bad REF, ParameterError when both name the
    same paper."""
    return _overlap(graph, a, b, "shared_references")


def common_citers(graph: Database, a: str, b: str) -> Overlap:
    """Return the papers that cite both ``a`` and ``b``, most cited first.
    Raises PaperNotFound or AmbiguousPaper for a bad REF, ParameterError when both name the
    same paper."""
    return _overlap(graph, a, b, "common_citers")
