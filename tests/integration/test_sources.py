"""The real OpenAlex, Semantic Scholar and Crossref records load into one graph.

Read through KG_DATA_DIR (``data/sources``), never copied into the project. What the graph
must hold is worked out here from the raw JSON, independently of the loaders: which records
name one paper (they share an id), which OpenAlex references point inside the set, and which
records only share a title.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.refs import resolve
from kg.server.config import Connection
from tests.data import EXAMPLES, REAL_SOURCES
from tests.graph_dump import differences, dump_graph

pytestmark = [
    pytest.mark.integration,
    pytest.mark.needs_data(
        REAL_SOURCES / "openalex_works.jsonl",
        REAL_SOURCES / "s2_papers.jsonl",
        REAL_SOURCES / "crossref_works.jsonl",
    ),
]

FILES = ("openalex_works.jsonl", "s2_papers.jsonl", "crossref_works.jsonl")


def _lines(name: str) -> Iterator[dict[str, Any]]:
    with (REAL_SOURCES / name).open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _doi(text: object) -> str | None:
    if not isinstance(text, str) or not text.strip():
        return None
    doi = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", text.strip(), flags=re.I).lower()
    return None if doi.startswith("10.48550/arxiv.") else doi


def _arxiv(text: object) -> str | None:
    if not isinstance(text, str):
        return None
    match = re.search(r"(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$", text.strip())
    return match.group(1) if match else None


def _openalex_ids(work: dict[str, Any]) -> set[str]:
    ids = {"openalex:" + work["id"].rsplit("/", 1)[-1]}
    doi = work.get("doi") or (work.get("ids") or {}).get("doi")
    if _doi(doi):
        ids.add(f"doi:{_doi(doi)}")
    if isinstance(doi, str) and "10.48550/arxiv." in doi.lower():
        ids.add(f"arxiv:{_arxiv(doi.lower().split('arxiv.')[-1])}")
    places = [work.get("primary_location"), work.get("best_oa_location")]
    for place in [*places, *(work.get("locations") or [])]:
        for url in (place or {}).get("landing_page_url"), (place or {}).get("pdf_url"):
            found = re.search(r"arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?$", url or "")
            if found and _arxiv(found.group(1)):
                ids.add(f"arxiv:{_arxiv(found.group(1))}")
    return ids


def _s2_ids(paper: dict[str, Any]) -> set[str]:
    ids = {f"s2:{paper['paperId']}"} if paper.get("paperId") else set()
    external = paper.get("externalIds") or {}
    if _doi(external.get("DOI")):
        ids.add(f"doi:{_doi(external['DOI'])}")
    if external.get("ArXiv"):
        ids.add(f"arxiv:{external['ArXiv']}")
    if paper.get("corpusId") is not None:
        ids.add(f"corpus:{paper['corpusId']}")
    return ids


def _records() -> list[tuple[str, set[str], str | None]]:
    """Every record of the three files: (file, its ids as 'kind:value', its title)."""
    found: list[tuple[str, set[str], str | None]] = []
    for work in _lines("openalex_works.jsonl"):
        found.append(("openalex", _openalex_ids(work), work.get("title")))
    for paper in _lines("s2_papers.jsonl"):
        found.append(("s2", _s2_ids(paper), paper.get("title")))
    for work in _lines("crossref_works.jsonl"):
        title = (work.get("title") or [None])[0]
        found.append(("crossref", {f"doi:{_doi(work['DOI'])}"}, title))
    return found


def _groups(records: list[tuple[str, set[str], str | None]]) -> list[tuple[set[str], set[str]]]:
    """Records linked by a shared id, as (their sources, their ids)."""
    parent = list(range(len(records)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, (_source, ids, _title) in enumerate(records):
        for key in ids:
            if key in owner:
                parent[root(i)] = root(owner[key])
            else:
                owner[key] = i
    merged: dict[int, tuple[set[str], set[str]]] = defaultdict(lambda: (set(), set()))
    for i, (source, ids, _title) in enumerate(records):
        sources, all_ids = merged[root(i)]
        sources.add(source)
        all_ids.update(ids)
    return list(merged.values())


def _ref(key: str) -> str:
    """The id key as a user writes the id: an arXiv id bare, a DOI as a resolver URL."""
    kind, value = key.split(":", 1)
    return {
        "arxiv": value,
        "doi": f"https://doi.org/{value}",
        "openalex": f"https://openalex.org/{value}",
        "corpus": f"CorpusId:{value}",
    }.get(kind, value)


@pytest.fixture(scope="module")
def sources_graph(session_graph: Database, tmp_path_factory: pytest.TempPathFactory) -> Database:
    clear_database(session_graph)
    folder = tmp_path_factory.mktemp("sources")
    summary = KnowledgeGraph.on(session_graph).load(
        [EXAMPLES / "map", *(REAL_SOURCES / name for name in FILES)],
        rejects_path=folder / "rejects.jsonl",
    )
    formats = {Path(f.path).name: f.format for f in summary.files}
    assert {name: formats[name] for name in FILES} == {
        "openalex_works.jsonl": "openalex",
        "s2_papers.jsonl": "semantic_scholar",
        "crossref_works.jsonl": "crossref",
    }
    assert summary.rejected == 0, (folder / "rejects.jsonl").read_text()[:2000]
    return session_graph


def test_a_paper_in_several_sources_is_one_node_that_each_id_finds(
    sources_graph: Database,
) -> None:
    shared = [ids for sources, ids in _groups(_records()) if len(sources) > 1]
    assert shared, "the sources share papers (their README says so)"
    for ids in shared:
        keys = {resolve(sources_graph, _ref(key)).key for key in sorted(ids)}
        assert len(keys) == 1, (sorted(ids), keys)


def test_each_openalex_paper_holds_the_topics_of_its_newest_work(sources_graph: Database) -> None:
    """`topics`: the topic names of the newest OpenAlex work of the paper (by updated_date),
    in the work's order; worked out here from the raw JSON."""
    newest: dict[str, tuple[str, list[str]]] = {}
    for work in _lines("openalex_works.jsonl"):
        names = list(dict.fromkeys(t["display_name"] for t in work.get("topics") or []))
        if not names:
            continue
        key = resolve(sources_graph, work["id"]).key
        stated = (work["updated_date"], names)
        newest[key] = max(newest.get(key, stated), stated)
    assert len(newest) > 150, "most of the 210 works have topics"
    rows = sources_graph.read(
        "UNWIND $keys AS key MATCH (p:Paper {key: key}) RETURN p.key AS key, p.topics AS topics",
        {"keys": sorted(newest)},
    )
    assert {row["key"]: row["topics"] for row in rows} == {
        key: names for key, (_date, names) in newest.items()
    }


