"""Unit tests for loaders.semantic_scholar: Graph API paper objects and the S2 datasets.

Every record here is made up, in the shape the API and the datasets write; the test on real
data reads ``s2_papers.jsonl`` under KG_DATA_DIR and is skipped where it is missing.
"""

from __future__ import annotations

import json
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders import semantic_scholar, source_file
from loaders.detect import detect_format
from loaders.ids import ID_KINDS, normal_id
from loaders.records import PaperRecord, ParsedItem, SnapshotRecord
from loaders.source_file import content_sha256
from tests import parsed
from tests.data import REAL_SOURCES

REAL_S2 = REAL_SOURCES / "s2_papers.jsonl"


def _hex(n: int) -> str:
    return f"{n:040x}"


def _paper(n: int, **fields: Any) -> dict[str, Any]:
    """A made-up Graph API paper object (paperId 00…0n, corpusId 1000+n)."""
    paper: dict[str, Any] = {
        "paperId": _hex(n),
        "externalIds": {"DBLP": f"journals/x/Made{n}", "CorpusId": 1000 + n},
        "corpusId": 1000 + n,
        "url": f"https://www.semanticscholar.org/paper/{_hex(n)}",
        "title": f"Invented Paper Number {n}",
        "venue": "Journal of Made-Up Results",
        "year": 2001,
        "citationCount": 3,
        "referenceCount": 2,
        "authors": [{"authorId": str(n), "name": "Ada Inventa"}],
    }
    paper.update(fields)
    return paper


def _write(tmp_path: Path, name: str, *values: object, text: str | None = None) -> Path:
    path = tmp_path / name
    if text is None:
        text = "".join(json.dumps(value) + "\n" for value in values)
    path.write_text(text, encoding="utf-8")
    return path


def _parse(path: Path) -> list[ParsedItem]:
    return list(semantic_scholar.parse(path))


# Graph API paper objects


def test_snapshot_first_and_only(tmp_path: Path) -> None:
    path = _write(tmp_path, "papers.jsonl", _paper(1), _paper(2))
    items = _parse(path)
    first = items[0]
    assert isinstance(first, SnapshotRecord)
    assert first.kind == "semantic_scholar"
    assert first.source == "papers.jsonl"
    assert first.sha256 == content_sha256(path)
    assert first.key == f"sha256:{first.sha256}"
    assert len(parsed.of_kind(items, SnapshotRecord)) == 1
    assert [paper.origin.line for paper in parsed.papers(items)] == [1, 2]


def test_a_full_paper_object(tmp_path: Path) -> None:
    obj = _paper(
        7,
        externalIds={
            "ArXiv": "2101.00007v2",
            "DOI": "10.5555/MADE.Up.7",
            "MAG": "0123456",
            "PubMed": "7654321",
            "PubMedCentral": "999",
            "CorpusId": 1007,
        },
        title="  An   Invented\nTitle ",
        abstract="First  paragraph\nstill first.\n\nSecond paragraph.",
        publicationDate="2021-01-04",
        year=2021,
        authors=[{"authorId": None, "name": " Ada  Inventa "}, {"name": None}, {"name": "Bo Two"}],
        citationCount=12,
        referenceCount=34,
    )
    (paper,) = parsed.papers(_parse(_write(tmp_path, "one.jsonl", obj)))
    assert paper.arxiv_id == "2101.00007"
    assert paper.key == "2101.00007"
    assert paper.ids == {
        "doi": "10.5555/made.up.7",
        "s2": _hex(7),
        "corpus": "1007",
        "mag": "123456",
        "pmid": "7654321",
    }
    assert paper.doi == "10.5555/MADE.Up.7"
    assert paper.title == "An Invented Title"
    assert paper.year == 2021
    assert paper.published == date(2021, 1, 4)
    assert paper.abstract == "First paragraph still first.\n\nSecond paragraph."
    assert paper.authors == ("Ada Inventa", "Bo Two")
    assert paper.stated_cited_by == 12
    assert paper.stated_refs_total == 34
    assert paper.as_of is None


