"""Materialised similarity on cit-HepTh: `kg similar --write` end to end, agreement of the
stored lists with the live queries, and co-citation / coupling top-20 latency.

Run: python -m tests.bench.similarity [--papers 1000] [--seed 15] [--scale10]
     [--compare-writers 1,2]

Uses NEO4J_* when set, else the local server of KG_HOME (start it with `kg db start`), and
loads cit-HepTh (`kg data get cit-hepth`, as `make run` does) when the graph does not hold it. It:
- with --compare-writers, times the write step of a first run with each number of writers;
- times `kg rank pagerank --write` (the goal compares the first run with it);
- removes any stored lists, then runs `kg similar --write` as a user would (a new
  process) and times it end to end; then runs it again on the unchanged graph (which keeps
  the stored lists) and again with --force (which reads, computes and compares);
- checks, for 200 random papers (seed 15), that every stored list equals cocited.cypher /
  coupled.cypher run live (keys, counts, cosine, Jaccard, order);
- times, for --papers random papers with citations after a warm-up of 50: the stored query
  alone, similar_answer.cypher alone (the paper, freshness and the stored list in one
  query), kg.cocited / kg.coupled end to end (that query and the models), the bounded live
  query and the exact live query;
- estimates what the stored form replaces: the exact live query for every paper, as the
  mean over the sample times the number of papers;
- with --scale10, generates the 10x synthetic citation graph (277,700 papers, seed 1) and
  times the in-memory top-k of both measures on it (no Neo4j: reading and writing 10x was
  not run on this machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kg import data, queries
from kg.analytics import similarity
from kg.analytics.igraph_engine import CitationGraph
from kg.knowledge_graph import KnowledgeGraph
from tests.bench.common import add_data_option, ensure_hepth, hepth_keys, percentiles
from tests.bench.synthetic import generate

MAX_PATHS_10X = 2_000_000_000
COLUMNS = ("key", "together", "size_a", "size_b", "cosine", "jaccard")


def _rows(kg: KnowledgeGraph, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    query = queries.get(name)
    return [{c: r[c] for c in COLUMNS} for r in query.run(kg, **params)]


def _query_case(kg: KnowledgeGraph, query: queries.Query) -> Callable[[str], object]:
    """Return what runs ``query`` for one paper's key, top 20."""

    def case(key: str) -> object:
        return query.run(kg, key=key, limit=20)

    return case


def _answer_case(kg: KnowledgeGraph, run: str) -> Callable[[str], object]:
    """Return what runs similar_answer.cypher (paper, freshness, stored top 20) for a key."""
    query = queries.questions.similar_answer

    def case(key: str) -> object:
        return query.run(kg, key=key, run=run, limit=20)

    return case


def _method_case(kg: KnowledgeGraph, name: str) -> Callable[[str], object]:
    """Return what calls ``kg.<name>`` for one paper's key, top 20."""

    def case(key: str) -> object:
        return getattr(kg, name)(key, limit=20)

    return case


def _timed(run: Callable[[str], object], keys: list[str], warm: list[str]) -> list[float]:
    for key in warm:
        run(key)
    samples = []
    for key in keys:
        began = time.perf_counter()
        run(key)
        samples.append(time.perf_counter() - began)
    return samples


def _similar_write(kg_command: str, *options: str) -> tuple[float, dict[str, Any]]:
    began = time.perf_counter()
    done = subprocess.run(
        [kg_command, "similar", "--write", "--json", *options],
        check=True,
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - began, json.loads(done.stdout)["run"]


def _writers_option(counts: list[int]) -> str:
    return f" --compare-writers {','.join(map(str, counts))}" if counts else ""


def _timed_command(*command: str) -> float:
    began = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, text=True)
    return time.perf_counter() - began


def _remove_stored(kg: KnowledgeGraph) -> None:
    kg.run_autocommit(
        "MATCH ()-[r:CO_CITED|COUPLED]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 50000 ROWS"
    )


def _writers(kg: KnowledgeGraph, counts: list[int]) -> dict[int, float]:
    """The write step of a first run (empty store) with each number of writers, timed from
    Python, the stored lists removed before each (not timed)."""
    seconds = {}
    for writers in counts:
        _remove_stored(kg)
        run = KnowledgeGraph.on(kg).analytics.similar(write=True, writers=writers)
        seconds[writers] = run.timings["write"]
        print(f"write step with {writers} writer(s): {seconds[writers]:.1f}s", flush=True)
    return seconds


