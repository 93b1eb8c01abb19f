"""The whole numbers the library's public functions take (a limit, a hop count, a top N),
checked where each function starts: ``limit="5"`` or ``hops=1.5`` is the project's
ParameterError naming the argument, raised before any query, not a TypeError from deep
inside (or a wrong answer after the query ran).

A parameter's bounds are declared once, as a ``Bound`` (``COUNT``, ``COUNT_OR_ZERO``, and the
questions' own in kg.questions.bounds): the function checks its argument against it, and the
CLI shows it in --help without checking it again (kg.cli.app.count); the library's
ParameterError is what a user of either sees."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Final, SupportsIndex

from kg.errors import ParameterError

__all__ = [
    "COUNT",
    "COUNT_OR_ZERO",
    "MAX_COUNT",
    "Bound",
    "check_range",
    "optional_whole_number",
    "whole_number",
]

MAX_COUNT: Final = 1_000_000_000
"""The most a count (a limit, a top N, a batch size) may be unless its bound says otherwise:
far above any graph's size, far below the 64-bit integers Neo4j holds (beyond them the
driver fails with OverflowError)."""


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


def check_range(name: str, value: object, low: int, high: int = MAX_COUNT) -> int:
    """Return ``value`` (the parameter ``name``) as an int; raise ParameterError when it is
    not a whole number (a float, a str, None, a bool), or is below ``low`` or above ``high``."""
    number = whole_number(name, value)
    if not low <= number <= high:
        raise ParameterError(f"{name} is {number}", f"pass a {name} from {low} to {high:,}")
    return number


@dataclass(frozen=True)
class Bound:
    """The whole numbers a parameter takes, from ``low`` to ``high``, declared once: the
    library checks an argument against it, the CLI shows it in --help."""

    low: int
    high: int = MAX_COUNT

    def check(self, name: str, value: object) -> int:
        """Return ``value`` (the parameter ``name``) as an int; raise ParameterError as
        ``check_range`` does when it is no whole number or out of bounds."""
        return check_range(name, value, self.low, self.high)


COUNT: Final = Bound(1)
"""A count of at least one: a limit, a top N, a batch size, a window."""
COUNT_OR_ZERO: Final = Bound(0)
"""A count that may be nought: an offset, how many papers or citations at least."""
