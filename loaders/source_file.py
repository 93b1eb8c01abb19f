"""Reading input files: gzip by content, numbered lines, and content hashes for snapshots."""

from __future__ import annotations

import gzip
import hashlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import IO, cast

from kg.errors import SourceError

GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20


def is_gzip(path: Path) -> bool:
    """Return True when the file starts with the gzip magic bytes, whatever its name."""
    try:
        with path.open("rb") as handle:
            return handle.read(2) == GZIP_MAGIC
    except OSError as exc:
        raise SourceError(f"{path}: cannot read it ({exc.strerror})", "check the path") from exc


def open_binary(path: Path) -> IO[bytes]:
    """Return a binary handle on the file's content, decompressing gzip transparently."""
    if is_gzip(path):
        return cast(IO[bytes], gzip.open(path, "rb"))
    return path.open("rb")


def open_text(path: Path) -> io.TextIOWrapper:
    """Return a text handle (UTF-8, undecodable bytes replaced, CRLF kept) on the content."""
    return io.TextIOWrapper(open_binary(path), encoding="utf-8", errors="replace", newline="")


def numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    """Yield (1-based line number, line without its line ending) for every line, streaming."""
    try:
        with open_text(path) as handle:
            for number, line in enumerate(handle, start=1):
                yield number, line.rstrip("\r\n")
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise SourceError(
            f"{path}: cannot read it ({exc})", "check that the file is complete and not corrupt"
        ) from exc


def read_head(path: Path, size: int = 65536) -> str:
    """Return the first ``size`` decompressed bytes as text, for format detection."""
    try:
        with open_binary(path) as handle:
            return handle.read(size).decode("utf-8", errors="replace")
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise SourceError(f"{path}: cannot read it ({exc})", "check the file") from exc


def content_sha256(path: Path) -> str:
    """Return the sha256 hex digest of the file's decompressed content, streaming."""
    digest = hashlib.sha256()
    try:
        with open_binary(path) as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise SourceError(f"{path}: cannot read it ({exc})", "check the file") from exc
    return digest.hexdigest()


def snapshot_key(sha256: str) -> str:
    """Return the Snapshot node key for content with this sha256."""
    return f"sha256:{sha256}"
