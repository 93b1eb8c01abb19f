"""What a parser yielded, sorted by kind: the parsers' tests pick their papers, citations,
rejects and skipped references out of a parse with these (``parsed.papers(items)``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from loaders.edge_list import CHUNK_EDGES
from loaders.records import (
    CitationRecord,
    EdgeChunk,
    PaperRecord,
    ParsedItem,
    Rejected,
    Skipped,
    SnapshotRecord,
)

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


def records_as_keys(items: Iterable[ParsedItem]) -> list[ParsedItem | tuple[str, str, str]]:
    """Return a record parse's items as ``columns_flattened`` gives a column parse's: each
    citation as ("cites", citing key, cited key), the other items as they are."""
    return [
        ("cites", item.citing.key, item.cited.key) if isinstance(item, CitationRecord) else item
        for item in items
    ]


def columns_flattened(
    items: Iterable[ParsedItem | EdgeChunk],
) -> list[ParsedItem | tuple[str, str, str]]:
    """Return a column parse's items with each chunk's citations as ("cites", citing key,
    cited key) in its place; fails when a chunk is empty, over ``CHUNK_EDGES``, or of
    another snapshot than the one before it."""
    found: list[ParsedItem | tuple[str, str, str]] = []
    snapshot = None
    for item in items:
        if not isinstance(item, EdgeChunk):
            if isinstance(item, SnapshotRecord):
                snapshot = item.key
            found.append(item)
            continue
        assert 0 < len(item) <= CHUNK_EDGES, len(item)
        assert len(item.citing) == len(item.cited)
        assert item.snapshot == snapshot
        found.extend(
            ("cites", citing, cited) for citing, cited in zip(item.citing, item.cited, strict=True)
        )
    return found
