"""`kg embed` and the search by meaning against a real Neo4j, with the shipped model on a few
dozen made-up papers: incremental runs, merges and splits, the vector index against a
brute-force cosine, the three search modes, "more like this" and the recommendations' text
reason."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from kg.analytics import embed
from kg.analytics.embed import default_embedder, paper_text, text_hash
from kg.cli import main
from kg.database import Database
from kg.errors import EmbeddingUnavailable, ParameterError
from kg.knowledge_graph import KnowledgeGraph
from kg.questions import retrievers
from kg.server.config import Connection
from tests.map_pages import map_page

pytestmark = pytest.mark.integration

# (key, title, abstract, year, category, cites): a small map of physics and ML papers.
PAPERS: list[tuple[str, str, str | None, int, str, list[str]]] = [
    (
        "hep-th/9906064",
        "An Alternative to Compactification",
        "Conventional wisdom states that Newton's force law implies only four non-compact "
        "dimensions. We demonstrate that this is not necessarily true in the presence of a "
        "non-factorizable background geometry. The graviton is bound to a three-brane in a "
        "five-dimensional anti-de Sitter space, and four-dimensional gravity is recovered "
        "even with an infinite fifth dimension.",
        1999,
        "hep-th",
        ["hep-th/9711200"],
    ),
    (
        "hep-th/9711200",
        "The Large N Limit of Superconformal Field Theories and Supergravity",
        "We show that the large N limit of certain conformal field theories in various "
        "dimensions include in their Hilbert space a sector describing supergravity on the "
        "product of anti-de Sitter spacetimes, spheres and other compact manifolds.",
        1997,
        "hep-th",
        [],
    ),
    (
        "hep-th/9601029",
        "Microscopic Origin of the Bekenstein-Hawking Entropy",
        "The Bekenstein-Hawking area-entropy relation is derived for a class of "
        "five-dimensional extremal black holes in string theory by counting the degeneracies "
        "of BPS solitons.",
        1996,
        "hep-th",
        [],
    ),
    (
        "hep-ph/9803315",
        "The Hierarchy Problem and New Dimensions at a Millimeter",
        "We propose a new framework for solving the hierarchy problem which does not rely on "
        "either supersymmetry or technicolor. The gravitational and gauge interactions unite "
        "at the weak scale, and gravity propagates in new large compact spatial dimensions.",
        1998,
        "hep-ph",
        ["hep-th/9711200"],
    ),
    (
        "1706.03762",
        "Attention Is All You Need",
        "The dominant sequence transduction models are based on complex recurrent or "
        "convolutional neural networks. We propose a new simple network architecture, the "
        "Transformer, based solely on attention mechanisms, dispensing with recurrence.",
        2017,
        "cs.CL",
        [],
    ),
    (
        "1810.04805",
        "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
        "We introduce a new language representation model which is designed to pre-train "
        "deep bidirectional representations from unlabeled text by jointly conditioning on "
        "both left and right context in all layers.",
        2018,
        "cs.CL",
        ["1706.03762"],
    ),
    (
        "1512.03385",
        "Deep Residual Learning for Image Recognition",
        "Deeper neural networks are more difficult to train. We present a residual learning "
        "framework to ease the training of networks that are substantially deeper than those "
        "used previously, with results on ImageNet.",
        2015,
        "cs.CV",
        [],
    ),
    (
        "hep-th/9802150",
        "Anti De Sitter Space And Holography",
        None,
        1998,
        "hep-th",
        ["hep-th/9711200"],
    ),
]
_FILLER_TOPICS = [
    "lattice gauge theory at finite temperature",
    "cosmic microwave background anisotropies",
    "neutrino oscillations in matter",
    "graph neural networks for molecules",
    "reinforcement learning with sparse rewards",
    "topological insulators and edge states",
    "inflationary cosmology and the inflaton potential",
    "dark matter direct detection experiments",
    "speech recognition with recurrent networks",
    "quantum error correcting codes",
    "black hole information paradox",
    "supersymmetric gauge theories in four dimensions",
]


def _rows() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [
        {"key": k, "title": t, "abstract": a, "year": y, "category": c, "cites": cites}
        for k, t, a, y, c, cites in PAPERS
    ]
    for n in range(28):
        topic = _FILLER_TOPICS[n % len(_FILLER_TOPICS)]
        rows.append(
            {
                "key": f"filler/{n:03d}",
                "title": f"Notes on {topic}, part {n}",
                "abstract": f"We study {topic}. Section {n} gives new results and open problems.",
                "year": 2000 + n % 20,
                "category": "misc",
                "cites": ["hep-th/9711200"] if n % 3 == 0 else [],
            }
        )
    return rows


def _write_map(graph: Database) -> None:
    graph.write(
        "UNWIND $rows AS row "
        "MERGE (p:Paper {key: row.key}) "
        "SET p.title = row.title, p.abstract = row.abstract, p.year = row.year, "
        "p.primary_category = row.category, p.stub = false",
        {"rows": _rows()},
    )
    graph.write(
        "UNWIND $rows AS row UNWIND row.cites AS cited "
        "MATCH (a:Paper {key: row.key}), (b:Paper {key: cited}) MERGE (a)-[:CITES]->(b)",
        {"rows": _rows()},
    )
    # A stub known only from a reference list has no title, and so no text to embed.
    graph.write("MERGE (:Paper {key: 'stub/1', stub: true})")


@pytest.fixture
def face(graph: Database) -> Iterator[KnowledgeGraph]:
    """The face over the emptied test graph; the vector index goes with the test, so the
    schema other test files check is the one they expect."""
    yield KnowledgeGraph.on(graph)
    graph.write("DROP INDEX paper_embedding IF EXISTS")


@pytest.fixture
def embedded(face: KnowledgeGraph) -> KnowledgeGraph:
    _write_map(face)
    report = face.embed(batch_size=7)
    assert report.embedded == report.papers == len(_rows())
    return face


def _stored(graph: Database) -> dict[str, dict[str, object]]:
    rows = graph.read(
        "MATCH (p:Paper) WHERE p.title IS NOT NULL "
        "RETURN p.key AS key, p.title AS title, coalesce(p.abstract, p.abstract_excerpt) AS "
        "abstract, p.embedding AS vector, p.embedding_hash AS hash, p.embedding_model AS model"
    )
    return {row["key"]: row for row in rows}


def _assert_every_vector_follows_its_text(graph: Database) -> None:
    model = default_embedder()
    stored = _stored(graph)
    keys = sorted(stored)
    texts = [paper_text(str(stored[k]["title"]), stored[k]["abstract"]) for k in keys]  # type: ignore[arg-type]
    fresh = model.embed(texts)
    for key, text, vector in zip(keys, texts, fresh, strict=True):
        assert stored[key]["hash"] == text_hash(text), key
        assert stored[key]["vector"] is not None, key
        cosine = float(np.dot(np.asarray(stored[key]["vector"]), vector))
        assert cosine > 0.9999, (key, cosine)


def _index_ids(graph: Database) -> list[object]:
    return [row["id"] for row in graph.read("SHOW VECTOR INDEXES YIELD id RETURN id")]


def test_a_run_that_embeds_most_papers_builds_the_index_again_whole(
    face: KnowledgeGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_map(face)
    monkeypatch.setattr(embed, "REBUILD_AFTER", 3)
    face.embed()
    built = _index_ids(face)
    assert len(built) == 1
    face.write("MATCH (p:Paper {key: '1512.03385'}) SET p.abstract = 'Very deep networks.'")
    face.embed()  # one paper of many: the index stays as it is
    assert _index_ids(face) == built
    face.write("MATCH (p:Paper) WHERE p.title IS NOT NULL SET p.abstract = p.title + '!'")
    face.embed()  # every paper again: the index is built anew, and answers
    assert _index_ids(face) != built
    hits = face.search("brane gravity extra dimension", mode="semantic", limit=3).results
    assert len(hits) == 3


def test_an_incremental_run_embeds_only_what_changed(face: KnowledgeGraph) -> None:
    _write_map(face)
    first = face.embed(batch_size=5)
    assert (first.papers, first.embedded) == (len(_rows()), len(_rows()))
    assert first.dimension == 384
    assert face.read("MATCH (p:Paper {key: 'stub/1'}) RETURN p.embedding AS v") == [{"v": None}]
    before = _stored(face)

    second = face.embed()
    assert (second.papers, second.embedded, second.unchanged) == (len(_rows()), 0, len(_rows()))
    assert _stored(face) == before  # nothing written

    face.write(
        "MATCH (p:Paper {key: '1512.03385'}) SET p.abstract = 'We train very deep networks.'"
    )
    face.write("CREATE (:Paper {key: 'new/1', title: 'A paper that came later', stub: false})")
    face.write("MATCH (p:Paper {key: 'filler/001'}) SET p.embedding_model = 'another model'")
    edited = _stored(face)
    third = face.embed()
    assert third.embedded == 3
    after = _stored(face)
    changed = {key for key in after if after[key] != edited.get(key)}
    assert changed == {"1512.03385", "new/1", "filler/001"}
    assert after["filler/001"] == before["filler/001"]  # the same text gives the same vector
    _assert_every_vector_follows_its_text(face)


def test_a_merged_or_split_paper_has_the_vector_of_its_own_text(
    face: KnowledgeGraph, tmp_path: Path
) -> None:
    """Two pages cite "Sparse Coding" as 2010 and "Sparse coding." as 2011: the identity rule
    merges them, unmerge splits them again; after each, `kg embed` leaves every paper with
    the vector of its current text."""
    pages = []
    for n, cited in enumerate(["2010Sparse Coding", "2011Sparse coding."], 1):
        page = tmp_path / f"p{n}.txt"
        page.write_text(
            map_page(f"Citing {n}", f"2301.0000{n}", 2023, "2026-01-01", [f"{cited}cited by 5"]),
            encoding="utf-8",
        )
        pages.append(page)
    KnowledgeGraph.on(face).load(pages[:1], rejects_path=tmp_path / "r")
    assert face.embed().embedded == 2
    KnowledgeGraph.on(face).load(pages[1:], rejects_path=tmp_path / "r")
    merged = face.read(
        "MATCH (p:Paper) WHERE p.norm_title STARTS WITH 'sparse coding' RETURN p.key AS key"
    )
    assert len(merged) == 1  # one paper for both spellings
    face.embed()
    _assert_every_vector_follows_its_text(face)

    face.unmerge(merged[0]["key"])
    KnowledgeGraph.on(face).load(pages, rejects_path=tmp_path / "r")  # the split keys load apart
    split = face.read(
        "MATCH (p:Paper) WHERE p.norm_title STARTS WITH 'sparse coding' RETURN p.key AS key"
    )
    assert len(split) == 2
    assert face.embed().embedded >= 1
    _assert_every_vector_follows_its_text(face)
    assert face.embed().embedded == 0


def test_the_vector_index_answers_as_a_brute_force_cosine(embedded: KnowledgeGraph) -> None:
    stored = _stored(embedded)
    keys = sorted(stored)
    matrix = np.array([stored[k]["vector"] for k in keys], dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1)
    randomness = np.random.default_rng(37)
    # 25 texts of random words, and 25 stored papers' vectors with noise: queries with
    # something near them (in a random direction every cosine is about 0, where an HNSW
    # index is approximate by design).
    words = " ".join(str(row["title"]) for row in _rows()).lower().split()
    texts = [" ".join(randomness.choice(words, size=4)) for _ in range(25)]
    noisy = [
        matrix[randomness.integers(len(keys))] + randomness.normal(scale=0.03, size=384)
        for _ in range(25)
    ]
    for query in [*default_embedder().embed(texts).astype(np.float64), *noisy]:
        query /= np.linalg.norm(query)
        cosines = matrix @ query / norms
        expected = [keys[i] for i in np.argsort(-cosines, kind="stable")[:10]]
        hits = retrievers.semantic(embedded, query.tolist(), 10, retrievers.Filters())
        assert len(hits) == 10
        # The same papers in the same order, up to ties within float32's precision.
        found = [cosines[keys.index(hit.key)] for hit in hits]
        assert found == pytest.approx([cosines[keys.index(k)] for k in expected], abs=1e-5)
        for hit, cosine in zip(hits, found, strict=True):
            assert hit.similarity == pytest.approx(cosine, abs=1e-5)


def test_search_by_meaning_finds_a_paper_in_other_words(embedded: KnowledgeGraph) -> None:
    query = "gravity localised on a brane in an infinite extra dimension"
    semantic = embedded.search(query, mode="semantic", limit=3)
    assert semantic.mode == "semantic"
    assert semantic.model is not None
    assert semantic.model.startswith("all-MiniLM-L6-v2")
    assert semantic.results[0].key == "hep-th/9906064"
    assert all(-1 <= (hit.similarity or 0) <= 1 for hit in semantic.results)
    assert [hit.score for hit in semantic.results] == [hit.similarity for hit in semantic.results]
    hybrid = embedded.search(query, mode="hybrid", limit=5)
    assert hybrid.results[0].key == "hep-th/9906064"
    assert hybrid.results[0].score is not None
    assert hybrid.results[0].score > 1 / 61  # first in one list and more besides

    years = embedded.search(query, mode="semantic", year_from=2015, year_to=2018)
    assert years.results
    assert all(2015 <= (hit.year or 0) <= 2018 for hit in years.results)
    cs = embedded.search("neural network", mode="hybrid", category="cs.CL")
    assert {hit.key for hit in cs.results} == {"1706.03762", "1810.04805"}
    words = embedded.search("attention", category="cs.CL")
    assert [hit.key for hit in words.results] == ["1706.03762"]


def test_hybrid_ranks_by_words_meaning_and_citations(embedded: KnowledgeGraph) -> None:
    """A paper found by its title words and by meaning comes before one found by one."""
    result = embedded.search("anti de sitter supergravity", mode="hybrid", limit=5)
    top = [hit.key for hit in result.results]
    assert top[0] == "hep-th/9711200"  # both lists, and cited 12 times
    assert "hep-th/9802150" in top  # by words (no abstract)
    scores = [hit.score or 0.0 for hit in result.results]
    assert scores == sorted(scores, reverse=True)


def test_more_like_this_and_its_recipe_with_a_citation(embedded: KnowledgeGraph) -> None:
    like = embedded.similar_by_text("hep-th/9906064", limit=3)
    assert like.paper.key == "hep-th/9906064"
    assert "hep-th/9906064" not in [hit.key for hit in like.results]
    assert like.results[0].key == "hep-ph/9803315"  # large extra dimensions
    from kg import queries

    citing = queries.search.like_this_citing.run(
        embedded, key="hep-th/9906064", cited="hep-th/9711200", limit=5
    )
    assert citing
    assert all(
        embedded.read(
            "MATCH (:Paper {key: $a})-[:CITES]->(:Paper {key: 'hep-th/9711200'}) RETURN 1 AS x",
            {"a": row["key"]},
        )
        for row in citing
    )
    stub = embedded.similar_by_text("stub/1")
    assert stub.results == []
    assert stub.note is not None
    assert "no text embedding" in stub.note


def test_recommend_gives_the_abstracts_similarity_as_a_reason(embedded: KnowledgeGraph) -> None:
    result = embedded.recommend("hep-th/9906064")
    reasons = {r.key: r.reasons[0] for r in result.results}
    assert reasons["hep-ph/9803315"].text_similarity is not None
    assert "abstracts 0." in reasons["hep-ph/9803315"].sentence("S")


def test_bad_input_and_no_index_are_clear_errors(face: KnowledgeGraph) -> None:
    _write_map(face)
    face.write("DROP INDEX paper_embedding IF EXISTS")
    with pytest.raises(EmbeddingUnavailable, match="no paper has a text embedding") as caught:
        face.search("branes", mode="semantic")
    assert "kg embed" in str(caught.value)
    with pytest.raises(EmbeddingUnavailable, match="no paper has a text embedding"):
        face.search("branes", mode="hybrid")
    with pytest.raises(ParameterError, match="search mode"):
        face.search("branes", mode="vibes")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="years run from 2000 to 1990"):
        face.search("branes", year_from=2000, year_to=1990)
    with pytest.raises(ParameterError):
        face.embed(batch_size=0)


def test_the_cli_embeds_searches_and_finds_more_like_this(
    face: KnowledgeGraph, kg_env: Connection
) -> None:
    _write_map(face)
    runner = CliRunner()
    first = runner.invoke(main, ["embed", "--json"])
    assert first.exit_code == 0, first.output
    assert json.loads(first.output)["embedded"] == len(_rows())
    again = runner.invoke(main, ["embed"])
    assert again.exit_code == 0, again.output
    assert f"embedded 0 of {len(_rows())} titled papers" in again.output

    found = runner.invoke(
        main,
        [
            "search",
            "--semantic",
            "statistical entropy of black holes derived from D-brane state counting",
            "--limit",
            "2",
            "--json",
        ],
    )
    assert found.exit_code == 0, found.output
    answer = json.loads(found.output)
    assert answer["mode"] == "semantic"
    assert answer["results"][0]["key"] == "hep-th/9601029"
    assert 0 < answer["results"][0]["similarity"] <= 1

    table = runner.invoke(main, ["search", "--hybrid", "extra dimensions", "--years", "1998-1999"])
    assert table.exit_code == 0, table.output
    assert "Search (hybrid)" in table.output
    assert "9906064" in table.output

    like = runner.invoke(main, ["similar", "hep-th/9906064", "--by", "text", "--limit", "2"])
    assert like.exit_code == 0, like.output
    assert "9803315" in like.output
    bad = runner.invoke(main, ["search", "--semantic", "x", "--years", "soon"])
    assert bad.exit_code == 2
    assert "Error: 'soon' is not a year range" in bad.output
    without = runner.invoke(main, ["similar", "--by", "text"])
    assert without.exit_code == 2
    assert "--by needs a REF" in without.output


def test_random_queries_in_every_mode_answer_in_order(embedded: KnowledgeGraph) -> None:
    words = "brane gravity attention network black hole entropy image residual dimension"
    pick = random.Random(37)
    for _ in range(5):
        text = " ".join(pick.sample(words.split(), 3))
        for mode in ("text", "semantic", "hybrid"):
            result = embedded.search(text, mode=mode, limit=8)
            scores = [hit.score for hit in result.results if hit.score is not None]
            assert scores == sorted(scores, reverse=True), (text, mode)


def test_in_a_browser_a_search_by_meaning(
    embedded: KnowledgeGraph, neo4j_connection: Connection
) -> None:
    """The search box's toggle set to "meaning" finds Randall and Sundrum's paper in other
    words; its page lists the papers like it in meaning."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from tests.browser import chromium
    from tests.web_server import serving

    with serving(neo4j_connection) as served, chromium() as driver:
        driver.get(served + "/")
        Select(driver.find_element(By.CSS_SELECTOR, "form.big select[name=mode]")).select_by_value(
            "semantic"
        )
        box = driver.find_element(By.CSS_SELECTOR, "form.big input[name=q]")
        box.send_keys("gravity localised on a brane in an infinite extra dimension", Keys.ENTER)
        first = WebDriverWait(driver, 60).until(
            expected_conditions.element_to_be_clickable(
                (By.CSS_SELECTOR, "#results tbody tr:first-child td.ref a")
            )
        )
        assert first.get_attribute("href") == served + "/paper/hep-th/9906064"
        assert "meaning" in driver.find_element(By.ID, "mode").text
        header = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#results th")]
        assert header[-2:] == ["score", "similarity"]
        chosen = Select(driver.find_element(By.CSS_SELECTOR, "header select[name=mode]"))
        assert chosen.first_selected_option.get_attribute("value") == "semantic"
        first.click()
        alike = WebDriverWait(driver, 60).until(
            expected_conditions.presence_of_element_located((By.ID, "alike"))
        )
        assert "The Hierarchy Problem and New Dimensions at a Millimeter" in alike.text


