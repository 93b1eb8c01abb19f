"""Unit tests of the map page parser: the seed page, page variants and malformed input."""

from __future__ import annotations

import gzip
import hashlib
import re
from datetime import date
from pathlib import Path

import pytest

from kg.errors import SourceError
from loaders.map_page import parse, parse_date, parse_item
from loaders.records import CitationRecord, PaperRecord, ParsedItem, Rejected, SnapshotRecord
from tests import parsed
from tests.data import REAL_SEED_PAGE, REPO, SEED_ID, SEED_PAGE

PAGES = REPO / "tests" / "fixtures" / "pages"
EXAMPLES = REPO / "examples" / "map"

# The same page twice: the project's facts-only copy, and the real seed under KG_DATA_DIR.
# Only the abstract differs, so each source says how its abstract starts and ends.
SEED_SOURCES = [
    pytest.param(SEED_PAGE, "Facts-only stand-in", "It ends here.", id="fixture"),
    pytest.param(
        REAL_SEED_PAGE,
        "Recent expeditious",
        "greener AI.",
        id="real-seed",
        marks=pytest.mark.needs_data(REAL_SEED_PAGE),
    ),
]


def _parse(path: Path) -> list[ParsedItem]:
    return list(parse(path))


def _snapshot(items: list[ParsedItem]) -> SnapshotRecord:
    assert isinstance(items[0], SnapshotRecord)
    return items[0]


def _paper(items: list[ParsedItem]) -> PaperRecord:
    papers = [item for item in items if isinstance(item, PaperRecord)]
    assert len(papers) == 1
    return papers[0]


def _rejected(items: list[ParsedItem]) -> dict[int, str]:
    return {item.origin.line: item.reason for item in items if isinstance(item, Rejected)}


def _references(items: list[ParsedItem], paper: PaperRecord) -> list[CitationRecord]:
    return [c for c in parsed.citations(items) if c.citing.key == paper.key]


def _citers(items: list[ParsedItem], paper: PaperRecord) -> list[CitationRecord]:
    return [c for c in parsed.citations(items) if c.cited.key == paper.key]


@pytest.mark.parametrize(("page", "starts", "ends"), SEED_SOURCES)
def test_seed_page_states_the_papers_facts(page: Path, starts: str, ends: str) -> None:
    items = _parse(page)
    snapshot, paper = items[0], items[1]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.kind == "map_page"
    assert snapshot.data_date == date(2026, 10, 14)
    assert snapshot.source == page.name
    assert snapshot.sha256 == hashlib.sha256(page.read_bytes()).hexdigest()
    assert snapshot.key == f"sha256:{snapshot.sha256}"
    assert isinstance(paper, PaperRecord)
    assert paper.arxiv_id == SEED_ID
    assert paper.title == (
        "M6-10T: A Sharing-Delinking Paradigm for Efficient Multi-Trillion Parameter Pretraining"
    )
    assert paper.origin.line == 3
    assert paper.published == date(2021, 10, 8)
    assert paper.year == 2021
    assert paper.primary_category == "cs.LG"
    assert paper.cross_categories == ("cs.CL",)
    assert paper.stated_cited_by == 31
    assert paper.stated_cited_by_in_map == 31
    assert (paper.stated_refs_in_map, paper.stated_refs_total) == (40, 52)
    assert (paper.listed_refs, paper.listed_citing) == (40, 31)
    assert paper.histogram == {2021: 2, 2022: 14, 2023: 5, 2024: 7, 2025: 3}
    assert paper.as_of == date(2026, 10, 14)
    assert paper.snapshot == snapshot.key
    assert paper.abstract is not None
    assert paper.abstract.startswith(starts)
    assert paper.abstract.endswith(ends)
    assert paper.abstract_excerpt is None


