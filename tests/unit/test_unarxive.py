"""Unit tests for loaders.unarxive: unarXive's JSON lines, a paper and its bib entries each.

Every record here is made up, in the shape unarXive writes (see the module's docstring).
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

from loaders import source_file, unarxive
from loaders.detect import detect_format
from loaders.records import PaperRecord, SnapshotRecord
from loaders.source_file import content_sha256
from tests import parsed

EMPTY_IDS = {
    "open_alex_id": "",
    "sem_open_alex_id": "",
    "pubmed_id": "",
    "pmc_id": "",
    "doi": "",
    "arxiv_id": "",
}


def _entry(
    raw: str = "A. Author, A made-up reference, J. Inv. 1 (2000) 1.", **ids: str
) -> dict[str, Any]:
    return {
        "bib_entry_raw": raw,
        "contained_arXiv_ids": [],
        "contained_links": [],
        "discipline": "Physics",
        "ids": {**EMPTY_IDS, **ids},
    }


def _line(paper_id: str = "2105.00001", **fields: Any) -> dict[str, Any]:
    """A made-up unarXive paper object."""
    line: dict[str, Any] = {
        "paper_id": paper_id,
        "_pdf_hash": None,
        "_source_hash": "0" * 40,
        "_source_name": f"{paper_id}.gz",
        "metadata": {
            "id": paper_id,
            "submitter": "Ada Inventa",
            "authors": "Ada Inventa and Bo Two",
            "title": "An Invented Paper on\n  Made-Up Waves",
            "comments": "10 pages",
            "journal-ref": None,
            "doi": "10.5555/Invented.1",
            "report-no": None,
            "categories": "gr-qc hep-th",
            "license": "http://creativecommons.org/licenses/by/4.0/",
            "abstract": "  An invented abstract.\n",
            "versions": [{"version": "v1", "created": "Mon, 3 May 2021 10:00:00 GMT"}],
            "update_date": "2021-05-20",
            "authors_parsed": [["Inventa", "Ada", ""], ["Two", "Bo", ""]],
        },
        "discipline": "Physics",
        "abstract": {"section": "Abstract", "text": "An invented abstract.", "cite_spans": []},
        "body_text": [{"section": "Intro", "text": "We cite {{cite:aa}}.", "cite_spans": []}],
        "bib_entries": {},
        "ref_entries": {},
    }
    line.update(fields)
    return line


def _write(tmp_path: Path, *values: object, text: str | None = None) -> Path:
    path = tmp_path / "arXiv_src_2105_001.jsonl"
    if text is None:
        text = "".join(json.dumps(value) + "\n" for value in values)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_paper_from_its_metadata(tmp_path: Path) -> None:
    path = _write(tmp_path, _line())
    items = list(unarxive.parse(path))
    snapshot = items[0]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.kind == "unarxive"
    assert snapshot.source == path.name
    assert snapshot.sha256 == content_sha256(path)
    assert snapshot.key == f"sha256:{snapshot.sha256}"
    (paper,) = parsed.papers(items)
    assert paper.arxiv_id == "2105.00001"
    assert paper.title == "An Invented Paper on Made-Up Waves"
    assert paper.authors == ("Ada Inventa", "Bo Two")
    assert (paper.primary_category, paper.cross_categories) == ("gr-qc", ("hep-th",))
    assert paper.abstract == "An invented abstract."
    assert paper.published == date(2021, 5, 3)
    assert paper.as_of == date(2021, 5, 20)
    assert paper.ids == {"doi": "10.5555/invented.1"}
    assert paper.snapshot == snapshot.key
    assert not parsed.rejects(items)


def test_bib_entries_with_ids_are_citations(tmp_path: Path) -> None:
    entries = {
        "a1": _entry(arxiv_id="1706.03762"),
        "a2": {**_entry(), "contained_arXiv_ids": [{"id": "hep-th/9901001v2", "text": "x"}]},
        "a3": _entry(doi="10.1086/156337", open_alex_id="https://openalex.org/W123"),
        "a4": _entry(sem_open_alex_id="https://semopenalex.org/work/W456", pmc_id="PMC1"),
        "a5": _entry(pubmed_id="https://pubmed.ncbi.nlm.nih.gov/31234567"),
        "a6": _entry(doi="10.48550/arXiv.2001.00006"),
        "a7": {**_entry(), "contained_arXiv_ids": ["2001.00007", "2001.00008", "2001.00007"]},
        "a8": {
            **_entry(open_alex_id="W789", doi="10.5555/Nine"),
            "contained_arXiv_ids": [{"id": "2001.00009"}, {"id": "2001.00010"}],
        },
    }
    items = list(unarxive.parse(_write(tmp_path, _line(bib_entries=entries))))
    assert not parsed.rejects(items)
    citations = parsed.citations(items)
    assert {c.citing.key for c in citations} == {"2105.00001"}
    assert all(c.as_of == date(2021, 5, 20) and c.origin.line == 1 for c in citations)
    assert [c.cited.key for c in citations] == [
        "1706.03762",
        "hep-th/9901001",
        "doi:10.1086/156337",
        "openalex:W456",
        "pmid:31234567",
        "2001.00006",
        "2001.00007",
        "2001.00008",
        "2001.00009",
        "2001.00010",
    ]
    assert citations[2].cited.ids == {"doi": "10.1086/156337", "openalex": "W123"}
    assert citations[8].cited.ids == {"doi": "10.5555/nine", "openalex": "W789"}
    assert citations[9].cited.ids == {}


def test_unresolved_entries_and_self_citations_are_skipped(tmp_path: Path) -> None:
    entries = {
        "b1": _entry(),
        "b2": {"bib_entry_raw": "No ids at all."},
        "b3": {"bib_entry_raw": "Null ids.", "ids": None, "contained_arXiv_ids": None},
        "b4": _entry(arxiv_id="2105.00001"),
        "b5": _entry(arxiv_id="1706.03762"),
    }
    items = list(unarxive.parse(_write(tmp_path, _line(bib_entries=entries))))
    assert [c.cited.key for c in parsed.citations(items)] == ["1706.03762"]
    skipped = parsed.skipped(items)
    assert [s.kind for s in skipped] == ["unresolved citation"] * 3 + ["self-citation"]
    assert "bib_entries['b1'] of 2105.00001 names no paper by id" in skipped[0].detail
    assert not parsed.rejects(items)


def test_no_metadata_gives_the_id_alone(tmp_path: Path) -> None:
    lines = [
        _line("hep-th/9901001", metadata={}),
        _line("2105.00002", metadata=None),
        _line("2105.00003", metadata={"title": "Id Left Out", "categories": "cs.LG"}),
    ]
    papers = parsed.papers(list(unarxive.parse(_write(tmp_path, *lines))))
    assert [(p.arxiv_id, p.year, p.title) for p in papers] == [
        ("hep-th/9901001", 1999, None),
        ("2105.00002", 2021, None),
        ("2105.00003", 2021, "Id Left Out"),
    ]


def test_bad_metadata_rejects_the_record_and_keeps_the_citations(tmp_path: Path) -> None:
    entries = {"c1": _entry(arxiv_id="1706.03762")}
    lines = [
        _line("2105.00001", metadata={"id": "2105.09999", "title": "T"}, bib_entries=entries),
        _line("2105.00002", metadata={"id": "2105.00002", "categories": "not-a-category!"}),
        _line("2105.00003", metadata="a string", bib_entries=entries),
        _line("2105.00004", metadata={"id": "2105.00004", "update_date": "9999-12-31"}),
    ]
    items = list(unarxive.parse(_write(tmp_path, *lines)))
    assert not parsed.papers(items)
    assert [(c.origin.line, c.citing.key) for c in parsed.citations(items)] == [
        (1, "2105.00001"),
        (3, "2105.00003"),
    ]
    reasons = [(r.origin.line, r.reason) for r in parsed.rejects(items)]
    assert [line for line, _ in reasons] == [1, 2, 3, 4]
    assert "metadata.id '2105.09999' is another paper than paper_id '2105.00001'" in reasons[0][1]
    assert "metadata: categories: 'not-a-category!' is not an arXiv category" in reasons[1][1]
    assert "metadata should be an object, got string" in reasons[2][1]
    assert "update_date: the year 9999" in reasons[3][1]
    assert all("(its citations were): fix the metadata" in reason for _, reason in reasons)


BAD_LINES: list[tuple[str, str]] = [
    ("not json", "not valid JSON"),
    ("[1, 2]", "a JSON array where an unarXive paper object should be"),
    (json.dumps({"metadata": {}, "bib_entries": {}}), "no paper_id"),
    (json.dumps(_line("not-an-id")), "paper_id 'not-an-id' is not an arXiv id"),
    (json.dumps(_line(paper_id=2105.00001)), "paper_id should be a string"),  # type: ignore[arg-type]
    (json.dumps(_line(bib_entries="none")), "bib_entries should be an object of bib entries"),
    (json.dumps(_line(bib_entries={"d": "text"})), "bib_entries['d'] should be an object"),
    (json.dumps(_line(bib_entries={"d": _entry(doi="nope")})), "bib_entries['d'].ids.doi 'nope'"),
    (
        json.dumps(_line(bib_entries={"d": _entry(open_alex_id="https://openalex.org/A1")})),
        "ids.open_alex_id 'https://openalex.org/A1' is not an OpenAlex work id",
    ),
    (
        json.dumps(_line(bib_entries={"d": _entry(pubmed_id="PMC77")})),
        "ids.pubmed_id 'PMC77' is not a PubMed id",
    ),
    (
        json.dumps(
            _line(bib_entries={"d": {**_entry(), "contained_arXiv_ids": [{"id": "9999.9"}]}})
        ),
        "bib_entries['d'].contained_arXiv_ids[0].id '9999.9' is not an arXiv id",
    ),
    (
        json.dumps(_line(bib_entries={"d": {**_entry(), "contained_arXiv_ids": "1706.03762"}})),
        "contained_arXiv_ids should be an array",
    ),
    (json.dumps(_line(bib_entries={"d": {**_entry(), "ids": ["doi"]}})), "ids should be an object"),
    (json.dumps(_line(bib_entries={"d": _entry(doi=["10.1/x"])})), "ids.doi should be a string"),  # type: ignore[arg-type]
    ('{"paper_id": ' * 3000 + "1" + "}" * 3000, "nested too deep"),
    (json.dumps(_line(bib_entries={"d": _entry(doi="\ud800")})), "ids.doi '\\ud800' is not a DOI"),
]


def test_bad_lines_are_rejected_and_the_rest_loads(tmp_path: Path) -> None:
    good = json.dumps(_line("2105.00099", bib_entries={"e": _entry(arxiv_id="1706.03762")}))
    text = "".join(f"{line}\n{good}\n" for line, _ in BAD_LINES)
    items = list(unarxive.parse(_write(tmp_path, text=text)))
    good_lines = list(range(2, 2 * len(BAD_LINES) + 1, 2))
    papers = parsed.papers(items)
    # the lines whose paper_id and metadata are good load their paper too
    assert [p.origin.line for p in papers if p.arxiv_id == "2105.00099"] == good_lines
    rejects = parsed.rejects(items)
    assert [r.origin.line for r in rejects] == list(range(1, 2 * len(BAD_LINES), 2))
    for (line, expected), reject in zip(BAD_LINES, rejects, strict=True):
        assert expected in reject.reason, (line[:80], reject.reason)
        assert "fix" in reject.reason
        assert reject.raw
        reject.raw.encode("utf-8")  # written to the rejects file as it is
    cited = [c for c in parsed.citations(items) if c.origin.line in good_lines]
    assert len(cited) == len(good_lines)


def test_a_line_over_the_limit_is_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source_file, "MAX_LINE_LENGTH", 3000, raising=False)
    long_line = json.dumps(_line("2105.00001", body_text=["word " * 1000]))
    items = list(
        unarxive.parse(
            _write(tmp_path, text=long_line + "\n" + json.dumps(_line("2105.00002")) + "\n")
        )
    )
    assert [p.arxiv_id for p in parsed.papers(items)] == ["2105.00002"]
    (reject,) = parsed.rejects(items)
    assert (reject.origin.line, "over the limit of 3,000" in reject.reason) == (1, True)


def test_unchanged_lines_are_not_read(tmp_path: Path) -> None:
    first, second = json.dumps(_line("2105.00001")), json.dumps(_line("2105.00002"))
    path = _write(tmp_path, text=f"{first}\n\n{second}\n")
    items = list(unarxive.parse(path, unchanged=lambda text: text == first))
    assert [p.arxiv_id for p in parsed.papers(items)] == ["2105.00002"]


_FUZZ_ENTRIES = {"a": _entry(arxiv_id="1706.03762", doi="10.1/x"), "b": _entry()}
_FUZZ_VALID = (
    json.dumps(_line(bib_entries=_FUZZ_ENTRIES)) + "\n" + json.dumps(_line("2105.00002")) + "\n"
)


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
        path = Path(folder) / "fuzz.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for item in unarxive.parse(path):
            if isinstance(item, PaperRecord):
                assert source_file.record_problem(item) is None


def test_detection(tmp_path: Path) -> None:
    assert detect_format(_write(tmp_path, _line(), _line("2105.00002"))) == "unarxive"
    # a line whose full text runs past the head: told by paper_id and metadata
    long_text = [{"section": "S", "text": "word " * 20_000, "cite_spans": []}]
    line = _line(body_text=long_text, bib_entries={"a": _entry(arxiv_id="1706.03762")})
    assert detect_format(_write(tmp_path, line)) == "unarxive"
    # the arXiv metadata snapshot alone is still the arXiv format
    metadata = _line()["metadata"]
    assert detect_format(_write(tmp_path, metadata)) == "arxiv_oai"
