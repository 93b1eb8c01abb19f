"""The CLI calls only the library's face, the KnowledgeGraph (as sqlite-utils' CLI calls its
Database): a command parses, calls a method of the graph, renders.

From the library's other modules a command may import only the vocabulary of its options,
constants (``DEFAULT_LIMIT``) and types (``Scope``, ``LoadSummary``): never a module or a
function to call with a connection.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = REPO / "kg" / "cli"

FACE = {"kg", "kg.knowledge_graph", "kg.answers", "kg.errors"}
LIBRARY = (
    "kg.questions",
    "kg.analytics",
    "kg.load",
    "loaders",
    "kg.export",
    "kg.plots",
    "kg.refs",
    "kg.read_only",
    "kg.numbers",
)
# Anything else of kg (kg.database above all: commands get their graph from open_graph) is
# past the face.
# Modules that are not the graph, each for the commands that need it.
OWN_ROOMS = {
    # `kg db` manages the local server, which is not the graph face.
    "kg.server": {"db_commands.py"},
    "kg.server.config": {"db_commands.py"},
    "kg.server.local": {"db_commands.py"},
    # `kg query` and `kg queries` run the named query library itself; `kg stats` reads one.
    "kg.queries": {"query_commands.py", "db_commands.py"},
    # `kg serve` starts the web view, which calls the face itself (its light module only).
    "kg.web": {"serve_commands.py"},
    # `kg data` puts public data sets on the machine: files, not the graph.
    "kg.data": {"data_commands.py"},
    # A title as it prints (LaTeX to Unicode) is presentation: the table layer shows it.
    "kg.text": {"tables.py"},
}


def _is_vocabulary(name: str) -> bool:
    return name[:1].isupper()  # DEFAULT_LIMIT, Scope; never parse_years or a module


def _module(name: str) -> str:
    """Return ``kg.<name>`` when ``from kg import <name>`` names a module, else ``name``."""
    return (
        f"kg.{name}"
        if (REPO / "kg" / f"{name}.py").exists() or (REPO / "kg" / name).is_dir()
        else name
    )


def _allowed(module: str, file: str) -> bool:
    return module in FACE or module.startswith("kg.cli") or file in OWN_ROOMS.get(module, ())


def offences(source: str, file: str) -> list[str]:
    """Return the imports in ``source`` (a file of kg/cli named ``file``) that go past the face."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                f"import {a.name}"
                for a in node.names
                if a.name.startswith("kg") and not _allowed(a.name, file)
            ]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kg"):
            for alias in node.names:
                if node.module == "kg" and _module(alias.name) != alias.name:
                    module, name = _module(alias.name), None
                else:
                    module, name = node.module, alias.name
                if _allowed(module, file):
                    continue
                library = module.startswith(LIBRARY)
                if not (library and name is not None and _is_vocabulary(name)):
                    found.append(f"from {node.module} import {alias.name}")
    return found


def test_the_cli_imports_only_the_face() -> None:
    files = sorted(CLI.glob("*.py"))
    assert len(files) >= 12
    wrong = {
        f"{path.name}: {line}"
        for path in files
        for line in offences(path.read_text(encoding="utf-8"), path.name)
    }
    assert not wrong, "kg/cli calls the library only through kg.KnowledgeGraph"


@pytest.mark.parametrize(
    "line",
    [
        "from kg import questions",
        "from kg.questions import cocited",
        "import kg.analytics",
        "from kg.analytics import time",
        "from kg.load.pipeline import load_paths",
        "from kg.database import Database",
        "from kg.server.local import LocalServer",
        "from kg.web.app import create_app",
    ],
)
def test_a_call_past_the_face_is_caught(line: str) -> None:
    assert offences(line, "question_commands.py") == [line]


@pytest.mark.parametrize(
    "line",
    [
        "from kg.knowledge_graph import KnowledgeGraph, parse_years",
        "from kg import KnowledgeGraph",
        "from kg.questions import DEFAULT_LIMIT",
        "from kg.analytics import Scope",
        "from kg.answers import short_handle",
        "from kg.cli.app import main",
    ],
)
def test_the_face_and_the_vocabulary_pass(line: str) -> None:
    assert offences(line, "question_commands.py") == []
