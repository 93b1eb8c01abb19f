"""Seeded synthetic map pages whose references name papers by title and year only.

A title-heavy load: each page is an arXiv paper citing 25 papers drawn from a pool of
titles, each title with a year of its own, cited as that year or the next (so references
to one paper chain and merge). With ``--twice``, a page now and then cites a title a
second time, a year on: two keys listed apart, which the identity rule keeps two papers.
With ``--arxiv``, that share of the titles are arXiv papers too (``arxiv.jsonl``, loaded
with the pages), which the references join; one in ten of them was first posted under
another title of the pool (an older record), so that it is found by both titles and a key
of one can chain a key of the other to it.

    python -m tests.bench.titled_pages --pages 2000 --twice 0.03 --out /tmp/titled
    python -m tests.bench.titled_pages --pages 2000 --twice 0.03 --arxiv 0.5 --out /tmp/ided
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from tests.arxiv_lines import arxiv_line

__all__ = ["write_pages"]

_WORDS = [
    "graph",
    "neural",
    "sparse",
    "coding",
    "attention",
    "deep",
    "learning",
    "kernel",
    "bayesian",
    "transformer",
    "lattice",
    "gauge",
    "field",
    "string",
    "theory",
    "quantum",
    "model",
    "network",
]
_REFERENCES = 25


def write_pages(
    out: Path, pages: int, twice: float, titles: int = 4000, seed: int = 1, arxiv: float = 0.0
) -> tuple[int, int]:
    """Write ``pages`` map pages to ``out`` (and, with ``arxiv``, the arXiv records of that
    share of the titles); return (pages, references listed twice)."""
    rng = random.Random(seed)
    pool = [
        (" ".join(rng.sample(_WORDS, 4)).title() + f" {j}", rng.randint(2005, 2022))
        for j in range(titles)
    ]
    out.mkdir(parents=True, exist_ok=True)
    if arxiv:  # drawn apart, so that the pages are those written without --arxiv
        ided = random.Random(seed + 1)
        lines = []
        for j, (title, year) in enumerate(pool):
            if ided.random() >= arxiv:
                continue
            arxiv_id = f"{year % 100:02d}01.{j + 1:05d}"
            created = f"Mon, 2 Jan {year} 10:00:00 GMT"
            lines.append(arxiv_line(arxiv_id, title, created, "2024-05-01"))
            if ided.random() < 0.1:  # first posted under another title of the pool
                lines.append(arxiv_line(arxiv_id, ided.choice(pool)[0], created, "2021-03-01"))
        (out / "arxiv.jsonl").write_text("".join(lines), encoding="utf-8")
    listed_twice = 0
    for i in range(pages):
        refs = []
        for t in rng.sample(range(len(pool)), _REFERENCES):
            title, year = pool[t]
            cited = year + rng.choice((0, 0, 0, 1))
            refs.append(f"{cited}{title}cited by {rng.randint(1, 500)}")
            if rng.random() < twice:
                refs.append(f"{cited + 1}{title}cited by {rng.randint(1, 500)}")
                listed_twice += 1
        n = len(refs)
        items = "\n".join(f"  {k}. {ref}" for k, ref in enumerate(refs, 1))
        text = (
            f"mlsanityData to 14 Oct 2026\n\nA Citing Paper Number {i}\n\n"
            f"arXiv 2301.{i + 1:05d} ↗First posted 2 Jan 2023cs.CLcited by 1\n\n"
            f"Key facts. Cited by 0 papers in the map (data through 14 Oct 2026). "
            f"Builds on {n} of its {n} references that are in the map.\n\n"
            f"Builds on\n\n{n} of {n} references.\n\nReferences · {n}\n\n{items}\n"
        )
        (out / f"page{i:04d}.txt").write_text(text, encoding="utf-8")
    return pages, listed_twice


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and write the pages."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, required=True, help="number of pages")
    parser.add_argument(
        "--twice", type=float, default=0.0, help="share of references listed twice (default 0)"
    )
    parser.add_argument(
        "--arxiv", type=float, default=0.0, help="share of titles with an arXiv paper (default 0)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    args = parser.parse_args(argv)
    pages, twice = write_pages(args.out, args.pages, args.twice, seed=args.seed, arxiv=args.arxiv)
    print(f"{pages:,} pages, {twice:,} references listed twice -> {args.out}")


if __name__ == "__main__":
    main()
