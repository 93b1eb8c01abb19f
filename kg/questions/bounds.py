"""The bounds of the questions' parameters, and the check every question makes of them."""

from __future__ import annotations

import re
from typing import Final

from kg.errors import ParameterError
from kg.numbers import Bound, check_range

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_MAX_HOPS",
    "HOPS",
    "LIST_INDEX_MAX",
    "MAX_HOPS",
    "MAX_NEAR_HOPS",
    "NEAR_HOPS",
    "SHOWN_AUTHORS",
    "check_range",
    "check_text",
]

DEFAULT_LIMIT: Final = 20
SHOWN_AUTHORS: Final = 3  # the first authors a search shows beside each title
DEFAULT_MAX_HOPS: Final = 10
MAX_HOPS: Final = 30  # the literal bound `*..30` in the shortest-path queries
MAX_NEAR_HOPS: Final = 3  # the literal bound `*1..3` in neighbourhood.cypher
HOPS: Final = Bound(1, MAX_HOPS)
"""The bounds of a shortest path's ``max_hops``."""
NEAR_HOPS: Final = Bound(1, MAX_NEAR_HOPS)
"""The bounds of a neighbourhood's ``hops``."""
LIST_INDEX_MAX: Final = 2**31 - 1
"""The largest index Cypher slices a list at: a larger offset or limit of a query that pages
a list by slicing it (no list is that long) is given as this."""
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(name: str, value: object) -> str:
    """Return ``value`` (the parameter ``name``); raise ParameterError when it is not a str,
    or not valid text: a lone surrogate, which is what Python makes of command-line bytes
    that are not UTF-8, and which no query can carry."""
    if not isinstance(value, str):
        raise ParameterError(f"{name} is {value!r}, not a str", f"pass {name} as a str")
    if not value.isascii() and _LONE_SURROGATE.search(value):
        raise ParameterError(
            f"{name} {value!r} is not valid text: it holds bytes that are not UTF-8",
            "pass UTF-8 text",
        )
    return value