def test_the_web_view_says_to_embed_first_and_refuses_a_bad_mode(
    face: KnowledgeGraph, neo4j_connection: Connection
) -> None:
    from starlette.testclient import TestClient

    from kg.web import create_app

    _write_map(face)
    face.write("DROP INDEX paper_embedding IF EXISTS")
    app = create_app(lambda: KnowledgeGraph.connect(neo4j_connection))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        page = client.get("/search", params={"q": "branes", "mode": "semantic"})
        assert page.status_code >= 400
        assert "kg embed" in page.text
        bad = client.get("/search", params={"q": "branes", "mode": "vibes"})
        assert bad.status_code == 400
        assert "search mode" in bad.text
        words = client.get("/search", params={"q": "attention"})
        assert words.status_code == 200
        assert "similarity" not in words.text
        assert client.get("/paper/hep-th/9906064").status_code == 200  # no "alike" section


def test_the_browser_guide_runs_the_vector_recipes(embedded: KnowledgeGraph) -> None:
    from kg import queries
    from kg.web.app import GUIDE

    slides = {name: params for name, _, params in GUIDE}
    alone = queries.get("like_this").run(embedded, **slides["like_this"])
    assert [row["key"] for row in alone] == [
        hit.key for hit in embedded.similar_by_text("hep-th/9906064", limit=10).results
    ]
    citing = queries.get("like_this_citing").run(embedded, **slides["like_this_citing"])
    citers = embedded.read(
        "MATCH (q:Paper)-[:CITES]->(:Paper {key: 'hep-th/9711200'}) RETURN q.key AS key"
    )
    assert citing
    assert {row["key"] for row in citing} <= {row["key"] for row in citers} - {"hep-th/9906064"}


