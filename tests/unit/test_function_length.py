"""Every function of kg/ and loaders/ reads as named steps: none runs over MAX_LINES lines
(its def line to its last line) unless a comment on the line before it (or before its first
decorator) starting '# whole:' says why it must stay whole."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MAX_LINES = 60
WHOLE = "# whole:"


def _long_functions() -> dict[str, int]:
    """Return 'path:name' -> length of every function over MAX_LINES with no '# whole:'."""
    found: dict[str, int] = {}
    for root in ("kg", "loaders"):
        for path in sorted((REPO / root).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            lines = source.splitlines()
            for node in ast.walk(ast.parse(source)):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                before = lines[first - 2].strip() if first > 1 else ""
                if length > MAX_LINES and not before.startswith(WHOLE):
                    found[f"{path.relative_to(REPO).as_posix()}:{node.name}"] = length
    return found


def test_no_function_runs_over_the_limit() -> None:
    long = _long_functions()
    assert not long, (
        f"functions over {MAX_LINES} lines: "
        + ", ".join(f"{name} ({length})" for name, length in sorted(long.items()))
        + f"; break each into named steps, or say why it must stay whole ('{WHOLE} ...' on "
        "the line before its def)"
    )
