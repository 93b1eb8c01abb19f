"""Text clean-up the parsers run on every field: the same results as ``loaders.titles``'s
functions, computed without a regex pass when the text cannot need one.

Parsing a large dump calls these millions of times, and most fields are plain text with no
LaTeX, so the shortcuts carry most of the load. ``tests/unit/test_parse_speedups.py``
checks each against the function it stands in for.
"""

from __future__ import annotations

from .titles import latex_to_unicode as _latex_to_unicode
from .titles import normalize_name as _normalize_name

__all__ = ["collapse_spaces", "has_latex", "latex_to_unicode", "normalize_name"]


def collapse_spaces(text: str) -> str:
    """Return ``text`` with every run of white space folded to one space, ends stripped.

    Equal to ``loaders.titles.collapse_spaces``: ``str.split()`` and the regex ``\\s`` agree on
    what white space is, for every code point.
    """
    return " ".join(text.split())


def has_latex(text: str) -> bool:
    """Return True when ``text`` holds a backslash, a brace, a tie (``~``) or a double dash,
    the only things ``loaders.titles.latex_to_unicode`` changes or reads."""
    return "\\" in text or "{" in text or "}" in text or "~" in text or "--" in text


def latex_to_unicode(text: str) -> str:
    """Return ``titles.latex_to_unicode(text)``; text without LaTeX comes back as it is."""
    return _latex_to_unicode(text) if has_latex(text) else text


def normalize_name(name: str) -> str:
    """Return ``titles.normalize_name(name)``: for ASCII without LaTeX, which NFKD, the dash
    table, the accent marks and ``latex_to_unicode`` all leave as it is, in one pass each of
    ``replace``, ``lower`` (``casefold`` of ASCII) and the split."""
    if name.isascii() and not has_latex(name):
        return " ".join(name.replace(".", ". ").lower().split())
    return _normalize_name(name)
