"""Materialised similarity on a real Neo4j: the stored CO_CITED / COUPLED lists equal the
live queries (cocited.cypher, coupled.cypher) exactly, on the seed graph through the whole
write and read path and on cit-HepTh for 200 random papers; the questions say which form
they used, and fall back to live when a load touched the paper after the run."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from click.testing import CliRunner

from kg import queries, questions
from kg.analytics import load_projection, similarity
from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection

MEASURES: dict[similarity.Measure, str] = {
    "co-citation": "questions.cocited",
    "coupling": "questions.coupled",
}
STORED = {
    "co-citation": "questions.similar_cocited_stored",
    "coupling": "questions.similar_coupled_stored",
}
COLUMNS = ("key", "together", "size_a", "size_b", "cosine", "jaccard")


def _live(
    graph: Database, measure: similarity.Measure, key: str, limit: int
) -> list[dict[str, Any]]:
    rows = queries.get(MEASURES[measure]).run(graph, key=key, limit=limit)
    return [{name: row[name] for name in COLUMNS} for row in rows]


def _stored(graph: Database, measure: str, key: str, limit: int) -> list[dict[str, Any]]:
    rows = queries.get(STORED[measure]).run(graph, key=key, limit=limit)
    return [{name: row[name] for name in COLUMNS} for row in rows]


def _keys(graph: Database) -> list[str]:
    return [row["key"] for row in graph.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")]


def _relationships(graph: Database) -> list[dict[str, Any]]:
    """Every stored CO_CITED and COUPLED relationship with its values, in one order."""
    return graph.read(
        "MATCH (a:Paper)-[s:CO_CITED|COUPLED]->(b:Paper) "
        "RETURN type(s) AS type, a.key AS a, b.key AS b, properties(s) AS values "
        "ORDER BY type, a, b"
    )


def _stamp(graph: Database, key: str) -> None:
    """Do what the loader does when a citation of ``key`` is created."""
    graph.write("MATCH (p:Paper {key: $key}) SET p.changed_at = datetime()", {"key": key})


def test_stored_lists_equal_the_live_queries_on_the_seed_graph(small_map: Database) -> None:
    run = KnowledgeGraph.on(small_map).analytics.similar(k=3, write=True, batch_size=7)
    assert run.written
    assert {r.key for r in run.runs} == {"co_cited", "coupled"}
    keys = _keys(small_map)
    one_writer = _relationships(small_map)
    # written again by one transaction at a time: the same lists as by two at once
    KnowledgeGraph.on(small_map).analytics.similar(
        k=3, write=True, batch_size=7, force=True, writers=1
    )
    small_map.write("MATCH ()-[r:CO_CITED|COUPLED]->() DELETE r")
    KnowledgeGraph.on(small_map).analytics.similar(
        k=3, write=True, batch_size=3, force=True, writers=1
    )
    assert _relationships(small_map) == one_writer
    compared = 0
    for measure in MEASURES:
        for key in keys:
            for limit in (1, 3):
                live = _live(small_map, measure, key, limit)
                assert _stored(small_map, measure, key, limit) == live, (measure, key, limit)
                # the one-round-trip answer reads the same rows, fresh
                answer = similarity.stored_answer(small_map, key, measure, limit)
                assert answer is not None, (measure, key)
                assert answer.verdict.fresh, (measure, key)
                rows = [{name: row[name] for name in COLUMNS} for row in answer.rows]
                assert rows == live, (measure, key, limit)
                compared += len(live)
    assert compared > 100  # the seed graph has plenty of co-cited and coupled pairs
    stored = small_map.read("MATCH ()-[r:CO_CITED|COUPLED]->() RETURN count(r) AS n")[0]["n"]
    assert stored == sum(run.pairs.values())


def test_a_question_by_key_on_fresh_lists_takes_one_round_trip(
    small_map: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kg.cocited by a key or arXiv id reads the paper, the freshness and the stored list
    in one query (similar_answer.cypher); by a title, the REF is resolved first: two."""
    KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    sent: list[str] = []
    for name in ("read", "write", "records", "read_transaction", "run_autocommit"):
        real = getattr(small_map, name)

        def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            sent.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(small_map, name, counted)
    for ref, trips in (
        ("1706.03762", 1),
        ("arXiv:1706.03762v5", 1),
        ("Attention Is All You Need", 2),
    ):
        sent.clear()
        answer = questions.cocited(small_map, ref, limit=5)
        assert answer.source == "materialised", ref
        assert answer.results, ref
        assert answer.paper.key == "1706.03762", ref
        assert len(sent) == trips, (ref, sent)


