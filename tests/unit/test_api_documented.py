"""Every public name of the library is documented: it appears, spelled as a script spells
it, in the README or a file under docs/ (docs/API.md lists them all, one line each)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import kg
import kg.answers
from kg.knowledge_graph import Analytics, Exports, KnowledgeGraph, Plots

REPO = Path(__file__).resolve().parents[2]
PARTS = {"analytics": Analytics, "exports": Exports, "plots": Plots}


def documentation() -> str:
    """Return the README and every Markdown file under docs/, as one text."""
    files = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def public(cls: type) -> list[str]:
    """Return the public attributes of a class of the face (a part's graph is its owner)."""
    return sorted(name for name in dir(cls) if not name.startswith("_") and name != "graph")


def spellings() -> list[tuple[str, tuple[str, ...]]]:
    """Return each public name with the ways a script spells it, any one of which counts."""
    names: list[tuple[str, tuple[str, ...]]] = []
    names += [(f"kg.{name}", (f"kg.{name}",)) for name in kg.__all__]
    for name in public(KnowledgeGraph):
        names.append((f"graph.{name}", (f"graph.{name}", f"KnowledgeGraph.{name}")))
    for part, cls in PARTS.items():
        names += [(f"graph.{part}.{name}", (f"graph.{part}.{name}",)) for name in public(cls)]
    names += [
        (f"kg.answers.{name}", (f"`{name}`", f"kg.answers.{name}")) for name in kg.answers.__all__
    ]
    return names


def documented(text: str, forms: tuple[str, ...]) -> bool:
    # A name followed by more of a name is another name: graph.write is not graph.write_counters.
    return any(re.search(re.escape(form) + r"(?![\w])", text) for form in forms)


@pytest.mark.parametrize(("name", "forms"), spellings(), ids=[name for name, _ in spellings()])
def test_every_public_name_is_documented(name: str, forms: tuple[str, ...]) -> None:
    assert documented(documentation(), forms), (
        f"{name} is public but neither README.md nor docs/ names it; add a line to docs/API.md"
    )


def test_the_walk_reaches_the_face_and_its_parts() -> None:
    found = {name for name, _ in spellings()}
    assert {
        "kg.KnowledgeGraph",
        "graph.paper",
        "graph.analytics.rank",
        "graph.exports.write",
    } <= found
    assert {"graph.plots.years", "kg.answers.RankResult", "kg.answers.PaperReport"} <= found
    assert not documented("graph.write_counters", ("graph.write",))
