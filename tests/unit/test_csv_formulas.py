"""The CSV export does not hand a spreadsheet formulas from the data (issue 41, case 16): a
text cell that starts with =, +, -, @, a tab or a carriage return gets a single quote before
it, as OWASP advises against CSV injection, and a number is written as the number it is."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from kg.answers import ExportSummary
from kg.export import writers
from kg.export.selection import ExportedPaper
from kg.export.writers import FORMATS, Source

HYPERLINK = '=HYPERLINK("http://evil.example/","click")'


def _paper(key: str, **fields: object) -> ExportedPaper:
    values: dict[str, object] = {
        "key": key,
        "arxiv_id": None,
        "title": "A title",
        "year": 1999,
        "published": None,
        "doi": None,
        "journal_ref": None,
        "stub": False,
        "pagerank": None,
        "community": None,
        "authors": ("A. Author",),
        "category": "hep-th",
        "cited_by": 0,
    }
    values.update(fields)
    return ExportedPaper(**values)  # type: ignore[arg-type]


def _rows(
    tmp_path: Path, papers: list[ExportedPaper], cites: list[tuple[str, str]]
) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    summary = ExportSummary(format="csv", path=str(tmp_path / "out"), selection="test")
    source = Source(lambda: iter(papers), lambda: iter(cites))
    FORMATS["csv"].write(source, tmp_path / "out", summary)
    with (tmp_path / "out" / "papers.csv").open(encoding="utf-8", newline="") as handle:
        paper_rows = list(csv.DictReader(handle))
    with (tmp_path / "out" / "citations.csv").open(encoding="utf-8", newline="") as handle:
        citation_rows = list(csv.DictReader(handle))
    return paper_rows, citation_rows


def test_a_hyperlink_title_lands_in_papers_csv_as_text(tmp_path: Path) -> None:
    papers, _ = _rows(tmp_path, [_paper("title:x:1999", title=HYPERLINK)], [])
    assert papers[0]["title"] == "'" + HYPERLINK


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_text_column_that_starts_a_formula_is_quoted(tmp_path: Path, start: str) -> None:
    text = {
        column: f"{start}1+1 {column}"
        for column in ("key", "arxiv_id", "title", "doi", "journal_ref", "category")
    }
    paper = _paper(text.pop("key"), **text, authors=(f"{start}first", "=second"))
    papers, citations = _rows(tmp_path, [paper], [(paper.key, "=cited")])
    row = papers[0]
    for column in ("key", "arxiv_id", "title", "doi", "journal_ref", "category"):
        assert row[column] == f"'{start}1+1 {column}", column
    assert row["authors"] == f"'{start}first; =second"  # the cell starts with the first
    assert citations == [{"citing": f"'{start}1+1 key", "cited": "'=cited"}]


def test_numbers_and_plain_text_are_written_as_they_are(tmp_path: Path) -> None:
    paper = _paper(
        "hep-th/9901001",
        arxiv_id="hep-th/9901001",
        title="Entropy = area / 4, -1 and +1 inside",
        pagerank=-0.25,
        community=-1,
        year=-5,
        cited_by=3,
    )
    papers, citations = _rows(tmp_path, [paper], [("hep-th/9901001", "hep-th/9901002")])
    row = papers[0]
    assert row["title"] == "Entropy = area / 4, -1 and +1 inside"
    assert (row["pagerank"], row["community"], row["year"]) == ("-0.25", "-1", "-5")
    assert row["cited_by"] == "3"
    assert row["stub"] == "False"
    assert row["doi"] == ""  # None
    assert citations == [{"citing": "hep-th/9901001", "cited": "hep-th/9901002"}]


def test_csv_cell_quotes_text_only() -> None:
    cell = writers.csv_cell
    assert cell("-1") == "'-1"
    assert cell(-1) == -1
    assert cell(-0.5) == -0.5
    assert cell(None) == ""
    assert cell("a=b") == "a=b"
