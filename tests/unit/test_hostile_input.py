"""The hostile-input corpus: every file under tests/fixtures/hostile/ parses without a crash.

Each case is a tiny, facts-only file in one format (map page, paper JSON, arXiv JSON lines,
hep-th .abs, edge list) holding huge integers, huge strings, rich markup, ANSI escapes,
NUL bytes, invalid UTF-8, lone surrogates, a BOM, CRLF line ends, truncation, deep nesting,
nulls, wrong types, self-loops or ids that are no ids. For each the test checks the format
detected, how many valid records come out, how many self-citations are skipped, and that
every bad record is a ``Rejected`` item whose message names ``file:line`` and a reason;
nothing else may be raised except a SourceError for a file that is wholly unusable (empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from kg.errors import SourceError
from loaders import arxiv_oai, edge_list, hepth_abs, map_page, paper_json
from loaders.detect import detect_format
from loaders.records import (
    CitationRecord,
    FormatName,
    PaperRecord,
    ParsedItem,
    Rejected,
    Skipped,
    SnapshotRecord,
)

HOSTILE = Path(__file__).resolve().parent.parent / "fixtures" / "hostile"

PARSERS: dict[str, Callable[[Path], Iterator[ParsedItem]]] = {
    "page": map_page.parse,
    "pith": paper_json.parse,
    "arxiv": arxiv_oai.parse,
    "abs": hepth_abs.parse,
    "edges": edge_list.parse,
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
    skipped: int = 0  # self-citations: facts of the data, neither loaded nor rejected


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
    Case(
        "arxiv_nul_invalid_utf8.jsonl",
        "arxiv_oai",
        2,
        0,
        {1: "Invalid control character", 2: "not UTF-8, so it was read as Latin-1"},
    ),
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
    # edge lists (papers 0: an edge list names papers only through its citations)
    Case("edges_nul_byte.tsv", "edge_list", 0, 2, {2: "citing id '2110.0\\x003888' is not"}),
    Case(
        "edges_invalid_utf8.tsv",
        "edge_list",
        0,
        2,
        {2: "citing id '\ufffd\ufffd2110.03888' is not", 3: "cited id '1706.0\ufffd(762' is not"},
    ),
    Case(
        "edges_huge_ids.tsv",  # line 1: a 30-digit version, dropped as edges keep no version
        "edge_list",
        0,
        2,
        {2: "is a bare number, not an arXiv id", 3: "'hep-th/999999999999"},
    ),
    Case("edges_long_field.tsv", "edge_list", 0, 2, {2: "citing id 'xxxxxxxx"}),
    Case("edges_bom_crlf.csv", "edge_list", 0, 2, {}),
    Case(
        "edges_markup_ansi.tsv",
        "edge_list",
        0,
        2,
        {2: "'[bold]1810.04805[/bold]' is not", 3: "'\\x1b[31m1810.04805\\x1b[0m' is not"},
    ),
    Case("edges_self_loops.tsv", "edge_list", 0, 1, {}, skipped=2),
    Case("edges_truncated.tsv", "edge_list", 0, 2, {3: "cited id '1706.0' is not an arXiv id"}),
    Case("edges_garbage_top.tsv", "edge_list", 0, 3, {1: "found 4 field(s)"}),
    Case(
        "edges_short_rows.csv",
        "edge_list",
        0,
        2,
        {
            3: "expected at least 2 columns as the header on line 1 says, found 1",
            4: "the citing id is empty",
            5: "the cited id is empty",
        },
    ),
    Case(
        "edges_wrong_field_count.tsv",
        "edge_list",
        0,
        3,
        {1: "found 3 field(s)", 2: "found 1 field(s)"},
    ),
    Case("edges_bare_numbers.tsv", "edge_list", 0, 1, {2: "'9201001' is a bare number"}),
    Case("edges_unterminated_quote.csv", "edge_list", 0, 1, {2: "found 1; fix or delete"}),
]


def test_every_corpus_file_has_a_case() -> None:
    assert sorted(case.name for case in CASES) == sorted(p.name for p in HOSTILE.iterdir())
    assert len(CASES) >= 40
    # every format `kg formats` lists has cases
    assert {case.detected for case in CASES} >= {
        "map_page",
        "paper_json",
        "arxiv_oai",
        "edge_list",
        "hepth_abs",
    }


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
    assert sum(isinstance(item, Skipped) for item in items) == case.skipped
    rejects = [item for item in items if isinstance(item, Rejected)]
    assert sorted(reject.origin.line for reject in rejects) == sorted(case.rejects)
    for reject in rejects:
        assert reject.origin.path == str(path)
        assert reject.message().startswith(f"{path}:{reject.origin.line}: ")
        assert case.rejects[reject.origin.line] in reject.reason


@pytest.mark.parametrize(
    "name",
    [c.name for c in CASES if c.error is None],
)
def test_a_reason_quotes_never_dumps_the_bad_value(name: str) -> None:
    items = PARSERS[name.split("_", 1)[0]](HOSTILE / name)
    for item in items:
        if isinstance(item, Rejected):
            assert len(item.reason) < 1000, (item.origin.line, len(item.reason))


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