def _scale10() -> tuple[int, int, dict[str, float], dict[str, int]]:
    """Time the in-memory top-20 on the 10x synthetic graph; a measure whose product has
    more than MAX_PATHS_10X two-step paths is counted, not run (it would not fit)."""
    made = generate(277_700, 1, Path("/tmp/kg-synth-10x"))
    pairs = []
    with made.edges.open(encoding="utf-8") as edges:
        next(edges)
        for line in edges:
            citing, cited = line.rstrip("\n").split(",")
            pairs.append((citing, cited))
    citation = CitationGraph.from_pairs(pairs)
    del pairs
    out_degree: Counter[int] = Counter(a for a, _ in citation.edges)
    in_degree: Counter[int] = Counter(b for _, b in citation.edges)
    paths = {
        "co-citation": sum(d * d for d in out_degree.values()),
        "coupling": sum(d * d for d in in_degree.values()),
    }
    seconds: dict[str, float] = {}
    for measure in similarity.MEASURES:
        if paths[measure] > MAX_PATHS_10X:
            continue
        began = time.perf_counter()
        similarity.top_k(citation, measure, similarity.DEFAULT_K)
        seconds[measure] = time.perf_counter() - began
    return citation.node_count, citation.edge_count, seconds, paths


def _all_pairs_estimate(sample_size: int, seed: int) -> None:
    """Print what the exact live queries would take for every paper, one at a time: the
    mean over a random sample of all papers (stubs too) times the number of papers."""
    with KnowledgeGraph.connect() as kg:
        keys = [r["key"] for r in kg.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")]
        sample = random.Random(seed).sample(keys, sample_size)
        print(f"load average {os.getloadavg()[0]:.1f}, {len(keys):,} papers")
        for name in ("cocited", "coupled"):
            query = queries.get(name)
            samples = _timed(_query_case(kg, query), sample, sample[:30])
            mean = statistics.fmean(samples)
            print(f"{name}.cypher: mean {mean * 1000:.1f} ms -> {mean * len(keys) / 60:.1f} min")


def main() -> None:
    """Measure and print the markdown section for docs/BENCHMARKS.md."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--checked", type=int, default=200, help="papers whose lists are checked")
    parser.add_argument("--warm", type=int, default=50, help="warm-up papers before timing")
    parser.add_argument("--scale10", action="store_true")
    parser.add_argument(
        "--keep-stored",
        action="store_true",
        help="keep the stored lists: time only a re-run, then the checks and latencies",
    )
    parser.add_argument("--scale10-only", action="store_true", help="only the 10x compute")
    parser.add_argument(
        "--compare-writers",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[],
        help="first time the write step with these numbers of writers, e.g. 1,2",
    )
    parser.add_argument(
        "--all-pairs-estimate",
        type=int,
        metavar="N",
        help="only estimate the exact live queries over every paper from N random papers",
    )
    add_data_option(parser)
    args = parser.parse_args()
    if args.scale10_only:
        nodes, edges, seconds, paths = _scale10()
        print(f"10x: {nodes:,} papers, {edges:,} citations; paths {paths}; seconds {seconds}")
        return
    if args.all_pairs_estimate:
        _all_pairs_estimate(args.all_pairs_estimate, args.seed)
        return
    load_before = os.getloadavg()[0]
    kg_command = str(Path(sys.executable).with_name("kg"))
    with KnowledgeGraph.connect() as kg:
        ensure_hepth(
            kg,
            args.data or data.get("cit-hepth"),
            papers=1 if args.data else 27_000,
            rejects=Path("/tmp/kg-similarity.rejects.jsonl"),
        )
        version = kg.read("CALL dbms.components() YIELD versions RETURN versions[0] AS v")[0]["v"]
        writers = _writers(kg, args.compare_writers) if args.compare_writers else {}
        pagerank = _timed_command(kg_command, "rank", "pagerank", "--write", "--json")
        print(f"kg rank pagerank --write: {pagerank:.1f}s", flush=True)
        if not args.keep_stored:
            print("removing stored similarity (not timed) ...", flush=True)
            _remove_stored(kg)
            end_to_end, run = _similar_write(kg_command)
            print(f"kg similar --write, first: {end_to_end:.1f}s {run['timings']}", flush=True)
        again, rerun = _similar_write(kg_command)
        print(f"kg similar --write, again: {again:.1f}s {rerun['timings']}", flush=True)
        forced, compared = _similar_write(kg_command, "--force")
        print(f"kg similar --write --force: {forced:.1f}s {compared['timings']}", flush=True)
        if args.keep_stored:
            end_to_end, run = forced, compared
        keys = hepth_keys(kg)
        rng = random.Random(args.seed)
        checked = rng.sample(keys, args.checked)
        disagree = 0
        for key in checked:
            for name in ("cocited", "coupled"):
                stored = _rows(kg, f"similar_{name}_stored", {"key": key, "limit": 20})
                if stored != _rows(kg, name, {"key": key, "limit": 20}):
                    disagree += 1
        lists = 2 * args.checked
        print(f"agreement: {lists - disagree} of {lists} lists equal", flush=True)
        sample = rng.sample(keys, args.papers)
        warm = sample[: args.warm]
        cases: dict[str, Callable[[str], object]] = {}
        for name, measure in (("cocited", "co-citation"), ("coupled", "coupling")):
            stored_q = queries.get(f"similar_{name}_stored")
            live_q = queries.get(name)
            bounded_q = queries.get(f"similar_{name}_live")
            cases[f"{measure} top-20, stored query alone"] = _query_case(kg, stored_q)
            cases[f"{measure} top-20, one-trip answer query alone (similar_answer)"] = _answer_case(
                kg, "co_cited" if name == "cocited" else "coupled"
            )
            cases[f"{measure} top-20, kg.{name} (materialised)"] = _method_case(kg, name)
            cases[f"{measure} top-20, bounded live query"] = _query_case(kg, bounded_q)
            cases[f"{measure} top-20, exact live query ({name}.cypher)"] = _query_case(kg, live_q)
        results = []
        sources = {kg.cocited(key, limit=20).source for key in sample[:100]}
        for name, case in cases.items():
            samples = _timed(case, sample, warm)
            p50, p95, worst = percentiles(samples)
            results.append((name, p50, p95, worst, statistics.fmean(samples)))
            print(f"{name}: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {worst:.1f} ms", flush=True)
    all_pairs = {
        name: mean * run["nodes"] for name, _, _, _, mean in results if "exact live" in name
    }
    lines = [
        "## Materialised similarity (`kg similar --write`)",
        "",
        f"cit-HepTh as `make run` loads it ({run['nodes']:,} papers, {run['edges']:,} "
        f"citations). Neo4j {version} on {os.cpu_count()} cores ({platform.machine()}), "
        f"Python {platform.python_version()}; 1-minute load average {load_before:.1f} before "
        f"and {os.getloadavg()[0]:.1f} after.",
        "",
        f"Command: `python -m tests.bench.similarity --papers {args.papers} --seed {args.seed}"
        f"{' --scale10' if args.scale10 else ''}"
        f"{_writers_option(args.compare_writers)}`",
        "",
        f"- `kg similar --write` end to end (new process): **{end_to_end:.1f} s** "
        f"(read {run['timings']['read']:.1f} s, compute {run['timings']['compute']:.1f} s, "
        f"write {run['timings']['write']:.1f} s) "
        f"{'(a re-run: --keep-stored)' if args.keep_stored else 'on an empty store'}; "
        f"{run['pairs']['co-citation']:,} CO_CITED and {run['pairs']['coupling']:,} COUPLED "
        f"relationships, k = {run['k']}.",
        f"- `kg rank pagerank --write` in the same run: {pagerank:.1f} s; the first run of "
        f"`kg similar --write` is **{end_to_end / pagerank:.1f}×** it.",
        f"- Run again on the unchanged graph: **{again:.1f} s** (kept as stored: "
        f"{rerun['unchanged']}); with `--force`, which reads, computes and compares: "
        f"{forced:.1f} s (papers rewritten: {compared['rewritten']}).",
        *(
            [
                "- The write step of a first run from Python, by writers at once: "
                + ", ".join(f"{n}: {t:.1f} s" for n, t in writers.items())
                + "."
            ]
            if writers
            else []
        ),
        f"- Stored lists equal to the live queries for {args.checked} random papers (seed "
        f"{args.seed}): {lists - disagree} of {lists} lists (keys, counts, cosine, Jaccard, "
        "order).",
        f"- Answers of kg.cocited on the first {min(100, len(sample))} sampled papers came from: "
        f"{', '.join(sorted(sources))}.",
        "",
        f"Latency over {args.papers} random papers with citations, after a warm-up of "
        f"{args.warm}, one at a time from one client:",
        "",
        "| question | p50 (ms) | p95 (ms) | max (ms) |",
        "| --- | ---: | ---: | ---: |",
        *(f"| {n} | {p50:.1f} | {p95:.1f} | {worst:.1f} |" for n, p50, p95, worst, _ in results),
        "",
        "What the stored form replaces: the exact live query run for every paper would take "
        + " and ".join(f"{seconds / 60:.1f} min ({name})" for name, seconds in all_pairs.items())
        + " (the sample's mean times the number of papers).",
    ]
    if args.scale10:
        nodes, edges, seconds, paths = _scale10()
        lines += [
            "",
            f"At 10x (synthetic, `tests/bench/synthetic.py`, {nodes:,} papers, {edges:,} "
            "citations, preferential attachment): the in-memory top-20 takes "
            + " and ".join(f"{s:.1f} s ({m})" for m, s in seconds.items())
            + "; two-step paths: "
            + ", ".join(f"{n:,} ({m})" for m, n in paths.items())
            + f" (a measure over {MAX_PATHS_10X:,} is not run). Reading and writing at 10x "
            "were not measured.",
        ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
