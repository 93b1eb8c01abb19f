"""What normalize_title costs a title, now and at an older commit.

Run: python -m tests.bench.title_rules [COMMIT] (default 4168a9d, the last kg 0.6.0)

Takes the ``loaders`` package as COMMIT holds it (``git archive``) beside the working tree's,
normalises the same 1,000 titles (a LaTeX one and a plain one, 500 times each) with each in a
fresh interpreter whose ``loaders`` is that tree's (from ``loaders.titles``, or from
``loaders.identity`` where it lived before), and prints the best of 9 runs per title.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_COST = """
import timeit
try:
    from loaders.titles import normalize_title
except ImportError:
    from loaders.identity import normalize_title
TITLES = [
    "Long quantum superstrings in $AdS_5 \\\\times S^5$",
    "Attention Is All You Need: a study of transformers in large language models",
] * 500
runs = timeit.repeat(lambda: [normalize_title(t) for t in TITLES], number=1, repeat=9)
print(min(runs) / len(TITLES) * 1e6)
"""


def _cost(tree: Path) -> float:
    """Microseconds a title, best of 9, of normalize_title from ``tree``'s ``loaders``."""
    done = subprocess.run(
        [sys.executable, "-c", _COST],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        check=True,
        capture_output=True,
        text=True,
    )
    return float(done.stdout)


def main() -> None:
    commit = sys.argv[1] if len(sys.argv) > 1 else "4168a9d"
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "archive", commit, "loaders"], cwd=REPO, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        then = _cost(Path(folder))
    now = _cost(REPO)
    print(f"normalize_title: {commit} {then:.1f} us a title; working tree {now:.1f} us a title")


if __name__ == "__main__":
    main()
