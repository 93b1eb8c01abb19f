"""Every whole-number option of the CLI has a range with an upper bound: a number too large
for Neo4j's 64-bit integers (or for a C long) is a usage error, never an OverflowError. The
bound is the library's where the library checks the option (kg.cli.app.Bounded shows it),
click's where the library takes any whole number (a year, a seed, a stored id)."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from kg.cli import main

HUGE = "99999999999999999999"


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))
        else:
            yield (*prefix, name)


def _command(path: tuple[str, ...]) -> click.Command:
    command: click.Command = main
    for name in path:
        assert isinstance(command, click.Group)
        command = command.commands[name]
    return command


def _number_options() -> list[tuple[tuple[str, ...], click.Option]]:
    found = []
    for path in _commands(main):
        for param in _command(path).params:
            if isinstance(param, click.Option) and isinstance(
                param.type, click.types._NumberParamTypeBase
            ):
                found.append((path, param))
    return found


def test_every_whole_number_option_is_bounded() -> None:
    unbounded = [
        f"kg {' '.join(path)} {param.opts[0]}"
        for path, param in _number_options()
        if isinstance(param.type, click.types.IntParamType)
        and (
            not isinstance(param.type, click.IntRange)
            or param.type.max is None
            or param.type.max >= 2**63
        )
    ]
    assert unbounded == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # the library's bound, checked once there (kg.numbers.Bound)
        (["search", "attention", "--limit", HUGE], f"limit is {HUGE}"),
        (["category", "cs.CL", "--limit", HUGE], f"limit is {HUGE}"),
        (["near", "1706.03762", "--limit", HUGE], f"limit is {HUGE}"),
        (["cocited", "1706.03762", "--limit", HUGE], f"limit is {HUGE}"),
        (["export", "csv", "out", "--top", HUGE], f"top is {HUGE}"),
        (["rank", "pagerank", "--top", HUGE], f"top is {HUGE}"),
        # click's range, where the library takes any whole number
        (["export", "csv", "out", "--community", HUGE], "is not in the range"),
        (["communities", "--seed", HUGE], "is not in the range"),
        (["bursts", "--since", HUGE], "is not in the range"),
    ],
)
def test_a_huge_number_is_a_usage_error(args: list[str], said: str) -> None:
    """Checked before any connection opens: no server needed."""
    result = CliRunner().invoke(
        main, args, env={"NEO4J_URI": "neo4j://127.0.0.1:9", "NEO4J_PASSWORD": "x"}
    )
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert "Traceback" not in result.output
