"""`kg data get` against a real HTTP server this test starts on 127.0.0.1: a good file, a wrong
checksum, a cut connection and its resumption, a server that ignores ranges, a missing file,
no server at all, and files found in KG_DATA_DIR. No test reaches outside this machine, and
none leaves a partial file under a final name."""

from __future__ import annotations

import gzip
import hashlib
import http.server
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg import data
from kg.cli import main
from kg.errors import DataUnavailable, ParameterError

BODY = gzip.compress(b"".join(b"%d\t%d\n" % (n, n + 1) for n in range(20_000)), mtime=0)
SHA = hashlib.sha256(BODY).hexdigest()


class _Files(http.server.BaseHTTPRequestHandler):
    """Serves BODY under /good/, /cut/ (half of it, then the connection closes, once),
    /norange/ (ignores Range headers) and /wrong/ (other bytes); anything else is a 404."""

    cut_once: set[str]  # set per server
    ranges: list[str]

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        mode = self.path.split("/")[1]
        body = BODY if mode != "wrong" else BODY[::-1]
        if mode not in ("good", "cut", "norange", "wrong"):
            self.send_error(404, "Not Found")
            return
        start = 0
        asked = self.headers.get("Range")
        if asked:
            self.ranges.append(asked)
        if asked and mode != "norange":
            start = int(asked.removeprefix("bytes=").rstrip("-"))
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        if mode == "cut" and self.path not in self.cut_once:
            self.cut_once.add(self.path)
            self.wfile.write(body[start : start + (len(body) - start) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body[start:])


@pytest.fixture
def server() -> Iterator[tuple[str, list[str]]]:
    """A local HTTP server: its base URL, and the Range headers it was sent."""
    ranges: list[str] = []
    handler = type("Files", (_Files,), {"cut_once": set(), "ranges": ranges})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", ranges
    finally:
        httpd.shutdown()
        httpd.server_close()


def _set(
    base: str, mode: str, *, size: int | None = len(BODY), sha: str | None = SHA
) -> data.DataSet:
    return data.DataSet(
        "test-set",
        "a test set",
        base,
        "test terms",
        (data.RemoteFile("edges.txt.gz", f"{base}/{mode}/edges.txt.gz", size, sha),),
    )


@pytest.fixture(autouse=True)
def _no_outside_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("KG_DATA_DIR", raising=False)
    monkeypatch.delenv("KG_DATA_URL", raising=False)
    monkeypatch.setenv("KG_HOME", str(tmp_path / "home"))


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_good_file_is_fetched_checked_and_named(
    server: tuple[str, list[str]], tmp_path: Path
) -> None:
    base, _ = server
    seen: list[tuple[int, int | None]] = []
    [path] = data.get(
        _set(base, "good"), tmp_path / "to", progress=lambda _n, h, t: seen.append((h, t))
    )
    assert path == tmp_path / "to" / "edges.txt.gz"
    assert path.read_bytes() == BODY
    assert _files(tmp_path / "to") == ["edges.txt.gz"]
    assert seen[-1] == (len(BODY), len(BODY))
    # Found in the cache the second time: nothing is fetched.
    assert data.get(_set("http://127.0.0.1:9", "good"), tmp_path / "to") == [path]


def test_the_cache_defaults_to_kg_home(server: tuple[str, list[str]], tmp_path: Path) -> None:
    [path] = data.get(_set(server[0], "good"))
    assert path == tmp_path / "home" / "data" / "test-set" / "edges.txt.gz"


def test_a_wrong_checksum_is_refused_and_removed(
    server: tuple[str, list[str]], tmp_path: Path
) -> None:
    with pytest.raises(
        DataUnavailable, match=re.escape("does not match edges.txt.gz: its sha256 is")
    ):
        data.get(_set(server[0], "wrong"), tmp_path / "to")
    assert _files(tmp_path / "to") == []


def test_a_wrong_size_is_refused_and_removed(server: tuple[str, list[str]], tmp_path: Path) -> None:
    with pytest.raises(DataUnavailable, match=f"has {len(BODY):,} bytes where edges.txt.gz has 5"):
        data.get(_set(server[0], "good", size=5), tmp_path / "to")
    assert _files(tmp_path / "to") == []


def test_a_cut_connection_keeps_the_part_and_the_next_run_resumes(
    server: tuple[str, list[str]], tmp_path: Path
) -> None:
    base, ranges = server
    with pytest.raises(DataUnavailable, match="Run the same command again to resume") as cut:
        data.get(_set(base, "cut"), tmp_path / "to")
    assert "edges.txt.gz.part" in str(cut.value)
    assert _files(tmp_path / "to") == ["edges.txt.gz.part"]  # never under the final name
    kept = (tmp_path / "to" / "edges.txt.gz.part").stat().st_size
    assert 0 < kept < len(BODY)
    [path] = data.get(_set(base, "cut"), tmp_path / "to")
    assert ranges == [f"bytes={kept}-"]
    assert path.read_bytes() == BODY
    assert _files(tmp_path / "to") == ["edges.txt.gz"]


def test_a_server_that_ignores_the_range_starts_again(
    server: tuple[str, list[str]], tmp_path: Path
) -> None:
    base, ranges = server
    (tmp_path / "to").mkdir()
    (tmp_path / "to" / "edges.txt.gz.part").write_bytes(b"stale bytes from elsewhere")
    [path] = data.get(_set(base, "norange"), tmp_path / "to")
    assert ranges == ["bytes=26-"]
    assert path.read_bytes() == BODY
    assert _files(tmp_path / "to") == ["edges.txt.gz"]


def test_a_whole_part_left_by_a_stopped_run_is_checked_and_named(tmp_path: Path) -> None:
    (tmp_path / "to").mkdir()
    (tmp_path / "to" / "edges.txt.gz.part").write_bytes(BODY)
    [path] = data.get(_set("http://127.0.0.1:9", "good"), tmp_path / "to")
    assert path.read_bytes() == BODY
    assert _files(tmp_path / "to") == ["edges.txt.gz"]


def test_a_missing_file_is_a_clear_error(server: tuple[str, list[str]], tmp_path: Path) -> None:
    with pytest.raises(
        DataUnavailable, match=re.escape("answered 404 Not Found for edges.txt.gz")
    ) as missing:
        data.get(_set(server[0], "gone"), tmp_path / "to")
    assert "$KG_DATA_DIR/data/test-set/" in str(missing.value)
    assert _files(tmp_path / "to") == []


def test_no_server_fails_at_once_and_says_where_to_put_the_files(tmp_path: Path) -> None:
    began = time.monotonic()
    with pytest.raises(DataUnavailable) as error:
        data.get(_set("http://127.0.0.1:9", "good"), tmp_path / "to")
    assert time.monotonic() - began < 5
    message = str(error.value)
    assert message.startswith("cannot reach http://127.0.0.1:9/good/edges.txt.gz (")
    assert "Put edges.txt.gz in $KG_DATA_DIR/data/test-set/" in message
    assert "\n" not in message
    assert _files(tmp_path / "to") == []


def test_files_in_kg_data_dir_are_read_where_they_are(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for layout in ("data/test-set", "test-set", "."):
        outside = tmp_path / layout.replace("/", "-")
        (outside / layout).mkdir(parents=True, exist_ok=True)
        (outside / layout / "edges.txt.gz").write_bytes(BODY)
        monkeypatch.setenv("KG_DATA_DIR", str(outside))
        assert data.get(_set("http://127.0.0.1:9", "good"), tmp_path / "to") == [
            outside / layout / "edges.txt.gz"
        ]
        assert data.find(_set("http://127.0.0.1:9", "good")) == [outside / layout / "edges.txt.gz"]
    assert not (tmp_path / "to").exists()


def test_a_wrong_file_in_kg_data_dir_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "edges.txt.gz").write_bytes(BODY[:-1] + b"x")
    monkeypatch.setenv("KG_DATA_DIR", str(tmp_path / "outside"))
    with pytest.raises(DataUnavailable, match=re.escape("outside/edges.txt.gz does not match")):
        data.get(_set("http://127.0.0.1:9", "good"), tmp_path / "to")


def test_an_unpinned_file_must_be_a_whole_gzip(
    server: tuple[str, list[str]], tmp_path: Path
) -> None:
    [path] = data.get(_set(server[0], "good", size=None, sha=None), tmp_path / "ok")
    assert path.read_bytes() == BODY
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "edges.txt.gz").write_bytes(BODY[: len(BODY) // 2])
    with pytest.raises(DataUnavailable, match="is not a whole gzip file"):
        data.get(_set(server[0], "good", size=None, sha=None), tmp_path / "bad")


def test_the_published_sets_are_pinned_where_the_project_could_measure_them() -> None:
    hepth = data.lookup("cit-hepth")
    assert [(f.name, f.pinned) for f in hepth.files] == [
        ("cit-HepTh.txt.gz", True),
        ("cit-HepTh-abstracts.tar.gz", True),
    ]
    assert all(f.url.startswith("https://snap.stanford.edu/data/") for f in hepth.files)
    assert data.lookup("CIT-HEPPH").id_scheme == "snap-hepph"
    with pytest.raises(ParameterError, match="no public data set is called 'nope'"):
        data.lookup("nope")


def test_the_cli_prints_paths_or_one_error_line(
    server: tuple[str, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base, _ = server
    monkeypatch.setenv("KG_DATA_URL", base + "/good")
    runner = CliRunner()
    result = runner.invoke(main, ["data", "get", "cit-hepth", "--to", str(tmp_path / "to")])
    # The mirror serves BODY under every name, which is not cit-HepTh: refused, and removed.
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert f"has {len(BODY):,} bytes where cit-HepTh.txt.gz has 1,317,497" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert _files(tmp_path / "to") == []
    unknown = runner.invoke(main, ["data", "get", "nope"])
    assert unknown.exit_code == 2  # a ParameterError: a usage error
    assert "Name one of cit-hepth, cit-hepph (kg data list)" in unknown.output
    monkeypatch.setitem(data.DATA_SETS, "test-set", _set(base, "good"))
    monkeypatch.delenv("KG_DATA_URL")
    fetched = runner.invoke(main, ["data", "get", "test-set", "--to", str(tmp_path / "to")])
    assert fetched.exit_code == 0, fetched.output
    assert fetched.output == f"{tmp_path / 'to' / 'edges.txt.gz'}\n"
    listed = runner.invoke(main, ["data", "list", "--json"])
    assert listed.exit_code == 0
    here = {row["name"]: row["here"] for row in json.loads(listed.output)["results"]}
    assert here["test-set"] is None  # kept with --to, not in the cache kg data list looks at
    assert here["cit-hepth"] is None
