"""Under --json a usage error (a bad option value, a missing argument) is the JSON error
object every other error is, on stdout, with click's exit code 2 for usage errors. A number
click parses but the library refuses (its ParameterError, the one check of a bound) is a
usage error too: exit code 2, the library's message and hint, before any connection."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kg.cli import main
from tests.data import EXAMPLES

# No server listens there: a command that tried to connect would say so instead.
NO_SERVER = {"NEO4J_URI": "neo4j://127.0.0.1:9", "NEO4J_PASSWORD": "x"}


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["rank", "pagerank", "--top", "ten", "--json"], "Invalid value for '--top'"),
        (["cocited", "--json", "hep-th/9711200", "--limit", "x"], "'--limit'"),
        (["paper", "--json"], "Missing argument 'REF'"),
    ],
)
def test_a_usage_error_under_json_is_a_json_error(args: list[str], said: str) -> None:
    result = CliRunner().invoke(main, args, prog_name="kg")
    assert result.exit_code == 2, result.output
    error = json.loads(result.stdout)["error"]
    assert said in error["message"]
    assert error["hint"] == f"see `kg {args[0]} --help`"
    assert result.stderr == ""


def test_a_usage_error_without_json_stays_clicks() -> None:
    result = CliRunner().invoke(main, ["rank", "pagerank", "--top", "ten"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Error: Invalid value for '--top': 'ten' is not a valid integer." in result.stderr


# Each command, a value out of the bounds the library declares, and the library's words.
OUT_OF_BOUNDS = [
    (["cocited", "hep-th/9711200", "--limit", "0"], "limit is 0", "from 1 to 1,000,000,000"),
    (["rank", "pagerank", "--top", "-1"], "top is -1", "pass a top from 0 to"),
    (["near", "hep-th/9711200", "--hops", "4"], "hops is 4", "pass a hops from 1 to 3"),
    (["path", "a", "b", "--max-hops", "31"], "max_hops is 31", "from 1 to 30"),
    (["bursts", "--limit", "-2"], "limit is -2", "pass a limit from 0 to"),
    (["load", str(EXAMPLES / "map"), "--batch-size", "0"], "batch_size is 0", "from 1 to"),
    (
        ["search", "attention", "--limit", "99999999999999999999"],
        "limit is 99999999999999999999",
        "from 1 to 1,000,000,000",
    ),
]


@pytest.mark.parametrize(("args", "message", "hint"), OUT_OF_BOUNDS)
def test_a_value_the_library_refuses_is_a_usage_error(
    args: list[str], message: str, hint: str
) -> None:
    result = CliRunner().invoke(main, args, env=NO_SERVER)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {message}. ")
    assert hint in result.stderr.lower()
    assert "Neo4j" not in result.stderr  # refused before any connection


@pytest.mark.parametrize(("args", "message", "hint"), OUT_OF_BOUNDS[:4])
def test_a_value_the_library_refuses_is_a_json_error(
    args: list[str], message: str, hint: str
) -> None:
    result = CliRunner().invoke(main, [*args, "--json"], env=NO_SERVER)
    assert result.exit_code == 2, result.output
    error = json.loads(result.stdout)["error"]
    assert error["message"] == message
    assert hint in error["hint"]
    assert result.stderr == ""


@pytest.mark.parametrize(
    "args",
    [
        ["cocited", "hep-th/9711200", "--limit", "1.5"],
        ["near", "hep-th/9711200", "--hops", "two"],
        ["bursts", "--limit", "many"],
    ],
)
def test_a_value_that_is_no_number_is_clicks_usage_error(args: list[str]) -> None:
    result = CliRunner().invoke(main, args, env=NO_SERVER)
    assert result.exit_code == 2, result.output
    assert "is not a valid integer" in result.stderr
    assert "Traceback" not in result.output


def test_any_other_error_under_json_is_a_json_error_with_exit_code_1() -> None:
    """A valid command line whose graph cannot be reached: a KGError, not a usage error."""
    result = CliRunner().invoke(main, ["cocited", "hep-th/9711200", "--json"], env=NO_SERVER)
    assert result.exit_code == 1, result.output
    error = json.loads(result.stdout)["error"]
    assert error["message"] == "cannot reach Neo4j at neo4j://127.0.0.1:9"
    assert "NEO4J_URI" in error["hint"]
