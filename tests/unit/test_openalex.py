"""Unit tests for loaders.openalex: OpenAlex work objects as JSON lines, pages and folders.

Every record here is made up, in the shape the OpenAlex API and snapshot write (field names
and nesting as they are); the real records are read from KG_DATA_DIR only.
"""

from __future__ import annotations

import gzip
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from loaders import openalex
from loaders.detect import detect_format
from loaders.ids import normal_id
from loaders.records import Rejected, SnapshotRecord
from loaders.source_file import content_sha256
from tests import parsed
from tests.data import REAL_SOURCES

REAL_OPENALEX = REAL_SOURCES / "openalex_works.jsonl"

ABSTRACT_INDEX = {
    "We": [0],
    "study": [1],
    "made-up": [2, 9],
    "graphs": [3],
    "and": [4],
    "their": [5],
    "citations;": [6],
    "all": [7],
    "are": [8],
    "here.": [10],
}
ABSTRACT = "We study made-up graphs and their citations; all are made-up here."


def _location(url: str, pdf: str | None = None) -> dict[str, Any]:
    return {
        "id": f"doi:{url}",
        "is_oa": True,
        "landing_page_url": url,
        "pdf_url": pdf,
        "source": None,
        "license": None,
        "license_id": None,
        "version": "submittedVersion",
        "is_accepted": False,
        "is_published": False,
    }


def _authorship(position: str, name: str | None, raw: str) -> dict[str, Any]:
    author = None if name is None else {"id": "https://openalex.org/A5000000001", "orcid": None}
    if author is not None:
        author["display_name"] = name
    return {
        "author_position": position,
        "author": author,
        "institutions": [],
        "countries": [],
        "is_corresponding": False,
        "raw_author_name": raw,
        "raw_affiliation_strings": [],
        "affiliations": [],
    }


def work(number: int = 1, **changes: Any) -> dict[str, Any]:
    """Return a made-up work object as the API returns one; ``changes`` replace fields."""
    wid = f"https://openalex.org/W10000000{number:02d}"
    doi = f"https://doi.org/10.1234/Made.Up.{number}"
    record: dict[str, Any] = {
        "id": wid,
        "doi": doi,
        "title": f"A Made-Up Work {number}",
        "display_name": f"A Made-Up Work {number}",
        "publication_year": 2020,
        "publication_date": "2020-08-01",
        "ids": {"openalex": wid, "doi": doi, "mag": f"30000000{number:02d}"},
        "language": "en",
        "primary_location": _location(doi),
        "type": "article",
        "authorships": [
            _authorship("first", "Ada Madeup", "A. Madeup"),
            _authorship("last", None, "Bo  Fictus"),
        ],
        "cited_by_count": 7,
        "biblio": {"volume": None, "issue": None, "first_page": "1", "last_page": "2"},
        "primary_topic": {"id": "https://openalex.org/T10001", "display_name": "Made-Up Topics"},
        "topics": [{"id": "https://openalex.org/T10001", "display_name": "Made-Up Topics"}],
        "locations_count": 1,
        "locations": [_location(doi)],
        "best_oa_location": None,
        "referenced_works_count": 2,
        "referenced_works": [
            "https://openalex.org/W2000000001",
            "https://openalex.org/W2000000002",
        ],
        "related_works": [],
        "abstract_inverted_index": ABSTRACT_INDEX,
        "counts_by_year": [{"year": 2024, "cited_by_count": 7}],
        "updated_date": "2025-11-06T03:46:38.306776",
        "created_date": "2020-08-10",
    }
    record.update(changes)
    return record


def _write_lines(path: Path, records: list[Any], zipped: bool = False) -> Path:
    text = "".join(json.dumps(record) + "\n" for record in records).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text) if zipped else text)
    return path


def _lines_text(*numbers: int) -> str:
    return "".join(json.dumps(work(number)) + "\n" for number in numbers)


