"""Bulk mode's DuckDB stage (kg.load.import_sink) without a server: which records the split
sends to neo4j-admin import and which to the online writer, and the exact text of the CSVs
DuckDB writes for the import tool."""

from __future__ import annotations

import csv
import pickle
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from random import Random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.cli import main
from kg.errors import ConfigError
from kg.knowledge_graph import STAGE_MEMORY
from kg.load.import_sink import ImportFiles, ImportSink, _Records, check_stage_memory
from kg.load.rows import Batch
from loaders.records import (
    CitationRecord,
    EdgeChunk,
    Origin,
    PaperRecord,
    PaperRef,
    SnapshotRecord,
)

TRICKY = 'He said "hi",\nthen; left'


def _paper(arxiv_id: str, line: int, **fields: object) -> PaperRecord:
    return PaperRecord(
        arxiv_id=arxiv_id,
        origin=Origin(path="p.jsonl", line=line),
        snapshot="s1",
        as_of=date(2024, 1, 1),
        **fields,  # type: ignore[arg-type]
    )


def _cite(citing: str, cited: str | PaperRef, line: int, snapshot: str = "s1") -> CitationRecord:
    return CitationRecord(
        origin=Origin(path=f"{snapshot}.txt", line=line),
        snapshot=snapshot,
        as_of=date(2024, 1, 2),
        citing=PaperRef(arxiv_id=citing),
        cited=cited if isinstance(cited, PaperRef) else PaperRef(arxiv_id=cited),
    )


def _stage(
    tmp_path: Path, batches: Sequence[Batch | EdgeChunk], memory: str = "64MB"
) -> tuple[ImportFiles, list[str], ImportSink]:
    """Stage ``batches`` and edge chunks (snapshots s1 and s2) and split them; return the
    import files, what the online writer gets in its order (one line a record) and the
    closed sink."""
    sink = ImportSink(tmp_path / "stage.duckdb", memory)
    try:
        for name in ("s1", "s2"):
            sink.write_snapshot(
                SnapshotRecord(key=name, kind="edge_list", source=f"{name}.txt", sha256="0" * 64)
            )
        for batch in batches:
            if isinstance(batch, EdgeChunk):
                sink.write_edges(batch)
            else:
                sink.write_batch(batch)
        files = sink.write_csv(tmp_path / "csv")
        online = []
        for batch in sink.online_batches(2):
            online += [f"paper {r.key} {r.origin.line}" for r in batch.papers]
            online += [f"cites {c.citing.key} {c.cited.key} {c.snapshot}" for c in batch.citations]
    finally:
        sink.close()
    return files, online, sink


def _rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_the_split_sends_only_what_a_rule_may_touch_online(tmp_path: Path) -> None:
    """One record with plain references is imported; a second record, a ';' inside a topic,
    an extra property whose name differs from a column's only in case, a richer reference
    or an edge stated twice sends the paper or edge online, in the order read."""
    files, online, sink = _stage(
        tmp_path,
        [
            Batch(
                papers=[
                    _paper("2101.00001", 1, title="Alone"),
                    _paper("2101.00002", 2, title="Twice"),
                    _paper("2101.00003", 3, title="Topics", topics=("a;b",)),
                ],
                citations=[_cite("2101.00001", "2101.00009", 1)],
            ),
            Batch(
                papers=[
                    _paper("2101.00004", 4, title="Clash", extra={"LINE": 3}),
                    _paper("2101.00002", 5, title="Twice again"),
                ],
                citations=[
                    _cite("2101.00001", "2101.00002", 2),
                    _cite("2101.00001", PaperRef(arxiv_id="2101.00005", year=2020), 3),
                    _cite("2101.00009", "2101.00001", 4),
                    _cite("2101.00009", "2101.00001", 5, "s2"),
                ],
            ),
        ],
    )
    papers = _rows(files.nodes["Paper"][0])
    assert sorted(row[0] for row in papers[1:]) == ["2101.00001", "2101.00009"]
    assert online == [
        "paper 2101.00002 2",
        "paper 2101.00003 3",
        "paper 2101.00004 4",
        "paper 2101.00002 5",
        "cites 2101.00001 2101.00005 s1",
        "cites 2101.00001 2101.00002 s1",
        "cites 2101.00009 2101.00001 s1",
        "cites 2101.00009 2101.00001 s2",
    ]
    assert (sink.online_keys, sink.online_citations) == (4, 4)
    assert files.relationship_counts["CITES"] == 1
    assert files.node_counts["Paper"] == 2