def test_questions_read_the_stored_lists_when_fresh_and_say_so(small_map: Database) -> None:
    key = "1706.03762"
    before = questions.cocited(small_map, key, limit=5)
    assert before.source == "live"
    assert before.stale_reason is not None
    assert "no similarity run" in before.stale_reason
    KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    after = questions.cocited(small_map, key, limit=5)
    assert after.source == "materialised"
    assert after.computed_at is not None
    assert after.results == before.results
    assert after.source_sentence().startswith("Read from the stored CO_CITED relationships")
    coupled = questions.coupled(small_map, "2110.03888", limit=5)
    assert coupled.source == "materialised"
    assert [r.key for r in coupled.results] == [
        r["key"] for r in _live(small_map, "coupling", "2110.03888", 5)
    ]
    # More papers than the run keeps: live, and the answer says why.
    longer = questions.cocited(small_map, key, limit=6)
    assert longer.source == "live"
    assert longer.stale_reason is not None
    assert "fewer than the 6 asked for" in longer.stale_reason


def test_a_load_after_the_run_makes_the_touched_papers_live(small_map: Database) -> None:
    KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    key = "1810.04805"
    citer = small_map.read(
        "MATCH (:Paper {key: $key})<-[:CITES]-(c) RETURN c.key AS key ORDER BY key LIMIT 1",
        {"key": key},
    )[0]["key"]
    far = small_map.read(
        "MATCH (p:Paper) WHERE NOT (p)-[:CITES]-(:Paper {key: $key}) "
        "AND NOT (:Paper {key: $key})-[:CO_CITED|COUPLED]->(p) AND p.key <> $key "
        "RETURN p.key AS key ORDER BY key LIMIT 1",
        {"key": key},
    )[0]["key"]
    _stamp(small_map, far)  # two or more steps away, not listed: still fresh
    assert questions.cocited(small_map, key, limit=5).source == "materialised"
    _stamp(small_map, citer)  # a neighbour changed: live, and it says so
    answer = questions.cocited(small_map, key, limit=5)
    assert answer.source == "live"
    assert answer.stale_reason == (
        "a load changed a neighbouring paper's citations after the stored run"
    )
    _stamp(small_map, key)
    assert questions.coupled(small_map, key, limit=5).stale_reason == (
        "a load changed the paper's citations after the stored run"
    )
    # The next run is fresh again and replaces every stale list.
    small_map.write(
        "MATCH (a:Paper {key: '2101.99999'}), (b:Paper {key: '1706.03762'}) "
        "MERGE (a)-[:CITES]->(b) SET a.changed_at = datetime(), b.changed_at = datetime()"
    )
    time.sleep(0.01)
    run = KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    for measure in MEASURES:
        for paper in _keys(small_map):
            assert _stored(small_map, measure, paper, 5) == _live(small_map, measure, paper, 5)
    stored = small_map.read("MATCH ()-[r:CO_CITED|COUPLED]->() RETURN count(r) AS n")[0]["n"]
    assert stored == sum(run.pairs.values())
    assert questions.cocited(small_map, "1706.03762", limit=5).source == "materialised"
    # A listed paper gaining a citer changes its size, so the lists naming it go live too.
    row = small_map.read(
        "MATCH (p:Paper)-[:CO_CITED]->(b:Paper) WHERE NOT (p)-[:CITES]-(b) "
        "RETURN p.key AS paper, b.key AS listed ORDER BY paper, listed LIMIT 1"
    )[0]
    assert questions.cocited(small_map, row["paper"], limit=5).source == "materialised"
    _stamp(small_map, row["listed"])
    assert questions.cocited(small_map, row["paper"], limit=5).source == "live"


def test_the_live_query_is_exact_within_its_budget_and_says_when_it_capped(
    small_map: Database,
) -> None:
    key = "1706.03762"
    rows, _, bound = similarity.similar_rows(small_map, key, "co-citation", 5, prefer_stored=False)
    assert bound is not None
    assert not bound.capped
    assert [{n: r[n] for n in COLUMNS} for r in rows] == _live(small_map, "co-citation", key, 5)
    rows, _, bound = similarity.similar_rows(
        small_map, key, "co-citation", 5, max_paths=10, prefer_stored=False
    )
    assert bound is not None
    assert bound.capped
    assert bound.paths <= 10 < bound.all_paths
    exact = {r["key"]: r["together"] for r in _live(small_map, "co-citation", key, 100)}
    assert all(r["together"] <= exact[r["key"]] for r in rows)


