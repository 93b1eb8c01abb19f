"""Telling an input file's format from its (decompressed) content, never from its name."""

from __future__ import annotations

import json
import re
import tarfile
from pathlib import Path
from typing import Any

from .edge_list import COLUMN_PAIRS
from .errors import SourceError
from .formats import format_names
from .hepth_abs import ABS_SUFFIXES, is_tar
from .ids import normal_id
from .records import FormatName
from .source_file import READ_ERRORS, arxiv_id_and_version, open_binary, read_error, read_head

__all__ = ["detect_format"]

_TAR_MEMBERS_CHECKED = 200
_LINES_CHECKED = 20
_ARXIV_FIELDS = ("title", "categories", "abstract", "authors")
_OPENALEX_KEYS = frozenset({"referenced_works", "authorships", "abstract_inverted_index"})
_CROSSREF_KEYS = frozenset({"reference", "is-referenced-by-count", "container-title", "message"})
_ID_VALUE = re.compile(r'"id"\s*:\s*("(?:[^"\\]){0,200}"|-?[0-9][0-9.eE+-]{0,40})')
_VERSION = re.compile(r"v[0-9]+$")
_S2_FIELDS = frozenset(
    {"paperId", "externalIds", "corpusid", "citingcorpusid", "citingPaper", "citedPaper"}
)
"""Keys of a Semantic Scholar paper object, a citations page's item or an S2 dataset line."""
_PAGE_SIGNATURES = (
    re.compile(r"^.*\d{4}.+cited by [\d,]+\s*$", re.MULTILINE),
    re.compile(r"\bKey facts\."),
    re.compile(r"\barXiv \S+ ↗"),
)
_SEPARATOR = re.compile(r"^-{10,}$")
_FIELDS = re.compile(r"[\s,]+")
_JSON_KEY = re.compile(r'"([^"\\]{1,100})"\s*:')
_PAPER_LINE = re.compile(r"^Paper:\s*(\S+)")
_WIDE_MARKS = {
    # UTF-32 first: its little-endian mark starts with UTF-16's (FF FE).
    b"\xff\xfe\x00\x00": ("UTF-32", "little-endian, byte order mark FF FE 00 00"),
    b"\x00\x00\xfe\xff": ("UTF-32", "big-endian, byte order mark 00 00 FE FF"),
    b"\xff\xfe": ("UTF-16", "little-endian, byte order mark FF FE"),
    b"\xfe\xff": ("UTF-16", "big-endian, byte order mark FE FF"),
}


def _unknown(path: Path, what: str) -> SourceError:
    return SourceError(
        f"{path}: cannot tell its format ({what})",
        "pass --format with one of " + ", ".join(format_names()),
    )


def _tar_format(path: Path) -> FormatName:
    """Return "hepth_abs" for a tar whose first regular files are ``.abs`` files."""
    try:
        with open_binary(path) as handle, tarfile.open(fileobj=handle, mode="r|*") as archive:
            for _ in range(_TAR_MEMBERS_CHECKED):
                member = archive.next()
                if member is None:
                    break
                if member.isfile():
                    if member.name.endswith(ABS_SUFFIXES):
                        return "hepth_abs"
                    raise _unknown(path, f"a tar archive whose member {member.name!r} is not .abs")
    except (tarfile.TarError, *READ_ERRORS) as exc:
        raise read_error(
            path, exc, "check that the file is complete and not corrupt", "the tar archive"
        ) from exc
    raise _unknown(path, "a tar archive with no .abs files near its start")


def _refuse_wide_text(path: Path) -> None:
    """Raise SourceError for text saved as UTF-32 or UTF-16 (it starts with a byte order
    mark: FF FE 00 00 or 00 00 FE FF, FF FE or FE FF): read as UTF-8 it is garbage, and
    every format reads UTF-8. The message names the iconv command that converts it."""
    try:
        with open_binary(path) as handle:
            head = handle.read(4)
    except READ_ERRORS as exc:
        raise read_error(path, exc) from exc
    for mark, (encoding, described) in _WIDE_MARKS.items():
        if head.startswith(mark):
            raise SourceError(
                f"{path}: the file is {encoding} text ({described}), not UTF-8",
                f"save it as UTF-8 (e.g. iconv -f {encoding} -t UTF-8 FILE > NEW) and load that",
            )


def _decode_object(text: str) -> Any:
    """Return the JSON value at the start of ``text``, or None if it is not JSON.

    JSON nested too deep to decode counts as not JSON, so detection never overflows the
    stack.
    """
    try:
        return json.JSONDecoder().raw_decode(text.strip())[0]
    except (ValueError, RecursionError):
        return None


def _keys(obj: dict[str, Any]) -> set[str]:
    """Return the top-level keys of a JSON object, and for a page of records (a 'data'
    array) those of its first record too."""
    keys = set(obj)
    data = obj.get("data")
    if isinstance(data, list) and data and isinstance(data[0], dict):
        keys |= set(data[0])
    return keys


def _json_object(head: str, first_line: str) -> dict[str, Any] | None:
    """Return a JSON object read whole, or None if it is not one.

    The object is read from its first line (JSON lines), else from the whole head (one
    pretty-printed object).
    """
    for text in (first_line, head):
        obj = _decode_object(text)
        if obj is not None:
            return obj if isinstance(obj, dict) else None
    return None


