"""Map pages (the text a map page reads as) written by the tests and benchmarks."""

from __future__ import annotations


def map_page(title: str, arxiv_id: str | None, year: int, data_to: str, refs: list[str]) -> str:
    """A map page; without an arXiv id its paper is known by title and year only."""
    items = "\n".join(f"  {i}. {ref}" for i, ref in enumerate(refs, 1))
    n = len(refs)
    identity = f"arXiv {arxiv_id} ↗First posted 2 Jan {year}cs.CLcited by 1\n\n" if arxiv_id else ""
    posted = "" if arxiv_id else f" First posted on arXiv 2 January {year}."
    return (
        f"mlsanityData to {data_to}\n\n{title}\n\n{identity}"
        f"Key facts. Cited by 0 papers in the map (data through {data_to}). "
        f"Builds on {n} of its {n} references that are in the map.{posted}\n\n"
        f"Builds on\n\n{n} of {n} references.\n\nReferences · {n}\n\n{items}\n"
    )
