"""The Python API takes the arguments a notebook user would naturally pass (a path as a str,
a connection as a URI), and answers a wrong one with the project's error, before any query."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from matplotlib.figure import Figure

import kg
from kg import KnowledgeGraph
from kg.database import Database
from kg.errors import ConnectionFailed, KGError, ParameterError, QueryFailed
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


# Each call is wrong in one argument; the graph is empty, so a call that ran its query
# before checking would raise UnknownReference (or answer) instead of ParameterError.
BAD_CALLS: dict[str, tuple[Callable[[KnowledgeGraph], object], str]] = {
    "resolve None": (lambda g: g.resolve(None), "the paper reference is None"),  # type: ignore[arg-type]
    "cocited limit None": (lambda g: g.cocited("1706.03762", limit=None), "limit is None"),  # type: ignore[arg-type]
    "cocited limit str": (lambda g: g.cocited("1706.03762", limit="5"), "limit is '5'"),  # type: ignore[arg-type]
    "category limit str": (lambda g: g.category("hep-th", limit="3"), "limit is '3'"),  # type: ignore[arg-type]
    "category None": (lambda g: g.category(None), "code is None"),  # type: ignore[arg-type]
    "search limit float": (lambda g: g.search("black", limit=2.5), "limit is 2.5"),  # type: ignore[arg-type]
    "search None": (lambda g: g.search(None), "text is None"),  # type: ignore[arg-type]
    "near hops float": (lambda g: g.near("1706.03762", hops=1.5), "hops is 1.5"),  # type: ignore[arg-type]
    "path max_hops str": (lambda g: g.path("a", "b", max_hops="3"), "max_hops is '3'"),  # type: ignore[arg-type]
    "author None": (lambda g: g.author(None), "name is None"),  # type: ignore[arg-type]
    "select_keys dict": (lambda g: g.exports.select_keys({}), "selection is {}"),  # type: ignore[arg-type]
    "selection top str": (
        lambda g: g.exports.select_keys(Selection(top="3")),  # type: ignore[arg-type]
        "top is '3'",
    ),
    "selection hops float": (
        lambda g: g.exports.select_keys(Selection(around="1706.03762", hops=1.5)),  # type: ignore[arg-type]
        "hops is 1.5",
    ),
    "graph_data layer": (
        lambda g: g.graph_data("1706.03762", "bogus"),  # type: ignore[arg-type]
        "no graph layer 'bogus'",
    ),
    "graph_data hops": (lambda g: g.graph_data("1706.03762", hops=4), "hops is 4"),
    "graph_data limit str": (lambda g: g.graph_data("1706.03762", limit="3"), "limit is '3'"),  # type: ignore[arg-type]
    "ego limit str": (lambda g: g.plots.ego("1706.03762", limit="3"), "limit is '3'"),  # type: ignore[arg-type]
    "rank_distribution bins": (lambda g: g.plots.rank_distribution(bins="3"), "bins is '3'"),  # type: ignore[arg-type]
    "rank top str": (lambda g: g.analytics.rank("pagerank", top="3"), "top is '3'"),  # type: ignore[arg-type]
    "bursts limit str": (lambda g: g.analytics.bursts(limit="3"), "limit is '3'"),  # type: ignore[arg-type]
    "traction window float": (lambda g: g.analytics.traction(window=2.5), "window is 2.5"),  # type: ignore[arg-type]
    "similar k str": (lambda g: g.analytics.similar(k="2"), "k is '2'"),  # type: ignore[arg-type]
    "recommend limit str": (lambda g: g.recommend("1706.03762", limit="2"), "limit is '2'"),  # type: ignore[arg-type]
    "merges limit str": (lambda g: g.merges(limit="2"), "limit is '2'"),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", BAD_CALLS)
def test_a_wrong_argument_is_a_parameter_error_before_any_query(graph: Database, name: str) -> None:
    call, message = BAD_CALLS[name]
    with pytest.raises(ParameterError, match=re.escape(message)):
        call(KnowledgeGraph.on(graph))


def test_select_keys_of_no_selection_is_the_whole_graph(graph: Database) -> None:
    assert KnowledgeGraph.on(graph).exports.select_keys(None) is None


def test_rank_takes_its_options_as_a_mapping(small_map: Database) -> None:
    face = KnowledgeGraph.on(small_map)
    result = face.analytics.rank("pagerank", options={"damping": 0.5}, top=1)
    assert result.parameters["damping"] == 0.5
    with pytest.raises(ParameterError, match="no rank option 'dampen'"):
        face.analytics.rank("pagerank", options={"dampen": 0.5})


# What the library says of a wrong argument names it as Python does, not only as a `--` flag
# of the CLI a notebook user cannot pass (the CLI's own options check their flags first):
# each case, its error, what the error says, and the CLI-only wording it no longer has.
LIBRARY_WORDS: dict[str, tuple[Callable[[KnowledgeGraph], object], type[KGError], str, str]] = {
    "read a write": (
        lambda g: g.read("CREATE (n:X) RETURN n"),
        QueryFailed,
        "graph.write(query) in Python",
        "Add --write",
    ),
    "merges limit": (lambda g: g.merges(limit=0), ParameterError, "limit is 0", "--limit"),
    "selection hops": (
        lambda g: g.exports.select_keys(Selection(around="1706.03762", hops=0)),
        ParameterError,
        "hops is 0",
        "--hops",
    ),
    "selection top": (
        lambda g: g.exports.select_keys(Selection(top=0)),
        ParameterError,
        "top is 0",
        "--top",
    ),
    "selection years": (
        lambda g: g.exports.select_keys(Selection(year_from=2000, year_to=1990)),
        ParameterError,
        "the year range 2000-1990 ends before it starts",
        "no paper matches",
    ),
    "rank years": (
        lambda g: g.analytics.rank("pagerank", scope=kg.Scope(year_from=2000, year_to=1990)),
        ParameterError,
        "the year range 2000-1990 ends before it starts",
        "--years",
    ),
}


@pytest.mark.parametrize("name", LIBRARY_WORDS)
def test_the_library_names_arguments_not_cli_flags(graph: Database, name: str) -> None:
    call, error, message, cli_only = LIBRARY_WORDS[name]
    with pytest.raises(error) as caught:
        call(KnowledgeGraph.on(graph))
    assert message in str(caught.value)
    assert cli_only not in str(caught.value)


def test_a_reversed_year_range_is_the_same_error_for_an_export(
    graph: Database, tmp_path: Path
) -> None:
    with pytest.raises(ParameterError, match="the year range 2000-1990 ends before it starts"):
        KnowledgeGraph.on(graph).exports.write(
            "gexf", tmp_path / "map.gexf", Selection(year_from=2000, year_to=1990)
        )


# The face walked whole: every whole-number argument of every method, given a str or a
# value below its range, is a ParameterError naming it, before any query (the graph is
# empty, so a call that queried first would raise UnknownReference or answer instead).
_REQUIRED: dict[str, object] = {
    "name": "Vaswani",
    "code": "cs.CL",
    "ref": "1706.03762",
    "a": "1706.03762",
    "b": "1810.04805",
    "source": "1706.03762",
    "target": "1810.04805",
    "algorithm": "pagerank",
    "layer": "cocited",
    "text": "attention",
    "paths": [],  # a load: its arguments are checked before its files
}
_STARRED = {"connector", "recommend"}  # graph.recommend(A, B, ...): the seeds as arguments
_ANY_WHOLE_NUMBER = {"year_from", "year_to", "as_of", "since", "seed"}  # years and a seed
_NOT_WALKED = {"bulk_load"}  # builds a database offline, with the server stopped


def _whole_number_arguments() -> list[tuple[str, str, str]]:
    face = KnowledgeGraph(None, "neo4j", "neo4j://127.0.0.1:1")  # type: ignore[arg-type]
    found = []
    parts = {"": face, "analytics": face.analytics, "exports": face.exports, "plots": face.plots}
    for part, owner in parts.items():
        for name in sorted(dir(owner)):
            attribute = getattr(owner, name) if not name.startswith("_") else None
            if not callable(attribute) or isinstance(attribute, type) or name in _NOT_WALKED:
                continue
            for parameter in inspect.signature(attribute).parameters.values():
                kind = str(parameter.annotation)
                if re.search(r"\bint\b", kind) and "Callable" not in kind and "bool" not in kind:
                    found.append((part, name, parameter.name))
    return found


@pytest.mark.parametrize(
    ("part", "method", "argument", "wrong"),
    [
        (part, method, argument, wrong)
        for part, method, argument in _whole_number_arguments()
        for wrong in ("3", -1)
        if wrong == "3" or argument not in _ANY_WHOLE_NUMBER
    ],
)
def test_every_whole_number_argument_of_the_face_is_checked(
    graph: Database, part: str, method: str, argument: str, wrong: object, tmp_path: Path
) -> None:
    face = KnowledgeGraph.on(graph)
    owner = getattr(face, part) if part else face
    function = getattr(owner, method)
    parameters = inspect.signature(function).parameters
    given = {p: _REQUIRED[p] for p in parameters if p in _REQUIRED}
    if "path" in parameters:  # an export's file
        given["path"] = tmp_path / "out"
    args: list[object] = []
    if method in _STARRED:
        args = ["1706.03762", "1810.04805"]
    with pytest.raises(ParameterError, match=re.escape(f"{argument} is {wrong!r}")):
        function(*args, **given, **{argument: wrong})
