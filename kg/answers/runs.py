"""The reports of the whole-map runs: analytics (ranking, communities, similarity, the time
analyses) and exports.

They are dataclasses, not pydantic models: a ranking holds every paper's values in columns,
which validating value by value would only slow down. All are frozen but the export summary,
which the writers fill in. Each has ``as_dict()``, the JSON the CLI prints with ``--json``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Only the vocabulary of the answers' fields, for the type checker: at run time
    # kg.answers imports nothing of kg.analytics, which imports it.
    from kg.analytics.igraph_engine import Algorithm, CommunityMethod, Values
    from kg.analytics.ranking import EngineName
    from kg.analytics.similarity import Measure

__all__ = [
    "AnalyticsRun",
    "BeautyResult",
    "BurstResult",
    "Community",
    "CommunityResult",
    "EmbedReport",
    "ExportSummary",
    "MainPathResult",
    "RankResult",
    "RankedPaper",
    "SimilarityRun",
    "StoredRun",
    "TimeRun",
    "Timings",
    "TractionResult",
    "VectorFileReport",
]


# Each report spells out its own fields and its own JSON (as_dict): alike in shape from
# report to report, and each the one place its names are written.
@dataclass(frozen=True)
class AnalyticsRun:
    """The record of one written property: what computed it, on what, and when."""

    key: str
    algorithm: str
    property: str
    parameters: dict[str, Any]
    engine: str
    nodes: int
    edges: int
    snapshot: str | None
    seconds: float
    computed_at: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> AnalyticsRun:
        """Return the run described by a row of analytics_runs or analytics_record_run."""
        snapshot = row.get("snapshot")
        computed = row.get("computed_at")
        return cls(
            key=str(row["key"]),
            algorithm=str(row["algorithm"]),
            property=str(row["property"]),
            parameters=json.loads(row["parameters"]) if row.get("parameters") else {},
            engine=str(row["engine"]),
            nodes=int(row["nodes"]),
            edges=int(row["edges"]),
            snapshot=_iso(snapshot),
            seconds=float(row["seconds"]),
            computed_at=_iso(computed) or "",
        )


def _iso(value: object) -> str | None:
    if value is None:
        return None
    iso_format = getattr(value, "iso_format", None)
    return str(iso_format()) if callable(iso_format) else str(value)


@dataclass(frozen=True)
class Timings:
    """Where the seconds of a run went: reading the graph out of Neo4j, building the
    igraph graph, computing, and storing the results; ``total`` includes the rest."""

    projection: float = 0.0
    build: float = 0.0
    compute: float = 0.0
    write: float = 0.0
    total: float = 0.0

    def as_dict(self) -> dict[str, float]:
        """Return the timings in seconds, rounded to the millisecond."""
        return {
            "projection": round(self.projection, 3),
            "build": round(self.build, 3),
            "compute": round(self.compute, 3),
            "write": round(self.write, 3),
            "total": round(self.total, 3),
        }


@dataclass(frozen=True)
class RankedPaper:
    """One listed paper: its place, identity and the values the run computed for it."""

    rank: int
    key: str
    title: str | None
    year: int | None
    stub: bool
    values: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        """Return the paper as one flat JSON-ready row."""
        return {
            "rank": self.rank,
            "key": self.key,
            "title": self.title,
            "year": self.year,
            "stub": self.stub,
            **self.values,
        }


@dataclass(frozen=True)
class RankResult:
    """A ranking: every paper's values, the top papers, and what the run did."""

    algorithm: Algorithm
    engine: EngineName
    parameters: dict[str, Any]
    nodes: int
    edges: int
    properties: tuple[str, ...]
    keys: tuple[str, ...]
    values: Values
    top: list[RankedPaper]
    timings: Timings
    written: int = 0
    runs: list[AnalyticsRun] = field(default_factory=list)
    left_out: int = 0
    """Citations of papers a concurrent load added while the graph was read (not counted)."""

    def scores(self, prop: str | None = None) -> dict[str, float]:
        """Return ``{key: value}`` of one property (default: the one papers are ranked by)."""
        column = self.values[prop or self.properties[0]]
        return dict(zip(self.keys, column, strict=True))

    def as_dict(self) -> dict[str, Any]:
        """Return the run and its top papers (under "results") as JSON-ready data."""
        return {
            "algorithm": self.algorithm,
            "engine": self.engine,
            "parameters": self.parameters,
            "nodes": self.nodes,
            "edges": self.edges,
            "properties": list(self.properties),
            "written": self.written,
            "left_out": self.left_out,
            "timings": self.timings.as_dict(),
            "results": [paper.as_dict() for paper in self.top],
        }


