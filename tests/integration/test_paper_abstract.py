"""kg paper shows what the map page shows under the key facts: the journal reference and
the abstract, wrapped to the terminal."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from rich.cells import cell_len

from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection

SAMPLE = Path(__file__).parents[1] / "fixtures" / "arxiv" / "sample.jsonl"


def test_kg_paper_shows_the_journal_ref_and_the_abstract(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    KnowledgeGraph.on(graph).load([SAMPLE], rejects_path=tmp_path / "rejects.jsonl")
    result = CliRunner().invoke(main, ["paper", "0704.0001"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("journal ref" in line and "Inv.Phys.D76:000001,2007" in line for line in lines)
    assert "Abstract" in lines
    after = lines[lines.index("Abstract") + 1]
    assert after.startswith("A fully invented calculation in made-up chromodynamics")
    assert all(cell_len(line) <= 80 for line in lines)
