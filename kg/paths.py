"""The paths the library's public functions take: a ``Path``, a ``str`` or any
``os.PathLike``, turned into a ``Path`` where the function starts, so that
``graph.load(["map/bert.txt"])`` works as ``graph.load([Path("map/bert.txt")])`` does."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TypeAlias

from kg.errors import ParameterError

__all__ = ["PathArg", "as_path", "as_paths", "optional_path"]

PathArg: TypeAlias = str | os.PathLike[str]
"""A path as a caller may give it: ``Path("map.gexf")``, ``"map.gexf"``, any os.PathLike."""


def as_path(value: object, name: str) -> Path:
    """Return ``value`` (the parameter ``name``) as a Path. Raises ParameterError when it is
    not a str or an os.PathLike of str."""
    if isinstance(value, Path):
        return value
    if isinstance(value, str | os.PathLike):
        text = os.fspath(value)
        if isinstance(text, str):
            return Path(text)
    raise ParameterError(
        f"{name} is {value!r}, not a path",
        f"pass {name} as a pathlib.Path or a str",
    )


def optional_path(value: object, name: str) -> Path | None:
    """Return ``value`` as a Path (see ``as_path``), or None when it is None."""
    return None if value is None else as_path(value, name)


def as_paths(values: object, name: str) -> list[Path]:
    """Return ``values`` (the parameter ``name``: a list of paths, or one path) as a list of
    Paths. Raises ParameterError when it or one of its items is not a path."""
    if isinstance(values, str | os.PathLike):
        return [as_path(values, name)]
    if not isinstance(values, Iterable) or isinstance(values, bytes):
        raise ParameterError(
            f"{name} is {values!r}, not a list of paths",
            f"pass {name} as a list of pathlib.Path or str",
        )
    return [as_path(value, name) for value in values]
