"""Merge records and splitting a wrong merge.

The identity rule (``loaders.identity.title_merges``) folds papers known only by title and year
into one paper; the paper keeps every key it was known by in ``aliases`` (the crosswalk).
``merges`` lists those records with the rule that joined each key, derived from the keys
themselves, so the record is the same whichever order the loads ran in, and what speaks
against the merge: the other arXiv papers that contest the paper's title (with several
arXiv papers in one group, which of them a title-only key joined can depend on the order of
the loads: docs/MODEL.md's known limit) and the pages that list two of its keys as separate
papers. Those are the merges to check. ``unmerge`` splits a wrong merge: it records the
keys as kept apart (a ``KeepApart`` node that every later online load's reconcile reads) and
removes the merged paper; reloading the sources it names then writes each key as its own
paper.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from kg import queries
from kg.answers.loads import (
    KeptApart,
    ListedApart,
    MergedKey,
    MergeRecord,
    SourceSnapshot,
    UnmergeResult,
)
from kg.database import Database
from kg.errors import ParameterError, SourceError
from kg.load import leases
from kg.load.reconcile import candidates_by_title
from kg.load.rows import KeyRef
from kg.numbers import COUNT
from kg.refs import handle_names, key_written, resolve
from loaders.arxiv_oai import validation_reason
from loaders.identity import title_groups
from loaders.ids import parse_id_key
from loaders.titles import normalize_title, parse_title_key

__all__ = [
    "json_depth",
    "keep_apart",
    "kept_apart",
    "kept_apart_key",
    "merge_rule",
    "merged_key",
    "merges",
    "read_kept_apart",
    "unmerge",
]

_SPLITS = TypeAdapter(list[KeptApart])
_SPLITS_FIX = (
    'write it as `kg merges --kept-apart --json` prints it: a JSON list of splits under "results"'
)
KEYS_WRITTEN = (
    "a key is an arXiv id (1706.03762) or a title key, title:<normalised title>:<year> "
    "(title:sparse coding:2011), as kg merges and kg paper show them"
)
"""How keys are written, for the errors that refuse a key written otherwise."""


def merge_rule(
    arxiv_id: str | None, year: int | None, alias: str, *, recorded: bool = False
) -> str:
    """Return the identity rule that joined ``alias`` to a paper with this arXiv id and year
    (an arXiv paper's own year; a paper known by title only: its key's year, the earliest
    of its chain). ``recorded``: the alias is the own key of a record (a page without an
    arXiv id), not a key references named.

    Only title keys merge (two arXiv ids never do), so the rule follows from the alias key
    and the paper it is in: a function of the records, not of the order of the loads.
    """
    strong = parse_id_key(alias)
    if strong is not None:
        return (
            f"a strong id: a record or reference keyed by its {strong[0]} shares an id with "
            "the paper (loaders.ids.id_merges)"
        )
    parsed = parse_title_key(alias)
    if parsed is None:
        return "same arXiv id"
    _norm, alias_year = parsed
    said = "no year" if alias_year is None else str(alias_year)
    if arxiv_id:
        what = "a page's (or record's) own key" if recorded else "a reference"
        return (
            f"{what} by title only ({said}) with a normalised title of arXiv "
            f"{arxiv_id} ({year if year is not None else 'no year'}), years chained at most "
            "1 apart"
        )
    what = "a page's (or record's) own key and references" if recorded else "references"
    return (
        f"{what} by title only with one normalised title, years chained at most 1 apart "
        f"({said} joins {year if year is not None else 'no year'}, the earliest)"
    )


_Listed = dict[str, list[tuple[str, str | None]]]
"""What snapshots list apart: {snapshot key: [(keys joined by '|', source file)]}."""


def _record(row: dict[str, Any], contested_by: list[str], listed: _Listed) -> MergeRecord:
    aliases = sorted(row["aliases"] or [])
    recorded = set(row.get("recorded") or [])
    own = parse_title_key(row["key"])  # a title-only paper's rule year is its key's
    year = row["year"] if own is None else own[1]
    snapshots = sorted(set(row["described_in"]) | set(row["cited_in"]))
    held = {row["key"], *aliases}
    apart = [
        ListedApart(keys=sorted(both), snapshot=snapshot, source=source)
        for snapshot in snapshots
        for entry, source in listed.get(snapshot, [])
        if len(both := held.intersection(entry.split("|"))) > 1
    ]
    return MergeRecord(
        key=row["key"],
        arxiv_id=row["arxiv_id"],
        title=row["title"],
        year=row["year"],
        merged=[
            merged_key(
                alias,
                merge_rule(row["arxiv_id"], year, alias, recorded=alias in recorded),
                row["named"],
                row.get("key_refs") or [],
            )
            for alias in aliases
        ],
        snapshots=snapshots,
        contested_by=contested_by,
        listed_apart=apart,
    )


def merged_key(
    alias: str, rule: str, named: list[dict[str, Any]], key_refs: Sequence[str] = ()
) -> MergedKey:
    """Return the merge record of one merged key: its rule, the citations whose sources
    named it and how its best reference spelled it. ``named`` holds the paper's CITES
    ``named`` entries ('snapshot|citing|cited'), each with the paper at the other end
    (``other``) and whether the paper cites it (``outgoing``), as merges.cypher reads them;
    a citation counts once, however many keys its sources named the other paper by.
    ``key_refs`` holds the paper's best reference of each key (``KeyRef``)."""
    cites: set[tuple[bool, str]] = set()
    snapshots: set[str] = set()
    for found in named:
        snapshot, citing, cited = str(found["entry"]).rsplit("|", 2)
        if alias == (citing if found["outgoing"] else cited):
            cites.add((bool(found["outgoing"]), str(found["other"])))
            snapshots.add(snapshot)
    cited_as = cited_as_in = None
    for ref in map(KeyRef.parse, key_refs):
        if ref.key == alias:
            cited_as, cited_as_in = ref.title, ref.snapshot
    return MergedKey(
        key=alias,
        rule=rule,
        citations=len(cites),
        named_in=sorted(snapshots),
        cited_as=cited_as,
        cited_as_in=cited_as_in,
    )


