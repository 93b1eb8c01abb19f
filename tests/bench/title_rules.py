"""What normalize_title costs a title, now and at an older commit.

Run: python -m tests.bench.title_rules [COMMIT] (default 4168a9d, the last kg 0.6.0)

Loads loaders/identity.py as COMMIT holds it beside the working tree's, normalises the same
1,000 titles (a LaTeX one and a plain one, 500 times each) with both, and prints the best of
9 runs per title.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TITLES = [
    "Long quantum superstrings in $AdS_5 \\times S^5$",
    "Attention Is All You Need: a study of transformers in large language models",
] * 500


def _module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _cost(module: Any) -> float:
    runs = timeit.repeat(lambda: [module.normalize_title(t) for t in TITLES], number=1, repeat=9)
    return min(runs) / len(TITLES) * 1e6


def main() -> None:
    commit = sys.argv[1] if len(sys.argv) > 1 else "4168a9d"
    text = subprocess.run(
        ["git", "show", f"{commit}:loaders/identity.py"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "identity_then.py"
        old.write_text(text, encoding="utf-8")
        then = _cost(_module(old, "identity_then"))
    now = _cost(_module(REPO / "loaders" / "identity.py", "identity_now"))
    print(f"normalize_title: {commit} {then:.1f} us a title; working tree {now:.1f} us a title")


if __name__ == "__main__":
    main()
