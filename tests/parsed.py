"""What a parser yielded, sorted by kind: the parsers' tests pick their papers, citations,
rejects and skipped references out of a parse with these (``parsed.papers(items)``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from loaders.records import CitationRecord, PaperRecord, ParsedItem, Rejected, Skipped

T = TypeVar("T")


def of_kind(items: Iterable[ParsedItem], kind: type[T]) -> list[T]:
    """Return the items of one kind, in the order the parser yielded them."""
    return [item for item in items if isinstance(item, kind)]


def papers(items: Iterable[ParsedItem]) -> list[PaperRecord]:
    """Return the paper records."""
    return of_kind(items, PaperRecord)


def citations(items: Iterable[ParsedItem]) -> list[CitationRecord]:
    """Return the citation records."""
    return of_kind(items, CitationRecord)


def rejects(items: Iterable[ParsedItem]) -> list[Rejected]:
    """Return the rejected records."""
    return of_kind(items, Rejected)


def skipped(items: Iterable[ParsedItem]) -> list[Skipped]:
    """Return the references left out on purpose."""
    return of_kind(items, Skipped)
