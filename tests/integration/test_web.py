"""`kg serve`: the read-only web view, through its ASGI interface and in headless Chromium."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner
from markupsafe import escape as markup_escape
from starlette.testclient import TestClient

from kg import questions
from kg.answers import short_handle
from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from kg.web import create_app
from kg.web.app import paper_url
from tests.browser import chromium, requested_urls
from tests.web_server import Relay, serving

LOCAL = "http://127.0.0.1"  # the app answers only for the names it is reached by locally


@pytest.fixture
def client(small_map: Database, neo4j_connection: Connection) -> Iterator[TestClient]:
    app = create_app(lambda: KnowledgeGraph.connect(neo4j_connection))
    with TestClient(app, base_url=LOCAL) as web:
        yield web


def test_paper_page_shows_the_map_page(client: TestClient, small_map: Database) -> None:
    page = client.get("/paper/2110.03888")
    assert page.status_code == 200
    report = questions.paper_report(small_map, "2110.03888")
    assert report.cited_by_sentence() in page.text
    assert report.builds_on_sentence() in page.text
    assert f"References in the graph · {len(report.references)}" in page.text
    assert f"Cited by · {len(report.citers)}" in page.text
    assert 'href="/paper/1706.03762"' in page.text
    assert "why?measure=cocited" in page.text or "none of which" in page.text
    assert 'class="bar stated"' in page.text  # the stated histogram beside the counted one


def test_data_is_escaped(client: TestClient) -> None:
    page = client.get("/paper/2101.99999")
    assert page.status_code == 200
    assert "<script>alert" not in page.text
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; [bold]" in page.text
    assert "Less &lt;than&gt; &amp; &#34;quoted&#34;" in page.text


def test_search_why_author_category_and_graph(client: TestClient, small_map: Database) -> None:
    found = client.get("/search", params={"q": "attention"})
    assert found.status_code == 200
    assert "Attention Is All You Need" in found.text
    why = client.get("/why", params={"measure": "cocited", "a": "1810.04805", "b": "1706.03762"})
    both = questions.common_citers(small_map, "1810.04805", "1706.03762")
    assert f"These papers cite both · {len(both.results)}" in why.text
    assert client.get("/author", params={"name": "Ang Wang"}).status_code == 200
    assert "cs.LG" in client.get("/category/cs.LG").text
    graph_page = client.get("/graph", params={"ref": "2110.03888", "limit": "10"})
    assert graph_page.status_code == 200
    near = questions.neighbourhood(small_map, "2110.03888", 1, 1000)
    links = set(re.findall(r'<a xlink:href="(/paper/[^"]+)"', graph_page.text))
    assert len(links) == min(10, near.total) + 1
    assert "/paper/2110.03888" in links


def test_unknown_papers_and_writes_are_refused(client: TestClient) -> None:
    missing = client.get("/paper/no%20such%20paper")
    assert missing.status_code == 404
    assert "no paper matches" in missing.text
    assert client.post("/paper/2110.03888").status_code == 405
    assert client.delete("/paper/2110.03888").status_code == 405


def test_serve_binds_to_loopback_by_default() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert "[default: 127.0.0.1]" in result.output


@pytest.fixture
def served(small_map: Database, neo4j_connection: Connection) -> Iterator[str]:
    """The app on a free loopback port, in a thread, for the browser."""
    with serving(neo4j_connection) as url:
        yield url


def test_in_a_browser_from_search_to_graph(
    served: str, kg_env: Connection, small_map: Database
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    cli = json.loads(CliRunner().invoke(main, ["paper", "1810.04805", "--json"]).output)
    cocited = _layer_answer(small_map, "1810.04805", "cocited", 20)
    coupled = _layer_answer(small_map, "1810.04805", "coupled", 20)
    with chromium() as driver:
        driver.get(served + "/")
        box = driver.find_element(By.CSS_SELECTOR, "form.big input[name=q]")
        box.send_keys("BERT", Keys.ENTER)
        # Enter submits the form; the results page comes when it comes (once it was not there
        # yet when asked for at once, under a loaded machine)
        result = WebDriverWait(driver, 30).until(
            expected_conditions.element_to_be_clickable(
                (By.CSS_SELECTOR, "#results a[href='/paper/1810.04805']")
            )
        )
        result.click()
        title = WebDriverWait(driver, 30).until(
            expected_conditions.presence_of_element_located((By.ID, "title"))
        )
        assert title.text == cli["title"]
        cited = driver.find_element(By.ID, "cited-by").text
        assert cited.startswith(f"Cited by {cli['cited_by_in_map']} papers in the graph")
        references = driver.find_elements(By.CSS_SELECTOR, "#references tbody tr")
        assert len(references) == len(cli["references"])
        references[0].find_element(By.CSS_SELECTOR, "td.ref a").click()
        assert driver.current_url == served + "/paper/" + cli["references"][0]["key"]
        driver.get(served + "/paper/1810.04805")
        driver.find_element(By.ID, "graph-link").click()
        nodes = driver.find_elements(By.CSS_SELECTOR, "#graph svg a")
        near = questions.neighbourhood(small_map, "1810.04805", 1, 1000)
        assert len(nodes) == min(30, near.total) + 1
        for layer, expected in (("cocited", cocited), ("coupled", coupled)):
            driver.find_element(By.ID, f"layer-{layer}").click()
            drawn = driver.find_elements(By.CSS_SELECTOR, "#graph svg a")
            edges = driver.find_elements(By.CSS_SELECTOR, "#graph svg g[id^='edge-']")
            assert len(edges) == expected.edges
            targets = sorted(str(a.get_attribute("xlink:href")) for a in drawn)
            assert targets == sorted(paper_url(key) for key in expected.keys)
        driver.get(served + targets[-1])  # each node's link opens that paper's page
        assert driver.find_element(By.ID, "title").text
        assert urlsplit(driver.current_url).path == targets[-1]
        urls = requested_urls(driver)
    assert urls
    assert {urlsplit(u).hostname for u in urls if u.startswith("http")} == {"127.0.0.1"}


def test_browser_guide_lists_every_question_runnable(
    client: TestClient, small_map: Database
) -> None:
    from kg import queries
    from kg.web.app import GUIDE

    page = client.get("/guide")
    assert page.status_code == 200
    assert page.headers["access-control-allow-origin"] == "*"
    assert page.text.count("<slide") == len(GUIDE) + 1
    for name, title, params in GUIDE:
        query = queries.get(name)
        assert str(markup_escape(title)) in page.text
        bound = query.bind(params)  # every declared parameter is given or has a default
        assert set(bound) == {p.name for p in query.params}
        for key, value in params.items():
            assert f":param {key} =&gt; {value!r}".replace("'", "&#39;") in page.text
        query.run(small_map, **params)  # runs as written, APOC included


@pytest.mark.parametrize("name", ["cocited_graph", "coupled_graph"])
def test_similarity_draws_as_virtual_relationships(small_map: Database, name: str) -> None:
    from kg import queries

    query = queries.get(name)
    expected = {"cocited_graph": questions.cocited, "coupled_graph": questions.coupled}[name](
        small_map, "1810.04805", 20
    )
    # The driver's records: a virtual relationship keeps its type only there, not in a dict.
    records = query.run_records(small_map, key="1810.04805")
    drawn = [(r["b"]["key"], r.values()[2]["together"], r.values()[2].type) for r in records]
    relationship = "CO_CITED" if name == "cocited_graph" else "COUPLED"
    assert drawn == [(p.key, p.together, relationship) for p in expected.results]


def test_graph_view_exports_the_neighbourhood(client: TestClient, small_map: Database) -> None:
    import io

    import networkx as nx

    graph_page = client.get("/graph", params={"ref": "2110.03888"})
    assert 'href="/export?format=gexf&around=2110.03888&hops=1"' in graph_page.text
    download = client.get("/export", params={"format": "gexf", "around": "2110.03888"})
    assert download.status_code == 200
    assert download.headers["content-disposition"] == 'attachment; filename="2110.03888-1hop.gexf"'
    drawn = nx.read_gexf(io.BytesIO(download.content))
    near = questions.neighbourhood(small_map, "2110.03888", 1, 1000)
    assert drawn.number_of_nodes() == near.total + 1
    refused = client.get("/export", params={"format": "csv", "around": "2110.03888"})
    assert refused.status_code == 400
    assert "no single-file export format" in refused.text


def test_a_merged_paper_says_what_else_it_was_known_as(
    client: TestClient, small_map: Database, kg_env: Connection
) -> None:
    report = questions.paper_report(small_map, "1706.03762")
    assert "title:attention is all you need:2017" in report.aliases  # the answer keeps keys
    page = client.get("/paper/1706.03762").text
    assert "Also known as attention is all you need (2017)" in page  # a person reads a title
    table = CliRunner().invoke(main, ["paper", "1706.03762"], env={"COLUMNS": "200"})
    assert "attention is all you need (2017)" in table.output
    assert "also known as" in table.output


@dataclass(frozen=True)
class _Layer:
    keys: list[str]
    edges: int


def _expected_layer(graph: Database, ref: str, layer: str, limit: int) -> _Layer:
    """What a similarity layer should draw, from the questions: the paper and its top
    ``limit``, and a link for every pair of them with a common citer (co-citation) or a
    common reference (coupling), asked pair by pair."""
    ask = questions.cocited if layer == "cocited" else questions.coupled
    answer = ask(graph, ref, limit)
    keys = sorted({answer.paper.key, *(p.key for p in answer.results)})
    overlap = questions.common_citers if layer == "cocited" else questions.shared_references
    edges = sum(1 for a, b in combinations(keys, 2) if overlap(graph, a, b).results)
    return _Layer(keys, edges)


def _layer_answer(graph: Database, ref: str, layer: str, limit: int) -> _Layer:
    """What a similarity layer should draw, from the question and the among-query."""
    from kg import queries

    ask = questions.cocited if layer == "cocited" else questions.coupled
    answer = ask(graph, ref, limit)
    keys = sorted({answer.paper.key, *(p.key for p in answer.results)})
    among = (
        queries.questions.cocitation_among
        if layer == "cocited"
        else queries.questions.coupling_among
    )
    return _Layer(keys, len(among.run(graph, keys=keys)))


@pytest.mark.parametrize("layer", ["cocited", "coupled"])
def test_similarity_layer_draws_the_questions_answer(
    client: TestClient, small_map: Database, layer: str
) -> None:
    expected = _expected_layer(small_map, "1810.04805", layer, 8)
    assert _layer_answer(small_map, "1810.04805", layer, 8) == expected
    page = client.get("/graph", params={"ref": "1810.04805", "layer": layer, "limit": "8"})
    assert page.status_code == 200
    links = re.findall(r'<a xlink:href="(/paper/[^"]+)"', page.text)
    assert sorted(links) == sorted(paper_url(key) for key in expected.keys)
    assert len(re.findall(r'<g id="edge-\d+"', page.text)) == expected.edges
    assert f'data-nodes="{len(expected.keys)}" data-edges="{expected.edges}"' in page.text
    assert expected.edges > len(expected.keys) - 1  # links among the neighbours, not a star


def test_similarity_layer_widths_follow_cosine(small_map: Database) -> None:
    drawn = KnowledgeGraph.on(small_map).plots.similarity_map("1810.04805", "cocited", 10)
    lines = {line.get_gid(): line for line in drawn.figure.axes[0].get_lines()}
    widths = [lines[f"edge-{n}"].get_linewidth() for n in range(len(drawn.edges))]
    assert len(widths) == len(drawn.edges) > 1
    by_cosine = sorted(range(len(widths)), key=lambda n: drawn.edges[n].cosine)
    assert [widths[n] for n in by_cosine] == sorted(widths)
    assert max(widths) > min(widths)


def test_unknown_graph_layer_is_refused(client: TestClient) -> None:
    page = client.get("/graph", params={"ref": "1810.04805", "layer": "bogus"})
    assert page.status_code == 400
    assert "no graph layer" in page.text


def test_a_download_of_a_paper_named_in_greek_keeps_its_name(
    client: TestClient, small_map: Database
) -> None:
    # A title-only paper's handle is its title key: here not even Latin-1, which an HTTP
    # header cannot carry as it is (the download was a 500)
    key = "title:γ convergence of σ models:2001"
    small_map.write(
        "MERGE (p:Paper {key: $key}) SET p.title = 'Γ-convergence of Σ-models', p.year = 2001, "
        "p.stub = true WITH p MATCH (q:Paper {key: '2110.03888'}) MERGE (p)-[:CITES]->(q)",
        {"key": key},
    )
    for fmt in ("graphml", "bibtex"):
        download = client.get("/export", params={"format": fmt, "around": key})
        assert download.status_code == 200, download.text
        disposition = download.headers["content-disposition"]
        plain, _, encoded = disposition.partition("; filename*=UTF-8''")
        name = (
            short_handle(key).replace("/", "_").rstrip("…")
            + "-1hop."
            + ("bib" if fmt == "bibtex" else fmt)
        )
        assert unquote(encoded) == name
        assert plain == 'attachment; filename="' + re.sub(r"[^ -~]", "_", name) + '"'


def test_each_failure_has_its_own_status(client: TestClient, neo4j_connection: Connection) -> None:
    nowhere = client.get("/no/such/page")
    assert nowhere.status_code == 404
    assert "no page at /no/such/page" in nowhere.text
    assert client.get("/paper/no%20such%20paper").status_code == 404
    assert client.get("/graph", params={"ref": "1810.04805", "layer": "x"}).status_code == 400
    # Neo4j gone away under a running view is the server's trouble, not a missing page
    where = urlsplit(neo4j_connection.uri)
    relay = Relay(where.hostname or "127.0.0.1", where.port or 7687)
    through = dataclasses.replace(neo4j_connection, uri=f"bolt://127.0.0.1:{relay.port}")
    with TestClient(create_app(lambda: KnowledgeGraph.connect(through)), base_url=LOCAL) as web:
        assert web.get("/paper/2110.03888").status_code == 200
        relay.cut()
        down = web.get("/paper/2110.03888")
    assert down.status_code == 503
    assert "cannot reach Neo4j" in down.text
    assert "Traceback" not in down.text
