"""A paper's properties are declared once (``loaders.paper_properties``), and every list
that spells them out agrees with that table.

The Cypher files stay plain files that run unchanged in Neo4j Browser, so they spell the
lists out; these checks read each list from its file (papers.cypher's ``names`` and its
``value[i]`` SET map, merge_papers.cypher's, the properties restore_folded.cypher restores,
the reference lists of stubs, split_key and restore_folded, the DESCRIBED_IN maps), and the
Python side (``paper_row``'s keys, the import CSV headers, ``PaperRecord``'s fields), and
name the file and the missing, extra or misplaced property. The last tests feed the checks
altered copies, to show that they fail.
"""

from __future__ import annotations

import csv
import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import get_args

import pytest

from kg.knowledge_graph import STAGE_MEMORY
from kg.load.import_sink import ImportSink
from kg.load.rows import Batch, paper_row
from loaders.paper_properties import (
    LINK_PROPERTIES,
    OTHER_FIELDS,
    PAPER_LISTS,
    PAPER_PROPERTIES,
    POLICIES,
    REFERENCE_PROPERTIES,
    PaperProperty,
)
from loaders.records import Origin, PaperRecord, SnapshotRecord

REPO = Path(__file__).resolve().parents[2]
LOAD = REPO / "cypher" / "load"

MERGE_OWN_LINK_RULES = ("line", "as_of")
"""The DESCRIBED_IN properties merge_papers.cypher leaves out of its map of the newer record's
values: a record link always has a line, and its own rule below the map sets as_of."""

RESTORED_BOOKKEEPING = ("filled_as_of", "recorded", "ref_as_of")
"""Beside the properties a record sets, what restore_folded.cypher gives a part back."""

NOT_IN_TABLE = ("changed_at",)
"""Paper properties the load statements write that are no fact of a record or a reference
(when a load last changed the paper: bookkeeping)."""


@dataclass(frozen=True)
class Expected:
    """The lists the table says each file holds."""

    properties: tuple[str, ...]
    record: tuple[str, ...]
    reference: tuple[str, ...]
    imported: tuple[str, ...]
    restored: tuple[str, ...]
    links: tuple[tuple[str, str], ...]
    """(property, row key) of each DESCRIBED_IN property, in papers.cypher's order."""
    policies: tuple[tuple[str, str], ...]
    """(property, merge rule) of each property of the table."""


def expected(table: Sequence[PaperProperty] = PAPER_PROPERTIES) -> Expected:
    record = tuple(p.name for p in table if p.policy in ("newest", "newest_or_reference"))
    imported = tuple(p.name for p in table if p.imported)
    return Expected(
        properties=tuple(p.name for p in table),
        record=record,
        reference=tuple(p.name for p in table if p.policy == "newest_or_reference"),
        imported=imported,
        restored=imported + RESTORED_BOOKKEEPING,
        links=tuple((p.name, p.row) for p in LINK_PROPERTIES),
        policies=tuple((p.name, p.policy) for p in table),
    )


TABLE = expected()


# Reading the Cypher text.


def without_comments(text: str) -> str:
    """The text with each `//` comment taken out (none of these files has `//` in a string)."""
    return re.sub(r"//[^\n]*", "", text)


def quoted(items: str) -> list[str]:
    """The quoted strings of a list literal's inside: `'a', 'b'` is ['a', 'b']."""
    return re.findall(r"'([^']*)'", items)


def block(text: str, start: str, end: str) -> str | None:
    """The text between the first `start` and the next `end` after it, or None."""
    at = text.find(start)
    if at < 0:
        return None
    stop = text.find(end, at + len(start))
    return None if stop < 0 else text[at + len(start) : stop]


def names_list(text: str) -> list[str] | None:
    """The `[...] AS names` list, or None."""
    found = re.findall(r"\[([^\]]*)\]\s+AS\s+names\b", text)
    return quoted(found[0]) if len(found) == 1 else None


def value_entries(text: str) -> list[tuple[str, int]]:
    """The `name: value[i]` entries of the SET map, in order."""
    return [(n, int(i)) for n, i in re.findall(r"\b(\w+):\s*value\[(\d+)\]", text)]


def written_keys(body: str | None) -> list[str]:
    """The keys of a map literal written one entry a line (`name: ...`)."""
    return re.findall(r"^\s*(\w+):", body or "", re.MULTILINE)


def assigned(node: str, text: str) -> list[str]:
    """The properties a `SET <node>.name = ...` writes."""
    return re.findall(rf"\b{node}\.(\w+)\s*=(?!=)", text)