@dataclass(frozen=True)
class Community:
    """One community: its number (0 is the largest), size and most cited papers."""

    id: int
    size: int
    top: list[RankedPaper]

    def as_dict(self) -> dict[str, Any]:
        """Return the community as JSON-ready data."""
        return {
            "community": self.id,
            "size": self.size,
            "papers": [paper.as_dict() for paper in self.top],
        }


@dataclass(frozen=True)
class CommunityResult:
    """A partition of the papers in scope into communities, and what the run did."""

    method: CommunityMethod
    engine: EngineName
    parameters: dict[str, Any]
    nodes: int
    edges: int
    count: int
    modularity: float | None
    keys: tuple[str, ...]
    membership: list[int]
    communities: list[Community]
    timings: Timings
    written: int = 0
    runs: list[AnalyticsRun] = field(default_factory=list)
    left_out: int = 0
    """Citations of papers a concurrent load added while the graph was read (not counted)."""

    def community_of(self) -> dict[str, int]:
        """Return ``{key: community number}`` for every paper in scope."""
        return dict(zip(self.keys, self.membership, strict=True))

    def as_dict(self) -> dict[str, Any]:
        """Return the run and its largest communities (under "results") as JSON-ready data."""
        return {
            "method": self.method,
            "engine": self.engine,
            "parameters": self.parameters,
            "nodes": self.nodes,
            "edges": self.edges,
            "communities": self.count,
            "modularity": None if self.modularity is None else round(self.modularity, 6),
            "written": self.written,
            "left_out": self.left_out,
            "timings": self.timings.as_dict(),
            "results": [community.as_dict() for community in self.communities],
        }


@dataclass(frozen=True)
class SimilarityRun:
    """What one `kg similar` run computed (and, with write, stored)."""

    k: int
    nodes: int
    edges: int
    pairs: dict[str, int]
    """Listed pairs per measure (the relationships written, with write)."""
    papers_with: dict[str, int]
    """Papers with at least one similar paper, per measure."""
    timings: dict[str, float]
    written: bool
    computed_at: str | None = None
    runs: list[AnalyticsRun] = field(default_factory=list)
    left_out: int = 0
    rewritten: dict[str, int] = field(default_factory=dict)
    """Papers whose stored list changed and was rewritten, per measure (with write)."""
    unchanged: bool = False
    """With write: no paper changed since the stored runs read the graph, so nothing was
    read, computed or written (the counts are the stored runs')."""

    def as_dict(self) -> dict[str, Any]:
        """Return the run as JSON-ready data."""
        return {
            "k": self.k,
            "nodes": self.nodes,
            "edges": self.edges,
            "pairs": self.pairs,
            "papers_with": self.papers_with,
            "timings": {name: round(value, 3) for name, value in self.timings.items()},
            "written": self.written,
            "computed_at": self.computed_at,
            "left_out": self.left_out,
            "rewritten": self.rewritten,
            "unchanged": self.unchanged,
        }


@dataclass(frozen=True)
class StoredRun:
    """A recorded similarity run as `kg similar` shows it."""

    measure: Measure
    run: AnalyticsRun
    k: int | None
    relationships: int | None


@dataclass(frozen=True)
class TimeRun:
    """What every time analysis reports besides its papers."""

    parameters: dict[str, Any]
    nodes: int
    edges: int
    undated: int
    left_out: int
    seconds: float
    written: int
    runs: list[AnalyticsRun]

    def as_dict(self) -> dict[str, Any]:
        """Return the run as JSON-ready data, its records by key."""
        return {
            "parameters": self.parameters,
            "nodes": self.nodes,
            "edges": self.edges,
            "undated_citations": self.undated,
            "left_out": self.left_out,
            "seconds": round(self.seconds, 3),
            "written": self.written,
            "runs": [run.key for run in self.runs],
        }


@dataclass(frozen=True)
class BurstResult:
    """Citation bursts: the bursts listed (strongest first) and what the run did."""

    run: TimeRun
    papers_with_bursts: int
    bursts_found: int
    shown_of: int
    top: list[RankedPaper] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Return the run and its bursts (under "results") as JSON-ready data."""
        return {
            **self.run.as_dict(),
            "papers_with_bursts": self.papers_with_bursts,
            "bursts": self.bursts_found,
            "matching": self.shown_of,
            "results": [paper.as_dict() for paper in self.top],
        }


@dataclass(frozen=True)
class BeautyResult:
    """Sleeping beauties: the papers of highest beauty coefficient and what the run did."""

    run: TimeRun
    scored: int
    top: list[RankedPaper] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Return the run and its papers (under "results") as JSON-ready data."""
        return {
            **self.run.as_dict(),
            "scored": self.scored,
            "results": [paper.as_dict() for paper in self.top],
        }


