"""Bulk mode on real servers: the graph neo4j-admin import builds equals the online loader's.

The online loader writes into the session's server; bulk mode needs a managed local server
it can stop, so this module starts a second one of its own on free ports.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.errors import NotEmptyError
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database, schema_names
from kg.server.config import Connection, LocalSettings
from kg.server.local import LocalServer
from tests.arxiv_lines import arxiv_line
from tests.bench.synthetic import generate, paper_id
from tests.conftest import local_settings_for
from tests.data import SEED_PAGE, SEED_RECORD
from tests.graph_dump import differences, dump_graph

PAGE = SEED_PAGE
RECORD = SEED_RECORD


@pytest.fixture(scope="module")
def bulk_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """A second managed local server, for bulk mode to stop, import into and start."""
    server = LocalServer(local_settings_for(tmp_path_factory.mktemp("kg-bulk-home")))
    try:
        server.install()
        server.start(timeout=240)
    except Exception as exc:  # any failure to get a server is reported the same way
        server.stop()
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"no second local Neo4j for bulk mode: {exc}", pytrace=False)
        pytest.skip(f"no second local Neo4j for bulk mode: {exc}")
    try:
        yield server
    finally:
        server.stop(timeout=0)  # its store goes with the module's folder: not checkpointed


def _connect(settings: LocalSettings) -> Database:
    password = settings.password_file.read_text(encoding="utf-8").strip()
    return Database.connect(Connection(settings.bolt_uri, "neo4j", password, "neo4j", False))


def _cli_env(settings: LocalSettings) -> dict[str, str | None]:
    """The environment that points `kg` at the bulk test server (and at no NEO4J_URI)."""
    return {
        "KG_HOME": str(settings.home),
        "KG_BOLT_PORT": str(settings.bolt_port),
        "KG_HTTP_PORT": str(settings.http_port),
        "KG_HEAP": settings.heap,
        "KG_PAGECACHE": settings.pagecache,
        "NEO4J_URI": None,
        "NEO4J_PASSWORD": None,
    }


def _empty(server: LocalServer) -> None:
    server.start(timeout=240)
    with _connect(server.settings) as graph:
        clear_database(graph)


def _arxiv(arxiv_id: str, title: str, created: str, update: str, **extra: object) -> str:
    """An arXiv record with two authors and an abstract that holds a quote, a comma, a
    backslash and a new line: text the bulk import's CSV files must carry unchanged."""
    return arxiv_line(
        arxiv_id,
        title,
        created,
        update,
        authors="A. Author and B. Writer",
        abstract='An abstract with "quotes", a comma,\\ a backslash\nand a new line.',
        **extra,
    )


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The seeds, a synthetic set, and hand-made files that overlap them and each other."""
    folder = tmp_path_factory.mktemp("bulk-inputs")
    synthetic = generate(150, 4, folder / "synthetic")
    arxiv = folder / "overlap.jsonl"
    arxiv.write_text(
        # The seed page cites "2017 Attention Is All You Need" by title: the stub merges.
        _arxiv(
            "1706.03762v5",
            "Attention is all you  need",
            "Mon, 12 Jun 2017 17:57:34 GMT",
            "2023-08-02",
            doi="10.1/attention",
        )
        # The same paper again in the same file (and batch), older, with more fields.
        + _arxiv(
            "1706.03762",
            "Attention Is All You Need",
            "Mon, 12 Jun 2017 17:57:34 GMT",
            "2017-06-13",
            license="http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
            **{"journal-ref": "NIPS 2017", "report-no": "R-17"},
        )
        + _arxiv(
            "1810.04805",
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
            "Thu, 11 Oct 2018 00:50:01 GMT",
            "2019-05-24",
        )
        # The seeds' own paper, older than the page: it fills the DOI and nothing else.
        + _arxiv(
            "2110.03888",
            "An older title",
            "Fri, 8 Oct 2021 04:24:51 GMT",
            "2021-10-12",
            doi="10.1/m6",
        )
        + "{not json\n",
        encoding="utf-8",
    )
    edges = folder / "overlap.csv"
    edges.write_text(
        "citing,cited\n"
        "2110.03888,1706.03762\n"
        "1810.04805,1706.03762\n"
        f"{paper_id(120, 150)},1706.03762\n"
        f"{paper_id(121, 150)},2110.03888\n"
        f"{paper_id(3, 150)},{paper_id(2, 150)}\n"
        "1810.04805,1810.04805\n",
        encoding="utf-8",
    )
    # A page whose abstract has two paragraphs: a value with a line break in the CSV.
    page2 = folder / "two_paragraphs.txt"
    page2.write_text(
        "mlsanityData to 14 Oct 2026\n\nA Two Paragraph Paper\n\n"
        "arXiv 2101.00009 ↗First posted 2 Jan 2021cs.CLcited by 1\n\nAbstract (arXiv)\n\n"
        'First paragraph with "quotes", commas, and a backslash \\alpha.\n\n'
        "Second paragraph, after a blank line.\n\n"
        "Key facts. Cited by 0 papers in the map (data through 14 Oct 2026). "
        "Builds on 1 of its 1 references that are in the map.\n\n"
        "Builds on\n\n1 of 1 references.\n\nReferences · 1\n\n"
        "  1. 2017Attention Is All You Needcited by 60,361\n",
        encoding="utf-8",
    )
    # The same papers as OpenAlex, Semantic Scholar and Crossref name them (made up, in
    # their shape): strong ids and authors' ids, which go online and merge by the id rules.
    sources = folder / "openalex.jsonl"
    sources.write_text(
        json.dumps(
            {
                "id": "https://openalex.org/W900001",
                "doi": "https://doi.org/10.48550/arXiv.1706.03762",
                "title": "Attention Is All You Need",
                "publication_year": 2017,
                "updated_date": "2024-02-01T00:00:00",
                "authorships": [
                    {
                        "author": {
                            "id": "https://openalex.org/A900001",
                            "display_name": "Ada Example",
                            "orcid": "https://orcid.org/0000-0002-1825-0097",
                        }
                    }
                ],
                "referenced_works": ["https://openalex.org/W900002"],
                "topics": [
                    {"display_name": "Attention; Transformers"},
                    {"display_name": "Machine Translation"},
                ],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    s2 = folder / "s2.jsonl"
    s2.write_text(
        json.dumps(
            {
                "paperId": "ab" * 20,
                "externalIds": {"ArXiv": "1810.04805", "DOI": "10.1000/BERT.1"},
                "title": "BERT",
                "year": 2018,
                "authors": [{"authorId": "900003", "name": "Ada Example"}],
                "references": [{"paperId": "cd" * 20, "externalIds": {"DOI": "10.1000/XYZ.2"}}],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    crossref = folder / "crossref.jsonl"
    crossref.write_text(
        json.dumps(
            {
                "DOI": "10.1000/other.3",
                "title": ["A Paper Citing by DOI"],
                "published": {"date-parts": [[2020, 1, 2]]},
                "author": [{"given": "Ada", "family": "Example", "ORCID": "0000-0002-1825-0097"}],
                "reference": [
                    {"key": "r1", "DOI": "10.1000/bert.1"},
                    {"key": "r2", "DOI": "10.1000/xyz.2"},
                ],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    # hep-th abstracts (.abs records, made up): a paper nothing else names, the arXiv
    # file's 1706.03762 (older: it fills blanks) and a synthetic paper, read again.
    hepth = folder / "hepth.abs"
    hepth.write_text(
        "".join(
            "-" * 78 + "\n\\\\\n" + f"Paper: {paper}\nFrom: someone@example.org\n"
            f"Date: {posted}   (10kb)\n\nTitle: {title}\n{more}\\\\\n  {abstract}\n\\\\\n"
            for paper, posted, title, more, abstract in (
                (
                    "hep-th/9901001",
                    "Fri, 1 Jan 1999 12:00:00 GMT",
                    "An invented paper about\n  branes",
                    "Authors: A. Author and B. Writer\nJournal-ref: Invented J. 1 (1999) 1\n",
                    'Branes, with "quotes", a comma, and a backslash \\alpha.',
                ),
                (
                    "1706.03762",
                    "Mon, 12 Jun 2017 17:57:34 GMT",
                    "Attention Is All You Need",
                    "Authors: Ada Example\nComments: 15 pages\n",
                    "An older abstract.",
                ),
                (
                    paper_id(5, 150),
                    "Sat, 2 May 2015 10:00:00 GMT",
                    "A synthetic paper, read again",
                    "Authors: C. Third\n",
                    "Read again from an abstract.",
                ),
            )
        ),
        encoding="utf-8",
    )
    # unarXive lines (made up, in its shape): a paper whose metadata has Crossref's DOI,
    # citing by arXiv id, DOI and OpenAlex id papers the other inputs name; and BERT with
    # no metadata, citing the hep-th paper and a synthetic one by their arXiv ids.
    no_ids = {"open_alex_id": "", "sem_open_alex_id": "", "pubmed_id": "", "doi": ""}

    def entry(arxiv_id: str = "", contained: tuple[str, ...] = (), **ids: str) -> object:
        return {
            "bib_entry_raw": "A. Author, A made-up reference.",
            "contained_arXiv_ids": [{"id": each, "text": each} for each in contained],
            "ids": {**no_ids, "arxiv_id": arxiv_id, **ids},
        }

    unarxive = folder / "arXiv_src_2105_001.jsonl"
    unarxive.write_text(
        json.dumps(
            {
                "paper_id": "2105.00001",
                "metadata": json.loads(
                    _arxiv(
                        "2105.00001",
                        "A Paper Citing by DOI",
                        "Mon, 3 May 2021 10:00:00 GMT",
                        "2021-05-20",
                        doi="10.1000/Other.3",
                    )
                ),
                "body_text": [{"section": "Intro", "text": "We cite {{cite:a1}}."}],
                "bib_entries": {
                    "a1": entry("hep-th/9901001"),
                    "a2": entry(doi="10.1000/xyz.2"),
                    "a3": entry(open_alex_id="https://openalex.org/W900002"),
                    "a4": entry(contained=("1706.03762", paper_id(7, 150))),
                },
            }
        )
        + "\n"
        + json.dumps(
            {
                "paper_id": "1810.04805",
                "metadata": {},
                "bib_entries": {
                    "b1": entry(contained=("hep-th/9901001",)),
                    "b2": entry(paper_id(9, 150), doi=f"10.48550/arXiv.{paper_id(9, 150)}"),
                },
            }
        )
        + "\n",
        encoding="utf-8",
    )
    return {
        "hepth": hepth,
        "unarxive": unarxive,
        "sources": sources,
        "s2": s2,
        "crossref": crossref,
        "page": PAGE,
        "page2": page2,
        "record": RECORD,
        "arxiv": arxiv,
        "edges": edges,
        "synthetic_arxiv": synthetic.arxiv,
        "synthetic_edges": synthetic.edges,
    }


ONLINE_ORDER = (
    "page record page2 arxiv synthetic_arxiv synthetic_edges edges hepth sources s2 crossref "
    "unarxive"
)


@pytest.fixture(scope="module")
def online_built(
    session_graph: Database, inputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> tuple[tuple[list[str], list[str]], list[str], set[str]]:
    """The online loader's graph of every input (seeds first, batches of 2,000) as a
    canonical dump, its rejects' lines and its schema: what bulk mode must build in any
    order. The online loader gives one graph for any order and grouping
    (test_identity_orders), so it loads once for both of the bulk loads below."""
    clear_database(session_graph)
    rejects = tmp_path_factory.mktemp("online") / "o.jsonl"
    online = KnowledgeGraph.on(session_graph).load(
        [inputs[name] for name in ONLINE_ORDER.split()], rejects_path=rejects
    )
    assert online.rejected == 1  # the bad JSON line
    assert online.skipped == {"self-citation": 1}
    expected = dump_graph(session_graph)
    schema = schema_names(session_graph)
    clear_database(session_graph)
    return expected, rejects.read_text().splitlines(), schema


@pytest.mark.parametrize(
    ("order", "batch_size"),
    [
        (ONLINE_ORDER, 2000),
        (
            "crossref unarxive edges synthetic_edges s2 arxiv hepth synthetic_arxiv page2 record "
            "sources page",
            40,
        ),
    ],
    ids=["seeds-first", "seeds-last-small-batches"],
)
def test_bulk_gives_the_online_loaders_graph(
    online_built: tuple[tuple[list[str], list[str]], list[str], set[str]],
    bulk_server: LocalServer,
    inputs: dict[str, Path],
    order: str,
    batch_size: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = [inputs[name] for name in order.split()]
    expected, online_rejects, online_schema = online_built
    _empty(bulk_server)
    monkeypatch.delenv("NEO4J_URI", raising=False)
    summary = KnowledgeGraph.bulk_load(
        paths,
        settings=bulk_server.settings,
        batch_size=batch_size,
        rejects_path=tmp_path / "b.jsonl",
    )
    assert summary.load.rejected == 1
    assert (tmp_path / "b.jsonl").read_text().splitlines() == online_rejects
    assert set(summary.stages) == {"parse", "csv", "stop", "import", "start", "schema", "online"}
    # Both halves are used: the import takes what no rule touches (the synthetic records
    # and edges), the online writer the title-only references and repeated records.
    assert summary.nodes["Paper"] > 100
    assert summary.relationships["CITES"] > 100
    assert 0 < summary.online_papers < summary.nodes["Paper"]
    assert summary.online_citations > 0
    with _connect(bulk_server.settings) as bulk:
        built = dump_graph(bulk)
        assert built == expected, differences(built, expected)
        assert schema_names(bulk) == online_schema
        stubs = bulk.read(
            "MATCH (p:Paper) WHERE p.key STARTS WITH 'title:attention' RETURN p.key AS key"
        )
        # The page's "2017 Attention Is All You Need" reference is 1706.03762, whichever
        # came first: no title-only paper is left.
        assert stubs == []
        row = bulk.read(
            "MATCH (p:Paper {key: '1706.03762'}) "
            "RETURN p.doi AS doi, p.journal_ref AS journal, p.stub AS stub, p.topics AS topics, "
            "[(q:Paper {key: '2110.03888'})-[:CITES]->(p) | q.key] AS citers"
        )
        abstract = bulk.read("MATCH (p:Paper {key: '2101.00009'}) RETURN p.abstract AS a")
        assert abstract == [
            {
                "a": 'First paragraph with "quotes", commas, and a backslash \\alpha.\n\n'
                "Second paragraph, after a blank line."
            }
        ]
        assert row == [
            {
                "doi": "10.1/attention",
                "journal": "NIPS 2017",
                "stub": False,
                "topics": ["Attention; Transformers", "Machine Translation"],
                "citers": ["2110.03888"],
            }
        ]
    assert len(expected[0]) > 150
    _empty(bulk_server)


def test_bulk_refuses_a_database_that_holds_data(
    bulk_server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _empty(bulk_server)
    with _connect(bulk_server.settings) as graph:
        graph.write("MERGE (:Paper {key: '2101.00001'})")
    monkeypatch.delenv("NEO4J_URI", raising=False)
    with pytest.raises(NotEmptyError, match="bulk mode needs an empty database"):
        KnowledgeGraph.bulk_load(
            [RECORD], settings=bulk_server.settings, rejects_path=tmp_path / "r.jsonl"
        )

    result = CliRunner().invoke(
        main,
        ["load", "--bulk", str(RECORD), "--rejects", str(tmp_path / "r.jsonl")],
        env=_cli_env(bulk_server.settings),
    )
    assert result.exit_code == 1
    assert "Error: bulk mode needs an empty database" in result.output
    assert "kg db reset --yes" in result.output
    assert "Traceback" not in result.output
    # The server was not stopped, and the data is still there.
    with _connect(bulk_server.settings) as graph:
        assert graph.read("MATCH (p:Paper) RETURN p.key AS key") == [{"key": "2101.00001"}]
        clear_database(graph)


def test_a_failed_bulk_load_leaves_the_server_as_it_was(
    bulk_server: LocalServer, tmp_path: Path
) -> None:
    _empty(bulk_server)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        _arxiv("2101.00001", "Fine", "Fri, 1 Jan 2021 00:00:00 GMT", "2021-01-02") + "{oops\n",
        encoding="utf-8",
    )
    settings = bulk_server.settings
    result = CliRunner().invoke(
        main,
        ["load", "--bulk", "--strict", str(bad), "--rejects", str(tmp_path / "r")],
        env=_cli_env(settings),
    )
    assert result.exit_code == 1
    assert f"Error: {bad}:2: invalid JSON" in result.output
    assert bulk_server.pid() is not None
    with _connect(settings) as graph:
        assert graph.read("MATCH (n) RETURN count(n) AS n") == [{"n": 0}]
    assert not list((settings.home / "bulk").glob("kg-bulk-*"))


def test_bulk_refuses_a_remote_server(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["load", "--bulk", str(RECORD), "--rejects", str(tmp_path / "r.jsonl")],
        env={"NEO4J_URI": "neo4j://db.example.com:7687", "NEO4J_PASSWORD": "x"},
    )
    assert result.exit_code == 1
    assert "Error: bulk mode works only with the local server that kg manages" in result.output
    assert "Unset NEO4J_URI" in result.output


def test_bulk_loads_a_folder_whose_one_file_is_unreadable(
    bulk_server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _empty(bulk_server)
    monkeypatch.delenv("NEO4J_URI", raising=False)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a_good.jsonl").write_text(
        _arxiv("2101.00001", "Fine", "Fri, 1 Jan 2021 00:00:00 GMT", "2021-01-02"),
        encoding="utf-8",
    )
    (folder / "b_bad.bin").write_bytes(b"\x00\x01\x02 not any format \xff" * 10)
    result = CliRunner().invoke(
        main,
        ["load", "--bulk", str(folder), "--rejects", str(tmp_path / "r"), "--json"],
        env=_cli_env(bulk_server.settings),
    )
    assert result.exit_code == 1, result.output  # one file failed
    summary = json.loads(result.output)
    # In input order, as the online load lists them: both run the same per-file loop.
    assert [(Path(f["path"]).name, f["error"] is not None) for f in summary["files"]] == [
        ("a_good.jsonl", False),
        ("b_bad.bin", True),
    ]
    assert "cannot tell its format" in summary["failed"][0]["reason"]
    # One arXiv record that nothing else names: imported, nothing for the online writer.
    assert summary["bulk"]["nodes"]["Paper"] == 1
    assert summary["bulk"]["online_papers"] == summary["bulk"]["online_citations"] == 0
    with _connect(bulk_server.settings) as graph:
        assert graph.read("MATCH (p:Paper) RETURN p.key AS key") == [{"key": "2101.00001"}]
    _empty(bulk_server)


def test_a_bulk_rebuild_keeps_the_splits_a_file_names(
    bulk_server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A split made with `kg unmerge` lives in the graph, which a rebuild starts without: the
    file `kg merges --kept-apart --json` prints, given to `kg load --bulk --keep-apart`, is
    recorded before the online writer reconciles titles, so the keys stay two papers."""
    from tests.titled_works import sparse_coding_pages

    _empty(bulk_server)
    one, two, _ = sparse_coding_pages(tmp_path)
    early, late = "title:sparse coding:2010", "title:sparse coding:2011"
    splits = tmp_path / "splits.json"
    splits.write_text(json.dumps([{"split_from": early, "keys": [late]}]), encoding="utf-8")
    monkeypatch.delenv("NEO4J_URI", raising=False)
    rejects = str(tmp_path / "r.jsonl")
    result = CliRunner().invoke(
        main,
        ["load", "--bulk", "--keep-apart", str(splits), "--rejects", rejects, str(one), str(two)],
        env=_cli_env(bulk_server.settings),
    )
    assert result.exit_code == 0, result.output
    with _connect(bulk_server.settings) as graph:
        keys = graph.read(
            "MATCH (p:Paper {norm_title: 'sparse coding'}) RETURN p.key AS key ORDER BY key"
        )
        assert [row["key"] for row in keys] == [early, late]
        kept = graph.read("MATCH (k:KeepApart) RETURN k.keys AS keys, k.norm_titles AS titles")
        assert kept == [{"keys": [late], "titles": ["sparse coding"]}]  # from the title key
        clear_database(graph)


