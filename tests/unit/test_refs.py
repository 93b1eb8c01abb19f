"""REF parsing, Lucene escaping, the question models and the question CLI's argument checks:
everything of the question layer that needs no server."""

from __future__ import annotations

import re
from datetime import date

import pytest
from click.testing import CliRunner
from neo4j.time import Date as Neo4jDate
from pydantic import ValidationError

import kg
from kg import queries, questions
from kg.answers import (
    CitationPath,
    CitedPaper,
    PaperSummary,
    PathResult,
    SnapshotLink,
    YearCount,
)
from kg.cli import main
from kg.errors import (
    AmbiguousPaper,
    AmbiguousReference,
    PaperNotFound,
    ParameterError,
    UnknownReference,
)
from kg.refs import (
    escape_lucene,
    fuzzy_title_query,
    parse_ref,
)


@pytest.mark.parametrize(
    ("ref", "canonical"),
    [
        ("2110.03888", "2110.03888"),
        ("2110.03888v3", "2110.03888"),
        ("arXiv:2110.03888v2", "2110.03888"),
        ("  https://arxiv.org/abs/2110.03888  ", "2110.03888"),
        ("hep-th/9901001", "hep-th/9901001"),
        ("HEP-TH/9901001v1", "hep-th/9901001"),
        ("math.AG/0101001", "math/0101001"),
    ],
)
def test_arxiv_refs_look_up_the_canonical_id(ref: str, canonical: str) -> None:
    """An arXiv paper's key is its canonical arXiv id."""
    parsed = parse_ref(ref)
    assert parsed.key == canonical
    assert parsed.arxiv_id == canonical


def test_title_and_key_refs_keep_the_text_as_key_and_normalise_the_title() -> None:
    parsed = parse_ref("  Attention Is All You Need!  ")
    assert parsed.arxiv_id is None
    assert parsed.key == "Attention Is All You Need!"
    assert parsed.norm_title == "attention is all you need"
    assert parse_ref("{\\em Attention} is   all you NEED").norm_title == parsed.norm_title
    keyed = parse_ref("title:attention is all you need:2017")
    assert keyed.key == "title:attention is all you need:2017"
    assert keyed.arxiv_id is None


def test_an_empty_ref_is_a_parameter_error() -> None:
    with pytest.raises(ParameterError, match="the paper reference is empty"):
        parse_ref("   ")


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("attention", "attention"),
        ("C++ (code)", r"C\+\+ \(code\)"),
        ('a "quoted" title?', r"a \"quoted\" title\?"),
        ("x:y/z", r"x\:y\/z"),
        ("a && b || !c", r"a \&\& b \|\| \!c"),
        ("[1 TO 5] {x} ^2 ~ * \\", r"\[1 TO 5\] \{x\} \^2 \~ \* \\"),
        ("cats AND dogs OR NOT birds", "cats and dogs or not birds"),
        ("  many   spaces ", "many spaces"),
        ("SELF-ATTENTION", r"SELF\-ATTENTION"),
    ],
)
def test_escape_lucene(text: str, escaped: str) -> None:
    assert escape_lucene(text) == escaped


def test_escape_lucene_leaves_no_unescaped_special_character() -> None:
    specials = '+-!(){}[]^"~*?:\\/&|'
    escaped = escape_lucene(specials)
    assert escaped == "".join("\\" + ch for ch in specials)


def test_fuzzy_title_query_keeps_exact_words_and_adds_one_edit_variants() -> None:
    assert fuzzy_title_query("Atention: is all you need?") == (
        "atention atention~1 is all you need need~1"
    )
    assert fuzzy_title_query("!!!") == ""


def _paper(key: str, year: int | None, title: str | None) -> PaperSummary:
    return PaperSummary(key=key, year=year, title=title)


def test_ambiguous_reference_lists_its_candidates() -> None:
    candidates = [
        _paper("title:deep learning:2015", 2015, "Deep Learning"),
        _paper("x", None, None),
    ]
    error = AmbiguousReference("Deep Learning", candidates)
    assert isinstance(error, AmbiguousPaper)
    assert error.candidates == candidates
    text = str(error)
    assert text.startswith("'Deep Learning' matches 2 papers. Pass the key")
    assert "  title:deep learning:2015  (2015)  Deep Learning\n" in text
    assert text.endswith("  x  (----)")


def test_unknown_reference_suggests_near_titles_or_says_what_to_do() -> None:
    near = [_paper("title:deep learning:2015", 2015, "Deep Learning")]
    error = UnknownReference("Deep Lerning", near)
    assert isinstance(error, PaperNotFound)
    assert error.suggestions == near
    assert str(error) == (
        "no paper matches 'Deep Lerning'. Did you mean one of these? Pass its key:\n"
        "  title:deep learning:2015  (2015)  Deep Learning"
    )
    bare = str(UnknownReference("2101.99999", []))
    assert bare.startswith("no paper matches '2101.99999'. Check the arXiv id or title")
    assert "kg search" in bare


