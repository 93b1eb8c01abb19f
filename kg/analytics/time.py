"""Time analytics over the map: citation bursts, sleeping beauties, gaining traction and
main paths, read from Neo4j and written back with a run record.

Each analysis reads the papers in scope and the citations among them in one query
(cypher/analytics/timeline_projection.cypher), computes with the pure functions of
kg.analytics.time_series and kg.analytics.mainpath, and lists the top papers.
A paper's citations in year ``t`` are the papers in
scope citing it whose year is ``t``; citing papers of unknown year are left out of every
series (and counted). A paper's data ends at the last year any citation was made in its
body of data, the papers citations connect it to (``CitationTimeline``).

With ``write=True`` the values are stored as the other analytics store theirs
(kg/analytics/ranking.py): the properties are removed from every paper first, the new values are
written in batches, and each property gets an ``AnalyticsRun`` record keyed by its name:
``burst_strength``, ``burst_start``, ``burst_end``; ``beauty``, ``awakening``; ``traction``;
``spc`` (on CITES), ``main_path`` and ``key_route`` (flags on papers).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kg import queries
from kg.analytics import Scope, mainpath, time_series
from kg.analytics.stored import record_runs, write_rows
from kg.answers import (
    AnalyticsRun,
    BeautyResult,
    BurstResult,
    MainPathResult,
    RankedPaper,
    TimeRun,
    TractionResult,
)
from kg.database import Database
from kg.errors import ParameterError
from kg.numbers import COUNT, COUNT_OR_ZERO, optional_whole_number, whole_number
from loaders.unions import Unions

__all__ = [
    "DEFAULT_KEY_ROUTES",
    "CitationTimeline",
    "bursts",
    "load_timeline",
    "main_path",
    "sleeping_beauties",
    "traction",
]

DEFAULT_KEY_ROUTES = 5
_ENGINE = "python"


@dataclass(frozen=True)
class CitationTimeline:
    """The papers in scope, the citations among them, and each paper's citations per year.

    ``cites[i]`` holds the indices of the papers paper ``i`` cites; ``per_year[i]`` maps a
    year to the citations paper ``i`` received from papers of that year; ``totals`` maps a
    year to every citation made that year within scope.

    A paper's body of data is the papers it is connected to by citations, either way
    (a weakly connected component): ``body[i]`` numbers paper ``i``'s, and
    ``body_totals[b]`` maps a year to the citations made that year within body ``b``. A
    paper's series run over its body's years only, so that data no citation connects to it
    (the map's ML pages beside cit-HepTh) changes nothing of its bursts or traction.
    """

    keys: tuple[str, ...]
    years: list[int | None]
    published: list[str | None]
    categories: list[str | None]
    cites: list[list[int]]
    per_year: list[dict[int, int]]
    totals: dict[int, int]
    undated: int
    left_out: int
    body: list[int]
    body_totals: list[dict[int, int]]

    @property
    def node_count(self) -> int:
        """How many papers are in scope."""
        return len(self.keys)

    @property
    def edge_count(self) -> int:
        """How many citations run between papers in scope."""
        return sum(len(c) for c in self.cites)

    @property
    def last_year(self) -> int | None:
        """The last year any citation in scope was made, or None without dated citations."""
        return max(self.totals) if self.totals else None

    def last_year_of(self, i: int) -> int | None:
        """The last year any citation in paper ``i``'s body of data was made, or None."""
        totals = self.body_totals[self.body[i]]
        return max(totals) if totals else None

    def totals_of(self, i: int) -> dict[int, int]:
        """The citations made each year within paper ``i``'s body of data."""
        return self.body_totals[self.body[i]]

    @classmethod
    def build(
        cls, papers: Sequence[Sequence[Any]], cites: Sequence[Sequence[str]]
    ) -> CitationTimeline:
        """Return the timeline of the rows of timeline_projection."""
        keys = tuple(str(row[0]) for row in papers)
        index = {key: i for i, key in enumerate(keys)}
        years = [None if row[1] is None else int(row[1]) for row in papers]
        published = [None if row[2] is None else str(row[2]) for row in papers]
        categories = [None if row[3] is None else str(row[3]) for row in papers]
        out: list[list[int]] = []
        per_year: list[dict[int, int]] = [{} for _ in keys]
        totals: dict[int, int] = {}
        undated = left_out = 0
        for citing, cited_keys in enumerate(cites):
            targets: list[int] = []
            for cited_key in dict.fromkeys(cited_keys):  # one citation per pair, as CITES is
                cited = index.get(cited_key)
                if cited is None or cited == citing:
                    left_out += cited is None
                    continue
                targets.append(cited)
                year = years[citing]
                if year is None:
                    undated += 1
                    continue
                per_year[cited][year] = per_year[cited].get(year, 0) + 1
                totals[year] = totals.get(year, 0) + 1
            out.append(targets)
        body = _bodies(out)
        body_totals: list[dict[int, int]] = [{} for _ in range(max(body, default=-1) + 1)]
        for citing, targets in enumerate(out):
            year = years[citing]
            if year is not None and targets:
                found = body_totals[body[citing]]
                found[year] = found.get(year, 0) + len(targets)
        return cls(
            keys,
            years,
            published,
            categories,
            out,
            per_year,
            totals,
            undated,
            left_out,
            body,
            body_totals,
        )


def _bodies(cites: Sequence[Sequence[int]]) -> list[int]:
    """Number the weakly connected components of the citations (union-find), 0, 1, ... in
    the order of their first paper."""
    unions = Unions(len(cites))
    for citing, targets in enumerate(cites):
        for cited in targets:
            unions.join(citing, cited)
    numbers: dict[int, int] = {}
    return [numbers.setdefault(unions.root(i), len(numbers)) for i in range(len(cites))]


def load_timeline(graph: Database, scope: Scope | None = None) -> CitationTimeline:
    """Return the papers in ``scope`` (default: all) and the citations among them, read in
    one query. Raises ParameterError for a bad scope and the graph's errors when Neo4j fails."""
    chosen = scope or Scope()
    chosen.check()
    records = queries.analytics.timeline_projection.run_records(graph, **chosen.params())
    papers: list[list[Any]] = list(records[0]["papers"]) if records else []
    cites: list[list[str]] = list(records[0]["cites"]) if records else []
    return CitationTimeline.build(papers, cites)


def _listed(graph: Database, rows: Sequence[tuple[str, dict[str, Any]]]) -> list[RankedPaper]:
    details: dict[str, dict[str, Any]] = {}
    if rows:
        wanted = sorted({key for key, _ in rows})
        details = {row["key"]: row for row in queries.analytics.papers.run(graph, keys=wanted)}
    listed = []
    for place, (key, values) in enumerate(rows, start=1):
        row = details.get(key, {})
        listed.append(
            RankedPaper(
                rank=place,
                key=key,
                title=row.get("title"),
                year=row.get("year"),
                stub=bool(row.get("stub", False)),
                values=values,
            )
        )
    return listed


# Every analysis, here and in kg.analytics.ranking, takes scope, write and batch_size by
# keyword after its own options: public signatures alike by design.
def _begin(
    graph: Database, scope: Scope | None, limit: int, batch_size: int
) -> tuple[Scope, float, CitationTimeline]:
    """Check the options every time analysis takes, then read the timeline of ``scope``;
    return the scope, when the run began and the timeline."""
    limit = COUNT_OR_ZERO.check("limit", limit)
    batch_size = COUNT.check("batch_size", batch_size)
    chosen = scope or Scope()
    began = time.perf_counter()
    return chosen, began, load_timeline(graph, chosen)


_STORED: dict[str, tuple[str, ...]] = {
    "bursts": ("burst_strength", "burst_start", "burst_end"),
    "beauty": ("beauty", "awakening"),
    "traction": ("traction",),
}
"""The Paper properties each timeline analysis stores, by analysis: the only property names
analytics/write_paper_values.cypher and clear_paper_values.cypher are given from here."""


def _store_values(
    graph: Database, name: str, values: Iterable[tuple[str, Sequence[Any]]], batch: int
) -> int:
    """Remove the properties of ``name`` from every paper, then write each (key, values in
    ``_STORED[name]`` order) in batches; return the rows written."""
    assert name in _STORED, f"{name!r} is not one of the timeline's own stored names"
    props = _STORED[name]
    queries.analytics.clear_paper_values.run(graph, nulls=dict.fromkeys(props), batch_size=batch)
    rows = [{"key": key, "props": dict(zip(props, row, strict=True))} for key, row in values]
    return write_rows(graph, queries.analytics.write_paper_values, rows, batch)


def _finish(
    graph: Database,
    data: CitationTimeline,
    algorithm: str,
    parameters: dict[str, Any],
    began: float,
    write: Callable[[], int] | None,
    properties: Sequence[str],
) -> TimeRun:
    written = 0
    runs: list[AnalyticsRun] = []
    if write is not None:
        written = write()
        runs = record_runs(
            graph,
            algorithm,
            properties,
            parameters,
            _ENGINE,
            data.node_count,
            data.edge_count,
            time.perf_counter() - began,
        )
    return TimeRun(
        parameters,
        data.node_count,
        data.edge_count,
        data.undated,
        data.left_out,
        time.perf_counter() - began,
        written,
        runs,
    )


def _series(data: CitationTimeline, i: int, last: int) -> tuple[int, list[int]]:
    """Return the first year of paper ``i``'s series (its year, or its first citation if
    earlier or unknown) and its citations per year up to ``last``."""
    counts = data.per_year[i]
    cited_years = list(counts)
    first = min(cited_years) if cited_years else last
    year = data.years[i]
    if year is not None:
        first = min(first, year)
    return first, [counts.get(y, 0) for y in range(first, last + 1)]


def bursts(
    graph: Database,
    *,
    scope: Scope | None,
    since: int | None,
    s: float,
    gamma: float,
    limit: int,
    write: bool,
    batch_size: int,
) -> BurstResult:
    """Return the citation bursts of the papers in ``scope`` that last until ``since`` or
    later, strongest first, at most ``limit``; with ``write`` store each paper's strongest
    burst (burst_strength, burst_start, burst_end) and record the runs.

    Each paper's series runs from its year (or its first citation, if earlier) to the last
    year of its body of data (``CitationTimeline``); year ``t`` counts ``r`` citations to it
    of the ``d`` made that year in its body (kg.analytics.time_series explains the model).
    Raises ParameterError for a bad option.
    """
    since = optional_whole_number("since", since)
    if s <= 1:
        raise ParameterError(
            f"s {s} is not above 1", "the burst state's rate is s times the base rate; use e.g. 2"
        )
    if gamma < 0:
        raise ParameterError(f"gamma {gamma} is negative", "use 0 or more, e.g. 1")
    chosen, began, data = _begin(graph, scope, limit, batch_size)
    found, strongest = _bursts_of(data, s, gamma)
    matching = sorted(
        (b for b in found if since is None or b[3] >= since), key=lambda b: (-b[0], b[1], b[2])
    )
    rows = [
        (key, {"burst_start": start, "burst_end": end, "strength": strength})
        for strength, key, start, end in matching[:limit]
    ]
    parameters: dict[str, Any] = {"s": s, "gamma": gamma, **chosen.describe()}

    def store() -> int:
        written = [(key, (b.strength, b.start, b.end)) for key, b in sorted(strongest.items())]
        return _store_values(graph, "bursts", written, batch_size)

    run = _finish(
        graph,
        data,
        "kleinberg-bursts",
        parameters,
        began,
        store if write else None,
        _STORED["bursts"],
    )
    return BurstResult(run, len(strongest), len(found), len(matching), _listed(graph, rows))


def _bursts_of(
    data: CitationTimeline, s: float, gamma: float
) -> tuple[list[tuple[float, str, int, int]], dict[str, time_series.Burst]]:
    """Return every burst of the papers of ``data`` as (strength, key, start, end), and
    each paper's strongest."""
    found: list[tuple[float, str, int, int]] = []
    strongest: dict[str, time_series.Burst] = {}
    for i, key in enumerate(data.keys):
        last = data.last_year_of(i)
        if data.per_year[i] and last is not None:
            first, r = _series(data, i, last)
            totals = data.totals_of(i)
            d = [totals.get(y, 0) for y in range(first, last + 1)]
            for burst in time_series.bursts(r, d, s, gamma):
                placed = time_series.Burst(first + burst.start, first + burst.end, burst.strength)
                found.append((placed.strength, key, placed.start, placed.end))
                if key not in strongest or placed.strength > strongest[key].strength:
                    strongest[key] = placed
    return found, strongest


def sleeping_beauties(
    graph: Database,
    *,
    scope: Scope | None,
    min_citations: int,
    limit: int,
    write: bool,
    batch_size: int,
) -> BeautyResult:
    """Return the papers in ``scope`` with at least ``min_citations`` citations, highest
    beauty coefficient first (Ke et al. 2015, see kg.analytics.time_series), at most ``limit``; with
    ``write`` store beauty and awakening (a year) on every scored paper.

    A paper's series starts in its year (citations dated earlier count in that year) and
    ends at the last year of its body of data (``CitationTimeline``); papers of unknown year
    are not scored. Raises ParameterError for a bad option.
    """
    min_citations = COUNT.check("min_citations", min_citations)
    limit = whole_number("limit", limit)
    chosen, began, data = _begin(graph, scope, limit, batch_size)
    scored = _beauties(data, min_citations)
    ranked = sorted(scored, key=lambda row: (-row[1].coefficient, row[0]))
    rows = [
        (
            key,
            {
                "beauty": beauty.coefficient,
                "awakening": year + beauty.awakening,
                "peak": year + beauty.peak,
                "citations": total,
            },
        )
        for key, beauty, year, total in ranked[:limit]
    ]
    parameters: dict[str, Any] = {"min_citations": min_citations, **chosen.describe()}

    def store() -> int:
        written = [
            (key, (beauty.coefficient, year + beauty.awakening)) for key, beauty, year, _ in scored
        ]
        return _store_values(graph, "beauty", written, batch_size)

    run = _finish(
        graph,
        data,
        "beauty-coefficient",
        parameters,
        began,
        store if write else None,
        _STORED["beauty"],
    )
    return BeautyResult(run, len(scored), _listed(graph, rows))


def _beauties(
    data: CitationTimeline, min_citations: int
) -> list[tuple[str, time_series.Beauty, int, int]]:
    """Return (key, beauty, year, citations) of each paper of ``data`` of known year with at
    least ``min_citations`` citations."""
    scored: list[tuple[str, time_series.Beauty, int, int]] = []
    for i, key in enumerate(data.keys):
        year, last = data.years[i], data.last_year_of(i)
        counts = data.per_year[i]
        total = sum(counts.values())
        if year is None or last is None or total < min_citations or year > last:
            continue
        series = [0] * (last - year + 1)
        for cited_in, count in counts.items():
            series[max(cited_in - year, 0)] += count
        scored.append((key, time_series.beauty_coefficient(series), year, total))
    return scored


def traction(
    graph: Database,
    *,
    scope: Scope | None,
    as_of: int | None,
    window: int,
    min_citations: int,
    min_cohort: int,
    limit: int,
    write: bool,
    batch_size: int,
) -> TractionResult:
    """Return the papers gaining traction: citations in the ``window`` years ending at
    ``as_of`` (default: the last year of each paper's body of data, ``CitationTimeline``,
    so that the default map's hep-th papers are scored up to 2003 and its ML papers up to
    their own last year; ``TractionResult.as_of`` is then None when those differ) against
    the mean of the papers of the same primary category and year
    (kg.analytics.time_series.traction), highest first, among papers with at least
    ``min_citations`` in the window and cohorts of at least ``min_cohort``; with ``write``
    store traction on every paper scored.

    Papers of unknown year or published after ``as_of`` are not scored. Raises
    ParameterError for a bad option.
    """
    as_of = optional_whole_number("as_of", as_of)
    window = COUNT.check("window", window)
    min_citations = COUNT_OR_ZERO.check("min_citations", min_citations)
    min_cohort = COUNT.check("min_cohort", min_cohort)
    limit = whole_number("limit", limit)
    chosen, began, data = _begin(graph, scope, limit, batch_size)
    recent, cohorts, end = _recent_citations(data, as_of, window)
    scores = time_series.traction(recent, cohorts, min_cohort)
    rows = _traction_rows(scores, cohorts, min_citations, limit)
    parameters: dict[str, Any] = {
        "as_of": end,
        "window": window,
        "min_cohort": min_cohort,
        **chosen.describe(),
    }

    def store() -> int:
        written = [(key, (t.ratio,)) for key, t in sorted(scores.items())]
        return _store_values(graph, "traction", written, batch_size)

    run = _finish(
        graph, data, "traction", parameters, began, store if write else None, _STORED["traction"]
    )
    return TractionResult(run, end, window, len(scores), _listed(graph, rows))


def _traction_rows(
    scores: dict[str, time_series.Traction],
    cohorts: dict[str, tuple[str | None, int]],
    min_citations: int,
    limit: int,
) -> list[tuple[str, dict[str, Any]]]:
    """Return the rows of the ``limit`` papers with the most traction among those with at
    least ``min_citations`` citations in the window."""
    ranked = sorted(
        (item for item in scores.items() if item[1].observed >= min_citations),
        key=lambda item: (-item[1].ratio, -item[1].observed, item[0]),
    )
    return [
        (
            key,
            {
                "traction": t.ratio,
                "recent": t.observed,
                "expected": t.expected,
                "cohort": t.cohort,
                "category": cohorts[key][0],
            },
        )
        for key, t in ranked[:limit]
    ]


def _recent_citations(
    data: CitationTimeline, as_of: int | None, window: int
) -> tuple[dict[str, int], dict[str, tuple[str | None, int]], int | None]:
    """Return each scored paper's citations in the ``window`` years ending at ``as_of`` (or
    at the last year of its body of data), its cohort (primary category, year), and the
    year the windows end when they all end in one (always with ``as_of``), else None."""
    recent: dict[str, int] = {}
    cohorts: dict[str, tuple[str | None, int]] = {}
    ends: set[int] = set()
    for i, key in enumerate(data.keys):
        year, end = data.years[i], as_of if as_of is not None else data.last_year_of(i)
        if year is None or end is None or year > end:
            continue
        ends.add(end)
        counts = data.per_year[i]
        recent[key] = sum(counts.get(y, 0) for y in range(end - window + 1, end + 1))
        cohorts[key] = (data.categories[i], year)
    # One year when every paper scored shares it (always with ``as_of``), else None: each
    # body of data's window ends at its own last year
    return recent, cohorts, as_of if as_of is not None else (min(ends) if len(ends) == 1 else None)


def _time_rank(data: CitationTimeline) -> list[int]:
    """Return each paper's place in time: first-posted date, else the end of its year,
    else last; then key."""

    order = sorted(range(data.node_count), key=lambda i: (_time_rank_of(data, i), data.keys[i]))
    rank = [0] * data.node_count
    for place, i in enumerate(order):
        rank[i] = place
    return rank


def main_path(
    graph: Database,
    *,
    scope: Scope | None,
    key_routes: int,
    write: bool,
    batch_size: int,
) -> MainPathResult:
    """Return the global main path and the key-route main path (from ``key_routes`` key
    arcs) of the citations among the papers in ``scope``, by search path count (see
    kg.analytics.mainpath); with ``write`` store spc (a share of all paths) on every citation
    used and flag main_path and key_route papers.

    Cycles are broken against time inside each strongly connected component (the citations
    of an earlier paper to a later one are dropped) and reported. Raises ParameterError for
    a bad option.
    """
    key_routes = COUNT.check("key_routes", key_routes)
    chosen, began, data = _begin(graph, scope, 0, batch_size)
    n = data.node_count
    flow = [(cited, citing) for citing, targets in enumerate(data.cites) for cited in targets]
    acyclic = mainpath.break_cycles(n, flow, _time_rank(data))
    spc = mainpath.search_path_counts(n, acyclic.arcs)
    path = mainpath.global_main_path(n, spc)
    routes = mainpath.key_route_main_path(n, spc, key_routes) if acyclic.arcs else []
    shares = spc.shares()
    share_of = dict(zip(spc.arcs, shares, strict=True))
    keys = data.keys
    path_rows = [
        (keys[v], {"spc_in": share_of[(path[j - 1], v)] if j else None}) for j, v in enumerate(path)
    ]
    route_nodes = sorted(
        {v for arc in routes for v in arc}, key=lambda v: (_time_rank_of(data, v), keys[v])
    )
    route_rows: list[tuple[str, dict[str, Any]]] = [(keys[v], {}) for v in route_nodes]
    parameters: dict[str, Any] = {"key_routes": key_routes, **chosen.describe()}

    store = functools.partial(
        _store_main_path, graph, chosen, data, spc, (path, route_nodes), batch_size
    )
    run = _finish(graph, data, "main-path-spc", parameters, began, store if write else None, _PATHS)
    total = spc.total_flow
    return MainPathResult(
        run=run,
        total_flow_log10=math.log10(total) if total else None,
        arcs=len(acyclic.arcs),
        dropped=len(acyclic.dropped),
        mutual_pairs=acyclic.mutual_pairs,
        cyclic_components=acyclic.cyclic_components,
        largest_component=acyclic.largest_component,
        key_routes=key_routes,
        path_papers=len(path_rows),
        key_route_papers=len(route_rows),
        path=_listed(graph, path_rows),
        key_route=_listed(graph, route_rows),
        key_route_arcs=[(keys[u], keys[v]) for u, v in routes],
    )


_PATHS = ("spc", "main_path", "key_route")
"""What a main path run stores."""


def _store_main_path(
    graph: Database,
    chosen: Scope,
    data: CitationTimeline,
    spc: mainpath.SearchPathCounts,
    paths: tuple[Sequence[int], Sequence[int]],
    batch_size: int,
) -> int:
    """Store spc on the citations of ``chosen`` and flag the papers on the main path and
    the key routes (``paths``), clearing what an older run stored; return the rows written."""
    keys = data.keys
    arcs = _spc_rows(data, spc.arcs, spc.shares())
    on_path, on_route = set(paths[0]), set(paths[1])
    flags = [
        {"key": keys[v], "main_path": v in on_path, "key_route": v in on_route}
        for v in sorted(on_path | on_route)
    ]
    queries.analytics.mainpath_clear.run(graph, **chosen.params(), batch_size=batch_size)
    return write_rows(graph, queries.analytics.mainpath_write_spc, arcs, batch_size) + write_rows(
        graph, queries.analytics.mainpath_write_papers, flags, batch_size
    )


def _spc_rows(
    data: CitationTimeline, arcs: Sequence[tuple[int, int]], shares: Sequence[float]
) -> list[dict[str, Any]]:
    """Return the mainpath_write_spc rows: each citing paper's share of the paths through
    each of its citations (``arcs`` as (cited, citing), with their ``shares``)."""
    # Every citing paper with a citation in scope gets a row, so a citation dropped to
    # break a cycle loses an old weight too; the clear handles the rest.
    by_citing: dict[int, dict[str, float]] = {
        citing: {} for citing, targets in enumerate(data.cites) if targets
    }
    for (cited, citing), share in zip(arcs, shares, strict=True):
        by_citing[citing][data.keys[cited]] = share
    return [{"citing": data.keys[i], "spc": weights} for i, weights in sorted(by_citing.items())]


def _time_rank_of(data: CitationTimeline, i: int) -> str:
    """Return when paper ``i`` appeared, as text that sorts in time."""
    date, year = data.published[i], data.years[i]
    return date if date else (f"{year:04d}-99" if year is not None else "9999")