def test_the_stage_memory_bounds_duckdb_and_a_bad_size_is_refused_first(
    bulk_server: LocalServer, tmp_path: Path
) -> None:
    """A small --stage-memory loads as the default does; a size DuckDB cannot read
    is refused before the server is stopped."""
    _empty(bulk_server)
    settings = bulk_server.settings
    pid = bulk_server.pid()
    good = tmp_path / "good.jsonl"
    good.write_text(
        _arxiv("2101.00001", "Fine", "Fri, 1 Jan 2021 00:00:00 GMT", "2021-01-02"),
        encoding="utf-8",
    )
    refused = CliRunner().invoke(
        main,
        ["load", "--bulk", "--stage-memory", "lots", str(good), "--rejects", str(tmp_path / "r")],
        env=_cli_env(settings),
    )
    assert refused.exit_code == 1
    assert "is not a size" in refused.output
    assert bulk_server.pid() == pid
    result = CliRunner().invoke(
        main,
        ["load", "--bulk", "--stage-memory", "64MB", str(good), "--rejects", str(tmp_path / "r")],
        env=_cli_env(settings),
    )
    assert result.exit_code == 0, result.output
    with _connect(settings) as graph:
        # (the arXiv parser folds the abstract's line break into a space)
        assert graph.read("MATCH (p:Paper) RETURN p.abstract AS a") == [
            {"a": 'An abstract with "quotes", a comma,\\ a backslash and a new line.'}
        ]
    _empty(bulk_server)
