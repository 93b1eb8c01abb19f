"""Page times of `kg serve` on the default map (cit-HepTh and the example map).

Run: python -m tests.bench.web [--papers 100] [--seed 7] [--out docs/BENCHMARKS-web.md]

Uses NEO4J_* when set, else the local server of KG_HOME; the graph must hold the default map
(`make run`). Serves the app on a free loopback port in this process (tests.web_server) and asks
for each page over HTTP, one request at a time, after one warm-up pass: paper pages of
random hep-th papers with citations, their graph views, and title searches.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

import httpx2 as httpx

from kg.database import Database
from tests.bench.common import hepth_keys, percentiles
from tests.web_server import serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("docs/BENCHMARKS-web.md"))
    args = parser.parse_args()
    with Database.connect() as graph:
        keys = hepth_keys(graph, cited=True)
        words = [
            row["title"]
            for row in graph.read(
                "MATCH (p:Paper) WHERE p.key STARTS WITH 'hep-th/' AND p.title IS NOT NULL "
                "RETURN p.title AS title ORDER BY p.key"
            )
        ]
    chooser = random.Random(args.seed)
    sample = chooser.sample(keys, args.papers)
    searches = [" ".join(chooser.choice(words).split()[:3]) for _ in range(args.papers)]
    pages = {
        "paper page": [f"/paper/{key}" for key in sample],
        "graph view page (the frame the browser draws in)": [f"/graph?ref={key}" for key in sample],
        "graph data, citations (30 most cited within 1 hop)": [
            f"/graph.json?ref={key}" for key in sample
        ],
        "graph data, co-citation layer (top 20, links among them)": [
            f"/graph.json?ref={key}&layer=cocited" for key in sample
        ],
        "graph data, coupling layer (top 20, links among them)": [
            f"/graph.json?ref={key}&layer=coupled" for key in sample
        ],
        "search (3 title words)": [f"/search?q={text}" for text in searches],
    }
    rows = []
    with serving() as base, httpx.Client(base_url=base, timeout=120) as client:
        for name, urls in pages.items():
            for url in urls[:5]:
                client.get(url)
            samples = []
            for url in urls:
                began = time.perf_counter()
                response = client.get(url)
                samples.append(time.perf_counter() - began)
                assert response.status_code == 200, (url, response.status_code)
            rows.append((name, len(urls), *percentiles(samples)))
    load = os.getloadavg()[0]
    lines = [
        "# kg serve page times on the default map",
        "",
        f"Command: `python -m tests.bench.web --papers {args.papers} --seed {args.seed}`. "
        f"One client over HTTP on 127.0.0.1, after a warm-up of 5 requests per page type; "
        f"1-minute load average {load:.1f} on 2 cores when it finished.",
        "",
        "| page | requests | p50 ms | p95 ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: |",
        *(f"| {n} | {c} | {p50:.0f} | {p95:.0f} | {mx:.0f} |" for n, c, p50, p95, mx in rows),
        "",
    ]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
