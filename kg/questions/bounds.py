"""The bounds of the questions' parameters, and the check every question makes of them."""

from __future__ import annotations

from typing import Final

from kg.errors import ParameterError

__all__ = ["DEFAULT_LIMIT", "DEFAULT_MAX_HOPS", "MAX_HOPS", "MAX_NEAR_HOPS", "check_range"]

DEFAULT_LIMIT: Final = 20
DEFAULT_MAX_HOPS: Final = 10
MAX_HOPS: Final = 30  # the literal bound `*..30` in the shortest-path queries
MAX_NEAR_HOPS: Final = 3  # the literal bound `*1..3` in neighbourhood.cypher


def check_range(name: str, value: int, low: int, high: int | None = None) -> None:
    """Raise ParameterError when ``value`` (the parameter ``name``) is below ``low`` or above
    ``high`` (None: no upper bound)."""
    if value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ParameterError(f"{name} is {value}", f"pass a {name} {bound}")
