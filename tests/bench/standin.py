"""A tiny stand-in for cit-HepTh, for the benchmarks' smoke runs (tests/*/test_bench_smoke*):
a SNAP edge list and arXiv metadata lines with abstracts, whose hep-th ids spread over
1992 to 2003 as the real ones do, so every benchmark that reads cit-HepTh finds the same
shapes (hep-th keys, citations both ways, titles, abstracts of two sentences or more,
years for the time analytics). Every word is made up; the same seed gives the same files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from tests.hepth_like import SNAP_HEADER

__all__ = ["write_standin"]

_MONTHS = 144  # 1992-01 .. 2003-12
_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_WORDS = (
    "brane", "duality", "anomaly", "soliton", "moduli", "instanton", "gauge", "horizon",
    "orbifold", "monopole", "matrix", "entropy", "supergravity", "lattice", "vacuum", "flux",
)  # fmt: skip
_AUTHORS = ("A. Ferro", "B. Quill", "C. Marlowe", "D. Okafor", "E. Lindqvist", "F. Tanabe")


def _numbers(papers: int) -> list[int]:
    """The SNAP integers of ``papers`` papers in posting order, spread over the months."""
    numbers: list[int] = []
    posted: dict[int, int] = {}
    for index in range(papers):
        month = index * _MONTHS // papers
        posted[month] = posted.get(month, 0) + 1
        year = 1992 + month // 12
        numbers.append((year % 100) * 100_000 + (month % 12 + 1) * 1_000 + posted[month])
    return numbers


def _sentence(rng: random.Random) -> str:
    words = rng.sample(_WORDS, 5)
    return f"We relate the {words[0]} {words[1]} to the {words[2]} of {words[3]} {words[4]}."


def write_standin(out: Path, papers: int = 300, seed: int = 5) -> list[Path]:
    """Write ``papers`` made-up hep-th papers to ``out``: arXiv lines with abstracts
    (``standin-abstracts.jsonl``) and their SNAP edge list (``standin-edges.txt``, load it
    with ``--id-scheme snap-hepth``); return [edges, abstracts], as ``kg data get`` orders
    cit-HepTh's files."""
    rng = random.Random(seed)
    numbers = _numbers(papers)
    edges: list[str] = []
    pool: list[int] = []
    for index in range(1, papers):
        pool.append(index - 1)
        cited = {rng.choice(pool) for _ in range(rng.randint(1, 8))}
        edges.extend(f"{numbers[index]}\t{numbers[c]}" for c in sorted(cited))
        pool.extend(cited)
    lines = []
    for index, number in enumerate(numbers):
        year = 1900 + number // 100_000 if number >= 9_000_000 else 2000 + number // 100_000
        month = number // 1_000 % 100
        words = rng.sample(_WORDS, 3)
        record = {
            "id": f"hep-th/{number:07d}",
            "title": f"{words[0].title()} {words[1]} and {words[2]} ({index})",
            "authors": ", ".join(rng.sample(_AUTHORS, rng.randint(1, 3))),
            "categories": "hep-th",
            "abstract": " ".join(_sentence(rng) for _ in range(rng.randint(2, 4))),
            "versions": [
                {"version": "v1", "created": f"Mon, 1 {_NAMES[month - 1]} {year} 12:00:00 GMT"}
            ],
        }
        lines.append(json.dumps(record))
    out.mkdir(parents=True, exist_ok=True)
    edge_path = out / "standin-edges.txt"
    header = SNAP_HEADER.format(nodes=papers, edges=len(edges))
    edge_path.write_text(header + "\n".join(edges) + "\n", encoding="utf-8")
    abstracts = out / "standin-abstracts.jsonl"
    abstracts.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [edge_path, abstracts]
