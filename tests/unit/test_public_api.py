"""The library's public names: every module says what it exports, and says all of it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

import kg

# The CLI's modules hold click commands, which are reached through `kg`, not imported.
_NOT_LIBRARY = ("kg.cli",)


def library_modules() -> list[str]:
    names = ["kg"]
    for info in pkgutil.walk_packages(kg.__path__, prefix="kg."):
        if not info.name.startswith(_NOT_LIBRARY):
            names.append(info.name)
    return sorted(names)


def defined_here(module: ModuleType) -> set[str]:
    """Return the public classes and functions a module defines itself."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__ == module.__name__
    }


@pytest.mark.parametrize("name", library_modules())
def test_a_module_lists_every_public_definition_in_its_all(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    assert exported is not None, f"{name} has no __all__"
    missing = [item for item in exported if not hasattr(module, item)]
    assert not missing, f"{name}.__all__ names what it does not have: {missing}"
    unlisted = sorted(defined_here(module) - set(exported))
    assert not unlisted, f"{name} defines public names its __all__ leaves out: {unlisted}"


def test_the_walk_finds_the_four_concerns() -> None:
    found = set(library_modules())
    assert {"kg.server.local", "kg.load.pipeline", "kg.questions", "kg.analytics.ranking"} <= found