def test_kg_similar_writes_and_the_cli_says_where_answers_came_from(
    small_map: Database, kg_env: Connection
) -> None:
    runner = CliRunner()
    status = runner.invoke(main, ["similar", "--json"])
    assert status.exit_code == 0, status.output
    assert json.loads(status.output)["stored"] == []
    written = runner.invoke(main, ["similar", "--write", "--k", "5", "--json"])
    assert written.exit_code == 0, written.output
    payload = json.loads(written.output)
    assert payload["run"]["written"] is True
    assert {s["key"] for s in payload["stored"]} == {"co_cited", "coupled"}
    shown = runner.invoke(main, ["cocited", "1706.03762", "--limit", "3"])
    assert shown.exit_code == 0, shown.output
    assert "Read from the stored CO_CITED relationships" in shown.output
    live = runner.invoke(main, ["coupled", "1706.03762", "--limit", "9", "--json"])
    assert live.exit_code == 0, live.output
    assert json.loads(live.output)["source"] == "live"
    bad = runner.invoke(main, ["similar", "--write", "--k", "0"])
    assert bad.exit_code == 2
    assert "Error: k is 0. Pass a k from 1 to 1,000,000,000" in bad.output
    alone = runner.invoke(main, ["similar", "--k", "5"])  # --k means nothing without --write
    assert alone.exit_code == 2
    assert "--k goes with --write" in alone.output


@pytest.mark.slow
def test_top_k_equals_the_live_queries_on_cit_hepth_for_200_random_papers(
    hepth_citations: Database,
) -> None:
    citation = load_projection(hepth_citations)
    assert citation.edge_count > 350_000
    lists = {m: similarity.top_k(citation, m, 20) for m in MEASURES}
    index = {key: i for i, key in enumerate(citation.keys)}
    rng = random.Random(15)
    cited = [k for k in citation.keys if k.startswith("hep-th/")]
    sample = rng.sample(cited, 200)
    compared = 0
    for key in sample:
        for measure in MEASURES:
            mine = [
                {
                    "key": citation.keys[n.index],
                    "together": n.together,
                    "size_a": n.size_a,
                    "size_b": n.size_b,
                    "cosine": n.cosine,
                    "jaccard": n.jaccard,
                }
                for n in lists[measure][index[key]]
            ]
            assert mine == _live(hepth_citations, measure, key, 20), (measure, key)
            compared += len(mine)
    assert compared > 2_000


@pytest.mark.slow
def test_the_hub_paper_answers_live_within_the_budget_on_cit_hepth(
    hepth_citations: Database,
) -> None:
    answer = questions.cocited(hepth_citations, "hep-th/9711200", limit=20)
    assert answer.source == "live"
    assert not answer.capped  # 70,541 paths, within the default budget: exact
    assert (
        answer.results[0].together
        == _live(hepth_citations, "co-citation", "hep-th/9711200", 1)[0]["together"]
    )
    _rows, _, bound = similarity.similar_rows(
        hepth_citations, "hep-th/9711200", "co-citation", 20, max_paths=20_000, prefer_stored=False
    )
    assert bound is not None
    assert bound.capped  # over a 20,000-path budget it counts the citers it can
    assert bound.size_a == 2_414
    assert 0 < bound.counted < 2_414


@pytest.mark.slow
def test_a_large_limit_on_the_hub_paper_is_answered_live_in_full(
    hepth_citations: Database,
) -> None:
    """A limit above the stored k is computed live. The live queries used to sort with
    ORDER BY ... LIMIT inside their subquery, which charged every row it kept with the lists
    the row still held (about 2.8 MiB a row for hep-th/9711200's co-citation): above about
    500 rows the server refused the query for want of transaction memory. 10,000 is more
    than either answer has, so every candidate is kept and sorted."""
    key = "hep-th/9711200"
    for measure in similarity.MEASURES:
        rows, _, bound = similarity.similar_rows(
            hepth_citations, key, measure, 10_000, prefer_stored=False
        )
        assert bound is not None
        assert not bound.capped
        assert len(rows) > 3_000, measure
        assert [{n: r[n] for n in COLUMNS} for r in rows] == _live(
            hepth_citations, measure, key, 10_000
        ), measure


