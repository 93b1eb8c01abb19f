"""Bulk mode's stage in worker processes (kg.load.stage_workers): an arXiv snapshot staged a
block of lines at a time in other processes gives the stage, the import CSVs, the online
part, the counts and the rejects of the stage in the loader's own process, for any lines
and blocks; a worker that dies or raises is an error, never a silent gap."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.answers.loads import LoadSummary
from kg.cli import main
from kg.errors import ParameterError, SourceError, StageWorkerFailed
from kg.knowledge_graph import STAGE_MEMORY, KnowledgeGraph
from kg.load.import_sink import ImportSink
from kg.load.pipeline import RejectsFile, input_files, input_format, load_files
from kg.load.stage_sql import PARQUET_TABLES
from kg.load.stage_workers import StageWorkers
from loaders import arxiv_oai, source_file
from loaders.records import ParsedItem
from loaders.source_file import LongLine
from tests.streams import stream_settings

# The tables the split reads, and what it made of them for the online writer
_TABLES = (*PARQUET_TABLES, "rich_cites", "online_keys", "online_cites")


def _stage(path: Path, folder: Path, workers: int, strict: bool = False) -> dict[str, Any]:
    """Stage ``path`` as bulk mode does, with ``workers`` processes for any file size; return
    everything the rest of a bulk load reads from the stage, and the load's counts. Asserts
    that the workers staged it when there are two or more."""
    folder.mkdir()
    progress: list[int] = []
    stream = stream_settings(
        id_scheme="arxiv", strict=strict, keep_messages=100, on_progress=progress.append
    )
    inputs = input_files([path])
    formats = [input_format(item, "arxiv_oai", stream.strict) for item in inputs]
    rejects = RejectsFile(folder / "rejects.jsonl")
    sink = ImportSink(folder / "stage.duckdb", "64MB", workers, parallel_bytes=0)
    summary = LoadSummary()
    staged = mock.patch.object(StageWorkers, "staged", autospec=True, side_effect=_STAGED)
    try:
        with staged as through_workers:
            load_files(sink, inputs, formats, summary, rejects, stream)
        assert through_workers.called == (workers > 1)
        sink.write_csv(folder / "csv")
        found: dict[str, Any] = {table: _rows(sink, table) for table in _TABLES}
        found["online"] = [
            (repr(batch.papers), repr(batch.citations)) for batch in sink.online_batches(3)
        ]
        found["snapshots_kept"] = [repr(snapshot) for snapshot in sink.snapshots]
        found["marked"] = list(sink.marked)
    finally:
        sink.close()
        rejects.close()
    found["csv"] = {
        csv.name: sorted(csv.read_text(encoding="utf-8").splitlines())
        for csv in sorted((folder / "csv").iterdir())
    }
    found["files"] = [
        (f.read, f.papers, f.citations, f.rejected, f.snapshot, f.error, dict(f.skipped))
        for f in summary.files
    ]
    found["written"] = summary.written
    found["progress"] = sum(progress)
    found["messages"] = summary.reject_messages
    kept = folder / "rejects.jsonl"  # written once there is one
    found["rejects"] = kept.read_text(encoding="utf-8") if kept.exists() else None
    return found


_STAGED = StageWorkers.staged


def _rows(sink: ImportSink, table: str) -> list[str]:
    """A stage table's rows, sorted; names as a set (each spelling is kept once a batch or
    a block, and the split reads them as a set)."""
    distinct = "DISTINCT " if table == "names" else ""
    query = f"SELECT {distinct}* FROM {table}"  # noqa: S608 - the stage's own table names
    return sorted(map(repr, sink.db.execute(query).fetchall()))


def _record(number: int, variant: int) -> bytes:
    """One arXiv snapshot line: paper 2401.<number>, its fields varied by ``variant``."""
    authors = ["Ada Lovelace", "A. Lovelace", "Émile Borel", "Alan Turing and Kurt Gödel"]
    categories = ["cs.LG", "cs.LG stat.ML", "hep-th cs.LG hep-th", "math.PR"]
    obj: dict[str, Any] = {
        "id": f"2401.{number:05d}",
        "title": f"Paper {number} of $\\alpha$-maps, take {variant}",
        "authors": authors[variant % len(authors)],
        "categories": categories[(number + variant) % len(categories)],
        "abstract": f"  We study $x^{variant}$.\n",
        "versions": [
            {"version": "v1", "created": f"Mon, {1 + variant % 27} Jan 2024 10:00:00 GMT"}
        ],
        "update_date": f"2024-02-{1 + (number + variant) % 28:02d}",
        "doi": None if variant % 3 else f"10.1000/x{number}",
    }
    if variant % 5 == 4:
        obj["journal-ref"] = "J. Maps; 1 (2024)"
    return json.dumps(obj, ensure_ascii=variant % 2 == 0).encode()


_LINE = st.one_of(
    st.builds(_record, st.integers(1, 12), st.integers(0, 19)),
    st.sampled_from(
        [
            b"",  # blank
            b"   ",
            b"{not json",
            b'{"id": "not an id"}',
            b'{"id": "2401.00001", "title": "Caf\xe9 au lait", "authors": "A. B\xe9"}',  # Latin-1
            b'{"id": "2401.00002", "title": "mixed \xc3\xa9 and \xe9"}',  # mixed bytes
            b"[1, 2]",
        ]
    ),
)


def _stage_both(tmp_path: Path, lines: list[bytes], bom: bool) -> tuple[dict[str, Any], ...]:
    path = tmp_path / "arxiv.jsonl"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + b"\n".join(lines) + b"\n")
    return _stage(path, tmp_path / "one", 1), _stage(path, tmp_path / "two", 2)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(_LINE, max_size=60),
    at=st.integers(0, 60),
    block=st.integers(1, 9),
    bom=st.booleans(),
)
def test_workers_stage_what_the_loader_stages_alone(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], at: int, block: int, bom: bool
) -> None:
    lines.insert(at, _record(13, 0))  # one record at least, so something is staged
    with mock.patch.object(arxiv_oai, "BLOCK_LINES", block):
        alone, workers = _stage_both(tmp_path_factory.mktemp("stage"), lines, bom)
    assert workers == alone
    assert alone["files"][0][1] >= 1


def test_an_over_long_line_is_rejected_in_a_worker_as_alone(tmp_path: Path) -> None:
    lines = [
        _record(1, 0),
        b'{"id": "2401.00003", "title": "' + b"x" * 5_000 + b'"}',
        _record(2, 1),
    ]
    with mock.patch("loaders.source_file.MAX_LINE_LENGTH", 1_000):
        alone, workers = _stage_both(tmp_path, lines, bom=False)
    assert workers == alone
    assert "over the limit" in alone["rejects"]
    assert alone["files"][0][1] == 2  # both good records staged


def test_strict_stops_at_the_first_reject_in_a_block(tmp_path: Path) -> None:
    path = tmp_path / "arxiv.jsonl"
    path.write_bytes(b"\n".join([_record(1, 0), b"{not json", _record(2, 0)]) + b"\n")
    with pytest.raises(Exception, match=r"arxiv\.jsonl:2") as alone:
        _stage(path, tmp_path / "one", 1, strict=True)
    with pytest.raises(type(alone.value), match=r"arxiv\.jsonl:2"):
        _stage(path, tmp_path / "two", 2, strict=True)


def test_small_files_stay_in_the_loaders_process(tmp_path: Path) -> None:
    path = tmp_path / "arxiv.jsonl"
    path.write_bytes(_record(1, 0) + b"\n")
    sink = ImportSink(tmp_path / "stage.duckdb", STAGE_MEMORY, 2, parallel_bytes=1 << 20)
    try:
        assert sink.block_stage(path) is None
        sink.parallel_bytes = path.stat().st_size
        assert sink.block_stage(path) is not None
    finally:
        sink.close()
    alone = ImportSink(tmp_path / "alone.duckdb", STAGE_MEMORY, 1, parallel_bytes=0)
    try:
        assert alone.block_stage(path) is None
    finally:
        alone.close()


def _raises(path: str, snapshot: str, number: int, line: str | LongLine) -> list[ParsedItem]:
    """A LineItems that fails (a stand-in for a bug in a parser)."""
    raise ValueError(f"no parser for line {number}")


def _blocks(count: int) -> Iterator[list[tuple[int, str | LongLine]]]:
    return iter([[(number, "{}")] for number in range(1, count + 1)])


def test_an_exception_in_a_worker_is_raised_in_the_loader() -> None:
    workers = StageWorkers(2)
    try:
        with pytest.raises(ValueError, match="no parser for line 1"):
            list(workers.staged(_raises, "f.jsonl", "s", _blocks(5)))
        # the workers are still there for the next file
        staged = list(workers.staged(arxiv_oai.line_items, "f.jsonl", "s", _blocks(4)))
        assert [len(block) for block in staged] == [1, 1, 1, 1]
    finally:
        workers.close()


def test_a_worker_that_dies_is_an_error_that_says_what_to_do() -> None:
    workers = StageWorkers(1)
    try:
        list(workers.staged(arxiv_oai.line_items, "f.jsonl", "s", _blocks(1)))
        for worker in workers._workers:
            worker.process.kill()
            worker.process.wait()
        with pytest.raises(StageWorkerFailed, match="stopped without its answer") as failed:
            list(workers.staged(arxiv_oai.line_items, "f.jsonl", "s", _blocks(2)))
        assert "--stage-workers 1" in str(failed.value)
    finally:
        workers.close()


def test_stage_workers_is_a_bulk_option_of_at_least_one(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["load", "--stage-workers", "2", str(tmp_path)])
    assert result.exit_code == 2
    assert "--stage-workers sets bulk mode's staging processes: add --bulk" in result.output
    result = CliRunner().invoke(main, ["load", "--bulk", "--stage-workers", "0", str(tmp_path)])
    assert result.exit_code == 2
    assert "stage_workers is 0. Pass a stage_workers from 1 to 256" in result.output
    with pytest.raises(ParameterError, match="stage_workers"):
        KnowledgeGraph.bulk_load([tmp_path], stage_workers=0)


def test_workers_that_cannot_start_say_how_to_stage_without_them(tmp_path: Path) -> None:
    workers = StageWorkers(2)
    try:
        with (
            mock.patch("sys.executable", str(tmp_path / "no-python")),
            pytest.raises(StageWorkerFailed, match="could be started") as failed,
        ):
            list(workers.staged(arxiv_oai.line_items, "f.jsonl", "s", _blocks(1)))
        assert "--stage-workers 1" in str(failed.value)
    finally:
        workers.close()
    sink = ImportSink(tmp_path / "stage.duckdb", STAGE_MEMORY, 2, parallel_bytes=0)
    try:  # a file that is gone is the parser's to report
        assert sink.block_stage(tmp_path / "gone.jsonl") is None
    finally:
        sink.close()


def test_ctrl_c_is_the_loaders_to_handle_not_the_workers() -> None:
    workers = StageWorkers(1)
    try:
        list(workers.staged(arxiv_oai.line_items, "f.jsonl", "s", _blocks(1)))
        processes = [worker.process for worker in workers._workers]
        for process in processes:  # as Ctrl-C reaches the process group
            os.kill(process.pid, signal.SIGINT)
        staged = list(workers.staged(arxiv_oai.line_items, "f.jsonl", "s", _blocks(2)))
        assert [len(block) for block in staged] == [1, 1]
    finally:
        workers.close()
    assert [process.returncode for process in processes] == [0]  # ended by close, cleanly


def test_a_file_that_breaks_off_keeps_what_it_gave_in_workers_as_alone(tmp_path: Path) -> None:
    path = tmp_path / "arxiv.jsonl"
    path.write_bytes(b"\n".join(_record(number, 0) for number in range(1, 26)) + b"\n")
    real = source_file.numbered_lines

    def breaking(*args: Any, **kwargs: Any) -> Iterator[tuple[int, str | LongLine]]:
        for number, line in real(*args, **kwargs):
            if number == 23:
                raise SourceError(f"{path}: the file breaks off", "fetch it again")
            yield number, line

    with (
        mock.patch("loaders.arxiv_oai.numbered_lines", breaking),
        mock.patch.object(arxiv_oai, "BLOCK_LINES", 4),
    ):
        alone, workers = _stage(path, tmp_path / "one", 1), _stage(path, tmp_path / "two", 2)
    assert workers == alone
    assert alone["files"][0][1] == 22  # every line before the break
    assert "breaks off" in alone["files"][0][5]


class _Unrebuilt(Exception):
    """An exception that pickles but does not come back whole (its __init__ takes two)."""

    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} {second}")


def _raises_unrebuilt(
    path: str, snapshot: str, number: int, line: str | LongLine
) -> list[ParsedItem]:
    raise _Unrebuilt("odd", "failure")


def test_a_workers_error_comes_back_with_its_traceback() -> None:
    workers = StageWorkers(1)
    try:
        with pytest.raises(ValueError, match="no parser for line 1") as raised:
            list(workers.staged(_raises, "f.jsonl", "s", _blocks(1)))
        assert "in a worker process of the stage" in "".join(raised.value.__notes__)
        assert "_raises" in "".join(raised.value.__notes__)
        with pytest.raises(RuntimeError, match="_Unrebuilt: odd failure"):
            list(workers.staged(_raises_unrebuilt, "f.jsonl", "s", _blocks(1)))
    finally:
        workers.close()