@pytest.mark.parametrize(("page", "starts", "ends"), SEED_SOURCES)
def test_seed_page_yields_every_reference_and_citer(page: Path, starts: str, ends: str) -> None:
    items = _parse(page)
    paper = _paper(items)
    references, citers = _references(items, paper), _citers(items, paper)
    assert len(references) == 40
    assert len(citers) == 31
    assert len(parsed.citations(items)) == 71
    assert _rejected(items) == {}
    first = references[0]
    assert (first.cited.year, first.cited.title, first.cited.stated_cited_by) == (
        2017,
        "Attention Is All You Need",
        60361,
    )
    assert first.citing.arxiv_id == SEED_ID
    assert first.citing.year == 2021
    assert first.origin.line == 21
    assert {c.snapshot for c in parsed.citations(items)} == {_snapshot(items).key}
    assert all(c.as_of == date(2026, 10, 14) for c in parsed.citations(items))


@pytest.mark.parametrize(("page", "starts", "ends"), SEED_SOURCES)
def test_seed_page_titles_with_colons_digits_and_commas_survive(
    page: Path, starts: str, ends: str
) -> None:
    items = _parse(page)
    paper = _paper(items)
    cited = {c.cited.title: c.cited for c in _references(items, paper)}
    citing = {c.citing.title: c.citing for c in _citers(items, paper)}
    megatron = citing[
        "Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B, "
        "A Large-Scale Generative Language Model"
    ]
    assert (megatron.year, megatron.stated_cited_by) == (2022, 559)
    m6 = cited["M6: A Chinese Multimodal Pretrainer"]
    assert (m6.year, m6.stated_cited_by) == (2021, 91)
    lamb = cited["Large Batch Optimization for Deep Learning: Training BERT in 76 minutes"]
    assert (lamb.year, lamb.stated_cited_by) == (2019, 674)
    last = _citers(items, paper)[-1].citing
    assert (last.year, last.stated_cited_by) == (2025, 0)
    assert last.title is not None
    assert last.title.startswith("QoS-Efficient Serving")


def _bulleted(text: str) -> str:
    return re.sub(r"(?m)^\s+\d+\. ", "- ", text)


def _bare(text: str) -> str:
    return re.sub(r"(?m)^\s+\d+\. ", "", text)


def _compact(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if line.strip())


def _spaced(text: str) -> str:
    return "\n\n".join(f"{line}   " for line in text.splitlines())


def _headless(text: str) -> str:
    return text.split("\n", 1)[1]


def _everything(text: str) -> str:
    return _compact(_bare(_headless(text)))


_SEED_VARIANTS = {
    "bulleted": _bulleted,
    "bare items": _bare,
    "no blank lines": _compact,
    "double spaced, trailing blanks": _spaced,
    "no site line": _headless,
    "all at once": _everything,
}


@pytest.mark.parametrize(("page", "starts", "ends"), SEED_SOURCES)
@pytest.mark.parametrize("variant", sorted(_SEED_VARIANTS))
@pytest.mark.parametrize("encoding", ["plain", "gzip+crlf"])
def test_seed_page_variants_give_the_same_facts(
    tmp_path: Path, page: Path, starts: str, ends: str, variant: str, encoding: str
) -> None:
    text = _SEED_VARIANTS[variant](page.read_text(encoding="utf-8"))
    path = tmp_path / "variant.txt"
    if encoding == "plain":
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(gzip.compress(text.replace("\n", "\r\n").encode()))
    items = _parse(path)
    paper = _paper(items)
    assert _rejected(items) == {}
    assert _snapshot(items).data_date == date(2026, 10, 14)
    assert (paper.arxiv_id, paper.published, paper.cross_categories) == (
        SEED_ID,
        date(2021, 10, 8),
        ("cs.CL",),
    )
    assert (paper.listed_refs, paper.listed_citing) == (40, 31)
    assert (paper.stated_refs_in_map, paper.stated_refs_total) == (40, 52)
    assert paper.histogram == {2021: 2, 2022: 14, 2023: 5, 2024: 7, 2025: 3}
    assert len(_references(items, paper)) == 40
    assert len(_citers(items, paper)) == 31
    assert paper.abstract is not None
    assert paper.abstract.startswith(starts)


