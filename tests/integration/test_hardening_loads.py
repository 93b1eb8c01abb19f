"""Hardening of `kg load`, second round (issue 41): what the load reads besides its inputs
is never overwritten by the rejects, standard input is read once, a keep-apart file nested
too deep is refused, a full disk neither tracebacks nor loses valid records, a file name
that is not UTF-8 loads, a file rewritten during its load is not recorded as loaded whole,
and Ctrl-C ends a load with one line and exit code 130.

Each test reproduces the report in its smallest form against the real Neo4j.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import LiteralString

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import clear_database
from kg.server.config import Connection
from tests.arxiv_lines import arxiv_line
from tests.graph_dump import dump_graph
from tests.integration.test_faults import cli_env
from tests.unit.test_server_lock import kg_executable

DEADLINE = 90.0
"""The most any one `kg` process of these tests may take, in seconds."""


def _papers(count: int, version: str = "v1", prefix: str = "2104") -> str:
    """``count`` arXiv lines, every title of one length whatever ``version`` (two
    characters), so two versions of a file have the same size and line offsets."""
    return "".join(
        arxiv_line(
            f"{prefix}.{number:05d}",
            f"Title {version} of paper {number:05d}",
            "Mon, 4 Jan 2021 00:00:00 GMT",
            "2021-01-04",
        )
        for number in range(count)
    )


V2_TITLES: LiteralString = (
    "MATCH (p:Paper) WHERE p.title STARTS WITH 'Title v2' RETURN count(p) AS n"
)


def _count(graph: Database, query: LiteralString = "MATCH (p:Paper) RETURN count(p) AS n") -> int:
    return int(graph.read(query)[0]["n"])


def _one_error(stderr: str) -> str:
    """Assert stderr holds exactly one non-empty line and no traceback; return the line."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


def _run(
    env: dict[str, str],
    args: list[str],
    *,
    stdin: bytes | None = None,
    preexec: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [kg_executable(), *args],
        env=env,
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        check=False,
        preexec_fn=preexec,
    )


# --rejects naming a file the load reads besides its inputs (defect 2)


@pytest.fixture
def older_loaded(graph: Database, tmp_path: Path) -> tuple[Path, Path]:
    """old.jsonl, loaded whole, and new.jsonl: one changed record and one bad line."""
    old = tmp_path / "old.jsonl"
    old.write_text(_papers(3), encoding="utf-8")
    KnowledgeGraph.on(graph).load([old], rejects_path=tmp_path / "first.rejects.jsonl")
    new = tmp_path / "new.jsonl"
    new.write_text(_papers(3, "v2") + "not json\n", encoding="utf-8")
    return old, new


def _as_given(tmp: Path, target: Path) -> Path:
    return target


def _by_another_name(tmp: Path, target: Path) -> Path:
    (tmp / "elsewhere").mkdir()
    return tmp / "elsewhere" / ".." / target.name


def _through_a_link(tmp: Path, target: Path) -> Path:
    link = tmp / "link.jsonl"
    link.symlink_to(target)
    return link


NAMINGS: dict[str, Callable[[Path, Path], Path]] = {
    "as given": _as_given,
    "by another name": _by_another_name,
    "through a link": _through_a_link,
}


@pytest.mark.parametrize("naming", list(NAMINGS))
def test_rejects_naming_the_since_file_is_refused(
    graph: Database,
    kg_env: Connection,
    older_loaded: tuple[Path, Path],
    tmp_path: Path,
    naming: str,
) -> None:
    old, new = older_loaded
    original = old.read_bytes()
    before = dump_graph(graph)
    rejects = NAMINGS[naming](tmp_path, old)
    result = CliRunner().invoke(
        main, ["load", str(new), "--since", str(old), "--rejects", str(rejects)]
    )
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    line = _one_error(result.stderr)
    assert line.startswith(f"Error: the rejects file {rejects} is the older snapshot"), line
    assert "would overwrite it. Name another file for the rejects" in line
    assert old.read_bytes() == original
    assert dump_graph(graph) == before


@pytest.mark.parametrize("naming", list(NAMINGS))
def test_rejects_naming_the_keep_apart_file_is_refused(
    graph: Database, kg_env: Connection, tmp_path: Path, naming: str
) -> None:
    splits = tmp_path / "splits.json"
    splits.write_text(
        json.dumps({"results": [{"split_from": None, "keys": ["2104.00001", "2104.00002"]}]}),
        encoding="utf-8",
    )
    original = splits.read_bytes()
    source = tmp_path / "new.jsonl"
    source.write_text(_papers(3) + "not json\n", encoding="utf-8")
    rejects = NAMINGS[naming](tmp_path, splits)
    result = CliRunner().invoke(
        main, ["load", str(source), "--keep-apart", str(splits), "--rejects", str(rejects)]
    )
    assert result.exit_code == 1, result.output
    line = _one_error(result.stderr)
    assert line.startswith(f"Error: the rejects file {rejects} is the keep-apart file"), line
    assert splits.read_bytes() == original
    assert _count(graph, "MATCH (n) RETURN count(n) AS n") == 0


