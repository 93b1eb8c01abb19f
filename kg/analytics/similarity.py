"""Materialised similarity: every paper's top-k co-cited and coupled papers in one pass.

The citation graph is read once (the analytics projection), held as a sparse 0/1 matrix
``A`` (row: citing paper, column: cited paper), and multiplied in row blocks:
co-citation counts are ``Aᵀ·A`` (papers citing both), coupling counts ``A·Aᵀ`` (references
both cite). Each paper keeps its top ``k`` by the live queries' order, ``together`` DESC,
cosine DESC, citations in the map DESC, key: for one paper cosine falls as the other
paper's size grows, so the order is (together DESC, size_b ASC, in-degree DESC, key ASC) in
integers (for co-citation size_b is the in-degree, so only coupling's ties reach it), and
node order is key order because the projection is sorted by key in Cypher. Cosine and
Jaccard are computed with the same double-precision operations as cocited.cypher and
coupled.cypher, so stored and live values are equal to the bit.

Storage convention: one directed relationship per listed pair, from the paper to each
paper of its own top-k, ``(a)-[:CO_CITED {together, size_a, size_b, cosine, jaccard,
rank}]->(b)`` and likewise ``COUPLED``; ``rank`` 1 is the best. Similarity is symmetric,
but top-k membership is not, so a pair in both papers' lists has a relationship each way
(each with its own rank and sizes from its source's side). A paper's list is replaced in
one transaction (delete, then create), batch by batch, and only when it differs from the
stored one, so a run after a small load rewrites few papers; the run records of the
previous run are removed first, so questions compute live until the new run is recorded.

A run is recorded as two AnalyticsRun nodes, ``co_cited`` and ``coupled``, whose
``computed_at`` is the start of the transaction that read the graph (read in that same
transaction, with the clock loads stamp ``changed_at`` with), and whose ``k`` says how long
the lists are. A run that writes reads the graph in a transaction routed to the leader on a
cluster: the clock is then the writers' own, and the read sees every load committed before
it, which a follower that has not caught up would not (its lists would count as fresh).
The questions use the stored lists when ``similar_answer.cypher`` says they are fresh for
the paper asked about, and compute live otherwise (with a bound on the paths walked; see
similar_cocited_live.cypher).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

from kg import queries
from kg.analytics import Scope
from kg.analytics.igraph_engine import CitationGraph, chunks
from kg.answers import AnalyticsRun, PaperSummary, SimilarityRun, StoredRun
from kg.database import Database
from kg.errors import ParameterError
from kg.numbers import COUNT

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix

__all__ = [
    "DEFAULT_K",
    "DEFAULT_MAX_PATHS",
    "DEFAULT_WRITERS",
    "MEASURES",
    "RUN_KEYS",
    "SIMILARITY_WRITE_BATCH",
    "Freshness",
    "LiveBound",
    "Measure",
    "Neighbour",
    "StoredAnswer",
    "run_similarity",
    "similar_rows",
    "stored_answer",
    "stored_runs",
    "top_k",
]

Measure = Literal["co-citation", "coupling"]
MEASURES: Final[tuple[Measure, ...]] = ("co-citation", "coupling")
RUN_KEYS: Final[dict[Measure, str]] = {"co-citation": "co_cited", "coupling": "coupled"}
"""The AnalyticsRun key (and the relationship, upper-cased) of each measure."""


class _Queries(NamedTuple):
    """The named queries of one measure: a run's write, the lists it stored, and a
    question's answer computed live (similar_answer.cypher reads the stored one)."""

    write: str
    stored_lists: str
    live: str


_QUERIES: Final[dict[Measure, _Queries]] = {
    "co-citation": _Queries(
        write="analytics.similar_write_cocited",
        stored_lists="analytics.similar_stored_cocited",
        live="questions.similar_cocited_live",
    ),
    "coupling": _Queries(
        write="analytics.similar_write_coupled",
        stored_lists="analytics.similar_stored_coupled",
        live="questions.similar_coupled_live",
    ),
}
DEFAULT_K: Final = 20
SIMILARITY_WRITE_BATCH: Final = 1_000
"""Papers per write transaction: with k = 20, up to 20,000 relationships."""
ORDER: Final = "together desc, size_b asc, cited desc, key asc"
"""The order of each stored list, recorded with the run: a run whose order differs is no
run whose lists a new one would keep (similar_unchanged.cypher compares the parameters)."""
DEFAULT_WRITERS: Final = 2
"""Write transactions at once (docs/BENCHMARKS.md, "Stored similarity": measured)."""
DEFAULT_MAX_PATHS: Final = 250_000
"""The live queries' budget of two-step paths (see similar_cocited_live.cypher): above the
largest on cit-HepTh (70,541 through hep-th/9711200's 2,414 citers, answered exactly in
about 0.1 s), so a real map's hubs stay exact, while a hub of billions of paths (the
synthetic 10x graph has one) is cut to a fraction of a second and marked as a lower bound."""
_BLOCK: Final = 4_096


