"""Unit tests for loaders.edge_list: SNAP and CSV/TSV citation edge lists."""

from __future__ import annotations

import gzip
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.errors import SourceError
from loaders import edge_list, source_file
from loaders.records import (
    CitationRecord,
    EdgeChunk,
    PaperRef,
    ParsedItem,
    Rejected,
    Skipped,
    SnapshotRecord,
)
from loaders.source_file import LongLine, content_sha256
from loaders.titles import canonical_arxiv_id
from tests.data import REAL_HEPTH_EDGES
from tests.parsed import columns_flattened, records_as_keys

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "edges"
# SNAP's own file, read through KG_DATA_DIR (the project ships no public data).
REAL_SNAP = REAL_HEPTH_EDGES


def _edges(items: list[ParsedItem]) -> list[tuple[int, str, str]]:
    return [
        (item.origin.line, item.citing.arxiv_id or "", item.cited.arxiv_id or "")
        for item in items
        if isinstance(item, CitationRecord)
    ]


def _rejects(items: list[ParsedItem]) -> dict[int, Rejected]:
    return {item.origin.line: item for item in items if isinstance(item, Rejected)}


SNAP_EDGES = [
    (5, "hep-th/0001001", "hep-th/9304046"),
    (6, "hep-th/0001001", "hep-th/9308121"),
    (8, "hep-th/9912293", "hep-th/9201047"),
    (10, "hep-th/0203007", "hep-th/9711200"),
]


@pytest.mark.parametrize("name", ["snap_hepth.txt", "snap_hepth.txt.gz"])
def test_snap_hepth_plain_and_gzipped(name: str) -> None:
    path = FIXTURES / name
    items = list(edge_list.parse(path, id_scheme="snap-hepth"))
    snapshot = items[0]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.kind == "edge_list"
    assert snapshot.source == name
    assert snapshot.sha256 == content_sha256(FIXTURES / "snap_hepth.txt")
    assert _edges(items) == SNAP_EDGES
    assert _rejects(items) == {}
    skipped = [item for item in items if isinstance(item, Skipped)]
    assert [(s.origin.line, s.kind, s.detail) for s in skipped] == [
        (7, "self-citation", "hep-th/9201001 cites itself")
    ]
    assert all(
        item.snapshot == snapshot.key for item in items[1:] if isinstance(item, CitationRecord)
    )


def test_bare_integers_without_snap_scheme_suggest_it() -> None:
    items = list(edge_list.parse(FIXTURES / "snap_hepth.txt"))
    assert _edges(items) == []
    rejects = _rejects(items)
    assert sorted(rejects) == [5, 6, 7, 8, 10]
    assert "'1001' is a bare number, not an arXiv id" in rejects[5].reason
    assert "cit-HepTh list, load it with --id-scheme snap-hepth" in rejects[5].reason
    assert "cit-HepPh's with --id-scheme snap-hepph" in rejects[5].reason


def test_snap_hepph_reads_the_same_integers_as_hep_ph_ids_in_a_snapshot_of_its_own() -> None:
    path = FIXTURES / "snap_hepth.txt"
    hepph = list(edge_list.parse(path, id_scheme="snap-hepph"))
    assert _edges(hepph) == [
        (line, citing.replace("hep-th/", "hep-ph/"), cited.replace("hep-th/", "hep-ph/"))
        for line, citing, cited in SNAP_EDGES
    ]
    hepth = list(edge_list.parse(path, id_scheme="snap-hepth"))
    assert isinstance(hepph[0], SnapshotRecord)
    assert isinstance(hepth[0], SnapshotRecord)
    # One content, two sets of records: loaded whole as one is no reason to skip the other.
    assert hepth[0].key == f"sha256:{content_sha256(path)}"
    assert hepph[0].key == f"sha256:{content_sha256(path)}:snap-hepph"
    assert hepph[0].sha256 == hepth[0].sha256


