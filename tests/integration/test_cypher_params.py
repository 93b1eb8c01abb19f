"""`kg cypher` and `kg query` parameters: key=value a string, key:=JSON a JSON value. Only
strings could be passed, so `LIMIT $n` with -p n=2 was a type mismatch with no way out."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection


def _json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["results"]


def test_json_parameters(small_map: Database, kg_env: Connection) -> None:
    rows = _json(
        "cypher",
        "MATCH (p:Paper) WITH p ORDER BY p.key LIMIT $n "
        "RETURN count(p) AS n, $key AS key, $flag AS flag, $none AS none, $list AS list",
        "-p",
        "n:=2",
        "-p",
        "key=2110.03888",  # a plain value stays a string, though it reads as a number
        "-p",
        "flag:=true",
        "-p",
        "none:=null",
        "-p",
        'list:=[1, "a"]',
    )
    assert rows == [{"n": 2, "key": "2110.03888", "flag": True, "none": None, "list": [1, "a"]}]
    assert _json("query", "questions.search_titles", "-p", "query=BERT", "-p", "limit:=1")


def test_bad_json_and_a_string_where_a_number_is_wanted(
    small_map: Database, kg_env: Connection
) -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["cypher", "RETURN $n AS n", "-p", "n:=abc"])
    assert bad.exit_code == 2
    assert "'abc' is not JSON" in bad.output
    mismatch = runner.invoke(main, ["cypher", "MATCH (p:Paper) RETURN p LIMIT $n", "-p", "n=2"])
    assert mismatch.exit_code == 1
    assert "expected Integer but was String" in mismatch.output
    assert "-p key:=JSON" in mismatch.output
    assert "Traceback" not in mismatch.output


def test_help_says_how(kg_env: Connection) -> None:
    for command in ("cypher", "query"):
        shown = CliRunner().invoke(main, [command, "--help"]).output
        assert "key:=JSON" in " ".join(shown.split())