def string_lists(text: str) -> list[list[str]]:
    """Every list literal of quoted strings alone."""
    return [quoted(m) for m in re.findall(r"\[(\s*'[^']*'(?:\s*,\s*'[^']*')*\s*)\]", text)]


# Comparing what a file holds with the table.


def compare(where: str, found: Sequence[str], wanted: Sequence[str], ordered: bool) -> list[str]:
    """Problems of a list ``where`` spells out: missing, extra, twice or out of order."""
    problems = [f"{where} lacks {name!r}" for name in wanted if name not in found]
    problems += [
        f"{where} has {name!r}, which the table does not put there"
        for name in dict.fromkeys(found)
        if name not in wanted
    ]
    problems += [
        f"{where} has {name!r} twice" for name in dict.fromkeys(found) if found.count(name) > 1
    ]
    if ordered and not problems and list(found) != list(wanted):
        at = next(i for i, (a, b) in enumerate(zip(found, wanted, strict=True)) if a != b)
        problems.append(
            f"{where} has {found[at]!r} at position {at}, where the table has {wanted[at]!r}"
        )
    return problems


def record_lists(file: str, text: str, want: Expected) -> list[str]:
    """The `names` list and the `name: value[i]` SET map (papers, merge_papers)."""
    names = names_list(text)
    if names is None:
        return [f"{file}: no one `[...] AS names` list"]
    problems = compare(f"{file}: the `names` list", names, want.record, ordered=True)
    entries = value_entries(text)
    set_names = [name for name, _ in entries]
    problems += compare(f"{file}: the `value[i]` SET map", set_names, want.record, ordered=True)
    at = {name: i for i, name in enumerate(want.record)}
    problems += [
        f"{file}: the SET map gives {name!r} value[{index}], but it is names[{at[name]}]"
        for name, index in entries
        if name in at and index != at[name]
    ]
    return problems


def link_map(
    file: str, body: str | None, source: str, wanted: Sequence[tuple[str, str]]
) -> list[str]:
    """A DESCRIBED_IN map of `name: <source>.<row key>` entries."""
    if body is None:
        return [f"{file}: no DESCRIBED_IN map found"]
    entries = re.findall(rf"\b(\w+):\s*{source}\.(\w+)", body)
    problems = compare(
        f"{file}: the DESCRIBED_IN map", [n for n, _ in entries], [n for n, _ in wanted], True
    )
    rows = dict(wanted)
    problems += [
        f"{file}: the DESCRIBED_IN map gives {name!r} {source}.{row}, not {source}.{rows[name]}"
        for name, row in entries
        if name in rows and row != rows[name]
    ]
    return problems


def reference_lists(file: str, text: str, want: Expected) -> list[str]:
    """Each list of the properties a reference gives (`'title'` or `'title='` items)."""
    problems: list[str] = []
    candidates = [
        items
        for items in string_lists(text)
        if any(item.rstrip("=") in want.properties for item in items) and items != names_list(text)
    ]
    if not candidates:
        return [f"{file}: no list of the properties a reference gives"]
    for items in candidates:
        suffix = "=" if all(item.endswith("=") for item in items) else ""
        found = [item.removesuffix(suffix) for item in items]
        where = f"{file}: the reference list [{', '.join(repr(i) for i in items)}]"
        problems += compare(where, found, want.reference, ordered=True)
    return problems


def papers_problems(text: str, want: Expected = TABLE) -> list[str]:
    file = "cypher/load/papers.cypher"
    text = without_comments(text)
    problems = record_lists(file, text, want)
    problems += link_map(file, block(text, "extra {", "} AS next"), "row", want.links)
    written = written_keys(block(text, "WITH p, {", "} AS next")) + assigned("p", text)
    problems += [
        f"{file} writes the paper property {name!r}, which the table lacks"
        for name in dict.fromkeys(written)
        if name not in want.properties + NOT_IN_TABLE
    ]
    return problems


