"""Data is printed as data: rich markup, HTML and control characters in a title or a name
never style the output, crash it, or reach the terminal raw.

Every command runs through CliRunner, which catches exceptions into ``result.exception``
instead of printing a traceback, so each check asserts the exit code and that no exception
other than a clean exit was raised, and then looks for the data printed literally. The
commands run with FORCE_COLOR set, as on a terminal: markup in data that rich applied
would vanish from the text (``[bold]`` eaten), and styles are the only escapes printed.
"""

from __future__ import annotations

import json

from click.testing import CliRunner, Result

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from loaders.titles import normalize_name
from tests.data import HOSTILE_TITLE

NAME = "Kim [/] Tag \x1b[31mred"
NAME_SHOWN = "Kim [/] Tag \\x1b[31mred"  # the escape character as text, the rest literal
TITLE_SHOWN = HOSTILE_TITLE.replace("\x07", "\\x07")


def _run(*args: str, code: int = 0) -> str:
    result: Result = CliRunner().invoke(
        main, list(args), env={"COLUMNS": "400", "FORCE_COLOR": "1", "TERM": "xterm-256color"}
    )
    assert result.exit_code == code, (args, result.output, result.exception)
    if code == 0:
        assert result.exception is None, (args, result.exception)
    else:
        assert isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.output
    assert "MarkupError" not in result.output
    # No raw control character of the data: the bell, and the red escape of the name.
    assert "\x07" not in result.output
    assert "\x1b[31m" not in result.output
    return result.output


def _with_author(graph: Database) -> None:
    """Give 2101.99999 (HOSTILE_TITLE) the author NAME, and a second reference, so that it
    is a common citer of 2110.03888 and that paper."""
    graph.write(
        "MATCH (p:Paper {key: '2101.99999'}) "
        "MERGE (a:Author {key: $key}) SET a.name = $name "
        "MERGE (a)-[:AUTHORED {position: 1}]->(p)",
        {"key": normalize_name(NAME), "name": NAME},
    )


def _other_cited(graph: Database) -> str:
    """Make 2101.99999 cite one more paper of the map, and return its key."""
    rows = graph.write(
        "MATCH (p:Paper {key: '2101.99999'}), (q:Paper) "
        "WHERE q.key <> '2101.99999' AND q.key <> '2110.03888' AND q.title IS NOT NULL "
        "WITH p, q ORDER BY q.key LIMIT 1 MERGE (p)-[:CITES]->(q) RETURN q.key AS key"
    )
    return str(rows[0]["key"])


def test_a_title_prints_literally_in_kg_paper(small_map: Database, kg_env: Connection) -> None:
    _with_author(small_map)
    page = _run("paper", "2101.99999")
    assert TITLE_SHOWN in page  # [bold] shown, not applied; HTML and the bell as text
    assert NAME_SHOWN in page
    data = json.loads(_run("paper", "2101.99999", "--json"))
    assert data["title"] == HOSTILE_TITLE  # JSON keeps the data exactly


def test_search_text_with_markup_prints_literally(small_map: Database, kg_env: Connection) -> None:
    found = _run("search", "foo [/bold]")
    assert "foo [/bold]" in found
    hostile = _run("search", "unbalanced bell")
    assert TITLE_SHOWN in hostile


def test_an_author_name_prints_literally(small_map: Database, kg_env: Connection) -> None:
    _with_author(small_map)
    author = _run("author", "Kim [/] Tag")
    assert "no author matches" not in author
    assert NAME_SHOWN in author  # the name as the heading, with [/] and no style applied
    assert TITLE_SHOWN in author  # the paper the name wrote
    data = json.loads(_run("author", "Kim [/] Tag", "--json"))
    assert data["name"] == NAME


def test_a_title_prints_literally_in_common_citers(small_map: Database, kg_env: Connection) -> None:
    other = _other_cited(small_map)
    refs = _run("common-citers", "2110.03888", other)
    assert TITLE_SHOWN in refs
    assert "2101.99999" in refs
    data = json.loads(_run("common-citers", "2110.03888", other, "--json"))
    assert HOSTILE_TITLE in [row["title"] for row in data["results"]]


def test_an_unknown_author_with_markup_is_a_clean_error(
    small_map: Database, kg_env: Connection
) -> None:
    missing = _run("author", "Nobody [/] Here [bold]", code=1)
    assert "Nobody [/] Here [bold]" in missing


ESCAPING_TITLE = "Holographic \x1b]0;PWNED\x07 entropy \x1b[2J bounds"


def test_titles_in_error_hints_are_escaped(small_map: Database, kg_env: Connection) -> None:
    """The candidates an `Error:` line lists (did you mean, which one) come from titles:
    their escapes printed raw could retitle or clear the terminal."""
    for key in ("2101.88881", "2101.88882"):
        small_map.write(
            "MERGE (p:Paper {key: $key}) SET p.arxiv_id = $key, p.title = $title, "
            "p.norm_title = 'holographic 0 pwned entropy 2j bounds', p.year = 2021, p.stub = false",
            {"key": key, "title": ESCAPING_TITLE},
        )
    shown = "Holographic \\x1b]0;PWNED\\x07 entropy \\x1b[2J bounds"
    for ref, error in (("Holographic entropy bound", "no paper"), (ESCAPING_TITLE, "2 papers")):
        output = _run("paper", ref, code=1)
        assert error in output
        assert "\x1b]0;" not in output
        assert "\x1b[2J" not in output
        assert shown in output
