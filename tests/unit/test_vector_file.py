"""Vectors a user brings (loaders.vectors): every id field a dump names papers by, vectors as
lists or JSON strings, JSON lines (gzipped or not) and Parquet, and each bad row a reject
with its file and line while the others still read."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.errors import SourceError
from loaders.records import Rejected
from loaders.vectors import DIMENSION_SAMPLE, VectorRow, read_vectors


def _read(path: Path) -> tuple[list[VectorRow], list[Rejected]]:
    items = list(read_vectors(path))
    good = [item for item in items if isinstance(item, VectorRow)]
    bad = [item for item in items if isinstance(item, Rejected)]
    assert len(good) + len(bad) == len(items)
    return good, bad


def _lines(path: Path, rows: list[object]) -> Path:
    path.write_text(
        "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows),
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("row", "names"),
    [
        ({"arxiv_id": "arXiv:1706.03762v5"}, ("1706.03762", None, None)),
        ({"arxiv": "hep-th/9906064"}, ("hep-th/9906064", None, None)),
        ({"corpusid": 13756489}, (None, "corpus:13756489", None)),
        ({"corpus_id": "13756489"}, (None, "corpus:13756489", None)),
        ({"paperId": "204e3073870fae3d05bcbc2f6a8e263d9b72e776"},
         (None, "s2:204e3073870fae3d05bcbc2f6a8e263d9b72e776", None)),
        ({"doi": "https://doi.org/10.1145/3292500.3330701"},
         (None, "doi:10.1145/3292500.3330701", None)),
        ({"openalex": "https://openalex.org/W2741809807"}, (None, "openalex:W2741809807", None)),
        ({"id": "CorpusId:42"}, (None, "corpus:42", None)),
        ({"id": "1810.04805"}, ("1810.04805", None, None)),
        ({"key": "title:attention is all you need:2017"},
         (None, None, "title:attention is all you need:2017")),
    ],
)  # fmt: skip
def test_each_id_field_names_a_paper(
    tmp_path: Path, row: dict[str, object], names: tuple[str | None, ...]
) -> None:
    good, bad = _read(_lines(tmp_path / "v.jsonl", [{**row, "vector": [0.5, 1]}]))
    assert not bad
    assert (good[0].arxiv_id, good[0].id_key, good[0].key) == names
    assert good[0].vector == [0.5, 1.0]


def test_a_vector_as_a_json_string_and_a_stated_model(tmp_path: Path) -> None:
    row = {"corpusid": 7, "model": " specter_v2 ", "vector": "[0.25, -1, 3e-2]"}
    good, _ = _read(_lines(tmp_path / "s2.jsonl", [row]))
    assert good[0].vector == [0.25, -1.0, 0.03]
    assert good[0].model == "specter_v2"


def test_bad_rows_are_rejects_with_their_line_and_the_rest_read(tmp_path: Path) -> None:
    rows: list[object] = [
        "{not json",
        {"arxiv_id": "1706.03762", "vector": [1, 2, 3]},
        {"title": "no id at all", "vector": [1, 2, 3]},
        {"arxiv_id": "not an id", "vector": [1, 2, 3]},
        {"arxiv_id": "1706.03762"},
        {"arxiv_id": "1706.03762", "vector": []},
        {"arxiv_id": "1706.03762", "vector": [1, "2", 3]},
        {"arxiv_id": "1706.03762", "vector": [1, True, 3]},
        '{"arxiv_id": "1706.03762", "vector": [1, NaN, 3]}',
        {"arxiv_id": "1706.03762", "vector": [0, 0, 0]},
        {"arxiv_id": "1706.03762", "vector": "[1, 2"},
        "[" * 100_000,
        "[1, 2, 3]",
        {"arxiv_id": "1706.03762", "vector": [1, 2]},
        {"arxiv_id": "1810.04805", "vector": [4, 5, 6]},
    ]
    path = _lines(tmp_path / "bad.jsonl", rows)
    good, bad = _read(path)
    assert [row.origin.line for row in good] == [2, 15]
    assert [row.origin.line for row in bad] == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
    reasons = {row.origin.line: row.reason for row in bad}
    assert reasons[1].startswith("the line is not JSON")
    assert "names no paper" in reasons[3]
    assert "names no paper" in reasons[4]
    assert "no vector" in reasons[5]
    assert "not a number" in reasons[7]
    assert "not a number" in reasons[8]
    assert "NaN" in reasons[9]
    assert "all zeros" in reasons[10]
    assert "not a JSON list" in reasons[11]
    assert "not JSON" in reasons[12]
    assert "not a JSON object" in reasons[13]
    assert "has 2 numbers where the file's have 3" in reasons[14]
    assert all(row.message().startswith(f"{path}:{row.origin.line}: ") for row in bad)


def test_the_dimension_is_what_most_of_the_first_rows_have(tmp_path: Path) -> None:
    rows: list[object] = [{"arxiv_id": "1706.03762", "vector": [1, 2]}]
    rows += [{"arxiv_id": f"1810.{n:05d}", "vector": [1, 2, 3]} for n in range(3)]
    good, bad = _read(_lines(tmp_path / "head.jsonl", rows))
    assert [len(row.vector) for row in good] == [3, 3, 3]
    assert [row.origin.line for row in bad] == [1]
    assert DIMENSION_SAMPLE >= 100


def test_gzip_and_parquet_read_alike(tmp_path: Path) -> None:
    rows = [
        {"arxiv_id": "1706.03762", "vector": [0.1, 0.2]},
        {"corpusid": 5, "vector": [0.3, 0.4]},
        {"doi": "10.1/x", "vector": None},
    ]
    plain = _lines(tmp_path / "v.jsonl", rows)
    zipped = tmp_path / "v.jsonl.gz"
    zipped.write_bytes(gzip.compress(plain.read_bytes()))
    table = pa.table(
        {
            "arxiv_id": ["1706.03762", None, None],
            "corpusid": [None, 5, None],
            "doi": [None, None, "10.1/x"],
            "vector": [[0.1, 0.2], [0.3, 0.4], None],
        }
    )
    parquet = tmp_path / "v.parquet"
    pq.write_table(table, parquet)
    read = [_read(path) for path in (plain, zipped, parquet)]
    for good, bad in read:
        assert [(r.arxiv_id, r.id_key, r.vector) for r in good] == [
            ("1706.03762", None, [0.1, 0.2]),
            (None, "corpus:5", [0.3, 0.4]),
        ]
        assert [r.origin.line for r in bad] == [3]


def test_a_file_that_is_not_there_or_not_parquet_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        list(read_vectors(tmp_path / "missing.jsonl"))
    fake = tmp_path / "fake.parquet"
    fake.write_text("not parquet", encoding="utf-8")
    with pytest.raises(SourceError, match="not a Parquet file"):
        list(read_vectors(fake))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=80), max_size=8))
def test_any_lines_read_as_rows_or_rejects(tmp_path_factory: pytest.TempPathFactory,
                                          lines: list[str]) -> None:  # fmt: skip
    path = tmp_path_factory.mktemp("fuzz") / "v.jsonl"
    path.write_text("\n".join(line.replace("\r", " ") for line in lines), encoding="utf-8")
    good, bad = _read(path)
    assert all(row.vector for row in good)
    assert all(row.reason for row in bad)