# Standard input named twice (defect 21)


@pytest.mark.parametrize("names", [["-", "-"], ["-", "/dev/stdin"]])
def test_standard_input_named_twice_is_refused(
    graph: Database, neo4j_connection: Connection, names: list[str]
) -> None:
    run = _run(
        cli_env(neo4j_connection),
        ["load", *names, "--rejects", os.devnull],
        stdin=_papers(2).encode(),
    )
    assert run.returncode == 1, run.stdout + run.stderr
    line = _one_error(run.stderr)
    assert line == (
        f"Error: {' and '.join(dict.fromkeys(names))}: standard input is named twice, and a "
        "stream can be read only once. Name it once"
    ), line
    assert "empty" not in run.stderr
    assert _count(graph) == 0


def test_standard_input_named_once_still_loads(
    graph: Database, neo4j_connection: Connection, tmp_path: Path
) -> None:
    """The control of the refusal above: the same data through one `-` loads."""
    run = _run(
        cli_env(neo4j_connection),
        ["load", "-", "--rejects", str(tmp_path / "r.jsonl")],
        stdin=_papers(2).encode(),
    )
    assert run.returncode == 0, run.stderr
    assert _count(graph) == 2


# A keep-apart file nested 100,000 levels deep (defect 9)


def test_a_keep_apart_file_nested_too_deep_is_refused(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    splits = tmp_path / "deep.json"
    splits.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    source = tmp_path / "papers.jsonl"
    source.write_text(_papers(2), encoding="utf-8")
    result = CliRunner().invoke(
        main,
        ["load", str(source), "--keep-apart", str(splits), "--rejects", str(tmp_path / "r")],
    )
    assert result.exit_code == 1, result.exception
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    line = _one_error(result.stderr)
    assert line.startswith(
        f"Error: the keep-apart file {splits}: not a list of splits: it nests lists or "
        "objects 100,000 levels deep, over the limit of 64"
    ), line
    assert _count(graph, "MATCH (n) RETURN count(n) AS n") == 0


# A full disk (defect 7)


def test_rejects_on_a_full_disk_keep_every_valid_record(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    source = tmp_path / "papers.jsonl"
    lines = _papers(500).splitlines(keepends=True)
    for at in (0, 200, 499):
        lines.insert(at, "not json\n")
    source.write_text("".join(lines), encoding="utf-8")
    result = CliRunner().invoke(main, ["load", str(source), "--rejects", "/dev/full"])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [
        "Error: the rejects file /dev/full: cannot write it (No space left on device); 3 "
        "rejected records are not in it. The valid records loaded: free space there or name "
        "another file (rejects_path= in Python, --rejects on the command line), and load the "
        "same files again to get every reject (what loaded stays as it is)"
    ], result.stderr
    assert f"{source}:1: invalid JSON" in result.stderr  # each reject is still shown
    assert "see /dev/full" not in result.output
    assert _count(graph) == 500


@contextlib.contextmanager
def _small_tmpfs(folder: Path) -> Iterator[bool]:
    """Mount a 64 KiB tmpfs on ``folder`` and yield True; yield False where mounting is not
    allowed (not root, or no mount in the sandbox)."""
    folder.mkdir()
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], capture_output=True, check=False)


