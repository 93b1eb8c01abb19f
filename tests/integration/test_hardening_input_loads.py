"""Issue 41, second round, through a real load: a header further down an edge list, a title
with an invisible character, a very long line, an unknown format name, and a graph that an
older kg's title rules built."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from kg import KnowledgeGraph
from kg.database import Database
from kg.errors import ParameterError
from loaders import source_file
from tests.arxiv_lines import arxiv_line

CREATED, UPDATED = "Mon, 6 Jan 2020 00:00:00 GMT", "2020-01-06"


def _cites(graph: Database) -> list[tuple[str, str]]:
    rows = graph.read(
        "MATCH (a:Paper)-[:CITES]->(b:Paper) RETURN a.key AS a, b.key AS b ORDER BY a, b"
    )
    return [(row["a"], row["b"]) for row in rows]


def _rejects(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_an_edge_list_with_its_header_below_a_note_loads_each_edge_the_right_way(
    graph: Database, tmp_path: Path
) -> None:
    path = tmp_path / "e.csv"
    path.write_text("exported 2024-01-01\ncited,citing\n2001.00001,2001.00002\n")
    rejects = tmp_path / "rejects.jsonl"
    KnowledgeGraph.on(graph).load([path], rejects_path=rejects)
    assert _cites(graph) == [("2001.00002", "2001.00001")]
    assert [(entry["file"], entry["line"]) for entry in _rejects(rejects)] == [(str(path), 1)]


def _page(title: str, reference: str) -> str:
    """A map page of the paper ``title`` whose one reference is ``reference`` (2010), a paper
    known by its title alone."""
    return (
        f"{title}\narXiv 2609.00007v2 ↗First posted 2026-09-30cs.AIcited by 0\n"
        "Builds on\n1 of 1 references.\n"
        f"  1. 2010{reference}cited by 3\n"
    )


def test_a_zero_width_space_in_a_title_makes_no_second_paper(
    graph: Database, tmp_path: Path
) -> None:
    first, second = tmp_path / "one.txt", tmp_path / "two.txt"
    first.write_text(_page("A First Paper", "Sparse Cod\u200bing Methods"))
    second.write_text(_page("A Second Paper", "Sparse Coding Methods").replace("00007", "00008"))
    KnowledgeGraph.on(graph).load([first, second], rejects_path=tmp_path / "rejects.jsonl")
    rows = graph.read("MATCH (p:Paper) WHERE p.key STARTS WITH 'title:' RETURN p.key AS key")
    assert [row["key"] for row in rows] == ["title:sparse coding methods:2010"]
    assert len(_cites(graph)) == 2


def test_a_graph_an_0_8_0_kg_built_says_to_rebuild_it(graph: Database, tmp_path: Path) -> None:
    """kg 0.9.0 drops invisible characters from titles, so the title keys kg 0.8.0 wrote
    may differ: a load into such a graph says so, as it did for 0.7.0's rules."""
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    first.write_text(arxiv_line("2001.00001", "First", CREATED, UPDATED))
    second.write_text(arxiv_line("2001.00002", "Second", CREATED, UPDATED))
    assert KnowledgeGraph.on(graph).load([first], rejects_path=tmp_path / "r.jsonl").built_by == []
    graph.write("MATCH (s:Snapshot) SET s.loaded_by = 'kg 0.8.0'")
    summary = KnowledgeGraph.on(graph).load([second], rejects_path=tmp_path / "r.jsonl")
    assert summary.built_by == ["kg 0.8.0"]


def test_a_very_long_line_is_a_reject_and_the_lines_around_it_load(
    graph: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit = 64 * 1024
    monkeypatch.setattr(source_file, "MAX_LINE_LENGTH", limit, raising=False)
    path = tmp_path / "dump.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=1) as handle:
        handle.write(arxiv_line("2001.00001", "Before", CREATED, UPDATED).encode())
        handle.write(b'{"id": "2001.00003", "title": "' + b"x" * 4 * limit + b'"}\n')
        handle.write(arxiv_line("2001.00002", "After", CREATED, UPDATED).encode())
    rejects = tmp_path / "rejects.jsonl"
    summary = KnowledgeGraph.on(graph).load([path], rejects_path=rejects)
    keys = graph.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")
    assert [row["key"] for row in keys] == ["2001.00001", "2001.00002"]
    (entry,) = _rejects(rejects)
    assert (entry["file"], entry["line"]) == (str(path), 2)
    assert str(entry["reason"]).startswith(f"the line is {4 * limit + 33:,} characters long")
    assert len(str(entry["raw"])) <= 500
    assert summary.rejects_file == str(rejects)


def test_an_unknown_format_name_is_a_parameter_error(graph: Database, tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    path.write_text("citing,cited\n2001.00001,2001.00002\n")
    with pytest.raises(ParameterError, match=r"fmt is 'bogus', not an input format") as info:
        KnowledgeGraph.on(graph).load([path], fmt="bogus")  # type: ignore[arg-type]
    assert "edge_list" in info.value.hint
    assert _cites(graph) == []
