"""Batches written behind the loader (kg.load.neo4j_sink.WriteBehind): one at a time, in order,
in a thread of their own while the next is read; the same graph as the writer alone, every
other call after the batch in flight, and an error writing a batch raised by the next call
with that batch counted as not written."""

from __future__ import annotations

import sys
import threading
from datetime import date

import pytest

from kg.database import Database
from kg.load.neo4j_sink import GraphWriter, WriteBehind, _BatchWrite
from kg.load.rows import Batch
from kg.load.schema import apply_schema, clear_database
from loaders.records import CitationRecord, Origin, PaperRecord, PaperRef, SnapshotRecord
from tests.graph_dump import differences, dump_graph

pytestmark = pytest.mark.integration

SHA = f"{11:064x}"
SNAPSHOT = SnapshotRecord(key=f"sha256:{SHA}", kind="arxiv_oai", source="p.jsonl", sha256=SHA)


def _paper(n: int, **fields: object) -> PaperRecord:
    return PaperRecord(
        arxiv_id=f"2101.{n:05d}",
        title=f"Paper {n}",
        authors=(f"Author {n % 3}",),
        origin=Origin(path="p.jsonl", line=n),
        snapshot=SNAPSHOT.key,
        as_of=date(2024, 1, 1 + n % 20),
        **fields,  # type: ignore[arg-type]
    )


def _cite(citing: int, cited: PaperRef, line: int) -> CitationRecord:
    return CitationRecord(
        origin=Origin(path="p.jsonl", line=line),
        snapshot=SNAPSHOT.key,
        as_of=date(2024, 1, 2),
        citing=PaperRef(arxiv_id=f"2101.{citing:05d}"),
        cited=cited,
    )


def _batches() -> list[Batch]:
    """Six batches whose citations reach into the others' papers, and name one paper by
    title alone from two batches (the identity rules run across batches)."""
    by_title = PaperRef(title="A paper known by its title", year=2019)
    batches = []
    for part in range(6):
        papers = [_paper(part * 5 + i) for i in range(1, 6)]
        citations = [
            _cite(part * 5 + i, PaperRef(arxiv_id=f"2101.{(part * 7 + i) % 30 + 1:05d}"), 100 + i)
            for i in range(1, 6)
        ]
        if part in (1, 4):
            citations.append(_cite(part * 5 + 1, by_title, 200 + part))
        batches.append(Batch(papers=papers, citations=citations))
    return batches


def _dump_written(graph: Database, behind: bool) -> tuple[list[str], list[str]]:
    clear_database(graph)
    apply_schema(graph)
    writer = GraphWriter(graph)
    if behind:
        with WriteBehind(writer) as sink:
            sink.write_snapshot(SNAPSHOT)
            for batch in _batches():
                sink.write_batch(batch)
            sink.mark_loaded_whole(SNAPSHOT.key)
    else:
        writer.write_snapshot(SNAPSHOT)
        for batch in _batches():
            writer.write_batch(batch)
        writer.mark_loaded_whole(SNAPSHOT.key)
    return dump_graph(graph)


def test_written_behind_is_the_graph_the_writer_alone_writes(graph: Database) -> None:
    alone = _dump_written(graph, behind=False)
    behind = _dump_written(graph, behind=True)
    assert alone == behind, differences(behind, alone)
    assert len(alone[0]) > 30  # the papers, their authors, the snapshot


class _Held(GraphWriter):
    """A GraphWriter that waits for the test's word before writing each batch, and fails
    the batches the test names."""

    def __init__(self, graph: Database, failing: set[int]) -> None:
        super().__init__(graph)
        self.go = threading.Event()
        self.started = threading.Event()
        self.written: list[int] = []
        self.failing = failing

    def write_planned(self, batch: Batch, plan: _BatchWrite) -> None:
        self.started.set()
        assert self.go.wait(60)
        number = int(str(batch.papers[0].arxiv_id).split(".")[1])
        if number in self.failing:
            raise RuntimeError(f"batch of paper {number} failed")
        super().write_planned(batch, plan)
        self.written.append(number)


def test_a_batch_is_written_while_the_caller_goes_on_and_others_wait(graph: Database) -> None:
    apply_schema(graph)
    writer = _Held(graph, failing=set())
    interval = sys.getswitchinterval()
    with WriteBehind(writer) as sink:
        assert sys.getswitchinterval() <= 0.0005  # the writer's thread gets the GIL back soon
        sink.write_snapshot(SNAPSHOT)
        sink.write_batch(Batch(papers=[_paper(1)]))  # returns before the batch is written
        assert writer.started.wait(60)
        assert writer.written == []
        threading.Timer(0.5, writer.go.set).start()
        assert not sink.loaded_whole(SNAPSHOT.key)  # waits for the batch first
        assert writer.written == [1]
        sink.write_batch(Batch(papers=[_paper(2)]))
    assert writer.written == [1, 2]  # leaving the block waited for the last one
    assert sys.getswitchinterval() == interval


def test_an_error_writing_a_batch_is_raised_by_the_next_call(graph: Database) -> None:
    apply_schema(graph)
    writer = _Held(graph, failing={2})
    writer.go.set()
    sink = WriteBehind(writer)
    sink.write_batch(Batch(papers=[_paper(1)]))
    sink.write_batch(Batch(papers=[_paper(2), _paper(3)]))
    with pytest.raises(RuntimeError, match="batch of paper 2 failed"):
        sink.write_batch(Batch(papers=[_paper(4)]))
    assert sink.unwritten == 2
    assert writer.written == [1]  # the batch after the failed one never started
    sink.wait()  # the error is raised once
    rows = graph.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")
    assert [row["key"] for row in rows] == ["2101.00001"]


def test_leaving_on_an_error_keeps_that_error(graph: Database) -> None:
    apply_schema(graph)
    writer = _Held(graph, failing={1})
    writer.go.set()
    sink = WriteBehind(writer)

    def leave_on_an_error() -> None:
        with sink:
            sink.write_batch(Batch(papers=[_paper(1)]))
            raise KeyError("the block's own")

    interval = sys.getswitchinterval()
    with pytest.raises(KeyError, match="the block's own"):
        leave_on_an_error()
    assert sys.getswitchinterval() == interval
    assert sink.unwritten == 1  # waited for, its error set aside