def test_duckdb_writes_the_cells_as_the_import_tool_reads_them(tmp_path: Path) -> None:
    """Quotes doubled, a line break kept inside quotes (and the file named for
    --multiline-fields), ';' inside a plain string left alone, ids and strings quoted, an
    empty cell for a missing value, arrays joined by ';'."""
    record = _paper(
        "2101.00001",
        1,
        title=TRICKY,
        authors=("Ann Lee",),
        topics=("x", "y"),
        extra={"score": 0.5, "flag": True, "note": ""},
    )
    files, online, _ = _stage(
        tmp_path, [Batch(papers=[record], citations=[_cite("2101.00001", "2101.00009", 7)])]
    )
    assert online == []
    folder = tmp_path / "csv"
    text = (folder / "papers.csv").read_text(encoding="utf-8")
    assert '"2101.00001",false,"2101.00001","He said ""hi"",\nthen; left","he said hi' in text
    assert ',"x;y",' in text
    assert files.multiline == [folder / "papers.csv"]
    assert "--multiline-fields=" + str(folder / "papers.csv") in files.import_arguments()
    # DuckDB writes rows in any order (preserve_insertion_order is off): find them by key.
    header, *rows = _rows(folder / "papers.csv")
    row, stub = sorted(rows, key=lambda cells: cells[0] != "2101.00001")
    assert dict(zip(header, row, strict=True))["title:string"] == TRICKY
    assert stub[:4] == ["2101.00009", "true", "2101.00009", ""]
    assert (folder / "cites.csv").read_text(encoding="utf-8") == (
        '":START_ID(Paper)",":END_ID(Paper)","snapshots:string[]",first_seen:date,last_seen:date\n'
        '"2101.00001","2101.00009","s1",2024-01-02,2024-01-02\n'
    )
    assert (folder / "authors.csv").read_text(encoding="utf-8") == (
        '"key:ID(Author)","name"\n"ann lee","Ann Lee"\n'
    )
    (described,) = files.relationships["DESCRIBED_IN"]
    header, row = _rows(described)
    extras = dict(zip(header, row, strict=True))
    assert (extras["flag:boolean"], extras["note:string"], extras["score:double"]) == (
        "true",
        "",
        "0.5",
    )
    assert ',"",0.5\n' in described.read_text(encoding="utf-8")  # an empty string, quoted


def test_the_stage_memory_is_duckdbs_limit(tmp_path: Path) -> None:
    sink = ImportSink(tmp_path / "stage.duckdb", "256MB")
    try:
        ((limit, order),) = sink.db.execute(
            "SELECT current_setting('memory_limit'), current_setting('preserve_insertion_order')"
        ).fetchall()
    finally:
        sink.close()
    assert limit.endswith("MiB")
    assert order is False
    assert check_stage_memory("512MB") == "512MB"
    with pytest.raises(ConfigError, match="not a size"):
        check_stage_memory("lots")


def test_online_batches_need_the_split_first(tmp_path: Path) -> None:
    sink = ImportSink(tmp_path / "stage.duckdb", STAGE_MEMORY)
    try:
        with pytest.raises(RuntimeError, match="write_csv"):
            next(sink.online_batches(10))
    finally:
        sink.close()


def test_the_stage_memory_is_a_bulk_option(tmp_path: Path) -> None:
    """--stage-memory without --bulk is a usage error, before any graph is opened."""
    record = tmp_path / "r.jsonl"
    record.write_text("", encoding="utf-8")
    result = CliRunner().invoke(main, ["load", "--stage-memory", "1GB", str(record)])
    assert result.exit_code == 2
    assert "--stage-memory sizes bulk mode's staging store: add --bulk" in result.output


