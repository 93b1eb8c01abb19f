"""An identical reload writes nothing: no property set, no node or relationship created or
deleted, no merge, in any format, at any batch size (issue 11: a relationship or link that
already holds its values is not rewritten). Without --force it does not even read the
records again: a file whose exact content was loaded whole is skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from tests.data import EXAMPLES, FIXTURES, SEED_PAGE, SEED_RECORD
from tests.graph_dump import dump_graph

SOURCES = [
    EXAMPLES / "map",
    SEED_PAGE,
    SEED_RECORD,
    FIXTURES / "arxiv" / "sample.jsonl",
    FIXTURES / "edges" / "citing_cited.tsv",
    FIXTURES / "abs" / "tree",
    FIXTURES / "pages",
]


@pytest.mark.parametrize("batch_size", [2000, 7])
def test_an_identical_reload_writes_nothing(
    graph: Database, tmp_path: Path, batch_size: int
) -> None:
    first = KnowledgeGraph.on(graph).load(
        SOURCES, batch_size=batch_size, rejects_path=tmp_path / "r1"
    )
    assert first.counts.nodes_created > 0
    assert first.counts.relationships_created > 0
    before = dump_graph(graph)
    again = KnowledgeGraph.on(graph).load(
        SOURCES, batch_size=batch_size, rejects_path=tmp_path / "r2", force=True
    )
    assert again.unchanged == []
    assert again.read == first.read
    counts = again.counts
    assert (
        counts.nodes_created,
        counts.nodes_deleted,
        counts.relationships_created,
        counts.relationships_deleted,
        counts.properties_set,
        counts.merged,
    ) == (0, 0, 0, 0, 0, 0), counts
    assert dump_graph(graph) == before
    skipped = KnowledgeGraph.on(graph).load(
        SOURCES, batch_size=batch_size, rejects_path=tmp_path / "r3"
    )
    whole = [f.path for f in first.files if f.error is None and f.rejected == 0]
    assert len(whole) > 10
    # Files that failed, or had records rejected, are read again (and report them again).
    assert sorted(skipped.unchanged) == sorted(whole)
    assert skipped.rejected == first.rejected > 0
    assert skipped.read == sum(f.read for f in first.files if f.path not in whole)
    assert skipped.counts.properties_set == skipped.counts.nodes_created == 0
    assert dump_graph(graph) == before


def test_a_changed_file_is_loaded_and_an_interrupted_one_is_not_marked(
    graph: Database, tmp_path: Path
) -> None:
    """Only a file loaded to its end is marked: a file that breaks off (here: a truncated
    gzip) is tried again next time, and a file whose content changed is a new snapshot,
    loaded whatever its name. (A load killed mid-file is tests/integration/test_faults.py.)"""
    import gzip

    source = FIXTURES / "arxiv" / "sample.jsonl"
    lines = source.read_bytes().splitlines(keepends=True)
    whole = gzip.compress(b"".join(lines))
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    first = KnowledgeGraph.on(graph).load([cut], fmt="arxiv_oai", rejects_path=tmp_path / "r1")
    assert first.failed, "a truncated gzip is reported as failed"
    again = KnowledgeGraph.on(graph).load([cut], fmt="arxiv_oai", rejects_path=tmp_path / "r2")
    assert again.unchanged == []
    assert again.failed
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(b"".join(lines[:-1]))
    assert KnowledgeGraph.on(graph).load([edited], rejects_path=tmp_path / "r3").unchanged == []
    assert KnowledgeGraph.on(graph).load([edited], rejects_path=tmp_path / "r4").unchanged == [
        str(edited)
    ]
    edited.write_bytes(b"".join(lines))
    assert KnowledgeGraph.on(graph).load([edited], rejects_path=tmp_path / "r5").unchanged == []
