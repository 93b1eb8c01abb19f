"""Citation edge lists: SNAP ``CITING<TAB>CITED`` files and CSV/TSV files with a header.

SNAP files have ``#`` comment lines and two ids per line, separated by a tab or spaces.
CSV/TSV files start with a header naming the two columns (``citing,cited``,
``source,target`` or ``from,to``); other columns are ignored. A header further down (files
joined end to end, or a note above the header) is read from its line on: the lines after
it are split as it says. Yields a ``SnapshotRecord``, then one ``CitationRecord`` or
``Rejected`` per data line (``parse_in_columns``: the citations in ``EdgeChunk`` columns).
"""

from __future__ import annotations

import csv
import itertools
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import ValidationError

from .arxiv_oai import validation_reason
from .errors import SourceError, valid_text
from .records import (
    CitationRecord,
    EdgeChunk,
    Origin,
    PaperRef,
    ParsedItem,
    Rejected,
    Skipped,
    SnapshotRecord,
    checked_citation,
)
from .source_file import (
    LineBlock,
    LongLine,
    NumberedLines,
    arxiv_id_and_version,
    content_sha256,
    numbered_blocks,
    numbered_lines,
    snapshot_key,
)
from .titles import canonical_arxiv_id, snap_arxiv_id, snap_digits_ids

__all__ = [
    "COLUMN_PAIRS",
    "SNAP_ARCHIVES",
    "IdScheme",
    "layout",
    "parse",
    "parse_in_columns",
    "reading",
]

IdScheme = Literal["arxiv", "snap-hepth", "snap-hepph"]
SNAP_ARCHIVES: dict[str, str] = {"snap-hepth": "hep-th", "snap-hepph": "hep-ph"}
"""The schemes that read SNAP's integer ids, and the arXiv archive each reads them in."""
COLUMN_PAIRS = (("citing", "cited"), ("source", "target"), ("from", "to"))
"""Header names accepted for the (citing, cited) columns of a CSV/TSV edge list."""

RAW_LIMIT = 500
CHUNK_EDGES = 8_192
"""The most citations an EdgeChunk holds: enough that a chunk's cost is in its edges, few
enough that memory stays flat."""
_CACHED_IDS = 1 << 16
"""How many tokens the parser keeps resolved: edge lists name each paper many times over, and
a bounded cache keeps memory flat however many papers the list names."""
_T = TypeVar("_T")
_FIELDS = re.compile(r"[\s,]+")
_HEADER_WORD = re.compile(r"^[A-Za-z_][\w \-.]*$")


# An id that is its own canonical arXiv id under the arxiv scheme (a new-style one without
# its version, an old-style one with its archive in lower case and no subject class), and a
# SNAP number under the SNAP schemes: a line of two such tokens is read in a run of its
# like, split by one regex match and one str.split (``_EdgeLines._plain_edges``; a SNAP
# number is then zero-filled). tests/unit/test_edge_list.py checks that each resolves to
# that (``_arxiv_id``).
OWN_IDS = {
    "arxiv": r"(?:[0-9]{2}(?:0[1-9]|1[0-2])\.[0-9]{5}"
    r"|(?:0[0-9]|1[0-4])(?:0[1-9]|1[0-2])\.[0-9]{4}|[a-z][a-z-]{0,40}/[0-9]{7})",
    "snap-hepth": "[0-9]{1,7}",
    "snap-hepph": "[0-9]{1,7}",
}


def _run_end(plain: re.Pattern[str] | None, text: str, position: int) -> int:
    """Where the run of lines ``plain`` matches from ``position`` in ``text`` ends (at
    ``position`` when none does, or there is no such pattern)."""
    if plain is None:
        return position
    found = plain.match(text, position)
    return position if found is None else found.end()


_LONG_RUN = 16
"""The fewest plain lines read as a run: a shorter run is read one line at a time with the
lines around it, so a file whose plain lines are few and scattered costs no more than
before."""


_MAX_SKIP = 256
"""The most lines read one by one before a run of plain lines is looked for again."""


