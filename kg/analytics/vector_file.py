"""Vectors a user brings (`kg embed --from FILE`): an embedding dump's vectors, stored on the
papers of the map they name and answered by the same vector index as `kg embed`'s.

The file is read by loaders.vectors (JSON lines or Parquet of id and vector). Each row's
paper is found by its arXiv id, a strong id (DOI, OpenAlex, Semantic Scholar, corpus id) or
its node key; a row that names no paper of the map is counted, not an error. When rows of
a file give one paper different vectors, the one whose vector hashes lowest wins and the
others are rejected, naming the line that won: the file gives the same graph in any order
and however it is batched (a later file replaces what an earlier one stored). The vectors
are stored as `kg embed` stores its own, with the model's name (``--model``, else the
file's ``model`` field, else the file's name) and no text hash: a later `kg embed` treats
them as another model's and embeds those papers again with its own.

One index holds one model's vectors. When the map holds vectors of another model or
another dimension, the load is refused unless ``replace`` is set, which removes them (and
the index, when its dimension differs) first. A search by meaning embeds its query with the
local model, so it needs vectors of that model; brought vectors of another model serve
"more like this" (`kg similar REF --by text`) and the recommendations' text reason.
"""

from __future__ import annotations

import hashlib
import time
from array import array
from collections.abc import Callable, Iterator
from itertools import chain, islice
from pathlib import Path
from typing import Final

from kg import queries
from kg.analytics.embed import ensure_vector_index, index_dimension
from kg.answers import VectorFileReport
from kg.database import Database
from kg.errors import ParameterError
from kg.numbers import COUNT
from loaders.records import Rejected
from loaders.vectors import VectorRow, read_vectors

__all__ = ["SHOWN_REJECTS", "VECTOR_FILE_BATCH", "load_vectors"]

VECTOR_FILE_BATCH: Final = 500  # rows resolved and written per round trip
SHOWN_REJECTS: Final = 100  # rejected rows the report names; the rest are counted


def _vector_hash(vector: list[float]) -> int:
    """Return a 64-bit hash of a vector's values: which of two vectors for one paper wins."""
    digest = hashlib.blake2b(array("d", vector).tobytes(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _first_row(
    items: Iterator[VectorRow | Rejected],
) -> tuple[VectorRow | None, list[Rejected]]:
    """Read up to the first good row: it sets the file's dimension and model."""
    rejected: list[Rejected] = []
    for item in items:
        if isinstance(item, VectorRow):
            return item, rejected
        rejected.append(item)
    return None, rejected


def _make_room(graph: Database, model: str, dimension: int, replace: bool) -> int:
    """Check that the map holds no vectors of another model or dimension; with ``replace``,
    remove them first. Return how many papers' vectors were removed. Raises ParameterError
    when there are such vectors and ``replace`` is not set."""
    others = [row for row in queries.analytics.embedding_models.run(graph) if row["model"] != model]
    held_dimension = index_dimension(graph)
    clash = held_dimension is not None and held_dimension != dimension
    if not others and not clash:
        return 0
    if not replace:
        held = ", ".join(f"{row['papers']:,} of {row['model']}" for row in others)
        what = held or f"a vector index of {held_dimension} dimensions"
        raise ParameterError(
            f"the map holds vectors of another model ({what}); the file's are {model}, "
            f"{dimension} dimensions, and one index holds one model's vectors",
            "pass --replace (replace=True) to remove the others first",
        )
    removed = int(queries.analytics.drop_embeddings.run(graph)[0]["removed"])
    if clash:
        queries.analytics.drop_vector_index.run(graph)
    return removed


class _Tally:
    """What a load has seen so far: the winning row of each paper, the counts and the
    rejects it will report."""

    def __init__(self, early: list[Rejected]) -> None:
        self.winners: dict[str, tuple[int, str]] = {}  # paper key -> (vector hash, row place)
        self.rows = len(early)
        self.written = self.not_in_map = self.rejected = 0
        self.rejects: list[str] = []
        for item in early:
            self.reject(item.message())

    def reject(self, message: str) -> None:
        self.rejected += 1
        if len(self.rejects) < SHOWN_REJECTS:
            self.rejects.append(message)

    def choose(self, item: VectorRow, key: str | None) -> bool:
        """Count a row whose paper is ``key`` (None: not in the map), and return whether its
        vector is to be stored: it is the paper's first, or it hashes lower than the one
        stored (the other row is then rejected)."""
        if key is None:
            self.not_in_map += 1
            return False
        digest = _vector_hash(item.vector)
        held = self.winners.get(key)
        if held is None:
            self.written += 1
        elif held[0] == digest:
            return False  # the same vector again: nothing to choose
        else:
            wins = digest < held[0]
            loser, winner = (held[1], str(item.origin)) if wins else (str(item.origin), held[1])
            self.reject(
                f"{loser}: paper {key} has another vector at {winner}, which wins "
                "(one vector a paper: the one that hashes lowest)"
            )
            if not wins:
                return False
        self.winners[key] = (digest, str(item.origin))
        return True

    def store(self, graph: Database, batch: list[VectorRow | Rejected], model: str) -> None:
        """Resolve a batch's papers, choose, and write the chosen vectors."""
        self.rows += len(batch)
        good = []
        for item in batch:
            if isinstance(item, Rejected):
                self.reject(item.message())
            else:
                good.append(item)
        names = [
            {"row": n, "arxiv_id": v.arxiv_id, "id_key": v.id_key, "key": v.key}
            for n, v in enumerate(good)
        ]
        chosen: dict[str, list[float]] = {}
        for row in queries.analytics.vector_row_papers.run(graph, rows=names):
            item = good[row["row"]]
            if self.choose(item, row["key"]):
                chosen[row["key"]] = item.vector
        if chosen:
            rows = [{"key": k, "hash": None, "vector": v} for k, v in chosen.items()]
            queries.analytics.write_embeddings.run(graph, rows=rows, model=model)


def load_vectors(
    graph: Database,
    path: Path,
    *,
    model: str | None,
    replace: bool,
    batch_size: int,
    on_progress: Callable[[int], None] | None,
) -> VectorFileReport:
    """Store the vectors of a file the user brings on the papers they name, and create the
    vector index for their dimension. ``on_progress(rows)`` is called after each batch.
    Returns a VectorFileReport. Raises SourceError when the file cannot be read,
    ParameterError for a bad batch size or when the map holds another model's vectors and
    ``replace`` is not set."""
    batch_size = COUNT.check("batch_size", batch_size)
    started = time.perf_counter()
    items = read_vectors(path)
    first, early = _first_row(items)
    label = model or (first.model if first is not None else None) or f"vectors of {path.name}"
    tally = _Tally(early)
    dimension = replaced = None
    if first is not None:
        dimension = len(first.vector)
        replaced = _make_room(graph, label, dimension, replace)
        ensure_vector_index(graph, dimension)
        stream = chain([first], items)
        while batch := list(islice(stream, batch_size)):
            tally.store(graph, batch, label)
            if on_progress is not None:
                on_progress(tally.rows)
    return VectorFileReport(
        path=str(path),
        model=label,
        dimension=dimension,
        rows=tally.rows,
        written=tally.written,
        not_in_map=tally.not_in_map,
        rejected=tally.rejected,
        rejects=tally.rejects,
        replaced=replaced or 0,
        seconds=time.perf_counter() - started,
    )