_ITEMS = [
    ("  1. 2017Attention Is All You Needcited by 60,361", 2017, "Attention Is All You Need", 60361),
    ("- 2019RoBERTa: A Robust Approachcited by 13,372", 2019, "RoBERTa: A Robust Approach", 13372),
    (
        "2016Pointer Sentinel Mixture Modelscited by 3,096",
        2016,
        "Pointer Sentinel Mixture Models",
        3096,
    ),
    ("20193D Shapes: 12 Lessons, Part 2cited by 7", 2019, "3D Shapes: 12 Lessons, Part 2", 7),
    ("  12. 2020Llama 2cited by 0", 2020, "Llama 2", 0),
    ("3) 2018Spaced Out cited by 1,234,567", 2018, "Spaced Out", 1234567),
    ("\u2022 2021A Title \u00b7 cited by 5", 2021, "A Title", 5),
]


@pytest.mark.parametrize(("line", "year", "title", "count"), _ITEMS)
def test_parse_item_reads_year_title_and_count(
    line: str, year: int, title: str, count: int
) -> None:
    assert parse_item(line) == (year, title, count)


@pytest.mark.parametrize(
    "line",
    [
        "  2. Missing Year Papercited by 3",
        "  3. 2019Count Is Wrongcited by many",
        "  4. 2020cited by 7",
        "  5. 2021No Count Here",
        "  6. 2019Bad Commascited by 1,23",
        "  7. 201Three Digitscited by 4",
        "  8. 1700Far Too Oldcited by 1",
        "- ",
        "28 more",
    ],
)
def test_parse_item_refuses_malformed_lines(line: str) -> None:
    assert parse_item(line) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8 Oct 2021", date(2021, 10, 8)),
        ("14 October 2026", date(2026, 10, 14)),
        ("2026-10-14", date(2026, 10, 14)),
        ("Oct 8, 2021", date(2021, 10, 8)),
        ("30 Sept 2026.", date(2026, 9, 30)),
        ("32 Oct 2023", None),
        ("8 Octopus 2021", None),
        ("someday", None),
    ],
)
def test_parse_date_reads_the_page_date_styles(text: str, expected: date | None) -> None:
    assert parse_date(text) == expected


def test_bulleted_page_without_blank_lines_or_site_line() -> None:
    items = _parse(PAGES / "bulleted_compact.txt")
    paper = _paper(items)
    assert isinstance(items[0], SnapshotRecord)
    assert items[0].data_date == date(2026, 10, 14)  # from the key facts: no site line
    assert paper.as_of == date(2026, 10, 14)
    assert paper.arxiv_id == "2403.01234"
    assert paper.primary_category == "eess.AS"
    assert paper.cross_categories == ("cs.LG", "cs.SD")
    assert paper.abstract == "An invented adapter method, written only to exercise the page parser."
    assert (paper.stated_refs_in_map, paper.stated_refs_total, paper.listed_refs) == (4, 6, 4)
    assert (paper.stated_cited_by_in_map, paper.listed_citing) == (7, 5)
    assert paper.histogram == {2024: 3, 2025: 4}
    assert _rejected(items) == {}
    references = _references(items, paper)
    assert [c.origin.line for c in references] == [9, 10, 12, 13]
    assert references[1].cited.title == "3D Point Clouds, Revisited: 12 Lessons"
    assert references[1].cited.year == 2019
    assert len(_citers(items, paper)) == 5


