"""The Python API takes the arguments a notebook user would naturally pass (a path as a str,
a connection as a URI), and answers a wrong one with the project's error, before any query."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.figure import Figure

from kg import KnowledgeGraph
from kg.database import Database
from kg.errors import ParameterError
from kg.export import Selection
from tests.data import EXAMPLES


def test_load_takes_paths_as_str(graph: Database, tmp_path: Path) -> None:
    face = KnowledgeGraph.on(graph)
    bert = str(EXAMPLES / "map" / "bert.txt")
    summary = face.load([bert], rejects_path=str(tmp_path / "rejects.jsonl"))
    assert summary.files[0].papers > 0
    again = face.load(bert, force=True, rejects_path=str(tmp_path / "rejects.jsonl"))
    assert [file.path for file in again.files] == [bert]


def test_load_refuses_a_path_that_is_no_path(graph: Database) -> None:
    with pytest.raises(ParameterError, match="paths is 42"):
        KnowledgeGraph.on(graph).load([42])  # type: ignore[list-item]


def test_export_and_save_take_paths_as_str(small_map: Database, tmp_path: Path) -> None:
    face = KnowledgeGraph.on(small_map)
    target = tmp_path / "map.gexf"
    summary = face.exports.write("gexf", str(target), Selection(around="1810.04805"))
    assert summary.papers > 0
    assert target.stat().st_size > 0
    picture = tmp_path / "empty.svg"
    assert face.plots.save(Figure(), str(picture)) == picture
    assert picture.stat().st_size > 0
