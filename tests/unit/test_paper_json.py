"""Unit tests of the paper JSON parser: the seed record, JSON lines and malformed input."""

from __future__ import annotations

import gzip
import json
from datetime import date
from pathlib import Path

import pytest

from kg.errors import SourceError
from loaders.paper_json import parse, split_authors
from loaders.records import PaperRecord, ParsedItem, Rejected, SnapshotRecord
from tests import parsed
from tests.data import REAL_SEED_RECORD, REPO, SEED_RECORD

PAGES = REPO / "tests" / "fixtures" / "pages"
EXAMPLES = REPO / "examples" / "map"
SEED_HASH = "258153158e38e3291e3d48162225fcdb2d5a3ed65a07baac614ab91432fd4f57"
INTEGRITY_HASH = "c28c3603d3b5d939e8dc4c7e95fa8dfce3d595e45f758748cecf8e644a296938"

# The project's facts-only copy of the seed record, and the real one under KG_DATA_DIR.
SEED_SOURCES = [
    pytest.param(SEED_RECORD, "Facts-only stand-in", id="fixture"),
    pytest.param(
        REAL_SEED_RECORD,
        "Recent expeditious",
        id="real-seed",
        marks=pytest.mark.needs_data(REAL_SEED_RECORD),
    ),
]


def _parse(path: Path) -> list[ParsedItem]:
    return list(parse(path))


def _rejected(items: list[ParsedItem]) -> dict[int, str]:
    return {item.origin.line: item.reason for item in items if isinstance(item, Rejected)}


def _write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


@pytest.mark.parametrize(("record", "excerpt_starts"), SEED_SOURCES)
def test_seed_record_gives_the_papers_facts(record: Path, excerpt_starts: str) -> None:
    items = _parse(record)
    assert len(items) == 2
    paper = items[1]
    assert isinstance(paper, PaperRecord)
    assert paper.arxiv_id == "2110.03888"
    assert paper.version == 3
    assert paper.title is not None
    assert paper.title.startswith("M6-10T: A Sharing-Delinking Paradigm")
    assert len(paper.authors) == 12
    assert paper.authors[0] == "Ang Wang"
    assert paper.authors[1] == "An Yang"
    assert paper.authors[-1] == "Yong Li"
    assert paper.primary_category == "cs.LG"
    assert paper.cross_categories == ("cs.CL",)
    assert paper.published == date(2021, 10, 8)
    assert paper.year == 2021
    assert paper.license == "http://creativecommons.org/licenses/by-sa/4.0/"
    assert paper.abstract is None
    assert paper.abstract_excerpt is not None
    assert paper.abstract_excerpt.startswith(excerpt_starts)
    assert paper.as_of == date(2026, 5, 17)
    assert paper.origin.line == 1
    assert paper.extra == {
        "source_kind": "arxiv",
        "submitted_at": "2021-10-08T04:24:51Z",
        "integrity_endpoint": "/pith/2110.03888/integrity.json",
        "integrity_clean": True,
        "integrity_available": True,
        "integrity_critical": 0,
        "integrity_advisory": 0,
        "integrity_informational": 0,
        "claims_count": 0,
        "references_count": 0,
        "references_resolved_work": 0,
        "references_internal_anchors": 0,
        "formal_canon_evidence_count": 0,
        "author_claims_count": 0,
        "author_claims_strong_count": 0,
    }


@pytest.mark.parametrize(("record", "excerpt_starts"), SEED_SOURCES)
def test_seed_record_snapshot_has_builder_and_hashes(record: Path, excerpt_starts: str) -> None:
    snapshot = _parse(record)[0]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.kind == "paper_json"
    assert snapshot.source == record.name
    assert snapshot.builder_version == "pith-number-builder-2026-05-17-v1"
    assert snapshot.data_date == date(2026, 5, 17)
    assert snapshot.hashes == {
        "claims": SEED_HASH,
        "integrity": INTEGRITY_HASH,
        "references": SEED_HASH,
        "formal_canon": SEED_HASH,
        "author_claims": SEED_HASH,
    }
    assert snapshot.key == f"sha256:{snapshot.sha256}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Ang Wang, An Yang, Yong Li", ("Ang Wang", "An Yang", "Yong Li")),
        ("Ada One and Bo Two", ("Ada One", "Bo Two")),
        ("Ada One, Bo Two, and Cy Three", ("Ada One", "Bo Two", "Cy Three")),
        ("Ada One; Bo Two; Cy Three et al.", ("Ada One", "Bo Two", "Cy Three")),
        ("Ada One, Bo Two, et al", ("Ada One", "Bo Two")),
        ("Ada One & Bo Two", ("Ada One", "Bo Two")),
        ("John Smith, Jr., Jane Doe", ("John Smith, Jr.", "Jane Doe")),
        ("  Alexandra  Anderson ,\nBrandon Sand  ", ("Alexandra Anderson", "Brandon Sand")),
        ("", ()),
    ],
)
def test_split_authors_keeps_order_and_drops_et_al(text: str, expected: tuple[str, ...]) -> None:
    assert split_authors(text) == expected


