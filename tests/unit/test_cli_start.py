"""`kg --version`, `kg --help` and `import kg` start without the library's heavy modules (the
driver, pydantic, rich, numpy, scipy, igraph, matplotlib), and the root group's table of
commands (kg.cli.root.COMMANDS) is the truth about the commands."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from kg.cli.root import COMMANDS
from tests.data import REPO

HEAVY = ("neo4j", "pydantic", "rich", "numpy", "scipy", "igraph", "matplotlib", "starlette")


def _loaded_after(code: str) -> list[str]:
    probe = (
        "import sys\n"
        f"{code}\n"
        f"print(__import__('json').dumps(sorted({{m.split('.')[0] for m in sys.modules}} & "
        f"set({list(HEAVY)!r}))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, check=True
    )
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize("args", [["--version"], ["--help"]])
def test_kg_version_and_help_import_no_heavy_module(args: list[str]) -> None:
    code = (
        "from kg.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exit:\n"
        "    assert exit.code == 0, exit.code"
    )
    assert _loaded_after(code) == []


def test_import_kg_imports_no_heavy_module_until_the_face_is_used() -> None:
    assert _loaded_after("import kg; kg.__version__") == []
    assert "neo4j" in _loaded_after("import kg; kg.KnowledgeGraph")


def test_a_question_loads_no_part_of_the_load_wing() -> None:
    """`kg paper` and the other questions start without the loaders' parsers and the import
    tool's sink: the face loads them with the first load, merge or unmerge. (numpy comes
    with the driver, whose _optional_deps imports it when it is installed.)"""
    code = (
        "from kg.cli import main\n"
        "from kg.cli import question_commands\n"
        "import kg\n"
        "kg.KnowledgeGraph.paper, kg.KnowledgeGraph.merges\n"
        "print(__import__('json').dumps(sorted(m for m in sys.modules if m.startswith("
        "('kg.load.pipeline', 'kg.load.bulk', 'kg.load.merges', 'loaders.formats')))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", "import sys\n" + code],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


def test_the_table_of_commands_is_the_truth() -> None:
    modules = sorted(path.stem for path in (REPO / "kg" / "cli").glob("*_commands.py"))
    for module in modules:
        importlib.import_module(f"kg.cli.{module}")
    from kg.cli import main

    commands = main.commands
    assert isinstance(commands, dict)
    registered = dict.keys(commands)  # what the modules registered, not the table
    assert sorted(registered) == sorted(COMMANDS)
    for name, (module, short_help) in COMMANDS.items():
        command = main.commands[name]
        assert command.callback is not None
        assert command.callback.__module__ == f"kg.cli.{module}", name
        assert command.get_short_help_str(limit=10_000) == short_help, name
    assert sorted({module for module, _ in COMMANDS.values()}) == modules


def test_help_lists_every_command_with_the_short_help_click_would_give() -> None:
    from click.testing import CliRunner

    from kg.cli import main

    listed = CliRunner().invoke(main, ["--help"], terminal_width=80)
    assert listed.exit_code == 0
    lines = listed.output.split("Commands:\n", 1)[1].splitlines()
    names = sorted(COMMANDS)
    assert [line.split()[0] for line in lines] == names
    width = 80 - 6 - max(map(len, names))
    for line, name in zip(lines, names, strict=True):
        expected = main.commands[name].get_short_help_str(limit=width)
        assert line.split(None, 1)[1] == expected, name