def test_tsv_with_header_and_extra_column() -> None:
    items = list(edge_list.parse(FIXTURES / "citing_cited.tsv"))
    assert _edges(items) == [
        (2, "2110.03888", "1706.03762"),
        (3, "hep-th/9901001", "hep-th/9711200"),
        (5, "2005.14165", "1810.04805"),
    ]
    assert _rejects(items) == {}


def test_csv_with_quoted_header_and_crlf() -> None:
    items = list(edge_list.parse(FIXTURES / "source_target.csv"))
    assert _edges(items) == [(2, "2110.03888", "1706.03762"), (3, "1810.04805", "1706.03762")]
    assert _rejects(items) == {}


def test_csv_columns_are_found_by_name_not_position() -> None:
    items = list(edge_list.parse(FIXTURES / "to_from.csv"))
    assert _edges(items) == [(2, "2110.03888", "1706.03762")]


def test_whitespace_separated_ids_with_versions_and_old_style() -> None:
    items = list(edge_list.parse(FIXTURES / "whitespace.txt"))
    edges = _edges(items)
    assert edges[0] == (2, "2110.03888", "1706.03762")
    assert edges[1][0] == 3
    assert edges[1][1].endswith("/0309136")
    assert edges[1][2] == "hep-th/9901001"


def test_gzip_is_detected_by_content_not_name(tmp_path: Path) -> None:
    path = tmp_path / "edges.csv"
    path.write_bytes(gzip.compress((FIXTURES / "to_from.csv").read_bytes()))
    assert _edges(list(edge_list.parse(path))) == [(2, "2110.03888", "1706.03762")]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (3, "citing id '1001' is a bare number, not an arXiv id"),
        (4, "expected two ids 'CITING<TAB>CITED', found 1 field(s)"),
        (5, "expected two ids 'CITING<TAB>CITED', found 3 field(s)"),
        (6, "cited id 'banana' is not an arXiv id"),
    ],
)
def test_malformed_snap_lines(line: int, reason: str) -> None:
    path = FIXTURES / "malformed.txt"
    rejected = _rejects(list(edge_list.parse(path)))[line]
    assert reason in rejected.reason
    assert rejected.origin.path == str(path)
    assert rejected.raw == path.read_text().splitlines()[line - 1]


def test_valid_lines_survive_malformed_ones() -> None:
    items = list(edge_list.parse(FIXTURES / "malformed.txt"))
    assert _edges(items) == [
        (2, "2110.03888", "1706.03762"),
        (8, "hep-th/9901001", "hep-th/9901002"),
    ]
    assert len(_rejects(items)) == 4
    assert [(i.origin.line, i.detail) for i in items if isinstance(i, Skipped)] == [
        (7, "1706.03762 cites itself")
    ]


def test_malformed_csv_rows() -> None:
    items = list(edge_list.parse(FIXTURES / "malformed.csv"))
    rejects = _rejects(items)
    assert "expected at least 2 columns as the header on line 1 says, found 1" in (
        rejects[3].reason
    )
    assert rejects[4].reason.startswith("the citing id is empty")
    assert _edges(items) == [(2, "2110.03888", "1706.03762"), (5, "2110.03888", "1810.04805")]


def test_malformed_snap_hepth_ids() -> None:
    items = list(edge_list.parse(FIXTURES / "snap_malformed.txt", id_scheme="snap-hepth"))
    rejects = _rejects(items)
    assert "citing id 'hep-th/9901001' is not a SNAP hep-th number" in rejects[2].reason
    assert "--id-scheme arxiv" in rejects[2].reason
    assert "citing id '12345678' is not a SNAP hep-th number" in rejects[3].reason
    assert _edges(items) == [
        (1, "hep-th/0001001", "hep-th/9304045"),
        (4, "hep-th/9201001", "hep-th/9201002"),
    ]


