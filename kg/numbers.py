"""The whole numbers the library's public functions take (a limit, a hop count, a top N),
checked where each function starts: ``limit="5"`` or ``hops=1.5`` is the project's
ParameterError naming the argument, raised before any query, not a TypeError from deep
inside (or a wrong answer after the query ran)."""

from __future__ import annotations

import operator
from typing import SupportsIndex

from kg.errors import ParameterError

__all__ = ["check_range", "optional_whole_number", "whole_number"]


def whole_number(name: str, value: object) -> int:
    """Return ``value`` (the parameter ``name``) as an int. Raises ParameterError when it is
    not a whole number: a float, a str, None or a bool (an int, or anything with
    ``__index__`` such as a numpy integer, is one)."""
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        raise ParameterError(f"{name} is {value!r}, not a whole number", f"pass {name} as an int")
    return operator.index(value)


def optional_whole_number(name: str, value: object) -> int | None:
    """Return ``value`` as an int (see ``whole_number``), or None when it is None."""
    return None if value is None else whole_number(name, value)


def check_range(name: str, value: object, low: int, high: int | None = None) -> int:
    """Return ``value`` (the parameter ``name``) as an int; raise ParameterError when it is
    not a whole number (a float, a str, None, a bool), or is below ``low`` or above ``high``
    (None: no upper bound)."""
    number = whole_number(name, value)
    if number < low or (high is not None and number > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ParameterError(f"{name} is {number}", f"pass a {name} {bound}")
    return number
