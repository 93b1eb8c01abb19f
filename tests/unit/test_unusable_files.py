"""A file a parser cannot use at all (empty, binary, missing) is refused as a whole: one
SourceError that names the file and says what is wrong with it, for each of the parsers."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kg.errors import SourceError
from loaders import map_page, paper_json
from loaders.detect import detect_format
from loaders.formats import parse_file
from loaders.records import FormatName, ParsedItem
from loaders.source_file import content_sha256, numbered_lines, read_head

PARSERS: dict[str, Callable[[Path], Iterator[ParsedItem]]] = {
    "page": map_page.parse,
    "pith": paper_json.parse,
}


@pytest.mark.parametrize(
    ("parser", "name", "content", "message"),
    [
        ("page", "empty.txt", b"\n  \n", r"empty\.txt: the file is empty"),
        ("page", "garbage.txt", bytes(range(256)) * 8, "holds binary data, not a map page"),
        ("page", "absent.txt", None, "cannot read it"),
        ("pith", "empty.json", b"\n\n", r"empty\.json: the file is empty"),
        ("pith", "garbage.json", bytes(range(1, 256)) * 4, r"garbage\.json: the file is not JSON"),
        ("pith", "absent.json", None, "cannot read it"),
    ],
)
def test_an_unusable_file_is_a_source_error(
    tmp_path: Path, parser: str, name: str, content: bytes | None, message: str
) -> None:
    path = tmp_path / name
    if content is not None:  # None: the file is missing
        path.write_bytes(content)
    with pytest.raises(SourceError, match=message):
        list(PARSERS[parser](path))


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _corrupt_gzip(data: bytes) -> bytes:
    """Return a gzip of ``data`` whose deflate stream is corrupt mid-way: the first half
    decompresses, then comes a block of the reserved type 3 (zlib: "invalid block type")."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    half = deflate.compress(data[: len(data) // 2]) + deflate.flush(zlib.Z_FULL_FLUSH)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + half + b"\x07" + bytes(64)


@pytest.mark.parametrize(
    ("fmt", "relative"),
    [
        ("arxiv_oai", "arxiv/sample.jsonl"),
        ("edge_list", "edges/snap_hepth.txt"),
        ("map_page", "seeds/m6_10t_page.txt"),
        ("paper_json", "pages/papers.jsonl"),
        ("hepth_abs", "abs/listing.abs"),
    ],
)
def test_corrupt_gzip_data_is_a_source_error(
    tmp_path: Path, fmt: FormatName, relative: str
) -> None:
    path = tmp_path / f"corrupt{Path(relative).suffix}.gz"
    path.write_bytes(_corrupt_gzip((FIXTURES / relative).read_bytes() * 20))
    expected = rf"{path.name}: cannot read it: corrupt gzip data \(.*invalid block type"
    with pytest.raises(SourceError, match=expected) as info:
        list(parse_file(path, fmt))
    assert "compress the file again" in info.value.hint
    for read in (content_sha256, lambda p: list(numbered_lines(p))):
        with pytest.raises(SourceError, match="corrupt gzip data"):
            read(path)
    path.write_bytes(_corrupt_gzip((FIXTURES / relative).read_bytes()[:2000]))  # in the head
    for read in (read_head, detect_format):
        with pytest.raises(SourceError, match="corrupt gzip data"):
            read(path)