def test_nulls_and_a_paper_named_by_its_s2_id_alone(tmp_path: Path) -> None:
    obj = {
        "paperId": _hex(8).upper(),
        "externalIds": None,
        "corpusId": None,
        "title": None,
        "year": None,
        "publicationDate": None,
        "abstract": None,
        "authors": None,
        "citationCount": None,
        "referenceCount": None,
        "citations": None,
        "references": None,
    }
    items = _parse(_write(tmp_path, "nulls.jsonl", obj))
    (paper,) = parsed.papers(items)
    assert paper.ids == {"s2": _hex(8)}
    assert paper.key == f"s2:{_hex(8)}"
    assert paper.title is None
    assert paper.authors == ()
    assert not parsed.rejects(items)


def test_an_arxiv_doi_is_the_arxiv_id(tmp_path: Path) -> None:
    doi_only = _paper(1, externalIds={"DOI": "10.48550/arXiv.2101.00001", "CorpusId": 1001})
    both = _paper(2, externalIds={"ArXiv": "2101.00002", "DOI": "10.48550/ARXIV.2101.00002"})
    papers = parsed.papers(_parse(_write(tmp_path, "a.jsonl", doi_only, both)))
    assert [paper.arxiv_id for paper in papers] == ["2101.00001", "2101.00002"]
    assert all("doi" not in paper.ids and paper.doi is None for paper in papers)


def test_year_from_the_publication_date_when_year_is_null(tmp_path: Path) -> None:
    obj = _paper(1, year=None, publicationDate="1999-12-31")
    (paper,) = parsed.papers(_parse(_write(tmp_path, "a.jsonl", obj)))
    assert paper.year == 1999
    assert paper.published == date(1999, 12, 31)


def test_nested_citations_and_references(tmp_path: Path) -> None:
    obj = _paper(
        1,
        citations=[
            _paper(10),
            {"citingPaper": _paper(11), "contexts": ["…"], "isInfluential": False},
            {"paperId": None, "title": "A Paper Semantic Scholar Has No Id For", "year": 1990},
            {"paperId": None, "title": None},
            {"paperId": None, "externalIds": None, "corpusId": None, "title": "  "},
            None,
            _paper(1),  # the paper itself
        ],
        references=[
            {"citedPaper": _paper(20, externalIds={"ArXiv": "hep-th/9901001"})},
            _paper(21, paperId=None, externalIds={"DOI": "https://doi.org/10.5555/REF.21"}),
            {"citedPaper": {"paperId": None, "title": None}},
        ],
    )
    items = _parse(_write(tmp_path, "nested.jsonl", obj))
    assert not parsed.rejects(items)
    (paper,) = parsed.papers(items)
    citations = parsed.citations(items)
    citing = [c.citing.key for c in citations if c.cited.key == paper.key]
    cited = [c.cited.key for c in citations if c.citing.key == paper.key]
    assert citing == [
        f"s2:{_hex(10)}",
        f"s2:{_hex(11)}",
        "title:a paper semantic scholar has no id for:1990",
    ]
    assert cited == ["hep-th/9901001", "doi:10.5555/ref.21"]
    assert len(citations) == 5
    assert all(c.origin.line == 1 and c.as_of is None for c in citations)
    nested = citations[0].citing
    assert nested.ids == {"s2": _hex(10), "corpus": "1010"}
    assert nested.title == "Invented Paper Number 10"
    assert nested.year == 2001
    assert nested.stated_cited_by == 3
    skipped = parsed.skipped(items)
    assert [s.kind for s in skipped] == ["unresolved citation"] * 3 + ["self-citation"] + [
        "unresolved citation"
    ]
    assert "citations[3]" in skipped[0].detail


