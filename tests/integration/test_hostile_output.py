"""Data is printed as data: rich markup, HTML and control characters in a title or a name
never style the output, crash it, or reach the terminal raw."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "400"})
    assert "Traceback" not in result.output, result.output
    assert "MarkupError" not in result.output
    return result.output


def test_titles_and_names_print_as_text(small_map: Database, kg_env: Connection) -> None:
    small_map.write(
        "MATCH (p:Paper {key: '2101.99999'}) "
        "MERGE (a:Author {key: 'kim tag'}) SET a.name = 'Kim [/] Tag \\u001b[31mred' "
        "MERGE (a)-[:AUTHORED {position: 1}]->(p)"
    )
    page = _run("paper", "2101.99999")
    assert "[bold]" in page  # shown, not applied
    assert "<script>alert('x')</script>" in page
    assert "\x07" not in page
    assert "\\x07" in page  # the bell shown as text
    assert "\x1b" not in page
    assert "Kim [/] Tag \\x1b[31mred" in page
    found = _run("search", "foo [/bold]")
    assert "foo [/bold]" in found
    author = _run("author", "Kim [/] Tag")
    assert "\x1b" not in author
    refs = _run("common-citers", "2101.99999", "2110.03888")
    assert "Traceback" not in refs
    data = json.loads(_run("paper", "2101.99999", "--json"))
    assert data["title"].startswith("Less <than> & ")  # JSON keeps the data exactly
