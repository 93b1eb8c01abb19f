"""SNAP's cit-HepTh and cit-HepPh write their ids as the same kind of integers: loaded with
their own schemes, the two networks stay apart, hep-th/9911206 beside hep-ph/9911206, and a
file loaded whole under one scheme is read again under the other. The networks here are
made up in their shape (tests/hepth_like.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from tests import hepth_like

SHARED = 9911206  # a number both archives have


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_hep_th_and_hep_ph_of_one_number_stay_two_papers(graph: Database, tmp_path: Path) -> None:
    hepth = _write(tmp_path / "hepth.txt", [f"{SHARED}\t9201001", "9201002\t9201001"])
    hepph = _write(tmp_path / "hepph.txt", [f"{SHARED}\t9305001", f"9305002\t{SHARED}"])
    metadata = _write(tmp_path / "hepth.jsonl", hepth_like.arxiv_lines([SHARED]))
    rejects = tmp_path / "r.jsonl"
    KnowledgeGraph.on(graph).load([hepth, metadata], id_scheme="snap-hepth", rejects_path=rejects)
    KnowledgeGraph.on(graph).load([hepph], id_scheme="snap-hepph", rejects_path=rejects)
    rows = graph.read(
        "MATCH (p:Paper) WHERE p.key ENDS WITH $number "
        "OPTIONAL MATCH (p)-[:CITES]->(cited:Paper) "
        "RETURN p.key AS key, p.title AS title, collect(cited.key) AS cites ORDER BY key",
        {"number": f"/{SHARED}"},
    )
    assert [(row["key"], sorted(row["cites"])) for row in rows] == [
        ("hep-ph/9911206", ["hep-ph/9305001"]),
        ("hep-th/9911206", ["hep-th/9201001"]),
    ]
    assert rows[0]["title"] is None  # the hep-th record's title stays on the hep-th paper
    assert rows[1]["title"].endswith(f"({SHARED})")
    counts = graph.read(
        "MATCH (p:Paper) RETURN split(p.key, '/')[0] AS archive, count(*) AS n ORDER BY archive"
    )
    assert [(row["archive"], row["n"]) for row in counts] == [("hep-ph", 3), ("hep-th", 3)]


def test_a_file_loaded_whole_as_hep_th_is_read_again_as_hep_ph(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    edges = _write(tmp_path / "cit-HepPh.txt", hepth_like.edge_lines(30, 40))
    runner = CliRunner()
    first = runner.invoke(main, ["load", "--id-scheme", "snap-hepth", str(edges), "--json"])
    assert first.exit_code == 0, first.output
    again = runner.invoke(main, ["load", "--id-scheme", "snap-hepth", str(edges), "--json"])
    assert json.loads(again.output)["unchanged"] == [str(edges)]
    second = runner.invoke(main, ["load", "--id-scheme", "snap-hepph", str(edges), "--json"])
    assert second.exit_code == 0, second.output
    assert json.loads(second.output)["unchanged"] == []
    counts = graph.read(
        "MATCH (a:Paper)-[:CITES]->(b:Paper) "
        "RETURN split(a.key, '/')[0] AS archive, count(*) AS n ORDER BY archive"
    )
    assert [(row["archive"], row["n"]) for row in counts] == [("hep-ph", 30), ("hep-th", 30)]
    snapshots = graph.read("MATCH (s:Snapshot) RETURN s.key AS key, s.sha256 AS sha ORDER BY key")
    assert len(snapshots) == 2
    assert snapshots[0]["sha"] == snapshots[1]["sha"]
    assert snapshots[1]["key"] == snapshots[0]["key"] + ":snap-hepph"
