"""A file a parser cannot use at all (empty, binary, missing) is refused as a whole: one
SourceError that names the file and says what is wrong with it, for each of the parsers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kg.errors import SourceError
from kg.loaders import map_page, paper_json
from kg.loaders.records import ParsedItem

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
