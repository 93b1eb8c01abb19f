"""The direction of imports: the parsers stand alone, and the CLI talks to the library's face."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    """Return the absolute module names a file imports (relative imports are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_parsers_import_nothing_from_kg() -> None:
    files = sorted((REPO / "loaders").glob("*.py"))
    assert len(files) >= 10
    offenders = {
        f"{path.name}: {name}"
        for path in files
        for name in imported_modules(path)
        if name.split(".")[0] in {"kg", "loaders"}
    }
    assert not offenders, "loaders/ imports its siblings relatively and nothing of kg/"


def test_no_symlink_is_tracked() -> None:
    """A link breaks a Windows checkout and hides a package's importers: none is tracked."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: nothing is tracked")
    listing = subprocess.run(
        ["git", "ls-files", "--stage"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(listing) > 100
    links = [line.split("\t", 1)[1] for line in listing if line.startswith("120000 ")]
    assert not links, f"tracked symlinks: {links}"
    assert not (REPO / "kg" / "loaders").exists(), "the parsers are the package loaders"