def test_snapshot_first_and_last(tmp_path: Path) -> None:
    path = _write_lines(
        tmp_path / "works.jsonl",
        [work(1), work(2, updated_date="2024-01-31T10:00:00"), work(3, updated_date=None)],
    )
    items = list(openalex.parse(path))
    first, last = items[0], items[-1]
    assert isinstance(first, SnapshotRecord)
    assert isinstance(last, SnapshotRecord)
    assert first.kind == "openalex"
    assert first.source == "works.jsonl"
    assert first.sha256 == content_sha256(path)
    assert first.key == f"sha256:{first.sha256}"
    assert first.data_date is None
    assert last.key == first.key
    assert last.data_date == date(2025, 11, 6)
    assert last.first_date == date(2024, 1, 31)
    assert not any(isinstance(item, SnapshotRecord) for item in items[1:-1])
    assert [paper.as_of for paper in parsed.papers(items)] == [
        date(2025, 11, 6),
        date(2024, 1, 31),
        None,
    ]


def test_what_a_work_states(tmp_path: Path) -> None:
    stated = work(
        1,
        ids={
            "openalex": "https://openalex.org/W1000000001",
            "doi": "https://doi.org/10.1234/Made.Up.1",
            "mag": "3000000001",
            "pmid": "https://pubmed.ncbi.nlm.nih.gov/12345678",
            "pmcid": "https://www.ncbi.nlm.nih.gov/pmc/articles/1234567",
        },
    )
    items = list(openalex.parse(_write_lines(tmp_path / "w.jsonl", [stated])))
    assert not parsed.rejects(items)
    (paper,) = parsed.papers(items)
    assert paper.origin.line == 1
    assert paper.key == "doi:10.1234/made.up.1"
    assert paper.ids == {
        "doi": "10.1234/made.up.1",
        "openalex": "W1000000001",
        "mag": "3000000001",
        "pmid": "12345678",
    }
    assert paper.doi == "10.1234/made.up.1"
    assert paper.arxiv_id is None
    assert paper.title == "A Made-Up Work 1"
    assert paper.year == 2020
    assert paper.published == date(2020, 8, 1)
    assert paper.authors == ("Ada Madeup", "Bo Fictus")
    assert paper.abstract == ABSTRACT
    assert paper.stated_cited_by == 7
    assert paper.stated_refs_total == 2
    assert paper.as_of == date(2025, 11, 6)
    assert paper.extra == {}  # topics are left out


def test_abstract_is_rebuilt_from_the_inverted_index() -> None:
    assert openalex.abstract_from_index(ABSTRACT_INDEX) == ABSTRACT
    # positions out of order, a gap, and a position taken twice (the first word keeps it)
    assert openalex.abstract_from_index({"c": [5], "a": [0, 7], "b": [2], "x": [2]}) == "a b c a"
    assert openalex.abstract_from_index({}) is None


def test_references_become_citations_of_openalex_ids(tmp_path: Path) -> None:
    items = list(openalex.parse(_write_lines(tmp_path / "w.jsonl", [work(1)])))
    cites = parsed.citations(items)
    assert [cite.cited.key for cite in cites] == ["openalex:W2000000001", "openalex:W2000000002"]
    for cite in cites:
        assert cite.citing.key == "doi:10.1234/made.up.1"
        assert cite.citing.ids["openalex"] == "W1000000001"
        assert cite.citing.title == "A Made-Up Work 1"
        assert cite.citing.year == 2020
        assert cite.origin.line == 1
        assert cite.as_of == date(2025, 11, 6)


def test_null_references_and_a_self_citation(tmp_path: Path) -> None:
    none_known = work(1, referenced_works=None, referenced_works_count=None)
    counted = work(2, referenced_works=None, referenced_works_count=4)
    own = work(
        3,
        referenced_works=["https://openalex.org/W1000000003", "https://openalex.org/W2000000001"],
        referenced_works_count=None,
    )
    items = list(openalex.parse(_write_lines(tmp_path / "w.jsonl", [none_known, counted, own])))
    assert not parsed.rejects(items)
    assert [paper.stated_refs_total for paper in parsed.papers(items)] == [None, 4, 2]
    assert [(cite.origin.line, cite.cited.key) for cite in parsed.citations(items)] == [
        (3, "openalex:W2000000001")
    ]
    (skipped,) = parsed.skipped(items)
    assert skipped.kind == "self-citation"
    assert skipped.origin.line == 3
    assert "lists itself" in skipped.detail


