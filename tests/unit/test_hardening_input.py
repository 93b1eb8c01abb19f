"""Issue 41, second round: input that turned edges around, split a paper in two, took
memory without bound, or was read wrong without a word (headers further down an edge list,
invisible characters in titles, very long lines, UTF-32, CR-only .abs files, Latin-1 bytes
in arXiv JSON lines)."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

from kg.errors import ParameterError, SourceError
from kg.load.pipeline import as_format
from loaders import arxiv_oai, edge_list, hepth_abs, map_page, paper_json, source_file
from loaders.detect import detect_format
from loaders.formats import format_names
from loaders.records import CitationRecord, PaperRecord, ParsedItem, Rejected
from loaders.titles import normalize_title, paper_key
from tests.arxiv_lines import arxiv_line


def _edges(items: list[ParsedItem]) -> list[tuple[int, str, str]]:
    return [
        (item.origin.line, item.citing.arxiv_id or "", item.cited.arxiv_id or "")
        for item in items
        if isinstance(item, CitationRecord)
    ]


def _rejects(items: list[ParsedItem]) -> dict[int, str]:
    return {item.origin.line: item.reason for item in items if isinstance(item, Rejected)}


def _papers(items: list[ParsedItem]) -> dict[str, PaperRecord]:
    return {item.arxiv_id or "": item for item in items if isinstance(item, PaperRecord)}


# 1. A header that is not on the first line


def test_a_header_below_a_note_is_read_from_its_line_on(tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    path.write_text("exported 2024-01-01\ncited,citing\n2001.00001,2001.00002\n")
    items = list(edge_list.parse(path))
    assert _edges(items) == [(3, "2001.00002", "2001.00001")]
    assert list(_rejects(items)) == [1]  # the note; the header is honoured, not rejected


def test_two_csvs_joined_with_their_columns_swapped_keep_each_direction(tmp_path: Path) -> None:
    path = tmp_path / "joined.csv"
    path.write_text(
        "citing,cited\n2001.00001,2001.00002\n"
        "cited,citing\n2001.00003,2001.00004\n"
        "from\tto\n2001.00005\t2001.00006\n"
    )
    items = list(edge_list.parse(path))
    assert _edges(items) == [
        (2, "2001.00001", "2001.00002"),
        (4, "2001.00004", "2001.00003"),
        (6, "2001.00005", "2001.00006"),
    ]
    assert _rejects(items) == {}


def test_a_header_further_down_naming_no_columns_rejects_the_lines_it_heads(
    tmp_path: Path,
) -> None:
    path = tmp_path / "joined.csv"
    path.write_text(
        "citing,cited\n2001.00001,2001.00002\n"
        "cited_id,citing_id\n2001.00003,2001.00004\n"
        "citing,cited\n2001.00005,2001.00006\n"
    )
    items = list(edge_list.parse(path))
    assert _edges(items) == [(2, "2001.00001", "2001.00002"), (6, "2001.00005", "2001.00006")]
    rejects = _rejects(items)
    assert list(rejects) == [3, 4]
    assert "the header 'cited_id,citing_id' names no citing and cited columns" in rejects[3]
    assert "name them 'citing,cited'" in rejects[3]
    assert rejects[4].startswith("follows the header on line 3, which names no citing")


def test_a_file_with_a_header_further_down_is_compared_by_records_not_lines(
    tmp_path: Path,
) -> None:
    """An incremental load compares lines only between files of the same layout; a line's
    edge in a file with a second header depends on where it stands."""
    plain, joined = tmp_path / "plain.csv", tmp_path / "joined.csv"
    plain.write_text("citing,cited\n2001.00001,2001.00002\n")
    joined.write_text("citing,cited\n2001.00001,2001.00002\ncited,citing\n2001.00001,2001.00002\n")
    assert edge_list.layout(plain) == edge_list.layout(tmp_path / "plain.csv")
    assert edge_list.layout(joined) != edge_list.layout(joined)
    assert edge_list.layout(joined) != edge_list.layout(plain)


# 5. Invisible format characters in a title


@pytest.mark.parametrize("mark", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])
def test_an_invisible_character_in_a_title_makes_no_second_paper(mark: str) -> None:
    assert normalize_title(f"Sparse Cod{mark}ing Methods") == "sparse coding methods"
    assert paper_key(None, f"Sparse Cod{mark}ing Methods", 2010) == paper_key(
        None, "Sparse Coding Methods", 2010
    )


# 8. A very long line


def test_the_line_limit_is_64_mib() -> None:
    assert source_file.MAX_LINE_LENGTH == 64 * 2**20 == 67_108_864
    assert source_file.line_limit() == source_file.MAX_LINE_LENGTH
    reason = source_file.LongLine(2**30, "", source_file.MAX_LINE_LENGTH).reason()
    assert "1,073,741,824 characters long, over the limit of 67,108,864 (64 MiB)" in reason


LIMIT = 64 * 1024
LONG = 16 * 2**20  # 256 times the lowered limit


@pytest.fixture
def low_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(source_file, "MAX_LINE_LENGTH", LIMIT, raising=False)
    return LIMIT


def _peak(function: object, *args: object) -> tuple[list[ParsedItem], int]:
    """Return what ``function(*args)`` yields, and the most memory Python held meanwhile."""
    tracemalloc.start()
    try:
        items = list(function(*args))  # type: ignore[operator]
        return items, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_line_in_a_gzip_is_rejected_in_bounded_memory(
    tmp_path: Path, low_limit: int
) -> None:
    before = arxiv_line("2001.00001", "Before", "Mon, 6 Jan 2020 00:00:00 GMT", "2020-01-06")
    after = arxiv_line("2001.00002", "After", "Mon, 6 Jan 2020 00:00:00 GMT", "2020-01-06")
    path = tmp_path / "dump.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=1) as handle:
        handle.write(before.encode())
        handle.write(b'{"id": "2001.00003", "title": "' + b"x" * LONG + b'"}\r\n')
        handle.write(after.encode())
    assert path.stat().st_size < 256 * 1024  # the test file itself is small
    items, peak = _peak(arxiv_oai.parse, path)
    assert sorted(_papers(items)) == ["2001.00001", "2001.00002"]
    rejects = _rejects(items)
    assert list(rejects) == [2]
    assert rejects[2].startswith(f"the line is {LONG + 33:,} characters long, over the limit")
    assert "split the line into records" in rejects[2]
    assert peak < 6 * 2**20, f"{peak:,} bytes held for a line of {LONG:,}"


def test_a_line_at_the_limit_loads_and_one_over_it_does_not(tmp_path: Path, low_limit: int) -> None:
    path = tmp_path / "edges.txt"
    padding = " " * (LIMIT - len("2001.00001 2001.00002"))
    path.write_text(
        f"2001.00001 2001.00002{padding}\n2001.00003 2001.00004{padding} \n2001.00005 2001.00006"
    )
    items = list(edge_list.parse(path))
    assert _edges(items) == [(1, "2001.00001", "2001.00002"), (3, "2001.00005", "2001.00006")]
    assert list(_rejects(items)) == [2]


def _abs_record(paper: str, title: str) -> str:
    return (
        "------------------------------------------------------------------------------\n"
        f"\\\\\nPaper: {paper}\nFrom: A. Author <a@b.c>\nDate: Mon, 6 Jan 1997 00:00:00 GMT\n"
        f"\nTitle: {title}\nAuthors: A. Author\n\\\\\n  An abstract.\n\\\\\n"
    )


def test_a_long_line_in_an_abs_file_is_rejected_and_the_records_around_it_load(
    tmp_path: Path, low_limit: int
) -> None:
    path = tmp_path / "listing.abs.gz"
    text = _abs_record("hep-th/9701001", "Before")
    long_line = "y" * LONG + "\n"
    with gzip.open(path, "wb", compresslevel=1) as handle:
        handle.write(text.encode())
        handle.write(long_line.encode())  # line 12, between two records
        handle.write(_abs_record("hep-th/9701002", "After").encode())
    items, peak = _peak(hepth_abs.parse, path)
    assert sorted(_papers(items)) == ["hep-th/9701001", "hep-th/9701002"]
    rejects = _rejects(items)
    assert list(rejects) == [12]
    assert rejects[12].startswith(f"the line is {LONG:,} bytes long, over the limit of")
    assert peak < 6 * 2**20, f"{peak:,} bytes held for a line of {LONG:,}"


def test_a_long_line_inside_an_abs_record_leaves_that_record_out_and_says_so(
    tmp_path: Path, low_limit: int
) -> None:
    path = tmp_path / "listing.abs"
    inside = _abs_record("hep-th/9701001", "Before").replace(
        "  An abstract.", "  An abstract.\n" + "z" * (LIMIT + 1)
    )
    path.write_text(inside + _abs_record("hep-th/9701002", "After"))
    items = list(hepth_abs.parse(path))
    assert sorted(_papers(items)) == ["hep-th/9701002"]
    rejects = _rejects(items)
    assert list(rejects) == [11]
    assert rejects[11].endswith(
        "the record it stands in ('Paper: hep-th/9701001', from line 1) was left out with it"
    )


def test_a_long_line_is_rejected_by_every_line_reader(tmp_path: Path, low_limit: int) -> None:
    """paper_json and map_page read lines with the same reader: each rejects the line."""
    records = tmp_path / "papers.jsonl"
    record = {"paper": {"arxiv_id": "1706.03762", "title": "Attention Is All You Need"}}
    records.write_text("x" * (LIMIT + 1) + "\n" + json.dumps(record) + "\n")
    assert list(_rejects(list(paper_json.parse(records)))) == [1]
    page = tmp_path / "page.txt"
    page.write_text(
        "A Quiet Paper\narXiv 2609.00007v2 ↗First posted 2026-09-30cs.AIcited by 0\n"
        + "x" * (LIMIT + 1)
        + "\nBuilds on\n2 of 2 references.\n  1. 2024A Loud Paper Everyone Citescited by 1\n"
        "  2. 2025Follow-Up, Part IIcited by 3\n"
    )
    items = list(map_page.parse(page))
    assert list(_rejects(items)) == [3]
    assert _rejects(items)[3].startswith(f"the line is {LIMIT + 1:,} characters long")
    assert sum(isinstance(item, CitationRecord) for item in items) == 2


# 12. An unknown format name


def test_an_unknown_format_is_a_parameter_error_naming_the_formats() -> None:
    assert as_format("auto") == "auto"
    assert as_format("edge_list") == "edge_list"
    with pytest.raises(ParameterError, match=r"fmt is 'bogus', not an input format") as info:
        as_format("bogus")
    assert all(name in info.value.hint for name in format_names())


# 17. UTF-32


@pytest.mark.parametrize(
    ("encoding", "mark"), [("utf-32-le", "FF FE 00 00"), ("utf-32-be", "00 00 FE FF")]
)
@pytest.mark.parametrize("zipped", [False, True])
def test_utf32_text_is_told_from_utf16(
    tmp_path: Path, encoding: str, mark: str, zipped: bool
) -> None:
    path = tmp_path / "edges.csv"
    data = "\ufeffciting,cited\n1907.11692,1810.04805\n".encode(encoding)
    path.write_bytes(gzip.compress(data) if zipped else data)
    with pytest.raises(
        SourceError, match=rf"edges\.csv: the file is UTF-32 text \(.*{mark}\)"
    ) as info:
        detect_format(path)
    assert "iconv -f UTF-32 -t UTF-8" in info.value.hint


# 18. CR-only line endings in an .abs file


@pytest.mark.parametrize("ending", ["\r", "\r\n"])
def test_an_abs_file_with_cr_line_endings_loads(tmp_path: Path, ending: str) -> None:
    path = tmp_path / "9701001.abs"
    text = _abs_record("hep-th/9701001", "Old Mac") + _abs_record("hep-th/9701002", "Two")
    path.write_bytes(text.replace("\n", ending).encode())
    items = list(hepth_abs.parse(path))
    assert _rejects(items) == {}
    papers = _papers(items)
    assert papers["hep-th/9701001"].title == "Old Mac"
    assert papers["hep-th/9701001"].abstract == "An abstract."
    assert papers["hep-th/9701002"].origin.line == 14


# 19. Latin-1 bytes in an arXiv JSON line


def test_latin1_bytes_in_an_arxiv_line_are_read_as_the_abs_parser_reads_them(
    tmp_path: Path,
) -> None:
    line = arxiv_line("2001.00001", "Café physics", "Mon, 6 Jan 2020 00:00:00 GMT", "2020-01-06")
    other = arxiv_line("2001.00002", "Plain", "Mon, 6 Jan 2020 00:00:00 GMT", "2020-01-06")
    latin1 = json.dumps(json.loads(line), ensure_ascii=False).encode("latin-1") + b"\n"
    path = tmp_path / "dump.jsonl"
    path.write_bytes(other.encode() + latin1)
    items = list(arxiv_oai.parse(path))
    assert _papers(items)["2001.00001"].title == "Café physics"
    rejects = _rejects(items)
    assert list(rejects) == [2]
    assert "not UTF-8, so it was read as Latin-1" in rejects[2]
    assert "iconv -f LATIN1 -t UTF-8" in rejects[2]
    assert hepth_abs._decode("Café".encode("latin-1")) == "Café"  # the .abs parser's reading


def test_an_arxiv_line_mixing_utf8_and_other_bytes_is_rejected(tmp_path: Path) -> None:
    line = arxiv_line("2001.00001", "Ünïcode CAFE", "Mon, 6 Jan 2020 00:00:00 GMT", "2020-01-06")
    mixed = json.dumps(json.loads(line), ensure_ascii=False).encode().replace(b"CAFE", b"CAF\xc9")
    path = tmp_path / "dump.jsonl"
    path.write_bytes(mixed + b"\n")
    items = list(arxiv_oai.parse(path))
    assert _papers(items) == {}
    rejects = _rejects(items)
    assert list(rejects) == [1]
    assert rejects[1].startswith("the line mixes UTF-8 characters with bytes that are not UTF-8")
    raw = next(item.raw for item in items if isinstance(item, Rejected))
    raw.encode("utf-8")  # the raw text can be written to the rejects file
    assert "\ufffd" in raw