def merge_papers_problems(text: str, want: Expected = TABLE) -> list[str]:
    file = "cypher/load/merge_papers.cypher"
    text = without_comments(text)
    problems = record_lists(file, text, want)
    # names[i] for i < n are the properties a reference gives (REFERENCE_PROPERTIES)
    bound = re.findall(r"WHEN i < (\d+) AND", text)
    if len(bound) != 1:
        problems.append(f"{file}: no one `WHEN i < n` test of the properties a reference gives")
    elif int(bound[0]) != len(want.reference):
        problems.append(
            f"{file}: `i < {bound[0]}` takes names[0..{int(bound[0]) - 1}] as the properties a "
            f"reference gives; the table has {len(want.reference)}: {', '.join(want.reference)}"
        )
    links = [(n, r) for n, r in want.links if n not in MERGE_OWN_LINK_RULES]
    problems += link_map(file, block(text, "r {", "} ELSE {}"), "r", links)
    # Every property gets its merge rule: all but `years`, which keeps the target's own
    written = written_keys(block(text, "SET t += {", "},")) + assigned("t", text)
    merged = [n for n, p in want.policies if p != "own_years"]
    problems += compare(
        f"{file}: the set of properties the merge writes", written, [*merged, *NOT_IN_TABLE], False
    )
    return problems


def restore_folded_problems(text: str, want: Expected = TABLE) -> list[str]:
    file = "cypher/load/restore_folded.cypher"
    text = without_comments(text)
    body = block(text, "SET h += f {", "h.changed_at")
    if body is None:
        return [f"{file}: no `SET h += f {{...}}` map"]
    restored = re.findall(r"(?<![\w)\]])\.(\w+)", body) + re.findall(r"\b(\w+):", body)
    where = f"{file}: the restored map `h += f {{...}}`"
    problems = compare(where, restored, want.restored, ordered=False)
    return problems + reference_lists(file, text, want)


def stubs_problems(text: str, want: Expected = TABLE) -> list[str]:
    return reference_lists("cypher/load/stubs.cypher", without_comments(text), want)


def split_key_problems(text: str, want: Expected = TABLE) -> list[str]:
    return reference_lists("cypher/load/split_key.cypher", without_comments(text), want)


