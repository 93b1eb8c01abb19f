"""Search by meaning on cit-HepTh: the model's load time, the no-change run, search latency
and retrieval quality, against whatever `kg embed` has stored so far.

Run: python -m tests.bench.embed [--queries 200] [--quality 200] [--seed 37]
       [--paraphrases tests/bench/paraphrases.tsv] [--only-paraphrases]

Uses NEO4J_* when set, else the local server of KG_HOME, holding cit-HepTh with abstracts
(`kg load --id-scheme snap-hepth $(kg data get cit-hepth)`) and embedded by `kg embed`
(all of it, or the part a run reached: the figures say how many papers the index holds).
It prints a Markdown report:
- the model's load time, at the first query of a fresh process;
- the work of a run with nothing changed: reading every titled paper's text and hashing it
  (what a second `kg embed` does before it finds nothing to embed);
- `graph.search(mode=...)` p50/p95 over random query texts (the first sentence of random
  abstracts), the model loaded;
- recall@10 of a paper from its own abstract minus the first sentence, by meaning, hybrid,
  and the full-text title index (restricted to the embedded papers, so all three rank
  the same papers), and the mean overlap of a paper's top 20 by meaning with its top 20
  by co-citation, beside the full-text search's top 20 from its title;
- the held-out paraphrases (tests/bench/paraphrases.tsv: a paper described in other words
  than its own, written apart from the project): in how many of them the paper described
  is in the top 10 of each mode, and its rank in each.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import re
import time
from pathlib import Path

from kg import questions
from kg.analytics.embed import MiniLM, _stale, default_embedder, model_label
from kg.knowledge_graph import KnowledgeGraph
from kg.questions import retrievers
from tests.bench.common import percentiles

PARAPHRASES = Path(__file__).with_name("paraphrases.tsv")
MODES = ("text", "semantic", "hybrid")

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _split(abstract: str) -> tuple[str, str]:
    parts = _SENTENCE.split(" ".join(abstract.split()), maxsplit=1)
    return (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "")


def paraphrase_report(kg: KnowledgeGraph, path: Path) -> list[str]:
    """Return the report's lines for the held-out paraphrases: per query, the rank of the
    paper it describes in each mode's top 10 (- when it is not there), then the counts."""
    with path.open(encoding="utf-8") as handle:
        rows = list(
            csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t")
        )
    ids = [row["arxiv_id"] for row in rows]
    keys = {
        row["arxiv_id"]: row["key"]
        for row in kg.read(
            "UNWIND $ids AS id MATCH (p:Paper {arxiv_id: id}) RETURN id AS arxiv_id, p.key AS key",
            {"ids": ids},
        )
    }
    lines = ["", "| paper | query | " + " | ".join(MODES) + " |", "| --- | --- |" + " ---: |" * 3]
    found = dict.fromkeys(MODES, 0)
    for row in rows:
        key = keys.get(row["arxiv_id"])
        ranks = []
        for mode in MODES:
            hits = [hit.key for hit in kg.search(row["query"], 10, mode=mode).results]  # type: ignore[arg-type]
            rank = hits.index(key) + 1 if key in hits else None
            found[mode] += rank is not None
            ranks.append("-" if rank is None else str(rank))
        lines.append(f"| {row['arxiv_id']} | {row['query']} | " + " | ".join(ranks) + " |")
    lines.append("")
    lines.extend(
        f"paraphrases with the paper in the top 10, {mode}: {count}/{len(rows)}"
        for mode, count in found.items()
    )
    return lines


def main() -> None:
    """Measure and print the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--quality", type=int, default=200)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--paraphrases", type=Path, default=PARAPHRASES)
    parser.add_argument("--only-paraphrases", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    lines = [f"load average at the start: {os.getloadavg()}"]
    with KnowledgeGraph.connect() as kg:
        if args.only_paraphrases:
            default_embedder().embed(["warm up"])
            lines.extend(paraphrase_report(kg, args.paraphrases))
            lines.append(f"load average at the end: {os.getloadavg()}")
            print("\n".join(lines))
            return
        fresh = MiniLM()
        started = time.perf_counter()
        fresh.embed(["the model's first query"])
        lines.append(f"model load and first query: {time.perf_counter() - started:.2f}s")

        model = default_embedder()
        model.embed(["warm up"])
        label = model_label(model)
        started = time.perf_counter()
        checked = stale = 0
        for read, changed in _stale(kg, label):
            checked += read
            stale += len(changed)
        lines.append(
            f"check pass (read and hash every titled paper's text, a no-change run's work): "
            f"{time.perf_counter() - started:.2f}s for {checked:,} papers, {stale:,} not embedded"
        )
        rows = kg.read(
            "MATCH (p:Paper) WHERE p.embedding IS NOT NULL AND p.abstract IS NOT NULL "
            "RETURN p.key AS key, p.title AS title, p.abstract AS abstract ORDER BY key"
        )
        embedded = {
            row["key"]
            for row in kg.read("MATCH (p:Paper) WHERE p.embedding IS NOT NULL RETURN p.key AS key")
        }
        lines.append(f"papers in the vector index: {len(embedded):,}")

        texts = [_split(row["abstract"])[0] for row in rng.sample(rows, args.queries)]
        for mode in ("text", "semantic", "hybrid"):
            samples = []
            for text in texts:
                started = time.perf_counter()
                kg.search(text, 10, mode=mode)
                samples.append(time.perf_counter() - started)
            p50, p95, worst = percentiles(samples)
            lines.append(
                f"search {mode}, {len(texts)} queries: p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
                f"max {worst:.1f} ms"
            )

        usable = [row for row in rows if _split(row["abstract"])[1]]
        sample = rng.sample(usable, min(args.quality, len(usable)))
        found = {"semantic": 0, "hybrid": 0, "text": 0}
        for row in sample:
            rest = _split(row["abstract"])[1]
            for mode in ("semantic", "hybrid"):
                hits = kg.search(rest, 10, mode=mode).results  # type: ignore[arg-type]
                found[mode] += row["key"] in [hit.key for hit in hits]
            by_words = retrievers.fulltext(kg, rest, 500, retrievers.Filters())
            top = [hit.key for hit in by_words if hit.key in embedded][:10]
            found["text"] += row["key"] in top
        for mode, count in found.items():
            lines.append(
                f"recall@10 from the abstract minus its first sentence, {mode}: "
                f"{count}/{len(sample)} = {count / len(sample):.2f}"
            )

        overlap: dict[str, list[float]] = {"meaning": [], "text": []}
        for row in rng.sample(rows, min(args.quality, len(rows))):
            cocited = {hit.key for hit in questions.cocited(kg, row["key"], 20).results}
            if not cocited:
                continue
            alike = {hit.key for hit in kg.similar_by_text(row["key"], 20).results}
            words = [
                hit.key
                for hit in retrievers.fulltext(kg, row["title"], 21, retrievers.Filters())
                if hit.key != row["key"]
            ]
            overlap["meaning"].append(len(alike & cocited) / 20)
            overlap["text"].append(len(set(words[:20]) & cocited) / 20)
        for name, values in overlap.items():
            mean = sum(values) / len(values) if values else 0.0
            lines.append(
                f"top-20 overlap with co-citation's top 20, by {name}: {mean:.3f} "
                f"over {len(values)} papers with co-citations"
            )
        lines.extend(paraphrase_report(kg, args.paraphrases))
    lines.append(f"load average at the end: {os.getloadavg()}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
