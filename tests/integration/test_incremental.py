"""Incremental loads (`kg load NEW --since OLD`): only what changed is written, and the graph
holds the same facts as a full load of the newer snapshot."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kg import queries
from kg.cli import main
from kg.database import Database
from kg.errors import SourceError
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from tests.arxiv_lines import arxiv_line

PAPERS = 200
CHANGED = (7, 120)  # records whose abstract and update date change
REMOVED = 50  # a record the newer snapshot no longer holds
FACTS = {
    "papers": """
        MATCH (p:Paper)
        RETURN p.key AS key, p.title AS title, p.abstract AS abstract, p.year AS year,
               p.years AS years, p.published AS published, p.stub AS stub
        ORDER BY key""",
    "authors": """
        MATCH (a:Author)-[r:AUTHORED]->(p:Paper)
        RETURN p.key AS paper, a.key AS author, r.position AS position
        ORDER BY paper, position""",
    "categories": """
        MATCH (p:Paper)-[r:PRIMARY_CATEGORY|CROSS_LISTED]->(c:Category)
        RETURN p.key AS paper, type(r) AS kind, c.code AS code ORDER BY paper, kind, code""",
    "cites": """
        MATCH (a:Paper)-[:CITES]->(b:Paper)
        RETURN a.key AS citing, b.key AS cited ORDER BY citing, cited""",
    "snapshots": """
        MATCH (s:Snapshot)
        RETURN s.source AS source, s.data_date AS data_date, s.first_date AS first_date
        ORDER BY source""",
}


def _id(n: int) -> str:
    return f"2101.{n:05d}"


def _records(changed: bool) -> list[str]:
    lines = []
    for n in range(1, PAPERS + 1):
        if changed and n == REMOVED:
            continue
        update = "2024-05-01" if changed and n in CHANGED else "2021-03-01"
        lines.append(
            arxiv_line(
                _id(n),
                f"Paper number {n}",
                "Mon, 4 Jan 2021 10:00:00 GMT",
                update,
                authors=f"A. Writer{n % 17} and B. Other",
                abstract=f"Abstract {n} as of {update}.",
            )
        )
    if changed:
        lines.append(
            arxiv_line(_id(PAPERS + 1), "A new paper", "Mon, 3 May 2021 10:00:00 GMT", "2024-05-01")
        )
        # the newer dump lists the same records in another order
        random.Random(3).shuffle(lines)
    return lines


def _edges(changed: bool) -> str:
    rng = random.Random(11)
    pairs = {(rng.randint(2, PAPERS), rng.randint(1, PAPERS)) for _ in range(400)}
    edges = sorted((a, b) for a, b in pairs if a != b)
    if changed:
        edges += [(PAPERS + 1, 1), (PAPERS + 1, 2)]
    return "citing,cited\n" + "".join(f"{_id(a)},{_id(b)}\n" for a, b in edges)


def _write(folder: Path) -> dict[str, Path]:
    files = {
        "old.jsonl": "".join(_records(False)),
        "new.jsonl": "".join(_records(True)),
        "old.csv": _edges(False),
        "new.csv": _edges(True),
        # the same edges as old.csv, as SNAP-style tab-separated lines without a header:
        # another layout, so its lines are not compared with new.csv's, its edges are
        "old.tsv": _edges(False).split("\n", 1)[1].replace(",", "\t"),
    }
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return {name: folder / name for name in files}


def _facts(graph: Database) -> dict[str, list[dict[str, Any]]]:
    return {name: graph.read(query) for name, query in FACTS.items()}


def _described_by(graph: Database, path: Path) -> int:
    rows = graph.read(
        "MATCH (:Paper)-[d:DESCRIBED_IN]->(s:Snapshot {source: $name}) RETURN count(d) AS n",
        {"name": path.name},
    )
    return int(rows[0]["n"])


def test_an_incremental_load_writes_what_changed_and_holds_the_full_loads_facts(
    graph: Database, tmp_path: Path
) -> None:
    files = _write(tmp_path / "data")
    rejects = tmp_path / "rejects.jsonl"
    for name in ("old.jsonl", "old.csv"):
        KnowledgeGraph.on(graph).load([files[name]], rejects_path=rejects)

    papers = KnowledgeGraph.on(graph).load(
        [files["new.jsonl"]], since=files["old.jsonl"], rejects_path=rejects
    )
    edges = KnowledgeGraph.on(graph).load(
        [files["new.csv"]], since=files["old.csv"], rejects_path=rejects
    )

    newer = papers.files[0]
    assert (newer.papers, newer.carried) == (len(CHANGED) + 1, PAPERS - 1 - len(CHANGED))
    assert (edges.files[0].citations, edges.files[0].carried) == (2, edges.files[0].read - 2)
    # only the changed and the new record are described by the newer snapshot
    assert _described_by(graph, files["new.jsonl"]) == len(CHANGED) + 1
    follows = graph.read(
        "MATCH (n:Snapshot)-[f:FOLLOWS]->(o:Snapshot) "
        "RETURN n.source AS new, o.source AS old, f.unchanged AS unchanged ORDER BY new"
    )
    assert follows == [
        {"new": "new.csv", "old": "old.csv", "unchanged": edges.files[0].carried},
        {"new": "new.jsonl", "old": "old.jsonl", "unchanged": newer.carried},
    ]
    changed = graph.read(
        "MATCH (p:Paper) WHERE p.key IN $keys RETURN p.abstract AS abstract ORDER BY p.key",
        {"keys": [_id(n) for n in CHANGED]},
    )
    assert [row["abstract"] for row in changed] == [
        f"Abstract {n} as of 2024-05-01." for n in CHANGED
    ]
    # an unchanged paper's sources, which kg unmerge asks to reload, include the newer
    # snapshots that restate it
    sources = queries.load.paper_sources.run(graph, key=_id(1))
    assert {row["source"] for row in sources} == {"old.jsonl", "new.jsonl", "old.csv", "new.csv"}
    incremental = _facts(graph)

    # The same again changes nothing: the newer file was loaded whole.
    again = KnowledgeGraph.on(graph).load(
        [files["new.jsonl"]], since=files["old.jsonl"], rejects_path=rejects
    )
    assert again.files[0].unchanged
    assert again.counts.properties_set == 0

    # A full load of both snapshots holds the same facts; every record of the newer one is
    # then described by it.
    clear_database(graph)
    for name in ("old.jsonl", "old.csv", "new.jsonl", "new.csv"):
        KnowledgeGraph.on(graph).load([files[name]], rejects_path=rejects)
    assert _facts(graph) == incremental
    assert _described_by(graph, files["new.jsonl"]) == PAPERS


def test_an_edge_list_of_another_layout_is_compared_edge_by_edge(
    graph: Database, tmp_path: Path
) -> None:
    files = _write(tmp_path / "data")
    rejects = tmp_path / "rejects.jsonl"
    KnowledgeGraph.on(graph).load([files["old.tsv"]], rejects_path=rejects)
    edges = KnowledgeGraph.on(graph).load(
        [files["new.csv"]], since=files["old.tsv"], rejects_path=rejects
    )
    newer = edges.files[0]
    assert (newer.citations, newer.carried) == (2, newer.read - 2)
    rows = graph.read("MATCH ()-[c:CITES]->() RETURN count(c) AS n")
    assert rows[0]["n"] == newer.read


def test_since_needs_one_file_and_an_older_snapshot_the_graph_holds_whole(
    graph: Database, tmp_path: Path
) -> None:
    files = _write(tmp_path / "data")
    rejects = tmp_path / "rejects.jsonl"
    with pytest.raises(SourceError, match="does not hold it whole") as never_loaded:
        KnowledgeGraph.on(graph).load(
            [files["new.jsonl"]], since=files["old.jsonl"], rejects_path=rejects
        )
    assert f"Load {files['old.jsonl']} first" in str(never_loaded.value)
    KnowledgeGraph.on(graph).load([files["old.jsonl"]], rejects_path=rejects)
    with pytest.raises(SourceError, match="2 inputs were named"):
        KnowledgeGraph.on(graph).load(
            [files["new.jsonl"], files["new.csv"]],
            since=files["old.jsonl"],
            rejects_path=rejects,
        )
    with pytest.raises(SourceError, match=r"is edge_list, and .*new\.jsonl is arxiv_oai"):
        KnowledgeGraph.on(graph).load(
            [files["new.jsonl"]], since=files["old.csv"], rejects_path=rejects
        )
    # none of the refused loads wrote the newer file's records
    assert _described_by(graph, files["new.jsonl"]) == 0

    result = CliRunner().invoke(
        main, ["load", str(files["new.jsonl"]), "--since", str(files["old.jsonl"]), "--bulk"]
    )
    assert result.exit_code == 2
    assert "--bulk needs an empty database" in result.output


def test_a_page_of_another_paper_is_not_linked_as_a_newer_snapshot(
    graph: Database, tmp_path: Path
) -> None:
    """--since between two map pages of different papers restates nothing of the older one:
    the newer page loads whole, and no FOLLOWS link claims it restates the other page."""
    rejects = tmp_path / "rejects.jsonl"
    pages = Path(__file__).parents[2] / "examples" / "map"
    KnowledgeGraph.on(graph).load([pages / "bert.txt"], rejects_path=rejects)
    other = KnowledgeGraph.on(graph).load(
        [pages / "t5.txt"], since=pages / "bert.txt", rejects_path=rejects
    )
    assert other.files[0].carried == 0
    assert other.files[0].papers == 1
    assert graph.read("MATCH ()-[f:FOLLOWS]->() RETURN count(f) AS n") == [{"n": 0}]