def test_a_bad_nested_paper_rejects_its_citation_alone(tmp_path: Path) -> None:
    obj = _paper(
        1,
        citations=[
            _paper(10, externalIds={"DOI": "not a doi"}),
            _paper(11),
            "a string",
            _paper(12, year=1066),
            _paper(13, paperId="xyz"),
            _paper(14, title="\ud800"),
        ],
    )
    items = _parse(_write(tmp_path, "a.jsonl", obj))
    assert len(parsed.papers(items)) == 1
    assert [c.citing.ids["s2"] for c in parsed.citations(items)] == [_hex(11)]
    reasons = [r.reason for r in parsed.rejects(items)]
    assert len(reasons) == 5
    assert reasons[0].startswith("citations[0]: externalIds.DOI 'not a doi' is not a DOI")
    assert reasons[1].startswith("citations[2]: a JSON string where a paper object should be")
    assert reasons[2].startswith("citations[3]: year: the year 1066 is not between 1800")
    assert reasons[3].startswith("citations[4]: paperId 'xyz' is not a paperId")
    assert reasons[4].startswith("citations[5]: the title holds a lone surrogate")
    for reject in parsed.rejects(items):
        reject.raw.encode("utf-8")  # written to the rejects file as it is
    assert all(
        reason.endswith("the citation was not loaded: fix or remove the entry")
        for reason in reasons
    )


def test_a_page_on_one_line_and_pretty_printed(tmp_path: Path) -> None:
    page = {"total": 3, "offset": 0, "next": 3, "data": [_paper(1), _paper(2), _paper(3)]}
    one_line = parsed.papers(_parse(_write(tmp_path, "page.json", page)))
    assert [p.ids["s2"] for p in one_line] == [_hex(1), _hex(2), _hex(3)]
    assert {p.origin.line for p in one_line} == {1}
    pretty = _write(tmp_path, "pretty.json", text="\n" + json.dumps(page, indent=2) + "\n")
    papers = parsed.papers(_parse(pretty))
    assert [p.ids["s2"] for p in papers] == [_hex(1), _hex(2), _hex(3)]
    lines = pretty.read_text().splitlines()
    for paper in papers:  # each paper starts on the line its object opens
        assert lines[paper.origin.line - 1].strip() == "{"
        assert _hex(int(paper.ids["s2"], 16)) in lines[paper.origin.line]
    assert semantic_scholar.line_context(pretty) != semantic_scholar.line_context(pretty)
    assert semantic_scholar.line_context(_write(tmp_path, "p.jsonl", page)) is None


def test_one_pretty_printed_object_with_nested_lists(tmp_path: Path) -> None:
    obj = _paper(1, citations=[_paper(2)], references=[_paper(3)])
    items = _parse(_write(tmp_path, "one.json", text=json.dumps(obj, indent=4)))
    assert len(parsed.papers(items)) == 1
    assert len(parsed.citations(items)) == 2
    assert not parsed.rejects(items)


def test_a_citations_page_gives_the_citing_papers(tmp_path: Path) -> None:
    page = {"offset": 0, "data": [{"contexts": [], "citingPaper": _paper(4)}]}
    items = _parse(_write(tmp_path, "citations.json", page))
    assert [p.ids["s2"] for p in parsed.papers(items)] == [_hex(4)]
    assert not parsed.citations(items)


def test_a_batch_answer_with_nulls(tmp_path: Path) -> None:
    text = json.dumps([_paper(1), None, _paper(2)], indent=2)
    items = _parse(_write(tmp_path, "batch.json", text=text))
    assert len(parsed.papers(items)) == 2
    (reject,) = parsed.rejects(items)
    assert "element 2 of the array is a JSON null" in reject.reason
    assert text.splitlines()[reject.origin.line - 1].strip() == "null,"


def test_a_jsonl_file_with_a_broken_first_line_stays_lines(tmp_path: Path) -> None:
    text = '{"paperId": "' + _hex(1) + '", "tit\n' + json.dumps(_paper(2)) + "\n"
    path = _write(tmp_path, "a.jsonl", text=text)
    items = _parse(path)
    assert [p.origin.line for p in parsed.papers(items)] == [2]
    assert [r.origin.line for r in parsed.rejects(items)] == [1]
    assert semantic_scholar.line_context(path) is None


# The datasets


