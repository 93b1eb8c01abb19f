"""A seeded synthetic arXiv snapshot and citation edge list, of any size, streamed to disk.

Papers are numbered in posting order and get new-style ids (``1501.00001`` on), one month
after another; each writes one line of Kaggle/OAI JSON to a gzipped file. Each paper then
cites older papers only, chosen by preferential attachment (probability proportional to
in-degree + 1), about 12.7 references per paper as in cit-HepTh (352,807 edges / 27,770
papers). This gives a power-law in-degree distribution. Only an int array of attachment
targets is kept in memory; records and edges go to disk as they are made.

    python -m tests.bench.synthetic --papers 30000 --seed 1 --out /tmp/synth
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from array import array
from dataclasses import dataclass
from datetime import date
from pathlib import Path

__all__ = ["MEAN_REFERENCES", "SyntheticSet", "generate", "paper_id"]

MEAN_REFERENCES = 352_807 / 27_770
"""References per paper in cit-HepTh; the generator draws out-degrees with this mean."""

_FIRST_YEAR = 2015
_MONTHS = 120  # 2015-01 .. 2024-12: up to 99,999 ids a month, so 12M papers at most
_PER_MONTH = 99_999

CATEGORIES = (
    "cs.LG",
    "cs.CL",
    "cs.CV",
    "cs.AI",
    "cs.IR",
    "cs.NE",
    "cs.RO",
    "cs.CR",
    "cs.DC",
    "cs.SE",
    "stat.ML",
    "stat.ME",
    "math.OC",
    "math.ST",
    "eess.SP",
    "eess.AS",
    "q-bio.NC",
    "physics.comp-ph",
    "hep-th",
    "quant-ph",
)
_ADJECTIVES = (
    "Efficient",
    "Robust",
    "Scalable",
    "Sparse",
    "Adaptive",
    "Contrastive",
    "Hierarchical",
    "Bayesian",
    "Federated",
    "Causal",
    "Generative",
    "Self-Supervised",
    "Multilingual",
    "Differentiable",
    "Interpretable",
    "Low-Rank",
    "Equivariant",
    "Neural",
    "Probabilistic",
    "Unsupervised",
)
_NOUNS = (
    "Transformers",
    "Attention",
    "Representations",
    "Embeddings",
    "Graph Networks",
    "Diffusion Models",
    "Language Models",
    "Policies",
    "Kernels",
    "Autoencoders",
    "Retrieval",
    "Optimizers",
    "Priors",
    "Features",
    "Agents",
    "Mixtures of Experts",
    "Tokenizers",
    "Quantization",
    "Distillation",
    "Benchmarks",
)
_TASKS = (
    "Machine Translation",
    "Image Segmentation",
    "Question Answering",
    "Speech Recognition",
    "Protein Folding",
    "Code Generation",
    "Time Series Forecasting",
    "Anomaly Detection",
    "Recommendation",
    "Reinforcement Learning",
    "Summarization",
    "Object Detection",
    "Text Classification",
    "Molecular Design",
    "Dialogue",
)
_FIRST_NAMES = (
    "Ada",
    "Alan",
    "Ang",
    "Bo",
    "Chen",
    "Daniel",
    "Elena",
    "Fatima",
    "Grace",
    "Hiro",
    "Ines",
    "Jan",
    "Kofi",
    "Lena",
    "Mei",
    "Nikolai",
    "Olga",
    "Priya",
    "Quentin",
    "Rosa",
    "Sanjay",
    "Tomás",
    "Uma",
    "Viktor",
    "Wei",
    "Yusuf",
    "Zoë",
)
_LAST_NAMES = (
    "Abe",
    "Bal\\'azs",
    "Chen",
    "Dubois",
    "Eriksen",
    "Fischer",
    "García",
    "Hassan",
    "Ivanova",
    "Jensen",
    "Kim",
    "Li",
    "Müller",
    "Nakamura",
    "Okafor",
    "Patel",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Usman",
    "Varga",
    "Wang",
    "Xu",
    "Yilmaz",
    "Zhang",
)
_SYLLABLES = (
    "ka",
    "ren",
    "mo",
    "li",
    "sa",
    "to",
    "vel",
    "an",
    "ber",
    "ri",
    "no",
    "sh",
    "ta",
    "mi",
    "dor",
    "el",
    "ho",
    "ju",
    "ne",
    "qi",
    "ra",
    "son",
    "um",
    "wa",
    "ya",
    "zen",
)
_VERBS = ("propose", "study", "introduce", "analyse", "revisit", "benchmark")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class SyntheticSet:
    """What ``generate`` wrote: the gzipped arXiv snapshot, the edge list, and their sizes."""

    arxiv: Path
    edges: Path
    papers: int
    citations: int


def _month_of(index: int, papers: int) -> int:
    """Return the month (0 = 2015-01) paper ``index`` of ``papers`` is posted in."""
    return index * _MONTHS // papers


def paper_id(index: int, papers: int) -> str:
    """Return the arXiv id of paper ``index`` (0-based, posting order) in a set of ``papers``.

    Raises ValueError when the set is too large for the id space.
    """
    if papers > _MONTHS * _PER_MONTH:
        raise ValueError(f"at most {_MONTHS * _PER_MONTH:,} papers fit the id space")
    month = _month_of(index, papers)
    first_in_month = -(-month * papers // _MONTHS)  # ceil: the first index in that month
    year, month_of_year = divmod(month, 12)
    return (
        f"{(_FIRST_YEAR + year) % 100:02d}{month_of_year + 1:02d}.{index - first_in_month + 1:05d}"
    )


def _title(rng: random.Random) -> str:
    """A title led by a coined method name, so that titles repeat about as rarely as real
    arXiv titles do at every scale: without it the four patterns give about 140,000 titles, and
    at 100x each is shared by 20 papers on average (100 for the short patterns), which makes
    every load's title reconciliation (kg.load: papers with the same normalised title) grow
    with the square of the set's size."""
    name = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    return f"{name}: {_base_title(rng)}"