def test_fullwidth_digits_read_as_ascii_and_other_scripts_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "edges.csv"
    path.write_text(
        "citing,cited\n1907.11692,１８１０.04805\n1907.11692,١٨١٠.04805\n", encoding="utf-8"
    )
    items = list(edge_list.parse(path))
    assert _edges(items) == [(2, "1907.11692", "1810.04805")]
    assert _rejects(items)[3].reason == (
        "cited id '١٨١٠.04805' is not an arXiv id; expected e.g. '2110.03888' or 'hep-th/9901001'"
    )
    snap = tmp_path / "snap.txt"
    snap.write_text("９201003\t9201001\n٩٢٠١٠٠٣\t9201001\n", encoding="utf-8")
    items = list(edge_list.parse(snap, id_scheme="snap-hepth"))
    assert _edges(items) == [(1, "hep-th/9201003", "hep-th/9201001")]
    assert "citing id '٩٢٠١٠٠٣' is not a SNAP hep-th number" in _rejects(items)[2].reason


def test_unknown_header_is_a_source_error() -> None:
    with pytest.raises(SourceError, match=r"bad_header\.csv:1: the header") as info:
        list(edge_list.parse(FIXTURES / "bad_header.csv"))
    assert "citing,cited" in info.value.hint


def test_empty_file_yields_only_the_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("# nothing here\n")
    items = list(edge_list.parse(path))
    assert len(items) == 1
    assert isinstance(items[0], SnapshotRecord)


@pytest.mark.slow
@pytest.mark.needs_data(REAL_HEPTH_EDGES)
def test_real_cit_hepth() -> None:
    citations = 0
    self_loops = 0
    other_rejects = 0
    first: CitationRecord | None = None
    for item in edge_list.parse(REAL_SNAP, id_scheme="snap-hepth"):
        if isinstance(item, CitationRecord):
            citations += 1
            first = first or item
        elif isinstance(item, Skipped):
            self_loops += item.kind == "self-citation"
        elif isinstance(item, Rejected):
            other_rejects += 1
    assert citations + self_loops == 352_807
    assert citations == 352_768
    assert self_loops == 39
    assert other_rejects == 0
    assert first is not None
    assert first.origin.line == 5
    assert first.citing.arxiv_id == "hep-th/0001001"
    assert first.cited.arxiv_id == "hep-th/9304045"