@pytest.mark.parametrize(
    "changes",
    [
        {"doi": "https://doi.org/10.48550/arXiv.2101.00001", "ids": {}},
        {"doi": None, "ids": {"doi": "https://doi.org/10.48550/arxiv.2101.00001"}},
        {"doi": None, "ids": {}, "locations": [_location("https://arxiv.org/abs/2101.00001")]},
        {
            "doi": None,
            "ids": {},
            "primary_location": _location("x", "http://arxiv.org/pdf/2101.00001v2"),
        },
        {
            "doi": None,
            "ids": {},
            "best_oa_location": _location("http://export.arxiv.org/pdf/2101.00001"),
        },
        {
            "doi": None,
            "ids": {},
            "locations": [_location("https://api.datacite.org/dois/10.48550/arxiv.2101.00001")],
        },
    ],
    ids=["doi", "ids-doi", "landing-page", "pdf-url", "export-mirror", "datacite"],
)
def test_the_arxiv_id(tmp_path: Path, changes: dict[str, Any]) -> None:
    items = list(openalex.parse(_write_lines(tmp_path / "w.jsonl", [work(1, **changes)])))
    assert not parsed.rejects(items)
    (paper,) = parsed.papers(items)
    assert paper.arxiv_id == "2101.00001"
    assert paper.key == "2101.00001"
    assert "doi" not in paper.ids  # an arXiv DOI is the arXiv id, not a DOI of its own
    assert paper.ids["openalex"] == "W1000000001"
    assert parsed.citations(items)[0].citing.arxiv_id == "2101.00001"


def test_an_old_style_arxiv_id_and_a_journal_doi(tmp_path: Path) -> None:
    stated = work(1, locations=[_location("https://arxiv.org/abs/hep-th/9901001v2")])
    (paper,) = parsed.papers(list(openalex.parse(_write_lines(tmp_path / "w.jsonl", [stated]))))
    assert paper.arxiv_id == "hep-th/9901001"
    assert paper.ids["doi"] == "10.1234/made.up.1"  # the journal DOI stays a strong id


def test_title_falls_back_to_display_name_and_loses_its_markup(tmp_path: Path) -> None:
    records = [
        work(1, title=None, display_name="Only a Display Name"),
        work(2, title="A short history of<i>SHELX</i>", display_name=None),
        work(3, title="Limits of <i>b</i><sup>2</sup> &amp; more"),
    ]
    papers = parsed.papers(list(openalex.parse(_write_lines(tmp_path / "w.jsonl", records))))
    assert [paper.title for paper in papers] == [
        "Only a Display Name",
        "A short history of SHELX",
        "Limits of b2 & more",
    ]


def test_topics_most_relevant_first_else_concepts(tmp_path: Path) -> None:
    topic = {"id": "https://openalex.org/T1", "display_name": "Gauge <i>Theories</i>"}
    concept = {"id": "https://openalex.org/C1", "display_name": "Physics", "level": 0}
    records = [
        work(1, topics=[topic, {"display_name": "Strings; Branes"}, topic, None]),
        work(2, topics=[], concepts=[concept, {"display_name": ""}]),
        work(3, topics=None, concepts=None),
    ]
    papers = parsed.papers(list(openalex.parse(_write_lines(tmp_path / "w.jsonl", records))))
    assert [paper.topics for paper in papers] == [
        ("Gauge Theories", "Strings; Branes"),
        ("Physics",),
        None,
    ]


def test_a_work_without_an_openalex_id_loads_by_its_doi_or_arxiv_id(tmp_path: Path) -> None:
    by_doi = work(1, id=None, ids={"doi": "https://doi.org/10.1234/made.up.1"})
    by_arxiv = work(2, id=None, ids=None, doi="https://doi.org/10.48550/arXiv.2101.00002")
    by_nothing = work(3, id=None, ids=None, doi=None)
    path = _write_lines(tmp_path / "w.jsonl", [by_doi, by_arxiv, by_nothing])
    items = list(openalex.parse(path))
    assert [paper.key for paper in parsed.papers(items)] == ["doi:10.1234/made.up.1", "2101.00002"]
    (reject,) = parsed.rejects(items)
    assert reject.origin.line == 3
    assert "has no 'id'" in reject.reason
    assert reject.reason.endswith("fix or remove this work")