def test_page_without_arxiv_line_is_keyed_by_title_and_first_posted_year() -> None:
    items = _parse(PAGES / "no_arxiv_line.txt")
    paper = _paper(items)
    assert paper.arxiv_id is None
    assert paper.year == 2020
    assert paper.published == date(2020, 3, 3)
    assert paper.key == "title:a field guide to invented benchmarks:2020"
    assert paper.stated_cited_by is None
    assert (paper.stated_cited_by_in_map, paper.listed_citing) == (1, 1)
    assert (paper.stated_refs_in_map, paper.stated_refs_total, paper.listed_refs) == (1, 1, 1)
    assert _snapshot(items).data_date == date(2026, 10, 14)
    citations = parsed.citations(items)
    assert [c.origin.line for c in citations] == [9, 19]
    assert citations[0].citing.key == paper.key
    assert citations[1].cited.key == paper.key
    assert citations[1].citing.title == "Benchmarks, Revisited"


def test_histogram_without_a_list_of_citing_papers() -> None:
    items = _parse(PAGES / "histogram_only.txt")
    paper = _paper(items)
    assert paper.histogram == {2022: 1, 2023: 2, 2024: 2}
    assert paper.stated_cited_by_in_map == 5
    assert paper.listed_citing == 0
    assert paper.listed_refs == 3
    assert _citers(items, paper) == []
    references = _references(items, paper)
    assert [c.cited.title for c in references] == [
        "Adam: A Method for Stochastic Optimization",
        "Noise, Curvature and Step Size",
        "Toy Models Are Useful",
    ]
    assert references[0].cited.stated_cited_by == 95000
    assert paper.cross_categories == ()


def test_paper_without_citers_has_no_citing_section() -> None:
    items = _parse(PAGES / "no_citers.txt")
    paper = _paper(items)
    assert paper.arxiv_id == "2609.00007"
    assert paper.version == 2
    assert paper.published == date(2026, 9, 30)
    assert paper.stated_cited_by == 0
    assert paper.stated_cited_by_in_map == 0
    assert paper.listed_citing is None
    assert paper.histogram == {}
    assert paper.abstract is None
    assert _snapshot(items).data_date == date(2026, 10, 14)
    cited = [c.cited for c in _references(items, paper)]
    assert [(c.year, c.stated_cited_by) for c in cited] == [(2024, 1000001), (2025, 3)]
    assert cited[1].title == "Follow-Up, With Commas, and Colons: Part II"


def test_gzipped_page_is_read_by_content_not_name() -> None:
    path = PAGES / "gzipped_page.txt"
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    items = _parse(path)
    paper = _paper(items)
    content = gzip.decompress(path.read_bytes())
    assert _snapshot(items).sha256 == hashlib.sha256(content).hexdigest()
    assert paper.arxiv_id == "hep-th/9901001"
    assert paper.primary_category == "hep-th"
    assert paper.cross_categories == ("gr-qc",)
    assert paper.stated_cited_by == 1234
    assert [c.origin.line for c in parsed.citations(items)] == [12, 20]
    assert _rejected(items) == {}


def test_crlf_line_endings_leave_no_carriage_returns() -> None:
    path = PAGES / "crlf_page.txt"
    assert b"\r\n" in path.read_bytes()
    items = _parse(path)
    paper = _paper(items)
    assert paper.title == "Line Endings From Another Machine"
    assert paper.published == date(2018, 10, 8)
    assert paper.histogram == {2019: 1, 2020: 1}
    citations = parsed.citations(items)
    assert [c.origin.line for c in citations] == [7, 11, 12]
    assert citations[0].cited.title == "Carriage Returns Considered Harmful"
    assert all("\r" not in (c.citing.title or "") + (c.cited.title or "") for c in citations)