def _file_size_limit() -> None:
    """In the child: files may grow to 64 KiB at most (EFBIG beyond, as a full disk would
    give ENOSPC; Python ignores SIGXFSZ, so the write fails instead of killing it)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))


def test_standard_input_on_a_full_temporary_folder_is_one_error(
    graph: Database, neo4j_connection: Connection, tmp_path: Path
) -> None:
    """A stream is copied to TMPDIR before it loads. On a 64 KiB tmpfs (or, where no tmpfs
    can be mounted, under a 64 KiB file size limit) the copy of 1 MB fails: one `Error:`
    line naming the folder and TMPDIR, no traceback, and nothing written."""
    data = _papers(4_000).encode()
    assert len(data) > 1_000_000
    env = cli_env(neo4j_connection)
    rejects = tmp_path / "r.jsonl"
    with _small_tmpfs(tmp_path / "small") as mounted:
        if mounted:
            env["TMPDIR"] = str(tmp_path / "small")
            run = _run(env, ["load", "-", "--rejects", str(rejects)], stdin=data)
        else:
            run = _run(
                env,
                ["load", "-", "--rejects", str(rejects)],
                stdin=data,
                preexec=_file_size_limit,
            )
    assert run.returncode == 1, run.stdout + run.stderr
    line = _one_error(run.stderr)
    folder = str(tmp_path / "small") if mounted else tempfile.gettempdir()
    assert line.startswith(
        f"Error: standard input: cannot copy it to the temporary folder {folder}/kg-load-"
    ), line
    reason = "No space left on device" if mounted else "File too large"
    assert f"({reason}). A stream is copied whole before it loads: free space there, or " in line
    assert "set TMPDIR to a folder with room for it" in line
    assert _count(graph) == 0


# A file name that is not UTF-8 (defect 4, the folder)


def test_a_file_name_that_is_not_utf8_loads_in_its_folder(
    graph: Database, kg_env: Connection, tmp_path: Path
) -> None:
    folder = tmp_path / "inputs"
    folder.mkdir()
    (folder / "good.jsonl").write_text(_papers(3, prefix="2105"), encoding="utf-8")
    bad_name = os.path.join(os.fsencode(folder), b"caf\xe9.jsonl")
    with open(bad_name, "wb") as handle:
        handle.write((_papers(2, prefix="2106") + "not json\n").encode())
    rejects = tmp_path / "r.jsonl"
    result = CliRunner().invoke(main, ["load", str(folder), "--rejects", str(rejects)])
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, result.output  # the bad line, not the name
    assert "Traceback" not in result.output
    shown = f"{folder}/caf\\xe9.jsonl"
    assert f"{shown}:3: invalid JSON" in result.stderr
    assert "caf\\xe9.jsonl" in result.stdout
    assert _count(graph) == 5
    sources = sorted(
        row["source"] for row in graph.read("MATCH (s:Snapshot) RETURN s.source AS source")
    )
    assert sources == ["caf\\xe9.jsonl", "good.jsonl"]
    [entry] = [json.loads(line) for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert entry["file"] == shown


# A file rewritten during its load (defect 3)


def test_a_file_rewritten_during_its_load_is_not_skipped_later(
    graph: Database, neo4j_connection: Connection, tmp_path: Path
) -> None:
    papers = 1_500
    source = tmp_path / "s.jsonl"
    first, second = _papers(papers, "v1"), _papers(papers, "v2")
    assert len(first) == len(second)
    source.write_text(first, encoding="utf-8")
    env = cli_env(neo4j_connection)
    args = ["load", str(source), "--batch-size", "50", "--rejects", str(tmp_path / "r.jsonl")]
    loader = subprocess.Popen(
        [kg_executable(), *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + DEADLINE
        while _count(graph) < 200 and loader.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert loader.poll() is None, "the load ended before the file was rewritten"
        assert _count(graph) < papers // 2
        # Rewritten in place (same size, no truncation): the loader reads on into v2.
        with source.open("r+b") as handle:
            handle.write(second.encode())
        out, err = loader.communicate(timeout=DEADLINE)
    finally:
        if loader.poll() is None:
            loader.kill()
            loader.wait()
    assert "Traceback" not in err
    assert loader.returncode == 1, out + err
    assert "the file changed while it was loaded" in out + err
    assert _count(graph, V2_TITLES) > 0
    source.write_text(first, encoding="utf-8")
    again = CliRunner().invoke(
        main, ["load", str(source), "--rejects", str(tmp_path / "r2.jsonl")], env=env
    )
    assert again.exit_code == 0, again.output
    assert "already loaded whole" not in again.output
    assert _count(graph, V2_TITLES) == 0
    assert _count(graph) == papers


# Ctrl-C mid-load (defect 10)


def test_ctrl_c_mid_load_ends_with_one_line_and_exit_130(
    graph: Database, neo4j_connection: Connection, tmp_path: Path
) -> None:
    papers = 2_000
    source = tmp_path / "papers.jsonl"
    source.write_text(_papers(papers), encoding="utf-8")
    env = cli_env(neo4j_connection)
    args = ["load", str(source), "--batch-size", "100", "--rejects", str(tmp_path / "r.jsonl")]
    interrupted = 0
    for _attempt in range(3):
        clear_database(graph)
        loader = subprocess.Popen(
            [kg_executable(), *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + DEADLINE
            while _count(graph) < 300 and loader.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            if loader.poll() is None:
                loader.send_signal(signal.SIGINT)
            out, err = loader.communicate(timeout=DEADLINE)
        finally:
            if loader.poll() is None:
                loader.kill()
                loader.wait()
        assert "Traceback" not in out + err, err
        assert "BufferError" not in out + err, err
        if loader.returncode == 0:
            continue  # the load ended before the signal: nothing to interrupt this time
        assert loader.returncode == 130, out + err
        line = _one_error(err)
        assert line.startswith("Error: interrupted (Ctrl-C) after reading "), line
        assert line.endswith("Rerun the same command to finish (loads are idempotent)"), line
        interrupted += 1
    assert interrupted >= 2, "Ctrl-C never landed mid-load"
    assert _count(graph) < papers
    rerun = _run(env, args)
    assert rerun.returncode == 0, rerun.stderr
    assert _count(graph) == papers