def test_the_openalex_references_inside_the_set_are_citations(sources_graph: Database) -> None:
    works = list(_lines("openalex_works.jsonl"))
    inside = {work["id"] for work in works}
    expected = {
        (work["id"].rsplit("/", 1)[-1], ref.rsplit("/", 1)[-1])
        for work in works
        for ref in work.get("referenced_works") or []
        if ref in inside and ref != work["id"]
    }
    assert len(expected) > 100
    keys = {w: resolve(sources_graph, w).key for pair in expected for w in pair}
    # two works of the set can be one paper (a preprint and its journal version that another
    # source links by an id): their references are one paper's
    edges = sorted({(keys[a], keys[b]) for a, b in expected if keys[a] != keys[b]})
    rows = sources_graph.read(
        "UNWIND $pairs AS pair MATCH (a:Paper {key: pair[0]})-[:CITES]->(b:Paper {key: pair[1]}) "
        "RETURN count(*) AS found",
        {"pairs": [list(edge) for edge in edges]},
    )
    assert rows[0]["found"] == len(edges)


def test_papers_that_only_share_a_title_stay_apart(sources_graph: Database) -> None:
    records = _records()
    groups = _groups(records)
    group_of = {key: i for i, (_s, ids) in enumerate(groups) for key in ids}
    by_title: dict[str, set[int]] = defaultdict(set)
    for _source, ids, title in records:
        if title and ids:
            norm = re.sub(r"\W+", " ", title.casefold()).strip()
            by_title[norm].add(group_of[next(iter(ids))])
    twins = [sorted(found) for found in by_title.values() if len(found) > 1]
    assert twins, "two different papers in the sources share a title (their README says so)"
    for found in twins:
        keys = {resolve(sources_graph, _ref(sorted(groups[i][1])[0])).key for i in found}
        assert len(keys) == len(found), [sorted(groups[i][1]) for i in found]


def test_the_sources_the_other_way_round_give_the_same_graph(
    sources_graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """The sources loaded the other way round, in small batches, make the graph the files'
    own order makes. Two OpenAlex works of arXiv 1304.7300 state its references on two
    dates: its CITES keep the first and the last however the works are batched (one
    batch kept only the last date). And key_refs of papers that a reference by a strong
    id named differed before id_aliases.cypher started them as merge_papers.cypher does."""
    expected = dump_graph(sources_graph)
    files = [str(EXAMPLES / "map"), *(str(REAL_SOURCES / name) for name in FILES)]
    kg = str(Path(sys.executable).parent / "kg")
    clear_database(sources_graph)
    result = subprocess.run(
        [kg, "load", *reversed(files), "--batch-size", "100", "--rejects", str(tmp_path / "r")],
        env=dict(os.environ),  # NEO4J_* point at the test server (kg_env)
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    got = dump_graph(sources_graph)
    assert got == expected, differences(got, expected)


def test_the_sources_loaded_at_once_give_the_same_graph(
    sources_graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """The example map and the three sources, each loaded by its own `kg load` at the same
    time, make the graph loading them one after another makes: the records of one paper in
    three files meet in whichever order the writers' transactions commit."""
    expected = dump_graph(sources_graph)
    files = [EXAMPLES / "map", *(REAL_SOURCES / name for name in FILES)]
    kg = str(Path(sys.executable).parent / "kg")
    clear_database(sources_graph)
    running = []
    for number, path in enumerate(files):
        log = (tmp_path / f"load-{number}.txt").open("w")
        command = [kg, "load", str(path), "--batch-size", "200", "--rejects", str(tmp_path / "r")]
        running.append((subprocess.Popen(command, stdout=log, stderr=log), log))
    for process, log in running:
        code = process.wait(timeout=900)
        log.close()
        assert code == 0, Path(log.name).read_text()
    got = dump_graph(sources_graph)
    assert got == expected, differences(got, expected)
