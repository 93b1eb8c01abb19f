"""Hints that name the right next step and read as English, checked without a server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg import queries
from kg.answers import PaperSummary, Similarity
from kg.cli import main
from kg.cli.tables import plural
from kg.errors import ParameterError
from kg.export import Selection


def test_an_unreachable_remote_server_is_not_told_to_start_locally() -> None:
    env = {"NEO4J_URI": "neo4j+s://db.invalid:7687", "NEO4J_PASSWORD": "x"}
    result = CliRunner().invoke(main, ["stats"], env=env)
    assert result.exit_code == 1
    assert "cannot reach Neo4j at neo4j+s://db.invalid:7687" in result.output
    assert "kg db start" not in result.output
    assert "Check NEO4J_URI" in result.output


def test_the_hint_after_the_message_starts_a_sentence() -> None:
    assert str(ParameterError("no such file or folder", "check the path")) == (
        "no such file or folder. Check the path"
    )
    kept = ParameterError("no paper holds 'x'", "kg rank pagerank --write stores it")
    assert str(kept).endswith(". kg rank pagerank --write stores it")
    assert str(ParameterError("missing", "pip install it")).endswith(". pip install it")


def test_counts_and_articles_read_as_english() -> None:
    with pytest.raises(ParameterError, match="Pass an int value"):
        queries.get("questions.cocited").params[1].coerce("many")
    assert plural(1, "duplicate paper") == "1 duplicate paper"
    assert plural(2_414, "citation") == "2,414 citations"
    assert Selection(top=5).describe() == "the top 5 papers by pagerank"
    assert Selection(top=5, category="hep-th").describe() == (
        "the top 5 papers by pagerank of those in hep-th"
    )


def test_a_reason_in_brackets_is_not_put_in_brackets_again() -> None:
    paper = PaperSummary(key="hep-th/9711200", title="T", year=1997)
    reason = "no similarity run is stored (`kg similar --write` stores one)"
    for capped in (False, True):
        result = Similarity(
            paper=paper,
            measure="co-citation",
            results=[],
            source="live",
            stale_reason=reason,
            capped=capped,
            counted=1,
            size_a=2,
        )
        assert "((" not in result.source_sentence()
        assert "))" not in result.source_sentence()


def test_output_cut_short_by_its_reader_is_no_error() -> None:
    kg = Path(sys.executable).with_name("kg")
    for args in (["queries", "--all"], ["queries", "--all", "--json"]):
        with subprocess.Popen([kg, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
            assert run.stdout is not None
            assert run.stderr is not None
            run.stdout.close()  # as `| head -1` does once it has its line
            assert run.stderr.read() == b""
            assert run.wait() == 0
