"""The measurements behind three choices of search by meaning, on cit-HepTh embedded whole:
the model's batch size, building the vector index whole after a big run, and the hybrid
ranking's parameters.

Run: python -m tests.bench.embed_choices [--texts 400] [--refill] [--seed 37]

Uses NEO4J_* when set, else the local server of KG_HOME, holding cit-HepTh with every
titled paper embedded (`kg embed`). It prints:
- texts per second of the model at batch sizes 8, 16 and 32, over ``--texts`` random
  papers' texts (title and abstract, as `kg embed` embeds them) sorted by length;
- the vector index query alone (the 10 and the 100 nearest of one query, 40 runs each),
  p50 and p95: with ``--refill``, first after every stored vector was written again in
  batches of 8 as `kg embed` writes them, then after the index was built again whole (and
  how long that took); without it, the index as it is;
- paper in the top 10, for the first paraphrase set and for 100 random papers' abstracts
  minus their first sentence, by meaning alone and for a grid of hybrid parameters (c: the
  share of the best similarity a paper needs to compete, w: the importance weight, a: the
  title-relevance weight), reranking each query's 200 nearest papers and 200 title matches.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from kg.analytics.embed import MiniLM, default_embedder, ensure_vector_index, paper_text
from kg.answers import SearchHit
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.questions import retrievers
from kg.refs import first_words
from kg.text import search_words
from tests.bench.common import percentiles
from tests.bench.embed import PARAPHRASES, _split

Ranking = Callable[[list[SearchHit], list[SearchHit]], list[str]]
GRID = [(0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.75, 1.0, 0.0), (0.8, 0.5, 0.0), (0.8, 1.0, 0.1),
        (0.8, 1.0, 0.5), (0.85, 1.0, 0.0), (0.9, 1.0, 0.0)]  # fmt: skip


def batch_sizes(kg: KnowledgeGraph, count: int, rng: random.Random) -> list[str]:
    """Texts per second of a fresh model at each batch size."""
    rows = kg.read(
        "MATCH (p:Paper) WHERE p.title IS NOT NULL "
        "RETURN p.title AS title, coalesce(p.abstract, p.abstract_excerpt) AS abstract "
        "ORDER BY p.key"
    )
    texts = sorted(
        (paper_text(row["title"], row["abstract"]) for row in rng.sample(rows, count)), key=len
    )
    model = MiniLM()
    model.embed(["warm up"])
    lines = []
    for size in (8, 16, 32):
        started = time.perf_counter()
        for start in range(0, len(texts), size):
            model.embed(texts[start : start + size])
        rate = len(texts) / (time.perf_counter() - started)
        lines.append(f"batches of {size}: {rate:.1f} texts/s over {len(texts)} texts")
    return lines


def _index_query(graph: Database, vector: Sequence[float]) -> list[str]:
    lines = []
    for nearest in (10, 100):
        statement = (
            "CALL db.index.vector.queryNodes('paper_embedding', $k, $v) "
            "YIELD node, score RETURN node.key AS k, score"
        )
        for _ in range(5):
            graph.read(statement, {"k": nearest, "v": vector})
        samples = []
        for _ in range(40):
            started = time.perf_counter()
            graph.read(statement, {"k": nearest, "v": vector})
            samples.append(time.perf_counter() - started)
        p50, p95, _ = percentiles(samples)
        lines.append(f"  the {nearest} nearest: p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    return lines


def index_builds(kg: KnowledgeGraph, refill: bool) -> list[str]:
    """The index query's latency as kg embed leaves it, and built again whole."""
    vector = retrievers.query_vector(
        default_embedder(), "gravity localised on a brane in an infinite extra dimension"
    )
    lines = []
    if refill:
        started = time.perf_counter()
        keys = [
            row["key"]
            for row in kg.read("MATCH (p:Paper) WHERE p.embedding IS NOT NULL RETURN p.key AS key")
        ]
        for start in range(0, len(keys), 8):
            kg.write(
                "UNWIND $keys AS key MATCH (p:Paper {key: key}) "
                "CALL db.create.setNodeVectorProperty(p, 'embedding', p.embedding)",
                {"keys": keys[start : start + 8]},
            )
        lines.append(
            f"every vector written again in batches of 8: {time.perf_counter() - started:.1f}s"
        )
        lines.append("the index filled a batch at a time:")
        lines.extend(_index_query(kg, vector))
        started = time.perf_counter()
        kg.write("DROP INDEX paper_embedding IF EXISTS")
        ensure_vector_index(kg, len(vector))
        lines.append(f"built again whole in {time.perf_counter() - started:.1f}s:")
    else:
        lines.append("the index as it is:")
    lines.extend(_index_query(kg, vector))
    return lines


