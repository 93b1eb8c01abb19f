"""A paper's own facts: its map page rebuilt from the graph, the snapshots that describe it,
and what each source says of it beside what the graph holds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from kg import queries
from kg.answers import PaperReport, PaperSnapshots, PaperSources, SnapshotLink, YearCount
from kg.database import Database
from kg.numbers import COUNT, COUNT_OR_ZERO, Bound
from kg.questions.bounds import LIST_INDEX_MAX
from kg.refs import resolve
from loaders.ids import parse_id_key

__all__ = ["DEFAULT_EXAMPLES", "EXAMPLES", "MAX_EXAMPLES", "paper_report", "snapshots", "sources"]

DEFAULT_EXAMPLES = 5
"""How many papers each list of stubs and of differences shows, by default."""
MAX_EXAMPLES = 1000
"""The most papers such a list may show."""
EXAMPLES: Final = Bound(0, MAX_EXAMPLES)
"""The bounds of ``examples``."""


def _histogram(stated: Mapping[str, list[int]] | None) -> list[YearCount]:
    if not stated:
        return []
    return [
        YearCount(year=year, count=count)
        for year, count in zip(stated["years"], stated["counts"], strict=True)
    ]


_ID_NAMES = {"corpus": "corpus_id"}
"""How ``PaperReport.ids`` names a kind of id whose key name differs (``loaders.ids``)."""


def _ids(arxiv_id: str | None, id_keys: list[str]) -> tuple[dict[str, str], list[str]]:
    """A paper's strong ids by kind (the smallest of a kind), and the rest as id keys."""
    ids: dict[str, str] = {"arxiv": arxiv_id} if arxiv_id else {}
    others: list[str] = []
    for key in sorted(id_keys):
        parsed = parse_id_key(key)
        if parsed is None:
            continue
        name = _ID_NAMES.get(parsed[0], parsed[0])
        if name in ids:
            others.append(key)
        else:
            ids[name] = parsed[1]
    return ids, others


def paper_report(
    graph: Database,
    ref: str,
    *,
    limit: int | None = None,
    references_offset: int = 0,
    citers_offset: int = 0,
) -> PaperReport:
    """Return the map page of the paper ``ref`` names, rebuilt from the graph: graph counts
    beside stated ones, the citing-papers histogram both ways, references and citers sorted
    by cited-by (ties: the most cited in the graph first). Each list holds at most ``limit``
    papers (None: all) after skipping its first ``references_offset`` or ``citers_offset``;
    ``builds_on`` and ``cited_by_in_map`` count the whole lists. Raises PaperNotFound or
    AmbiguousPaper for a bad REF, ParameterError for a limit below 1 or an offset below 0."""
    if limit is not None:
        limit = COUNT.check("limit", limit)
    references_offset = COUNT_OR_ZERO.check("references_offset", references_offset)
    citers_offset = COUNT_OR_ZERO.check("citers_offset", citers_offset)
    # SKIP and LIMIT add up in 64 bits: no list is longer than the largest list index.
    page = None if limit is None else min(limit, LIST_INDEX_MAX)
    key = resolve(graph, ref).key
    row = queries.questions.paper_report.run(graph, key=key)[0]
    abstract, excerpt = row.pop("abstract"), row.pop("abstract_excerpt")
    stated = row.pop("stated_histogram")
    ids, other_ids = _ids(row["arxiv_id"], row.pop("id_keys"))
    return PaperReport.model_validate(
        {
            **row,
            "ids": ids,
            "other_ids": other_ids,
            "abstract": abstract or excerpt,
            "abstract_is_excerpt": not abstract and bool(excerpt),
            "stated_citers_per_year": _histogram(stated),
            "references": queries.questions.paper_references.run(
                graph, key=key, offset=min(references_offset, LIST_INDEX_MAX), limit=page
            ),
            "citers": queries.questions.paper_citers.run(
                graph, key=key, offset=min(citers_offset, LIST_INDEX_MAX), limit=page
            ),
            "references_offset": references_offset,
            "citers_offset": citers_offset,
        }
    )


def snapshots(graph: Database, ref: str) -> PaperSnapshots:
    """Return the snapshots that describe ``ref``'s paper, oldest data first, with the counts
    each one stated. Raises PaperNotFound or AmbiguousPaper for a bad REF."""
    paper = resolve(graph, ref)
    rows = queries.questions.paper_snapshots.run(graph, key=paper.key)
    return PaperSnapshots(paper=paper, results=[SnapshotLink.model_validate(r) for r in rows])


def sources(graph: Database, ref: str, examples: int = DEFAULT_EXAMPLES) -> PaperSources:
    """Return what each source says of ``ref``'s paper beside what the graph holds: every
    snapshot that describes it or asserts a citation of or by it (oldest data first) with
    the reference and cited-by counts it states and the CITES it asserts, the graph's own
    counts, the references one kind of source names and another lacks, and the stubs each
    source names; each list of papers shows its first ``examples`` (0 to 1000), most cited
    in the graph first. Raises PaperNotFound or AmbiguousPaper for a bad REF and
    ParameterError for a bad ``examples``."""
    shown = EXAMPLES.check("examples", examples)
    paper = resolve(graph, ref)
    row = queries.questions.paper_source_report.run(graph, key=paper.key, examples=shown)[0]
    return PaperSources.model_validate({**row, "paper": paper})
