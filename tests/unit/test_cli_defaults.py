"""Each option of the CLI that stands for a parameter of the face shows the face's default:
the CLI reads it from the method's signature (``kg.cli.app.face_default``), so that a
default is written once. This test walks the commands and compares every such option."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import click
import pytest

from kg.cli.app import face_default
from kg.knowledge_graph import Analytics, KnowledgeGraph, Plots
from tests.data import REPO

_TIME = {"limit": "limit", "batch_size": "batch_size"}
_RUN = {"batch_size": "batch_size"}

# Each command and the face's method it calls, with its options' names (as click names the
# parameter) and the face's parameters they stand for.
COMMANDS: dict[str, tuple[Callable[..., Any], dict[str, str]]] = {
    "rank": (Analytics.rank, {"top": "top", "engine": "engine", **_RUN}),
    "communities": (
        Analytics.communities,
        {
            "top": "top",
            "papers": "papers",
            "method": "method",
            "seed": "seed",
            "resolution": "resolution",
            "engine": "engine",
            **_RUN,
        },
    ),
    "similar": (Analytics.similar, {"k": "k", "batch_size": "batch_size"}),
    "bursts": (Analytics.bursts, {"s": "s", "gamma": "gamma", **_TIME}),
    "beauties": (Analytics.beauties, {"min_citations": "min_citations", **_TIME}),
    "traction": (
        Analytics.traction,
        {"window": "window", "min_citations": "min_citations", "min_cohort": "min_cohort", **_TIME},
    ),
    "mainpath": (Analytics.main_path, {"key_routes": "key_routes", **_RUN}),
    "embed": (KnowledgeGraph.embed, {"batch_size": "batch_size"}),
    "cocited": (KnowledgeGraph.cocited, {"limit": "limit", "offset": "offset"}),
    "coupled": (KnowledgeGraph.coupled, {"limit": "limit", "offset": "offset"}),
    "search": (KnowledgeGraph.search, {"limit": "limit", "offset": "offset"}),
    "near": (KnowledgeGraph.near, {"hops": "hops", "limit": "limit", "offset": "offset"}),
    "path": (KnowledgeGraph.path, {"max_hops": "max_hops"}),
    "connect": (
        KnowledgeGraph.connector,
        {"max_hops": "max_hops", "limit": "limit", "paths_per_pair": "paths_per_pair"},
    ),
    "recommend": (KnowledgeGraph.recommend, {"limit": "limit", "max_degree": "max_degree"}),
    "merges": (KnowledgeGraph.merges, {"limit": "limit"}),
    "plot ego": (Plots.ego, {"hops": "hops", "limit": "limit", "seed": "seed"}),
}


def _command(name: str) -> click.Command:
    """Return `kg NAME` (``plot ego``: a command of a group)."""
    for path in sorted((REPO / "kg" / "cli").glob("*_commands.py")):
        importlib.import_module(f"kg.cli.{path.stem}")
    from kg.cli import main

    command: click.Command = main
    for word in name.split():
        assert isinstance(command, click.Group)
        command = command.commands[word]
    return command


@pytest.mark.parametrize("name", COMMANDS)
def test_an_options_default_is_the_faces(name: str) -> None:
    method, options = COMMANDS[name]
    params = {param.name: param for param in _command(name).params}
    for option, parameter in options.items():
        expected = inspect.signature(method).parameters[parameter].default
        assert expected is not inspect.Parameter.empty, f"{name}: the face has no {parameter}"
        assert params[option].default == expected, f"kg {name} --{option}"


def test_face_default_refuses_a_parameter_without_one() -> None:
    with pytest.raises(TypeError, match="has no default"):
        face_default(KnowledgeGraph.cocited, "ref")
