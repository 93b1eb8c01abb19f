"""`kg serve`: the read-only web view, through its ASGI interface and in headless Chromium."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner
from markupsafe import escape as markup_escape
from starlette.testclient import TestClient

from kg import questions
from kg.answers import GraphLayer, short_handle
from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from kg.web import create_app
from kg.web.app import paper_url
from tests.browser import chromium, requested_urls
from tests.data import HOSTILE_TITLE
from tests.web_server import Relay, serving

LOCAL = "http://127.0.0.1"  # the app answers only for the names it is reached by locally
GRAPH_JSON = ("export", "graph-json")


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
    assert 'data-ref="2110.03888" data-layer="citations" data-hops="1" data-limit="10"' in (
        graph_page.text
    )
    drawn = client.get("/graph.json", params={"ref": "2110.03888", "limit": "10"}).json()
    near = questions.neighbourhood(small_map, "2110.03888", 1, 1000)
    assert len(drawn["nodes"]) == min(10, near.total) + 1
    assert drawn["nodes"][0]["key"] == "2110.03888"
    assert drawn["total"] == near.total


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
        _drawn(driver)
        near = questions.neighbourhood(small_map, "1810.04805", 1, 1000)
        assert driver.execute_script("return kgGraph.cy.nodes().length") == min(30, near.total) + 1
        for layer, expected in (("cocited", cocited), ("coupled", coupled)):
            before = driver.find_element(By.ID, "graph")
            driver.find_element(By.ID, f"layer-{layer}").click()
            WebDriverWait(driver, 30).until(expected_conditions.staleness_of(before))
            _drawn(driver)
            keys = driver.execute_script("return kgGraph.cy.nodes().map(n => n.id())")
            assert sorted(keys) == expected.keys
            assert driver.execute_script("return kgGraph.cy.edges().length") == expected.edges
            shown = driver.execute_script("return kgGraph.cy.edges(':visible').length")
            assert shown == min(20, expected.edges)
        urls = requested_urls(driver)
    assert urls
    assert {urlsplit(u).hostname for u in urls if u.startswith("http")} == {"127.0.0.1"}


def _drawn(driver: Any) -> None:
    """Wait until the graph view has drawn its layer (#graph's data-state is ready)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 30).until(
        lambda d: (
            d.execute_script(
                "const g = document.getElementById('graph'); return g && g.dataset.state"
            )
            in ("ready", "error")
        )
    )
    assert driver.execute_script("return document.getElementById('graph').dataset.state") == (
        "ready"
    )


def _node_on_screen(driver: Any, key: str) -> tuple[int, int]:
    """The offset of node ``key`` from the centre of the graph's canvas, in CSS pixels."""
    x, y, width, height = driver.execute_script(
        "const p = kgGraph.cy.getElementById(arguments[0]).renderedPosition();"
        "const box = document.getElementById('graph');"
        "return [p.x, p.y, box.clientWidth, box.clientHeight];",
        key,
    )
    return round(x - width / 2), round(y - height / 2)


# The nodes whose drawn box overlaps no other node's.
_ALONE = """
const nodes = kgGraph.cy.nodes();
const apart = (a, b) => a.x2 < b.x1 || b.x2 < a.x1 || a.y2 < b.y1 || b.y2 < a.y1;
return nodes.filter(n => nodes.every(m => m.same(n) ||
    apart(n.renderedBoundingBox({includeLabels: false}),
          m.renderedBoundingBox({includeLabels: false})))).map(n => n.id());
"""