def _arxiv_like(value: object) -> bool:
    """Return True for an ``id`` an arXiv metadata line may hold: an arXiv id (whatever its
    version), or a number (an id that lost its quotes, which the parser explains)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return True
    if not isinstance(value, str):
        return False
    return arxiv_id_and_version(_VERSION.sub("", value.strip())) is not None


def _json_format(keys: set[str], id_value: object = None) -> FormatName | None:
    """Return the format of a JSON object by its top-level keys and its ``id``, else None."""
    if {"paper", "source"} <= keys:
        return "paper_json"
    if (
        (isinstance(id_value, str) and normal_id("openalex", id_value) is not None)
        or keys & _OPENALEX_KEYS
        or {"meta", "results"} <= keys
    ):
        return "openalex"
    if ("DOI" in keys and keys & _CROSSREF_KEYS) or {"message-type", "message"} <= keys:
        return "crossref"
    if "metadata" in keys and keys & {"bib_entries", "paper_id"}:
        return "unarxive"
    if keys & _S2_FIELDS:
        return "semantic_scholar"
    if "id" in keys and keys & set(_ARXIV_FIELDS) and _arxiv_like(id_value):
        return "arxiv_oai"
    return None


def _object_format(obj: dict[str, Any]) -> FormatName | None:
    """``_json_format`` of a decoded JSON object."""
    return _json_format(_keys(obj), obj.get("id"))


def _head_id(head: str) -> object:
    """Return the first ``id`` value a JSON text too long to decode states, or None."""
    match = _ID_VALUE.search(head)
    return _decode_object(match.group(1)) if match else None


def _is_edge_token(token: str) -> bool:
    return (token.isascii() and token.isdigit()) or arxiv_id_and_version(token) is not None


def _is_edge_header(line: str) -> bool:
    header = [name.strip().strip("\"'").lower() for name in re.split(r"[,\t]", line)]
    return any(citing in header and cited in header for citing, cited in COLUMN_PAIRS)


def _line_vote(line: str) -> FormatName | None:
    """Return the format one line of a line-per-record file belongs to, or None."""
    if line.startswith("{"):
        obj = _decode_object(line)
        return _object_format(obj) if isinstance(obj, dict) else None
    tokens = [token for token in _FIELDS.split(line) if token]
    if len(tokens) == 2 and all(_is_edge_token(token) for token in tokens):
        return "edge_list"
    return None


def _vote(content: list[str]) -> FormatName | None:
    """Return the format most of the first lines belong to, or None when none is clear.

    Each of the first ``_LINES_CHECKED`` lines (``#`` comments left out) votes for the
    format it looks like, so one garbage line does not hide the rest. A CSV header naming
    the citing and cited columns makes it an edge list. Else the winner needs at
    least as many votes as there are lines that look like nothing; a tie between formats
    goes to the one seen first.
    """
    data = [line for line in content if not line.startswith("#")][:_LINES_CHECKED]
    if not data:
        return "edge_list" if content else None  # only comments: an empty SNAP list
    if any(_is_edge_header(line) for line in data):
        return "edge_list"  # a CSV/TSV header naming the citing and cited columns
    votes: dict[FormatName, int] = {}
    unknown = 0
    for line in data:
        vote = _line_vote(line)
        if vote is None:
            unknown += 1
        else:
            votes[vote] = votes.get(vote, 0) + 1
    if not votes:
        return None
    best = max(votes, key=lambda fmt: votes[fmt])  # dicts keep first-seen order for ties
    return best if votes[best] >= unknown else None


def _abs_opening(content: list[str]) -> bool:
    """Return True when a ``Paper: <arXiv id>`` line opens one of the first records."""
    opening = next((line for line in content if line != "\\\\" and not _SEPARATOR.match(line)), "")
    if opening.startswith("Paper:"):
        return True
    for line in content[:_LINES_CHECKED]:
        match = _PAPER_LINE.match(line)
        if match and arxiv_id_and_version(match[1]) is not None:
            return True
    return False


def detect_format(path: Path) -> FormatName:
    """Return the format of ``path``, judged from its content.

    Several lines are looked at, so one garbage line near the top does not hide the format.
    Raises SourceError when the path is missing, empty, unreadable or of no known format;
    the message lists the values ``--format`` accepts.
    """
    if path.is_dir():
        if any(True for file in path.rglob("*") if file.name.endswith(ABS_SUFFIXES)):
            return "hepth_abs"
        raise _unknown(path, "a directory without .abs files")
    if not path.exists():
        raise SourceError(f"{path}: no such file", "check the path")
    if is_tar(path):
        return _tar_format(path)
    _refuse_wide_text(path)
    head = read_head(path).lstrip("\ufeff")
    content = [line.strip().lstrip("\ufeff").strip() for line in head.splitlines()]
    content = [line for line in content if line]
    if not content:
        raise SourceError(f"{path}: the file is empty", "pass a file that holds data")
    first = content[0]
    is_json = first.startswith(("{", "["))
    if is_json:
        obj = _json_object(head, first)
        found = _object_format(obj) if obj is not None else None
        if found is not None:
            return found
    if not is_json and _abs_opening(content):
        return "hepth_abs"
    if not is_json and any(signature.search(head) for signature in _PAGE_SIGNATURES):
        return "map_page"
    voted = _vote(content)
    if voted is not None:
        return voted
    if is_json:
        # one object longer than the head: judge by the quoted keys seen so far
        found = _json_format(set(_JSON_KEY.findall(head)), _head_id(head))
        if found is not None:
            return found
        raise _unknown(path, "JSON, but neither a paper record nor an arXiv metadata line")
    raise _unknown(path, f"it starts with {first[:60]!r}")
