"""The arXiv category taxonomy, shipped as `loaders/data/arxiv_categories.json`.

The file lists every current category on arxiv.org/category_taxonomy plus the legacy archive
codes (e.g. `alg-geom`, `cmp-lg`) that old arXiv ids and the Kaggle snapshot still carry.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

__all__ = ["Category", "category", "is_category_code", "load_taxonomy"]

_CODE = re.compile(r"^[a-z\-]+(\.[A-Za-z\-]+)?$")


@dataclass(frozen=True)
class Category:
    """One arXiv category; `name` and `group` are None for a code the taxonomy doesn't know."""

    code: str
    name: str | None
    archive: str
    group: str | None
    legacy: bool = False
    alias_of: str | None = None


@cache
def load_taxonomy() -> dict[str, Category]:
    """Return every shipped category keyed by code; the dict is shared, so don't mutate it."""
    text = (files("loaders") / "data" / "arxiv_categories.json").read_text(encoding="utf-8")
    rows: list[dict[str, Any]] = json.loads(text)["categories"]
    return {
        row["code"]: Category(
            code=row["code"],
            name=row["name"],
            archive=row["archive"],
            group=row["group"],
            legacy=row.get("legacy", False),
            alias_of=row.get("alias_of"),
        )
        for row in rows
    }


def is_category_code(text: str) -> bool:
    """Return True if `text` has the shape of an arXiv category code, known or not."""
    return _CODE.fullmatch(text) is not None


def category(code: str) -> Category:
    """Return the category for `code`, with name and group None if the taxonomy lacks it.

    Raises ValueError if `code` isn't shaped like a category code (e.g. `cs.LG`, `hep-th`).
    """
    known = load_taxonomy().get(code)
    if known is not None:
        return known
    if not is_category_code(code):
        raise ValueError(
            f"not an arXiv category code: {code!r} (expected e.g. 'cs.LG' or 'hep-th')"
        )
    return Category(code=code, name=None, archive=code.split(".", 1)[0], group=None)