class _AfterTheRead:
    """Wraps a Database's ``records`` so that ``then(graph)`` runs right after the
    similarity run's projection transaction has committed (a load landing between the run's
    read and its writes), and records the access mode the projection was read with."""

    def __init__(self, graph: Database, then: Any) -> None:
        self.graph = graph
        self.then = then
        self.projection_write: list[bool] = []
        self.records = graph.records

    def __call__(self, query: Any, params: Any = None, *, write: bool = False) -> Any:
        result = self.records(query, params, write=write)
        if "read_at" in query:
            self.projection_write.append(write)
            self.then(self.graph)
        return result


def test_a_load_committed_after_the_runs_read_leaves_its_papers_live(
    small_map: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The run's computed_at is the start of the transaction that read the graph, so a load
    committing after that read stamps (datetime.transaction(), as citations.cypher does) a
    later time and its papers answer live; a writing run reads on the leader."""
    key = "1810.04805"

    def load(graph: Database) -> None:
        graph.write(
            "MATCH (a:Paper {key: '2101.99999'}), (b:Paper {key: $key}) MERGE (a)-[:CITES]->(b) "
            "SET a.changed_at = datetime.transaction(), b.changed_at = datetime.transaction()",
            {"key": key},
        )

    face = KnowledgeGraph.on(small_map)
    spy = _AfterTheRead(face, load)
    monkeypatch.setattr(face, "records", spy)
    run = face.analytics.similar(k=5, write=True)
    monkeypatch.undo()
    assert spy.projection_write == [True]
    assert run.computed_at is not None
    answer = questions.cocited(small_map, key, limit=5)
    assert answer.source == "live"
    assert answer.stale_reason == "a load changed the paper's citations after the stored run"
    assert questions.coupled(small_map, "2110.03888", limit=5).source == "live"  # a neighbour
    untouched = small_map.read(
        "MATCH (p:Paper)-[:CO_CITED]->() WHERE NOT (p)-[:CITES]-(:Paper {key: $key}) "
        "AND NOT (p)-[:CITES]-(:Paper {key: '2101.99999'}) AND NOT p.key IN [$key, '2101.99999'] "
        "AND NOT EXISTS { (p)-[:CO_CITED|COUPLED]->(q) WHERE q.key IN [$key, '2101.99999'] } "
        "RETURN p.key AS key ORDER BY key LIMIT 1",
        {"key": key},
    )[0]["key"]
    assert questions.cocited(small_map, untouched, limit=5).source == "materialised"
    # A run that does not write reads where reads go.
    spy = _AfterTheRead(face, lambda graph: None)
    monkeypatch.setattr(face, "records", spy)
    face.analytics.similar(k=5)
    assert spy.projection_write == [False]


def test_a_stamp_equal_to_computed_at_counts_as_a_change(small_map: Database) -> None:
    KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    key = "1706.03762"
    assert questions.cocited(small_map, key, limit=5).source == "materialised"
    small_map.write(
        "MATCH (r:AnalyticsRun {key: 'co_cited'}), (p:Paper {key: $key}) "
        "SET p.changed_at = r.computed_at",
        {"key": key},
    )
    assert questions.cocited(small_map, key, limit=5).source == "live"


def test_lists_are_written_by_key_and_skip_a_paper_removed_after_the_read(
    small_map: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    gone = small_map.read(
        "MATCH (b:Paper) WHERE COUNT { (b)<-[:CITES]-() } >= 2 "
        "RETURN b.key AS key ORDER BY COUNT { (b)<-[:CITES]-() } DESC, key LIMIT 1"
    )[0]["key"]

    def remove(graph: Database) -> None:
        graph.write("MATCH (p:Paper {key: $key}) DETACH DELETE p", {"key": gone})

    face = KnowledgeGraph.on(small_map)
    monkeypatch.setattr(face, "records", _AfterTheRead(face, remove))
    run = face.analytics.similar(k=5, write=True)
    monkeypatch.undo()
    assert run.rewritten["co-citation"] > 0
    # No list names the removed paper, and every list's ranks run 1..n without a gap.
    ranks = small_map.read(
        "MATCH (a:Paper)-[s:CO_CITED|COUPLED]->() WITH a, type(s) AS t, s ORDER BY s.rank "
        "RETURN a.key AS key, t, collect(s.rank) AS ranks"
    )
    assert ranks
    assert all(row["ranks"] == list(range(1, len(row["ranks"]) + 1)) for row in ranks)
    assert not small_map.read("MATCH (p:Paper {key: $key}) RETURN p", {"key": gone})
    # The next run sees the graph without the paper and rewrites the lists that changed; the
    # one after finds every stored list equal to its own (compared by key): none rewritten.
    KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    again = KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True, force=True)
    assert not again.unchanged
    assert again.rewritten == {"co-citation": 0, "coupling": 0}
    for measure in MEASURES:
        for paper in _keys(small_map):
            assert _stored(small_map, measure, paper, 5) == _live(small_map, measure, paper, 5)


def test_a_run_on_an_unchanged_graph_keeps_the_stored_lists(
    small_map: Database, kg_env: Connection
) -> None:
    first = KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    assert not first.unchanged
    ids = small_map.read("MATCH ()-[s:CO_CITED|COUPLED]->() RETURN collect(elementId(s)) AS ids")
    again = KnowledgeGraph.on(small_map).analytics.similar(k=5, write=True)
    assert again.unchanged
    assert (again.pairs, again.papers_with, again.nodes, again.edges) == (
        first.pairs,
        first.papers_with,
        first.nodes,
        first.edges,
    )
    assert again.rewritten == {"co-citation": 0, "coupling": 0}
    # nothing was written: the very same relationships
    assert (
        small_map.read("MATCH ()-[s:CO_CITED|COUPLED]->() RETURN collect(elementId(s)) AS ids")
        == ids
    )
    # another k is another run
    assert not KnowledgeGraph.on(small_map).analytics.similar(k=4, write=True).unchanged
    assert KnowledgeGraph.on(small_map).analytics.similar(k=4, write=True).unchanged
    # a load's stamp
    _stamp(small_map, "1706.03762")
    assert not KnowledgeGraph.on(small_map).analytics.similar(k=4, write=True).unchanged
    # lists deleted by hand are written again
    small_map.write("MATCH (:Paper {key: '1810.04805'})-[s:CO_CITED]->() DELETE s")
    rerun = KnowledgeGraph.on(small_map).analytics.similar(k=4, write=True)
    assert not rerun.unchanged
    assert rerun.rewritten["co-citation"] == 1
    for paper in _keys(small_map):
        assert _stored(small_map, "co-citation", paper, 4) == _live(
            small_map, "co-citation", paper, 4
        )
    runner = CliRunner()
    kept = runner.invoke(main, ["similar", "--write", "--k", "4"])
    assert kept.exit_code == 0, kept.output
    assert kept.output.startswith("kept the stored lists (top 4): no paper changed since")
    forced = runner.invoke(main, ["similar", "--write", "--k", "4", "--force", "--json"])
    assert forced.exit_code == 0, forced.output
    assert json.loads(forced.output)["run"]["unchanged"] is False
    alone = runner.invoke(main, ["similar", "--force"])
    assert alone.exit_code == 2
    assert "--force goes with --write" in alone.output


def test_coupling_ties_go_to_the_most_cited_live_and_stored(graph: Database) -> None:
    """B and C share both of A's references and have two each: they tie in together and
    cosine, and C, cited once, comes before B, cited by none, where key order put B first;
    the stored lists (kg similar --write) order them the same."""
    from tests.integration.test_questions import add_cites, add_papers, paper

    add_papers(graph, *(paper(key) for key in ("A", "B", "C", "R1", "R2", "Z")))
    add_cites(graph, ("A", "R1"), ("A", "R2"), ("B", "R1"), ("B", "R2"))
    add_cites(graph, ("C", "R1"), ("C", "R2"), ("Z", "C"))
    live = questions.coupled(graph, "A")
    assert live.source == "live"
    assert [(r.key, r.together, r.size_b) for r in live.results] == [("C", 2, 2), ("B", 2, 2)]
    KnowledgeGraph.on(graph).analytics.similar(k=5, write=True)
    stored = questions.coupled(graph, "A", limit=5)
    assert stored.source == "materialised"
    assert [r.key for r in stored.results] == ["C", "B"]
    assert _stored(graph, "coupling", "A", 5) == _live(graph, "coupling", "A", 5)
    bounded = queries.questions.similar_coupled_live.run(graph, key="A", limit=5)
    assert [r["key"] for r in bounded[0]["results"]] == ["C", "B"]
