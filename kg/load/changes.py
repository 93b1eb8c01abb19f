"""Incremental loads: what a newer snapshot of a source changed since an older one.

``kg load NEW --since OLD`` reads OLD (which must have been loaded whole before) and keeps a
digest of each of its records; NEW's records that OLD states as they are are not written.
The graph then gets only what changed, and a ``(:Snapshot NEW)-[:FOLLOWS {unchanged}]->
(:Snapshot OLD)`` link says that NEW restates OLD's other records, which keep their
provenance (``DESCRIBED_IN``, CITES ``snapshots``) from OLD.

For a format whose records are single lines (an arXiv dump, an edge list: a
``SourceFormat.line_context``), the digests are of OLD's lines, and when both files have the
same context NEW's parser skips every line OLD holds without decoding it, so an
incremental load reads the two files but parses only what changed. For the other formats
the digest is of the parsed record without where it was read (file, line, snapshot). Either
way a record moved to another line is unchanged.

A digest is Python's own 64-bit hash of the line's text or of the record's JSON (SipHash,
computed in C; salted per process, which does no harm, since digests never leave the load
that makes them). They are kept in one sorted numpy array, 8 bytes a record (22 MB for the
2.7M records of the whole arXiv snapshot; twice that while it is sorted). Two different records
share a digest with probability about 2^-64 per pair: about 2 * 10^-7 that any two of 2.7M
collide.
"""

from __future__ import annotations

import hashlib
from array import array
from pathlib import Path

import numpy as np

from loaders.formats import FORMATS, FormatName, IdScheme, LineFilter, parse_file
from loaders.records import CitationRecord, PaperRecord, SnapshotRecord
from loaders.source_file import LongLine, content_sha256, numbered_lines, snapshot_key

__all__ = ["OlderSnapshot", "line_digest", "record_digest"]

_WHERE = {"origin", "snapshot"}


def record_digest(record: PaperRecord | CitationRecord) -> int:
    """Return a record's digest: what it states, not where it was read."""
    return hash(type(record).__pydantic_serializer__.to_json(record, exclude=_WHERE))


def line_digest(text: str) -> int:
    """Return a line's digest."""
    return hash(text)


def _sorted(found: array[int]) -> np.ndarray:
    """The digests sorted in place in one copy (repeats stay: a lookup finds the first), so
    at most two arrays of them are alive at once."""
    digests = np.frombuffer(found, dtype=np.int64).copy()
    digests.sort()
    return digests


class OlderSnapshot:
    """The records of an older snapshot of a source, by digest, and how many of a newer
    snapshot's records it holds as they are (``carried``)."""

    def __init__(self, snapshot: str, digests: np.ndarray, by_line: bool) -> None:
        self.snapshot = snapshot
        """The older snapshot's key."""
        self.by_line = by_line
        """True when the digests are of lines (the newer file's parser skips those)."""
        self.carried = 0
        self._digests = digests

    @classmethod
    def read(cls, older: Path, newer: Path, fmt: FormatName, id_scheme: IdScheme) -> OlderSnapshot:
        """Read the older file ``older`` of ``newer``, both in format ``fmt``.

        Raises SourceError when either cannot be read.
        """
        found = array("q")
        context = FORMATS[fmt].line_context
        if context is not None and context(older) == context(newer):
            content = hashlib.sha256()  # the snapshot's key, from the same read
            # Read as the arXiv parser reads (a byte that is not UTF-8 kept, not replaced), so
            # that two lines with different such bytes never share a digest.
            for number, line in numbered_lines(older, content, errors="surrogateescape"):
                if isinstance(line, LongLine):
                    continue  # rejected, so no line of the newer file is the same
                # the parsers drop a byte-order mark before the first line
                found.append(line_digest(line.lstrip("\ufeff") if number == 1 else line))
            key = snapshot_key(content.hexdigest(), FORMATS[fmt].reading(id_scheme))
            return cls(key, _sorted(found), by_line=True)
        snapshot: str | None = None
        for item in parse_file(older, fmt, id_scheme):
            if isinstance(item, SnapshotRecord):
                snapshot = snapshot or item.key
            elif isinstance(item, PaperRecord | CitationRecord):
                found.append(record_digest(item))
        key = snapshot or snapshot_key(content_sha256(older))
        return cls(key, _sorted(found), by_line=False)

    def _has(self, digest: int) -> bool:
        digests = self._digests
        at = int(digests.searchsorted(digest))
        if at < len(digests) and digests.item(at) == digest:
            self.carried += 1
            return True
        return False

    def line_filter(self) -> LineFilter | None:
        """The newer file's parser's filter: True for a line the older file holds (counted
        in ``carried``); None when the digests are of records."""
        if not self.by_line:
            return None
        return lambda text: self._has(line_digest(text))

    def holds(self, record: PaperRecord | CitationRecord) -> bool:
        """Return True (and count it) when the older snapshot states this record as it is;
        always False when the digests are of lines (the parser skipped those already)."""
        return not self.by_line and self._has(record_digest(record))
