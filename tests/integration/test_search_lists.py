"""Search that finds the paper people mean, lists that page, a home page worth opening and
orders that hold among ties, through the face, the CLI and the web view alike.

The cit-HepTh tests load the default map (examples/map, and cit-HepTh's edges and abstracts
from KG_DATA_DIR) once for the module; they are skipped with the reason where the data is
absent, and fail under CI=true.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.pipeline import load_paths
from kg.load.schema import clear_database
from kg.server.config import Connection
from kg.web import create_app
from tests.data import EXAMPLES, REAL_HEPTH_ABSTRACTS, REAL_HEPTH_EDGES, in_ci, missing_reason

LOCAL = "http://127.0.0.1"
HEPTH = (REAL_HEPTH_EDGES, REAL_HEPTH_ABSTRACTS)
MALDACENA = "hep-th/9711200"
_ROW_REF = re.compile(r'<td class="ref"><a href="/paper/([^"]+)"')
_NEXT = re.compile(r'<a rel="next" href="([^"]+)"')


@pytest.fixture(scope="module")
def hepth_map(
    session_graph: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[KnowledgeGraph]:
    """The default map with cit-HepTh: examples/map, then cit-HepTh's edges and abstracts."""
    reason = missing_reason(HEPTH)
    if reason is not None:
        if in_ci():
            pytest.fail(f"{reason}; under CI=true real-data tests must run", pytrace=False)
        pytest.skip(reason)
    clear_database(session_graph)
    rejects = tmp_path_factory.mktemp("hepth-search") / "rejects.jsonl"
    load_paths(session_graph, [EXAMPLES / "map"], rejects_path=rejects)
    summary = load_paths(session_graph, list(HEPTH), id_scheme="snap-hepth", rejects_path=rejects)
    assert summary.rejected == 0
    yield KnowledgeGraph.on(session_graph)
    clear_database(session_graph)


@pytest.fixture(scope="module")
def hepth_env(hepth_map: KnowledgeGraph, neo4j_connection: Connection) -> dict[str, str]:
    """The environment that points the CLI at the test server."""
    return {
        "NEO4J_URI": neo4j_connection.uri,
        "NEO4J_USER": neo4j_connection.user,
        "NEO4J_PASSWORD": neo4j_connection.password,
        "NEO4J_DATABASE": neo4j_connection.database,
        "COLUMNS": "160",
    }


@pytest.fixture(scope="module")
def hepth_web(hepth_map: KnowledgeGraph, neo4j_connection: Connection) -> Iterator[TestClient]:
    app = create_app(lambda: KnowledgeGraph.connect(neo4j_connection))
    with TestClient(app, base_url=LOCAL) as web:
        yield web