def test_rows_appended_batch_by_batch_or_together_give_the_same_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stage gathers rows over batches before it appends them to DuckDB: appending after
    every batch gives the same import files and the same online records, each read back
    whole from the records file as it was staged."""
    shared = PaperRef(arxiv_id="2101.00009")
    papers = [
        _paper("2101.00001", 1, title="One", authors=("Ann Lee",), topics=("x",)),
        _paper("2101.00002", 2, title="Two", extra={"note": "n"}),
        _paper("2101.00002", 3, title="Two again", abstract=TRICKY),
        _paper("2101.00003", 4, title="Three", primary_category="hep-th"),
    ]
    citations = [
        _cite("2101.00001", shared, 1),
        _cite("2101.00003", shared, 2),
        _cite("2101.00001", PaperRef(arxiv_id="2101.00005", title="Five"), 3),
        _cite("2101.00003", "2101.00002", 4),
    ]
    batches = [
        Batch(papers=papers[:2], citations=citations[:2]),
        Batch(papers=papers[2:], citations=citations[2:]),
    ]
    (tmp_path / "together").mkdir()
    (tmp_path / "apart").mkdir()
    together = _stage(tmp_path / "together", batches)
    monkeypatch.setattr("kg.load.import_sink._APPEND_ROWS", 1)
    apart = _stage(tmp_path / "apart", batches)
    files, twins = together[0], apart[0]
    assert (files.node_counts, files.relationship_counts) == (
        twins.node_counts,
        twins.relationship_counts,
    )
    for path, twin in zip(
        [p for paths in (*files.nodes.values(), *files.relationships.values()) for p in paths],
        [p for paths in (*twins.nodes.values(), *twins.relationships.values()) for p in paths],
        strict=True,
    ):
        assert sorted(_rows(path)) == sorted(_rows(twin)), path.name
    assert (
        together[1]
        == apart[1]
        == [
            "paper 2101.00002 2",
            "paper 2101.00002 3",
            "cites 2101.00001 2101.00005 s1",
            "cites 2101.00003 2101.00002 s1",
        ]
    )

    sink = ImportSink(tmp_path / "read-back.duckdb", STAGE_MEMORY)
    try:
        sink.write_snapshot(
            SnapshotRecord(key="s1", kind="edge_list", source="s1.txt", sha256="0" * 64)
        )
        for batch in batches:
            sink.write_batch(batch)
        sink.write_csv(tmp_path / "read-back")
        back = list(sink.online_batches(10))
    finally:
        sink.close()
    assert back[0].papers == [papers[1], papers[2]]
    assert back[0].citations[0] == citations[2]


@pytest.mark.parametrize("append_rows", [1, 32_768])
def test_an_edge_lists_chunks_stage_as_its_citation_records_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, append_rows: int
) -> None:
    """An edge list's citations staged in columns (EdgeChunk, bulk mode's parse) give the
    same import files and the same online records as the same citations staged as records:
    an edge stated once between plain papers imported, one stated twice (in two snapshots)
    online, in the order read."""
    monkeypatch.setattr("kg.load.import_sink._APPEND_ROWS", append_rows)
    papers = [_paper("2101.00001", 1, title="One"), _paper("2101.00002", 2, title="Two")]
    pairs = [
        ("2101.00001", "2101.00009", "s1"),
        ("2101.00009", "2101.00001", "s1"),
        ("2101.00003", "2101.00002", "s1"),
        ("2101.00009", "2101.00001", "s2"),
        ("hep-th/9901001", "2101.00001", "s2"),
    ]

    def record(line: int, citing: str, cited: str, snapshot: str) -> CitationRecord:
        cite = _cite(citing, cited, line, snapshot)
        return cite.model_copy(update={"as_of": None})  # an edge list's citations are undated

    as_records = [
        Batch(papers=papers),
        Batch(citations=[record(n, *pair) for n, pair in enumerate(pairs[:3], 1)]),
        Batch(citations=[record(n, *pair) for n, pair in enumerate(pairs[3:], 1)]),
    ]
    in_columns: list[Batch | EdgeChunk] = [
        Batch(papers=papers),
        EdgeChunk("s1", [c for c, _, _ in pairs[:2]], [c for _, c, _ in pairs[:2]]),
        EdgeChunk("s1", [pairs[2][0]], [pairs[2][1]]),
        EdgeChunk("s2", [c for c, _, _ in pairs[3:]], [c for _, c, _ in pairs[3:]]),
    ]
    (tmp_path / "records").mkdir()
    (tmp_path / "columns").mkdir()
    files, online, _ = _stage(tmp_path / "records", as_records)
    twins, online_twin, _ = _stage(tmp_path / "columns", in_columns)
    assert (
        online
        == online_twin
        == [
            "cites 2101.00009 2101.00001 s1",
            "cites 2101.00009 2101.00001 s2",
        ]
    )
    assert (files.node_counts, files.relationship_counts) == (
        twins.node_counts,
        twins.relationship_counts,
    )
    assert files.relationship_counts["CITES"] == 3
    for path, twin in zip(
        [p for paths in (*files.nodes.values(), *files.relationships.values()) for p in paths],
        [p for paths in (*twins.nodes.values(), *twins.relationships.values()) for p in paths],
        strict=True,
    ):
        assert sorted(_rows(path)) == sorted(_rows(twin)), path.name


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    groups=st.lists(
        st.lists(
            st.one_of(st.text(max_size=300), st.binary(max_size=300), st.integers()),
            max_size=12,
        ),
        min_size=1,
        max_size=8,
    ),
    seed=st.randoms(use_true_random=False),
)
def test_the_records_file_gives_back_each_record_in_any_order(
    tmp_path_factory: pytest.TempPathFactory, groups: list[list[object]], seed: Random
) -> None:
    """Records kept in frames (one a flush, any size, some empty) read back whole by their
    offsets, in the online writer's order or any other, before or after their flush."""
    records = _Records(tmp_path_factory.mktemp("records") / "stage.records")
    try:
        kept: list[tuple[int, object]] = []
        for group in groups:
            for value in group:
                kept.append((records.add_pickled(pickle.dumps(value)), value))
            if kept and seed.random() < 0.3:  # one read before the flush
                at, value = seed.choice(kept)
                assert records.read(at) == value
            records.flush()
        assert [records.read(at) for at, _ in kept] == [value for _, value in kept]
        seed.shuffle(kept)
        assert [records.read(at) for at, _ in kept] == [value for _, value in kept]
    finally:
        records.close()


def test_the_records_file_is_compressed(tmp_path: Path) -> None:
    """A block of records alike (as a snapshot's are) takes far less than its pickles."""
    records = _Records(tmp_path / "stage.records")
    try:
        offsets = [
            records.add(_paper(f"2101.{n:05d}", n, title=f"On the {n}th gauge field"))
            for n in range(1, 1001)
        ]
        records.flush()
        assert records.file.tell() * 3 < records.size
        assert records.read(offsets[500]).arxiv_id == "2101.00501"
    finally:
        records.close()
