"""`kg paper REF --sources`: what each source states of a paper and asserts in the graph.

Three made-up sources of one made-up paper A (arXiv 1706.03762), written with the loader's
own GraphWriter: OpenAlex and S2 each hold a record of A stating other counts and naming
other references, and Crossref holds only a record of a paper citing A. Every record here
is invented.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rich.cells import cell_len
from starlette.testclient import TestClient

from kg.cli import main
from kg.database import Database
from kg.errors import ParameterError
from kg.knowledge_graph import KnowledgeGraph
from kg.load.neo4j_sink import GraphWriter
from kg.load.rows import Batch
from kg.questions import sources
from kg.server.config import Connection
from kg.web import create_app
from loaders.records import CitationRecord, Origin, PaperRecord, PaperRef, SnapshotRecord

pytestmark = pytest.mark.integration

KIND = {"openalex": "openalex", "s2": "semantic_scholar", "crossref": "crossref"}
DAY = {"openalex": date(2024, 2, 1), "s2": date(2024, 3, 1), "crossref": date(2024, 1, 15)}
SHA = {name: f"{n:064x}" for n, name in enumerate(KIND, 1)}
S2_ONLY = "s2:" + "cd" * 20

A = PaperRef(arxiv_id="1706.03762", title="Attention Made Up", year=2017)
R1 = PaperRef(arxiv_id="1409.0473", title="Alignment Made Up", year=2014)  # has a record
R2 = PaperRef(arxiv_id="1512.03385", title="Residuals Made Up", year=2015)  # both name it
R3 = PaperRef(ids={"openalex": "W3000003"}, title="Only OpenAlex Names Me", year=2016)
R4 = PaperRef(ids={"s2": "CD" * 20}, title="Only S2 Names Me", year=2016)
R5 = PaperRef(ids={"doi": "10.5555/made.up.5"}, title="OpenAlex Alone Again", year=2015)
C1 = PaperRef(arxiv_id="2001.00001", title="A Citer Made Up", year=2020)
C2 = PaperRef(ids={"doi": "10.5555/made.up.c2"}, title="Another Citer Made Up", year=2021)


def _snapshot(source: str) -> SnapshotRecord:
    return SnapshotRecord(
        key=f"sha256:{SHA[source]}",
        kind=KIND[source],  # type: ignore[arg-type]
        source=f"{source}_works.jsonl",
        sha256=SHA[source],
        data_date=DAY[source],
    )


def _record(source: str, paper: PaperRef, line: int, **stated: Any) -> PaperRecord:
    named = paper.model_dump(exclude={"stated_cited_by"})
    return PaperRecord(
        **named,
        **stated,
        origin=Origin(path=f"{source}_works.jsonl", line=line),
        snapshot=f"sha256:{SHA[source]}",
        as_of=DAY[source],
    )


def _cites(source: str, line: int, citing: PaperRef, cited: PaperRef) -> CitationRecord:
    return CitationRecord(
        origin=Origin(path=f"{source}_works.jsonl", line=line),
        snapshot=f"sha256:{SHA[source]}",
        as_of=DAY[source],
        citing=citing,
        cited=cited,
    )


def load_sources(graph: Database) -> None:
    """Write the three made-up sources.

    OpenAlex: A (39 citations, 4 references) naming R1, R2, R3 and R5; R1's own record;
    C1's record citing A and R3. S2: A (97 citations, 3 references) naming R1, R2 and R4,
    cited by C1 and C2. Crossref: C2's record citing A, and no record of A.
    """
    writer = GraphWriter(graph)
    for source in KIND:
        writer.write_snapshot(_snapshot(source))
    writer.write_batch(
        Batch(
            papers=[
                _record("openalex", A, 1, stated_cited_by=39, stated_refs_total=4),
                _record("openalex", R1, 2, stated_cited_by=12000),
                _record("openalex", C1, 3, stated_cited_by=3, stated_refs_total=2),
            ],
            citations=[
                *(_cites("openalex", 1, A, ref) for ref in (R1, R2, R3, R5)),
                _cites("openalex", 3, C1, A),
                _cites("openalex", 3, C1, R3),
            ],
        )
    )
    writer.write_batch(
        Batch(
            papers=[_record("s2", A, 1, stated_cited_by=97, stated_refs_total=3)],
            citations=[
                *(_cites("s2", 1, A, ref) for ref in (R1, R2, R4)),
                _cites("s2", 1, C1, A),
                _cites("s2", 1, C2, A),
            ],
        )
    )
    writer.write_batch(
        Batch(
            papers=[_record("crossref", C2, 1, stated_cited_by=0, stated_refs_total=1)],
            citations=[_cites("crossref", 1, C2, A)],
        )
    )


def _paper(key: str, title: str, year: int, stub: bool = True) -> dict[str, Any]:
    arxiv = key if key[0].isdigit() else None
    return {"key": key, "arxiv_id": arxiv, "title": title, "year": year, "stub": stub}


def _source(source: str, **fields: Any) -> dict[str, Any]:
    described = fields.pop("describes", True)
    return {
        "key": f"sha256:{SHA[source]}",
        "kind": KIND[source],
        "source": f"{source}_works.jsonl",
        "data_date": DAY[source].isoformat(),
        "builder_version": None,
        "as_of": DAY[source].isoformat() if described else None,
        "line": 1 if described else None,
        "stated_cited_by": None,
        "stated_cited_by_in_map": None,
        "stated_refs_total": None,
        "stated_refs_in_map": None,
        "listed_refs": None,
        "listed_citing": None,
        "describes": described,
        **fields,
    }


R2_SEEN = _paper("1512.03385", "Residuals Made Up", 2015)
R3_SEEN = _paper("openalex:W3000003", "Only OpenAlex Names Me", 2016)
R4_SEEN = _paper(S2_ONLY, "Only S2 Names Me", 2016)
R5_SEEN = _paper("doi:10.5555/made.up.5", "OpenAlex Alone Again", 2015)
EXPECTED: dict[str, Any] = {
    "paper": _paper("1706.03762", "Attention Made Up", 2017, stub=False),
    "builds_on": 5,
    "cited_by_in_map": 2,
    "results": [
        _source(
            "crossref",
            describes=False,
            asserted_refs=0,
            asserted_citers=1,
            stub_refs=0,
            stub_examples=[],
        ),
        _source(
            "openalex",
            stated_cited_by=39,
            stated_refs_total=4,
            asserted_refs=4,
            asserted_citers=1,
            stub_refs=3,
            # most cited in the graph first (R3: by A and C1), then by key
            stub_examples=[R3_SEEN, R2_SEEN, R5_SEEN],
        ),
        _source(
            "s2",
            stated_cited_by=97,
            stated_refs_total=3,
            asserted_refs=3,
            asserted_citers=2,
            stub_refs=2,
            stub_examples=[R2_SEEN, R4_SEEN],
        ),
    ],
    "reference_kinds": ["openalex", "semantic_scholar"],
    "differences": [
        {
            "kind": "openalex",
            "lacking": "semantic_scholar",
            "count": 2,
            "stubs": 2,
            "examples": [R3_SEEN, R5_SEEN],
        },
        {
            "kind": "semantic_scholar",
            "lacking": "openalex",
            "count": 1,
            "stubs": 1,
            "examples": [R4_SEEN],
        },
    ],
}


@pytest.fixture
def sourced(graph: Database) -> Database:
    load_sources(graph)
    return graph


def test_each_source_states_and_asserts_its_own_counts(sourced: Database) -> None:
    answer = sources(sourced, "arXiv:1706.03762v5")
    assert answer.model_dump(mode="json") == EXPECTED
    assert [d.sentence() for d in answer.differences] == [
        "OpenAlex names 2 references S2 lacks (all stubs).",
        "S2 names 1 reference OpenAlex lacks (a stub).",
    ]
    assert answer.agreement_sentence() is None
    assert [s.stubs_sentence() for s in answer.results] == [
        None,
        "OpenAlex (openalex_works.jsonl) names 3 references known only from reference lists.",
        "S2 (s2_works.jsonl) names 2 references known only from reference lists.",
    ]


def test_examples_cut_every_list_but_not_its_count(sourced: Database) -> None:
    answer = KnowledgeGraph.on(sourced).sources("1706.03762", examples=1)
    assert [(s.stub_refs, [p.key for p in s.stub_examples]) for s in answer.results] == [
        (0, []),
        (3, ["openalex:W3000003"]),
        (2, ["1512.03385"]),
    ]
    assert [(d.count, [p.key for p in d.examples]) for d in answer.differences] == [
        (2, ["openalex:W3000003"]),
        (1, [S2_ONLY]),
    ]
    with pytest.raises(ParameterError, match="examples is 1001"):
        sources(sourced, "1706.03762", examples=1001)


def test_a_stub_and_a_paper_no_source_describes(sourced: Database) -> None:
    stub = sources(sourced, "openalex:W3000003")
    assert (stub.builds_on, stub.cited_by_in_map, stub.reference_kinds) == (0, 2, [])
    assert [(s.kind, s.describes, s.asserted_citers) for s in stub.results] == [
        ("openalex", False, 2)
    ]
    sourced.write("CREATE (:Paper {key: 'title:alone:2020', title: 'Alone', year: 2020})")
    alone = sources(sourced, "title:alone:2020")
    assert (alone.results, alone.differences, alone.builds_on) == ([], [], 0)
    assert alone.agreement_sentence() is None


def test_sources_that_agree_say_so(sourced: Database) -> None:
    # each names what only the other named: the two now agree on A's references
    missing = [_cites("s2", 1, A, ref) for ref in (R3, R5)] + [_cites("openalex", 1, A, R4)]
    GraphWriter(sourced).write_batch(Batch(citations=missing))
    answer = sources(sourced, "1706.03762")
    assert answer.differences == []
    assert answer.agreement_sentence() == "OpenAlex and S2 name the same 5 references."


def _cli(*args: str) -> Result:
    return CliRunner().invoke(
        main, ["paper", "1706.03762", "--sources", *args], env={"COLUMNS": "80"}
    )


def test_cli_json_is_the_answer(sourced: Database, kg_env: Connection) -> None:
    result = _cli("--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == EXPECTED
    cut = json.loads(_cli("--json", "--limit", "1").stdout)
    assert [len(s["stub_examples"]) for s in cut["results"]] == [0, 1, 1]
    assert [len(d["examples"]) for d in cut["differences"]] == [1, 1]


def test_cli_table_at_80_columns(sourced: Database, kg_env: Connection) -> None:
    result = _cli()
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(cell_len(line) <= 80 for line in lines), result.output
    assert lines[0].rstrip() == "Sources of 1706.03762: Attention Made Up (2017)"
    rows = [" ".join(line.replace("│", " ").split()) for line in lines if line.startswith("│")]
    assert rows == [
        "Crossref …ef_works.jsonl 2024-01-15 0 1",
        "OpenAlex …ex_works.jsonl 2024-02-01 4 39 4 1",
        "S2 s2_works.jsonl 2024-03-01 3 97 3 2",
        "graph every source 5 2",
    ], result.output
    flat = " ".join(result.output.split())
    assert (
        "OpenAlex names 2 references S2 lacks (all stubs): openalex:W3000003, "
        "doi:10.5555/made.up.5. "
        f"S2 names 1 reference OpenAlex lacks (a stub): {S2_ONLY[:23]}…. "
        "OpenAlex (openalex_works.jsonl) names 3 references known only from reference lists: "
        "openalex:W3000003, 1512.03385, doi:10.5555/made.up.5. "
        "S2 (s2_works.jsonl) names 2 references known only from reference lists: "
        f"1512.03385, {S2_ONLY[:23]}…. "
        "A stub is known only by the ids its reference gave" in flat
    ), result.output


HOSTILE = "<script>alert('x')</script>\x1b[2J[bold].jsonl"


def test_the_web_page_shows_the_sources_escaped(
    sourced: Database, neo4j_connection: Connection
) -> None:
    writer = GraphWriter(sourced)
    writer.write_snapshot(
        SnapshotRecord(key=f"sha256:{'e' * 64}", kind="crossref", source=HOSTILE, sha256="e" * 64)
    )
    writer.write_batch(
        Batch(
            citations=[
                CitationRecord(
                    origin=Origin(path=HOSTILE, line=1),
                    snapshot=f"sha256:{'e' * 64}",
                    citing=C1,
                    cited=A,
                )
            ]
        )
    )
    app = create_app(lambda: KnowledgeGraph.connect(neo4j_connection))
    with TestClient(app, base_url="http://127.0.0.1") as web:
        page = web.get("/paper/1706.03762")
    assert page.status_code == 200
    section = page.text[page.text.index('<section id="sources">') :]
    section = section[: section.index("</section>")]
    assert "<script>" not in section
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\x1b[2J[bold].jsonl" in section
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", section)
    assert cells[8:16] == [
        "OpenAlex",
        "openalex_works.jsonl",
        "2024-02-01",
        "4",
        "39",
        "4",
        "1",
        "3",
    ]
    assert cells[-8:] == ["graph", "every source", "", "", "", "5", "2", ""]
    assert 'S2 names 1 reference OpenAlex lacks (a stub): <a href="/paper/s2%3Acdcd' in section
    assert "OpenAlex (openalex_works.jsonl) names 3 references" in section