def test_json_lines_keep_the_good_objects() -> None:
    items = _parse(PAGES / "papers.jsonl")
    papers = parsed.papers(items)
    assert [paper.origin.line for paper in papers] == [1, 9]
    first, second = papers
    assert first.arxiv_id == "2401.00001"
    assert first.authors == ("Ada One", "Bo Two", "Cy Three")
    assert first.as_of == date(2026, 5, 17)
    assert first.extra["integrity_clean"] is False
    assert first.extra["integrity_informational"] == 3
    assert first.extra["claims_count"] == 2
    assert first.extra["builder_version"] == "pith-number-builder-2026-05-17-v1"
    assert first.extra["claims_sha256"] == "a" * 64
    assert second.arxiv_id == "hep-th/9901001"
    assert second.version == 4  # from the id's v4, as source.version is null
    assert second.title == "Second Valid Paper"
    assert second.authors == ("Dee Four", "Eve Five")
    assert second.extra["authors_et_al"] is True
    assert second.cross_categories == ()
    assert second.as_of == date(2026, 6, 1)


def test_json_lines_end_with_a_snapshot_of_the_newest_build() -> None:
    items = _parse(PAGES / "papers.jsonl")
    first, last = items[0], items[-1]
    assert isinstance(first, SnapshotRecord)
    assert isinstance(last, SnapshotRecord)
    assert first.key == last.key
    assert first.data_date is None
    assert first.builder_version is None
    assert first.hashes == {}
    assert last.data_date == date(2026, 6, 1)
    assert last.builder_version is None  # the two objects were built by different versions


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (2, "source.id '21x' is not an arXiv id (expected e.g. 2110.03888 or hep-th/9901001)"),
        (3, "paper.submitted_at '2024-13-45T00:00:00Z' is not an ISO timestamp"),
        (4, 'paper.cross_cats input should be a valid list, got string "cs.CL"'),
        (5, "not valid JSON (Expecting value at column 71); the object may be truncated"),
        (6, "a JSON array where a paper object should be"),
        (7, 'source.version input should be a valid integer, got string "3"'),
        (10, 'integrity.clean input should be a valid boolean, got string "yes"'),
        (11, "the object has neither a source.id nor a paper.title"),
        (12, "source.kind 'doi' is not 'arxiv'"),
        (13, 'paper should be a JSON object, got array ["not", "an", "object"]'),
    ],
)
def test_bad_objects_are_rejected_with_line_and_reason(line: int, reason: str) -> None:
    path = PAGES / "papers.jsonl"
    rejected = _rejected(_parse(path))
    assert rejected.keys() == {2, 3, 4, 5, 6, 7, 10, 11, 12, 13}
    assert rejected[line].startswith(reason)
    raw = {item.origin.line: item.raw for item in _parse(path) if isinstance(item, Rejected)}
    assert raw[line] == path.read_text(encoding="utf-8").splitlines()[line - 1]


def test_indented_single_object_is_one_record() -> None:
    items = _parse(PAGES / "indented_record.json")
    assert len(items) == 2
    snapshot, paper = items
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.hashes == {"claims": "a" * 64, "integrity": "b" * 64}
    assert snapshot.builder_version == "pith-number-builder-2026-05-17-v1"
    assert isinstance(paper, PaperRecord)
    assert paper.origin.line == 2  # the object starts after a blank line
    assert paper.arxiv_id == "2312.00002"
    assert "builder_version" not in paper.extra  # a single object's build is on the snapshot