CHECKS: dict[str, Callable[[str, Expected], list[str]]] = {
    "papers.cypher": papers_problems,
    "merge_papers.cypher": merge_papers_problems,
    "restore_folded.cypher": restore_folded_problems,
    "stubs.cypher": stubs_problems,
    "split_key.cypher": split_key_problems,
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_each_cypher_file_spells_the_tables_lists(name: str) -> None:
    problems = CHECKS[name]((LOAD / name).read_text(encoding="utf-8"), TABLE)
    assert not problems, "\n".join(problems)


# The table itself, and the Python side.


def test_the_table_holds_each_property_once_with_a_known_policy() -> None:
    names = [p.name for p in PAPER_PROPERTIES]
    assert len(names) == len(set(names))
    assert {p.policy for p in PAPER_PROPERTIES} <= set(POLICIES)
    record = list(TABLE.record)
    # merge_papers.cypher takes the reference's properties as the first of `names`
    assert record[: len(REFERENCE_PROPERTIES)] == [p.name for p in REFERENCE_PROPERTIES]
    # a stub's import row is its first two cells (import_sink._write_stubs)
    assert TABLE.imported[:2] == ("stub", "arxiv_id")
    assert {lst.stamp for lst in PAPER_LISTS} <= set(names)


_NEO4J_TYPES: dict[object, str] = {int: "long", str: "string", date: "date", bool: "boolean"}


def record_field_problems(fields: Mapping[str, object]) -> list[str]:
    """``PaperRecord``'s fields (name: annotation) against what the table reads."""
    file = "loaders/records.py: PaperRecord"
    read = {f for p in PAPER_PROPERTIES for f in p.fields}
    read |= {f for p in LINK_PROPERTIES for f in p.fields}
    read |= {f for lst in PAPER_LISTS for f in lst.fields}
    read |= set(OTHER_FIELDS)
    problems = [
        f"{file} has the field {name!r}, which no row of loaders.paper_properties reads"
        for name in fields
        if name not in read
    ]
    problems += [
        f"loaders.paper_properties reads {name!r}, which {file} lacks"
        for name in sorted(read)
        if name not in fields
    ]
    for prop in PAPER_PROPERTIES:
        if prop.fields != (prop.name,) or prop.name not in fields:
            continue
        kinds = [k for k in get_args(fields[prop.name]) if k is not types.NoneType]
        stated = _NEO4J_TYPES.get(kinds[0]) if len(kinds) == 1 else None
        if stated is not None and stated != prop.type:
            problems.append(f"{file}.{prop.name} is a {stated}, the table says {prop.type}")
    return problems


def test_every_field_of_a_paper_record_has_its_place_in_the_table() -> None:
    fields = {name: f.annotation for name, f in PaperRecord.model_fields.items()}
    problems = record_field_problems(fields)
    assert not problems, "\n".join(problems)


def full_record() -> PaperRecord:
    """A record stating every field."""
    return PaperRecord(
        origin=Origin(path="p.json", line=7),
        snapshot="sha256:" + "0" * 64,
        arxiv_id="arXiv:2101.00002v3",
        ids={"doi": "10.1000/x"},
        title="On $\\Gamma$-Convergence",
        year=2021,
        as_of=date(2024, 1, 1),
        version=3,
        published=date(2021, 1, 2),
        abstract="An abstract.",
        abstract_excerpt="An excerpt.",
        license="CC-BY",
        doi="10.1000/x",
        journal_ref="J. Test 1 (2021)",
        comments="5 pages",
        primary_category="cs.LG",
        cross_categories=("stat.ML",),
        authors=("A. Author", "B. Author"),
        stated_cited_by=12,
        stated_cited_by_in_map=3,
        stated_refs_total=40,
        stated_refs_in_map=5,
        listed_refs=4,
        listed_citing=2,
        histogram={2023: 4, 2021: 1},
        extra={"integrity": "ok"},
    )


def test_paper_row_carries_what_the_statement_reads() -> None:
    record = full_record()
    row = paper_row(record, record.key)
    row_keys = {p.name for p in PAPER_PROPERTIES if p.read} | {r for _, r in TABLE.links}
    assert set(row) == row_keys | {"key", "extra", "as_of", "snapshot"}
    assert set(TABLE.record) <= set(row), "papers.cypher reads row[names[i]]"
    text = without_comments((LOAD / "papers.cypher").read_text(encoding="utf-8"))
    read = set(re.findall(r"\brow\.(\w+)", text))
    assert read <= set(row), f"papers.cypher reads row keys paper_row lacks: {read - set(row)}"
    for prop in PAPER_PROPERTIES:
        if prop.name in TABLE.record and prop.fields == (prop.name,):
            assert row[prop.name] == getattr(record, prop.name), prop.name
    assert row["norm_title"] == "on γ convergence"
    assert row["arxiv_id"] == "2101.00002"
    assert (row["line"], row["as_of_date"]) == (7, date(2024, 1, 1))
    assert (row["histogram_years"], row["histogram_counts"]) == ([2021, 2023], [1, 4])


def test_the_import_headers_are_the_tables_columns(tmp_path: Path) -> None:
    record = full_record().model_copy(update={"ids": {}})
    snapshot = SnapshotRecord(
        key=record.snapshot, kind="paper_json", source="p.json", sha256="0" * 64
    )
    sink = ImportSink(tmp_path / "stage.duckdb", STAGE_MEMORY)
    try:
        sink.write_snapshot(snapshot)
        sink.write_batch(Batch(papers=[record]))
        files = sink.write_csv(tmp_path / "csv")
    finally:
        sink.close()
    with files.nodes["Paper"][0].open(encoding="utf-8") as handle:
        header, row = list(csv.reader(handle))
    imported = [p for p in PAPER_PROPERTIES if p.imported]
    assert header == ["key:ID(Paper)", *(f"{p.name}:{p.type}" for p in imported)]
    cells = dict(zip(header, row, strict=True))
    assert cells["title:string"] == record.title
    assert cells["journal_ref:string"] == record.journal_ref
    assert cells["stub:boolean"] == "false"
    (path,) = files.relationships["DESCRIBED_IN"]
    with path.open(encoding="utf-8") as handle:
        header, row = list(csv.reader(handle))
    links = [f"{p.name}:{p.type}" for p in LINK_PROPERTIES]
    assert header == [":START_ID(Paper)", ":END_ID(Snapshot)", *links, "integrity:string"]
    assert dict(zip(header, row, strict=True))["stated_refs_in_map:long"] == "5"


# The checks fail when a list disagrees: altered copies of the texts and of the table.

ALTERED = [
    ("papers.cypher", "'license',", "", "papers.cypher: the `names` list lacks 'license'"),
    (
        "papers.cypher",
        "'version', 'doi', 'journal_ref'",
        "'version', 'journal_ref', 'doi'",
        "papers.cypher: the `names` list has 'journal_ref' at position 8",
    ),
    (
        "papers.cypher",
        "doi: value[8],\n    journal_ref: value[9],",
        "journal_ref: value[9],\n    doi: value[8],",
        "papers.cypher: the `value[i]` SET map has 'journal_ref' at position 8",
    ),
    (
        "papers.cypher",
        "comments: value[10]",
        "comments: value[11]",
        "papers.cypher: the SET map gives 'comments' value[11], but it is names[10]",
    ),
    (
        "papers.cypher",
        "    listed_refs: row.listed_refs,\n",
        "",
        "papers.cypher: the DESCRIBED_IN map lacks 'listed_refs'",
    ),
    (
        "papers.cypher",
        "    abstract: value[4],\n",
        "    abstract: value[4],\n    colour: value[4],\n",
        "papers.cypher: the `value[i]` SET map has 'colour', which the table does not put there",
    ),
    (
        "merge_papers.cypher",
        "      comments: value[10],\n",
        "",
        "merge_papers.cypher: the `value[i]` SET map lacks 'comments'",
    ),
    (
        "merge_papers.cypher",
        "WHEN i < 3 AND",
        "WHEN i < 4 AND",
        "merge_papers.cypher: `i < 4` takes names[0..3]",
    ),
    (
        "merge_papers.cypher",
        "        histogram_counts: r.histogram_counts\n",
        "        histogram_counts: r.histogram_years\n",
        "merge_papers.cypher: the DESCRIBED_IN map gives 'histogram_counts' r.histogram_years",
    ),
    (
        "papers.cypher",
        "    as_of: newest,\n",
        "    as_of: newest,\n    colour: row.colour,\n",
        "papers.cypher writes the paper property 'colour', which the table lacks",
    ),
    (
        "merge_papers.cypher",
        "    t.self_cites = CASE WHEN selves = [] THEN null ELSE selves END,\n",
        "",
        "merge_papers.cypher: the set of properties the merge writes lacks 'self_cites'",
    ),
    (
        "restore_folded.cypher",
        ".comments, ",
        "",
        "restore_folded.cypher: the restored map `h += f {...}` lacks 'comments'",
    ),
    (
        "restore_folded.cypher",
        ".comments, ",
        ".comments, .colour, ",
        "restore_folded.cypher: the restored map `h += f {...}` has 'colour'",
    ),
    (
        "restore_folded.cypher",
        "[k IN ['title', 'norm_title', 'year']",
        "[k IN ['title', 'year']",
        "restore_folded.cypher: the reference list ['title', 'year'] lacks 'norm_title'",
    ),
    (
        "stubs.cypher",
        "['title', 'norm_title', 'year']",
        "['title', 'norm_title', 'year', 'doi']",
        "stubs.cypher: the reference list ['title', 'norm_title', 'year', 'doi'] has 'doi'",
    ),
    (
        "split_key.cypher",
        "['title=', 'norm_title=', 'year=']",
        "['norm_title=', 'title=', 'year=']",
        "split_key.cypher: the reference list ['norm_title=', 'title=', 'year='] has 'norm_title' "
        "at position 0",
    ),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "reported"), ALTERED, ids=[f"{a[0]}:{a[3][-40:]}" for a in ALTERED]
)
def test_the_check_reports_an_altered_cypher_file(
    name: str, old: str, new: str, reported: str
) -> None:
    text = (LOAD / name).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the alteration's text is not once in {name}: {old!r}"
    problems = CHECKS[name](text.replace(old, new), TABLE)
    assert any(reported in problem for problem in problems), "\n".join(problems) or "no problem"


