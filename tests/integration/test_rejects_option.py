"""`kg load --rejects PATH` where PATH cannot take the rejects: a folder, a path whose folder
cannot be written, or an input file itself. Each is refused before anything loads, with one
`Error:` line and its hint, exit code 1 and no traceback, and the input file is left byte for
byte as it was (once, `--rejects` naming the input overwrote 60,000 lines with 1).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from tests.unit.test_hostile_input import HOSTILE

# Three valid citations and one garbage line: a load of it writes a reject.
SOURCE = HOSTILE / "edges_garbage_top.tsv"


def _folder(tmp: Path, source: Path) -> Path:
    folder = tmp / "rejects-folder"
    folder.mkdir()
    return folder


def _under_a_file(tmp: Path, source: Path) -> Path:
    blocker = tmp / "a-file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    return blocker / "deeper" / "rejects.jsonl"


def _the_input(tmp: Path, source: Path) -> Path:
    return source


def _the_input_by_another_name(tmp: Path, source: Path) -> Path:
    (tmp / "other").mkdir()
    return tmp / "other" / ".." / source.name


def _the_input_through_a_link(tmp: Path, source: Path) -> Path:
    link = tmp / "link.jsonl"
    link.symlink_to(source)
    return link


CASES: dict[str, tuple[Callable[[Path, Path], Path], str, str]] = {
    # name: (the --rejects path, what the error says, its hint)
    "a folder": (
        _folder,
        "is a folder",
        "Name a file for the rejects (rejects_path= in Python, --rejects on the command line), "
        "e.g. rejects.jsonl",
    ),
    "under a file": (_under_a_file, "cannot write in", "Name a file in a folder you can write to"),
    "the input": (_the_input, "is one of the input files", "Name another file"),
    "the input by another name": (
        _the_input_by_another_name,
        "is one of the input files",
        "Name another file",
    ),
    "the input through a link": (
        _the_input_through_a_link,
        "is one of the input files",
        "Name another file",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_rejects_path_that_cannot_take_rejects_is_refused(
    case: str, graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    make, error, hint = CASES[case]
    source = tmp_path / SOURCE.name
    shutil.copyfile(SOURCE, source)
    original = source.read_bytes()
    rejects = make(tmp_path, source)
    result = CliRunner().invoke(main, ["load", str(source), "--rejects", str(rejects)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"Error: the rejects file {rejects}"), lines[0]
    assert error in lines[0]
    assert hint in lines[0]
    assert source.read_bytes() == original
    assert graph.read("MATCH (n) RETURN count(n) AS n") == [{"n": 0}]


def test_the_rejects_file_inside_a_loaded_folder_is_refused(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """The input is the folder; the rejects path names one of the files found in it."""
    folder = tmp_path / "inputs"
    folder.mkdir()
    source = folder / "edges.tsv"
    shutil.copyfile(SOURCE, source)
    original = source.read_bytes()
    result = CliRunner().invoke(main, ["load", str(folder), "--rejects", str(source)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.stderr.startswith(f"Error: the rejects file {source} is one of the input files")
    assert source.read_bytes() == original
    assert graph.read("MATCH (n) RETURN count(n) AS n") == [{"n": 0}]


def test_a_good_rejects_path_gets_the_reject(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """The control: the same load with a rejects path that works writes the reject and
    loads the rest, so the refusals above are about the path alone."""
    rejects = tmp_path / "new-folder" / "rejects.jsonl"
    result = CliRunner().invoke(main, ["load", str(SOURCE), "--rejects", str(rejects)])
    assert result.exit_code == 1, result.output
    assert f"{SOURCE}:1: " in result.stderr
    assert len(rejects.read_text(encoding="utf-8").splitlines()) == 1
    assert graph.read("MATCH ()-[r:CITES]->() RETURN count(r) AS n") == [{"n": 3}]