class _BlockLines:
    """A block's lines, split once, and where each starts in its text."""

    def __init__(self, text: str, first: int) -> None:
        self.first = first
        self.lines = text[:-1].split("\n")  # the block ends with its last line's LF
        self.end = first + len(self.lines)
        """The number of the line after the block."""
        self._before = list(itertools.accumulate(map(len, self.lines), initial=0))

    def start(self, number: int) -> int:
        """Where line ``number`` starts in the text (its length, for the line after it)."""
        index = number - self.first
        return self._before[index] + index

    def numbered(self, first: int, end: int) -> NumberedLines:
        """Lines ``first`` up to ``end`` (not included), numbered."""
        return zip(
            range(first, end),
            self.lines[first - self.first : end - self.first],
            strict=True,
        )


@lru_cache(maxsize=16)
def _plain_pattern(scheme: IdScheme, separator: str) -> re.Pattern[str]:
    """The pattern of a run of lines of two ``OWN_IDS`` tokens of ``scheme`` and
    ``separator`` between them, each line ending in LF."""
    token = OWN_IDS[scheme]
    return re.compile(f"(?:{token}{separator}{token}\n)*")


class _BadLine(Exception):
    """A line that cannot become a CitationRecord; its message is the Rejected reason."""


@dataclass(frozen=True)
class _Layout:
    """How data lines are split: by white space/commas (``delimiter`` None), or as CSV."""

    header_line: int | None = None
    delimiter: str | None = None
    citing_column: int = 0
    cited_column: int = 1