def _toy_vectors() -> dict[str, list[float]]:
    """Four-dimension vectors of a toy model for four papers of the map: the two physics
    papers point one way, the two machine-learning papers another."""
    return {
        "hep-th/9906064": [1.0, 0.1, 0.0, 0.0],
        "hep-th/9711200": [0.9, 0.3, 0.0, 0.1],
        "1706.03762": [0.0, 0.0, 1.0, 0.2],
        "1810.04805": [0.1, 0.0, 0.9, 0.3],
    }


def _vector_file(path: Path, toy: dict[str, list[float]]) -> Path:
    """Write a vector file that names its papers in each way a dump does, with a row for a
    paper not in the map and four bad rows."""
    lines = [
        json.dumps({"arxiv_id": "arXiv:hep-th/9906064v3", "vector": toy["hep-th/9906064"]}),
        json.dumps({"id": "hep-th/9711200", "vector": json.dumps(toy["hep-th/9711200"])}),
        json.dumps({"doi": "https://doi.org/10.5555/ATTENTION", "vector": toy["1706.03762"]}),
        json.dumps({"corpusid": 52967399, "vector": toy["1810.04805"], "model": "toy-4"}),
        json.dumps({"corpusid": 1, "vector": [0.5, 0.5, 0.5, 0.5]}),  # no such paper here
        "{not json",
        json.dumps({"title": "no id", "vector": [1, 2, 3, 4]}),
        json.dumps({"arxiv_id": "1512.03385", "vector": [1, 2, 3]}),  # another length
        json.dumps({"arxiv_id": "1512.03385", "vector": [1, "NaN", 3, 4]}),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _with_ids(face: KnowledgeGraph) -> None:
    """Give the map's arXiv papers their arXiv id, one a DOI and one a corpus id."""
    face.write("MATCH (p:Paper) WHERE p.key <> 'stub/1' SET p.arxiv_id = p.key")
    for key, id_key in (("1706.03762", "doi:10.5555/attention"), ("1810.04805", "corpus:52967399")):
        face.write(
            "MATCH (p:Paper {key: $key}) MERGE (i:PaperId {key: $id}) MERGE (i)-[:IDENTIFIES]->(p)",
            {"key": key, "id": id_key},
        )


def _brought(graph: Database) -> dict[str, tuple[list[float], object, object]]:
    rows = graph.read(
        "MATCH (p:Paper) WHERE p.embedding IS NOT NULL "
        "RETURN p.key AS key, p.embedding AS vector, p.embedding_model AS model, "
        "p.embedding_hash AS hash"
    )
    return {row["key"]: (row["vector"], row["model"], row["hash"]) for row in rows}


def test_vectors_from_a_file_replace_the_models_and_answer_more_like_this(
    embedded: KnowledgeGraph, tmp_path: Path
) -> None:
    _with_ids(embedded)
    toy = _toy_vectors()
    path = _vector_file(tmp_path / "toy.jsonl", toy)
    with pytest.raises(ParameterError, match="another model") as refused:
        embedded.load_vectors(path, model="toy-4")
    assert "--replace" in str(refused.value)
    assert len(_brought(embedded)) == len(_rows())  # refused: nothing was touched

    report = embedded.load_vectors(path, model="toy-4", replace=True)
    assert (report.rows, report.written, report.not_in_map, report.rejected) == (9, 4, 1, 4)
    assert report.replaced == len(_rows())
    assert report.dimension == 4
    assert [line.split(": ", 1)[0] for line in report.rejects] == [
        f"{path}:{n}" for n in (6, 7, 8, 9)
    ]
    stored = _brought(embedded)
    assert sorted(stored) == sorted(toy)
    for key, (vector, model, digest) in stored.items():
        assert model == "toy-4"
        assert digest is None
        assert np.allclose(vector, toy[key])

    # "More like this" ranks by the brought vectors: cosine, as a brute force computes it.
    like = embedded.similar_by_text("hep-th/9906064", 3)
    keys = [hit.key for hit in like.results]
    start = np.asarray(toy["hep-th/9906064"])
    cosine = {
        k: float(np.dot(start, v) / np.linalg.norm(start) / np.linalg.norm(v))
        for k, v in toy.items()
        if k != "hep-th/9906064"
    }
    assert keys == sorted(cosine, key=lambda k: -cosine[k])
    for hit in like.results:
        assert hit.similarity == pytest.approx(cosine[hit.key], abs=1e-5)

    # Loaded again, in another order and other batches: the same vectors.
    lines = path.read_text(encoding="utf-8").splitlines()
    again = _vector_file(tmp_path / "again.jsonl", toy)
    again.write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    embedded.load_vectors(again, model="toy-4", batch_size=2)
    assert _brought(embedded).keys() == stored.keys()
    assert all(np.allclose(_brought(embedded)[k][0], v[0]) for k, v in stored.items())

    # The local model refuses an index of another dimension, and says how to clear it.
    with pytest.raises(EmbeddingUnavailable, match="4-dimension vectors") as caught:
        embedded.embed()
    assert "drop_embeddings" in str(caught.value)


def test_two_rows_for_one_paper_keep_one_vector_in_any_order(
    face: KnowledgeGraph, tmp_path: Path
) -> None:
    _write_map(face)
    _with_ids(face)
    rows = [
        {"arxiv_id": "hep-th/9906064", "vector": [1.0, 0.0]},
        {"arxiv_id": "hep-th/9906064", "vector": [0.0, 1.0]},
        {"arxiv_id": "hep-th/9906064", "vector": [0.6, 0.8]},
        {"arxiv_id": "hep-th/9711200", "vector": [0.6, 0.8]},
        {"arxiv_id": "hep-th/9711200", "vector": [0.6, 0.8]},  # the same again: no conflict
    ]
    seen = []
    for order, size in (((0, 1, 2, 3, 4), 500), ((2, 1, 0, 4, 3), 1), ((1, 2, 0, 3, 4), 2)):
        path = tmp_path / f"order-{size}.jsonl"
        path.write_text("".join(json.dumps(rows[i]) + "\n" for i in order), encoding="utf-8")
        report = face.load_vectors(path, model="toy-2", batch_size=size)
        assert (report.written, report.rejected) == (2, 2)
        assert all("which wins" in line for line in report.rejects)
        seen.append({k: v[0] for k, v in _brought(face).items()})
    assert seen[0] == seen[1] == seen[2]


def test_the_cli_stores_a_vector_file_and_names_its_bad_rows(
    face: KnowledgeGraph, kg_env: Connection, tmp_path: Path
) -> None:
    _write_map(face)
    _with_ids(face)
    path = _vector_file(tmp_path / "toy.jsonl", _toy_vectors())
    runner = CliRunner()
    done = runner.invoke(main, ["embed", "--from", str(path), "--model", "toy-4"])
    assert done.exit_code == 1, done.output  # rows were rejected
    assert f"{path}:6: the line is not JSON" in done.output
    assert f"{path}:8: its vector has 3 numbers where the file's have 4" in done.output
    assert "stored 4 vectors of 9 rows" in done.output
    # Without --model, the file's first good row names none: the file's name stands for it,
    # another model than the one stored, so the load is refused until --replace.
    refused = runner.invoke(main, ["embed", "--from", str(path), "--json"])
    assert refused.exit_code == 2
    assert "vectors of toy.jsonl" in json.loads(refused.stdout)["error"]["message"]
    replaced = runner.invoke(main, ["embed", "--from", str(path), "--replace", "--json"])
    answer = json.loads(replaced.stdout)
    assert (answer["model"], answer["written"], answer["replaced"]) == (
        "vectors of toy.jsonl",
        4,
        4,
    )
    misuse = runner.invoke(main, ["embed", "--replace"])
    assert misuse.exit_code == 2
    assert "--model and --replace go with --from FILE" in misuse.output