def test_malformed_items_are_rejected_with_line_and_reason() -> None:
    path = PAGES / "malformed_items.txt"
    items = _parse(path)
    rejected = _rejected(items)
    assert rejected.keys() == {4, 8, 9, 10, 11, 12, 14, 18, 19}
    assert rejected[4] == "arXiv line: 'cited by lots' is not a number; it was left out"
    assert "it does not start with a 4-digit year" in rejected[8]
    assert rejected[8].startswith("reference item skipped")
    assert rejected[8].endswith("so fix or remove the line")
    assert "'cited by many' is not a number" in rejected[9]
    assert "no title between the year and 'cited by'" in rejected[10]
    assert "no 'cited by N' count" in rejected[11]
    assert "the title '???' has no letters or digits" in rejected[12]
    assert "'2024: x' is not 'YEAR: COUNT'" in rejected[14]
    assert rejected[18].startswith("citing-paper item skipped: the year 1700")
    assert "4-digit year" in rejected[19]
    raw = {item.origin.line: item.raw for item in items if isinstance(item, Rejected)}
    assert raw[9] == "  3. 2019Count Is Wrongcited by many"
    assert all(item.origin.path == str(path) for item in items if isinstance(item, Rejected))
    paper = _paper(items)
    assert paper.stated_cited_by is None
    assert paper.histogram == {2023: 2}
    assert (paper.listed_refs, paper.listed_citing) == (6, 3)
    good = [(c.origin.line, c.cited.title, c.citing.title) for c in parsed.citations(items)]
    assert good == [
        (7, "A Fine Reference", "A Page With Problems"),
        (17, "A Page With Problems", "A Fine Citer"),
    ]


