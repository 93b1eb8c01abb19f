"""Unit tests for loaders.crossref: Crossref REST work objects, envelopes and list pages.

Every record here is made up, in the shape the Crossref REST API returns (field names and
nesting as they are); the real records are read from KG_DATA_DIR only.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from loaders import crossref
from loaders.detect import detect_format
from loaders.records import Rejected, SnapshotRecord
from loaders.source_file import content_sha256
from tests import parsed
from tests.data import REAL_SOURCES

REAL_CROSSREF = REAL_SOURCES / "crossref_works.jsonl"

JATS_ABSTRACT = (
    "<jats:title>Abstract</jats:title><jats:p>Made-up <jats:italic>graphs</jats:italic> "
    "are\n          studied.</jats:p>\n          <jats:p>Second &amp; last paragraph.</jats:p>"
)


def _dated(*parts: int | None) -> dict[str, Any]:
    return {"date-parts": [list(parts)]}


def work(number: int = 1, **changes: Any) -> dict[str, Any]:
    """Return a made-up work (the ``message`` of /works/DOI); ``changes`` replace fields,
    a field set to ``...`` is removed."""
    record: dict[str, Any] = {
        "indexed": {
            "date-parts": [[2025, 8, 6]],
            "date-time": "2025-08-06T12:45:34Z",
            "timestamp": 1754484334089,
        },
        "reference-count": 4,
        "publisher": "Made-Up Press",
        "content-domain": {"domain": [], "crossmark-restriction": False},
        "short-container-title": ["Made-Up J."],
        "published-print": _dated(2015, 6, 1),
        "DOI": f"10.1234/MADE.UP.{number}",
        "type": "journal-article",
        "created": {"date-parts": [[2015, 1, 2]], "date-time": "2015-01-02T10:00:00Z"},
        "source": "Crossref",
        "is-referenced-by-count": 12,
        "title": [f"A Made-Up <i>Crossref</i> Work {number}"],
        "prefix": "10.1234",
        "author": [
            {"given": "Ada", "family": "Madeup", "sequence": "first", "affiliation": []},
            {"given": "Bo  J.", "family": "Fictus", "sequence": "additional", "affiliation": []},
            {"name": "The Made-Up Consortium", "sequence": "additional", "affiliation": []},
        ],
        "member": "9999",
        "published-online": _dated(2015, 5, 20),
        "reference": [
            {"key": "r1", "doi-asserted-by": "crossref", "DOI": "10.5555/Cited.One"},
            {
                "key": "r2",
                "article-title": "A Cited <i>Title</i>",
                "author": "Smith",
                "year": "2013a",
                "journal-title": "Made-Up Letters",
            },
            {"key": "r3", "unstructured": "Someone, Something, 1999."},
            {"key": "r4", "DOI": "10.48550/arXiv.1706.03762", "doi-asserted-by": "publisher"},
        ],
        "container-title": ["Made-Up Journal"],
        "language": "en",
        "deposited": {"date-parts": [[2015, 6, 2]], "date-time": "2015-06-02T00:00:00Z"},
        "score": 1,
        "issued": _dated(2015, 6),
        "references-count": 4,
        "URL": f"https://doi.org/10.1234/made.up.{number}",
        "abstract": JATS_ABSTRACT,
        "published": _dated(2015, 6),
    }
    record.update(changes)
    return {key: value for key, value in record.items() if value is not ...}


def _write_lines(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def test_snapshot_first_and_last(tmp_path: Path) -> None:
    older = work(2, indexed={"date-parts": [[2023, 6, 24]], "date-time": "2023-06-24T23:17:17Z"})
    path = _write_lines(tmp_path / "works.jsonl", [work(1), older, work(3, indexed=...)])
    items = list(crossref.parse(path))
    first, last = items[0], items[-1]
    assert isinstance(first, SnapshotRecord)
    assert isinstance(last, SnapshotRecord)
    assert first.kind == "crossref"
    assert first.source == "works.jsonl"
    assert first.key == f"sha256:{content_sha256(path)}"
    assert last.key == first.key
    assert last.data_date == date(2025, 8, 6)
    assert last.first_date == date(2023, 6, 24)
    assert [paper.as_of for paper in parsed.papers(items)] == [
        date(2025, 8, 6),
        date(2023, 6, 24),
        None,
    ]


def test_what_a_work_states(tmp_path: Path) -> None:
    items = list(crossref.parse(_write_lines(tmp_path / "w.jsonl", [work(1)])))
    assert not parsed.rejects(items)
    (paper,) = parsed.papers(items)
    assert paper.key == "doi:10.1234/made.up.1"
    assert paper.ids == {"doi": "10.1234/made.up.1"}
    assert paper.doi == "10.1234/made.up.1"
    assert paper.arxiv_id is None
    assert paper.title == "A Made-Up Crossref Work 1"
    # the year of 'published', the first full date of that year ('published-print')
    assert paper.year == 2015
    assert paper.published == date(2015, 6, 1)
    assert paper.authors == ("Ada Madeup", "Bo J. Fictus", "The Made-Up Consortium")
    assert paper.abstract == "Made-up graphs are studied.\n\nSecond & last paragraph."
    assert paper.stated_cited_by == 12
    assert paper.stated_refs_total == 4
    assert paper.as_of == date(2025, 8, 6)
    assert paper.extra == {"references_unnamed": 1}


def test_references_by_doi_arxiv_id_and_title(tmp_path: Path) -> None:
    items = list(crossref.parse(_write_lines(tmp_path / "w.jsonl", [work(1)])))
    cites = parsed.citations(items)
    assert [cite.cited.key for cite in cites] == [
        "doi:10.5555/cited.one",
        "title:a cited title:2013",
        "1706.03762",
    ]
    assert cites[1].cited.title == "A Cited Title"
    assert cites[1].cited.year == 2013
    for cite in cites:
        assert cite.citing.key == "doi:10.1234/made.up.1"
        assert cite.citing.year == 2015
        assert cite.origin.line == 1
        assert cite.as_of == date(2025, 8, 6)


def test_dates_and_counts_from_fallbacks(tmp_path: Path) -> None:
    records = [
        work(1, published=..., issued={"date-parts": [[None]]}, **{"published-print": ...}),
        work(2, published=_dated(2014), **{"reference-count": ..., "references-count": 7}),
        work(3, **{"reference-count": ..., "references-count": ...}),
        work(4, published=..., issued=..., **{"published-print": ..., "published-online": ...}),
    ]
    papers = parsed.papers(list(crossref.parse(_write_lines(tmp_path / "w.jsonl", records))))
    assert [(paper.year, paper.published) for paper in papers] == [
        (2015, date(2015, 5, 20)),  # 'published-online', the only date left
        (2014, None),  # no full date of 2014
        (2015, date(2015, 6, 1)),
        (None, None),
    ]
    assert [paper.stated_refs_total for paper in papers] == [4, 7, 4, 4]


def test_a_self_citation_and_repeated_references(tmp_path: Path) -> None:
    refs = [
        {"key": "a", "DOI": "https://doi.org/10.1234/made.up.1"},
        {"key": "b", "DOI": "10.5555/twice"},
        {"key": "c", "DOI": "10.5555/TWICE"},
    ]
    items = list(crossref.parse(_write_lines(tmp_path / "w.jsonl", [work(1, reference=refs)])))
    assert [cite.cited.key for cite in parsed.citations(items)] == ["doi:10.5555/twice"]
    (skipped,) = parsed.skipped(items)
    assert skipped.kind == "self-citation"
    assert skipped.detail == "doi:10.1234/made.up.1 lists itself in its references"


def test_an_arxiv_doi_is_the_arxiv_id(tmp_path: Path) -> None:
    stated = work(1, DOI="10.48550/arXiv.2101.00001")
    (paper,) = parsed.papers(list(crossref.parse(_write_lines(tmp_path / "w.jsonl", [stated]))))
    assert paper.arxiv_id == "2101.00001"
    assert paper.ids == {}
    assert paper.doi is None


def test_envelopes_and_list_pages(tmp_path: Path) -> None:
    answer = {"status": "ok", "message-type": "work", "message-version": "1.0.0"}
    single = tmp_path / "single.json"
    single.write_text(json.dumps({**answer, "message": work(1)}, indent=2))
    assert [paper.origin.line for paper in parsed.papers(list(crossref.parse(single)))] == [5]
    page = {
        "status": "ok",
        "message-type": "work-list",
        "message-version": "1.0.0",
        "message": {
            "facets": {},
            "total-results": 2,
            "items": [work(1), work(2)],
            "items-per-page": 20,
            "query": {"start-index": 0, "search-terms": None},
        },
    }
    pretty = tmp_path / "page.json"
    pretty.write_text(json.dumps(page, indent=2))
    lines = pretty.read_text().splitlines()
    starts = [
        number
        for number, line in enumerate(lines, start=1)
        if line == "      {" and lines[number].strip().startswith('"indexed"')
    ]
    items = list(crossref.parse(pretty))
    assert not parsed.rejects(items)
    assert [paper.key for paper in parsed.papers(items)] == [
        "doi:10.1234/made.up.1",
        "doi:10.1234/made.up.2",
    ]
    assert [paper.origin.line for paper in parsed.papers(items)] == starts
    lines_file = _write_lines(tmp_path / "answers.jsonl", [{**answer, "message": work(3)}, page])
    assert len(parsed.papers(list(crossref.parse(lines_file)))) == 3
    data_file = tmp_path / "0.json"
    data_file.write_text(json.dumps({"items": [work(4), work(5)]}))
    assert len(parsed.papers(list(crossref.parse(data_file)))) == 2


def test_an_answer_that_holds_no_works_is_a_reject(tmp_path: Path) -> None:
    member = {"status": "ok", "message-type": "member", "message": {"id": 9999}}
    failed = {"status": "failed", "message-type": "validation-failure", "message": [{}]}
    items = list(crossref.parse(_write_lines(tmp_path / "w.jsonl", [member, work(1), failed])))
    assert len(parsed.papers(items)) == 1
    assert [(reject.origin.line, reject.reason[:60]) for reject in parsed.rejects(items)] == [
        (1, "a Crossref answer of message-type 'member' holding a JSON ob"),
        (3, "a Crossref answer of message-type 'validation-failure' holdi"),
    ]


# One line each, the reject's reason in part, and how many papers the line still gives.
MALFORMED: list[tuple[str, str, int]] = [
    ("garbage", "not valid JSON", 0),
    ("[true]", "a JSON boolean where a work object should be", 0),
    (json.dumps(work(1, DOI=...)), "the work has no 'DOI'", 0),
    (json.dumps(work(1, DOI="not a doi")), "'DOI' 'not a doi' is not a DOI", 0),
    (json.dumps(work(1, DOI=10.1234)), "DOI input should be a valid string", 0),
    (json.dumps(work(1, title=[5])), "title", 0),
    (json.dumps(work(1, published=_dated(3000, 1, 1))), "the year 3000 is not between", 0),
    (json.dumps(work(1, published=_dated(2015, 2, 30))), "is no day of the calendar", 0),
    (json.dumps(work(1, published=_dated(2015, 99**9, 1))), "is no day of the calendar", 0),
    (json.dumps(work(1, published={"date-parts": "2015"})), "published.date-parts", 0),
    (json.dumps(work(1, indexed={"date-time": "yesterday"})), "is not an ISO date", 0),
    (json.dumps(work(1, **{"is-referenced-by-count": -3})), "is-referenced-by-count input", 0),
    (json.dumps(work(1, author=[{"given": 1}])), "author.0.given input should be", 0),
    (json.dumps(work(1, reference={"DOI": "10.1/x"})), "reference input should be a valid", 0),
    (json.dumps(work(1, abstract=["x"])), "abstract input should be a valid string", 0),
    (json.dumps(work(1, title=["T" * 2001])), "the title is 2,001 characters long", 0),
    (
        json.dumps(work(1, reference=[{"DOI": "no doi"}, {"DOI": "10.5555/fine"}])),
        "reference[0].DOI 'no doi' is not a DOI",
        1,
    ),
    (
        json.dumps(work(1, reference=[{"article-title": "T" * 2001}])),
        "reference[0]: the title is 2,001 characters long",
        1,
    ),
    ('{"message": ' * 100_000 + "}" * 100_000, "nested too deep", 0),
]


def test_malformed_lines_are_rejects_and_the_rest_loads(tmp_path: Path) -> None:
    lines = [json.dumps(work(1))]
    for text, _, _ in MALFORMED:
        lines += [text, json.dumps(work(2))]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    items = list(crossref.parse(path))  # never raises
    by_line: dict[int, list[Rejected]] = {}
    for reject in parsed.rejects(items):
        by_line.setdefault(reject.origin.line, []).append(reject)
    papers = parsed.papers(items)
    for place, (text, reason, loaded) in enumerate(MALFORMED):
        line = 2 + 2 * place
        assert line in by_line, (text[:80], reason)
        reasons = [reject.reason for reject in by_line[line]]
        assert all(reason in found for found in reasons), (reason, reasons)
        assert sum(paper.origin.line == line for paper in papers) == loaded, text[:80]
    assert [paper.origin.line for paper in papers if paper.doi == "10.1234/made.up.2"] == [
        1 + 2 * n for n in range(1, len(MALFORMED) + 1)
    ]


def test_a_reference_naming_nothing_is_counted_not_rejected(tmp_path: Path) -> None:
    refs = [{"key": "a", "unstructured": "Only text."}, {"key": "b", "year": "2001"}, {}]
    items = list(crossref.parse(_write_lines(tmp_path / "w.jsonl", [work(1, reference=refs)])))
    assert not parsed.rejects(items)
    assert not parsed.citations(items)
    assert parsed.papers(items)[0].extra == {"references_unnamed": 3}


@pytest.mark.needs_data(REAL_CROSSREF)
def test_the_real_works_all_load() -> None:
    raw = [json.loads(line) for line in REAL_CROSSREF.read_text(encoding="utf-8").splitlines()]
    assert detect_format(REAL_CROSSREF) == "crossref"
    items = list(crossref.parse(REAL_CROSSREF))
    assert parsed.rejects(items) == []
    papers = parsed.papers(items)
    assert len(papers) == len(raw)
    for paper, record in zip(papers, raw, strict=True):
        assert paper.ids["doi"] == record["DOI"].lower()
        assert paper.key == f"doi:{record['DOI'].lower()}"
        assert paper.stated_cited_by == record.get("is-referenced-by-count")
        # the references with a DOI, counted from the raw JSON, once each; arXiv's own
        # DOIs name the arXiv id
        stated = {ref["DOI"].lower() for ref in record.get("reference") or [] if "DOI" in ref}
        arxiv = {doi for doi in stated if doi.startswith("10.48550/arxiv.")}
        cited = [cite.cited for cite in parsed.citations(items) if cite.citing.key == paper.key]
        assert {ref.ids["doi"] for ref in cited if "doi" in ref.ids} == stated - arxiv
        assert {f"10.48550/arxiv.{ref.arxiv_id}" for ref in cited if ref.arxiv_id} == arxiv
    for cite in parsed.citations(items):
        doi = cite.cited.ids.get("doi")
        assert doi is None or (doi == doi.lower() and doi.startswith("10."))