def test_a_result_page_on_one_line_and_pretty_printed(tmp_path: Path) -> None:
    page = {
        "meta": {"count": 2, "db_response_time_ms": 12, "page": 1, "per_page": 25},
        "results": [work(1), work(2)],
        "group_by": [],
    }
    one_line = _write_lines(tmp_path / "page.json", [page])
    items = list(openalex.parse(one_line))
    assert [paper.origin.line for paper in parsed.papers(items)] == [1, 1]
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(page, indent=2))
    lines = pretty.read_text().splitlines()
    starts = [
        number
        for number, line in enumerate(lines, start=1)
        if line == "    {" and lines[number].strip().startswith('"id"')
    ]
    items = list(openalex.parse(pretty))
    assert not parsed.rejects(items)
    assert [paper.origin.line for paper in parsed.papers(items)] == starts
    cites_at = [cite.origin.line for cite in parsed.citations(items)]
    assert cites_at == [starts[0]] * 2 + [starts[1]] * 2


def test_one_pretty_printed_work_several_in_a_row_and_a_list(tmp_path: Path) -> None:
    single = tmp_path / "work.json"
    single.write_text(json.dumps(work(1), indent=2) + "\n")
    assert [paper.origin.line for paper in parsed.papers(list(openalex.parse(single)))] == [1]
    # jq '.results[]' writes the works pretty-printed one after another
    several = tmp_path / "jq.json"
    first = json.dumps(work(1), indent=2)
    several.write_text(first + "\n" + json.dumps(work(2), indent=2) + "\n")
    papers = parsed.papers(list(openalex.parse(several)))
    assert [paper.origin.line for paper in papers] == [1, first.count("\n") + 2]
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([work(1), work(2)]))
    assert len(parsed.papers(list(openalex.parse(listed)))) == 2