@pytest.mark.parametrize(
    ("name", "scheme"),
    [
        ("snap_hepth.txt.gz", "snap-hepth"),
        ("malformed.txt", "arxiv"),
        ("malformed.csv", "arxiv"),
        ("snap_malformed.txt", "snap-hepth"),
    ],
)
@pytest.mark.parametrize("chunk_edges", [1, 2, edge_list.CHUNK_EDGES])
def test_in_columns_the_same_citations_come_in_chunks_that_end_before_other_items(
    name: str, scheme: edge_list.IdScheme, chunk_edges: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(edge_list, "CHUNK_EDGES", chunk_edges)
    path = FIXTURES / name
    items = list(edge_list.parse(path, id_scheme=scheme))
    in_columns = list(edge_list.parse_in_columns(path, id_scheme=scheme))
    assert _edges(items), "a fixture with citations"
    chunks = [item for item in in_columns if isinstance(item, EdgeChunk)]
    assert all(0 < len(chunk) <= chunk_edges for chunk in chunks)
    if chunk_edges == 1:
        assert len(chunks) == len(_edges(items))
    assert columns_flattened(in_columns) == records_as_keys(items)


@pytest.mark.slow
@pytest.mark.needs_data(REAL_HEPTH_EDGES)
def test_real_cit_hepth_in_columns() -> None:
    in_columns = list(edge_list.parse_in_columns(REAL_SNAP, id_scheme="snap-hepth"))
    assert columns_flattened(in_columns) == records_as_keys(
        list(edge_list.parse(REAL_SNAP, id_scheme="snap-hepth"))
    )
    chunks = [item for item in in_columns if isinstance(item, EdgeChunk)]
    assert sum(map(len, chunks)) == 352_768
    # the 39 self-citations end chunks; the others are full
    assert len(chunks) <= 352_768 // edge_list.CHUNK_EDGES + 40


def test_a_version_of_thousands_of_digits_is_a_reject(tmp_path: Path) -> None:
    path = tmp_path / "edges.csv"
    path.write_text(
        f"citing,cited\n2110.03888v{'9' * 5000},1706.03762\n2110.03888,1706.03762\n",
        encoding="utf-8",
    )
    items = list(edge_list.parse(path))
    assert list(_rejects(items)) == [2]
    assert "is not an arXiv id" in _rejects(items)[2].reason
    assert _edges(items) == [(3, "2110.03888", "1706.03762")]


@pytest.mark.parametrize("packed", [False, True])
def test_reading_the_lines_hashes_the_content_in_the_same_read(
    tmp_path: Path, packed: bool
) -> None:
    """numbered_lines with a digest gives every line, and the digest content_sha256 gives,
    plain or gzipped, whatever the line endings (kg load --since reads the older file once)."""
    import hashlib

    from loaders.source_file import numbered_lines

    content = "citing,cited\r\n" + "".join(f"{n:07d},{n + 1:07d}\n" for n in range(70_000))
    # a lone carriage return ends a line too, and an undecodable byte is replaced
    data = (content + "lone\rcarriage return\n\u00e9t\u00e9 ").encode() + b"\xff no newline"
    path = tmp_path / "edges.csv"
    path.write_bytes(gzip.compress(data) if packed else data)
    digest = hashlib.sha256()
    lines = list(numbered_lines(path, digest))
    assert lines == list(numbered_lines(path))
    assert len(lines) == 70_004
    assert lines[0] == (1, "citing,cited")
    assert digest.hexdigest() == content_sha256(path) == hashlib.sha256(data).hexdigest()


def _until_broken(
    items: Iterator[ParsedItem | EdgeChunk],
) -> tuple[list[ParsedItem | EdgeChunk], str]:
    """The items a parse gave before its SourceError, and the error's message."""
    given: list[ParsedItem | EdgeChunk] = []
    with pytest.raises(SourceError) as broken:
        given.extend(items)
    return given, str(broken.value)


@pytest.mark.parametrize("chunk_edges", [7, edge_list.CHUNK_EDGES])
def test_a_list_that_breaks_off_gives_in_columns_what_it_gave_before_the_break(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk_edges: int
) -> None:
    monkeypatch.setattr(edge_list, "CHUNK_EDGES", chunk_edges)
    # The file is hashed whole before it is read, which finds a cut gzip at once: here it is
    # cut after its hash was taken, as a file another process truncates mid-load would be
    monkeypatch.setattr(edge_list, "content_sha256", lambda _path: "0" * 64)
    lines = "".join(f"{1001 + n}\t{9201001 + n}\n" for n in range(4_000))
    whole = gzip.compress(lines.encode(), compresslevel=1)
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(whole[: len(whole) // 2])
    given, error = _until_broken(edge_list.parse(path, id_scheme="snap-hepth"))
    items = [item for item in given if not isinstance(item, EdgeChunk)]
    in_columns, error_in_columns = _until_broken(
        edge_list.parse_in_columns(path, id_scheme="snap-hepth")
    )
    assert error == error_in_columns
    assert 100 < len(_edges(items)) < 4_000  # some lines came before the break
    assert columns_flattened(in_columns) == records_as_keys(items)


_ID_PIECES = st.sampled_from(
    ["arXiv:", "https://arxiv.org/abs/", "http://arxiv.org/pdf/", "hep-th", "HEP-PH", "math",
     "cond-mat", ".AG", ".MP", "/", ".", "v", "v0", "v12", ".pdf", " ", "\u3000", "\ufeff",
     "0", "1", "2", "9", "12", "13", "00", "1501", "1412", "0704", "2110", "03888", "0001",
     "9901001", "\uff11", "\uff10", "\u0661", "a", "-"]
)  # fmt: skip
_TOKENS = st.one_of(
    st.lists(_ID_PIECES, max_size=8).map("".join),
    st.text(max_size=24),
    st.from_regex(r"\A\d{4}\.\d{4,5}(v\d{1,3})?\Z"),
    st.from_regex(r"\A[A-Za-z][A-Za-z\-]{0,10}(\.[A-Za-z]{2})?/\d{7}(v\d{1,3})?\Z"),
    st.from_regex(r"\A[0-9\uff10-\uff19]{1,8}\Z"),
)


@settings(max_examples=3000, deadline=None)
@given(token=_TOKENS, scheme=st.sampled_from(["arxiv", "snap-hepth", "snap-hepph"]))
def test_every_id_a_token_resolves_to_is_a_valid_paper_ref(
    token: str, scheme: edge_list.IdScheme
) -> None:
    """The columns take a resolved id unchecked (``_EdgeLines._resolve``): each must be what
    PaperRef validation accepts, and read back as itself."""
    try:
        arxiv_id = edge_list._arxiv_id(token, scheme, "citing")
    except edge_list._BadLine:
        return
    assert PaperRef(arxiv_id=arxiv_id).arxiv_id == arxiv_id
    assert canonical_arxiv_id(arxiv_id) == arxiv_id


@pytest.mark.parametrize("scheme", sorted(edge_list.SNAP_ARCHIVES))
@pytest.mark.parametrize("number", ["0", "1", "9201001", "9999999", "0013001", "1234567"])
def test_every_snap_number_resolves_to_a_valid_paper_ref(
    scheme: edge_list.IdScheme, number: str
) -> None:
    arxiv_id = edge_list._arxiv_id(number, scheme, "cited")
    assert PaperRef(arxiv_id=arxiv_id).arxiv_id == arxiv_id == canonical_arxiv_id(arxiv_id)


@settings(max_examples=1000, deadline=None)
@given(data=st.data(), scheme=st.sampled_from(sorted(edge_list.OWN_IDS)))
def test_a_token_read_in_a_run_of_plain_lines_is_what_it_resolves_to(
    data: st.DataObject, scheme: edge_list.IdScheme
) -> None:
    """A line of two OWN_IDS tokens is read without resolving them: under the arxiv scheme
    each must be its own canonical id, under a SNAP scheme its number zero-filled."""
    token = data.draw(st.from_regex(edge_list.OWN_IDS[scheme], fullmatch=True))
    archive = edge_list.SNAP_ARCHIVES.get(scheme)
    own = token if archive is None else f"{archive}/{token.zfill(7)}"
    assert edge_list._arxiv_id(token, scheme, "citing") == own


_LINE_PIECES = st.sampled_from(["a", "1", ",", "\t", " ", "é", "\n", "\n", "\r", "\r\n", "x" * 30])


def _block_lines(path: Path) -> list[tuple[int, str | LongLine]]:
    """numbered_blocks' lines, each block's split into its lines."""
    lines: list[tuple[int, str | LongLine]] = []
    for piece in source_file.numbered_blocks(path):
        if isinstance(piece, source_file.LineBlock):
            assert piece.text.endswith("\n")
            assert "\r" not in piece.text
            text = piece.text[:-1].split("\n")
            lines.extend(enumerate(text, start=piece.first))
        else:
            lines.extend(piece)
    return lines


def _read(
    read: Callable[[Path], list[tuple[int, str | LongLine]]], path: Path
) -> tuple[list[tuple[int, str | LongLine]], str | None]:
    """The lines ``read`` gives before any SourceError, and its message."""
    lines: list[tuple[int, str | LongLine]] = []
    try:
        lines.extend(read(path))
    except SourceError as error:
        return lines, str(error)
    return lines, None


@settings(max_examples=500, deadline=None)
@given(
    pieces=st.lists(_LINE_PIECES, max_size=60),
    block_chars=st.sampled_from([1, 3, 16, 64]),
    limit=st.sampled_from([24, 1 << 20]),
    packed=st.sampled_from(["plain", "gzip", "cut gzip"]),
)
def test_numbered_blocks_give_numbered_lines(
    pieces: list[str], block_chars: int, limit: int, packed: str
) -> None:
    """Blocks and lines together are numbered_lines' lines, in order, whatever the line
    endings, long lines, a last line without its LF, or a gzip that breaks off."""
    data = "".join(pieces).encode()
    if packed != "plain":
        data = gzip.compress(data, compresslevel=1)
        if packed == "cut gzip":
            data = data[: max(11, len(data) * 2 // 3)]
    default_chars, default_limit = source_file.BLOCK_CHARS, source_file.line_limit
    source_file.BLOCK_CHARS = block_chars
    source_file.line_limit = lambda: limit
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "lines.txt"
            path.write_bytes(data)
            expected = _read(lambda p: list(source_file.numbered_lines(p)), path)
            assert _read(_block_lines, path) == expected
    finally:
        source_file.BLOCK_CHARS, source_file.line_limit = default_chars, default_limit


def test_a_large_list_comes_in_blocks_and_a_cr_sends_the_rest_line_by_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "edges.csv"
    # every 997th line names a version: read one by one, among runs of plain lines
    lines = [
        f"{2101 + n % 12:04d}.{n:05d}{'v2' if n % 997 == 0 else ''},1706.03762\n"
        for n in range(200_000)
    ]
    path.write_text("citing,cited\n" + "".join(lines[:150_000]) + "1810.04805,1706.03762\r\n"
                    + "".join(lines[150_000:]), encoding="utf-8")  # fmt: skip
    pieces = list(source_file.numbered_blocks(path))
    blocks = [piece for piece in pieces if isinstance(piece, source_file.LineBlock)]
    assert len(blocks) >= 2
    assert blocks[0].first == 1
    assert not isinstance(pieces[-1], source_file.LineBlock)  # the rest, from the CR's block
    assert _block_lines(path) == list(source_file.numbered_lines(path))
    in_columns = list(edge_list.parse_in_columns(path))
    assert columns_flattened(in_columns) == records_as_keys(list(edge_list.parse(path)))


@pytest.mark.parametrize(
    ("later", "separator", "rejected"),
    [
        ("citing,foo", ",", 6),  # names no columns: it and the lines after it are rejected
        ("cited,citing", ",", 0),  # the columns swap
        ("citing\tcited", "\t", 0),  # a tab splits the lines after it
        ("citing\tcited", ",", 5),  # ... and the commas' lines are one column each
    ],
)
def test_a_header_between_runs_of_plain_lines_holds_from_its_line_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, later: str, separator: str, rejected: int
) -> None:
    monkeypatch.setattr(edge_list, "_LONG_RUN", 2)
    before = "".join(f"2101.{n:05d},1706.03762\n" for n in range(1, 6))
    after = "".join(f"2102.{n:05d}{separator}1706.03762\n" for n in range(1, 6))
    path = tmp_path / "edges.csv"
    path.write_text(f"citing,cited\n{before}{later}\n{after}", encoding="utf-8")
    items = list(edge_list.parse(path))
    in_columns = list(edge_list.parse_in_columns(path))
    assert columns_flattened(in_columns) == records_as_keys(items)
    assert len(_rejects(items)) == rejected
    assert len(_edges(items)) == 10 - min(rejected, 5)


def test_a_snap_list_with_lines_read_one_by_one_among_runs_gives_the_records_paths_edges(
    tmp_path: Path,
) -> None:
    # every 997th line ends in a space (read one by one), a few are comments
    lines = [
        f"{9201001 + n}\t{9201000 + n // 2}{' ' if n % 997 == 0 else ''}\n"
        if n % 5003
        else "# a note\n"
        for n in range(1, 120_000)
    ]
    path = tmp_path / "cit.txt"
    path.write_text("".join(lines), encoding="utf-8")
    items = list(edge_list.parse(path, id_scheme="snap-hepth"))
    in_columns = list(edge_list.parse_in_columns(path, id_scheme="snap-hepth"))
    assert columns_flattened(in_columns) == records_as_keys(items)
    assert len(_edges(items)) > 119_000
