"""Authors keyed by their strong ids (ORCID, OpenAlex, Semantic Scholar), by name otherwise.

Records that give one person's ids make one author holding all of them and every spelling
of the name, in any order and grouping (a property-based test); an author known by name
alone never joins an author keyed by ids; two people with one name and two ORCIDs stay two,
and `kg author` says so and takes an id.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.database import Database
from kg.errors import AmbiguousAuthor
from kg.load.neo4j_sink import GraphWriter
from kg.load.rows import Batch
from kg.load.schema import clear_database
from kg.questions.authors import author
from loaders.records import PaperRecord, SnapshotRecord
from tests.graph_dump import differences, dump_graph

pytestmark = pytest.mark.integration

SHA = f"{7:064x}"
ORCID = "0000-0002-1825-0097"


def _record(
    arxiv_id: str, authors: tuple[str, ...], ids: tuple[dict[str, str], ...], day: int = 1
) -> PaperRecord:
    return PaperRecord.model_validate(
        {
            "arxiv_id": arxiv_id,
            "title": f"Paper {arxiv_id}",
            "year": 2020,
            "authors": authors,
            "author_ids": ids,
            "origin": {"path": "works.jsonl", "line": day},
            "snapshot": f"sha256:{SHA}",
            "as_of": date(2024, 1, day),
        }
    )


def _load(graph: Database, batches: list[Batch]) -> None:
    writer = GraphWriter(graph)
    writer.write_snapshot(
        SnapshotRecord(key=f"sha256:{SHA}", kind="openalex", source="works.jsonl", sha256=SHA)
    )
    for batch in batches:
        writer.write_batch(batch)


RECORDS = (
    # one person: her ORCID and OpenAlex id on one paper, each alone on the others
    _record(
        "2001.00001",
        ("Ada Lovelace", "Name Only"),
        ({"orcid": ORCID, "openalex": "https://openalex.org/A100"}, {}),
    ),
    _record("2001.00002", ("A. Lovelace",), ({"openalex": "A100"},), day=2),
    _record("2001.00003", ("Augusta Ada King",), ({"orcid": f"https://orcid.org/{ORCID}"},), 3),
    # a name alone, the same as hers: never joined to her
    _record("2001.00004", ("Ada Lovelace",), (), day=4),
)


def _keys(graph: Database) -> list[str]:
    return [r["key"] for r in graph.read("MATCH (a:Author) RETURN a.key AS key ORDER BY key")]


def test_records_of_one_person_make_one_author_with_every_id_and_spelling(
    graph: Database,
) -> None:
    _load(graph, [Batch(papers=[record]) for record in RECORDS])
    assert _keys(graph) == ["ada lovelace", "name only", f"orcid:{ORCID}"]
    report = author(graph, f"https://orcid.org/{ORCID}")
    assert report.key == f"orcid:{ORCID}"
    assert report.ids == ["openalex:A100", f"orcid:{ORCID}"]
    assert report.spellings == ["A. Lovelace", "Ada Lovelace", "Augusta Ada King"]
    assert [p.key for p in report.papers] == ["2001.00001", "2001.00002", "2001.00003"]
    assert author(graph, "Augusta Ada King").key == f"orcid:{ORCID}"
    assert author(graph, "openalex:A100").key == f"orcid:{ORCID}"
    # the name alone is two authors' name: one keyed by it, one of her spellings
    with pytest.raises(AmbiguousAuthor) as info:
        author(graph, "Ada Lovelace")
    assert info.value.candidates == [f"orcid:{ORCID}", "ada lovelace"]


def test_two_people_of_one_name_with_two_orcids_stay_two(graph: Database) -> None:
    other = "0000-0001-5109-3700"
    _load(
        graph,
        [
            Batch(papers=[_record("2001.00001", ("Wei Zhang",), ({"orcid": ORCID},))]),
            Batch(papers=[_record("2001.00002", ("Wei Zhang",), ({"orcid": other},), 2)]),
        ],
    )
    assert _keys(graph) == [f"orcid:{other}", f"orcid:{ORCID}"]
    with pytest.raises(AmbiguousAuthor):
        author(graph, "Wei Zhang")


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(order=st.permutations(range(len(RECORDS))), cut=st.integers(0, len(RECORDS)))
def test_any_order_and_grouping_gives_one_graph(
    graph: Database, order: list[int], cut: int
) -> None:
    clear_database(graph)
    _load(graph, [Batch(papers=[record]) for record in RECORDS])
    expected = dump_graph(graph)
    clear_database(graph)
    ordered = [RECORDS[i] for i in order]
    _load(graph, [b for b in (Batch(papers=ordered[:cut]), Batch(papers=ordered[cut:])) if len(b)])
    actual = dump_graph(graph)
    assert actual == expected, differences(actual, expected)
    # loading it all again writes nothing new
    _load(graph, [Batch(papers=list(RECORDS))])
    assert dump_graph(graph) == expected
