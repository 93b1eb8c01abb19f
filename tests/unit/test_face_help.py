"""help() of a method of the face shows the library function it calls: its docstring and
its parameters less the graph, also for the pictures, whose module loads on first use."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, cast

import pytest

from kg import KnowledgeGraph, plots, questions
from kg.analytics import ranking


def _face() -> KnowledgeGraph:
    return KnowledgeGraph(cast(Any, None), "neo4j", "bolt://127.0.0.1:1")


BOUND: dict[str, tuple[Callable[[KnowledgeGraph], Callable[..., Any]], Callable[..., Any]]] = {
    "cocited": (lambda g: g.cocited, questions.cocited),
    "near": (lambda g: g.near, questions.neighbourhood),
    "rank": (lambda g: g.analytics.rank, ranking.rank),
    "ego": (lambda g: g.plots.ego, plots.ego),
    "graph_data": (lambda g: g.graph_data, questions.graph_data),
}


@pytest.mark.parametrize("name", BOUND)
def test_a_bound_method_has_the_functions_docstring_and_signature(name: str) -> None:
    method, function = BOUND[name]
    bound = method(_face())
    assert bound.__doc__ == function.__doc__
    assert bound.__doc__
    assert not bound.__doc__.startswith("See ")
    parameters = list(inspect.signature(function).parameters.values())
    assert parameters[0].name == "graph"
    assert list(inspect.signature(bound).parameters.values()) == parameters[1:]


def test_plots_save_is_the_function_itself() -> None:
    assert _face().plots.save is plots.save
