"""Every command documents itself with help text and an example."""

from __future__ import annotations

import subprocess
import sys

import click
from click.testing import CliRunner

from kg.cli import main


def _commands(
    group: click.Group, prefix: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], click.Command]]:
    found: list[tuple[tuple[str, ...], click.Command]] = []
    for name, command in group.commands.items():
        found.append(((*prefix, name), command))
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*prefix, name)))
    return found


def test_every_command_has_help_with_an_example() -> None:
    commands = _commands(main)
    assert len(commands) >= 10
    for path, command in commands:
        assert command.help, f"kg {' '.join(path)} has no help"
        assert "Example" in command.help, f"kg {' '.join(path)} help has no example"


def test_every_leaf_command_renders_help() -> None:
    runner = CliRunner()
    for path, _command in _commands(main):
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage: " in result.output


def test_query_commands_offer_json() -> None:
    for path, command in _commands(main):
        if isinstance(command, click.Group) or (path[0] == "db" and path[-1] != "status"):
            continue
        if path[-1] in ("install", "start", "stop", "reset", "serve"):  # run a server
            continue
        names = {opt for param in command.params for opt in getattr(param, "opts", [])}
        assert "--json" in names, f"kg {' '.join(path)} has no --json"


def test_the_cli_and_the_loader_start_without_the_picture_libraries() -> None:
    """igraph (which loads matplotlib when it is there) and matplotlib take most of a second
    and about 35 MB to import: `kg` imports them on the first computation or picture, not to
    answer a question or load a file."""
    probe = (
        "import sys, kg.cli, kg.load.pipeline, kg.load.bulk, kg.knowledge_graph\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'igraph', 'matplotlib', 'networkx', 'scipy'})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