def test_nulls_anywhere_are_allowed(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "sparse.json",
        {
            "source": {"id": "2401.00009", "kind": None, "version": None},
            "paper": {"title": None, "cross_cats": None, "authors_text": None},
            "integrity": {"clean": None, "summary": None},
            "builder_version": None,
            "something_new": {"the format": "may grow"},
        },
    )
    snapshot, paper = _parse(path)
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.data_date is None
    assert snapshot.hashes == {}
    assert isinstance(paper, PaperRecord)
    assert paper.arxiv_id == "2401.00009"
    assert (paper.title, paper.authors, paper.as_of, paper.extra) == (None, (), None, {})


def test_dates_outside_1800_to_2100_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "dates.jsonl"
    objects = [
        {"source": {"id": "2401.00011"}, "paper": {}, "builder_version": "b-9999-12-31-v1"},
        {"source": {"id": "2401.00012"}, "paper": {"submitted_at": "0001-01-01T00:00:00Z"}},
        {"source": {"id": "2401.00013"}, "paper": {}, "builder_version": "b-2026-05-17-v1"},
    ]
    path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    items = _parse(path)
    assert [paper.arxiv_id for paper in parsed.papers(items)] == ["2401.00013"]
    assert _rejected(items) == {
        1: "builder_version: the year 9999 is not between 1800 and 2100 "
        "('b-9999-12-31-v1'): fix or remove this object",
        2: "paper.submitted_at: the year 0001 is not between 1800 and 2100 "
        "('0001-01-01T00:00:00Z'): fix or remove this object",
    }
    snapshot = items[-1]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.data_date == date(2026, 5, 17)


def test_offset_timestamp_is_dated_in_utc(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "late.json",
        {"source": {"id": "2401.00010"}, "paper": {"submitted_at": "2024-01-01T22:30:00-05:00"}},
    )
    paper = parsed.papers(_parse(path))[0]
    assert paper.published == date(2024, 1, 2)
    assert paper.year == 2024
    assert paper.extra["submitted_at"] == "2024-01-02T03:30:00Z"  # the time of day is kept


@pytest.mark.parametrize(
    ("stated", "kept"),
    [
        ("2024-01-01T22:30:00", "2024-01-01T22:30:00"),  # no offset: kept as given
        ("2024-01-01 22:30:00+00:00", "2024-01-01T22:30:00Z"),
        ("2024-01-01", None),  # a bare date has no time of day; `published` holds it
        ("  ", None),
    ],
)
def test_submission_time_of_day_is_kept(tmp_path: Path, stated: str, kept: str | None) -> None:
    path = _write(
        tmp_path / "t.json", {"source": {"id": "2401.00012"}, "paper": {"submitted_at": stated}}
    )
    paper = parsed.papers(_parse(path))[0]
    assert paper.extra.get("submitted_at") == kept


def test_gzipped_record_is_read_by_content(tmp_path: Path) -> None:
    path = tmp_path / "record.txt"
    record = {"source": {"id": "2401.00011", "version": 2}, "paper": {"title": "Zipped"}}
    path.write_bytes(gzip.compress(json.dumps(record).encode()))
    paper = parsed.papers(_parse(path))[0]
    assert (paper.arxiv_id, paper.version, paper.title) == ("2401.00011", 2, "Zipped")


def test_json_that_is_not_an_object_is_a_source_error() -> None:
    with pytest.raises(SourceError, match="holds a JSON array, not an object") as caught:
        _parse(PAGES / "array_record.json")
    assert "array_record.json" in str(caught.value)


def test_a_map_page_is_not_json(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="the file is not JSON") as caught:
        _parse(PAGES / "histogram_only.txt")
    assert "one JSON object, or one object per line" in str(caught.value)


def test_example_record_loads_without_prose() -> None:
    items = _parse(EXAMPLES / "bert_record.json")
    assert _rejected(items) == {}
    paper = parsed.papers(items)[0]
    assert paper.arxiv_id == "1810.04805"
    assert paper.authors == ("Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova")
    assert paper.published == date(2018, 10, 11)
    assert (paper.abstract, paper.abstract_excerpt) == (None, None)


# Hardening (issue 13): huge numbers, deep nesting, oversized values, a null paper part.


def _lines(path: Path, *objects: object) -> Path:
    path.write_text(
        "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objects),
        encoding="utf-8",
    )
    return path


def _good(arxiv_id: str = "2401.00001", **paper: object) -> dict[str, object]:
    return {
        "source": {"id": arxiv_id, "kind": "arxiv"},
        "paper": {"title": "A Good Paper", **paper},
    }


