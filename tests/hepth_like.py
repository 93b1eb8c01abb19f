"""A made-up citation network in cit-HepTh's shape, for tests that need its form, not its data.

The project ships no public data (tests on the real cit-HepTh read it through KG_DATA_DIR),
so tests of the load path's faults and concurrency draw on this instead: a seeded SNAP edge
list whose ids are hep-th numbers written as integers (``9711200`` is ``hep-th/9711200``,
``1001`` is ``hep-th/0001001``), and arXiv metadata lines for those papers. Every title and
name is made up here. Papers cite older papers only, by preferential attachment, as in the
real network; the same seed always gives the same text.
"""

from __future__ import annotations

import json
import random

__all__ = ["SNAP_HEADER", "arxiv_lines", "edge_lines", "hepth_number", "papers"]

SNAP_HEADER = (
    "# Directed graph (each unordered pair of nodes is saved once): made-up-hep-th.txt \n"
    "# A made-up citation network in the shape of SNAP's cit-HepTh\n"
    "# Nodes: {nodes} Edges: {edges}\n"
    "# FromNodeId\tToNodeId\n"
)

_WORDS = (
    "Dualities",
    "Branes",
    "Anomalies",
    "Solitons",
    "Moduli",
    "Instantons",
    "Gauge Fields",
    "Black Holes",
    "Strings",
    "Orbifolds",
    "Monopoles",
    "Matrix Models",
)
_TOPICS = ("on Curved Backgrounds", "in Three Dimensions", "at Large N", "and Their Limits")
_NAMES = ("A. Ferro", "B. Quill", "C. Marlowe", "D. Okafor", "E. Lindqvist", "F. Tanabe")


def hepth_number(index: int) -> int:
    """The SNAP integer of the ``index``-th made-up paper: 1992-01 on, 400 papers a month."""
    month = index // 400
    year = 1992 + month // 12
    return (year % 100) * 100_000 + (month % 12 + 1) * 1_000 + index % 400 + 1


def papers(count: int) -> list[int]:
    """The SNAP integers of ``count`` made-up papers, in posting order."""
    return [hepth_number(index) for index in range(count)]


def edge_lines(count: int, papers_count: int, seed: int = 7) -> list[str]:
    """``count`` distinct citation lines ``CITING<TAB>CITED`` among ``papers_count`` papers,
    no header: the newer two thirds cite, in posting order as SNAP lists them, 1 to 20 older
    papers each, drawn by preferential attachment."""
    rng = random.Random(seed)
    numbers = papers(papers_count)
    citing = papers_count // 3
    pool: list[int] = list(range(citing))
    seen: set[tuple[int, int]] = set()
    lines: list[str] = []
    while len(lines) < count:
        for _ in range(rng.randint(1, 20)):
            cited = pool[rng.randrange(len(pool))]
            if (citing, cited) not in seen:
                seen.add((citing, cited))
                lines.append(f"{numbers[citing]}\t{numbers[cited]}")
                pool.append(cited)
                if len(lines) == count:
                    break
        pool.append(citing)
        citing += 1
        if citing == papers_count:
            raise ValueError(f"{papers_count} papers hold fewer than {count} citations here")
    return lines


def arxiv_lines(numbers: list[int], seed: int = 11) -> list[str]:
    """arXiv metadata snapshot lines (Kaggle/OAI JSON) for the papers ``numbers`` name."""
    rng = random.Random(seed)
    lines: list[str] = []
    for number in numbers:
        arxiv_id = f"hep-th/{number:07d}"
        year = 1900 + number // 100_000 if number >= 9_000_000 else 2000 + number // 100_000
        month = number // 1_000 % 100
        title = f"{rng.choice(_WORDS)} {rng.choice(_TOPICS)} ({number})"
        authors = rng.sample(_NAMES, rng.randint(1, 3))
        record = {
            "id": arxiv_id,
            "title": title,
            "authors": ", ".join(authors),
            "categories": "hep-th",
            "versions": [
                {"version": "v1", "created": f"Mon, 1 {_MONTHS[month - 1]} {year} 12:00:00 GMT"}
            ],
        }
        lines.append(json.dumps(record))
    return lines


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