def test_dataset_lines(tmp_path: Path) -> None:
    lines = [
        {
            "corpusid": 2001,
            "externalids": {
                "ACL": None,
                "DBLP": None,
                "ArXiv": None,
                "MAG": "55",
                "CorpusId": "2001",
                "PubMed": None,
                "DOI": "10.5555/Dataset.1",
                "PubMedCentral": None,
            },
            "url": "https://www.semanticscholar.org/paper/" + _hex(5),
            "title": "A Dataset Paper",
            "authors": [{"authorId": "1", "name": "Cy Three"}],
            "venue": "",
            "year": 2019,
            "referencecount": 4,
            "citationcount": 5,
            "influentialcitationcount": 0,
            "publicationdate": "2019-05-06",
        },
        {"corpusid": 2001, "openaccessinfo": {"license": None}, "abstract": "An  abstract."},
        {"citationid": 1, "citingcorpusid": 2001, "citedcorpusid": 2002, "isinfluential": False},
        {"citationid": 2, "citingcorpusid": 2001, "citedcorpusid": None},
        {"citationid": 3, "citingcorpusid": "2003", "citedcorpusid": 2003},
        {"citationid": 4, "citingcorpusid": 2001, "citedcorpusid": "x"},
    ]
    items = _parse(_write(tmp_path, "datasets.jsonl", *lines))
    paper, abstract = parsed.papers(items)
    assert paper.ids == {"doi": "10.5555/dataset.1", "corpus": "2001", "mag": "55"}
    assert paper.title == "A Dataset Paper"
    assert paper.authors == ("Cy Three",)
    assert (paper.year, paper.published) == (2019, date(2019, 5, 6))
    assert (paper.stated_cited_by, paper.stated_refs_total) == (5, 4)
    assert abstract.key == "corpus:2001"
    assert abstract.abstract == "An abstract."
    assert abstract.title is None
    (citation,) = parsed.citations(items)
    assert (citation.citing.key, citation.cited.key) == ("corpus:2001", "corpus:2002")
    assert citation.origin.line == 3
    assert [(s.origin.line, s.kind) for s in parsed.skipped(items)] == [
        (4, "unresolved citation"),
        (5, "self-citation"),
    ]
    (reject,) = parsed.rejects(items)
    assert reject.origin.line == 6
    assert reject.reason.startswith("citedcorpusid 'x' is not a corpus id")


# Bad records


BAD_LINES: list[tuple[str, str]] = [
    ("not json at all", "not valid JSON"),
    ('{"paperId": "' + _hex(1) + '", "title": "cut', "not valid JSON"),
    ("[1]", "element 1 of the array is a JSON number"),
    ('"a string"', "a JSON string where a Semantic Scholar paper object should be"),
    ("42", "a JSON number where"),
    ("null", "a JSON null where"),
    ("{}", "it names no paper: no paperId, corpusId or external id"),
    ('{"error": "Paper with id X not found"}', "an API error answer"),
    (
        json.dumps(_paper(1, externalIds={"DOI": "doi:nope"})),
        "externalIds.DOI 'doi:nope' is not a DOI",
    ),
    (json.dumps(_paper(1, externalIds={"DOI": "10.48550/arXiv.junk"})), "is not a DOI"),
    (json.dumps(_paper(1, externalIds={"ArXiv": "1234.56789"})), "externalIds.ArXiv '1234.56789'"),
    (
        json.dumps(_paper(1, externalIds={"MAG": "m12"})),
        "externalIds.MAG 'm12' is not a MAG id (digits)",
    ),
    (
        json.dumps(_paper(1, externalIds={"PubMed": []})),
        "externalIds.PubMed should be a string or a whole number",
    ),
    (json.dumps(_paper(1, externalIds=["DOI"])), "externalIds should be a JSON object"),
    (json.dumps(_paper(1, year=1700)), "year: the year 1700 is not between 1800 and 2100"),
    (json.dumps(_paper(1, year=3000)), "the year 3000 is not between"),
    (json.dumps(_paper(1, year="2001")), "year input should be a valid integer"),
    (
        json.dumps(_paper(1, publicationDate="2020-13-01")),
        "publicationDate '2020-13-01' is not a date",
    ),
    (json.dumps(_paper(1, publicationDate="9999-12-31")), "publicationDate: the year 9999"),
    (json.dumps(_paper(1, paperId="xyz")), "paperId 'xyz' is not a paperId (40 hex digits)"),
    (json.dumps(_paper(1, corpusId=-1)), "corpusId '-1' is not a corpus id"),
    (
        json.dumps(_paper(1, corpusId=True)),
        "corpusId should be a string or a whole number, got boolean true",
    ),
    (json.dumps(_paper(1, authors="Ada")), "authors input should be a valid list"),
    (json.dumps(_paper(1, authors=[{"name": 5}])), "authors.0.name input should be a valid string"),
    (json.dumps(_paper(1, citationCount=-5)), "citationCount input should be greater than"),
    (json.dumps(_paper(1, citationCount=2**70)), "cited by 1180591620717411303424 is over"),
    (json.dumps(_paper(1, title="T" * 5000)), "the title is 5,000 characters long"),
    (json.dumps(_paper(1, title="\ud800 lone")), "lone surrogate"),
    (json.dumps(_paper(1, citations="many")), "citations input should be a valid list"),
    ('{"a":' * 5000 + "1" + "}" * 5000, "nested too deep"),
    ('{"corpusid": 1, "year": 12}', "the year 0012 is not between"),
]


