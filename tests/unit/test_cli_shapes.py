"""The shapes the commands share (kg/cli/app.py): json_command, number_option, options_into
and emitted, each tried on a throwaway group so that no real command is touched."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import click
import pytest
from click.testing import CliRunner

from kg.answers import PaperSummary
from kg.cli.app import emitted, json_option, number_option, options_into
from kg.numbers import Bound


@dataclass(frozen=True)
class Window:
    first: int
    last: int

    def as_dict(self) -> dict[str, Any]:
        return {"first": self.first, "last": self.last}


def _command() -> click.Command:
    @click.command()
    @click.argument("ref")
    @options_into(
        "window",
        Window,
        number_option("--first", default=1, bound=Bound(1, 9), help="The first."),
        click.option("--last", default=5, type=int, help="The last."),
    )
    @json_option
    @click.pass_context
    def command(ctx: click.Context, ref: str, window: Window, as_json: bool) -> None:
        if not emitted({"ref": ref, "window": window}, as_json):
            click.echo(f"{ref} {window.first}-{window.last}")

    return command


def test_options_into_hands_the_options_on_as_one_object() -> None:
    result = CliRunner().invoke(_command(), ["x", "--first", "2", "--last", "7"])
    assert result.exit_code == 0, result.output
    assert result.output == "x 2-7\n"


def test_emitted_prints_reports_and_models_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    result = CliRunner().invoke(_command(), ["x", "--json"])
    assert json.loads(result.output) == {"ref": "x", "window": {"first": 1, "last": 5}}
    assert emitted(PaperSummary(key="k"), as_json=True)
    assert json.loads(capsys.readouterr().out)["key"] == "k"
    assert not emitted(PaperSummary(key="k"), as_json=False)
    assert capsys.readouterr().out == ""


def test_the_options_keep_their_order_range_and_default_in_help() -> None:
    help_text = CliRunner().invoke(_command(), ["--help"], terminal_width=100).output
    assert help_text.index("--first") < help_text.index("--last") < help_text.index("--json")
    assert "[default: 1; 1<=x<=9]" in help_text


def test_a_bounded_number_is_parsed_by_click_and_left_to_the_library() -> None:
    """The bound is the library's to check (kg.numbers.Bound.check): click parses the text as
    a whole number, and shows the bound in --help only."""
    result = CliRunner().invoke(_command(), ["x", "--first", "10"])
    assert (result.exit_code, result.output) == (0, "x 10-5\n")
    result = CliRunner().invoke(_command(), ["x", "--first", "ten"])
    assert result.exit_code == 2
    assert "'ten' is not a valid integer" in result.output
