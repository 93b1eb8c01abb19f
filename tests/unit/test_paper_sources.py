"""The sources view of a paper (`kg paper REF --sources`) without a graph: its sentences for
every mix of kinds, and its table at 80 columns with data that could drive a terminal."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from rich.cells import cell_len

from kg.answers import PaperSources, PaperSummary, SourceDifference, SourceLink, source_name
from kg.cli.question_commands import render_sources
from kg.cli.tables import Column, print_table

PAPER = PaperSummary(key="1706.03762", arxiv_id="1706.03762", title="Attention", year=2017)
STUB = PaperSummary(key="openalex:W3000003", title="A stub", year=2016, stub=True)


def _link(kind: str, **fields: Any) -> SourceLink:
    values: dict[str, Any] = {
        "key": f"sha256:{kind}",
        "kind": kind,
        "source": f"{kind}.jsonl",
        "data_date": date(2024, 1, 1),
        "builder_version": None,
        "as_of": None,
        "line": None,
        "stated_cited_by": None,
        "stated_cited_by_in_map": None,
        "stated_refs_total": None,
        "stated_refs_in_map": None,
        "listed_refs": None,
        "listed_citing": None,
        "describes": False,
        "asserted_refs": 0,
        "asserted_citers": 0,
        "stub_refs": 0,
        "stub_examples": [],
    }
    return SourceLink.model_validate(values | fields)


def _difference(kind: str, lacking: str, count: int, stubs: int = 0) -> SourceDifference:
    return SourceDifference(kind=kind, lacking=lacking, count=count, stubs=stubs, examples=[])


def _sources(kinds: list[str], *differences: SourceDifference, **fields: Any) -> PaperSources:
    return PaperSources.model_validate(
        {
            "paper": PAPER,
            "builds_on": 5,
            "cited_by_in_map": 2,
            "results": [],
            "reference_kinds": kinds,
            "differences": list(differences),
        }
        | fields
    )


@pytest.mark.parametrize(
    ("difference", "sentence"),
    [
        (_difference("openalex", "semantic_scholar", 12), "OpenAlex names 12 references S2 lacks."),
        (
            _difference("semantic_scholar", "crossref", 1, 1),
            "S2 names 1 reference Crossref lacks (a stub).",
        ),
        (
            _difference("map_page", "openalex", 3, 3),
            "The map pages name 3 references OpenAlex lacks (all stubs).",
        ),
        (
            _difference("openalex", "edge_list", 1_200, 7),
            "OpenAlex names 1,200 references the edge lists lack (7 of them stubs).",
        ),
        (
            _difference("some_new_kind", "unarxive", 2),
            "Some_new_kind names 2 references unarXive lacks.",
        ),
    ],
)
def test_a_difference_says_who_names_what_the_other_lacks(
    difference: SourceDifference, sentence: str
) -> None:
    assert difference.sentence() == sentence


def test_agreement_is_said_only_when_there_is_something_to_compare() -> None:
    assert _sources([]).agreement_sentence() is None
    assert _sources(["openalex"]).agreement_sentence() == (
        "Only OpenAlex names its references: there is nothing to compare."
    )
    assert _sources(["map_page"]).agreement_sentence() == (
        "Only the map pages name its references: there is nothing to compare."
    )
    assert _sources(["crossref", "openalex", "semantic_scholar"]).agreement_sentence() == (
        "Crossref, OpenAlex and S2 name the same 5 references."
    )
    differing = _sources(["crossref", "openalex"], _difference("crossref", "openalex", 1))
    assert differing.agreement_sentence() is None
    assert differing.stubs_hint() is None
    stubbed = _sources(["crossref", "openalex"], _difference("crossref", "openalex", 2, 1))
    assert "two stubs" in str(stubbed.stubs_hint())


def test_names_of_kinds_and_of_stubs_per_source() -> None:
    assert [source_name(k) for k in ("semantic_scholar", "map_page", None, "new")] == [
        "S2",
        "map page",
        "unknown source",
        "new",
    ]
    link = _link("openalex", stub_refs=3, stub_examples=[STUB])
    assert link.name == "OpenAlex"
    assert link.stubs_sentence() == (
        "OpenAlex (openalex.jsonl) names 3 references known only from reference lists."
    )
    assert _link("crossref").stubs_sentence() is None


def test_the_table_fits_80_columns_and_prints_data_as_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    hostile = "[bold]red[/bold]\x1b[31m<b>a-very-long-file-name-of-works</b>.jsonl"
    answer = _sources(
        ["openalex", "semantic_scholar"],
        SourceDifference(
            kind="openalex", lacking="semantic_scholar", count=7, stubs=7, examples=[STUB]
        ),
        results=[
            _link(
                "openalex",
                source=hostile,
                describes=True,
                stated_refs_total=0,
                stated_cited_by=62_423,
                asserted_refs=4,
                asserted_citers=1,
                stub_refs=3,
                stub_examples=[STUB],
            ),
            _link("semantic_scholar", stated_cited_by=97, asserted_citers=2),
        ],
    )
    render_sources(answer)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(cell_len(line) <= 80 for line in lines), out
    assert "\x1b" not in out
    assert "Sources of 1706.03762: Attention (2017)" in out
    rows = [" ".join(line.replace("│", " ").split()) for line in lines if line.startswith("│")]
    assert rows == [
        "OpenAlex …orks</b>.jsonl 2024-01-01 0 62,423 4 1",
        "S2 …_scholar.jsonl 2024-01-01 97 0 2",
        "graph every source 5 2",
    ], out
    flat = " ".join(out.split())
    assert "OpenAlex names 7 references S2 lacks (all stubs): openalex:W3000003 and 6 more." in flat
    assert (
        "OpenAlex ([bold]red[/bold]\\x1b[31m<b>a-very-long-file-name-of-works</b>.jsonl) names "
        "3 references known only from reference lists: openalex:W3000003 and 2 more." in flat
    )
    assert "A stub is known only by the ids its reference gave" in flat


def test_a_header_of_two_lines_is_as_wide_as_its_longest_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    print_table((Column("name"), Column("refs\nstated", "right")), [["a", 12]])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "┃      ┃   refs ┃"
    assert lines[2] == "┃ name ┃ stated ┃"


def test_a_paper_no_source_speaks_of_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    render_sources(_sources([], builds_on=0, cited_by_in_map=0))
    out = capsys.readouterr().out
    rows = [
        " ".join(line.replace("│", " ").split())
        for line in out.splitlines()
        if line.startswith("│")
    ]
    assert rows == ["graph every source 0 0"]
    assert "No snapshot describes this paper or asserts a citation of or by it." in out