def test_a_truncated_pretty_printed_page_is_one_reject(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    text = json.dumps({"meta": {"count": 2}, "results": [work(1), work(2)]}, indent=2)
    path.write_text(text[: len(text) // 2])
    items = list(openalex.parse(path))
    (reject,) = parsed.rejects(items)
    assert reject.origin.line == 1
    assert "not valid JSON" in reject.reason
    assert "not read past it" in reject.reason


def test_json_lines_after_a_first_line_cut_short_still_load(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text('{"id": "https://openalex.org/W1", "title":\n' + _lines_text(2, 3, 4))
    items = list(openalex.parse(path))
    assert [paper.origin.line for paper in parsed.papers(items)] == [2, 3, 4]
    assert [reject.origin.line for reject in parsed.rejects(items)] == [1]


def test_a_line_over_the_limit_in_a_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("loaders.source_file.line_limit", lambda: 4000)
    path = tmp_path / "page.json"
    page = {"meta": {"count": 1}, "results": [work(1, title="T" * 5000)]}
    path.write_text(json.dumps(page, indent=2))
    items = list(openalex.parse(path))
    assert not parsed.papers(items)
    (reject,) = parsed.rejects(items)
    assert "over the limit of 4,000" in reject.reason
    assert "the document from line 1 holding it was not loaded" in reject.reason
    lines = _write_lines(tmp_path / "w.jsonl", [work(1, title="T" * 5000), work(2)])
    items = list(openalex.parse(lines))
    assert [paper.origin.line for paper in parsed.papers(items)] == [2]
    assert [reject.origin.line for reject in parsed.rejects(items)] == [1]


def test_a_snapshot_folder_of_gzipped_parts(tmp_path: Path) -> None:
    works = tmp_path / "openalex" / "data" / "works"
    part_a = _write_lines(works / "updated_date=2024-01-02" / "part_000.gz", [work(1)], True)
    part_b = _write_lines(
        works / "updated_date=2024-02-03" / "part_000.gz",
        [work(2, updated_date="2024-02-03T00:00:00"), work(3)],
        zipped=True,
    )
    (works / "manifest").write_text('{"entries": [], "meta": {"record_count": 3}}\n')
    (works / "README.txt").write_text("not a part\n")
    assert detect_format(part_a) == "openalex"
    items = list(openalex.parse(works))
    snapshot = items[0]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.kind == "openalex"
    assert snapshot.source == "works"
    assert not parsed.rejects(items)
    papers = parsed.papers(items)
    assert [(paper.origin.path, paper.origin.line) for paper in papers] == [
        (str(part_a), 1),
        (str(part_b), 1),
        (str(part_b), 2),
    ]
    assert {paper.snapshot for paper in papers} == {snapshot.key}
    last = items[-1]
    assert isinstance(last, SnapshotRecord)
    assert last.data_date == date(2025, 11, 6)
    assert last.first_date == date(2024, 2, 3)
    # the folder's snapshot changes with any part's content
    _write_lines(part_b, [work(2)], zipped=True)
    again = next(iter(openalex.parse(works)))
    assert isinstance(again, SnapshotRecord)
    assert again.key != snapshot.key


def test_a_corrupt_part_is_a_reject_and_the_others_load(tmp_path: Path) -> None:
    works = tmp_path / "works"
    _write_lines(works / "a" / "part_000.gz", [work(1)], zipped=True)
    broken = works / "b" / "part_000.gz"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(gzip.compress(json.dumps(work(2)).encode() * 50)[:40])
    items = list(openalex.parse(works))
    assert len(parsed.papers(items)) == 1
    (reject,) = parsed.rejects(items)
    assert reject.origin.path == str(broken)
    assert "the folder's other files loaded" in reject.reason


# One line each, the reject's reason in part, and how many papers the line still gives.
MALFORMED: list[tuple[str, str, int]] = [
    ("not json at all", "not valid JSON", 0),
    ('{"id": "https://openalex.org/W1", "title": "cut', "not valid JSON", 0),
    ('"a string"', "a JSON string where a work object should be", 0),
    ("[1, 2]", "a JSON number where a work object should be", 0),
    (json.dumps({"id": "https://openalex.org/A5000000001", "display_name": "X"}), "an author's", 0),
    (json.dumps({"id": "W12x", "title": "T"}), "is not an OpenAlex work id", 0),
    (json.dumps({"display_name": "No ids at all"}), "has no 'id'", 0),
    (json.dumps(work(1, doi="not-a-doi")), "doi 'not-a-doi' is not a DOI", 0),
    (json.dumps(work(1, ids={"mag": "abc"})), "ids.mag 'abc' is not a mag id", 0),
    (json.dumps(work(1, publication_year=3000)), "the year 3000 is not between 1800 and 2100", 0),
    (
        json.dumps(work(1, publication_year="2020")),
        "publication_year input should be a valid integer",
        0,
    ),
    (
        json.dumps(work(1, publication_year=True)),
        "publication_year input should be a valid integer",
        0,
    ),
    (json.dumps(work(1, publication_date="2020-13-01")), "is not an ISO date", 0),
    (json.dumps(work(1, updated_date="9999-12-31T00:00:00")), "the year 9999 is not between", 0),
    (json.dumps(work(1, cited_by_count=-1)), "cited_by_count input should be greater than", 0),
    (json.dumps(work(1, cited_by_count=2**63)), "cited_by_count input should be less than", 0),
    (json.dumps(work(1, abstract_inverted_index={"a": ["x"]})), "abstract_inverted_index.a.0", 0),
    (json.dumps(work(1, abstract_inverted_index={"a": [-1]})), "abstract_inverted_index.a.0", 0),
    (json.dumps(work(1, authorships="Ada")), "authorships input should be a valid list", 0),
    (json.dumps(work(1, authorships=[{"author": "Ada"}])), "authorships.0.author should be", 0),
    (
        json.dumps(work(1, referenced_works=[1, 2])),
        "referenced_works.0 input should be a valid str",
        0,
    ),
    (json.dumps(work(1, title="T" * 2001)), "the title is 2,001 characters long", 0),
    (json.dumps(work(1, title="Bad \ud800 title")), "lone surrogate", 0),
    (
        json.dumps(work(1, referenced_works=["https://openalex.org/W2", "garbage"])),
        "referenced_works[1] 'garbage' is not an OpenAlex work id",
        1,
    ),
    (json.dumps({"meta": {}, "results": 5}), "'results' is a JSON number", 0),
    ('{"a":' * 100_000 + "1" + "}" * 100_000, "nested too deep", 0),
    ('{"publication_year": ' + "9" * 5000 + "}", "not loadable JSON", 0),
]


def test_malformed_lines_are_rejects_and_the_rest_loads(tmp_path: Path) -> None:
    lines = [json.dumps(work(1))]
    for text, _, _ in MALFORMED:
        lines += [text, json.dumps(work(2))]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    items = list(openalex.parse(path))  # never raises
    rejects = parsed.rejects(items)
    by_line: dict[int, list[Rejected]] = {}
    for reject in rejects:
        by_line.setdefault(reject.origin.line, []).append(reject)
    papers = parsed.papers(items)
    for place, (text, reason, loaded) in enumerate(MALFORMED):
        line = 2 + 2 * place
        assert line in by_line, (text[:80], reason)
        assert all(reason in reject.reason for reject in by_line[line]), (
            reason,
            [reject.reason for reject in by_line[line]],
        )
        assert sum(paper.origin.line == line for paper in papers) == loaded, text[:80]
        assert all(reject.message().startswith(f"{path}:{line}: ") for reject in by_line[line])
    assert len(by_line[8]) == 2  # "[1, 2]": both elements
    # every good line between them loaded
    assert [paper.origin.line for paper in papers if paper.title != "A Made-Up Work 1"] == [
        1 + 2 * n for n in range(1, len(MALFORMED) + 1)
    ]


@pytest.mark.needs_data(REAL_OPENALEX)
def test_the_real_works_all_load() -> None:
    raw = [json.loads(line) for line in REAL_OPENALEX.read_text(encoding="utf-8").splitlines()]
    assert detect_format(REAL_OPENALEX) == "openalex"
    items = list(openalex.parse(REAL_OPENALEX))
    assert parsed.rejects(items) == []
    papers = parsed.papers(items)
    assert len(papers) == len(raw)
    assert [paper.origin.line for paper in papers] == list(range(1, len(raw) + 1))
    for paper, record in zip(papers, raw, strict=True):
        assert paper.ids["openalex"] == record["id"].rsplit("/", 1)[1]
        doi = paper.ids.get("doi")
        assert doi is None or (
            doi == doi.lower() and doi.startswith("10.") and "doi.org" not in doi
        )
        if record.get("doi") and "10.48550/arxiv." in record["doi"].lower():
            assert paper.arxiv_id == record["doi"].lower().split("10.48550/arxiv.", 1)[1]
    assert sum(paper.arxiv_id is not None for paper in papers) > 0


@pytest.mark.needs_data(REAL_OPENALEX)
def test_the_real_works_references_inside_the_set() -> None:
    """The references from a work of the set to a work of the set, counted from the raw
    JSON, are the citations (and self-citations) the parser gives between them."""
    raw = [json.loads(line) for line in REAL_OPENALEX.read_text(encoding="utf-8").splitlines()]
    in_set = {record["id"] for record in raw}
    inside = [
        (record["id"], cited)
        for record in raw
        for cited in record.get("referenced_works") or []
        if cited in in_set
    ]
    own = sum(citing == cited for citing, cited in inside)
    assert len(inside) > 0
    items = list(openalex.parse(REAL_OPENALEX))
    keys = {f"openalex:{normal_id('openalex', wid)}" for wid in in_set}
    cites = [cite for cite in parsed.citations(items) if cite.cited.key in keys]
    skipped = parsed.skipped(items)
    assert len(cites) == len(inside) - own
    assert len(skipped) == own
    # and every reference of the set is a citation or a self-citation
    total = sum(len(record.get("referenced_works") or []) for record in raw)
    assert len(parsed.citations(items)) + len(skipped) == total
    assert all(re.fullmatch(r"openalex:W\d+", cite.cited.key) for cite in parsed.citations(items))