def _is_data(line: str) -> bool:
    """Return True when a line is neither blank nor a ``#`` comment."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _header(text: str, number: int) -> _Layout | str | None:
    """Return the layout a line names when it is a header naming a citing and a cited
    column; the text of the header when it looks like one (two or more names and no id)
    but names no such pair; None when it is no header (a data line)."""
    delimiter = "\t" if "\t" in text else "," if "," in text else None
    try:
        fields = next(csv.reader([text], delimiter=delimiter)) if delimiter else text.split()
    except csv.Error:
        return None
    names = [name.strip().lower() for name in fields]
    for citing, cited in COLUMN_PAIRS:
        if citing in names and cited in names:
            return _Layout(number, delimiter, names.index(citing), names.index(cited))
    looks_like_header = len(names) >= 2 and all(
        _HEADER_WORD.match(name) and canonical_arxiv_id(name) is None for name in names
    )
    return text.strip()[:100] if looks_like_header else None


def _may_be_header(stripped: str) -> bool:
    """Return False for a line that cannot be a header naming columns, cheaply: most data
    lines start with a digit, and every header names a citing column."""
    if stripped[0].isdigit():
        return False
    lowered = stripped.lower()
    return any(citing in lowered for citing, _ in COLUMN_PAIRS)


_NAME_THEM = "name them 'citing,cited' (or 'source,target', 'from,to')"


def _no_columns(header: str) -> str:
    return f"the header {header!r} names no citing and cited columns"


def _sniff(path: Path) -> _Layout:
    """Return the file's layout, judged from its first data line.

    Raises SourceError when that line is a header that names no known column pair.
    """
    for number, line in numbered_lines(path):
        if isinstance(line, LongLine):
            continue  # rejected when the lines are read
        text = line.lstrip("\ufeff")
        if not _is_data(text):
            continue
        found = _header(text, number)
        if isinstance(found, str):
            raise SourceError(
                f"{path}:{number}: {_no_columns(found)}",
                f"{_NAME_THEM}, or drop the header for a SNAP-style list of "
                "'CITING<TAB>CITED' lines",
            )
        return found or _Layout()
    return _Layout()


def _later_headers(path: Path, first: _Layout) -> bool:
    """Return True when a header naming columns stands below the first data line."""
    for number, line in numbered_lines(path):
        if isinstance(line, LongLine) or number == first.header_line:
            continue
        stripped = line.lstrip("\ufeff").strip()
        if stripped and _may_be_header(stripped) and isinstance(_header(stripped, number), _Layout):
            return True
    return False


def _fields(line: str, layout: _Layout) -> tuple[str, str]:
    """Return the (citing, cited) tokens of a data line; raises _BadLine if they are missing."""
    if layout.header_line is None:
        stripped = line.strip()
        # str.split() splits on the same white space as the regex's \s (checked for every
        # code point in tests/unit/test_parse_speedups.py); only commas need the regex.
        if "," in stripped:
            fields = [field for field in _FIELDS.split(stripped) if field]
        else:
            fields = stripped.split()
        if len(fields) != 2:
            raise _BadLine(
                f"expected two ids 'CITING<TAB>CITED', found {len(fields)} field(s); "
                "fix or delete the line"
            )
        return fields[0], fields[1]
    if layout.delimiter is None:
        fields = line.split()
    elif '"' not in line and "\0" not in line:
        # Without a quote, the csv module splits a one-line record at each delimiter and
        # nowhere else (lines never hold a line break); a reader per line costs far more.
        fields = line.split(layout.delimiter)
    else:
        try:
            fields = next(csv.reader([line], delimiter=layout.delimiter), [])
        except csv.Error as exc:
            raise _BadLine(f"unreadable CSV line ({exc}); fix or delete the line") from None
    needed = max(layout.citing_column, layout.cited_column) + 1
    if len(fields) < needed:
        raise _BadLine(
            f"expected at least {needed} columns as the header on line {layout.header_line} "
            f"says, found {len(fields)}; fix or delete the line"
        )
    return fields[layout.citing_column].strip(), fields[layout.cited_column].strip()


def _arxiv_id(token: str, scheme: IdScheme, role: str) -> str:
    """Return the canonical arXiv id a token names under ``scheme``; raises _BadLine if none."""
    if not token:
        raise _BadLine(f"the {role} id is empty; fill it in or delete the line")
    archive = SNAP_ARCHIVES.get(scheme)
    if archive is not None:
        try:
            return snap_arxiv_id(token, archive)
        except ValueError:
            raise _BadLine(
                f"{role} id {token[:60]!r} is not a SNAP {archive} number "
                "(up to 7 digits, e.g. 9201001); use --id-scheme arxiv for lists of arXiv ids"
            ) from None
    parsed = arxiv_id_and_version(token)  # never raises, however long the version
    if parsed is not None:
        return parsed[0]
    if token.isascii() and token.isdigit():
        raise _BadLine(
            f"{role} id {token[:60]!r} is a bare number, not an arXiv id; if this is SNAP's "
            "cit-HepTh list, load it with --id-scheme snap-hepth, and cit-HepPh's with "
            "--id-scheme snap-hepph"
        )
    raise _BadLine(
        f"{role} id {token[:60]!r} is not an arXiv id; "
        "expected e.g. '2110.03888' or 'hep-th/9901001'"
    )


def _remember(known: dict[str, _T], token: str, found: _T) -> None:
    """Keep a resolved token, forgetting them all first when the cache is full (flat memory)."""
    if len(known) >= _CACHED_IDS:
        known.clear()
    known[token] = found


def layout(path: Path) -> tuple[object, ...]:
    """Return what besides a data line's text decides its edge: whether a header names the
    columns, the delimiter, and the citing and cited columns. A file with a header further
    down has no layout that is the same as another file's (a line's edge then depends on
    where it stands), so an incremental load compares its records, not its lines. Raises
    SourceError as ``parse`` does."""
    found = _sniff(path)
    if _later_headers(path, found):
        return (object(),)  # equal to no other
    return found.header_line is not None, found.delimiter, found.citing_column, found.cited_column


def reading(id_scheme: IdScheme) -> str | None:
    """Return what besides its content makes a file read under ``id_scheme`` a snapshot of
    its own (see ``snapshot_key``): the same integers read as hep-ph ids are other records,
    so a file loaded whole under one scheme is not skipped under the other. snap-hepth keeps
    the plain key every earlier kg wrote for it."""
    return "snap-hepph" if id_scheme == "snap-hepph" else None


def parse(
    path: Path, id_scheme: IdScheme = "arxiv", unchanged: Callable[[str], bool] | None = None
) -> Iterator[ParsedItem]:
    """Yield the snapshot, then one CitationRecord or Rejected per data line.

    Self-citations are facts of the data, not errors: each is yielded as Skipped.
    ``id_scheme="snap-hepth"`` (``"snap-hepph"``) reads integer ids as SNAP hep-th (hep-ph)
    numbers: ``1001`` -> ``hep-th/0001001`` (``hep-ph/0001001``). A header below the first
    data line naming the citing and cited columns is read from its line on; one below it
    naming no such columns is rejected, and so is every data line after it up to the next
    header that does, since which id cites which cannot be told. ``unchanged`` (an
    incremental load) says which lines an older snapshot of the same ``layout`` holds as
    they are: those are not read. Raises SourceError when the file cannot be read or its
    first header names no citing/cited columns.
    """
    snapshot, lines = _opened(path, id_scheme, unchanged)
    yield snapshot
    yield from lines.items()


def parse_in_columns(path: Path, id_scheme: IdScheme = "arxiv") -> Iterator[ParsedItem | EdgeChunk]:
    """``parse`` of a whole file, with the citations as EdgeChunks of up to ``CHUNK_EDGES``
    in their place among the other items (a chunk ends before any other item), and no
    CitationRecord built: for bulk mode's stage, which keeps an edge as its two keys."""
    snapshot, lines = _opened(path, id_scheme, None)
    yield snapshot
    yield from lines.in_columns()


