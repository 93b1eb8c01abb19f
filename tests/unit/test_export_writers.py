"""The export writers on papers and citations given as plain iterators (no server): what
they write for data that LaTeX or a numbered format cannot take as it is."""

from __future__ import annotations

from pathlib import Path

import igraph
import pytest
from bibtexparser.entrypoint import parse_string

from kg.answers import ExportSummary
from kg.export.selection import ExportedPaper
from kg.export.writers import FORMATS, Source


def _paper(key: str, title: str, journal_ref: str | None = None) -> ExportedPaper:
    return ExportedPaper(
        key=key,
        arxiv_id=key,
        title=title,
        year=1999,
        published=None,
        doi=None,
        journal_ref=journal_ref,
        stub=False,
        pagerank=None,
        community=None,
        authors=("A. Author",),
        category="hep-th",
        cited_by=0,
    )


def _write(
    fmt: str, path: Path, papers: list[ExportedPaper], cites: list[tuple[str, str]]
) -> ExportSummary:
    summary = ExportSummary(format=fmt, path=str(path), selection="test")
    FORMATS[fmt].write(Source(lambda: iter(papers), lambda: iter(cites)), path, summary)
    return summary


def test_bibtex_escapes_what_latex_would_read_as_commands(tmp_path: Path) -> None:
    papers = [
        _paper("hep-th/9901001", "Anomalies & Tadpoles at 100% {are} #1", "Phys. Rev. D & E"),
        _paper("hep-th/9901002", r"Already \& escaped, $\frac{a}{b}$ and a stray } and {"),
    ]
    _write("bibtex", tmp_path / "m.bib", papers, [])
    text = (tmp_path / "m.bib").read_text(encoding="utf-8")
    assert r"title = {Anomalies \& Tadpoles at 100\% {are} \#1}" in text
    assert r"journal = {Phys. Rev. D \& E}" in text
    # balanced braces are LaTeX's own and stay; only the two without a pair are escaped
    assert r"title = {Already \& escaped, $\frac{a}{b}$ and a stray \} and \{}" in text
    library = parse_string(text)
    assert library.failed_blocks == []
    assert len(library.entries) == 2


@pytest.mark.parametrize("fmt", ["pajek", "vosviewer"])
def test_a_citation_to_a_paper_not_written_is_skipped_and_counted(tmp_path: Path, fmt: str) -> None:
    # The citations pass saw a paper the papers pass did not (a load ran between them):
    # a numbered format has no number for it (this was a KeyError)
    papers = [_paper("2101.00001", "One"), _paper("2101.00002", "Two")]
    cites = [("2101.00001", "2101.00002"), ("2101.00003", "2101.00001")]
    path = tmp_path / ("m.net" if fmt == "pajek" else "vos")
    summary = _write(fmt, path, papers, cites)
    assert (summary.papers, summary.citations, summary.skipped) == (2, 1, 1)
    if fmt == "pajek":
        drawn = igraph.Graph.Read_Pajek(str(path))
        assert (drawn.vcount(), drawn.ecount()) == (2, 1)
    else:
        assert (path / "network.txt").read_text(encoding="utf-8") == "1\t2\t1\n"


def test_titles_show_as_they_print_in_every_format_but_bibtex(tmp_path: Path) -> None:
    raw = r"Softly-Broken {\cal N} = 4 Supersymmetry on AdS$_5$"
    shown = "Softly-Broken 𝒩 = 4 Supersymmetry on AdS₅"
    papers = [_paper("hep-th/9901001", raw)]
    _write("bibtex", tmp_path / "m.bib", papers, [])
    assert raw in (tmp_path / "m.bib").read_text(encoding="utf-8")  # LaTeX typesets it
    _write("ris", tmp_path / "m.ris", papers, [])
    assert f"TI  - {shown}\n" in (tmp_path / "m.ris").read_text(encoding="utf-8")
    _write("csv", tmp_path / "csv", papers, [])
    assert shown in (tmp_path / "csv" / "papers.csv").read_text(encoding="utf-8")
    for fmt in ("graphml", "gexf"):
        _write(fmt, tmp_path / f"m.{fmt}", papers, [])
        text = (tmp_path / f"m.{fmt}").read_text(encoding="utf-8")
        assert shown in text
        assert "cal N" not in text
    _write("vosviewer", tmp_path / "vos", papers, [])
    assert shown in (tmp_path / "vos" / "map.txt").read_text(encoding="utf-8")
