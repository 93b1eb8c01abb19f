"""The input formats, declared once: each one's name, parser, description and how it is told.

A format's name is the value ``kg load --format`` takes, the value detection returns, and the
``kind`` of the ``Snapshot`` node its files become. The CLI's choice, detection and the
snapshot kinds all read this table, so adding a format is a parser module plus one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from . import arxiv_oai, edge_list, hepth_abs, map_page, paper_json
from .records import FormatName, ParsedItem

__all__ = ["FORMATS", "FormatName", "IdScheme", "SourceFormat", "format_names", "parse_file"]

IdScheme = edge_list.IdScheme
Parser = Callable[[Path, IdScheme], Iterator[ParsedItem]]


@dataclass(frozen=True)
class SourceFormat:
    """One input format."""

    name: FormatName
    parse: Parser
    description: str
    """What the format is, in a few words, for help texts."""
    detection: str
    """What in a file's content makes detection pick it."""


FORMATS: dict[FormatName, SourceFormat] = {
    fmt.name: fmt
    for fmt in (
        SourceFormat(
            "map_page",
            lambda path, _scheme: map_page.parse(path),
            "a map page as text (the paper, key facts, references, citing papers)",
            "a 'Key facts.' line, 'cited by N' lines or an 'arXiv <id> ↗' link",
        ),
        SourceFormat(
            "paper_json",
            lambda path, _scheme: paper_json.parse(path),
            "the map's JSON record of one paper, or JSON lines of them",
            "a JSON object with 'paper' and 'source' keys",
        ),
        SourceFormat(
            "arxiv_oai",
            lambda path, _scheme: arxiv_oai.parse(path),
            "arXiv metadata snapshot as JSON lines (Kaggle's arXiv Dataset, OAI-PMH)",
            "JSON lines with 'id' and one of 'title', 'categories', 'abstract', 'authors'",
        ),
        SourceFormat(
            "edge_list",
            edge_list.parse,
            "citation edge list: SNAP text, CSV or TSV (citing, cited)",
            "lines of two ids, or a header naming the citing and cited columns",
        ),
        SourceFormat(
            "hepth_abs",
            lambda path, _scheme: hepth_abs.parse(path),
            "hep-th .abs abstracts: a folder, a tar, or one file",
            "a 'Paper: <arXiv id>' line, or .abs files in a folder or tar",
        ),
    )
}
if set(FORMATS) != set(get_args(FormatName)):  # pragma: no cover - a wiring mistake
    raise AssertionError("loaders.formats.FORMATS must hold one entry per FormatName")


def format_names() -> tuple[FormatName, ...]:
    """Return the format names in the order the help lists them."""
    return tuple(FORMATS)


def parse_file(path: Path, fmt: FormatName, id_scheme: IdScheme = "arxiv") -> Iterator[ParsedItem]:
    """Return the record stream of one file in the given format."""
    return FORMATS[fmt].parse(path, id_scheme)
