"""Seeded synthetic map pages whose references name papers by title and year only.

A title-heavy load: each page is an arXiv paper citing 25 papers drawn from a pool of
titles, each title with a year of its own, cited as that year or the next (so references
to one paper chain and merge). With ``--twice``, a page now and then cites a title a
second time, a year on: two keys listed apart, which the identity rule keeps two papers.
With ``--arxiv``, that share of the titles are arXiv papers too (``arxiv.jsonl``, loaded
with the pages), which the references join; one in ten of them was first posted under
another title of the pool (an older record), so that it is found by both titles and a key
of one can chain a key of the other to it. With ``--own``, that share of the arXiv titles
have a page of their own without an arXiv id (a record under the title key, of the arXiv
paper's year) and an arXiv twin a year later: the twin is in ``arxiv.jsonl``, and the paper
of the page's year in ``twins.jsonl``, which a folder load reads after the pages, so each
such page joins the twin first and moves when its own year's paper comes (the loader takes
the twin apart).

    python -m tests.bench.titled_pages --pages 2000 --twice 0.03 --out /tmp/titled
    python -m tests.bench.titled_pages --pages 2000 --twice 0.03 --arxiv 0.5 --out /tmp/ided
    python -m tests.bench.titled_pages --pages 2000 --arxiv 0.5 --own 0.2 --out /tmp/own
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from tests.arxiv_lines import arxiv_line
from tests.map_pages import map_page

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
    out: Path,
    pages: int,
    twice: float,
    titles: int = 4000,
    seed: int = 1,
    arxiv: float = 0.0,
    own: float = 0.0,
) -> tuple[int, int, int]:
    """Write ``pages`` map pages to ``out`` (and, with ``arxiv``, the arXiv records of that
    share of the titles; with ``own``, pages of their own and twins for that share of
    those); return (pages, references listed twice, pages of their own)."""
    rng = random.Random(seed)
    pool = [
        (" ".join(rng.sample(_WORDS, 4)).title() + f" {j}", rng.randint(2005, 2022))
        for j in range(titles)
    ]
    out.mkdir(parents=True, exist_ok=True)
    owned = 0
    if arxiv:  # drawn apart, so that the pages are those written without --arxiv
        ided = random.Random(seed + 1)
        paged = random.Random(seed + 2)
        lines = []
        later = []
        for j, (title, year) in enumerate(pool):
            if ided.random() >= arxiv:
                continue
            arxiv_id = f"{year % 100:02d}01.{j + 1:05d}"
            created = f"Mon, 2 Jan {year} 10:00:00 GMT"
            line = arxiv_line(arxiv_id, title, created, "2024-05-01")
            if ided.random() < 0.1:  # first posted under another title of the pool
                lines.append(arxiv_line(arxiv_id, ided.choice(pool)[0], created, "2021-03-01"))
            if own and paged.random() < own:
                later.append(line)
                twin = f"{(year + 1) % 100:02d}01.{j + 1:05d}"
                lines.append(
                    arxiv_line(twin, title, f"Mon, 2 Jan {year + 1} 10:00:00 GMT", "2024-05-01")
                )
                named = [pool[t] for t in paged.sample(range(len(pool)), 5)]
                refs = [f"{y}{t}cited by {paged.randint(1, 500)}" for t, y in named]
                text = map_page(title, None, year, "14 Oct 2026", refs)
                (out / f"own{owned:04d}.txt").write_text(text, encoding="utf-8")
                owned += 1
            else:
                lines.append(line)
        (out / "arxiv.jsonl").write_text("".join(lines), encoding="utf-8")
        if later:
            (out / "twins.jsonl").write_text("".join(later), encoding="utf-8")
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
        text = map_page(
            f"A Citing Paper Number {i}", f"2301.{i + 1:05d}", 2023, "14 Oct 2026", refs
        )
        (out / f"page{i:04d}.txt").write_text(text, encoding="utf-8")
    return pages, listed_twice, owned


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
    parser.add_argument(
        "--own",
        type=float,
        default=0.0,
        help="share of the arXiv titles with a page of their own and a twin (default 0)",
    )
    parser.add_argument("--titles", type=int, default=4000, help="pool of titles (default 4000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    args = parser.parse_args(argv)
    pages, twice, owned = write_pages(
        args.out,
        args.pages,
        args.twice,
        titles=args.titles,
        seed=args.seed,
        arxiv=args.arxiv,
        own=args.own,
    )
    print(
        f"{pages:,} pages, {twice:,} references listed twice, {owned:,} pages of their own "
        f"-> {args.out}"
    )


if __name__ == "__main__":
    main()
