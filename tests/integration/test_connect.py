"""The literature connector and multi-seed recommendations on the seed graph (the example
map, the M6-10T page and record). The seed graph holds no record of "Dive into Big Model
Training" (arXiv 2207.11912, 2022); each test adds it with the one citation these tests
rely on, of "Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B", which in
turn cites M6-10T on the seed page."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.errors import SimilarityError
from kg.questions import seeds as connect
from kg.refs import resolve
from kg.server.config import Connection
from loaders.titles import normalize_title

DIVE = "2207.11912"
M6 = "2110.03888"
MT_NLG = (
    "Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B, "
    "A Large-Scale Generative Language Model"
)


@pytest.fixture
def seed_graph(small_map: Database) -> Database:
    title = "Dive into Big Model Training"
    small_map.write(
        "MERGE (d:Paper {key: $key}) SET d.arxiv_id = $key, d.title = $title, "
        "d.norm_title = $norm, d.year = 2022, d.stub = false",
        {"key": DIVE, "title": title, "norm": normalize_title(title)},
    )
    mt_nlg = resolve(small_map, MT_NLG).key
    small_map.write(
        "MATCH (d:Paper {key: $dive}), (m:Paper {key: $mt}) MERGE (d)-[:CITES]->(m)",
        {"dive": DIVE, "mt": mt_nlg},
    )
    return small_map


def test_dive_and_m6_10t_connect_through_megatron_turing(seed_graph: Database) -> None:
    result = connect.connect(seed_graph, ["Dive into Big Model Training", M6])
    assert [seed.key for seed in result.seeds] == [DIVE, M6]
    assert result.results[0].title == MT_NLG
    assert result.results[0].rank == 1
    assert result.results[0].seeds == sorted([DIVE, M6])
    assert result.unconnected == []
    routes = [
        ([p.key for p in sp.path.papers], sp.path.directions)
        for sp in result.paths
        if sp.path.papers[1].title == MT_NLG
    ]
    mt_nlg = result.results[0].key
    # Pairs run in key order: M6-10T is cited by MT-NLG, which Dive cites.
    assert routes == [([M6, mt_nlg, DIVE], ["cited_by", "cited_by"])]
    assert all(p.length == 2 for p in (sp.path for sp in result.paths))  # the shortest


def test_seeds_that_cite_each_other_connect_through_the_papers_between(
    seed_graph: Database,
) -> None:
    result = connect.connect(seed_graph, [M6, "1706.03762", "1810.04805"], limit=50)
    assert result.results
    keys = {p.key for p in result.results}
    assert not keys & {M6, "1706.03762", "1810.04805"}
    for seed_path in result.paths:
        assert seed_path.path.length == 2
    ranks = [(-p.pagerank, p.key) for p in result.results]
    assert [p.rank for p in result.results] == list(range(1, len(ranks) + 1))
    assert [r[0] for r in ranks] == sorted(r[0] for r in ranks)


def test_recommend_gives_megatron_turing_for_dive_and_m6_10t_with_its_reasons(
    seed_graph: Database,
) -> None:
    result = connect.recommend(seed_graph, [DIVE, M6], limit=10)
    mt_nlg = next(r for r in result.results if r.title == MT_NLG)
    reasons = {reason.seed: reason for reason in mt_nlg.reasons}
    assert reasons[DIVE].cited_by_seed
    assert reasons[M6].cites_seed
    assert mt_nlg.score >= 2.0  # a direct citation with each seed
    assert [r.score for r in result.results] == sorted(
        (r.score for r in result.results), reverse=True
    )
    for hit in result.results:
        assert hit.key not in (DIVE, M6)
        assert abs(sum(reason.score for reason in hit.reasons) - hit.score) < 1e-9
        assert all(
            reason.cocited or reason.coupled or reason.cites_seed or reason.cited_by_seed
            for reason in hit.reasons
        )


def test_the_connector_needs_two_seeds(seed_graph: Database) -> None:
    with pytest.raises(SimilarityError, match="1 distinct seed paper given"):
        connect.connect(seed_graph, [M6, "arXiv:2110.03888v2"])


def test_connect_and_recommend_on_the_command_line(
    seed_graph: Database, kg_env: Connection
) -> None:
    runner = CliRunner()
    shown = runner.invoke(main, ["connect", "Dive into Big Model Training", M6])
    assert shown.exit_code == 0, shown.output
    assert f"{M6} … {DIVE}: {M6} ← title:using-deepsp…:2022 ← {DIVE}" in shown.output
    as_json = runner.invoke(main, ["connect", DIVE, M6, "--json", "--limit", "1"])
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.output)["results"][0]["title"] == MT_NLG
    recommended = runner.invoke(main, ["recommend", DIVE, M6, "--limit", "5", "--json"])
    assert recommended.exit_code == 0, recommended.output
    assert len(json.loads(recommended.output)["results"]) == 5
    one = runner.invoke(main, ["connect", M6])
    assert one.exit_code == 1
    assert "Error: 1 distinct seed paper given. Name at least 2 different papers" in one.output