def test_the_graph_view_in_a_browser(served: str, small_map: Database) -> None:
    """The graph view at 1280×800: it asks nothing of another host, it fits the screen, a
    hovered paper shows its title, the slider sets how many links are drawn, a right-click
    adds a paper's neighbours, and a click opens the paper's page."""
    from selenium.webdriver.common.action_chains import ActionChains

    ref = "1810.04805"
    answer = KnowledgeGraph.on(small_map).graph_data(ref, "cocited", limit=20)
    with chromium() as driver:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.get(f"{served}/graph?ref={ref}&layer=cocited")
        _drawn(driver)
        bottom, width, inner = driver.execute_script(
            "const r = document.getElementById('graph').getBoundingClientRect();"
            "return [r.bottom, r.right, window.innerHeight];"
        )
        assert inner == 800
        assert bottom <= inner
        assert width <= 1280

        tooltip = driver.find_element("id", "graph-tooltip")
        assert not tooltip.is_displayed()
        # a titled paper no other node covers, for the pointer to find it alone
        alone = set(driver.execute_script(_ALONE))
        titled = next(n for n in answer.nodes[1:] if n.title and n.key in alone)
        dx, dy = _node_on_screen(driver, titled.key)
        graph_box = driver.find_element("id", "graph")
        ActionChains(driver).move_to_element_with_offset(graph_box, dx, dy).perform()
        assert tooltip.is_displayed()
        assert titled.title in tooltip.text
        assert str(titled.year) in tooltip.text
        assert driver.find_element("id", "details-title").text == titled.title

        links = len(answer.edges)
        assert links > 3
        shown = driver.execute_script("return kgGraph.cy.edges(':visible').length")
        assert shown == min(20, links)
        for wanted in (3, links, 0):
            driver.execute_script(
                "const s = document.getElementById('links'); s.value = arguments[0];"
                "s.dispatchEvent(new Event('input'));",
                wanted,
            )
            shown = driver.execute_script("return kgGraph.cy.edges(':visible').length")
            assert shown == wanted
            assert driver.find_element("id", "links-count").text.startswith(
                f"{wanted} of {links} links"
            )
        heaviest = driver.execute_script(
            "const s = document.getElementById('links'); s.value = 1;"
            "s.dispatchEvent(new Event('input'));"
            "return kgGraph.cy.edges(':visible').map(e => [e.source().id(), e.target().id()])"
        )
        assert heaviest == [[answer.edges[0].source, answer.edges[0].target]]

        before = driver.execute_script("return kgGraph.cy.nodes().length")
        around = KnowledgeGraph.on(small_map).graph_data(titled.key, "cocited", limit=10)
        new = {n.key for n in around.nodes} - {n.key for n in answer.nodes}
        dx, dy = _node_on_screen(driver, titled.key)
        ActionChains(driver).move_to_element_with_offset(
            graph_box, dx, dy
        ).context_click().perform()
        _drawn(driver)
        assert driver.execute_script("return kgGraph.cy.nodes().length") == before + len(new)

        alone = set(driver.execute_script(_ALONE))  # the layout ran again
        clicked = next(n for n in answer.nodes[1:] if n.title and n.key in alone)
        dx, dy = _node_on_screen(driver, clicked.key)
        ActionChains(driver).move_to_element_with_offset(graph_box, dx, dy).click().perform()
        assert driver.find_element("id", "title").text == clicked.title
        assert urlsplit(driver.current_url).path == paper_url(clicked.key)
        urls = requested_urls(driver)
    assert f"{served}/static/vendor/cytoscape.min.js" in urls
    assert any(url.startswith(f"{served}/graph.json?") for url in urls)
    assert {urlsplit(u).hostname for u in urls if u.startswith("http")} == {"127.0.0.1"}


@pytest.mark.parametrize("layer", ["citations", "cocited", "coupled"])
def test_the_json_the_api_and_the_export_agree(
    client: TestClient,
    small_map: Database,
    kg_env: Connection,
    tmp_path: Path,
    layer: GraphLayer,
) -> None:
    params = {"ref": "1810.04805", "layer": layer, "hops": "1", "limit": "12"}
    served = client.get("/graph.json", params=params)
    assert served.status_code == 200
    assert served.headers["content-type"] == "application/json"
    answer = KnowledgeGraph.on(small_map).graph_data("1810.04805", layer, 1, 12)
    target = tmp_path / "graph.json"
    result = CliRunner().invoke(
        main,
        [*GRAPH_JSON, str(target), "--around", "1810.04805", "--layer", layer, "--limit", "12"],
    )
    assert result.exit_code == 0, result.output
    written = json.loads(target.read_text(encoding="utf-8"))
    assert served.json() == answer.model_dump(mode="json") == written
    assert len(answer.nodes) > 2
    assert answer.edges
    kinds = {edge.kind for edge in answer.edges}
    assert kinds == {"cites" if layer == "citations" else layer}
    noun = "citation" if layer == "citations" else "link"
    assert result.output == (
        f"wrote {len(answer.nodes)} papers and {len(answer.edges)} {noun}s "
        f"(the {layer} layer of 1810.04805) to {target}\n"
    )


@pytest.mark.parametrize("hops", [1, 2, 3])
def test_the_citations_layer_is_the_most_cited_within_the_hops(
    small_map: Database, hops: int
) -> None:
    """neighbourhood_top against the neighbourhood question and the exports' papers and
    citations: the same papers within the hops, the most cited kept, their citations."""
    graph = KnowledgeGraph.on(small_map)
    near = graph.near("1810.04805", hops, 100_000)
    around = sorted(
        graph.exports.papers(sorted(p.key for p in near.results)),
        key=lambda p: (-p.cited_by, p.key),
    )
    answer = graph.graph_data("1810.04805", "citations", hops, 5)
    assert answer.total == near.total > 5
    assert [n.key for n in answer.nodes] == ["1810.04805", *(p.key for p in around[:5])]
    assert [n.cited_by for n in answer.nodes[1:]] == [p.cited_by for p in around[:5]]
    keys = sorted(n.key for n in answer.nodes)
    assert [(e.source, e.target) for e in answer.edges] == list(graph.exports.citations(keys))
    assert answer.first_year is not None
    assert answer.last_year is not None
    assert all(answer.first_year <= n.year <= answer.last_year for n in answer.nodes if n.year)


