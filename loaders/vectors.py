"""Vectors a user brings: one paper's id and its embedding a row, from JSON lines or Parquet.

An embedding dump (Semantic Scholar's ``embeddings-specter_v2`` rows, or any file of id and
vector) gives each paper a vector computed elsewhere. Each row names its paper by one id
field and holds a ``vector``:

- ``arxiv_id`` (or ``arxiv``): an arXiv id in any spelling;
- ``corpusid`` (or ``corpus_id``): a Semantic Scholar corpus id; ``paperId``: an S2 paper id;
  ``doi``; ``openalex`` (or ``openalex_id``): an OpenAlex work id;
- ``id`` (or ``key``): any of those as users write a REF (``doi:10.1/x``, ``W2741809807``,
  ``CorpusId:123``, ``hep-th/9906064``), or a node key of the map.

``vector`` is a list of numbers, or that list written as a JSON string (as S2's dump does).
A row may state its ``model``. Every vector of a file must have one length: the one most
of its first rows have. A row that does
not parse, names no id, or holds a vector that is empty, of another length, or not all finite
numbers becomes a ``Rejected`` with its file and line (its row, for Parquet); the rest load.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, islice
from pathlib import Path
from typing import Any, Final, Literal

from .errors import SourceError
from .ids import IdKind, id_key, normal_id, read_id
from .records import Origin, Rejected
from .source_file import LongLine, numbered_lines
from .titles import canonical_arxiv_id

__all__ = ["DIMENSION_SAMPLE", "MAX_DIMENSION", "VectorRow", "read_vectors"]

MAX_DIMENSION: Final = 4096
"""The longest vector read (Neo4j's vector index takes up to 4,096 dimensions)."""
DIMENSION_SAMPLE: Final = 1000
"""The rows read before the file's dimension is decided, by the lengths most of them have."""

# The id fields a row may name its paper by, in the order they are tried, with the kind of
# id each holds ("ref": any REF or node key).
_ID_FIELDS: Final[tuple[tuple[str, IdKind | Literal["arxiv", "ref"]], ...]] = (
    ("arxiv_id", "arxiv"),
    ("arxiv", "arxiv"),
    ("corpusid", "corpus"),
    ("corpus_id", "corpus"),
    ("paperId", "s2"),
    ("doi", "doi"),
    ("openalex", "openalex"),
    ("openalex_id", "openalex"),
    ("id", "ref"),
    ("key", "ref"),
)


@dataclass(frozen=True, slots=True)
class VectorRow:
    """One paper's brought vector: where it was, how the map may know the paper (its arXiv
    id, a strong id's key, or the text as a node key), the model it states, and the vector."""

    origin: Origin
    arxiv_id: str | None
    id_key: str | None
    key: str | None
    model: str | None
    vector: list[float]


def _paper_names(row: Mapping[str, Any]) -> tuple[str | None, str | None, str | None] | None:
    """Return (arXiv id, strong id key, node key) for the first id field the row has, or
    None when it has none that reads as an id."""
    for field, kind in _ID_FIELDS:
        value = row.get(field)
        if value is None or isinstance(value, bool) or not isinstance(value, str | int):
            continue
        text = str(value).strip()
        if kind == "arxiv":
            arxiv_id = canonical_arxiv_id(text)
            return (arxiv_id, None, None) if arxiv_id else None
        if kind == "ref":
            arxiv_id = canonical_arxiv_id(text)
            if arxiv_id:
                return arxiv_id, None, None
            strong = read_id(text)
            return (None, id_key(*strong), None) if strong else (None, None, text)
        normal = normal_id(kind, text)
        return (None, id_key(kind, normal), None) if normal else None
    return None


def _vector(value: object) -> list[float] | str:
    """Return the vector as floats, or the reason it is none."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return "its vector is a string that is not a JSON list of numbers"
    if not isinstance(value, list | tuple) or not value:
        return "it has no vector: give `vector` as a non-empty list of numbers"
    if len(value) > MAX_DIMENSION:
        return f"its vector has {len(value):,} numbers, over the index's {MAX_DIMENSION:,}"
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in value):
        return "its vector holds something that is not a number"
    floats = [float(x) for x in value]
    if not all(math.isfinite(x) for x in floats):
        return "its vector holds NaN or an infinity"
    if not any(floats):
        return "its vector is all zeros, which has no direction to compare by"
    return floats


def _item(origin: Origin, row: object, raw: str) -> VectorRow | Rejected:
    """Return the row as a VectorRow, or why it is rejected."""
    if not isinstance(row, dict):
        return Rejected(origin=origin, reason="the line is not a JSON object", raw=raw[:200])
    names = _paper_names(row)
    if names is None:
        fields = ", ".join(field for field, _ in _ID_FIELDS)
        reason = f"it names no paper: give one of {fields}"
        return Rejected(origin=origin, reason=reason, raw=raw[:200])
    vector = _vector(row.get("vector"))
    if isinstance(vector, str):
        return Rejected(origin=origin, reason=vector, raw=raw[:200])
    model = row.get("model")
    return VectorRow(
        origin=origin,
        arxiv_id=names[0],
        id_key=names[1],
        key=names[2],
        model=model.strip() or None if isinstance(model, str) else None,
        vector=vector,
    )


def _json_lines(path: Path) -> Iterator[VectorRow | Rejected]:
    for number, line in numbered_lines(path):
        origin = Origin(path=str(path), line=number)
        if isinstance(line, LongLine):
            yield Rejected(origin=origin, reason="the line is too long to be one vector")
            continue
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            reason = f"the line is not JSON ({exc.msg}, column {exc.colno})"
            yield Rejected(origin=origin, reason=reason, raw=line[:200])
            continue
        except (ValueError, RecursionError):  # a number too long, or nesting too deep
            reason = "the line is not JSON this reader can take (too deep or too long a number)"
            yield Rejected(origin=origin, reason=reason, raw=line[:200])
            continue
        yield _item(origin, row, line)


def _parquet(path: Path) -> Iterator[VectorRow | Rejected]:
    import pyarrow.parquet as pq  # only when a Parquet file is read: pyarrow is slow to import

    try:
        table = pq.ParquetFile(path)
        number = 0
        for batch in table.iter_batches(batch_size=1024):
            for row in batch.to_pylist():
                number += 1
                yield _item(Origin(path=str(path), line=number), row, "")
    except (OSError, ValueError) as exc:  # pyarrow's errors derive from these
        raise SourceError(
            f"{path}: not a Parquet file pyarrow can read ({exc})",
            "give a Parquet file of id and vector columns, or JSON lines",
        ) from exc


def read_vectors(path: Path) -> Iterator[VectorRow | Rejected]:
    """Yield each row of a vector file (JSON lines, gzipped or not, or Parquet by its
    ``.parquet`` ending) as a VectorRow, or a Rejected saying why, streaming. The file's
    dimension is the length most of its first DIMENSION_SAMPLE good rows have (the first
    of them on a tie), so a stray row at its head does not decide it; rows of another
    length are rejected. Raises SourceError when the file cannot be read at all."""
    if not path.is_file():
        raise SourceError(f"{path}: no such file", "give the path of a vector file")
    rows = _parquet(path) if path.suffix.lower() == ".parquet" else _json_lines(path)
    head = list(islice(rows, DIMENSION_SAMPLE))
    lengths = Counter(len(item.vector) for item in head if isinstance(item, VectorRow))
    if not lengths:
        yield from head
        return
    dimension = max(lengths, key=lambda length: lengths[length])  # the first on a tie
    for item in chain(head, rows):
        if isinstance(item, VectorRow) and len(item.vector) != dimension:
            reason = (
                f"its vector has {len(item.vector)} numbers where the file's have "
                f"{dimension}: one file holds one model's vectors"
            )
            yield Rejected(origin=item.origin, reason=reason)
            continue
        yield item