def test_huge_integers_are_rejected_and_the_rest_loads(tmp_path: Path) -> None:
    path = _lines(
        tmp_path / "huge.jsonl",
        _good("2401.00001"),
        {"source": {"id": "2401.00002", "version": 10**30}, "paper": {"title": "T"}},
        {"source": {"id": "2401.00003v" + "9" * 30}, "paper": {"title": "T"}},
        {**_good("2401.00004"), "claims": {"count": 10**25}},
        '{"source": {"id": "2401.00005", "version": ' + "9" * 5000 + '}, "paper": {}}',
        _good("2401.00006"),
    )
    items = _parse(path)
    assert [p.arxiv_id for p in parsed.papers(items)] == ["2401.00001", "2401.00006"]
    rejected = _rejected(items)
    assert sorted(rejected) == [2, 3, 4, 5]
    assert "source.version input should be less than or equal to 92233" in rejected[2]
    assert "over 9,223,372,036,854,775,807" in rejected[3]
    assert "claims.count input should be less than or equal to" in rejected[4]
    assert rejected[5].startswith("not loadable JSON (Exceeds the limit")


def test_json_nested_too_deep_is_rejected(tmp_path: Path) -> None:
    deep = '{"source": {"id": "2401.00002"}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path = _lines(tmp_path / "deep.jsonl", _good(), deep, _good("2401.00003"))
    items = _parse(path)
    assert [p.arxiv_id for p in parsed.papers(items)] == ["2401.00001", "2401.00003"]
    assert _rejected(items)[2].startswith("the JSON is nested too deep to read")


def test_null_paper_part_loads_the_id_and_is_reported(tmp_path: Path) -> None:
    path = _write(tmp_path / "null.json", {"paper": None, "source": {"id": "2110.03888"}})
    items = _parse(path)
    (paper,) = parsed.papers(items)
    assert (paper.arxiv_id, paper.title) == ("2110.03888", None)
    (reject,) = [item for item in items if isinstance(item, Rejected)]
    assert reject.message() == (
        f"{path}:1: 'paper' is null or missing, so 2110.03888 has no title, authors, "
        "categories or dates; its id and counts were loaded: add the paper part and load it "
        "again"
    )


def test_oversized_values_and_bad_categories_are_rejected(tmp_path: Path) -> None:
    path = _lines(
        tmp_path / "big.jsonl",
        _good("2401.00001", title="T" * 100_000),
        _good("2401.00002", authors_text="A. Person, " + "B" * 600),
        _good("2401.00003", primary_cat="[bold red]"),
        _good("2401.00004", cross_cats=["cs.LG", "not a code"]),
        _good("2401.00005", title="Kilo [/bold] stray closing tag", primary_cat="cs.LG"),
    )
    items = _parse(path)
    (paper,) = parsed.papers(items)
    assert paper.title == "Kilo [/bold] stray closing tag"  # kept verbatim
    rejected = _rejected(items)
    assert rejected[1].startswith("the title is 100,000 characters long, over the limit of 2,000")
    assert "is 600 characters long, over the limit of 500" in rejected[2]
    assert rejected[3].startswith("paper.primary_cat '[bold red]' is not an arXiv category code")
    assert rejected[4].startswith("paper.cross_cats 'not a code' is not an arXiv category code")


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00"])
def test_a_timestamp_moved_out_of_the_calendar_is_rejected(tmp_path: Path, moment: str) -> None:
    path = _lines(tmp_path / "t.jsonl", _good(submitted_at=moment), _good("2401.00002"))
    items = _parse(path)
    assert [p.arxiv_id for p in parsed.papers(items)] == ["2401.00002"]
    assert _rejected(items)[1].startswith(f"paper.submitted_at '{moment}' is not an ISO")


@pytest.mark.parametrize("first", ["garbage before the records", '["an", "array"]', "42"])
def test_a_bad_first_line_before_objects_is_a_reject(tmp_path: Path, first: str) -> None:
    # Detection reads past a bad first line (issue 13), so the parser must too.
    path = _lines(tmp_path / "lines.jsonl", first, _good(), _good("2401.00002"))
    items = _parse(path)
    assert [p.arxiv_id for p in parsed.papers(items)] == ["2401.00001", "2401.00002"]
    assert list(_rejected(items)) == [1]


def test_a_bad_first_line_before_more_garbage_is_a_source_error(tmp_path: Path) -> None:
    path = _lines(tmp_path / "junk.jsonl", "garbage", "more garbage", _good())
    with pytest.raises(SourceError, match=r"junk\.jsonl: the file is not JSON"):
        _parse(path)
