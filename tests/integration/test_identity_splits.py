"""Splits a user asks for hold: `kg unmerge` and a file of splits (`--keep-apart`) take a
key out of a merged paper, every later load keeps it out, and what cannot be taken apart
says so."""

from __future__ import annotations

import json
from pathlib import Path

from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection
from tests.graph_dump import differences, dump_graph
from tests.map_pages import map_page
from tests.titled_works import (
    arxiv_record,
    chained_work_pages,
    load_all,
    sparse_coding_pages,
)


def test_merge_records_and_unmerge_keep_a_split_on_every_later_load(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """Two pages cite "Sparse Coding" as 2010 and 2011: the rule makes them one paper, and
    `kg merges` says which key joined by which rule and from which snapshots. `kg unmerge`
    splits them; reloading the sources it names, in either order and twice, keeps two papers,
    while a third page naming the 2011 key still does not merge it."""
    from click.testing import CliRunner

    from kg.cli import main
    from kg.knowledge_graph import KnowledgeGraph

    one, two, three = sparse_coding_pages(tmp_path)
    load_all(graph, [one, two], 100, tmp_path / "r")
    early, late = "title:sparse coding:2010", "title:sparse coding:2011"
    kg = KnowledgeGraph(graph.driver, graph.database, graph.uri)
    records = kg.merges()
    assert [(r.key, [m.key for m in r.merged]) for r in records] == [(early, [late])]
    assert "years chained at most 1 apart" in records[0].merged[0].rule
    assert len(records[0].snapshots) == 2  # both pages name the merged paper

    runner = CliRunner()
    listed = runner.invoke(main, ["merges", "--json"])
    assert listed.exit_code == 0, listed.output
    assert json.loads(listed.output)["results"][0]["merged"][0]["key"] == late

    split = runner.invoke(main, ["unmerge", early, "--yes", "--json"])
    assert split.exit_code == 0, split.output
    answer = json.loads(split.output)
    assert answer["kept_apart"] == [late]
    assert answer["removed"] is True
    assert sorted(s["source"] for s in answer["sources"]) == ["one.txt", "two.txt"]
    assert graph.read("MATCH (p:Paper {norm_title: 'sparse coding'}) RETURN p") == []

    dumps = []
    for order in ([two, one, three], [three, one, two], [one, two, three]):
        load_all(graph, order, 1, tmp_path / "r")
        keys = graph.read(
            "MATCH (p:Paper {norm_title: 'sparse coding'}) RETURN p.key AS key ORDER BY key"
        )
        assert [row["key"] for row in keys] == [early, late]
        dumps.append(dump_graph(graph))
    assert dumps[0] == dumps[1] == dumps[2]
    assert kg.merges() == []
    kept = runner.invoke(main, ["merges", "--kept-apart", "--json"])
    assert [s["keys"] for s in json.loads(kept.output)["results"]] == [[late]]
    assert [s["norm_titles"] for s in json.loads(kept.output)["results"]] == [["sparse coding"]]

    # The split lives in the graph; a file of splits keeps it across an emptied database
    # (or a --bulk rebuild). Without the file, the rule merges the two keys again.
    splits = tmp_path / "splits.json"
    splits.write_text(kept.output, encoding="utf-8")
    clear_database(graph)
    load_all(graph, [one, two], 100, tmp_path / "r")
    assert [r.key for r in kg.merges()] == [early]
    clear_database(graph)
    bad = tmp_path / "bad.json"
    bad.write_text('[{"split_from": "x", "keys": []}]', encoding="utf-8")
    refused = runner.invoke(main, ["load", "--keep-apart", str(bad), str(one), str(two)])
    assert refused.exit_code != 0
    said = " ".join(refused.output.split())
    assert "the keep-apart file" in said
    assert "bad.json" in said
    assert "split 1" in said or "keys" in said  # which split, and what is wrong with it
    assert "kg merges --kept-apart --json" in said  # what to do
    assert graph.read("MATCH (n) RETURN n LIMIT 1") == []  # nothing loaded
    rejects = tmp_path / "r2.jsonl"
    loaded = runner.invoke(
        main,
        ["load", "--keep-apart", str(splits), "--rejects", str(rejects), str(two), str(one)],
    )
    assert loaded.exit_code == 0, loaded.output
    keys = graph.read(
        "MATCH (p:Paper {norm_title: 'sparse coding'}) RETURN p.key AS key ORDER BY key"
    )
    assert [row["key"] for row in keys] == [early, late]
    assert kg.merges() == []
    assert [s.keys for s in kg.kept_apart()] == [[late]]

    refused = runner.invoke(main, ["unmerge", late, "--yes"])
    assert refused.exit_code == 2  # a ParameterError: a usage error
    assert "was never merged with another key" in refused.output


def test_a_file_of_splits_splits_a_merge_already_in_the_graph(
    graph: Database, tmp_path: Path
) -> None:
    """`kg load --keep-apart FILE` into a graph where the keys it keeps apart are already one
    paper takes them apart: the graph is the one a load of the same files into an empty
    database with the file gives, whether the files it loads name those keys again or not."""
    one, two, three = sparse_coding_pages(tmp_path)
    early, late = "title:sparse coding:2010", "title:sparse coding:2011"
    splits = tmp_path / "splits.json"
    split = {"split_from": early, "keys": [late], "norm_titles": ["sparse coding"]}
    splits.write_text(json.dumps([split]), encoding="utf-8")
    rejects = tmp_path / "r.jsonl"
    other = tmp_path / "other.txt"
    other.write_text(map_page("Other", "2301.00009", 2023, "2026-01-01", []), encoding="utf-8")

    def keys() -> list[str]:
        found = graph.read(
            "MATCH (p:Paper {norm_title: 'sparse coding'}) RETURN p.key AS key ORDER BY key"
        )
        return [row["key"] for row in found]

    clear_database(graph)
    KnowledgeGraph.on(graph).load([one, two, three, other], keep_apart=splits, rejects_path=rejects)
    assert keys() == [early, late]
    expected = dump_graph(graph)

    for again in ([three], []):  # the page naming the 2011 key read again, or nothing of it
        clear_database(graph)
        load_all(graph, [one, two, three], 100, rejects)
        assert keys() == [early]
        summary = KnowledgeGraph.on(graph).load(
            [*again, other], keep_apart=splits, rejects_path=rejects, force=True
        )
        assert summary.rejected == 0, summary.reject_messages
        assert summary.counts.moved == 1
        assert keys() == [early, late]
        actual = dump_graph(graph)
        assert actual == expected, differences(actual, expected)


def test_a_file_of_splits_takes_out_a_key_with_a_record_of_its_own(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """A map page without an arXiv id (a record of its own) joined the arXiv paper of its
    title; a file of splits given afterwards takes it out again (the paper is taken apart),
    so the graph is the one a load given the file from the first gives, and `kg unmerge`
    splits such a key too."""
    from click.testing import CliRunner

    from kg.cli import main
    from kg.knowledge_graph import KnowledgeGraph

    arxiv = tmp_path / "arxiv.jsonl"
    arxiv.write_text(arxiv_record("1706.00001", "Twin Title", 2017, "2021-03-01"), "utf-8")
    page = tmp_path / "page.txt"
    page.write_text(map_page("Twin Title", None, 2017, "2026-01-01", []), "utf-8")
    key = "title:twin title:2017"
    splits = tmp_path / "splits.json"
    splits.write_text(json.dumps([{"split_from": "1706.00001", "keys": [key]}]), "utf-8")
    clear_database(graph)
    load_all(graph, [arxiv, page], 100, tmp_path / "r", splits)
    expected = dump_graph(graph)
    clear_database(graph)
    load_all(graph, [arxiv, page], 100, tmp_path / "r")
    assert [r.key for r in KnowledgeGraph(graph.driver, graph.database, graph.uri).merges()] == [
        "1706.00001"
    ]
    runner = CliRunner()
    loaded = runner.invoke(
        main, ["load", "--keep-apart", str(splits), "--rejects", str(tmp_path / "r"), str(page)]
    )
    assert loaded.exit_code == 0, loaded.output
    assert (got := dump_graph(graph)) == expected, differences(got, expected)
    keys = graph.read("MATCH (p:Paper {norm_title: 'twin title'}) RETURN p.key AS k ORDER BY k")
    assert [row["k"] for row in keys] == ["1706.00001", key]
    assert graph.read("MATCH (f:Folded) RETURN f.key AS key") == []

    clear_database(graph)
    load_all(graph, [arxiv, page], 100, tmp_path / "r")
    split = runner.invoke(main, ["unmerge", "1706.00001", "--key", key, "--yes", "--json"])
    assert split.exit_code == 0, split.output
    assert graph.read("MATCH (f:Folded) RETURN f.key AS key") == []
    load_all(graph, [arxiv, page], 100, tmp_path / "r")
    keys = graph.read("MATCH (p:Paper {norm_title: 'twin title'}) RETURN p.key AS k ORDER BY k")
    assert [row["k"] for row in keys] == ["1706.00001", key]


def test_unmerge_checks_first_asks_and_splits_only_the_key_it_is_given(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """`kg unmerge` checks the paper and the keys before it asks; a REF naming a merged key
    (an alias) or a --key written as kg paper shows it (title:chained-work:2011) splits that
    key only; --json asks nothing, so without --yes it is refused and nothing is removed."""
    from click.testing import CliRunner

    from kg.cli import main

    pages = chained_work_pages(tmp_path)
    paper, middle, late = (f"title:chained work:{year}" for year in (2010, 2011, 2012))

    def held() -> dict[str, list[str]]:
        rows = graph.read(
            "MATCH (p:Paper {norm_title: 'chained work'}) "
            "RETURN p.key AS key, coalesce(p.aliases, []) AS aliases ORDER BY key"
        )
        return {row["key"]: sorted(row["aliases"]) for row in rows}

    load_all(graph, pages, 100, tmp_path / "r")
    assert held() == {paper: [middle, late]}
    runner = CliRunner()
    for argv, said in [
        (["unmerge", "9999.99999"], "9999.99999"),
        (["unmerge", paper, "--key", "title:chained work:1999"], f"{paper} holds no key"),
        (["unmerge", paper, "--key", paper], f"{paper} is the paper's own key"),
        (["unmerge", paper, "--key", ""], "an empty --key names no key"),
        (["unmerge", paper, "--key", "title:Chained Work:2011"], f"{paper} holds no key"),
    ]:
        refused = runner.invoke(main, argv, input="y\n")
        # no such paper (PaperNotFound): 1; a key the paper cannot give (ParameterError): 2
        assert refused.exit_code == (1 if said == "9999.99999" else 2), refused.output
        assert "Remove" not in refused.output  # refused before it asks
        assert said in " ".join(refused.output.split())
    assert held() == {paper: [middle, late]}

    # --json without --yes: a JSON error saying to add --yes, and nothing removed
    refused = runner.invoke(main, ["unmerge", paper, "--json"], input="y\n")
    assert refused.exit_code == 2
    error = json.loads(refused.output)["error"]
    assert "needs --yes" in error["message"]
    assert "add --yes" in error["hint"]
    assert held() == {paper: [middle, late]}

    # REF naming a merged key splits that key only, and the question says so
    split = runner.invoke(main, ["unmerge", late], input="y\n")
    assert split.exit_code == 0, split.output
    question = " ".join(split.output.split("?")[0].split())
    assert f"keep {late} apart" in question
    assert middle not in question
    assert f"kept apart: {late}" in split.output
    load_all(graph, pages, 100, tmp_path / "r")
    assert held() == {paper: [middle], late: []}

    # --key as kg paper shows it, whole or cut short with its year kept
    for handle in ("title:chained-work:2011", "title:chained…:2011"):
        split = runner.invoke(main, ["unmerge", paper, "--key", handle, "--yes", "--json"])
        assert split.exit_code == 0, split.output
        assert json.loads(split.output)["kept_apart"] == [middle]
        clear_database(graph)  # the split too
        load_all(graph, pages, 100, tmp_path / "r")
        assert held() == {paper: [middle, late]}

    # a REF that is a merged key's handle cut short splits that key only too
    split = runner.invoke(main, ["unmerge", "title:chained…:2012", "--yes", "--json"])
    assert split.exit_code == 0, split.output
    assert json.loads(split.output)["kept_apart"] == [late]


def test_a_paper_an_older_kg_merged_cannot_be_taken_apart_and_says_so(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """A graph kg 0.7 built holds a page known by title only folded into an arXiv paper, with
    no `Folded` copies: a load that must take the paper apart stops with a clear error (no
    traceback) that says to rebuild, and writes nothing of the batch."""
    from click.testing import CliRunner

    from kg.cli import main

    arxiv = tmp_path / "b.jsonl"
    arxiv.write_text(arxiv_record("1801.00002", "Twin title.", 2018, "2021-03-01"), "utf-8")
    page = tmp_path / "page.txt"
    page.write_text(map_page("Twin Title", None, 2017, "2026-01-01", []), "utf-8")
    clear_database(graph)
    load_all(graph, [arxiv, page], 100, tmp_path / "r")
    graph.write("MATCH (f:Folded) DETACH DELETE f")  # as kg 0.7 left it
    before = dump_graph(graph)
    newer = tmp_path / "newer.jsonl"
    newer.write_text(arxiv_record("1801.00002", "Twin title.", 2018, "2024-05-01"), "utf-8")
    said = CliRunner().invoke(main, ["load", "--rejects", str(tmp_path / "r.jsonl"), str(newer)])
    assert said.exit_code == 1, said.output
    shown = " ".join(said.output.split())
    assert "the paper 1801.00002 holds title keys with records of their own merged by" in shown
    assert "kept no copy of 1801.00002, title:twin title:2017" in shown
    assert "kg db reset" in shown
    assert "Traceback" not in said.output
    papers = [line for line in dump_graph(graph)[0] if '"Paper"' in line]
    assert papers == [line for line in before[0] if '"Paper"' in line]
    clear_database(graph)