def _opened(
    path: Path, id_scheme: IdScheme, unchanged: Callable[[str], bool] | None
) -> tuple[SnapshotRecord, _EdgeLines]:
    """The file's snapshot and its data lines to read. Raises SourceError as ``parse``."""
    layout = _sniff(path)
    sha256 = content_sha256(path)
    key = snapshot_key(sha256, reading(id_scheme))
    snapshot = SnapshotRecord(key=key, kind="edge_list", source=path.name, sha256=sha256)
    return snapshot, _EdgeLines(path, key, id_scheme, layout, unchanged)


def _quick_tokens(text: str, stripped: str, layout: _Layout) -> tuple[str, str] | None:
    """The (citing, cited) tokens of a common data line, as ``_fields`` finds them: two
    fields split at white space under no header, or a line without quotes under one; None
    for any other line (``_fields`` then reads it, or says what is wrong)."""
    if layout.header_line is None:
        if "," in stripped:
            return None
        fields = stripped.split()
        return (fields[0], fields[1]) if len(fields) == 2 else None
    if layout.delimiter is None:
        fields = text.split()
    elif '"' in text or "\0" in text:
        return None
    else:
        fields = text.split(layout.delimiter)
    if len(fields) <= max(layout.citing_column, layout.cited_column):
        return None
    return fields[layout.citing_column].strip(), fields[layout.cited_column].strip()


def _long_reject(source: str, number: int, line: LongLine) -> Rejected:
    """Return the Rejected of a line over the limit."""
    return Rejected(origin=Origin(path=source, line=number), reason=line.reason(), raw=line.head)


_DATA = object()
"""What ``_EdgeLines._unusual`` returns for a data line: read it as an edge."""
_TAKEN = object()
"""What ``_EdgeLines`` yields for a citation it added to its chunk (``in_columns``)."""


