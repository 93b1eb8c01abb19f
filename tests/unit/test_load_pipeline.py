"""The load pipeline and its row building, with no server: the per-file loop feeds the bulk
import sink (a scratch DuckDB stage), whose import files say what the graph would hold."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import pytest

from kg.answers.loads import LoadSummary
from kg.errors import RecordRejected, SourceError
from kg.knowledge_graph import STAGE_MEMORY
from kg.load.import_sink import ImportFiles, ImportSink
from kg.load.pipeline import (
    RejectsFile,
    input_files,
    input_format,
    load_files,
)
from kg.load.rows import (
    Batch,
    author_names,
    newest_per_key,
    paper_row,
    record_order,
    touched_titles,
)
from loaders.detect import detect_format
from loaders.records import CitationRecord, Origin, PaperRecord, PaperRef, SnapshotRecord
from tests.streams import stream_settings

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_MAP = REPO / "examples" / "map"
FIXTURES = REPO / "tests" / "fixtures"


def load_offline(
    paths: list[Path], tmp_path: Path, name: str = "run", **options: object
) -> tuple[LoadSummary, ImportFiles, Path, list[str]]:
    """Run the pipeline over ``paths`` into an ImportSink; return the summary, the import
    files, the folder of the CSVs and what goes to the online writer (one line a record)."""
    folder = tmp_path / name
    folder.mkdir()
    stream = stream_settings(**options)
    inputs = input_files(paths)
    formats = [input_format(item, "auto", stream.strict) for item in inputs]
    summary = LoadSummary()
    rejects = RejectsFile(folder / "rejects.jsonl")
    sink = ImportSink(folder / "stage.duckdb", STAGE_MEMORY)
    try:
        load_files(sink, inputs, formats, summary, rejects, stream)
        files = sink.write_csv(folder / "csv")
        online = online_lines(sink)
    finally:
        sink.close()
        rejects.close()
    return summary, files, folder / "csv", online


def online_lines(sink: ImportSink) -> list[str]:
    """What the sink hands the online writer, one sorted line a record."""
    lines = []
    for batch in sink.online_batches(3):
        lines += [f"paper {r.key} {r.snapshot} {r.origin.line}" for r in batch.papers]
        lines += [f"cites {c.citing.key} {c.cited.key} {c.snapshot}" for c in batch.citations]
    return sorted(lines)


def paper_keys(csv_folder: Path) -> set[str]:
    with (csv_folder / "papers.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    column = next(i for i, name in enumerate(rows[0]) if name.startswith("key"))
    return {row[column] for row in rows[1:]}


def test_the_example_map_gives_the_same_graph_at_every_batch_size(tmp_path: Path) -> None:
    results = [
        load_offline([EXAMPLE_MAP], tmp_path, f"batch{size}", batch_size=size)
        for size in (1, 7, 2000)
    ]
    summary, files, csv_folder, online = results[0]
    assert [Path(f.path).name for f in summary.files] == sorted(
        p.name for p in EXAMPLE_MAP.iterdir() if p.name != "README.md"
    )
    assert sum(f.papers for f in summary.files) >= 5
    assert sum(f.citations for f in summary.files) > 20
    assert files.node_counts["Paper"] == len(paper_keys(csv_folder))
    # Pages name most papers by title and year: those references go to the online writer.
    assert sum(line.startswith("cites ") for line in online) > 20
    for other_summary, other_files, other_csv, other_online in results[1:]:
        assert other_files.node_counts == files.node_counts
        assert other_files.relationship_counts == files.relationship_counts
        assert paper_keys(other_csv) == paper_keys(csv_folder)
        assert other_online == online
        assert [f.papers for f in other_summary.files] == [f.papers for f in summary.files]


def test_a_file_named_twice_is_read_once(tmp_path: Path) -> None:
    page = EXAMPLE_MAP / "bert.txt"
    _, files_once, _, online_once = load_offline([page], tmp_path, "once")
    twice, files_twice, _, online_twice = load_offline([page, page], tmp_path, "twice")
    assert [f.unchanged for f in twice.files] == [False, True]
    assert twice.files[1].read == 0
    assert files_twice.node_counts == files_once.node_counts
    assert files_twice.relationship_counts == files_once.relationship_counts
    assert online_twice == online_once


def test_an_unreadable_file_in_a_folder_fails_alone(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a_page.txt").write_bytes((EXAMPLE_MAP / "t5.txt").read_bytes())
    (folder / "b_bad.bin").write_bytes(b"\x00\x01 not any format \xff" * 20)
    summary, _, _, online = load_offline([folder], tmp_path)
    assert [(Path(f.path).name, f.error is None) for f in summary.files] == [
        ("a_page.txt", True),
        ("b_bad.bin", False),
    ]
    assert "cannot tell its format" in (summary.files[1].error or "")
    assert len(online) > 1
    with pytest.raises(SourceError, match="cannot tell its format"):
        load_offline([folder], tmp_path, "strict", strict=True)


def test_abs_files_in_a_folder_do_not_hide_the_other_files(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    for page in EXAMPLE_MAP.iterdir():
        (folder / page.name).write_bytes(page.read_bytes())
    (folder / "sub" / "listing.abs").write_bytes((FIXTURES / "abs" / "listing.abs").read_bytes())
    summary, _, csv_folder, online = load_offline([folder], tmp_path)
    # The .abs files are one input, the folder; every other file loads by its own format.
    assert [(Path(f.path).name, f.format) for f in summary.files] == [
        ("in", "hepth_abs"),
        *((p.name, detect_format(p)) for p in sorted(EXAMPLE_MAP.iterdir()) if p.suffix != ".md"),
    ]
    assert all(f.error is None and f.papers for f in summary.files)
    assert "hep-th/9312112" in paper_keys(csv_folder)
    assert any(line.startswith("paper 1810.04805 ") for line in online)  # bert.txt's paper


def test_bad_records_go_to_the_rejects_file_and_the_rest_load(tmp_path: Path) -> None:
    source = FIXTURES / "arxiv" / "malformed.jsonl"
    summary, files, csv_folder, _ = load_offline([source], tmp_path)
    rejects = (tmp_path / "run" / "rejects.jsonl").read_text(encoding="utf-8").splitlines()
    (only,) = summary.files
    assert only.rejected == len(rejects) > 3
    assert only.papers == files.node_counts["Paper"] >= 1
    assert "0704.0002" in paper_keys(csv_folder)
    assert all(f'"file": "{source}"' in line for line in rejects)
    with pytest.raises(RecordRejected, match=r"malformed\.jsonl:2:"):
        load_offline([source], tmp_path, "strict", strict=True)


def _paper(key: str, as_of: date, line: int, **fields: object) -> PaperRecord:
    return PaperRecord(
        arxiv_id=key,
        origin=Origin(path="p.jsonl", line=line),
        snapshot="snap",
        as_of=as_of,
        **fields,  # type: ignore[arg-type]
    )


def test_rows_apply_oldest_first_and_a_whole_list_comes_from_the_newest() -> None:
    newer = _paper("2101.00001", date(2024, 1, 1), 1, title="New", authors=("A", "B"))
    older = _paper("2101.00001", date(2020, 1, 1), 2, title="Old", authors=("C",))
    ordered = sorted([newer, older], key=record_order)
    assert [p.title for p in ordered] == ["Old", "New"]
    rows = [{"key": p.key, "authors": list(p.authors)} for p in ordered]
    assert newest_per_key(rows) == [{"key": "2101.00001", "authors": ["A", "B"]}]


def test_a_paper_row_carries_the_normalised_title_and_the_histogram_in_year_order() -> None:
    record = _paper(
        "arXiv:2101.00002v3",
        date(2024, 1, 1),
        1,
        title="On $\\Gamma$-Convergence",
        histogram={2023: 4, 2021: 1},
    )
    row = paper_row(record, record.key)
    assert row["arxiv_id"] == "2101.00002"
    assert row["norm_title"] == "on γ convergence"
    assert row["histogram_years"] == [2021, 2023]
    assert row["histogram_counts"] == [1, 4]
    assert row["as_of"].startswith("2024-01-01|")


def test_touched_titles_tell_title_only_papers_from_all() -> None:
    origin = Origin(path="p.txt", line=1)
    batch = Batch(
        papers=[_paper("2101.00003", date(2024, 1, 1), 1, title="Known By Id")],
        citations=[
            CitationRecord(
                origin=origin,
                snapshot="snap",
                citing=PaperRef(arxiv_id="2101.00003", title="Known By Id"),
                cited=PaperRef(title="Only A Title", year=2017),
            )
        ],
    )
    title_only, every = touched_titles(batch)
    assert title_only == ["only a title"]
    assert every == ["known by id", "only a title"]


def _cite(citing: PaperRef, cited: PaperRef, snapshot: str, line: int) -> CitationRecord:
    return CitationRecord(
        origin=Origin(path=f"{snapshot}.txt", line=line),
        snapshot=snapshot,
        as_of=date(2024, 1, 1),
        citing=citing,
        cited=cited,
    )


def test_the_import_takes_only_what_no_rule_touches(tmp_path: Path) -> None:
    """One record and plain references are imported; a second record, a title-only or
    richer reference, an author named twice in one list or an edge stated twice goes online;
    an author spelled two ways is imported, and the online writer gets every spelling."""
    sink = ImportSink(tmp_path / "stage.duckdb", STAGE_MEMORY)
    for name in ("s1", "s2"):
        sink.write_snapshot(
            SnapshotRecord(key=name, kind="edge_list", source=f"{name}.txt", sha256="0" * 64)
        )
    alone = _paper("2101.00001", date(2024, 1, 1), 1, title="Alone", authors=("Ann Lee",))
    twice = _paper("2101.00002", date(2024, 1, 1), 2, title="Twice")
    twice_again = _paper("2101.00002", date(2023, 1, 1), 3, title="Twice, older")
    spelled = _paper("2101.00003", date(2024, 1, 1), 4, title="Spelled", authors=("Bo Li",))
    spelled_again = _paper("2101.00004", date(2024, 1, 1), 5, title="Again", authors=("bo li",))
    named_twice = _paper("2101.00007", date(2024, 1, 1), 6, title="X", authors=("Al", "Al"))
    plain = [PaperRef(arxiv_id=f"2101.0000{i}") for i in range(1, 7)]
    titled = PaperRef(title="Deep Learning", year=2015)
    richer = PaperRef(arxiv_id="2101.00006", title="Named with a title")
    sink.write_batch(Batch(papers=[alone, twice, spelled]))
    sink.write_batch(
        Batch(
            papers=[twice_again, spelled_again, named_twice],
            citations=[
                _cite(plain[0], plain[4], "s1", 1),  # alone -> a plain stub: imported
                _cite(plain[0], plain[1], "s1", 2),  # to a paper with two records: online
                _cite(plain[0], titled, "s1", 3),  # title-only: online
                _cite(plain[4], richer, "s1", 4),  # a richer reference: online
                _cite(plain[0], plain[5], "s1", 5),  # plain, but to the richly named paper
                _cite(plain[4], plain[0], "s1", 6),  # stated twice: online
                _cite(plain[4], plain[0], "s2", 7),
            ],
        )
    )
    files = sink.write_csv(tmp_path / "csv")
    online = online_lines(sink)
    spellings = list(sink.author_spellings(chunk=1))
    sink.close()
    assert paper_keys(tmp_path / "csv") == {"2101.00001", "2101.00003", "2101.00004", "2101.00005"}
    assert files.relationship_counts["CITES"] == 1
    assert files.relationship_counts["AUTHORED"] == 3
    assert files.node_counts["Author"] == 3  # ann lee, bo li, al
    assert spellings == [
        [{"key": "bo li", "name": "Bo Li", "norm_name": "bo li"}],
        [{"key": "bo li", "name": "bo li", "norm_name": "bo li"}],
    ]
    assert online == sorted(
        [
            "paper 2101.00002 snap 2",
            "paper 2101.00002 snap 3",
            "paper 2101.00007 snap 6",
            "cites 2101.00001 2101.00002 s1",
            f"cites 2101.00001 {titled.key} s1",
            "cites 2101.00005 2101.00006 s1",
            "cites 2101.00001 2101.00006 s1",
            "cites 2101.00005 2101.00001 s1",
            "cites 2101.00005 2101.00001 s2",
        ]
    )


def test_the_writer_sends_every_spelling_and_leaves_the_choice_to_the_statement() -> None:
    """Which spelling names an author is author_names.cypher's rule alone (written once):
    the writer sends each spelling the records give once, sorted, whatever their order."""
    records = [
        _paper("2101.00001", date(2024, 1, 1), 1, authors=("A.H. Bougourzi", "Al")),
        _paper("2101.00002", date(2024, 1, 1), 2, authors=("A. H. Bougourzi", "A.H. Bougourzi")),
    ]
    rows = [
        {"key": "a. h. bougourzi", "name": "A. H. Bougourzi", "norm_name": "a. h. bougourzi"},
        {"key": "a. h. bougourzi", "name": "A.H. Bougourzi", "norm_name": "a. h. bougourzi"},
        {"key": "al", "name": "Al", "norm_name": "al"},
    ]
    assert author_names(records) == rows
    assert author_names(reversed(records)) == rows


def test_a_snapshot_folder_loads_its_parts_and_not_its_manifest(tmp_path: Path) -> None:
    """An OpenAlex snapshot folder: `data/works/manifest` lists the part files and holds no
    work, so a load of the folder reads the parts and leaves the manifest out."""
    works = tmp_path / "data" / "works"
    part = works / "updated_date=2024-01-01" / "part_000.gz"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"")
    (works / "manifest").write_text('{"entries": [], "meta": {"content_length": 0}}\n')
    (works / "README.txt").write_text("about the snapshot\n")
    assert [item.path for item in input_files([tmp_path])] == [part]
