"""The Python API takes the arguments a notebook user would naturally pass (a path as a str,
a connection as a URI), and answers a wrong one with the project's error, before any query."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.figure import Figure

from kg import KnowledgeGraph
from kg.database import Database
from kg.errors import ConnectionFailed, ParameterError
from kg.export import Selection
from kg.server.config import Connection
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


def test_connect_takes_a_uri(neo4j_connection: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.setenv("NEO4J_USER", neo4j_connection.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_connection.password)
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_connection.database)
    with KnowledgeGraph.connect(neo4j_connection.uri) as face:
        assert face.uri == neo4j_connection.uri
        assert face.read("RETURN 1 AS one") == [{"one": 1}]
    with pytest.raises(ConnectionFailed, match="cannot reach Neo4j at bolt"):
        KnowledgeGraph.connect("bolt://127.0.0.1:1")
    with pytest.raises(ParameterError, match="connection is 7687"):
        KnowledgeGraph.connect(7687)  # type: ignore[arg-type]