def test_bad_lines_are_rejected_and_the_rest_loads(tmp_path: Path) -> None:
    good = json.dumps(_paper(99))
    text = "".join(f"{line}\n{good}\n" for line, _ in BAD_LINES)
    items = _parse(_write(tmp_path, "bad.jsonl", text=text))
    papers = parsed.papers(items)
    assert [paper.origin.line for paper in papers] == list(range(2, 2 * len(BAD_LINES) + 1, 2))
    rejects = {reject.origin.line: reject for reject in parsed.rejects(items)}
    assert sorted(rejects) == list(range(1, 2 * len(BAD_LINES), 2))
    for (line, expected), number in zip(BAD_LINES, sorted(rejects), strict=True):
        reject = rejects[number]
        assert expected in reject.reason, (line[:80], reject.reason)
        assert reject.raw in line
        assert reject.message().startswith(f"{reject.origin.path}:{number}: ")


def test_every_record_reason_says_what_to_do(tmp_path: Path) -> None:
    text = "".join(f"{line}\n" for line, _ in BAD_LINES)
    for reject in parsed.rejects(_parse(_write(tmp_path, "bad.jsonl", text=text))):
        assert "remove" in reject.reason, reject.reason


def test_a_line_over_the_limit_is_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source_file, "MAX_LINE_LENGTH", 1000, raising=False)
    long_line = json.dumps(_paper(1, abstract="x" * 2000))
    path = _write(tmp_path, "long.jsonl", text=long_line + "\n" + json.dumps(_paper(2)) + "\n")
    items = _parse(path)
    assert [p.origin.line for p in parsed.papers(items)] == [2]
    (reject,) = parsed.rejects(items)
    assert reject.origin.line == 1
    assert "over the limit of 1,000" in reject.reason


def test_unchanged_lines_are_not_read(tmp_path: Path) -> None:
    first, second = json.dumps(_paper(1)), json.dumps(_paper(2))
    path = _write(tmp_path, "a.jsonl", text=f"{first}\n{second}\n")
    items = list(semantic_scholar.parse(path, unchanged=lambda text: text == first))
    assert [p.ids["s2"] for p in parsed.papers(items)] == [_hex(2)]


_FUZZ_VALID = json.dumps(_paper(1, citations=[_paper(2), {"citingPaper": _paper(3)}])) + "\n"
_FUZZ_VALID += json.dumps({"citingcorpusid": 1, "citedcorpusid": 2}) + "\n"
_FUZZ_VALID += json.dumps({"data": [_paper(4)]}, indent=1) + "\n"


