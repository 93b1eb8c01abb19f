"""Would pylatexenc pay for itself? The project's own LaTeX handling against pylatexenc's
``LatexNodes2Text``, on every title and author name of the real hep-th abstracts.

    pip install pylatexenc==2.11   # not a dependency of the project; make bench installs it
    python -m tests.bench.latex --out docs/BENCHMARKS-latex.md

It reads the cit-HepTh abstracts (``$KG_DATA_DIR/data/cit-hepth``) with the project's own
parser, then:

- titles: the matching form (``normalize_title``) against the same folding with pylatexenc
  doing the LaTeX (only for titles with a ``\\``, ``$`` or brace, as a fast path; unknown
  commands kept as their names, as the project does, so that titles differing only in a
  command stay apart): how many titles differ, how many groups of titles one joins that the
  other keeps apart (what identity sees), and the time per title;
- names: each record's author list split as the loader splits it, with its LaTeX turned into
  Unicode by the project (``latex_name``) or by pylatexenc: how many Author keys
  (``normalize_name``) differ, with examples, and the time per name.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from loaders import arxiv_oai
from loaders import titles as ids
from loaders.formats import parse_file
from loaders.records import PaperRecord
from tests.bench.common import machine, print_and_write
from tests.data import REAL_HEPTH_ABSTRACTS

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = 12


def _converter() -> tuple[Callable[[str], str], str]:
    """pylatexenc's LaTeX-to-text, keeping unknown commands as their names; its version."""
    try:
        import pylatexenc
        from pylatexenc.latex2text import (
            LatexNodes2Text,
            MacroTextSpec,
            get_default_latex_context_db,
        )
    except ImportError:
        sys.exit("pylatexenc is not installed: pip install pylatexenc==2.11 (make bench does)")
    context = get_default_latex_context_db()
    context.set_unknown_macro_spec(
        MacroTextSpec("", simplify_repl=lambda node, *_: f" {node.macroname} ")
    )
    nodes = LatexNodes2Text(latex_context=context, math_mode="text", strict_latex_spaces=False)
    return nodes.latex_to_text, pylatexenc.__version__


def _title_with(convert: Callable[[str], str]) -> Callable[[str], str]:
    """normalize_title's folding with ``convert`` doing the LaTeX."""

    def normalise(title: str) -> str:
        text = unicodedata.normalize("NFKC", title)
        if "\\" in text or "$" in text or "{" in text:
            text = convert(text)
        text = unicodedata.normalize("NFKC", text)
        return ids.collapse_spaces(ids._NON_WORD.sub(" ", text.casefold()))

    return normalise


def _per_item(function: Callable[[str], str], items: list[str]) -> tuple[list[str], float]:
    """Every item through ``function``, and the best of three runs' microseconds per item."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        out = [function(item) for item in items]
        times.append((time.perf_counter() - start) / max(len(items), 1) * 1e6)
    return out, min(times)


def _groups(items: list[str], forms: list[str]) -> dict[str, set[str]]:
    grouped: dict[str, set[str]] = defaultdict(set)
    for item, form in zip(items, forms, strict=True):
        grouped[form].add(item)
    return grouped


def _joined(grouped: dict[str, set[str]], other: Callable[[str], str]) -> list[set[str]]:
    """The groups of ``grouped`` that the other form splits."""
    return [members for members in grouped.values() if len({other(m) for m in members}) > 1]


def _records(path: Path) -> list[PaperRecord]:
    return [
        item
        for item in parse_file(path, "hepth_abs", "snap-hepth")
        if isinstance(item, PaperRecord)
    ]


def _raw_names(path: Path) -> tuple[list[PaperRecord], list[str]]:
    """The records, and every name as it stood before its LaTeX was turned into Unicode."""
    seen: list[str] = []
    own = arxiv_oai.latex_name

    def recording(text: str) -> str:
        seen.append(text)
        return own(text)

    arxiv_oai.latex_name = recording
    try:
        records = _records(path)
    finally:
        arxiv_oai.latex_name = own
    return records, seen


def report(path: Path) -> list[str]:
    convert, version = _converter()
    records, raw_names = _raw_names(path)
    titles = [r.title for r in records if r.title]
    with_latex = sum(1 for t in titles if "\\" in t or "$" in t)

    theirs = _title_with(convert)
    ours_forms, ours_us = _per_item(ids.normalize_title, titles)
    their_forms, their_us = _per_item(theirs, titles)
    differ = [(t, a, b) for t, a, b in zip(titles, ours_forms, their_forms, strict=True) if a != b]
    joined_by_them = _joined(_groups(titles, their_forms), ids.normalize_title)
    joined_by_us = _joined(_groups(titles, ours_forms), theirs)

    latex_names = [n for n in raw_names if "\\" in n or "~" in n or "--" in n]
    ours_names, ours_name_us = _per_item(arxiv_oai.latex_name, latex_names)

    def their_name(text: str) -> str:
        return ids.collapse_spaces(convert(text))

    their_names, their_name_us = _per_item(their_name, latex_names)
    name_differ = [
        (raw, a, b)
        for raw, a, b in zip(latex_names, ours_names, their_names, strict=True)
        if ids.normalize_name(a) != ids.normalize_name(b)
    ]

    facts = machine()
    lines = [
        "# LaTeX to Unicode: the project's rules against pylatexenc",
        "",
        "Measured with `python -m tests.bench.latex` (after `pip install pylatexenc`) on "
        f"`{path.name}`: {len(records):,} records, {len(titles):,} titles ({with_latex:,} "
        f"with LaTeX), {len(raw_names):,} author names ({len(latex_names):,} with LaTeX, a `~` "
        f"or a `--`). pylatexenc {version}; {facts['cores']} cores, Python "
        f"{sys.version.split()[0]}.",
        "",
        "## Titles (the matching form, `normalize_title`)",
        "",
        "| | project | pylatexenc |",
        "| --- | --- | --- |",
        f"| microseconds per title (best of 3) | {ours_us:.1f} | {their_us:.1f} |",
        f"| distinct matching forms | {len(set(ours_forms)):,} | {len(set(their_forms)):,} |",
        f"| groups of titles it joins that the other keeps apart | {len(joined_by_us)} | "
        f"{len(joined_by_them)} |",
        "",
        f"{len(differ)} titles get another matching form. The first {EXAMPLES}, in file order:",
        "",
        "| title | project | pylatexenc |",
        "| --- | --- | --- |",
        *(f"| `{t}` | {a} | {b} |" for t, a, b in differ[:EXAMPLES]),
        "",
        "## Author names (`latex_name`, then the Author key `normalize_name`)",
        "",
        "| | project | pylatexenc |",
        "| --- | --- | --- |",
        f"| microseconds per name with LaTeX (best of 3) | {ours_name_us:.1f} | "
        f"{their_name_us:.1f} |",
        "",
        f"{len(name_differ)} of the {len(latex_names):,} names get another Author key:",
        "",
        "| as written | project | pylatexenc |",
        "| --- | --- | --- |",
        *(f"| `{raw}` | {a} | {b} |" for raw, a, b in name_differ),
        "",
        f"Median title length: {statistics.median(len(t) for t in titles):.0f} characters.",
    ]
    return [line.replace("|  |", "| |") for line in lines]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--abstracts", type=Path, default=REAL_HEPTH_ABSTRACTS)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "BENCHMARKS-latex.md")
    args = parser.parse_args(argv)
    if not args.abstracts.exists():
        sys.exit(f"{args.abstracts} is missing: set KG_DATA_DIR to the folder holding data/")
    print_and_write(report(args.abstracts), args.out)


if __name__ == "__main__":
    main()
