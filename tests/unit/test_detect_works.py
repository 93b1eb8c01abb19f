"""Detection of OpenAlex and Crossref works, apart from arXiv metadata lines and paper JSON.

The records are made up, in the APIs' shape (tests/unit/test_openalex.py and
tests/unit/test_crossref.py build them).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from kg.errors import SourceError
from loaders.detect import detect_format
from tests.data import REAL_SOURCES
from tests.unit.test_crossref import work as crossref_work
from tests.unit.test_openalex import work as openalex_work


def _write(tmp_path: Path, name: str, text: str, *, zipped: bool = False) -> Path:
    path = tmp_path / name
    path.write_bytes(gzip.compress(text.encode()) if zipped else text.encode())
    return path


def _lines(records: list[Any]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


OPENALEX_PAGE = {"meta": {"count": 2, "page": 1}, "results": [openalex_work(1), openalex_work(2)]}
CROSSREF_PAGE = {
    "status": "ok",
    "message-type": "work-list",
    "message": {"items": [crossref_work(1), crossref_work(2)], "total-results": 2},
}


@pytest.mark.parametrize(
    ("text", "zipped"),
    [
        (_lines([openalex_work(1), openalex_work(2)]), False),
        (_lines([openalex_work(1), openalex_work(2)]), True),
        (_lines([OPENALEX_PAGE]), False),
        (json.dumps(OPENALEX_PAGE, indent=2), False),
        (json.dumps(openalex_work(1), indent=2), False),
        # a select= object: an id and a title, as an arXiv line has too
        (_lines([{"id": "https://openalex.org/W1000000001", "title": "T", "doi": None}]), False),
        (_lines([{"id": "W1000000001", "display_name": "T"}]), False),
        # no id, but a work's keys
        (_lines([{"title": "T", "authorships": [], "referenced_works": []}]), False),
        (_lines([{"meta": {}, "results": []}]), False),
    ],
    ids=[
        "lines",
        "gzip",
        "page",
        "pretty-page",
        "pretty-work",
        "select",
        "bare-id",
        "no-id",
        "empty-page",
    ],
)
def test_openalex_works(tmp_path: Path, text: str, zipped: bool) -> None:
    assert detect_format(_write(tmp_path, "part_000", text, zipped=zipped)) == "openalex"


@pytest.mark.parametrize(
    "text",
    [
        _lines([crossref_work(1), crossref_work(2)]),
        _lines([{"status": "ok", "message-type": "work", "message": crossref_work(1)}]),
        json.dumps({"status": "ok", "message-type": "work", "message": crossref_work(1)}, indent=2),
        json.dumps(CROSSREF_PAGE, indent=2),
        json.dumps(crossref_work(1), indent=2),
        _lines([{"DOI": "10.1234/x", "title": ["T"], "container-title": ["J"]}]),
    ],
    ids=["lines", "envelope", "pretty-envelope", "pretty-page", "pretty-work", "few-fields"],
)
def test_crossref_works(tmp_path: Path, text: str) -> None:
    assert detect_format(_write(tmp_path, "works.json", text)) == "crossref"


def test_a_work_longer_than_the_head_is_judged_by_its_keys(tmp_path: Path) -> None:
    long_list = [f"https://openalex.org/W{n}" for n in range(10_000)]
    big = json.dumps(openalex_work(1, referenced_works=long_list), indent=2)
    assert len(big) > 65536
    assert detect_format(_write(tmp_path, "big.json", big)) == "openalex"
    refs = [{"key": f"r{n}", "DOI": f"10.5555/{n}"} for n in range(3000)]
    big = json.dumps(
        {"status": "ok", "message-type": "work", "message": crossref_work(1, reference=refs)}
    )
    assert len(big) > 65536
    assert detect_format(_write(tmp_path, "big2.json", big)) == "crossref"


def test_arxiv_lines_need_an_arxiv_id(tmp_path: Path) -> None:
    arxiv = [
        {"id": "2101.00001", "title": "T", "categories": "cs.LG"},
        {"id": "hep-th/9901001v2", "title": "T"},
        {"id": "2101.00002v" + "9" * 200, "title": "T"},  # the parser says what is wrong
        {"id": 704.0001, "title": "T"},  # a number: the parser says what is wrong
    ]
    for number, record in enumerate(arxiv):
        path = _write(tmp_path, f"a{number}.jsonl", _lines([record]))
        assert detect_format(path) == "arxiv_oai", record
    for number, record in enumerate(
        [{"id": "not-an-arxiv-id", "title": "T"}, {"id": None, "title": "T"}]
    ):
        path = _write(tmp_path, f"b{number}.jsonl", _lines([record]))
        with pytest.raises(SourceError, match="cannot tell its format"):
            detect_format(path)


def test_paper_json_stays_paper_json(tmp_path: Path) -> None:
    record = {"paper": {"title": "T"}, "source": {"id": "2110.03888", "kind": "arxiv"}}
    assert detect_format(_write(tmp_path, "p.json", json.dumps(record))) == "paper_json"


@pytest.mark.needs_data(
    REAL_SOURCES / "openalex_works.jsonl", REAL_SOURCES / "crossref_works.jsonl"
)
def test_the_real_files() -> None:
    assert detect_format(REAL_SOURCES / "openalex_works.jsonl") == "openalex"
    assert detect_format(REAL_SOURCES / "crossref_works.jsonl") == "crossref"
