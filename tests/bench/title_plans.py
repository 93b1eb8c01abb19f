"""What the identity rule costs on its own: ``title_plan`` over every title of a loaded graph.

Reads every normalised title's candidates and the keys its pages list apart, as a reconcile
reads them (``reconcile_titles``, ``title_evidence``), from the server NEO4J_* or
KG_HOME names, then times ``title_plan`` over all of them, best of five. ``--identity``
names another version's ``loaders/identity.py`` to time (a worktree of an older commit), so
two versions can be compared on one graph; it also counts the titles whose plan asks for a
change, which is 0 under the rule that built the graph:

    python -m tests.bench.title_plans [--identity /tmp/old/loaders/identity.py]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

from kg import queries
from kg.database import Database
from kg.load.reconcile import candidates_by_title, title_evidence


def _module(path: Path) -> ModuleType:
    """Import ``path`` (an identity.py) as a module of its own folder's package, renamed
    bench_loaders, so that its relative imports read that tree's modules, not these."""
    package = importlib.util.spec_from_file_location(
        "bench_loaders", path.parent / "__init__.py", submodule_search_locations=[str(path.parent)]
    )
    if package is None or package.loader is None:
        raise SystemExit(f"{path.parent}: not a Python package")
    sys.modules[package.name] = importlib.util.module_from_spec(package)
    package.loader.exec_module(sys.modules[package.name])
    return importlib.import_module(f"bench_loaders.{path.stem}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--identity", type=Path, help="an identity.py to time instead")
    args = parser.parse_args()
    rule = _module(args.identity) if args.identity else sys.modules["loaders.identity"]
    with Database.connect() as graph:
        titles = [
            row["t"]
            for row in graph.read(
                "MATCH (p:Paper) WHERE p.norm_title IS NOT NULL RETURN DISTINCT p.norm_title AS t"
            )
        ]
        found = queries.load.reconcile_titles.run(graph, norm_titles=titles)
        _, listed = title_evidence(queries.load.title_evidence.run(graph, norm_titles=titles))
    grouped = {
        norm: [
            rule.TitleCandidate(c.key, c.arxiv_id, c.year, c.aliases, c.stated_years, c.recorded)
            for c in candidates
        ]
        for norm, candidates in candidates_by_title(found).items()
    }
    best = float("inf")
    needed = 0
    for _ in range(5):
        start = time.perf_counter()
        needed = sum(
            rule.title_plan(norm, found, (), listed.get(norm, ())).needed
            for norm, found in grouped.items()
        )
        best = min(best, time.perf_counter() - start)
    count = sum(len(found) for found in grouped.values())
    print(f"{len(grouped):,} titles, {count:,} candidates: {best * 1000:.1f} ms, best of 5")
    print(f"titles whose plan asks for a change: {needed:,}")


if __name__ == "__main__":
    main()