def _cli(env: dict[str, str], *args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _page(offset: int, limit: int) -> tuple[str, ...]:
    return ("--limit", str(limit), "--offset", str(offset))


def _section(page: str, anchor: str) -> str:
    """The HTML of the page's <section id=anchor>."""
    start = page.index(f'<section id="{anchor}"')
    return page[start : page.index("</section>", start)]


def _refs(html: str) -> list[str]:
    return [unquote(key) for key in _ROW_REF.findall(html)]


def _walk(web: TestClient, url: str, anchor: str | None) -> list[list[str]]:
    """Follow a list's Next links from ``url``: each page's papers, in order."""
    pages = []
    seen_urls = set()
    while url:
        assert url not in seen_urls
        seen_urls.add(url)
        page = web.get(url)
        assert page.status_code == 200, page.text
        html = _section(page.text, anchor) if anchor else page.text
        pages.append(_refs(html))
        following = _NEXT.findall(html)
        url = following[0].replace("&amp;", "&") if following else ""
    return pages


def _no_overlap_and_whole(pages: list[list[str]], whole: list[str]) -> None:
    flat = [key for page in pages for key in page]
    assert len(flat) == len(set(flat)), "a paper shows on two pages"
    assert flat == whole


def test_large_n_limit_finds_maldacena_in_the_top_three(hepth_map: KnowledgeGraph) -> None:
    result = hepth_map.search("large N limit", 3)
    keys = [hit.key for hit in result.results]
    assert MALDACENA in keys
    top = result.results[keys.index(MALDACENA)]
    cited = hepth_map.read(
        "MATCH (p:Paper {key: $key}) RETURN COUNT { (p)<-[:CITES]-() } AS n", {"key": MALDACENA}
    )[0]["n"]
    assert top.cited_by == cited > 2000
    assert top.authors_line() == "Juan M. Maldacena"
    assert top.year == 1997
    # The text score alone does not put it there: titles that match the words more closely
    # come first by text.
    assert top.text_score is not None
    assert top.text_score < 1.0
    ranked = hepth_map.search("large N limit", 50)
    assert ranked.total is not None
    assert ranked.total > 50
    assert [hit.score for hit in ranked.results] == sorted(
        (hit.score or 0.0 for hit in ranked.results), reverse=True
    )


def test_search_filters_by_year_and_category(hepth_map: KnowledgeGraph) -> None:
    later = hepth_map.search("large N limit", 20, year_from=1999, year_to=2000)
    assert later.results
    assert all(hit.year in (1999, 2000) for hit in later.results)
    assert MALDACENA not in {hit.key for hit in later.results}
    elsewhere = hepth_map.search("large N limit", 20, category="cs.LG")
    assert elsewhere.results == []


def test_cli_and_web_search_agree(
    hepth_map: KnowledgeGraph, hepth_env: dict[str, str], hepth_web: TestClient
) -> None:
    cli = _cli(hepth_env, "search", "large N limit", "--limit", "30")
    page = hepth_web.get("/search", params={"q": "large N limit"})
    assert page.status_code == 200
    web_keys = _refs(page.text)
    assert web_keys == [hit["key"] for hit in cli["results"]]
    assert MALDACENA in web_keys[:3]
    first = cli["results"][web_keys.index(MALDACENA)]
    assert f"{first['cited_by']:,}" in page.text
    assert "Juan M. Maldacena" in page.text
    # the next page, through the CLI's --offset and the web view's Next link
    cli_next = _cli(hepth_env, "search", "large N limit", "--limit", "30", "--offset", "30")
    link = _NEXT.findall(page.text)[0].replace("&amp;", "&")
    assert "offset=30" in link
    web_next = _refs(hepth_web.get(link).text)
    assert web_next == [hit["key"] for hit in cli_next["results"]]
    assert not set(web_next) & set(web_keys)
    # the form keeps the filters, and the CLI's --years and --category mean the same
    filtered = hepth_web.get(
        "/search",
        params={"q": "large N limit", "year_from": "1999", "year_to": "2000", "category": "hep-th"},
    )
    cli_filtered = _cli(
        hepth_env, "search", "large N limit", "--years", "1999-2000", "--category", "hep-th"
    )
    assert _refs(filtered.text)[:20] == [hit["key"] for hit in cli_filtered["results"]]
    assert 'name="year_from" value="1999"' in filtered.text
    table = CliRunner().invoke(main, ["search", "large N limit", "--limit", "3"], env=hepth_env)
    assert table.exit_code == 0, table.output
    assert "Maldacena" in table.output
    assert "2,414" in table.output


def test_web_pages_through_citers_as_the_cli_does(
    hepth_map: KnowledgeGraph, hepth_env: dict[str, str], hepth_web: TestClient
) -> None:
    ref = "hep-th/9908134"
    whole = [paper.key for paper in hepth_map.paper(ref).citers]
    assert len(whole) > 100  # more than two pages of 50
    pages = _walk(hepth_web, f"/paper/{ref}", "citers")
    assert len(pages) == -(-len(whole) // 50)
    _no_overlap_and_whole(pages, whole)
    cli_pages = [
        [p["key"] for p in _cli(hepth_env, "paper", ref, *_page(start, 50))["citers"]]
        for start in range(0, len(whole), 50)
    ]
    assert cli_pages == pages
    # the "cited by" column holds each citer's citations in the graph (cit-HepTh states none)
    first = hepth_web.get(f"/paper/{ref}").text
    citers = _section(first, "citers")
    cells = re.findall(r'<td class="n">([\d,]+)</td>', citers)
    assert len(cells) == 50
    counts = [paper.graph_cited_by for paper in hepth_map.paper(ref, limit=50).citers]
    assert cells == [f"{n:,}" for n in counts]
    assert "cited by in graph" in citers


def test_category_and_author_pages_page_too(
    hepth_map: KnowledgeGraph, hepth_env: dict[str, str], hepth_web: TestClient
) -> None:
    second = hepth_web.get("/category/hep-th", params={"offset": "50"})
    cli = _cli(hepth_env, "category", "hep-th", "--limit", "50", "--offset", "50")
    first = _cli(hepth_env, "category", "hep-th", "--limit", "50")
    assert _refs(second.text) == [p["key"] for p in cli["results"]]
    assert not {p["key"] for p in cli["results"]} & {p["key"] for p in first["results"]}
    assert 'rel="prev" href="/category/hep-th?offset=0"' in second.text
    author = hepth_map.author("Juan M. Maldacena")
    pages = [
        [p["key"] for p in _cli(hepth_env, "author", author.name, *_page(start, 7))["papers"]]
        for start in range(0, author.paper_count, 7)
    ]
    _no_overlap_and_whole(pages, [p.key for p in author.papers])


def test_near_breaks_ties_by_citations_and_pages(
    hepth_map: KnowledgeGraph, hepth_env: dict[str, str]
) -> None:
    near = _cli(hepth_env, "near", MALDACENA, "--hops", "1", "--limit", "40")
    rows = near["results"]
    assert [(r["distance"], -r["cited_by"], r["key"]) for r in rows] == sorted(
        (r["distance"], -r["cited_by"], r["key"]) for r in rows
    )
    counts = hepth_map.read(
        "UNWIND $keys AS key MATCH (p:Paper {key: key}) "
        "RETURN key, COUNT { (p)<-[:CITES]-() } AS cited_by",
        {"keys": [r["key"] for r in rows]},
    )
    assert {row["key"]: row["cited_by"] for row in counts} == {
        r["key"]: r["cited_by"] for r in rows
    }
    assert rows[0]["cited_by"] > rows[-1]["cited_by"]  # not key order
    whole = [p.key for p in hepth_map.near(MALDACENA, 1, 60).results]
    near_args = ("near", MALDACENA, "--hops", "1")
    pages = [
        [r["key"] for r in _cli(hepth_env, *near_args, *_page(start, 20))["results"]]
        for start in (0, 20, 40)
    ]
    _no_overlap_and_whole(pages, whole)


def test_home_page_shows_the_map(hepth_map: KnowledgeGraph, hepth_web: TestClient) -> None:
    page = hepth_web.get("/")
    assert page.status_code == 200
    overview = hepth_map.overview()
    counted = hepth_map.read("MATCH (p:Paper) RETURN count(p) AS n")[0]["n"]
    assert overview.papers == counted
    assert f'<span id="papers">{counted:,}</span>' in page.text
    assert f"{overview.citations:,}" in page.text
    assert overview.data_date is not None
    assert str(overview.data_date) in page.text
    assert _refs(_section(page.text, "most-cited"))[0] == MALDACENA
    assert 'href="/category/hep-th"' in _section(page.text, "categories")
    assert "kg rank pagerank --write" in _section(page.text, "most-central")
    assert 'form action="/search"' in page.text
    loads = _section(page.text, "loads")
    assert "cit-HepTh-abstracts.tar.gz" in loads