@dataclass(frozen=True)
class Neighbour:
    """One entry of a paper's top-k: the other paper (node index), the overlap, the two
    sizes (citers or references) and the scores, as the live query computes them."""

    index: int
    together: int
    size_a: int
    size_b: int
    cosine: float
    jaccard: float


def _scores(together: int, size_a: int, size_b: int) -> tuple[float, float]:
    # The same IEEE operations as the Cypher: toFloat(t) / sqrt(toFloat(a) * b) and
    # toFloat(t) / (a + b - t); both operands are exact doubles, so results are equal.
    cosine = float(together) / math.sqrt(float(size_a) * size_b)
    jaccard = float(together) / (size_a + size_b - together)
    return cosine, jaccard


def _matrix(citation: CitationGraph) -> csr_matrix:
    import numpy as np
    from scipy.sparse import csr_matrix

    n = citation.node_count
    if citation.edges:
        pairs = np.asarray(citation.edges, dtype=np.int64)
        rows, cols = pairs[:, 0], pairs[:, 1]
    else:
        rows = cols = np.zeros(0, dtype=np.int64)
    matrix = csr_matrix((np.ones(len(rows), dtype=np.int32), (rows, cols)), shape=(n, n))
    matrix.sum_duplicates()
    matrix.data[:] = 1  # a repeated pair is one citation, as in the graph
    return matrix