def _base_title(rng: random.Random) -> str:
    adjective = rng.choice(_ADJECTIVES)
    noun = rng.choice(_NOUNS)
    task = rng.choice(_TASKS)
    pattern = rng.randrange(4)
    if pattern == 0:
        return f"{adjective} {noun} for {task}"
    if pattern == 1:
        return f"On the {rng.choice(_NOUNS)} of {adjective} {noun}"
    if pattern == 2:
        return f"{adjective} {noun}: {rng.choice(_ADJECTIVES)} {task} at Scale"
    return f"Towards {adjective} {task} with {noun}"


def _first_name(rng: random.Random) -> str:
    first = rng.choice(_FIRST_NAMES)
    return f"{first} {chr(65 + rng.randrange(26))}." if rng.random() < 0.5 else first


def _last_name(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return rng.choice(_LAST_NAMES)
    syllables = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
    return syllables.capitalize()


def _record(rng: random.Random, arxiv_id: str, month: int) -> dict[str, object]:
    year, month_of_year = divmod(month, 12)
    year += _FIRST_YEAR
    day = rng.randint(1, 28)
    weekday = _DAYS[date(year, month_of_year + 1, day).weekday()]
    created = (
        f"{weekday}, {day} {_MONTH_NAMES[month_of_year]} {year} "
        f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d} GMT"
    )
    authors = [(_last_name(rng), _first_name(rng)) for _ in range(rng.randint(1, 6))]
    author_text = ", ".join(f"{first} {last}" for last, first in authors[:-1])
    author_text = (
        f"{author_text} and {authors[-1][1]} {authors[-1][0]}"
        if author_text
        else f"{authors[0][1]} {authors[0][0]}"
    )
    primary = rng.choice(CATEGORIES)
    cross = [code for code in rng.sample(CATEGORIES, rng.randint(0, 2)) if code != primary]
    title = _title(rng)
    update_year = year + rng.randint(0, 2)
    return {
        "id": arxiv_id,
        "submitter": f"{authors[0][1]} {authors[0][0]}",
        "authors": author_text,
        "title": title,
        "comments": f"{rng.randint(4, 40)} pages, {rng.randint(1, 12)} figures",
        "journal-ref": None,
        "doi": None,
        "report-no": None,
        "categories": " ".join([primary, *cross]),
        "license": "http://creativecommons.org/licenses/by/4.0/",
        "abstract": (
            f"  We {rng.choice(_VERBS)} {rng.choice(_ADJECTIVES).lower()} "
            f"{rng.choice(_NOUNS).lower()} for {rng.choice(_TASKS).lower()}, and show that "
            f"they improve on\n{rng.choice(_NOUNS).lower()} by {rng.randint(2, 40)}%.\n"
        ),
        "versions": [{"version": "v1", "created": created}],
        "update_date": f"{min(update_year, 2025)}-{month_of_year + 1:02d}-{day:02d}",
        "authors_parsed": [[last, first, ""] for last, first in authors],
    }


def _references(rng: random.Random, index: int, pool: array[int], mean: float) -> list[int]:
    """Return the distinct older papers paper ``index`` cites, by preferential attachment."""
    wanted = min(index, int(rng.expovariate(1.0 / mean) + 0.5))
    if wanted == 0:
        return []
    if wanted * 2 >= index:
        return sorted(rng.sample(range(index), wanted))
    chosen: set[int] = set()
    while len(chosen) < wanted:
        chosen.add(pool[rng.randrange(len(pool))])
    return sorted(chosen)


def generate(
    papers: int, seed: int, out: Path, mean_references: float = MEAN_REFERENCES
) -> SyntheticSet:
    """Write ``papers`` arXiv records and their citation edges under ``out``; return the set.

    The same ``papers`` and ``seed`` always give byte-identical files. Raises ValueError
    for fewer than one paper or more than the id space holds.
    """
    if papers < 1:
        raise ValueError("at least one paper")
    out.mkdir(parents=True, exist_ok=True)
    arxiv_path = out / f"arxiv-{papers}-s{seed}.jsonl.gz"
    edges_path = out / f"cites-{papers}-s{seed}.csv"
    rng = random.Random(seed)
    pool: array[int] = array("i")  # each paper once, plus once per citation it receives
    citations = 0
    with (
        arxiv_path.open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6) as arxiv,
        edges_path.open("w", encoding="utf-8", newline="\n") as edges,
    ):
        edges.write("citing,cited\n")
        lines: list[str] = []
        for index in range(papers):
            arxiv_id = paper_id(index, papers)
            record = _record(rng, arxiv_id, _month_of(index, papers))
            lines.append(json.dumps(record, ensure_ascii=False))
            references = _references(rng, index, pool, mean_references)
            if references:
                edges.write(
                    "".join(f"{arxiv_id},{paper_id(cited, papers)}\n" for cited in references)
                )
                citations += len(references)
                pool.extend(references)
            pool.append(index)
            if len(lines) >= 1000:
                arxiv.write(("\n".join(lines) + "\n").encode("utf-8"))
                lines = []
        if lines:
            arxiv.write(("\n".join(lines) + "\n").encode("utf-8"))
    return SyntheticSet(arxiv_path, edges_path, papers, citations)


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and write one synthetic set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, required=True, help="number of papers")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    args = parser.parse_args(argv)
    made = generate(args.papers, args.seed, args.out)
    print(f"{made.papers:,} papers -> {made.arxiv}")
    print(f"{made.citations:,} citations -> {made.edges}")


if __name__ == "__main__":
    main()
