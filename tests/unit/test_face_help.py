"""help() of a method of the face shows the library function it calls: its docstring and
its parameters less the graph. The methods are written out (so that editors and mypy read
them) and declare the defaults; the function takes the same parameters, and takes no
default where the face holds it, so that each default is written once. Where the face
imports the function only when called (the pictures, the load wing), the docstring lives
on the face and the function's names the method; this test keeps each pair in step. The
loads take their arguments as one request (``pipeline.LoadRequest``, ``bulk.BulkRequest``)
the face builds."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import pytest

from kg import export, plots, questions, refs
from kg.analytics import embed, ranking, similarity, time, vector_file
from kg.knowledge_graph import Analytics, Exports, KnowledgeGraph, Plots, _documented_by
from kg.load import bulk, merges, pipeline, schema
from kg.questions import retrievers
from kg.read_only import run_read_only

# Each method of the face and the function it calls; True where the function takes the
# graph as its first argument (the face passes it), False where it takes none.
FACE: dict[str, tuple[type, Callable[..., Any], bool]] = {
    "read_only": (KnowledgeGraph, run_read_only, True),
    "resolve": (KnowledgeGraph, refs.resolve, True),
    "paper": (KnowledgeGraph, questions.paper_report, True),
    "cocited": (KnowledgeGraph, questions.cocited, True),
    "coupled": (KnowledgeGraph, questions.coupled, True),
    "shared_references": (KnowledgeGraph, questions.shared_references, True),
    "common_citers": (KnowledgeGraph, questions.common_citers, True),
    "path": (KnowledgeGraph, questions.citation_path, True),
    "near": (KnowledgeGraph, questions.neighbourhood, True),
    "graph_data": (KnowledgeGraph, questions.graph_data, True),
    "search": (KnowledgeGraph, questions.search, True),
    "similar_by_text": (KnowledgeGraph, retrievers.like_this, True),
    "embed": (KnowledgeGraph, embed.embed_papers, True),
    "load_vectors": (KnowledgeGraph, vector_file.load_vectors, True),
    "author": (KnowledgeGraph, questions.author, True),
    "category": (KnowledgeGraph, questions.category, True),
    "categories": (KnowledgeGraph, questions.categories, True),
    "overview": (KnowledgeGraph, questions.overview, True),
    "snapshots": (KnowledgeGraph, questions.snapshots, True),
    "sources": (KnowledgeGraph, questions.sources, True),
    "expand_paths": (KnowledgeGraph, pipeline.expand_paths, False),
    "merges": (KnowledgeGraph, merges.merges, True),
    "kept_apart": (KnowledgeGraph, merges.kept_apart, True),
    "unmerge": (KnowledgeGraph, merges.unmerge, True),
    "apply_schema": (KnowledgeGraph, schema.apply_schema, True),
    "clear": (KnowledgeGraph, schema.clear_database, True),
    "is_empty": (KnowledgeGraph, schema.is_empty, True),
    "analytics.rank": (Analytics, ranking.rank, True),
    "analytics.communities": (Analytics, ranking.communities, True),
    "analytics.runs": (Analytics, ranking.analytics_runs, True),
    "analytics.similar": (Analytics, similarity.run_similarity, True),
    "analytics.similarity_runs": (Analytics, similarity.stored_runs, True),
    "analytics.bursts": (Analytics, time.bursts, True),
    "analytics.beauties": (Analytics, time.sleeping_beauties, True),
    "analytics.traction": (Analytics, time.traction, True),
    "analytics.main_path": (Analytics, time.main_path, True),
    "exports.write": (Exports, export.export, True),
    "exports.select_keys": (Exports, export.select_keys, True),
    "exports.papers": (Exports, export.papers, True),
    "exports.citations": (Exports, export.citations, True),
    "exports.graph_json": (Exports, export.export_graph_json, True),
    "plots.years": (Plots, plots.years, True),
    "plots.ego": (Plots, plots.ego, True),
    "plots.rank_distribution": (Plots, plots.rank_distribution, True),
    "plots.save": (Plots, plots.save, False),
}


# The modules the face imports inside its methods, so that a question loads neither
# matplotlib nor the parsers: their docstrings cannot be read when the class is built, and
# the face writes them out.
LAZY = ("kg.plots", "kg.load.")


# The methods whose function still states the same defaults as the face: each default is
# written twice, a debt to pay by moving it to the face (as the analytics have).
DEFAULTS_TWICE = {
    "read_only",
    "paper",
    "cocited",
    "coupled",
    "path",
    "near",
    "similar_by_text",
    "author",
    "category",
    "overview",
    "sources",
    "merges",
    "kept_apart",
    "unmerge",
    "clear",
    "exports.write",
    "plots.rank_distribution",
}


def _without_default(parameter: inspect.Parameter) -> inspect.Parameter:
    return parameter.replace(default=inspect.Parameter.empty)


def _words(doc: str | None) -> list[str]:
    """Return a docstring's words: the face indents and may wrap its copy otherwise."""
    assert doc, "no docstring"
    return doc.split()