def _top_rows(
    basis: csr_matrix, k: int, cited: np.ndarray, block: int = _BLOCK
) -> Iterator[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """Yield (row, columns, together, sizes of the columns) of each row's top ``k`` in
    ``basis · basisᵀ`` without its diagonal, best first: ties in together and size go to
    the column most ``cited``, then the first."""
    import numpy as np

    sizes = np.diff(basis.indptr)
    transposed = basis.T.tocsr()
    n = basis.shape[0]
    for start in range(0, n, block):
        product = (basis[start : start + block] @ transposed).tocsr()
        indptr, indices, data = product.indptr, product.indices, product.data
        for offset in range(product.shape[0]):
            row = start + offset
            cols = indices[indptr[offset] : indptr[offset + 1]]
            vals = data[indptr[offset] : indptr[offset + 1]]
            keep = cols != row
            cols, vals = cols[keep], vals[keep]
            if len(vals) > k:
                floor = np.partition(vals, len(vals) - k)[len(vals) - k]
                above = vals >= floor
                cols, vals = cols[above], vals[above]
            col_sizes = sizes[cols]
            order = np.lexsort((cols, -cited[cols], col_sizes, -vals))[:k]
            yield row, cols[order], vals[order], col_sizes[order]


def top_k(citation: CitationGraph, measure: Measure, k: int = DEFAULT_K) -> list[list[Neighbour]]:
    """Return each paper's top ``k`` co-cited (``measure`` "co-citation") or coupled papers,
    in node order, each list best first as cocited.cypher / coupled.cypher order them.

    Raises ParameterError for an unknown measure or k below 1.
    """
    _check(measure, k)
    adjacency = _matrix(citation)
    # Co-citation: rows of Aᵀ are the citer sets; coupling: rows of A are reference sets.
    basis = adjacency.T.tocsr() if measure == "co-citation" else adjacency
    sizes = [int(s) for s in (basis.indptr[1:] - basis.indptr[:-1])]
    by_column = adjacency.tocsc().indptr
    cited = by_column[1:] - by_column[:-1]  # each paper's citations in the map
    lists: list[list[Neighbour]] = [[] for _ in range(citation.node_count)]
    for row, cols, vals, col_sizes in _top_rows(basis, k, cited):
        size_a = sizes[row]
        entries = []
        for col, together, size_b in zip(
            cols.tolist(), vals.tolist(), col_sizes.tolist(), strict=True
        ):
            cosine, jaccard = _scores(together, size_a, size_b)
            entries.append(Neighbour(col, together, size_a, size_b, cosine, jaccard))
        lists[row] = entries
    return lists


def _check(measure: str, k: int) -> None:
    if measure not in MEASURES:
        raise ParameterError(f"unknown measure {measure!r}", f"use one of {', '.join(MEASURES)}")
    COUNT.check("k", k)


def _stored_lists(graph: Database, measure: Measure) -> dict[str, list[tuple[Any, ...]]]:
    # Records, not dicts: Record.data() would walk the ~860,000 items again in Python.
    records = queries.get(_QUERIES[measure].stored_lists).run_records(graph)
    return {record["key"]: [tuple(item) for item in record["similar"]] for record in records}


def _rows(
    keys: Sequence[str],
    present: set[str],
    lists: Sequence[Sequence[Neighbour]],
    stored: dict[str, list[tuple[Any, ...]]],
) -> Iterator[dict[str, Any]]:
    """Yield one write row per paper whose list differs from the stored one (and that still
    exists, its key in ``present``), naming papers by key."""
    for key, entries in zip(keys, lists, strict=True):
        if key not in present:
            continue  # merged away since the graph was read: its relationships went with it
        listed = [n for n in entries if keys[n.index] in present]
        as_stored = [(keys[n.index], n.together, n.size_a, n.size_b) for n in listed]
        if as_stored == stored.get(key, []):
            continue
        yield {
            "key": key,
            "similar": [
                {
                    "key": keys[n.index],
                    "together": n.together,
                    "size_a": n.size_a,
                    "size_b": n.size_b,
                    "cosine": n.cosine,
                    "jaccard": n.jaccard,
                    "rank": rank,
                }
                for rank, n in enumerate(listed, start=1)
            ],
        }


def run_similarity(
    graph: Database,
    *,
    k: int,
    write: bool,
    batch_size: int,
    measures: Sequence[Measure],
    force: bool,
    writers: int,
) -> SimilarityRun:
    """Compute every paper's top ``k`` co-cited and coupled papers over the whole citation
    graph; with ``write`` replace the stored CO_CITED / COUPLED relationships and record
    the run (AnalyticsRun ``co_cited`` and ``coupled``).

    With ``write``, when the stored runs keep ``k`` papers and no load has stamped a paper
    since they read the graph (similar_unchanged.cypher), the stored lists are what this run
    would write: nothing is read, computed or written, and the answer says so
    (``unchanged``). ``force`` computes and compares anyway. ``writers`` transactions write
    at once, each its own papers' lists.

    Raises ParameterError for a bad option and the graph's errors when Neo4j fails.
    """
    for measure in measures:
        _check(measure, k)
    COUNT.check("batch_size", batch_size)
    COUNT.check("writers", writers)
    began = time.perf_counter()
    if write and not force:
        kept = _unchanged(graph, measures, k, began)
        if kept is not None:
            return kept
    citation, computed_at = _read_graph(graph, leader=write)
    timings = {"read": time.perf_counter() - began}
    mark = time.perf_counter()
    lists = {measure: top_k(citation, measure, k) for measure in measures}
    timings["compute"] = time.perf_counter() - mark
    pairs: dict[str, int] = {m: sum(len(entries) for entries in lists[m]) for m in measures}
    papers_with: dict[str, int] = {m: sum(1 for entries in lists[m] if entries) for m in measures}
    runs: list[AnalyticsRun] = []
    rewritten: dict[str, int] = {}
    if write:
        mark = time.perf_counter()
        rewritten = _write_all(graph, citation.keys, lists, batch_size, writers)
        timings["write"] = time.perf_counter() - mark
        runs = _record(graph, measures, k, citation, pairs, papers_with, computed_at, began)
    timings["total"] = time.perf_counter() - began
    return SimilarityRun(
        k=k,
        nodes=citation.node_count,
        edges=citation.edge_count,
        pairs=dict(pairs),
        papers_with=dict(papers_with),
        timings=timings,
        written=write,
        computed_at=computed_at if write else None,
        runs=runs,
        left_out=citation.left_out,
        rewritten=rewritten,
    )


def _write_all(
    graph: Database,
    keys: Sequence[str],
    lists: dict[Measure, list[list[Neighbour]]],
    batch_size: int,
    writers: int,
) -> dict[str, int]:
    """Forget the stored runs of the measures of ``lists`` and write each paper's lists
    where they differ from the stored ones; return how many papers' lists each rewrote."""
    queries.analytics.similar_forget_runs.run(graph, keys=[RUN_KEYS[m] for m in lists])
    present = {row["key"] for row in queries.analytics.similar_keys.run(graph)}
    rewritten: dict[str, int] = {}
    for measure, found in lists.items():
        query = queries.get(_QUERIES[measure].write)
        stored = _stored_lists(graph, measure)
        rows = list(_rows(keys, present, found, stored))
        rewritten[measure] = len(rows)
        _write_lists(graph, query, rows, batch_size, writers)
    return rewritten


def _parameters(k: int) -> str:
    """The run's parameters as recorded: k and the lists' order."""
    return json.dumps({"k": k, "order": ORDER}, sort_keys=True)


def _unchanged(
    graph: Database, measures: Sequence[Measure], k: int, began: float
) -> SimilarityRun | None:
    """The answer of a run that would write what is stored, or None when it would not.
    Asked of the leader on a cluster, which holds every committed load's stamp."""
    query = queries.analytics.similar_unchanged
    params = query.bind({"runs": [RUN_KEYS[m] for m in measures], "parameters": _parameters(k)})
    row = graph.records(query.cypher, params, write=True)[0]
    if not row["unchanged"]:
        return None
    recorded = {run["key"]: run for run in row["recorded"]}
    first = recorded[RUN_KEYS[measures[0]]]
    seconds = time.perf_counter() - began
    return SimilarityRun(
        k=k,
        nodes=first["nodes"],
        edges=first["edges"],
        pairs={m: recorded[RUN_KEYS[m]]["relationships"] for m in measures},
        papers_with={m: recorded[RUN_KEYS[m]]["papers_with"] for m in measures},
        timings={"check": seconds, "total": seconds},
        written=True,
        computed_at=min(run["computed_at"] for run in recorded.values()),
        rewritten={m: 0 for m in measures},
        unchanged=True,
    )


def _write_lists(
    graph: Database,
    query: queries.Query,
    rows: Sequence[dict[str, Any]],
    batch_size: int,
    writers: int,
) -> None:
    """Replace the stored lists of ``rows``, ``batch_size`` papers a transaction, in
    ``writers`` transactions at once. Each paper's list is in one batch, so no two
    transactions write the same paper's relationships; they share listed papers, whose
    locks can deadlock two of them, and the driver runs such a batch again (it deletes the
    paper's list before writing it, so running it twice gives the same lists)."""
    batches = [list(batch) for batch in chunks(rows, batch_size)]
    if writers == 1 or len(batches) < 2:
        for batch in batches:
            query.run_counters(graph, rows=batch)
        return
    with ThreadPoolExecutor(max_workers=writers, thread_name_prefix="kg-similar") as pool:
        for _ in pool.map(lambda batch: query.run_counters(graph, rows=batch), batches):
            pass


def _read_graph(graph: Database, *, leader: bool) -> tuple[CitationGraph, str]:
    """Return the whole citation graph and the start of the transaction that read it, read
    in that one transaction (projection.cypher's read_at): any load not in the graph read
    committed after that start, and stamps changed_at >= it unless it began earlier (the
    known limit in docs/MODEL.md). With ``leader`` the transaction is routed as a write, to
    the cluster's leader, whose clock the loads' stamps come from and which holds every
    committed load; the statement itself only reads, so a retry is safe."""
    query = queries.analytics.projection
    records = graph.records(query.cypher, query.bind(Scope().params()), write=leader)
    record = records[0]
    citation = CitationGraph.from_projection(list(record["keys"]), list(record["cites"]))
    return citation, str(record["read_at"])


def _record(
    graph: Database,
    measures: Sequence[Measure],
    k: int,
    citation: CitationGraph,
    pairs: dict[str, int],
    papers_with: dict[str, int],
    computed_at: str,
    began: float,
) -> list[AnalyticsRun]:
    runs = [
        {
            "key": RUN_KEYS[measure],
            "algorithm": f"{measure} top-k",
            "parameters": _parameters(k),
            "engine": "scipy",
            "nodes": citation.node_count,
            "edges": citation.edge_count,
            "seconds": round(time.perf_counter() - began, 3),
            "k": k,
            "relationships": pairs[measure],
            "papers_with": papers_with[measure],
        }
        for measure in measures
    ]
    rows = queries.analytics.similar_record_run.run(graph, runs=runs, computed_at=computed_at)
    return [AnalyticsRun.from_row(row) for row in rows]


@dataclass(frozen=True)
class Freshness:
    """Whether the stored lists answer a question about one paper, and why not."""

    fresh: bool
    has_run: bool
    k: int | None
    computed_at: Any
    reason: str | None


def _verdict(row: dict[str, Any], limit: int) -> Freshness:
    """The freshness verdict of a similar_answer row, with the first reason it is stale."""
    k = row["k"]
    reason = None
    if not row["has_run"]:
        reason = "no similarity run is stored (`kg similar --write` stores one)"
    elif not row["enough"]:
        reason = f"the stored run keeps {k} papers per paper, fewer than the {limit} asked for"
    elif row["paper_changed"]:
        reason = "a load changed the paper's citations after the stored run"
    elif row["neighbour_changed"]:
        reason = "a load changed a neighbouring paper's citations after the stored run"
    return Freshness(reason is None, bool(row["has_run"]), k, row["computed_at"], reason)


@dataclass(frozen=True)
class StoredAnswer:
    """The paper a key names, whether the stored lists are fresh for it, and, when they
    are, its top rows from them: one round trip (similar_answer.cypher)."""

    paper: PaperSummary
    verdict: Freshness
    rows: list[dict[str, Any]]


def stored_answer(graph: Database, key: str, measure: Measure, limit: int) -> StoredAnswer | None:
    """Return the paper keyed ``key`` with the freshness of the stored lists of ``measure``
    for a question of ``limit`` papers, and its stored top ``limit`` when they are fresh; None
    when no paper has that key."""
    found = queries.questions.similar_answer.run(graph, key=key, run=RUN_KEYS[measure], limit=limit)
    if not found:
        return None
    row = found[0]
    paper = PaperSummary.model_validate(
        {name: row[name] for name in ("key", "arxiv_id", "title", "year", "stub")}
    )
    return StoredAnswer(paper, _verdict(row, limit), list(row["results"]))


@dataclass(frozen=True)
class LiveBound:
    """How much of the work a bounded live query did: ``counted`` of ``size_a`` citers (or
    references) and ``paths`` of ``all_paths`` two-step paths. ``capped`` when some were
    left out."""

    size_a: int
    counted: int
    paths: int
    all_paths: int
    max_paths: int

    @property
    def capped(self) -> bool:
        """True when the budget left some citers or references out."""
        return self.counted < self.size_a


def similar_rows(
    graph: Database,
    key: str,
    measure: Measure,
    limit: int,
    *,
    max_paths: int = DEFAULT_MAX_PATHS,
    prefer_stored: bool = True,
    stored: StoredAnswer | None = None,
) -> tuple[list[dict[str, Any]], Freshness | None, LiveBound | None]:
    """Return the top ``limit`` rows of ``measure`` for the paper ``key``: from the stored
    relationships when they are fresh (and ``prefer_stored``), else from the bounded live
    query. Also returns the freshness verdict (None when not checked) and, for a live
    answer, how much of the work it did. ``stored`` is the paper's ``stored_answer`` when
    the caller has it already (it is read here otherwise).
    """
    if not prefer_stored:
        stored = None
    elif stored is None:
        stored = stored_answer(graph, key, measure, limit)
    verdict = stored.verdict if stored is not None else None
    if stored is not None and stored.verdict.fresh:
        return stored.rows, verdict, None
    live = queries.get(_QUERIES[measure].live)
    found = live.run(graph, key=key, limit=limit, max_paths=max_paths)
    if not found:
        return [], verdict, LiveBound(0, 0, 0, 0, max_paths)
    row = found[0]
    bound = LiveBound(
        int(row["size_a"]), int(row["counted"]), int(row["paths"]), int(row["all_paths"]), max_paths
    )
    return list(row["results"]), verdict, bound


def stored_runs(graph: Database) -> list[StoredRun]:
    """Return the recorded similarity runs (none, one or both measures), co-citation first."""
    measure_of = {run_key: measure for measure, run_key in RUN_KEYS.items()}
    return [
        StoredRun(
            measure_of[row["key"]], AnalyticsRun.from_row(row), row["k"], row["relationships"]
        )
        for row in queries.questions.similar_runs.run(graph)
    ]
