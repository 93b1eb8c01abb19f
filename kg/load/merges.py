"""Merge records and splitting a wrong merge.

The identity rule (``kg.loaders.identity.title_merges``) folds papers known only by title and year
into one paper; the paper keeps every key it was known by in ``aliases`` (the crosswalk).
``merges`` lists those records with the rule that joined each key, derived from the keys
themselves, so the record is the same whichever order the loads ran in. ``unmerge`` splits
a wrong merge: it records the keys as kept apart (a ``KeepApart`` node that every later
online load's reconcile reads) and removes the merged paper; reloading the sources it names
then writes each key as its own paper.
"""

from __future__ import annotations

from typing import Any

from kg import queries
from kg.answers.loads import KeptApart, MergedKey, MergeRecord, SourceSnapshot, UnmergeResult
from kg.database import Database
from kg.errors import ParameterError
from kg.loaders.identity import normalize_title, parse_title_key
from kg.refs import resolve

__all__ = [
    "kept_apart",
    "merge_rule",
    "merges",
    "unmerge",
]


def merge_rule(arxiv_id: str | None, year: int | None, alias: str) -> str:
    """Return the identity rule that joined ``alias`` to a paper with this arXiv id and year.

    Only title keys merge (two arXiv ids never do), so the rule follows from the alias key
    and the paper it is in: a function of the records, not of the order of the loads.
    """
    parsed = parse_title_key(alias)
    if parsed is None:
        return "same arXiv id"
    _norm, alias_year = parsed
    said = "no year" if alias_year is None else str(alias_year)
    if arxiv_id:
        return (
            f"a reference by title only ({said}) with the normalised title of arXiv "
            f"{arxiv_id} ({year if year is not None else 'no year'}), years chained at most "
            "1 apart"
        )
    return (
        f"references by title only with one normalised title, years chained at most 1 apart "
        f"({said} joins {year if year is not None else 'no year'}, the earliest)"
    )


def _record(row: dict[str, Any]) -> MergeRecord:
    aliases = sorted(row["aliases"] or [])
    return MergeRecord(
        key=row["key"],
        arxiv_id=row["arxiv_id"],
        title=row["title"],
        year=row["year"],
        merged=[
            MergedKey(key=alias, rule=merge_rule(row["arxiv_id"], row["year"], alias))
            for alias in aliases
        ],
        snapshots=sorted(set(row["described_in"]) | set(row["cited_in"])),
    )


def merges(graph: Database, ref: str | None = None, limit: int = 100) -> list[MergeRecord]:
    """Return the merge records: every paper that absorbed other keys (or ``ref``'s only)."""
    if limit < 1:
        raise ParameterError("--limit must be 1 or more", "pass e.g. --limit 20")
    key = resolve(graph, ref).key if ref else None
    rows = queries.load.merges.run(graph, key=key, limit=limit)
    return [_record(row) for row in rows]


def kept_apart(graph: Database) -> list[KeptApart]:
    """Return the splits users made, newest first."""
    return [
        KeptApart(
            split_from=row["split_from"],
            keys=list(row["keys"] or []),
            recorded_at=str(row["recorded_at"]) if row["recorded_at"] is not None else None,
        )
        for row in queries.load.kept_apart_all.run(graph)
    ]


def unmerge(graph: Database, ref: str, aliases: list[str] | None = None) -> UnmergeResult:
    """Split keys off the paper ``ref`` names and keep them apart on every later load.

    ``aliases`` are the keys to split off (default: all of its aliases). The merged paper is
    removed; the result lists the sources that name it, whose reload writes each key as its
    own paper. Raises ParameterError when the paper absorbed no such key.
    """
    paper = resolve(graph, ref)
    found = merges(graph, paper.key, limit=1)
    held = [m.key for m in found[0].merged] if found else []
    if not held:
        raise ParameterError(
            f"{paper.key} was never merged with another key",
            "`kg merges` lists the papers that were",
        )
    chosen = sorted(set(aliases or held))
    unknown = [key for key in chosen if key not in held]
    if unknown:
        raise ParameterError(
            f"{paper.key} holds no key {', '.join(unknown)}",
            f"its merged keys are {', '.join(held)}",
        )
    rows = queries.load.paper_sources.run(graph, key=paper.key)
    sources = [SourceSnapshot(**row) for row in rows]
    norm_titles = sorted(
        {parsed[0] for key in chosen if (parsed := parse_title_key(key)) is not None}
        | ({normalize_title(paper.title)} if paper.title else set())
    )
    rows = queries.load.unmerge.run(
        graph,
        key=paper.key,
        keys=chosen,
        norm_titles=norm_titles,
        sources=[s.key for s in sources],
    )
    return UnmergeResult(
        paper=paper,
        kept_apart=chosen,
        removed=bool(rows and rows[0]["removed"]),
        sources=sources,
    )