def _candidates(kg: KnowledgeGraph, query: str) -> tuple[list[SearchHit], list[SearchHit]]:
    vector = retrievers.query_vector(default_embedder(), query)
    by_meaning = retrievers.semantic(kg, vector, 200, retrievers.Filters())
    words = search_words(first_words(query)[0])
    return by_meaning, retrievers.fulltext(kg, words, 200, retrievers.Filters(), vector)


def _ranking(window: float, weight: float, text_weight: float) -> Ranking:
    def rank(by_meaning: list[SearchHit], by_words: list[SearchHit]) -> list[str]:
        if not by_meaning:
            return []
        best = by_meaning[0].similarity or 1.0
        best_words = max((hit.score or 0.0 for hit in by_words), default=0.0) or 1.0
        relevance = {hit.key: (hit.score or 0.0) / best_words for hit in by_words}
        near = [hit for hit in by_meaning if (hit.similarity or 0) >= window * best]
        boost = {hit.key: 1 + weight * retrievers.importance(hit.cited_by) for hit in near}
        score = {
            hit.key: ((hit.similarity or 0) / best + text_weight * relevance.get(hit.key, 0))
            * boost[hit.key]
            for hit in near
        }
        rest = [hit.key for hit in by_meaning if hit.key not in score]
        return sorted(score, key=lambda key: -score[key]) + rest

    return rank


def hybrid_grid(
    kg: KnowledgeGraph, rng: random.Random, count: int = 100, paraphrases: Path = PARAPHRASES[0]
) -> list[str]:
    """Paper in the top 10 for the ``paraphrases`` (by default the first set) and ``count``
    abstract queries."""
    with paraphrases.open(encoding="utf-8") as handle:
        rows = csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t")
        described = [(row["arxiv_id"], row["query"]) for row in rows]
    papers = kg.read(
        "MATCH (p:Paper) WHERE p.embedding IS NOT NULL AND p.abstract IS NOT NULL "
        "RETURN p.key AS key, p.abstract AS abstract ORDER BY key"
    )
    abstracts = [
        (row["key"], _split(row["abstract"])[1])
        for row in rng.sample(papers, min(3 * count, len(papers)))
        if _split(row["abstract"])[1]
    ][:count]
    sets = [[(key, *_candidates(kg, query)) for key, query in pairs] for pairs in
            (described, abstracts)]  # fmt: skip

    def found(rank: Ranking) -> str:
        counts = [sum(key in rank(m, w)[:10] for key, m, w in data) for data in sets]
        return f"{counts[0]}/{len(sets[0])} paraphrases, {counts[1]}/{len(sets[1])} abstracts"

    lines = [f"by meaning alone: {found(lambda m, w: [hit.key for hit in m])}"]
    for window, weight, text_weight in GRID:
        rank = _ranking(window, weight, text_weight)
        lines.append(f"c={window} w={weight} a={text_weight}: {found(rank)}")
    return lines


def main() -> None:
    """Measure and print the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=400)
    parser.add_argument("--refill", action="store_true")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--abstracts", type=int, default=100, help="abstract queries of the grid")
    parser.add_argument("--paraphrases", type=Path, default=PARAPHRASES[0], help="of the grid")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines = [f"load average at the start: {os.getloadavg()}"]
    with KnowledgeGraph.connect() as kg:
        lines.extend(batch_sizes(kg, args.texts, rng))
        lines.extend(index_builds(kg, args.refill))
        lines.extend(hybrid_grid(kg, rng, args.abstracts, args.paraphrases))
    lines.append(f"load average at the end: {os.getloadavg()}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
