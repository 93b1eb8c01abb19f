"""Papers keyed and merged by every strong id they have (DOI, OpenAlex, S2, MAG, PubMed).

Records of one paper from several sources, each naming it by other ids, make one paper
holding all of them, in any order and grouping (a property-based test); each id finds it as
a REF; references by id go to it; two arXiv papers that share an id stay two; two papers
that only share a title stay two.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.database import Database
from kg.load.neo4j_sink import GraphWriter
from kg.load.rows import Batch
from kg.load.schema import clear_database
from kg.questions.paper import paper_report
from kg.refs import resolve
from loaders.records import CitationRecord, Origin, PaperRecord, PaperRef, SnapshotRecord
from tests.graph_dump import differences, dump_graph

pytestmark = pytest.mark.integration

SHA = {name: f"{n:064x}" for n, name in enumerate(("arxiv", "openalex", "s2", "crossref"), 1)}
ATTENTION: dict[str, dict[str, Any]] = {
    "arxiv": {"arxiv_id": "1706.03762", "doi": "10.5555/Made.Up.1"},
    "openalex": {"ids": {"openalex": "https://openalex.org/W1000001", "doi": "10.5555/made.up.1"}},
    "s2": {"ids": {"s2": "ab" * 20, "corpus": "13756489", "mag": "2963403868"}},
    "crossref": {"ids": {"doi": "https://doi.org/10.5555/MADE.UP.1", "s2": "AB" * 20}},
}
"""One made-up paper as four sources name it: each shares an id with another."""


def _snapshot(source: str) -> SnapshotRecord:
    return SnapshotRecord(
        key=f"sha256:{SHA[source]}",
        kind="paper_json",
        source=f"{source}.jsonl",
        sha256=SHA[source],
        data_date=date(2024, 1, 1 + list(SHA).index(source)),
    )


def _record(source: str, title: str = "Attention Made Up", **named: Any) -> PaperRecord:
    return PaperRecord(
        **named,
        title=title,
        year=2017,
        origin=Origin(path=f"{source}.jsonl", line=1),
        snapshot=f"sha256:{SHA[source]}",
        as_of=date(2024, 1, 1 + list(SHA).index(source)),
    )


def _cites(source: str, citing: PaperRef, cited: PaperRef) -> CitationRecord:
    return CitationRecord(
        origin=Origin(path=f"{source}.jsonl", line=2),
        snapshot=f"sha256:{SHA[source]}",
        citing=citing,
        cited=cited,
    )


def _batches() -> list[Batch]:
    """One batch per source: its record of the paper, and a citation naming it its way."""
    batches: list[Batch] = []
    for source, named in ATTENTION.items():
        citing = PaperRef(ids={"openalex": f"W20000{len(batches)}"}, title=f"Citer {source}")
        cited = PaperRef(**{k: v for k, v in named.items() if k != "doi"})
        batches.append(
            Batch(papers=[_record(source, **named)], citations=[_cites(source, citing, cited)])
        )
    return batches


def _load(graph: Database, batches: list[Batch]) -> None:
    writer = GraphWriter(graph)
    for source in SHA:
        writer.write_snapshot(_snapshot(source))
    for batch in batches:
        writer.write_batch(batch)


def test_records_that_share_ids_are_one_paper_holding_every_id(graph: Database) -> None:
    _load(graph, _batches())
    papers = graph.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")
    assert [row["key"] for row in papers] == [
        "1706.03762",
        "openalex:W200000",
        "openalex:W200001",
        "openalex:W200002",
        "openalex:W200003",
    ]
    report = paper_report(graph, "1706.03762")
    assert report.ids == {
        "arxiv": "1706.03762",
        "doi": "10.5555/made.up.1",
        "openalex": "W1000001",
        "s2": "ab" * 20,
        "corpus_id": "13756489",
        "mag": "2963403868",
    }
    assert report.other_ids == []
    assert report.cited_by_in_map == 4
    for ref in (
        "10.5555/MADE.UP.1",
        "doi:10.5555/made.up.1",
        "https://doi.org/10.5555/made.up.1",
        "W1000001",
        "https://openalex.org/W1000001",
        "CorpusId:13756489",
        "AB" * 20,
        f"https://www.semanticscholar.org/paper/Attention-Made-Up/{'ab' * 20}",
        "mag:2963403868",
        "arXiv:1706.03762v5",
    ):
        assert resolve(graph, ref).key == "1706.03762", ref


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(order=st.permutations(range(4)), cuts=st.lists(st.booleans(), min_size=3, max_size=3))
def test_any_order_and_grouping_gives_one_graph(
    graph: Database, order: list[int], cuts: list[bool]
) -> None:
    clear_database(graph)
    _load(graph, _batches())
    expected = dump_graph(graph)
    clear_database(graph)
    batches = [_batches()[i] for i in order]
    grouped: list[Batch] = [Batch()]
    for i, batch in enumerate(batches):
        grouped[-1].papers += batch.papers
        grouped[-1].citations += batch.citations
        if i < len(cuts) and cuts[i]:
            grouped.append(Batch())
    _load(graph, [b for b in grouped if len(b)])
    actual = dump_graph(graph)
    assert actual == expected, differences(actual, expected)


def test_two_arxiv_papers_that_share_a_doi_stay_two(graph: Database) -> None:
    shared = {"doi": "10.5555/shared.1"}
    batch = Batch(
        papers=[
            _record("arxiv", arxiv_id="2001.00001", ids=shared),
            _record("s2", title="Another Title", arxiv_id="2001.00002", ids=shared),
            _record("crossref", title="Journal Version", ids={**shared, "pmid": "31234567"}),
        ]
    )
    _load(graph, [batch])
    keys = [r["key"] for r in graph.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")]
    # the DOI-only record joins the smallest arXiv id; the two arXiv papers stay apart
    assert keys == ["2001.00001", "2001.00002"]
    assert paper_report(graph, "2001.00001").ids["pmid"] == "31234567"


def test_two_papers_that_only_share_a_title_stay_two(graph: Database) -> None:
    batch = Batch(
        papers=[
            _record("openalex", title="Deep Learning", ids={"openalex": "W1"}),
            _record("crossref", title="Deep learning.", ids={"doi": "10.5555/other"}),
        ]
    )
    _load(graph, [batch])
    keys = [r["key"] for r in graph.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")]
    assert keys == ["doi:10.5555/other", "openalex:W1"]


def test_a_title_reference_joins_the_paper_keyed_by_a_doi(graph: Database) -> None:
    batch = Batch(
        papers=[_record("crossref", title="Deep Learning", ids={"doi": "10.5555/dl"})],
        citations=[
            _cites(
                "arxiv",
                PaperRef(arxiv_id="2001.00009", title="A Citer"),
                PaperRef(title="Deep learning", year=2017),
            )
        ],
    )
    _load(graph, [batch])
    rows = graph.read("MATCH (p:Paper)<-[:CITES]-() RETURN p.key AS key, p.aliases AS aliases")
    assert rows == [{"key": "doi:10.5555/dl", "aliases": ["title:deep learning:2017"]}]
