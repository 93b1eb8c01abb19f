"""Under --json a usage error (a bad option value, a missing argument) is the JSON error
object every other error is, on stdout, with click's exit code 2 for usage errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kg.cli import main


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["rank", "pagerank", "--top", "0", "--json"], "Invalid value for '--top'"),
        (["cocited", "hep-th/9711200", "--limit", "0", "--json"], "Invalid value for '--limit'"),
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
    result = CliRunner().invoke(main, ["rank", "pagerank", "--top", "0"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Error: Invalid value for '--top'" in result.stderr