def test_an_id_in_arabic_indic_digits_is_not_an_arxiv_id(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    text = (EXAMPLES / "attention.txt").read_text(encoding="utf-8")
    page.write_text(text.replace("arXiv 1706.03762", "arXiv ١٧٠٦.٠٣٧٦٢", 1), encoding="utf-8")
    items = _parse(page)
    [paper] = [item for item in items if isinstance(item, PaperRecord)]
    assert paper.arxiv_id is None
    assert paper.title == "Attention Is All You Need"
    assert [item.reason for item in items if isinstance(item, Rejected)] == [
        "arXiv line: '١٧٠٦.٠٣٧٦٢' is not an arXiv id (expected e.g. 2110.03888); the paper is "
        "keyed by its title instead"
    ]


def test_dates_and_histogram_years_outside_1800_to_2100_are_left_out(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    text = (PAGES / "histogram_only.txt").read_text(encoding="utf-8")
    text = text.replace("mlsanityData to 14 Oct 2026", "mlsanityData to 31 Dec 9999")
    text = text.replace("(data through 14 Oct 2026)", "(data through 31 Dec 9999)")
    text = text.replace("First posted 1 Jan 2022", "First posted 1 Jan 0000")
    text = text.replace("2022: 1; 2023: 2;", "0000: 2; 2022: 1; 9999: 4; 2023: 2;")
    page.write_text(text, encoding="utf-8")
    items = _parse(page)
    paper = _paper(items)
    assert paper.histogram == {2022: 1, 2023: 2, 2024: 2}
    assert _snapshot(items).data_date is None
    assert paper.as_of is None
    assert paper.published == date(2022, 1, 1)  # the key facts' first-posted date
    reasons = [item.reason for item in items if isinstance(item, Rejected)]
    assert reasons == [
        "site line: '31 Dec 9999' is not a real date in the years 1800-2100; "
        "the data-through date is taken from the key facts instead",
        "arXiv line: first-posted date '1 Jan 0000' is not a real date like '8 Oct 2021' in "
        "the years 1800-2100; the key facts' date is used if they give one",
        "key facts: 'data through 31 Dec 9999' is not a real date like '14 Oct 2026' in the "
        "years 1800-2100; the snapshot's date comes from the site line, if any",
        "citing papers per year: the year 0000, 9999 is not between 1800 and 2100; "
        "the other years were kept, fix the entry to keep it too",
    ]


def test_bad_arxiv_id_and_dates_fall_back_to_title_and_key_facts() -> None:
    items = _parse(PAGES / "bad_identity.txt")
    paper = _paper(items)
    rejected = _rejected(items)
    assert "'21x' is not an arXiv id" in rejected[2]
    assert "keyed by its title" in rejected[2]
    assert "first-posted date '32 Oct 2023' is not a real date" in rejected[2]
    assert "'data through someday' is not a real date" in rejected[3]
    assert paper.arxiv_id is None
    assert paper.year == 2023  # the key facts' first-posted date
    assert paper.stated_cited_by == 2
    assert _snapshot(items).data_date is None
    assert [c.citing.title for c in parsed.citations(items)] == ["A Citer"]


def test_yield_order_is_snapshot_then_paper_then_citations() -> None:
    items = _parse(PAGES / "bulleted_compact.txt")
    assert isinstance(items[0], SnapshotRecord)
    assert isinstance(items[1], PaperRecord)
    assert all(isinstance(item, CitationRecord) for item in items[2:])
    assert sum(isinstance(item, SnapshotRecord) for item in items) == 1


def test_page_without_a_title_is_a_source_error() -> None:
    with pytest.raises(SourceError, match=r"no_title\.txt:3: the page has no title line"):
        _parse(PAGES / "no_title.txt")


def test_text_that_is_not_a_map_page_is_a_source_error() -> None:
    with pytest.raises(SourceError, match="this is not a map page") as caught:
        _parse(PAGES / "not_a_page.txt")
    assert "Check that the file is a map page saved as text" in str(caught.value)


def test_truncated_gzip_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    path.write_bytes(gzip.compress((PAGES / "bulleted_compact.txt").read_bytes())[:60])
    with pytest.raises(SourceError, match="cannot read it"):
        _parse(path)


def test_snapshot_lists_the_papers_a_page_names_apart_under_one_title(tmp_path: Path) -> None:
    """References with one normalised title, and the page's own paper, are separate papers on
    the page's word: the snapshot keeps their keys, one entry per title. A paper named with
    no year joins no other, so it is left out."""
    path = tmp_path / "apart.txt"
    path.write_text(
        "Sparse Coding\n\nKey facts. Cited by 1 papers in the map (data through 14 Oct 2026). "
        "Builds on 5 of its 5 references that are in the map. First posted on arXiv 2 January "
        "2012.\n\nBuilds on\n\n  1. 2010Sparse Codingcited by 5\n"
        "  2. 2011Sparse coding.cited by 3\n  3. 2011Sparse Codingcited by 3\n"
        "  4. 2017Attention Is All You Needcited by 9\n  5. Sparse codingcited by 1\n\n"
        "Built on by\n\n  1. 2024Sparse codingcited by 0\n",
        encoding="utf-8",
    )
    items = _parse(path)
    assert _paper(items).key == "title:sparse coding:2012"
    years = (2010, 2011, 2012, 2024)
    assert _snapshot(items).listed_apart == ("|".join(f"title:sparse coding:{y}" for y in years),)
    assert _snapshot(_parse(PAGES / "no_arxiv_line.txt")).listed_apart == ()
    # A page whose own paper is rejected loads none of its items: it lists nothing apart
    path.write_text(
        path.read_text(encoding="utf-8").replace("Sparse Coding\n", "T" * 2100 + "\n", 1)
    )
    items = _parse(path)
    assert _snapshot(items).listed_apart == ()
    assert [type(item) for item in items] == [SnapshotRecord, Rejected]


def test_list_item_before_any_section_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "stray.txt"
    path.write_text(
        "A Paper\narXiv 2401.00001 ↗First posted 1 Jan 2024cs.LGcited by 1\n"
        "  1. 2020Stray Itemcited by 3\nBuilt on by\n1 paper.\n  1. 2024A Citercited by 0\n",
        encoding="utf-8",
    )
    items = _parse(path)
    assert "before any 'Builds on' or 'Built on by' section" in _rejected(items)[3]
    assert [c.origin.line for c in parsed.citations(items)] == [6]


def test_chrome_before_the_title_and_a_showing_trailer(tmp_path: Path) -> None:
    path = tmp_path / "chrome.txt"
    path.write_text(
        "\ufeffsiteData through 2026-10-14\n\nNot on the map. Why?\n\nA Real Title\n"
        "arXiv 2401.00001 \u2197First posted 1 Jan 2024cs.LGcited by 3\n"
        "Built on by\n  1. 2024One Citercited by 0\nShowing 1 of 3 (JSON)\n",
        encoding="utf-8",
    )
    items = _parse(path)
    paper = _paper(items)
    assert (paper.title, paper.origin.line) == ("A Real Title", 5)
    assert _snapshot(items).data_date == date(2026, 10, 14)
    assert (paper.stated_cited_by_in_map, paper.listed_citing) == (3, 1)
    assert [c.citing.title for c in parsed.citations(items)] == ["One Citer"]


@pytest.mark.parametrize("name", ["attention.txt", "bert.txt", "roberta.txt", "t5.txt"])
def test_example_pages_are_clean_and_consistent(name: str) -> None:
    items = _parse(EXAMPLES / name)
    paper = _paper(items)
    assert _rejected(items) == {}
    assert paper.arxiv_id is not None
    assert paper.as_of == date(2026, 10, 14)
    assert paper.listed_refs == len(_references(items, paper)) == paper.stated_refs_in_map
    assert paper.listed_citing == len(_citers(items, paper))
    assert paper.stated_cited_by_in_map == sum(paper.histogram.values())
    assert paper.listed_citing is not None
    assert paper.stated_cited_by_in_map is not None
    assert paper.listed_citing <= paper.stated_cited_by_in_map


# Hardening (issue 13): huge numbers, oversized titles and truncated pages.

HUGE = "9" * 26  # over 2**63 - 1, the largest integer Neo4j stores


def _page(tmp_path: Path, text: str, name: str = "page.txt") -> list[ParsedItem]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return _parse(path)


def test_huge_numbers_are_rejected_and_the_rest_loads(tmp_path: Path) -> None:
    items = _page(
        tmp_path,
        "siteData to 14 Oct 2026\n\nHuge Numbers\n\n"
        f"arXiv 2110.03888v{'9' * 30} ↗First posted 8 Oct 2021cs.LGcited by {HUGE}\n\n"
        f"Key facts. Cited by {HUGE} papers in the map (data through 14 Oct 2026). "
        "Builds on 2 of its 3 references that are in the map.\n\n"
        f"Builds on\n\nReferences · {HUGE}\n\n"
        f"  1. 2017Attention Is All You Needcited by {HUGE}\n"
        "  2. 2015Deep Residual Learningcited by 5\n"
        f"  3. 2014A Long Countcited by {'1' * 5000}\n\n"
        f"Built on by\n\nCiting papers per year: 2021: {HUGE}; 2022: 1.\n\n"
        "  1. 2022Some Citercited by 1\n",
    )
    paper = _paper(items)
    assert (paper.arxiv_id, paper.version, paper.stated_cited_by) == ("2110.03888", None, None)
    assert paper.stated_cited_by_in_map is None
    assert paper.histogram == {2022: 1}
    assert [c.cited.title for c in _references(items, paper)] == ["Deep Residual Learning"]
    assert [c.citing.title for c in _citers(items, paper)] == ["Some Citer"]
    rejected = _rejected(items)
    assert sorted(rejected) == [5, 7, 11, 13, 15, 19]
    assert "the version v999" in rejected[5]
    assert "the 'cited by' count 9999" in rejected[5]
    assert all("over 9,223,372,036,854,775,807" in reason for reason in rejected.values())
    assert "(5,000 characters)" in rejected[15]


def test_oversized_title_rejects_the_page_not_the_load(tmp_path: Path) -> None:
    items = _page(
        tmp_path,
        "T" * 100_000 + "\n\narXiv 2110.03888 ↗First posted 8 Oct 2021cs.LG\n\n"
        "Builds on\n\n  1. 2017Attention Is All You Needcited by 1\n",
    )
    assert isinstance(items[0], SnapshotRecord)
    assert len(items) == 2
    reject = items[1]
    assert isinstance(reject, Rejected)
    assert reject.origin.line == 1
    assert "the title is 100,000 characters long, over the limit of 2,000" in reject.reason
    assert "nor its 1 listed references and citing papers" in reject.reason
    assert len(reject.raw) <= 500


def test_oversized_reference_title_rejects_the_line(tmp_path: Path) -> None:
    items = _page(
        tmp_path,
        "A Page\n\nBuilds on\n\n"
        f"  1. 2017{'Long ' * 500}Titlecited by 1\n  2. 2017Attention Is All You Needcited by 1\n",
    )
    assert [c.cited.title for c in parsed.citations(items)] == ["Attention Is All You Need"]
    assert _rejected(items) == {
        5: "reference item skipped: the title is 2,505 characters long, over the limit of "
        "2,000; fix the line"
    }


def test_truncated_page_is_reported_with_what_is_missing(tmp_path: Path) -> None:
    whole = (EXAMPLES / "attention.txt").read_bytes()
    cut = whole[: whole.index(b"Key facts")].rstrip()[:-20]  # mid-abstract
    path = tmp_path / "cut.txt"
    path.write_bytes(cut)
    items = _parse(path)
    paper = _paper(items)
    assert paper.arxiv_id == "1706.03762"
    rejected = _rejected(items)
    last = len(cut.decode().splitlines())
    assert list(rejected) == [last]
    assert rejected[last].startswith(
        "the page ends here without its 'Key facts.', 'Builds on' and 'Built on by' parts, "
        "so it looks truncated"
    )


def test_first_700_bytes_of_the_seed_page_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "seed700.txt"
    path.write_bytes(SEED_PAGE.read_bytes()[:700])
    items = _parse(path)
    assert _paper(items).arxiv_id == SEED_ID
    last = len(path.read_text(encoding="utf-8", errors="replace").splitlines())
    cut_item, reject = [item for item in items if isinstance(item, Rejected)]
    assert cut_item.origin.line == last
    assert "'cited by 40,3' is not a number" in cut_item.reason
    assert reject.message().startswith(
        f"{path}:{last}: the page ends here without the 'Built on by' list of the 31 citing "
        "papers in the map"
    )


def test_key_facts_counting_a_missing_list_are_reported(tmp_path: Path) -> None:
    items = _page(
        tmp_path,
        "A Page\n\narXiv 2110.03888 ↗First posted 8 Oct 2021cs.LG\n\n"
        "Key facts. Cited by 4 papers in the map (data through 14 Oct 2026). "
        "Builds on 2 of its 3 references that are in the map.\n\n"
        "Builds on\n\n  1. 2017Attention Is All You Needcited by 1\n",
    )
    assert len(parsed.citations(items)) == 1
    assert _rejected(items) == {
        9: "the page ends here without the 'Built on by' list of the 4 citing papers in the "
        "map that its key facts count, so it looks truncated: those citations were not "
        "loaded; save the whole page and load it again"
    }


def test_a_page_stating_no_citers_is_whole(tmp_path: Path) -> None:
    items = _page(
        tmp_path,
        "A Page\n\nKey facts. Not yet cited by any paper in the map (data through "
        "14 Oct 2026).\n\nBuilds on\n\n  1. 2017Attention Is All You Needcited by 1\n",
    )
    assert _rejected(items) == {}


def test_a_long_run_of_spaces_takes_linear_time(tmp_path: Path) -> None:
    # The site-line pattern once backtracked quadratically over runs of spaces (minutes).
    spaces = " " * 200_000
    items = _page(tmp_path, f"A{spaces}Title\n\nBuilds on\n\n  1. 2017A{spaces}Bcited by 1\n")
    assert _paper(items).title == "A Title"
    assert "the title is 200,002 characters long" in _rejected(items)[5]
