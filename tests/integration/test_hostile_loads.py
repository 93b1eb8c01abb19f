"""Every file of the hostile-input corpus, loaded for real: `kg load FILE --rejects R`.

For each file of tests/fixtures/hostile/ (the cases of tests/unit/test_hostile_input.py,
which state per file the format, the valid records and the rejected lines) the test runs the
CLI against the test server and checks: the exit code (1 when a line is rejected or the file
cannot be loaded at all, else 0), no exception but a clean exit and no traceback, a
`file:line: reason` line on stderr for each rejected line, the rejects file (one JSON object
per rejected line, with file, line, reason and raw, and no file when nothing was rejected),
and that every valid record the parser yields from the same file is in the graph: each paper
under its key and not a stub, each citation as a CITES relationship, and nothing more.

A 100,000-character title and abstract, which once aborted the load with Neo4j's "Property
value is too large to index", are checked here too, through Neo4j.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from loaders.formats import parse_file
from loaders.records import CitationRecord, NamedPaper, PaperRecord, Rejected
from loaders.titles import paper_key
from tests.unit.test_hostile_input import CASES, HOSTILE, Case


def _key(paper: NamedPaper) -> str:
    return paper_key(paper.arxiv_id, paper.title, paper.year)


def _load(path: Path, rejects: Path) -> Result:
    result = CliRunner().invoke(main, ["load", str(path), "--rejects", str(rejects)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def _graph_papers(graph: Database) -> set[str]:
    rows = graph.read("MATCH (p:Paper) WHERE NOT coalesce(p.stub, false) RETURN p.key AS key")
    return {row["key"] for row in rows}


def _graph_citations(graph: Database) -> list[tuple[str, str]]:
    rows = graph.read("MATCH (a:Paper)-[:CITES]->(b:Paper) RETURN a.key AS a, b.key AS b")
    return sorted((row["a"], row["b"]) for row in rows)


def test_every_corpus_file_is_loaded_here() -> None:
    assert sorted(p.name for p in HOSTILE.iterdir()) == sorted(case.name for case in CASES)
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_hostile_file_loads_what_is_valid(
    case: Case, graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    path = HOSTILE / case.name
    rejects = tmp_path / "rejects.jsonl"
    result = _load(path, rejects)
    if case.detected is None or case.error is not None:
        # A file named on the command line that cannot be loaded at all stops the load
        # before anything is written, with one line.
        assert result.exit_code == 1, result.output
        assert result.stderr.startswith(f"Error: {path}: "), result.stderr
        assert len(result.stderr.strip().splitlines()) <= 2  # the error and its hint
        assert not rejects.exists()
        assert _graph_papers(graph) == set()
        assert _graph_citations(graph) == []
        return
    items = list(parse_file(path, case.detected))
    papers = {_key(item) for item in items if isinstance(item, PaperRecord)}
    citations = sorted(
        {
            (_key(item.citing), _key(item.cited))
            for item in items
            if isinstance(item, CitationRecord)
        }
    )
    # What the unit test states for the file, so the parser is not judging itself.
    assert len(papers) == case.papers
    assert len(citations) == case.citations
    assert result.exit_code == (1 if case.rejects else 0), result.output
    for line in case.rejects:
        assert f"{path}:{line}: " in result.stderr, (line, result.stderr)
    if case.rejects:
        entries = [json.loads(text) for text in rejects.read_text(encoding="utf-8").splitlines()]
        assert [entry["line"] for entry in entries] == sorted(case.rejects)
        for entry in entries:
            assert set(entry) == {"file", "line", "reason", "raw"}
            assert entry["file"] == str(path)
            assert case.rejects[entry["line"]] in entry["reason"]
            assert isinstance(entry["raw"], str)
        parsed = [item for item in items if isinstance(item, Rejected)]
        assert [entry["raw"] for entry in entries] == [item.raw for item in parsed]
    else:
        assert not rejects.exists()
    assert _graph_papers(graph) == papers
    assert _graph_citations(graph) == citations


def _arxiv_line(number: int, title: str, abstract: str) -> str:
    return json.dumps(
        {
            "id": f"hep-th/970100{number}",
            "title": title,
            "authors": "A. Author",
            "categories": "hep-th",
            "abstract": abstract,
            "versions": [{"version": "v1", "created": "Mon, 6 Jan 1997 00:00:00 GMT"}],
            "update_date": "2008-02-03",
        }
    )


def _paper_record(number: int, title: str, abstract: str) -> str:
    return json.dumps(
        {
            "source": {"id": f"2401.0000{number}", "kind": "arxiv"},
            "paper": {"title": title, "abstract_excerpt": abstract},
            "builder_version": "builder-2026-05-17-v1",
        }
    )


@pytest.mark.parametrize(
    ("make", "prefix", "abstract"),
    [(_arxiv_line, "hep-th/970100", "abstract"), (_paper_record, "2401.0000", "abstract_excerpt")],
    ids=["arxiv_oai", "paper_json"],
)
def test_a_100k_title_and_abstract_go_through_neo4j(
    make: Callable[[int, str, str], str],
    prefix: str,
    abstract: str,
    graph: Database,
    kg_env: Connection,
    tmp_path: Path,
) -> None:
    """A 100,000-character title is rejected with its line and a reason naming the limit
    (titles are indexed, and Neo4j refused the value: "Property value is too large to
    index"), while a 100,000-character abstract is stored whole, and every other record of
    the file loads."""
    source = tmp_path / "huge.jsonl"
    lines = [
        make(1, "First paper", "short"),
        make(2, "T" * 100_000, "short"),
        make(3, "Third paper", "A" * 100_000),
    ]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rejects = tmp_path / "rejects.jsonl"
    result = _load(source, rejects)
    assert result.exit_code == 1, result.output
    reason = "the title is 100,000 characters long, over the limit of 2,000"
    assert f"{source}:2: {reason}" in result.stderr
    assert "too large to index" not in result.output
    [entry] = [json.loads(text) for text in rejects.read_text(encoding="utf-8").splitlines()]
    assert entry["line"] == 2
    assert entry["file"] == str(source)
    assert reason in entry["reason"]
    rows = graph.read(
        f"MATCH (p:Paper) RETURN p.key AS key, p.title AS title, size(p.{abstract}) AS abstract "
        "ORDER BY key"
    )
    assert rows == [
        {"key": f"{prefix}1", "title": "First paper", "abstract": 5},
        {"key": f"{prefix}3", "title": "Third paper", "abstract": 100_000},
    ]