@pytest.mark.parametrize("name", FACE)
def test_a_method_has_its_functions_docstring_and_signature(name: str) -> None:
    cls, function, takes_graph = FACE[name]
    method = inspect.getattr_static(cls, name.rpartition(".")[2])
    if not takes_graph:
        assert isinstance(method, staticmethod), f"{name} takes no graph: a staticmethod"
        method = method.__func__
    if not function.__module__.startswith(LAZY):
        assert method.__doc__ is function.__doc__, f"{name}: @_documented_by({function.__name__})"
    elif f"KnowledgeGraph.{name}" not in " ".join(_words(function.__doc__)):
        assert _words(method.__doc__) == _words(function.__doc__), f"{name}: docstring"
    expected = list(inspect.signature(function).parameters.values())
    if takes_graph:
        assert expected[0].name == "graph"
        expected[0] = expected[0].replace(name="self", annotation=inspect.Parameter.empty)
    actual = list(inspect.signature(method).parameters.values())
    assert [_without_default(p) for p in actual] == [_without_default(p) for p in expected], (
        f"{name}: signature"
    )
    if name in DEFAULTS_TWICE:
        assert actual == expected, f"{name}: defaults"
    else:
        twice = [p.name for p in expected if p.default is not inspect.Parameter.empty]
        assert twice == [], f"{name}: the face holds the defaults, the function none"
    returns = inspect.signature(function).return_annotation
    assert inspect.signature(method).return_annotation == returns, f"{name}: answer"


# The loads: the face builds a request of every argument (its defaults written there only)
# and hands it to the load wing, whose function takes the request and names the method.
REQUESTS: dict[str, tuple[Callable[..., Any], Callable[..., Any], list[type]]] = {
    "load": (KnowledgeGraph.load, pipeline.load_paths, [pipeline.LoadRequest]),
    "bulk_load": (
        KnowledgeGraph.bulk_load,
        bulk.bulk_load,
        [bulk.BulkRequest, pipeline.LoadRequest],
    ),
}


def _arguments(request: type) -> set[str]:
    """Return the face's arguments a request holds, its parts' too."""
    names = set()
    for field in dataclasses.fields(request):
        if field.type == "StreamSettings":
            # but its older snapshot, which the load reads (``since`` is the request's)
            stream = dataclasses.fields(pipeline.StreamSettings)
            names |= {inner.name for inner in stream if inner.name != "since"}
        elif field.type != "LoadRequest":
            names.add(field.name)
    return names


@pytest.mark.parametrize("name", REQUESTS)
def test_a_load_hands_its_arguments_on_in_a_request(name: str) -> None:
    method, function, requests = REQUESTS[name]
    assert f"KnowledgeGraph.{name}" in " ".join(_words(function.__doc__))
    assert len(_words(function.__doc__)) < 25, f"{function.__name__}: the face documents it"
    parameters = [p for p in inspect.signature(method).parameters.values() if p.name != "self"]
    assert [p.name for p in parameters if p.default is inspect.Parameter.empty] == ["paths"]
    held = set().union(*(_arguments(request) for request in requests))
    if name == "bulk_load":
        held -= {"since", "force", "on_file"}  # an empty database: nothing older to read
    assert held == {p.name for p in parameters}
    assert (
        inspect.signature(function).return_annotation == inspect.signature(method).return_annotation
    )
    for request in requests:
        fields = dataclasses.fields(request)
        assert all(field.default is dataclasses.MISSING for field in fields), request.__name__


def test_every_public_method_of_the_face_is_checked() -> None:
    """A new method is added to FACE (or written out, like connector and recommend)."""
    written_out = {"connector", "recommend", "on", "connect", "close", *REQUESTS}
    for cls, prefix in ((KnowledgeGraph, ""), (Analytics, "analytics."), (Exports, "exports.")):
        own = {
            name
            for name, value in vars(cls).items()
            if not name.startswith("_") and inspect.isfunction(value)
        }
        assert {prefix + name for name in own - written_out} <= FACE.keys(), cls.__name__
    plot_methods = {name for name in vars(Plots) if not name.startswith("_")}
    assert {f"plots.{name}" for name in plot_methods} <= FACE.keys()


def test_a_method_with_its_own_docstring_is_refused() -> None:
    """The docstring is the function's: a second copy on the method would drift from it."""

    def function() -> None:
        """The function's docstring."""

    def method() -> None:
        """A copy."""

    with pytest.raises(TypeError, match="belongs to the function"):
        _documented_by(function)(method)