@dataclass(frozen=True)
class TractionResult:
    """Gaining traction: the papers most above their cohort and what the run did."""

    run: TimeRun
    as_of: int | None
    window: int
    scored: int
    top: list[RankedPaper] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Return the run and its papers (under "results") as JSON-ready data."""
        return {
            **self.run.as_dict(),
            "as_of": self.as_of,
            "window": self.window,
            "scored": self.scored,
            "results": [paper.as_dict() for paper in self.top],
        }


@dataclass(frozen=True)
class MainPathResult:
    """Main path analysis: the global main path in order, the key-route main path's papers,
    how cycles were broken, and what the run did."""

    run: TimeRun
    total_flow_log10: float | None
    arcs: int
    dropped: int
    mutual_pairs: int
    cyclic_components: int
    largest_component: int
    key_routes: int
    path_papers: int
    """Papers on the global main path, all of them, when ``path`` lists fewer (kg mainpath
    --limit)."""
    key_route_papers: int
    """Papers on the key-route main path, all of them, when ``key_route`` lists fewer."""
    path: list[RankedPaper] = field(default_factory=list)
    key_route: list[RankedPaper] = field(default_factory=list)
    key_route_arcs: list[tuple[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """Return the run, the global main path (under "results", oldest first) and the
        key-route main path as JSON-ready data, with how many papers each path has."""
        return {
            **self.run.as_dict(),
            "total_flow_log10": self.total_flow_log10,
            "arcs": self.arcs,
            "dropped_arcs": self.dropped,
            "mutual_pairs": self.mutual_pairs,
            "cyclic_components": self.cyclic_components,
            "largest_cyclic_component": self.largest_component,
            "key_routes": self.key_routes,
            "main_path_papers": self.path_papers,
            "key_route_papers": self.key_route_papers,
            "results": [paper.as_dict() for paper in self.path],
            "key_route": [paper.as_dict() for paper in self.key_route],
            "key_route_citations": [
                {"cited": cited, "citing": citing} for cited, citing in self.key_route_arcs
            ],
        }


@dataclass
class ExportSummary:
    """What an export wrote."""

    format: str
    path: str
    selection: str
    papers: int = 0
    citations: int = 0
    links: int = 0
    """Co-citation or coupling links written (graph-json's similarity layers)."""
    skipped: int = 0
    """Citations not written because an end was not among the papers written (a load ran
    between the two passes of a format that numbers its papers)."""
    files: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        """Return the summary as a JSON-ready dict."""
        return {
            "format": self.format,
            "path": self.path,
            "selection": self.selection,
            "papers": self.papers,
            "citations": self.citations,
            "links": self.links,
            "skipped": self.skipped,
            "files": self.files,
        }


@dataclass(frozen=True)
class EmbedReport:
    """What one `kg embed` run did: the model, how many titled papers it read, how many it
    embedded (new or changed text, or another model) and how long it took."""

    model: str
    dimension: int
    papers: int
    embedded: int
    seconds: float
    model_load_seconds: float | None

    @property
    def unchanged(self) -> int:
        """Papers whose stored vector already matched their text."""
        return self.papers - self.embedded

    def as_dict(self) -> dict[str, Any]:
        """Return the report as the JSON of ``kg embed --json``."""
        return {
            "model": self.model,
            "dimension": self.dimension,
            "papers": self.papers,
            "embedded": self.embedded,
            "unchanged": self.unchanged,
            "seconds": round(self.seconds, 3),
            "model_load_seconds": self.model_load_seconds,
        }


@dataclass(frozen=True)
class VectorFileReport:
    """What one `kg embed --from FILE` did: the file, the model its vectors are from, their
    dimension, how many rows it read, how many papers got a vector, how many rows named no
    paper of the map, and the rows rejected (the first of them as ``file:line: reason``)."""

    path: str
    model: str
    dimension: int | None
    rows: int
    written: int
    not_in_map: int
    rejected: int
    rejects: list[str]
    replaced: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        """Return the report as the JSON of ``kg embed --from FILE --json``."""
        return {
            "path": self.path,
            "model": self.model,
            "dimension": self.dimension,
            "rows": self.rows,
            "written": self.written,
            "not_in_map": self.not_in_map,
            "rejected": self.rejected,
            "rejects": self.rejects,
            "replaced": self.replaced,
            "seconds": round(self.seconds, 3),
        }