def test_models_forbid_unknown_fields_and_convert_driver_dates() -> None:
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        PaperSummary.model_validate({"key": "k", "surprise": 1})
    with pytest.raises(ValidationError):
        CitedPaper.model_validate({"key": "k", "stated_cited_by": None})
    link = SnapshotLink.model_validate(
        {
            "key": "sha256:x",
            "kind": "map_page",
            "source": "page.txt",
            "data_date": Neo4jDate(2026, 10, 14),
            "builder_version": None,
            "as_of": date(2026, 10, 14),
            "line": 3,
            "stated_cited_by": 31,
            "stated_cited_by_in_map": 31,
            "stated_refs_total": 52,
            "stated_refs_in_map": 40,
            "listed_refs": 40,
            "listed_citing": 31,
        }
    )
    assert link.data_date == date(2026, 10, 14)
    assert type(link.data_date) is date
    assert link.model_dump(mode="json")["data_date"] == "2026-10-14"
    assert YearCount(year=None, count=2).model_dump() == {"year": None, "count": 2}


def test_path_result_says_when_there_is_no_path() -> None:
    a, b = _paper("A", 2020, "a"), _paper("B", 2021, "b")
    none = PathResult(
        source=a,
        target=b,
        directed=True,
        all_paths=False,
        max_hops=4,
        found=False,
        length=None,
        results=[],
    )
    assert none.message() == "No citation path from A to B within 4 hops."
    one = CitationPath(papers=[a, b], directions=["cites"])
    assert one.length == 1
    found = none.model_copy(update={"found": True, "length": 1, "results": [one]})
    assert found.message() == "A shortest path of 1 hop from A to B."
    dumped = found.model_dump(mode="json")
    assert sorted(dumped) == [
        "all_paths",
        "directed",
        "found",
        "length",
        "max_hops",
        "results",
        "source",
        "target",
    ]
    assert dumped["results"][0]["directions"] == ["cites"]


def test_hop_bounds_match_the_literals_in_the_query_files() -> None:
    for name in ("shortest_path", "shortest_path_undirected", "all_shortest_paths"):
        text = queries.get(name).text
        assert re.search(rf"\[:CITES\*\.\.{questions.MAX_HOPS}\]", text), name
        assert "length(path) <= $max_hops" in text
    assert f"[:CITES*1..{questions.MAX_NEAR_HOPS}]" in queries.get("neighbourhood").text


def test_question_queries_are_read_only_and_documented() -> None:
    names = [
        "paper_lookup",
        "paper_report",
        "paper_references",
        "paper_citers",
        "cocited",
        "coupled",
        "shared_references",
        "common_citers",
        "shortest_path",
        "shortest_path_undirected",
        "all_shortest_paths",
        "all_shortest_paths_undirected",
        "neighbourhood",
        "search_titles",
        "author_candidates",
        "author_report",
        "category_counts",
        "category_report",
        "cross_listing",
        "paper_snapshots",
        "paper_source_report",
    ]
    for name in names:
        query = queries.get(name)
        assert query.mode == "read", name
        assert query.doc, name
        assert not re.search(r"\b(CREATE|MERGE|SET|DELETE|REMOVE)\b", query.text), name


def test_knowledge_graph_is_exported_and_is_a_graph() -> None:
    assert "KnowledgeGraph" in kg.__all__
    assert issubclass(kg.KnowledgeGraph, kg.database.Database)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["path", "a", "b", "--max-hops", "31"], "max_hops is 31. Pass a max_hops from 1 to 30"),
        (["path", "a", "b", "--max-hops", "0"], "max_hops is 0. Pass a max_hops from 1 to 30"),
        (["near", "a", "--hops", "4"], "hops is 4. Pass a hops from 1 to 3"),
        (["cocited", "a", "--limit", "0"], "limit is 0. Pass a limit from 1 to 1,000,000,000"),
    ],
)
def test_cli_refuses_out_of_range_bounds_before_connecting(args: list[str], message: str) -> None:
    """The library's check, run before the CLI's lazy graph connects: no server needed."""
    result = CliRunner().invoke(
        main, args, env={"NEO4J_URI": "neo4j://127.0.0.1:9", "NEO4J_PASSWORD": "x"}
    )
    assert result.exit_code == 2
    assert message in result.output


def test_library_refuses_out_of_range_bounds_before_querying() -> None:
    # The checks come before the graph is touched, so no graph is needed to see them.
    graph = None
    with pytest.raises(ParameterError, match=r"max_hops is 31\. Pass a max_hops from 1 to 30"):
        questions.citation_path(graph, "a", "b", max_hops=31)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"hops is 0\. Pass a hops from 1 to 3"):
        questions.neighbourhood(graph, "a", hops=0)  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"limit is 0\. Pass a limit from 1 to"):
        questions.search(
            graph,  # type: ignore[arg-type]
            "x",
            0,
            mode="text",
            offset=0,
            year_from=None,
            year_to=None,
            category=None,
            embedder=None,
        )
