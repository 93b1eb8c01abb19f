"""The hostile-input corpus: every file under tests/fixtures/hostile/ parses without a crash.

Each case is a tiny, facts-only file in one format (map page, paper JSON, arXiv JSON lines,
hep-th .abs) holding huge integers, huge strings, rich markup, ANSI escapes, NUL bytes,
invalid UTF-8, lone surrogates, a BOM, CRLF line ends, truncation, deep nesting, nulls or
wrong types. For each the test checks the format detected, how many valid records come out,
and that every bad record is a ``Rejected`` item whose message names ``file:line`` and a
reason; nothing else may be raised except a SourceError for a file that is wholly unusable
(empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from kg.errors import SourceError
from kg.loaders import arxiv_oai, hepth_abs, map_page, paper_json
from kg.loaders.detect import detect_format
from kg.loaders.records import (
    CitationRecord,
    FormatName,
    PaperRecord,
    ParsedItem,
    Rejected,
    SnapshotRecord,
)

HOSTILE = Path(__file__).resolve().parent.parent / "fixtures" / "hostile"

PARSERS: dict[str, Callable[[Path], Iterator[ParsedItem]]] = {
    "page": map_page.parse,
    "pith": paper_json.parse,
    "arxiv": arxiv_oai.parse,
    "abs": hepth_abs.parse,
}
INT64 = "over 9,223,372,036,854,775,807"


class Case(NamedTuple):
    """One corpus file: what detection says (None: it cannot tell), and what parsing gives."""

    name: str
    detected: FormatName | None
    papers: int
    citations: int
    rejects: dict[int, str]  # line -> a part of the reason
    error: str | None = None  # a SourceError for the whole file


CASES = [
    # map pages
    Case("page_huge_cited_by.txt", "map_page", 1, 2, {5: "the 'cited by' count 9999999999"}),
    Case("page_huge_version.txt", "map_page", 1, 2, {5: "the version v9999"}),
    Case("page_huge_item_count.txt", "map_page", 1, 2, {11: INT64}),
    Case("page_huge_histogram.txt", "map_page", 1, 2, {15: f"the count for 2024 is {INT64}"}),
    Case("page_huge_facts.txt", "map_page", 1, 2, {7: "key facts: the count 9999"}),
    Case("page_long_title.txt", "map_page", 0, 0, {3: "the title is 2,505 characters long"}),
    Case("page_long_ref_title.txt", "map_page", 1, 2, {11: "the title is 2,103 characters long"}),
    Case("page_rich_markup.txt", "map_page", 1, 2, {}),
    Case("page_ansi_escapes.txt", "map_page", 1, 2, {}),
    Case("page_nul_byte.txt", "map_page", 1, 2, {}),
    Case("page_invalid_utf8.txt", "map_page", 1, 2, {}),
    Case("page_bom_crlf.txt", "map_page", 1, 2, {}),
    Case("page_truncated.txt", "map_page", 1, 0, {7: "so it looks truncated"}),
    Case(
        "page_missing_list.txt", "map_page", 1, 1, {12: "without the 'Built on by' list of the 1"}
    ),
    Case("page_empty.txt", None, 0, 0, {}, error="the file is empty"),
    # paper JSON
    Case("pith_null_paper.json", "paper_json", 1, 0, {1: "'paper' is null or missing"}),
    Case("pith_huge_version.jsonl", "paper_json", 1, 0, {1: "source.version input should be less"}),
    Case("pith_huge_id_version.jsonl", "paper_json", 1, 0, {1: "source.id: the version v9999"}),
    Case(
        "pith_huge_counts.jsonl",
        "paper_json",
        1,
        0,
        {1: "claims.count input should be less", 2: "greater than or equal to 0"},
    ),
    Case("pith_digits_5000.jsonl", "paper_json", 1, 0, {1: "Exceeds the limit (4300 digits)"}),
    Case("pith_deep_nesting.jsonl", "paper_json", 2, 0, {2: "nested too deep"}),
    Case(
        "pith_wrong_types.jsonl",
        "paper_json",
        1,
        0,
        {
            1: "paper.title input should be a valid string, got number 42",
            2: "paper.authors_text input should be a valid string",
            3: "source should be a JSON object",
        },
    ),
    Case(
        "pith_long_strings.jsonl",
        "paper_json",
        1,
        0,
        {1: "the title is 2,001 characters long", 2: "is 501 characters long"},
    ),
    Case("pith_markup_ansi.jsonl", "paper_json", 2, 0, {}),
    Case(
        "pith_bad_category.jsonl",
        "paper_json",
        1,
        0,
        {1: "'[bold red]' is not an arXiv category", 2: "'Machine Learning' is not an arXiv"},
    ),
    Case("pith_truncated.json", None, 0, 0, {1: "not valid JSON"}),
    Case("pith_bom_crlf.jsonl", "paper_json", 2, 0, {}),
    Case("pith_nul_invalid_utf8.jsonl", "paper_json", 1, 0, {1: "Invalid control character"}),
    Case("pith_lone_surrogate.jsonl", "paper_json", 1, 0, {1: "the author name 1 holds a lone"}),
    # arXiv JSON lines
    Case(
        "arxiv_huge_version.jsonl",
        "arxiv_oai",
        1,
        0,
        {1: f"a version number is {INT64}", 2: "the version v9999", 3: INT64},
    ),
    Case(
        "arxiv_long_strings.jsonl",
        "arxiv_oai",
        1,
        0,
        {1: "the title is 2,001", 2: "is 501 characters long", 3: "not an arXiv category"},
    ),
    Case(
        "arxiv_bad_categories.jsonl",
        "arxiv_oai",
        1,
        0,
        {1: "'[bold]' is not an arXiv category", 2: "not list", 3: "'Machine' is not"},
    ),
    Case("arxiv_null_fields.jsonl", "arxiv_oai", 2, 0, {2: "no 'id' field"}),
    Case(
        "arxiv_wrong_types.jsonl",
        "arxiv_oai",
        1,
        0,
        {
            1: "field 'title' must be a string or null, not int",
            2: "field 'versions' must be a list",
            3: "bad update_date 20240103",
            4: "'id' must be a string",
            5: "expected a JSON object per line, found a JSON list",
        },
    ),
    Case("arxiv_deep_nesting.jsonl", "arxiv_oai", 2, 0, {2: "maximum recursion depth exceeded"}),
    Case("arxiv_markup_ansi.jsonl", "arxiv_oai", 2, 0, {}),
    Case("arxiv_bom_crlf.jsonl", "arxiv_oai", 2, 0, {}),
    Case("arxiv_nul_invalid_utf8.jsonl", "arxiv_oai", 2, 0, {1: "Invalid control character"}),
    Case("arxiv_truncated.jsonl", "arxiv_oai", 1, 0, {2: "invalid JSON"}),
    Case("arxiv_lone_surrogate.jsonl", "arxiv_oai", 1, 0, {1: "the title holds a lone surrogate"}),
    # hep-th .abs
    Case("abs_huge_version.abs", "hepth_abs", 2, 0, {3: "is not an arXiv id"}),
    Case("abs_long_title.abs", "hepth_abs", 1, 0, {3: "the title is 2,001 characters long"}),
    Case(
        "abs_long_author.abs",
        "hepth_abs",
        1,
        0,
        {3: "is 501 characters long, over the limit of 500"},
    ),
    Case(
        "abs_unknown_subject.abs",
        "hepth_abs",
        1,
        0,
        {9: "'[bold]Basket Weaving[/]' names no arXiv"},
    ),
    Case("abs_markup_ansi.abs", "hepth_abs", 1, 0, {}),
    Case("abs_latin1_crlf.abs", "hepth_abs", 1, 0, {}),
    Case("abs_nul.abs", "hepth_abs", 1, 0, {}),
    Case("abs_truncated.abs", "hepth_abs", 1, 0, {14: "hep-th/9201002 has no title"}),
]


def test_every_corpus_file_has_a_case() -> None:
    assert sorted(case.name for case in CASES) == sorted(p.name for p in HOSTILE.iterdir())
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_file(case: Case) -> None:
    path = HOSTILE / case.name
    if case.detected is None:
        with pytest.raises(SourceError, match=rf"{path.name}: "):
            detect_format(path)
    else:
        assert detect_format(path) == case.detected
    parse = PARSERS[case.name.split("_", 1)[0]]
    if case.error is not None:
        with pytest.raises(SourceError, match=rf"{path.name}: {case.error}"):
            list(parse(path))
        return
    items = list(parse(path))
    assert isinstance(items[0], SnapshotRecord)
    assert sum(isinstance(item, PaperRecord) for item in items) == case.papers
    assert sum(isinstance(item, CitationRecord) for item in items) == case.citations
    rejects = [item for item in items if isinstance(item, Rejected)]
    assert sorted(reject.origin.line for reject in rejects) == sorted(case.rejects)
    for reject in rejects:
        assert reject.origin.path == str(path)
        assert reject.message().startswith(f"{path}:{reject.origin.line}: ")
        assert case.rejects[reject.origin.line] in reject.reason
        assert len(reject.reason) < 1000  # a reason quotes, never dumps, the bad value


def _titles(name: str) -> list[str | None]:
    items = PARSERS[name.split("_", 1)[0]](HOSTILE / name)
    return [item.title for item in items if isinstance(item, PaperRecord)]


def test_markup_escapes_and_odd_bytes_are_kept_verbatim() -> None:
    assert _titles("page_rich_markup.txt") == ["Kilo [/bold] stray closing tag"]
    assert _titles("page_ansi_escapes.txt") == ["\x1b[31mRed\x1b[0m Title \x1b]0;window title\x07"]
    assert _titles("page_nul_byte.txt") == ["A NUL\x00 Title"]
    assert _titles("page_invalid_utf8.txt") == ["Bad B\ufffd\ufffdtes Title"]
    assert _titles("pith_markup_ansi.jsonl") == [
        "Kilo [/bold] stray closing tag",
        "\x1b[31m[bold red]Red[/bold red]\x1b[0m",
    ]
    assert _titles("abs_latin1_crlf.abs") == ["Café Theory"]
    assert _titles("abs_nul.abs") == ["NUL\x00Title"]