def test_graph_json_refuses_what_it_cannot_answer(
    client: TestClient, kg_env: Connection, tmp_path: Path
) -> None:
    missing = client.get("/graph.json", params={"ref": "no such paper"})
    assert missing.status_code == 404
    assert "no paper matches" in missing.json()["error"]
    layer = client.get("/graph.json", params={"ref": "1810.04805", "layer": "x"})
    assert layer.status_code == 400
    assert layer.json() == {
        "error": "no graph layer 'x'",
        "hint": "use citations, cocited or coupled",
    }
    runner = CliRunner()
    alone = runner.invoke(main, ["export", "graph-json", str(tmp_path / "g.json")])
    assert alone.exit_code == 2  # ParameterErrors: usage errors
    assert "Error: graph-json needs --around REF" in alone.output
    filtered = runner.invoke(
        main,
        [*GRAPH_JSON, str(tmp_path / "g.json"), "--around", "1810.04805", "--category", "cs.CL"],
    )
    assert filtered.exit_code == 2
    assert "graph-json takes --around, --hops, --layer and --limit only" in filtered.output
    layered = runner.invoke(main, ["export", "gexf", str(tmp_path / "g.gexf"), "--limit", "3"])
    assert layered.exit_code == 2
    assert "--layer and --limit are options of graph-json" in layered.output
    assert not (tmp_path / "g.json").exists()


def test_the_graph_page_escapes_the_paper(client: TestClient) -> None:
    page = client.get("/graph", params={"ref": "2101.99999"})
    assert page.status_code == 200
    assert "<script>alert" not in page.text
    assert "Less &lt;than&gt; &amp; &#34;quoted&#34; &lt;script&gt;alert(&#39;x&#39;)" in page.text
    data = client.get("/graph.json", params={"ref": "2101.99999"}).json()
    assert data["paper"]["title"] == HOSTILE_TITLE


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
    drawn = client.get("/graph.json", params={"ref": "1810.04805", "layer": layer, "limit": "8"})
    assert drawn.status_code == 200
    answer = drawn.json()
    assert sorted(node["key"] for node in answer["nodes"]) == expected.keys
    assert len(answer["edges"]) == expected.edges
    assert expected.edges > len(expected.keys) - 1  # links among the neighbours, not a star


def test_similarity_links_are_weighted_by_cosine_heaviest_first(small_map: Database) -> None:
    from kg import queries

    answer = KnowledgeGraph.on(small_map).graph_data("1810.04805", "cocited", limit=10)
    keys = sorted(node.key for node in answer.nodes)
    among = queries.questions.cocitation_among.run(small_map, keys=keys)
    assert {(e.source, e.target): (e.weight, e.together) for e in answer.edges} == {
        (row["a"], row["b"]): (row["cosine"], row["together"]) for row in among
    }
    weights = [edge.weight for edge in answer.edges]
    assert len(weights) > 1
    assert weights == sorted(weights, reverse=True)
    assert max(weights) > min(weights)


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


def test_home_page_lists_the_most_central_once_pagerank_is_stored(
    small_map: Database, neo4j_connection: Connection
) -> None:
    graph = KnowledgeGraph.on(small_map)
    graph.analytics.rank("pagerank", write=True)
    overview = graph.overview(top=5)
    stored = small_map.read(
        "MATCH (p:Paper) WHERE p.pagerank IS NOT NULL "
        "RETURN p.key AS key ORDER BY p.pagerank DESC, p.key LIMIT 5"
    )
    assert [p.key for p in overview.most_central] == [row["key"] for row in stored]
    app = create_app(lambda: KnowledgeGraph.connect(neo4j_connection))
    with TestClient(app, base_url=LOCAL) as web:
        page = web.get("/")
    assert page.status_code == 200
    central = page.text[page.text.index('<section id="most-central"') :]
    shown = re.findall(r'<td class="ref"><a href="/paper/([^"]+)"', central)
    assert [unquote(key) for key in shown[:5]] == [row["key"] for row in stored]
    assert "PageRank stored" in central
