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

from . import (
    arxiv_oai,
    crossref,
    edge_list,
    hepth_abs,
    map_page,
    openalex,
    paper_json,
    semantic_scholar,
    unarxive,
)
from .records import EdgeChunk, FormatName, ParsedItem, SnapshotRecord, StagedBlock
from .source_file import BlockStage

__all__ = [
    "FORMATS",
    "FormatName",
    "IdScheme",
    "LineFilter",
    "SourceFormat",
    "format_names",
    "parse_file",
    "parse_in_columns",
]

IdScheme = edge_list.IdScheme
LineFilter = Callable[[str], bool]
"""Which lines of a file an older snapshot holds as they are (an incremental load)."""
Parser = Callable[[Path, IdScheme, LineFilter | None], Iterator[ParsedItem]]
ColumnParser = Callable[[Path, IdScheme], Iterator[ParsedItem | EdgeChunk]]
BlockParser = Callable[[Path, BlockStage], Iterator[SnapshotRecord | StagedBlock]]


def _by_path(parse: Callable[[Path], Iterator[ParsedItem]]) -> Parser:
    """The Parser of a format whose records depend on the file alone."""
    return lambda path, _scheme, _unchanged: parse(path)


def _by_lines(parse: Callable[[Path, LineFilter | None], Iterator[ParsedItem]]) -> Parser:
    """The Parser of a format of one record a line, which skips the ``unchanged`` lines."""
    return lambda path, _scheme, unchanged: parse(path, unchanged)


@dataclass(frozen=True)
class SourceFormat:
    """One input format."""

    name: FormatName
    parse: Parser
    description: str
    """What the format is, in a few words, for help texts."""
    detection: str
    """What in a file's content makes detection pick it."""
    line_context: Callable[[Path], object] | None = None
    """For a format whose records are single lines: what besides a line's text decides its
    record (an edge list's layout). Two files whose contexts are equal state the same record
    with the same line, so an incremental load compares their lines, and the parser skips
    those its LineFilter names. None for other formats."""
    reading: Callable[[IdScheme], str | None] = lambda _scheme: None
    """What besides a file's content names its snapshot (``snapshot_key``) when read under an
    id scheme; None where the scheme changes nothing of its records."""
    in_columns: ColumnParser | None = None
    """For a format that can give its citations as EdgeChunks: its parser that does."""
    in_blocks: BlockParser | None = None
    """For a format whose lines are independent records: its parser that hands the lines
    to a BlockStage a block at a time (``loaders.arxiv_oai.parse_in_blocks``)."""


FORMATS: dict[FormatName, SourceFormat] = {
    fmt.name: fmt
    for fmt in (
        SourceFormat(
            "map_page",
            _by_path(map_page.parse),
            "a map page as text (the paper, key facts, references, citing papers)",
            "a 'Key facts.' line, 'cited by N' lines or an 'arXiv <id> ↗' link",
        ),
        SourceFormat(
            "paper_json",
            _by_path(paper_json.parse),
            "the map's JSON record of one paper, or JSON lines of them",
            "a JSON object with 'paper' and 'source' keys",
        ),
        SourceFormat(
            "arxiv_oai",
            _by_lines(arxiv_oai.parse),
            "arXiv metadata snapshot as JSON lines (Kaggle's arXiv Dataset, OAI-PMH)",
            "JSON lines with 'id' and one of 'title', 'categories', 'abstract', 'authors'",
            line_context=lambda _path: None,
            in_blocks=arxiv_oai.parse_in_blocks,
        ),
        SourceFormat(
            "edge_list",
            edge_list.parse,
            "citation edge list: SNAP text, CSV or TSV (citing, cited)",
            "lines of two ids, or a header naming the citing and cited columns",
            line_context=edge_list.layout,
            reading=edge_list.reading,
            in_columns=edge_list.parse_in_columns,
        ),
        SourceFormat(
            "hepth_abs",
            _by_path(hepth_abs.parse),
            "hep-th .abs abstracts: a folder, a tar, or one file",
            "a 'Paper: <arXiv id>' line, or .abs files in a folder or tar",
        ),
        SourceFormat(
            "openalex",
            _by_path(openalex.parse),
            "OpenAlex works: snapshot JSON lines (gzipped too), API result pages or one work",
            "an 'id' that is an openalex.org W URL, 'referenced_works', 'authorships' or "
            "'abstract_inverted_index' keys, or a 'meta' and 'results' page",
        ),
        SourceFormat(
            "crossref",
            _by_path(crossref.parse),
            "Crossref REST works: JSON lines, the API's envelope or list page, or one work",
            "a 'DOI' with 'reference', 'is-referenced-by-count' or 'container-title', or a "
            "'status', 'message-type' and 'message' envelope",
        ),
        SourceFormat(
            "semantic_scholar",
            _by_lines(semantic_scholar.parse),
            "Semantic Scholar: Graph API paper objects (JSON lines, a 'data' page, one object) "
            "or the datasets' papers, abstracts and citations lines",
            "JSON with 'paperId' or 'externalIds' (or a 'data' page of them), or lines with "
            "'corpusid' or 'citingcorpusid'",
            line_context=semantic_scholar.line_context,
        ),
        SourceFormat(
            "unarxive",
            _by_lines(unarxive.parse),
            "unarXive: arXiv papers with their metadata and matched bib entries, as JSON lines",
            "JSON lines with 'metadata' and 'bib_entries' (or 'paper_id')",
            line_context=lambda _path: None,
        ),
    )
}
if set(FORMATS) != set(get_args(FormatName)):  # pragma: no cover - a wiring mistake
    raise AssertionError("loaders.formats.FORMATS must hold one entry per FormatName")


def format_names() -> tuple[FormatName, ...]:
    """Return the format names in the order the help lists them."""
    return tuple(FORMATS)


def parse_file(
    path: Path,
    fmt: FormatName,
    id_scheme: IdScheme = "arxiv",
    unchanged: LineFilter | None = None,
) -> Iterator[ParsedItem]:
    """Return the record stream of one file in the given format; ``unchanged`` lines (for a
    format with a ``line_context``) are skipped."""
    return FORMATS[fmt].parse(path, id_scheme, unchanged)


def parse_in_columns(
    path: Path, fmt: FormatName, id_scheme: IdScheme = "arxiv", stage: BlockStage | None = None
) -> Iterator[ParsedItem | EdgeChunk | StagedBlock]:
    """``parse_file`` of a whole file, the citations as EdgeChunks where the format can give
    them so (``SourceFormat.in_columns``); with a ``stage``, the lines of a format of
    independent lines as the StagedBlocks ``stage`` makes of them (``SourceFormat.in_blocks``).
    """
    source = FORMATS[fmt]
    if stage is not None and source.in_blocks is not None:
        return source.in_blocks(path, stage)
    if source.in_columns is not None:
        return source.in_columns(path, id_scheme)
    return source.parse(path, id_scheme, None)
