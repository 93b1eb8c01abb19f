"""Telling an input file's format from its (decompressed) content, never from its name."""

from __future__ import annotations

import json
import re
import tarfile
import zlib
from pathlib import Path
from typing import Any, Literal

from kg.errors import SourceError
from kg.resolve import canonical_arxiv_id
from loaders.edge_list import COLUMN_PAIRS
from loaders.hepth_abs import ABS_SUFFIXES, is_tar
from loaders.source_file import open_binary, read_head

__all__ = ["FORMATS", "Format", "detect_format"]

Format = Literal["page", "pith", "arxiv", "edges", "abs"]
FORMATS: tuple[Format, ...] = ("page", "pith", "arxiv", "edges", "abs")
"""The values ``--format`` accepts, in the order the help lists them."""

_TAR_MEMBERS_CHECKED = 200
_EDGE_LINES_CHECKED = 20
_ARXIV_FIELDS = ("title", "categories", "abstract", "authors")
_PAGE_SIGNATURES = (
    re.compile(r"^.*\d{4}.+cited by [\d,]+\s*$", re.MULTILINE),
    re.compile(r"\bKey facts\."),
    re.compile(r"\barXiv \S+ ↗"),
)
_SEPARATOR = re.compile(r"^-{10,}$")
_FIELDS = re.compile(r"[\s,]+")
_JSON_KEY = re.compile(r'"([^"\\]+)"\s*:')


def _unknown(path: Path, what: str) -> SourceError:
    return SourceError(
        f"{path}: cannot tell its format ({what})",
        "pass --format with one of " + ", ".join(FORMATS),
    )


def _tar_format(path: Path) -> Format:
    """Return "abs" for a tar whose first regular files are ``.abs`` files."""
    try:
        with open_binary(path) as handle, tarfile.open(fileobj=handle, mode="r|*") as archive:
            for _ in range(_TAR_MEMBERS_CHECKED):
                member = archive.next()
                if member is None:
                    break
                if member.isfile():
                    if member.name.endswith(ABS_SUFFIXES):
                        return "abs"
                    raise _unknown(path, f"a tar archive whose member {member.name!r} is not .abs")
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise SourceError(
            f"{path}: cannot read the tar archive ({exc})",
            "check that the file is complete and not corrupt",
        ) from exc
    raise _unknown(path, "a tar archive with no .abs files near its start")


def _json_keys(head: str, first_line: str) -> set[str] | None:
    """Return the top-level keys of the first JSON object, or None if it is not JSON.

    The object is read from its first line (JSON lines), else from the whole head (one
    pretty-printed object); a head cut inside the object falls back to the quoted keys seen.
    """
    for text in (first_line, head):
        try:
            obj: Any = json.JSONDecoder().raw_decode(text.strip())[0]
        except ValueError:
            continue
        return set(obj) if isinstance(obj, dict) else None
    keys = set(_JSON_KEY.findall(head))
    return keys or None


def _is_edge_token(token: str) -> bool:
    return token.isdigit() or canonical_arxiv_id(token) is not None


def _looks_like_edges(lines: list[str]) -> bool:
    """Return True for ``#`` comments and two-id lines, or a CSV header naming the columns."""
    data = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not data:
        return True
    header = [name.strip().strip("\"'").lower() for name in re.split(r"[,\t]", data[0])]
    if any(citing in header and cited in header for citing, cited in COLUMN_PAIRS):
        return True
    for line in data[:_EDGE_LINES_CHECKED]:
        tokens = [token for token in _FIELDS.split(line) if token]
        if len(tokens) != 2 or not all(_is_edge_token(token) for token in tokens):
            return False
    return True


def detect_format(path: Path) -> Format:
    """Return the format of ``path``, judged from its content.

    Raises SourceError when the path is missing, empty, unreadable or of no known format;
    the message lists the values ``--format`` accepts.
    """
    if path.is_dir():
        if any(True for file in path.rglob("*") if file.name.endswith(ABS_SUFFIXES)):
            return "abs"
        raise _unknown(path, "a directory without .abs files")
    if not path.exists():
        raise SourceError(f"{path}: no such file", "check the path")
    if is_tar(path):
        return _tar_format(path)
    head = read_head(path).lstrip("\ufeff")
    if not head.strip():
        raise SourceError(f"{path}: the file is empty", "pass a file that holds data")
    lines = head.splitlines()
    content = [line.strip() for line in lines if line.strip()]
    first = content[0]
    if first.startswith(("{", "[")):
        keys = _json_keys(head, first)
        if keys is not None and {"paper", "source"} <= keys:
            return "pith"
        if keys is not None and "id" in keys and keys & set(_ARXIV_FIELDS):
            return "arxiv"
        raise _unknown(path, "JSON, but neither a paper record nor an arXiv metadata line")
    opening = next((line for line in content if line != "\\\\" and not _SEPARATOR.match(line)), "")
    if opening.startswith("Paper:"):
        return "abs"
    if any(signature.search(head) for signature in _PAGE_SIGNATURES):
        return "page"
    if _looks_like_edges(lines):
        return "edges"
    raise _unknown(path, f"it starts with {first[:60]!r}")
