"""Loading into a real Neo4j: the seeds, idempotence, order, entity resolution, bad input."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection
from tests.arxiv_lines import arxiv_line
from tests.data import (
    REAL_SEED_PAGE,
    REAL_SEED_RECORD,
    SEED_PAGE,
    SEED_RECORD,
)
from tests.graph_dump import dump_graph

PAGE = SEED_PAGE
RECORD = SEED_RECORD
# The facts-only copies, and the real seeds under KG_DATA_DIR: the same facts, other abstracts.
SEED_SOURCES = [
    pytest.param(PAGE, RECORD, "Facts-only stand-in", "It ends here.", "fixtures.", id="fixture"),
    pytest.param(
        REAL_SEED_PAGE,
        REAL_SEED_RECORD,
        "Recent expeditious developments",
        "contribute to greener AI.",
        "Pseudo-to-Real i",
        id="real-seed",
        marks=pytest.mark.needs_data(REAL_SEED_PAGE, REAL_SEED_RECORD),
    ),
]


def _count(graph: Database, query: str) -> int:
    return int(graph.read(query)[0]["n"])


@pytest.mark.parametrize(("page", "record", "starts", "ends", "excerpt_ends"), SEED_SOURCES)
def test_seeds_give_one_clean_paper(
    graph: Database,
    tmp_path: Path,
    page: Path,
    record: Path,
    starts: str,
    ends: str,
    excerpt_ends: str,
) -> None:
    summary = KnowledgeGraph.on(graph).load([page, record], rejects_path=tmp_path / "r.jsonl")
    assert summary.rejected == 0
    assert _count(graph, "MATCH (p:Paper) RETURN count(p) AS n") == 72
    assert _count(graph, "MATCH ()-[r:CITES]->() RETURN count(r) AS n") == 71
    paper = graph.read(
        "MATCH (p:Paper {key: '2110.03888'}) "
        "OPTIONAL MATCH (p)-[:PRIMARY_CATEGORY]->(c) "
        "RETURN p.stub AS stub, p.abstract AS abstract, p.abstract_excerpt AS excerpt, "
        "p.published AS published, p.license AS license, p.version AS version, c.code AS primary, "
        "[(p)-[:CROSS_LISTED]->(x) | x.code] AS cross, "
        "[(a)-[w:AUTHORED]->(p) | [w.position, a.name]] AS authors"
    )[0]
    assert paper["stub"] is False
    assert paper["primary"] == "cs.LG"
    assert paper["cross"] == ["cs.CL"]
    assert paper["published"].iso_format() == "2021-10-08"
    assert paper["version"] == 3
    assert paper["license"] == "http://creativecommons.org/licenses/by-sa/4.0/"
    authors = [name for _, name in sorted(paper["authors"])]
    assert len(authors) == 12
    assert authors[0] == "Ang Wang"
    assert authors[-1] == "Yong Li"
    # The page's full abstract stays; the record's excerpt never overwrites it.
    assert paper["abstract"].startswith(starts)
    assert paper["abstract"].endswith(ends)
    assert paper["excerpt"].endswith(excerpt_ends)
    assert len(paper["abstract"]) > len(paper["excerpt"])


def test_load_order_and_repetition_give_the_same_graph(graph: Database, tmp_path: Path) -> None:
    dumps = []
    for order in ([PAGE, RECORD], [RECORD, PAGE], [PAGE, RECORD, RECORD, PAGE]):
        graph.write("MATCH (n) DETACH DELETE n")
        KnowledgeGraph.on(graph).load(order, rejects_path=tmp_path / "r.jsonl")
        dumps.append(dump_graph(graph))
    assert dumps[0] == dumps[1]
    assert dumps[0] == dumps[2]
    assert len(dumps[0][0]) == 88  # 72 papers, 12 authors, 2 categories, 2 snapshots


def _page(title: str, arxiv_line: str, references: list[str], data_to: str = "14 Oct 2026") -> str:
    items = "\n".join(f"  {i}. {ref}" for i, ref in enumerate(references, 1))
    return (
        f"mlsanityData to {data_to}\n\n{title}\n\n{arxiv_line}\n\n"
        f"Key facts. Cited by 0 papers in the map (data through {data_to}). "
        f"Builds on {len(references)} of its {len(references)} references that are in the map.\n\n"
        f"Builds on\n\n{len(references)} of {len(references)} references.\n\n"
        f"References · {len(references)}\n\n{items}\n"
    )


def test_a_stub_merges_into_the_full_record_whichever_comes_first(
    graph: Database, tmp_path: Path
) -> None:
    page = tmp_path / "page.txt"
    page.write_text(
        _page(
            "A Paper That Cites",
            "arXiv 2101.00001 ↗First posted 2 Jan 2021cs.CLcited by 1",
            [
                "2017Attention Is All You Needcited by 60,361",
                "1995Attention Is All You Needcited by 3",
            ],
        ),
        encoding="utf-8",
    )
    dump = tmp_path / "arxiv.jsonl"
    # The full record's year (2018) is one off the reference's (2017): still the same paper.
    dump.write_text(
        arxiv_line(
            "1706.03762v5",
            "Attention is all you  need",
            "Mon, 1 Jan 2018 10:00:00 GMT",
            "2023-08-02",
        ),
        encoding="utf-8",
    )
    dumps = []
    for order in ([page, dump], [dump, page], [page, dump, page, dump]):
        graph.write("MATCH (n) DETACH DELETE n")
        KnowledgeGraph.on(graph).load(order, rejects_path=tmp_path / "r.jsonl")
        dumps.append(dump_graph(graph))
        rows = graph.read(
            "MATCH (:Paper {key: '2101.00001'})-[:CITES]->(p:Paper) "
            "RETURN p.key AS key, p.stub AS stub, p.year AS year ORDER BY key"
        )
        assert rows == [
            {"key": "1706.03762", "stub": False, "year": 2018},
            {"key": "title:attention is all you need:1995", "stub": True, "year": 1995},
        ]
    assert dumps[0] == dumps[1] == dumps[2]
    described = graph.read(
        "MATCH (:Paper {key: '1706.03762'})-[d:DESCRIBED_IN]->(s:Snapshot) "
        "RETURN s.kind AS kind, d.stated_cited_by AS cited ORDER BY kind"
    )
    assert {"kind": "map_page", "cited": 60361} in described


def test_properties_come_from_the_newest_snapshot_not_the_last_load(
    graph: Database, tmp_path: Path
) -> None:
    old = tmp_path / "old.jsonl"
    new = tmp_path / "new.jsonl"
    old.write_text(
        arxiv_line(
            "2001.00001", "Old Title", "Wed, 1 Jan 2020 00:00:00 GMT", "2020-02-01", doi="10.1/old"
        ),
        encoding="utf-8",
    )
    with gzip.open(tmp_path / "new.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write(
            arxiv_line("2001.00001v2", "New Title", "Wed, 1 Jan 2020 00:00:00 GMT", "2024-05-01")
        )
    new = tmp_path / "new.jsonl.gz"
    for order in ([old, new], [new, old]):
        graph.write("MATCH (n) DETACH DELETE n")
        KnowledgeGraph.on(graph).load(order, rejects_path=tmp_path / "r.jsonl")
        row = graph.read("MATCH (p:Paper {key: '2001.00001'}) RETURN p.title AS t, p.doi AS doi")
        # The newest states the title; only the older one states a DOI, which fills the gap.
        assert row == [{"t": "New Title", "doi": "10.1/old"}]


def test_an_authors_smallest_spelling_wins_in_any_order_and_batch_size(
    graph: Database, tmp_path: Path
) -> None:
    """Four records spell one author three ways (one key, as cit-HepTh spells A. H.
    Bougourzi): the smallest spelling is the name in every order, in batches of two (where a
    batch can bring two spellings smaller than the one stored), and in the other sizes.
    author_names.cypher alone decides (the writer sends every spelling): before its SET
    compared again, two such spellings in one statement let the last one win."""
    spellings = ("A.H. bougourzi", "A.H. bougourzi", "A.H. Bougourzi", "A. H. Bougourzi")
    lines = [
        arxiv_line(
            f"2001.0000{i}",
            f"Paper {i}",
            "Wed, 1 Jan 2020 00:00:00 GMT",
            "2020-02-01",
            authors=name,
        )
        for i, name in enumerate(spellings, 1)
    ]
    runs = [(order, 2) for order in itertools.permutations(lines)]
    runs += [(tuple(lines), size) for size in (1, 3, 4)]
    source = tmp_path / "authors.jsonl"
    for order, batch_size in runs:
        source.write_text("".join(order), encoding="utf-8")
        clear_database(graph)
        KnowledgeGraph.on(graph).load(
            [source], batch_size=batch_size, rejects_path=tmp_path / "r.jsonl"
        )
        names = graph.read("MATCH (a:Author) RETURN a.key AS key, a.name AS name")
        assert names == [{"key": "a. h. bougourzi", "name": "A. H. Bougourzi"}], (
            order,
            batch_size,
        )


def test_same_title_years_apart_stay_two_papers(graph: Database, tmp_path: Path) -> None:
    dump = tmp_path / "a.jsonl"
    dump.write_text(
        arxiv_line("hep-th/9201001", "Duality", "Wed, 1 Jan 1992 00:00:00 GMT", "2008-01-01")
        + arxiv_line("2101.00002", "Duality", "Fri, 1 Jan 2021 00:00:00 GMT", "2021-01-02"),
        encoding="utf-8",
    )
    KnowledgeGraph.on(graph).load([dump], rejects_path=tmp_path / "r.jsonl")
    assert _count(graph, "MATCH (p:Paper {norm_title: 'duality'}) RETURN count(p) AS n") == 2


def test_text_that_looks_like_cypher_is_stored_exactly(graph: Database, tmp_path: Path) -> None:
    title = "'}) MATCH (n) DETACH DELETE n //"
    abstract = 'x"}) RETURN 1; CREATE (:Evil {a: $b}) \\u0000'
    dump = tmp_path / "evil.jsonl"
    dump.write_text(
        arxiv_line(
            "2101.00003", title, "Fri, 1 Jan 2021 00:00:00 GMT", "2021-01-02", abstract=abstract
        ).replace('"authors": "A. Author"', '"authors": "Robert\' MATCH n DETACH DELETE n"'),
        encoding="utf-8",
    )
    KnowledgeGraph.on(graph).load([dump], rejects_path=tmp_path / "r.jsonl")
    row = graph.read(
        "MATCH (a:Author)-[:AUTHORED]->(p:Paper {key: '2101.00003'}) "
        "RETURN p.title AS title, p.abstract AS abstract, a.name AS author"
    )
    assert row == [
        {"title": title, "abstract": abstract, "author": "Robert' MATCH n DETACH DELETE n"}
    ]
    assert _count(graph, "MATCH (n:Evil) RETURN count(n) AS n") == 0


def test_bad_records_are_reported_and_the_rest_loads(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    dump = tmp_path / "mixed.jsonl"
    dump.write_text(
        arxiv_line("2101.00004", "Good One", "Fri, 1 Jan 2021 00:00:00 GMT", "2021-01-02")
        + "{not json\n"
        + json.dumps({"id": "not-an-id", "title": "Bad"})
        + "\n"
        + arxiv_line("2101.00005", "Good Two", "Fri, 1 Jan 2021 00:00:00 GMT", "2021-01-02"),
        encoding="utf-8",
    )
    rejects = tmp_path / "rejects.jsonl"
    runner = CliRunner()
    result = runner.invoke(main, ["load", str(dump), "--rejects", str(rejects)])
    assert result.exit_code == 1
    assert f"{dump}:2: " in result.output
    assert f"{dump}:3: " in result.output
    assert "Traceback" not in result.output
    lines = [json.loads(line) for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert [entry["line"] for entry in lines] == [2, 3]
    papers = runner.invoke(
        main, ["cypher", "MATCH (p:Paper) RETURN p.key AS key ORDER BY key", "--json"]
    )
    assert json.loads(papers.output)["results"] == [{"key": "2101.00004"}, {"key": "2101.00005"}]

    strict = runner.invoke(main, ["load", str(dump), "--strict", "--rejects", str(rejects)])
    assert strict.exit_code == 1
    assert f"Error: {dump}:2: " in strict.output
    assert "Traceback" not in strict.output
    runner.invoke(main, ["db", "reset", "--yes"])


def test_stats_json_has_exactly_the_documented_shape(kg_env: Connection, tmp_path: Path) -> None:
    runner = CliRunner()
    runner.invoke(main, ["db", "reset", "--yes"])
    assert json.loads(runner.invoke(main, ["stats", "--json"]).output) == {
        "nodes": {},
        "relationships": {},
    }
    # An empty graph says so and how to fill it, instead of two empty tables
    empty = runner.invoke(main, ["stats"])
    assert empty.exit_code == 0
    assert empty.output.startswith("the graph is empty: `kg load PATH` loads a map")
    loaded = runner.invoke(main, ["load", str(PAGE), "--rejects", str(tmp_path / "r")])
    assert loaded.exit_code == 0, loaded.output
    result = runner.invoke(main, ["stats", "--json"])
    # Every label present, the loader's lock stripes too (one per title hash in use).
    assert json.loads(result.output) == {
        "nodes": {"Paper": 72, "Category": 2, "Snapshot": 1, "TitleLock": 71},
        "relationships": {
            "CITES": 71,
            "PRIMARY_CATEGORY": 1,
            "CROSS_LISTED": 1,
            "DESCRIBED_IN": 72,
        },
    }
    runner.invoke(main, ["db", "reset", "--yes"])


def test_stats_counts_every_label_and_relationship_type_present(
    small_map: Database, kg_env: Connection
) -> None:
    """kg stats counted a fixed list of the model's labels and types, so the analytics'
    PageRankTop1 and CO_CITED, and a label a user created, were left out of its counts."""
    runner = CliRunner()
    for args in (["rank", "pagerank", "--write"], ["similar", "--write", "--k", "3"]):
        done = runner.invoke(main, [*args, "--json"])
        assert done.exit_code == 0, done.output
    small_map.write("CREATE (:Note {text: 'read later'})-[:ABOUT]->(:Note)")
    expected = {
        "nodes": {
            row["label"]: row["n"]
            for row in small_map.read(
                "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS n"
            )
        },
        "relationships": {
            row["type"]: row["n"]
            for row in small_map.read("MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS n")
        },
    }
    assert {"PageRankTop1", "AnalyticsRun", "Note"} <= expected["nodes"].keys()
    assert {"CO_CITED", "COUPLED", "ABOUT"} <= expected["relationships"].keys()
    result = runner.invoke(main, ["stats", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == expected
    table = runner.invoke(main, ["stats"], env={"COLUMNS": "120"})
    assert table.exit_code == 0, table.output
    for name in [*expected["nodes"], *expected["relationships"]]:
        assert f"│ {name} " in table.output, name


def test_edge_lists_skip_self_loops(graph: Database, kg_env: Connection, tmp_path: Path) -> None:
    edges = tmp_path / "edges.csv"
    edges.write_text(
        "citing,cited\n2101.00001,1706.03762\n2101.00001,2101.00001\n2101.00002,1706.03762\n",
        encoding="utf-8",
    )
    summary = KnowledgeGraph.on(graph).load([edges], rejects_path=tmp_path / "r.jsonl")
    assert summary.rejected == 0
    assert summary.skipped == {"self-citation": 1}
    assert not (tmp_path / "r.jsonl").exists()
    assert _count(graph, "MATCH ()-[r:CITES]->() RETURN count(r) AS n") == 2
    assert _count(graph, "MATCH (p:Paper {stub: true}) RETURN count(p) AS n") == 3
    # A self-citation is a fact of the data, not an error: exit 0, counted in the summary.
    # The same file again is skipped (its content was loaded whole); --force reads it again.
    again = CliRunner().invoke(main, ["load", str(edges), "--rejects", str(tmp_path / "r2")])
    assert again.exit_code == 0, again.output
    assert "1 of 1 files already loaded whole" in again.output
    result = CliRunner().invoke(
        main, ["load", str(edges), "--force", "--rejects", str(tmp_path / "r2")]
    )
    assert result.exit_code == 0, result.output
    assert "1 self-citation skipped" in result.output
