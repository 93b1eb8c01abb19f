"""Exports read back with independent readers, counts equal to the graph's."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import networkx as nx
import pytest
import rispy
from bibtexparser.entrypoint import parse_string
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.export import FORMATS, Selection, export
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from tests.data import HOSTILE_TITLE


def _counts(graph: Database, keys: list[str] | None = None) -> tuple[int, int]:
    row = graph.read(
        "MATCH (p:Paper) WHERE $keys IS NULL OR p.key IN $keys WITH collect(p) AS ps "
        "RETURN size(ps) AS papers, "
        "COUNT { MATCH (a:Paper)-[:CITES]->(b:Paper) WHERE a IN ps AND b IN ps } AS cites",
        {"keys": keys},
    )[0]
    return row["papers"], row["cites"]


@pytest.mark.parametrize("fmt", ["graphml", "gexf", "pajek"])
def test_network_files_read_back_with_networkx(
    small_map: Database, tmp_path: Path, fmt: str
) -> None:
    path = tmp_path / f"map.{fmt}"
    summary = export(small_map, fmt, path)
    papers, cites = _counts(small_map)
    assert (summary.papers, summary.citations) == (papers, cites)
    reader = {"graphml": nx.read_graphml, "gexf": nx.read_gexf, "pajek": nx.read_pajek}[fmt]
    read = reader(path)
    assert read.number_of_nodes() == papers
    assert read.number_of_edges() == cites
    if fmt == "pajek":
        assert "2110.03888" in read.nodes
        return
    node = read.nodes["2110.03888"]
    assert node["year"] == 2021
    assert node["category"] == "cs.LG"
    assert node["stub"] is False
    assert read.has_edge("2110.03888", "1706.03762")
    title = read.nodes["2101.99999"]["title" if fmt == "graphml" else "label"]
    assert title == HOSTILE_TITLE.replace("\x07", "\ufffd")


def test_csv_reads_back(small_map: Database, tmp_path: Path) -> None:
    summary = export(small_map, "csv", tmp_path / "csv")
    with (tmp_path / "csv" / "papers.csv").open(encoding="utf-8", newline="") as handle:
        papers = list(csv.DictReader(handle))
    with (tmp_path / "csv" / "citations.csv").open(encoding="utf-8", newline="") as handle:
        citations = list(csv.DictReader(handle))
    assert (len(papers), len(citations)) == _counts(small_map)
    assert (summary.papers, summary.citations) == (len(papers), len(citations))
    m6 = next(p for p in papers if p["key"] == "2110.03888")
    assert m6["authors"].split("; ")[:2] == ["Ang Wang", "An Yang"]
    assert m6["year"] == "2021"
    assert {"citing": "2110.03888", "cited": "1706.03762"} in citations


def test_bibtex_and_ris_read_back(small_map: Database, tmp_path: Path) -> None:
    papers, _ = _counts(small_map)
    export(small_map, "bibtex", tmp_path / "map.bib")
    library = parse_string((tmp_path / "map.bib").read_text(encoding="utf-8"))
    assert library.failed_blocks == []
    assert len(library.entries) == papers
    assert len({entry.key for entry in library.entries}) == papers
    m6 = next(e for e in library.entries if e.key == "2110.03888")
    fields = {name: field.value for name, field in m6.fields_dict.items()}
    assert fields["eprint"] == "2110.03888"
    assert fields["archiveprefix"] == "arXiv"
    assert fields["primaryclass"] == "cs.LG"
    assert fields["author"].startswith("Ang Wang and An Yang and ")
    export(small_map, "ris", tmp_path / "map.ris")
    with (tmp_path / "map.ris").open(encoding="utf-8") as handle:
        records = rispy.load(handle)
    assert len(records) == papers
    m6_ris = next(r for r in records if r.get("id") == "2110.03888")
    assert m6_ris["authors"][:2] == ["Ang Wang", "An Yang"]
    assert m6_ris["year"] == "2021"


def test_vosviewer_files(small_map: Database, tmp_path: Path) -> None:
    summary = export(small_map, "vosviewer", tmp_path / "vos")
    lines = (tmp_path / "vos" / "map.txt").read_text(encoding="utf-8").splitlines()
    links = (tmp_path / "vos" / "network.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["id", "label", "cluster", "weight<Citations>", "score<Year>"]
    assert (len(lines) - 1, len(links)) == _counts(small_map)
    ids = {int(line.split("\t")[0]) for line in lines[1:]}
    assert ids == set(range(1, summary.papers + 1))
    assert all({int(a), int(b)} <= ids for a, b, _ in (link.split("\t") for link in links))


def test_selections(small_map: Database, tmp_path: Path) -> None:
    near = small_map.read(
        "MATCH (p:Paper {key: '2110.03888'})-[:CITES]-(q:Paper) RETURN collect(DISTINCT q.key) AS k"
    )[0]["k"]
    around = export(small_map, "graphml", tmp_path / "a.graphml", Selection(around="2110.03888"))
    assert (around.papers, around.citations) == _counts(small_map, [*near, "2110.03888"])
    cs_cl = small_map.read(
        "MATCH (p:Paper)-[:PRIMARY_CATEGORY|CROSS_LISTED]->(:Category {code: 'cs.CL'}) "
        "RETURN collect(DISTINCT p.key) AS k"
    )[0]["k"]
    by_category = export(small_map, "csv", tmp_path / "c", Selection(category="cs.CL"))
    assert (by_category.papers, by_category.citations) == _counts(small_map, cs_cl)
    years = export(small_map, "csv", tmp_path / "y", Selection(year_from=2019, year_to=2019))
    in_2019 = small_map.read("MATCH (p:Paper {year: 2019}) RETURN collect(p.key) AS k")[0]["k"]
    assert (years.papers, years.citations) == _counts(small_map, in_2019)
    KnowledgeGraph.on(small_map).analytics.rank("pagerank", engine="igraph", write=True)
    top = export(small_map, "csv", tmp_path / "t", Selection(top=3))
    assert top.papers == 3
    best = small_map.read(
        "MATCH (p:Paper) RETURN p.key AS key ORDER BY p.pagerank DESC, p.key LIMIT 3"
    )
    with (tmp_path / "t" / "papers.csv").open(encoding="utf-8", newline="") as handle:
        assert {row["key"] for row in csv.DictReader(handle)} == {row["key"] for row in best}
    KnowledgeGraph.on(small_map).analytics.communities(engine="igraph", write=True)
    community = small_map.read("MATCH (p:Paper {key: '2110.03888'}) RETURN p.community AS c")[0][
        "c"
    ]
    members = small_map.read(
        "MATCH (p:Paper {community: $c}) RETURN collect(p.key) AS k", {"c": community}
    )[0]["k"]
    chosen = export(small_map, "csv", tmp_path / "m", Selection(community=community))
    assert (chosen.papers, chosen.citations) == _counts(small_map, members)


def test_export_command(small_map: Database, kg_env: Connection, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["export", "gexf", str(tmp_path / "m.gexf"), "--category", "cs.CL", "--json"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["selection"] == "papers in cs.CL"
    assert payload["papers"] == nx.read_gexf(tmp_path / "m.gexf").number_of_nodes()
    empty = CliRunner().invoke(main, ["export", "csv", str(tmp_path / "e"), "--years", "1800"])
    assert empty.exit_code == 2  # a selection that selects nothing: a ParameterError
    assert "Error: no paper matches the selection (papers from 1800 to 1800)" in empty.output
    no_rank = CliRunner().invoke(main, ["export", "csv", str(tmp_path / "r"), "--top", "5"])
    assert no_rank.exit_code == 2  # --top before `kg rank` wrote a rank: a ParameterError
    assert "kg rank" in no_rank.output
    assert set(FORMATS) == {"graphml", "gexf", "pajek", "csv", "vosviewer", "bibtex", "ris"}


def test_missing_folders_are_refused_not_made(
    small_map: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """`kg export csv /nonexistent/dir/x` and `kg plot years … -o /nonexistent2/y.png` made
    every missing folder of a mistyped path; they refuse, and make only a folder format's
    own folder."""
    runner = CliRunner()
    missing = tmp_path / "nonexistent" / "dir"
    for args in (
        ["export", "csv", str(missing / "x")],
        ["export", "graphml", str(missing / "x.graphml")],
        ["plot", "years", "1810.04805", "-o", str(missing / "y.png")],
    ):
        result = runner.invoke(main, args)
        assert result.exit_code == 2, result.output  # a ParameterError: a usage error
        assert result.output == f"Error: no folder {missing}. Create it first\n"
    assert not (tmp_path / "nonexistent").exists()
    made = runner.invoke(main, ["export", "csv", str(tmp_path / "out")])
    assert made.exit_code == 0, made.output
    assert (tmp_path / "out" / "papers.csv").is_file()
    (tmp_path / "file").write_text("")
    inside_a_file = runner.invoke(main, ["export", "ris", str(tmp_path / "file" / "x.ris")])
    assert inside_a_file.exit_code == 2
    assert "is not a folder" in inside_a_file.output