def _merged_titles(row: dict[str, Any]) -> set[str]:
    """The normalised titles under which the paper absorbed keys: those of its title keys."""
    keys = [row["key"], *(row["aliases"] or [])]
    return {parsed[0] for key in keys if (parsed := parse_title_key(key)) is not None}


def _contesting(graph: Database, rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """For each merged paper, the other arXiv papers in its group (``title_groups``) under
    each title it absorbed keys under, as the rule sees the graph now: the rule chose among
    them by year (the nearest), so such a merge is worth a look."""
    titles = sorted({norm for row in rows for norm in _merged_titles(row)})
    if not titles:
        return {}
    found = candidates_by_title(queries.load.reconcile_titles.run(graph, norm_titles=titles))
    apart = [row["key"] for row in queries.load.kept_apart.run(graph, norm_titles=titles)]
    groups = {norm: title_groups(norm, found.get(norm, []), apart) for norm in titles}
    contested: dict[str, list[str]] = {}
    for row in rows:
        others: set[str] = set()
        for norm in _merged_titles(row):
            for group in groups[norm]:
                ided = {p.key for p in group if p.arxiv_id is not None}
                if row["key"] in {p.key for p in group} and len(ided) > 1:
                    others |= ided - {row["key"]}
        contested[row["key"]] = sorted(others)
    return contested


def _listed_apart(graph: Database, rows: list[dict[str, Any]]) -> _Listed:
    """The keys each snapshot naming these papers lists apart under one title."""
    keys = sorted({k for row in rows for k in (*row["described_in"], *row["cited_in"])})
    listed: _Listed = {}
    for found in queries.load.listed_apart.run(graph, keys=keys) if keys else []:
        listed.setdefault(found["snapshot"], []).append((found["keys"], found["source"]))
    return listed


def merges(
    graph: Database, ref: str | None = None, limit: int = 100, *, contested: bool = False
) -> list[MergeRecord]:
    """Return the merge records; ``KnowledgeGraph.merges``, the face's method that calls
    this, documents them."""
    limit = COUNT.check("limit", limit)
    key = resolve(graph, ref).key if ref else None
    shared: dict[str, list[str]] = {}
    if contested:
        for row in queries.load.contested_ids.run(graph):
            for paper in row["papers"]:
                shared.setdefault(paper, []).append(row["id"])
    rows = queries.load.merges.run(
        graph, key=key, limit=None if contested else limit, also=sorted(shared)
    )
    others = _contesting(graph, rows)
    listed = _listed_apart(graph, rows)
    records = [
        _record(row, others.get(row["key"], []), listed).model_copy(
            update={"shared_ids": sorted(shared.get(row["key"], []))}
        )
        for row in rows
    ]
    if contested:
        records = [record for record in records if record.contested][:limit]
    return records


def kept_apart_key(split_from: str | None, keys: list[str]) -> str:
    """Return the key of the ``KeepApart`` node that records one split: the paper it was
    split from and the keys kept apart, so recording the same split again changes nothing."""
    return f"{split_from or ''} " + "".join(f"|{key}" for key in sorted(keys))


def kept_apart(graph: Database, ref: str | None = None) -> list[KeptApart]:
    """Return the splits users made; ``KnowledgeGraph.kept_apart``, the face's method that
    calls this, documents them."""
    splits = [
        KeptApart(
            split_from=row["split_from"],
            keys=list(row["keys"] or []),
            norm_titles=list(row["norm_titles"] or []),
            recorded_at=str(row["recorded_at"]) if row["recorded_at"] is not None else None,
        )
        for row in queries.load.kept_apart_all.run(graph)
    ]
    if ref is None:
        return splits
    key = key_written(ref) or resolve(graph, ref).key
    return [split for split in splits if key == split.split_from or key in split.keys]


def read_kept_apart(path: Path) -> list[KeptApart]:
    """Read a file of splits (what ``kg merges --kept-apart --json`` prints), to keep them
    on a load into another database, or after ``kg db reset`` or a ``--bulk`` rebuild.

    Keys are read as ``kg.refs.key_written`` reads them: an arXiv id in any spelling is
    made canonical and a title key's handle (``title:sparse-coding:2011``, as lists show
    it) is its key; ``norm_titles`` are normalised as the loaders normalise titles. Raises
    SourceError, naming the file, the split and what is wrong, when it cannot be read, is
    not such a list or names a key written otherwise (a key the graph can never hold would
    keep nothing apart); nothing is recorded then.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise SourceError(
            f"the keep-apart file {path}: cannot read it ({reason})", _SPLITS_FIX
        ) from exc
    depth = json_depth(text)
    if depth > MAX_SPLITS_NESTING:
        raise SourceError(
            f"the keep-apart file {path}: not a list of splits: it nests lists or objects "
            f"{depth:,} levels deep, over the limit of {MAX_SPLITS_NESTING}",
            _SPLITS_FIX,
        )
    try:
        found = json.loads(text)
    except ValueError:
        found = None  # validate_json below says what is wrong
    # kg merges --kept-apart --json prints {"results": [...]}; kg 0.6.0 printed the list
    if isinstance(found, dict) and set(found) == {"results"}:
        text = json.dumps(found["results"])
    try:
        splits = _SPLITS.validate_json(text)
    except ValidationError as exc:
        wrong = validation_reason(exc, element="split")[:300]
        raise SourceError(
            f"the keep-apart file {path}: not a list of splits: {wrong}", _SPLITS_FIX
        ) from None
    return [_split_written(path, number, split) for number, split in enumerate(splits, 1)]


def _split_written(path: Path, number: int, split: KeptApart) -> KeptApart:
    """Return split ``number`` of the keep-apart file ``path`` with its keys as written and
    its titles normalised. Raises SourceError for an empty key or one written otherwise."""
    unnamed = [key for key in split.keys if not key.strip()]
    if unnamed:
        raise SourceError(
            f"the keep-apart file {path}: split {number} names an empty key", _SPLITS_FIX
        )
    named = [split.split_from] if split.split_from is not None else []
    keys = {key: key_written(key) for key in [*named, *split.keys]}
    unwritten = [key for key, found in keys.items() if found is None]
    if unwritten:
        raise SourceError(
            f"the keep-apart file {path}: split {number} names {json.dumps(unwritten[0])}, "
            "which is not written as a key",
            KEYS_WRITTEN + _normalised(unwritten[0]),
        )
    return split.model_copy(
        update={
            "split_from": keys[named[0]] if named else None,
            "keys": list(dict.fromkeys(str(keys[key]) for key in split.keys)),
            # titles are read as the loaders normalise them ("Sparse Coding" is
            # "sparse coding"): one written otherwise would match no paper's title
            "norm_titles": list(
                dict.fromkeys(t for t in map(normalize_title, split.norm_titles) if t)
            ),
        }
    )


MAX_SPLITS_NESTING = 64
"""How deep a keep-apart file may nest lists and objects: what ``kg merges --kept-apart
--json`` prints nests 4 deep; a file far deeper is no list of splits, and Python's JSON
reader would fail on it with a RecursionError (about 1,000 levels)."""
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """Return how deep JSON ``text`` nests lists and objects (brackets inside strings not
    counted), without parsing it: 0 for a scalar, 1 for ``[]``. Text that is not JSON gets
    a depth all the same, from its brackets."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.finditer(_JSON_STRING.sub("", text)):
        if bracket[0] in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _normalised(key: str) -> str:
    """Return '; did you mean title:sparse coding:2011?' for a title key whose title is not
    normalised (``title:Sparse Coding:2011``), else ''."""
    title, colon, year = key.strip().removeprefix("title:").rpartition(":")
    meant = key_written(f"title:{normalize_title(title)}:{year}") if colon else None
    return f"; did you mean {meant}?" if meant and key.strip().startswith("title:") else ""


def keep_apart(graph: Database, splits: list[KeptApart]) -> list[str]:
    """Record splits (``read_kept_apart``) in the graph, as ``unmerge`` records one, dated
    now; a split already recorded is left as it is. A split is read by the reconcile of each
    normalised title the file gives it or one of its title keys holds. Returns those titles
    (sorted), which a load reconciles, to take apart keys that merged before."""
    rows = []
    every: set[str] = set()
    for split in splits:
        keys = sorted(set(split.keys))
        titles = set(split.norm_titles) | {
            parsed[0] for key in keys if (parsed := parse_title_key(key)) is not None
        }
        every |= titles
        rows.append(
            {
                "key": kept_apart_key(split.split_from, keys),
                "split_from": split.split_from,
                "keys": keys,
                "norm_titles": sorted(titles),
            }
        )
    if not rows:
        return []
    queries.load.keep_apart.run(graph, splits=rows)
    return sorted(every)


UNMERGE_WAIT = float(leases.LOAD_TTL)
"""How long an unmerge waits for running loads by default: as long as a killed load's
lease takes to go stale, so that one never stops it for good."""


def unmerge(
    graph: Database,
    ref: str,
    aliases: list[str] | None = None,
    *,
    dry_run: bool = False,
    wait: float = UNMERGE_WAIT,
) -> UnmergeResult:
    """Split keys off the paper ``ref`` names and keep them apart on every later load;
    ``KnowledgeGraph.unmerge``, the face's method that calls this, documents how and what
    it raises."""
    if dry_run:
        return _unmerge(graph, ref, aliases, dry_run=True)
    with leases.held(graph, "unmerge", wait=wait):
        return _unmerge(graph, ref, aliases, dry_run=False)


def _unmerge(
    graph: Database, ref: str, aliases: list[str] | None, *, dry_run: bool
) -> UnmergeResult:
    """``unmerge``, once it may run."""
    paper = resolve(graph, ref)
    found = merges(graph, paper.key, limit=1)
    held = [m.key for m in found[0].merged] if found else []
    if not held:
        raise ParameterError(
            f"{paper.key} was never merged with another key",
            "`kg merges` lists the papers that were",
        )
    if aliases:
        chosen = sorted({_merged_key(paper.key, held, alias) for alias in aliases})
    else:  # a REF naming a merged key (an alias, or its handle) splits that key only
        named = [key for key in held if handle_names(ref, key)]
        chosen = named if len(named) == 1 and not handle_names(ref, paper.key) else held
    rows = queries.load.paper_sources.run(graph, key=paper.key)
    sources = [SourceSnapshot(**row) for row in rows]
    if dry_run:
        return UnmergeResult(paper=paper, kept_apart=chosen, removed=False, sources=sources)
    norm_titles = sorted(
        {parsed[0] for key in chosen if (parsed := parse_title_key(key)) is not None}
        | ({normalize_title(paper.title)} if paper.title else set())
    )
    rows = queries.load.unmerge.run(
        graph,
        key=paper.key,
        record=kept_apart_key(paper.key, chosen),
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


def _merged_key(paper: str, held: list[str], alias: str) -> str:
    """Return the key of ``held`` (the keys merged into ``paper``) that ``alias`` writes.

    Raises ParameterError for an empty alias, the paper's own key, or a key it does not hold.
    """
    merged = f"its merged keys are {', '.join(held)}"
    if not alias.strip():
        raise ParameterError("an empty --key names no key", f"pass a key to split off: {merged}")
    key = key_written(alias)
    if key is None:  # a handle cut short: the one merged key it names
        named = [found for found in held if handle_names(alias, found)]
        key = named[0] if len(named) == 1 else None
    if key == paper:
        raise ParameterError(
            f"{paper} is the paper's own key, not a key merged into it",
            f"{merged}; without --key, every one of them is split off",
        )
    if key is None or key not in held:
        raise ParameterError(f"{paper} holds no key {alias.strip()}", merged)
    return key
