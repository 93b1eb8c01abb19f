"""A folder loads file by file: one file that cannot be read or recognised is reported as
`file: reason` and counted as failed, and every other file still loads (exit code 1). A file
named on the command line that cannot be recognised stops the load before anything is written.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
import tempfile
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.answers.loads import FileSummary, LoadSummary
from kg.cli import main
from kg.database import Database
from kg.errors import SourceError
from kg.knowledge_graph import KnowledgeGraph
from kg.load.neo4j_sink import GraphWriter
from kg.load.pipeline import (
    RejectsFile,
    load_stream,
)
from kg.server.config import Connection
from loaders.formats import parse_file
from loaders.records import ParsedItem
from tests.streams import stream_settings


def _arxiv_line(arxiv_id: str, title: str) -> str:
    return (
        json.dumps(
            {
                "id": arxiv_id,
                "title": title,
                "authors": "A. Author",
                "categories": "hep-th",
                "abstract": "A record for the test.",
                "versions": [{"version": "v1", "created": "Mon, 6 Jan 1997 00:00:00 GMT"}],
                "update_date": "2008-02-03",
            }
        )
        + "\n"
    )


def _keys(graph: Database) -> list[str]:
    return [row["key"] for row in graph.read("MATCH (p:Paper) RETURN p.key AS key ORDER BY key")]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """a_papers.jsonl (2 papers), b_bad.bin (binary), c_edges.csv (2 citations)."""
    root = tmp_path / "inputs"
    root.mkdir()
    (root / "a_papers.jsonl").write_text(
        _arxiv_line("hep-th/9701001", "First") + _arxiv_line("hep-th/9701002", "Second"),
        encoding="utf-8",
    )
    (root / "b_bad.bin").write_bytes(bytes(range(256)) * 4)
    (root / "c_edges.csv").write_text(
        "citing,cited\nhep-th/9701003,hep-th/9701001\nhep-th/9701003,hep-th/9701002\n",
        encoding="utf-8",
    )
    return root


ALL_KEYS = ["hep-th/9701001", "hep-th/9701002", "hep-th/9701003"]


def test_one_bad_file_in_a_folder_fails_alone(
    graph: Database, kg_env: Connection, folder: Path, tmp_path: Path
) -> None:
    bad = folder / "b_bad.bin"
    result = CliRunner().invoke(main, ["load", str(folder), "--rejects", str(tmp_path / "r")])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"{bad}: cannot tell its format (" in result.stderr
    assert "1 of 3 files failed" in result.stdout
    assert "The other files loaded" in result.stdout
    assert _keys(graph) == ALL_KEYS
    assert graph.read("MATCH ()-[r:CITES]->() RETURN count(r) AS n") == [{"n": 2}]


def test_the_json_summary_names_the_failed_file(
    graph: Database, kg_env: Connection, folder: Path, tmp_path: Path
) -> None:
    bad = folder / "b_bad.bin"
    result = CliRunner().invoke(
        main, ["load", str(folder), "--json", "--rejects", str(tmp_path / "r")]
    )
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    [failed] = report["failed"]
    assert failed["file"] == str(bad)
    assert failed["reason"].startswith("cannot tell its format (")
    by_path = {entry["path"]: entry for entry in report["files"]}
    assert by_path[str(bad)]["error"] == failed["reason"]
    assert by_path[str(bad)]["format"] == "unknown"
    assert (
        by_path[str(folder / "a_papers.jsonl")] | {"error": None}
        == by_path[str(folder / "a_papers.jsonl")]
    )
    assert by_path[str(folder / "a_papers.jsonl")]["papers"] == 2
    assert by_path[str(folder / "c_edges.csv")]["citations"] == 2
    assert report["rejected"] == 0
    assert _keys(graph) == ALL_KEYS


def test_a_truncated_gzip_in_a_folder_fails_alone(graph: Database, tmp_path: Path) -> None:
    root = tmp_path / "inputs"
    root.mkdir()
    lines = "".join(_arxiv_line(f"hep-th/97{i:05d}", f"Paper {i}") for i in range(1, 3001))
    whole = gzip.compress(lines.encode())
    (root / "a_cut.jsonl.gz").write_bytes(whole[: len(whole) * 2 // 3])
    (root / "b_papers.jsonl").write_text(_arxiv_line("hep-th/9801001", "Other"), encoding="utf-8")
    summary = KnowledgeGraph.on(graph).load(
        [root], batch_size=700, rejects_path=tmp_path / "r.jsonl"
    )
    assert summary.failed_messages() == [
        f"{root / 'a_cut.jsonl.gz'}: cannot read it (Compressed file ended before the "
        "end-of-stream marker was reached). Check the file"
    ]
    assert "hep-th/9801001" in _keys(graph)


def test_a_corrupt_gzip_in_a_folder_fails_alone(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    root = tmp_path / "inputs"
    root.mkdir()
    lines = "".join(_arxiv_line(f"hep-th/97{i:05d}", f"Paper {i}") for i in range(1, 3001))
    # The first half decompresses; then a deflate block of the reserved type 3.
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    half = deflate.compress(lines.encode()[: len(lines) // 2]) + deflate.flush(zlib.Z_FULL_FLUSH)
    corrupt = root / "a_corrupt.jsonl.gz"
    corrupt.write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + half + b"\x07" + bytes(64))
    (root / "b_papers.jsonl").write_text(_arxiv_line("hep-th/9801001", "Other"), encoding="utf-8")
    result = CliRunner().invoke(main, ["load", str(root), "--rejects", str(tmp_path / "r")])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert f"{corrupt}: cannot read it: corrupt gzip data (" in result.stderr
    assert "1 of 2 files failed" in result.stdout
    assert _keys(graph) == ["hep-th/9801001"]


def _break_after(items: Iterator[ParsedItem], count: int, path: Path) -> Iterator[ParsedItem]:
    for read, item in enumerate(items):
        if read == count:
            raise SourceError(f"{path}: cannot read it (Input/output error)", "check the file")
        yield item


def test_a_file_that_breaks_off_mid_way_keeps_what_it_gave(graph: Database, tmp_path: Path) -> None:
    source = tmp_path / "papers.jsonl"
    source.write_text(
        "".join(_arxiv_line(f"hep-th/97{i:05d}", f"Paper {i}") for i in range(1, 101)),
        encoding="utf-8",
    )
    summary = LoadSummary()
    file_summary = FileSummary(str(source), "arxiv_oai")
    writer = GraphWriter(graph)
    # The snapshot, then 57 papers: two batches of 25 and a partial one of 7 when it breaks.
    items = _break_after(parse_file(source, "arxiv_oai"), 58, source)
    with pytest.raises(SourceError, match="Input/output error"):
        load_stream(
            writer,
            items,
            file_summary,
            summary,
            RejectsFile(tmp_path / "r"),
            stream_settings(batch_size=25),
        )
    assert file_summary.papers == summary.written == 57
    assert len(_keys(graph)) == 57


def test_a_named_file_that_cannot_be_recognised_stops_the_load(
    graph: Database, kg_env: Connection, folder: Path, tmp_path: Path
) -> None:
    bad = folder / "b_bad.bin"
    result = CliRunner().invoke(
        main,
        ["load", str(folder / "a_papers.jsonl"), str(bad), "--rejects", str(tmp_path / "r")],
    )
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {bad}: cannot tell its format (")
    assert "Traceback" not in result.output
    assert _keys(graph) == []


def test_strict_stops_at_a_bad_file_in_a_folder(
    graph: Database, folder: Path, tmp_path: Path
) -> None:
    with pytest.raises(SourceError, match=r"b_bad\.bin: cannot tell its format"):
        KnowledgeGraph.on(graph).load([folder], strict=True, rejects_path=tmp_path / "r.jsonl")
    assert _keys(graph) == []


def test_links_that_lead_nowhere(graph: Database, folder: Path, tmp_path: Path) -> None:
    loop = folder / "d_loop.csv"
    loop.symlink_to(loop)
    summary = KnowledgeGraph.on(graph).load([folder], rejects_path=tmp_path / "r.jsonl")
    bad, looped = summary.failed_messages()
    assert bad.startswith(f"{folder / 'b_bad.bin'}: cannot tell its format (")
    assert looped == (
        f"{loop}: a symbolic link that leads nowhere (a loop, or a missing target). "
        "Point the link at a file, or remove it"
    )
    assert _keys(graph) == ALL_KEYS
    with pytest.raises(SourceError, match="a symbolic link that leads nowhere"):
        KnowledgeGraph.on(graph).load([loop], rejects_path=tmp_path / "r.jsonl")


def test_standard_input_loads_as_the_same_file_would(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """`kg load -` reads standard input (a stream is read once; a load reads its input to
    tell the format, to hash it and to parse it, so it loads a copy)."""
    data = _arxiv_line("hep-th/9701001", "First") + _arxiv_line("hep-th/9701002", "Second")
    result = CliRunner().invoke(
        main, ["load", "-", "--json", "--rejects", str(tmp_path / "r")], input=data
    )
    assert result.exit_code == 0, result.output
    piped = json.loads(result.output)
    assert [(f["path"], f["format"]) for f in piped["files"]] == [("-", "arxiv_oai")]
    assert _keys(graph) == ["hep-th/9701001", "hep-th/9701002"]
    # The same bytes from a file are the same snapshot: loaded whole before, so unchanged
    file = tmp_path / "papers.jsonl"
    file.write_text(data)
    again = KnowledgeGraph.on(graph).load([file], rejects_path=tmp_path / "r.jsonl")
    assert [f.unchanged for f in again.files] == [True]


def test_a_named_pipe_loads_and_its_copy_goes(
    graph: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipe = tmp_path / "papers.pipe"
    os.mkfifo(pipe)
    data = _arxiv_line("hep-th/9701003", "Third")

    def feed() -> None:
        with pipe.open("w") as out:
            out.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))
    summary = KnowledgeGraph.on(graph).load([pipe], rejects_path=tmp_path / "r.jsonl")
    writer.join(timeout=10)
    assert [(f.path, f.format, f.papers) for f in summary.files] == [(str(pipe), "arxiv_oai", 1)]
    assert _keys(graph) == ["hep-th/9701003"]
    assert list(spool.iterdir()) == []


def test_a_device_or_a_terminal_is_not_an_input(
    graph: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SourceError, match=r"^/dev/null: a device or socket, not a file"):
        KnowledgeGraph.on(graph).load([Path("/dev/null")], rejects_path=tmp_path / "r.jsonl")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    with pytest.raises(SourceError, match=r"standard input is a terminal"):
        KnowledgeGraph.on(graph).load([Path("-")], rejects_path=tmp_path / "r.jsonl")
    assert _keys(graph) == []


def test_a_graph_with_files_of_an_older_kg_says_to_rebuild_it(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """kg 0.7.0 normalises titles by other rules than 0.6.0 (symbols, sub- and superscripts),
    and kg 0.8.0 takes apart papers that hold keys with records of their own, from copies
    0.7.0 did not keep: a load into a graph with files an older kg loaded says to rebuild
    it."""
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    first.write_text(_arxiv_line("hep-th/9701001", "First"))
    second.write_text(_arxiv_line("hep-th/9701002", "Second"))
    assert KnowledgeGraph.on(graph).load([first], rejects_path=tmp_path / "r.jsonl").built_by == []
    graph.write("MATCH (s:Snapshot) SET s.loaded_by = 'kg 0.6.0'")
    summary = KnowledgeGraph.on(graph).load([second], rejects_path=tmp_path / "r.jsonl")
    assert summary.built_by == ["kg 0.6.0"]
    result = CliRunner().invoke(
        main, ["load", str(second), "--force", "--rejects", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    assert "files loaded by kg 0.6.0, whose identity rules differ" in " ".join(
        result.output.split()
    )
    # a kg of these rules, or a newer one: nothing to rebuild
    graph.write("MATCH (s:Snapshot) SET s.loaded_by = 'kg 0.10.1'")
    assert (
        KnowledgeGraph.on(graph)
        .load([first], rejects_path=tmp_path / "r.jsonl", force=True)
        .built_by
        == []
    )