@settings(max_examples=150, deadline=None, database=None)
@given(
    cut=st.integers(0, len(_FUZZ_VALID)),
    insert=st.text(max_size=8),
    at=st.integers(0, len(_FUZZ_VALID)),
)
def test_random_edits_never_raise(cut: int, insert: str, at: int) -> None:
    text = _FUZZ_VALID[:at] + insert + _FUZZ_VALID[at:]
    text = text[:cut] + text[cut + 3 :]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for item in semantic_scholar.parse(path):
            if isinstance(item, PaperRecord):
                assert source_file.record_problem(item) is None


# Detection


@pytest.mark.parametrize(
    ("values", "text"),
    [
        ([_paper(1), _paper(2)], None),
        ([{"data": [_paper(1)], "next": 1}], None),
        ([{"offset": 0, "data": [{"citingPaper": _paper(1)}]}], None),
        ([{"offset": 0, "data": [{"citedPaper": _paper(1)}]}], None),
        ([], json.dumps({"total": 1, "data": [_paper(1)]}, indent=2)),
        ([], json.dumps(_paper(1), indent=2)),
        ([], json.dumps([_paper(1), None])),
        ([{"corpusid": 1, "title": "T", "authors": [], "year": 2000}], None),
        ([{"corpusid": 1, "abstract": "A.", "openaccessinfo": None}], None),
        ([{"citationid": 5, "citingcorpusid": 1, "citedcorpusid": None}], None),
    ],
    ids=[
        "api-lines",
        "page",
        "citations-page",
        "references-page",
        "pretty-page",
        "pretty-object",
        "batch-array",
        "dataset-papers",
        "dataset-abstracts",
        "dataset-citations",
    ],
)
def test_detection(tmp_path: Path, values: list[object], text: str | None) -> None:
    path = _write(tmp_path, "s2.json", *values, text=text)
    assert detect_format(path) == "semantic_scholar"


def test_detection_of_a_first_line_longer_than_the_head(tmp_path: Path) -> None:
    obj = _paper(1, citations=[_paper(n, abstract="word " * 200) for n in range(2, 200)])
    assert detect_format(_write(tmp_path, "big.jsonl", obj, _paper(2))) == "semantic_scholar"


# The real data


@pytest.mark.needs_data(REAL_S2)
def test_real_s2_papers() -> None:
    raw_lines = [line for line in REAL_S2.read_text(encoding="utf-8").splitlines() if line.strip()]
    items = _parse(REAL_S2)
    rejects = parsed.rejects(items)
    assert not rejects, [reject.message()[:300] for reject in rejects[:5]]
    papers = parsed.papers(items)
    assert len(papers) == len(raw_lines)
    assert [paper.origin.line for paper in papers] == list(range(1, len(raw_lines) + 1))
    for raw, paper in zip(raw_lines, papers, strict=True):
        obj = json.loads(raw)
        assert paper.ids["s2"] == obj["paperId"].lower()
        for kind, value in paper.ids.items():
            assert kind in ID_KINDS
            assert normal_id(kind, value) == value
        doi = (obj.get("externalIds") or {}).get("DOI")
        if doi and not doi.lower().startswith("10.48550/"):
            assert paper.ids["doi"] == doi.lower()
    first = json.loads(raw_lines[0])
    id_fields = ("ArXiv", "DOI", "MAG", "PubMed", "CorpusId")

    def named(item: dict[str, Any]) -> bool:
        paper = item.get("citingPaper", item)
        external = paper.get("externalIds") or {}
        return bool(
            paper.get("paperId")
            or paper.get("corpusId")
            or any(external.get(name) for name in id_fields)
            or (paper.get("title") or "").strip()
        )

    expected = sum(named(item) for item in first["citations"])
    assert expected > 0
    citing_first = [
        c
        for c in parsed.citations(items)
        if c.origin.line == 1 and c.cited.ids.get("s2") == first["paperId"]
    ]
    assert len(citing_first) == expected
    assert detect_format(REAL_S2) == "semantic_scholar"