def test_a_property_added_to_the_table_alone_is_reported_in_every_cypher_file() -> None:
    funding = PaperProperty(
        "funding", "string", "newest", ("funding",), "a new field", imported=True
    )
    table = [*PAPER_PROPERTIES]
    last = next(p for p in table if p.name == "stated_refs_in_map")
    table.insert(table.index(last) + 1, funding)
    want = expected(table)
    for name in ("papers.cypher", "merge_papers.cypher", "restore_folded.cypher"):
        problems = CHECKS[name]((LOAD / name).read_text(encoding="utf-8"), want)
        assert any(f"{name}:" in p and "lacks 'funding'" in p for p in problems), problems
    union = PaperProperty("colours", "string[]", "union", (), "a new set")
    problems = merge_papers_problems(
        (LOAD / "merge_papers.cypher").read_text(encoding="utf-8"),
        expected([*PAPER_PROPERTIES, union]),
    )
    assert problems == [
        "cypher/load/merge_papers.cypher: the set of properties the merge writes lacks 'colours'"
    ]
    fields: dict[str, object] = {n: f.annotation for n, f in PaperRecord.model_fields.items()}
    fields["colour"] = str | None
    problems = record_field_problems(fields)
    assert problems == [
        "loaders/records.py: PaperRecord has the field 'colour', which no row of "
        "loaders.paper_properties reads"
    ]