class _EdgeLines:
    """The data lines of one edge list as they are read: the header in force, a header
    naming no columns above them, and the tokens resolved so far."""

    def __init__(
        self,
        path: Path,
        key: str,
        id_scheme: IdScheme,
        layout: _Layout,
        unchanged: Callable[[str], bool] | None,
    ) -> None:
        self.path = path
        self.source = str(path)
        self.origin_path = valid_text(self.source)  # what Origin's validation makes of it
        self.key = key
        self.id_scheme: IdScheme = id_scheme
        self.layout = layout
        self.header = layout.header_line
        self.unknown_header: int | None = None  # the line of a header naming no columns
        self.unchanged = unchanged
        self.known: dict[str, str] = {}
        """The canonical arXiv id of each token resolved so far (``_resolve``)."""
        self.refs: dict[str, PaperRef] = {}
        """The PaperRef of each canonical id a CitationRecord named so far (``_ref``)."""
        self.chunk: EdgeChunk | None = None
        """The citations in columns so far (``in_columns``), else None."""

    def in_columns(self) -> Iterator[ParsedItem | EdgeChunk]:
        """``items``' items, with the citations gathered into EdgeChunks (the file read in
        blocks, ``_block_items``): a chunk is handed over when full, before any other item,
        at the end, and before a SourceError of a file that breaks off. No citation goes
        through a step of this loop but a full chunk."""
        self.chunk = EdgeChunk(self.key)
        items: Iterator[ParsedItem | EdgeChunk] = self._block_items()  # full chunks too
        try:
            for item in items:
                if type(item) is not EdgeChunk and self.chunk:
                    yield self._handover()
                yield item
        except SourceError:
            # The file broke off (a truncated gzip): what it gave before the break still loads
            if self.chunk:
                yield self._handover()
            raise
        if self.chunk:
            yield self._handover()

    def _block_items(self) -> Iterator[ParsedItem | EdgeChunk]:
        """``items``' items for the whole file, read in blocks (``numbered_blocks``): in
        each, the long runs of plain lines (``_plain_lines``) are read at once
        (``_plain_edges``), and the lines between them one by one (``_line_items``)."""
        for piece in numbered_blocks(self.path):
            if isinstance(piece, LineBlock):
                yield from self._block(piece)
            else:
                yield from self._line_items(piece)

    def _block(self, block: LineBlock) -> Iterator[ParsedItem | EdgeChunk]:
        """Yield the items of a block of lines: each run of at least ``_LONG_RUN`` plain
        lines at once, every other line as ``_line_items`` reads it. Lines read one by one
        are looked at for a run less and less often while none starts (every line, then
        every other, up to every ``_MAX_SKIP``th), so a block with few plain lines costs
        about what reading its lines one by one does."""
        text, first = block.text, block.first
        plain = self._plain_lines()
        lines: _BlockLines | None = None  # split once a line is read one by one
        number, position = first, 0
        waiting = first  # the first line read one by one not yet handed over
        skip = 1
        while position < len(text):
            end = _run_end(plain, text, position)
            if text.count("\n", position, end) >= _LONG_RUN:
                if waiting < number:
                    assert lines is not None
                    yield from self._line_items(lines.numbered(waiting, number))
                    waiting = number
                    # a header among them (or one naming no columns) may have changed the
                    # layout: the run is matched again under the one in force
                    plain = self._plain_lines()
                    continue
                run = text[position:end]
                yield from self._plain_edges(run, number)
                number += run.count("\n")
                waiting, position, skip = number, end, 1
                continue
            # A short run, or a line that is not plain: it and the next lines are read one
            # by one, ``skip`` of them (more each time no run starts after them)
            if lines is None:
                lines = _BlockLines(text, first)
            number = min(max(number + skip, number + text.count("\n", position, end)), lines.end)
            position = lines.start(number)
            skip = min(skip * 2, _MAX_SKIP)
        if waiting < number:
            assert lines is not None
            yield from self._line_items(lines.numbered(waiting, number))

    def _plain_lines(self) -> re.Pattern[str] | None:
        """The pattern of a run of plain data lines under the layout in force: two tokens
        that are their own ids (``OWN_IDS``), and nothing else but the separator between
        them; None under a header naming no columns, or one whose citing and cited columns
        are not its first two."""
        if self.unknown_header is not None:
            return None
        layout = self.layout
        if layout.header_line is not None and {layout.citing_column, layout.cited_column} != {
            0,
            1,
        }:
            return None
        separator = "[ \t]+" if layout.delimiter is None else re.escape(layout.delimiter)
        return _plain_pattern(self.id_scheme, separator)

    def _plain_edges(self, run: str, number: int) -> Iterator[ParsedItem | EdgeChunk]:
        """Yield the items of a run of plain lines, the first of them line ``number``: their
        pairs go into the chunk (a full chunk is yielded), a self-citation is its Skipped."""
        tokens = (run.replace(",", " ") if "," in run else run).split()
        citing_tokens, cited_tokens = tokens[0::2], tokens[1::2]
        if self.layout.header_line is not None and self.layout.citing_column == 1:
            citing_tokens, cited_tokens = cited_tokens, citing_tokens
        citing, cited = citing_tokens, cited_tokens  # each token its own id
        archive = SNAP_ARCHIVES.get(self.id_scheme)
        if archive is not None:
            citing = snap_digits_ids(citing_tokens, archive)
            cited = snap_digits_ids(cited_tokens, archive)
        selves = itertools.compress(itertools.count(), map(operator.eq, citing, cited))
        done = 0
        for index in [*selves, len(citing)]:
            while done < index:
                chunk = self.chunk
                assert chunk is not None  # only in_columns reads blocks
                take = min(CHUNK_EDGES - len(chunk), index - done)
                chunk.citing.extend(citing[done : done + take])
                chunk.cited.extend(cited[done : done + take])
                done += take
                if len(chunk) >= CHUNK_EDGES:
                    yield self._handover()
            if index < len(citing):  # a self-citation: _edge says so
                pair = (citing_tokens[index], cited_tokens[index])
                yield self._edge(number + index, "", "", pair)
                done = index + 1

    def _handover(self) -> EdgeChunk:
        """Return the chunk being filled, and start another."""
        chunk, self.chunk = self.chunk, EdgeChunk(self.key)
        assert chunk is not None  # only in_columns hands chunks over
        return chunk

    def _citation(self, number: int, citing: str, cited: str) -> CitationRecord:
        """Return the CitationRecord of line ``number`` between two different canonical
        arXiv ids; raises ValidationError if either is no PaperRef (never, see ``_resolve``).
        In columns, add the pair to the chunk instead and return ``_TAKEN``, or the chunk
        when that fills it (typed as a record: only ``in_columns`` sees either)."""
        chunk = self.chunk
        if chunk is None:
            refs = self.refs
            citing_ref = refs.get(citing) or self._ref(citing)
            cited_ref = refs.get(cited) or self._ref(cited)
            return checked_citation(self.origin_path, number, self.key, citing_ref, cited_ref)
        chunk.citing.append(citing)
        chunk.cited.append(cited)
        if len(chunk.citing) < CHUNK_EDGES:
            return _TAKEN  # type: ignore[return-value]
        return self._handover()  # type: ignore[return-value]

    def _ref(self, arxiv_id: str) -> PaperRef:
        """The PaperRef of a canonical arXiv id, validated once while it stays remembered (a
        PaperRef is immutable: the CitationRecords naming that paper share it)."""
        ref = PaperRef(arxiv_id=arxiv_id)
        _remember(self.refs, arxiv_id, ref)
        return ref

    def items(self) -> Iterator[ParsedItem]:
        """Yield one CitationRecord, Skipped or Rejected per data line (``parse``)."""
        return self._line_items(numbered_lines(self.path))

    def _line_items(self, lines: NumberedLines) -> Iterator[ParsedItem]:
        """Yield what ``items`` yields for ``lines``; in columns (``in_columns``), a full
        EdgeChunk in place of the citations it holds. The common data line, two known ids
        as ``_quick_tokens`` finds them, is read here; any other through ``_unusual`` and
        ``_edge``."""
        unchanged, known_pair, edge = self.unchanged, self._known_pair, self._edge
        header, unknown_header, layout = self.header, self.unknown_header, self.layout
        # A SNAP line (no header in force, none naming no columns, a full read) that starts
        # with a digit is its own text stripped, and splits as _quick_tokens splits it.
        snap = header is None and unknown_header is None and unchanged is None
        for number, line in lines:
            if snap and type(line) is str and line[:1].isdigit() and "," not in line:
                fields = line.split()
                if len(fields) == 2:
                    item = known_pair(number, fields[0], fields[1])
                    if item is None:
                        item = edge(number, line, line, fields)
                else:
                    item = edge(number, line, line, None)
                if item is not _TAKEN:
                    yield item
                continue
            if isinstance(line, LongLine):
                yield _long_reject(self.source, number, line)
                continue
            text = line.lstrip("\ufeff")
            stripped = text.strip()
            if number == header or unknown_header is not None or not stripped[:1].isdigit():
                found = self._unusual(number, line, stripped)
                header, unknown_header, layout = self.header, self.unknown_header, self.layout
                snap = header is None and unknown_header is None and unchanged is None
                if found is not _DATA:
                    if found is not None:
                        yield found  # type: ignore[misc]
                    continue
            if unchanged is not None and unchanged(text):
                continue
            tokens = _quick_tokens(text, stripped, layout)
            item = None if tokens is None else known_pair(number, tokens[0], tokens[1])
            if item is None:
                item = edge(number, line, text, tokens)
            if item is not _TAKEN:
                yield item

    def _known_pair(self, number: int, citing_token: str, cited_token: str) -> ParsedItem | None:
        """Return the citation of line ``number`` when both tokens are known and name two
        papers (``_citation``); else None, for ``_edge`` to read the line in full."""
        known = self.known
        citing = known.get(citing_token)
        cited = known.get(cited_token)
        if citing is None or cited is None or citing == cited:
            return None
        try:
            # The path is as Origin makes it and the line is at least 1: all that validating
            # the record would check but its refs, which _citation validates.
            return self._citation(number, citing, cited)
        except ValidationError:
            return None  # _edge says why

    def _unusual(self, number: int, line: str, stripped: str) -> ParsedItem | object | None:
        """Read a line that may be no plain data line: None for a blank line, a comment or
        the header; a Rejected for a header naming no columns or a line under one; _DATA
        for a data line. A header naming columns is read from its line on."""
        if number == self.header or not stripped or stripped[0] == "#":  # not _is_data
            return None
        if not stripped[0].isdigit() and _may_be_header(stripped):
            found = _header(stripped, number)
            if isinstance(found, _Layout):
                self.layout, self.header, self.unknown_header = found, number, None
                return None
            if isinstance(found, str):
                self.unknown_header = number
                return Rejected(
                    origin=Origin(path=self.source, line=number),
                    reason=f"{_no_columns(found)}, so the lines after it up to a header that "
                    f"names them are rejected too: {_NAME_THEM}",
                    raw=line[:RAW_LIMIT],
                )
        if self.unknown_header is not None:
            return Rejected(
                origin=Origin(path=self.source, line=number),
                reason=f"follows the header on line {self.unknown_header}, which names no "
                f"citing and cited columns, so which id cites which cannot be told: "
                f"{_NAME_THEM} in that header",
                raw=line[:RAW_LIMIT],
            )
        return _DATA

    def _edge(
        self, number: int, line: str, text: str, tokens: tuple[str, str] | list[str] | None
    ) -> ParsedItem:
        """Return the CitationRecord (``_citation``) of a data line, Skipped for a
        self-citation, or a Rejected saying why it is no edge. ``tokens`` are its two ids
        when a quick split found them, else None to split it here."""
        try:
            if tokens is None:
                tokens = _fields(text, self.layout)
            citing = self._resolve(tokens[0], "citing")
            cited = self._resolve(tokens[1], "cited")
            if citing == cited:
                return Skipped(
                    origin=Origin(path=self.source, line=number),
                    kind="self-citation",
                    detail=f"{citing} cites itself",
                )
            return self._citation(number, citing, cited)
        except _BadLine as exc:
            reason = str(exc)
        except ValidationError as exc:  # the citing paper's, then the cited paper's
            reason = f"invalid edge: {validation_reason(exc)}"
        return Rejected(
            origin=Origin(path=self.source, line=number), reason=reason, raw=line[:RAW_LIMIT]
        )

    def _resolve(self, token: str, role: str) -> str:
        """The canonical arXiv id a token names (``_arxiv_id``), remembered. Raises _BadLine
        as ``_arxiv_id`` does. Each id it gives is a valid PaperRef's (a SNAP number's
        ``hep-th/NNNNNNN``, or what ``parse_arxiv_id`` makes of a token, which it reads back
        as itself: tests/unit/test_edge_list.py), so the columns take it unchecked."""
        found = self.known.get(token)
        if found is None:
            found = _arxiv_id(token, self.id_scheme, role)
            _remember(self.known, token, found)
        return found
