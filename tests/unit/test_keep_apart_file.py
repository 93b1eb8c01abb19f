"""The file of splits `kg load --keep-apart` reads: what `kg merges --kept-apart --json`
prints, read back; anything else is refused with the file, the split and what to do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.answers.loads import KeptApart
from kg.errors import SourceError
from kg.load.merges import kept_apart_key, read_kept_apart

PRINTED = [
    {
        "split_from": "title:sparse coding:2010",
        "keys": ["title:sparse coding:2011"],
        "norm_titles": ["sparse coding"],
        "recorded_at": "2026-12-01T11:00:00.123456789+00:00",
    }
]


def test_what_kg_merges_prints_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "splits.json"
    path.write_text(json.dumps({"results": PRINTED}), encoding="utf-8")
    assert read_kept_apart(path) == [KeptApart(**PRINTED[0])]  # type: ignore[arg-type]
    # kg 0.6.0 printed the bare list
    path.write_text(json.dumps(PRINTED), encoding="utf-8")
    assert read_kept_apart(path) == [KeptApart(**PRINTED[0])]  # type: ignore[arg-type]


def test_the_record_key_is_the_one_unmerge_writes() -> None:
    # unmerge.cypher used to build it as $key + ' ' + '|' + each sorted key
    assert kept_apart_key("a", ["c", "b"]) == "a |b|c"
    assert kept_apart_key("a", ["b", "c"]) == kept_apart_key("a", ["c", "b"])


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"keys": ["a"]}', "not a list of splits: Input should be a valid array"),
        ('[{"keys": ["a"]}, {"keys": []}]', "split 2, keys: List should have at least 1 item"),
        ('[{"keys": ["a"], "merged": true}]', "split 1, merged: Extra inputs are not permitted"),
        ('[{"keys": ["a", "  "]}]', "split 1 names an empty key"),
        ("[{", "not a list of splits: Invalid JSON"),
    ],
)
def test_a_bad_file_is_refused_with_the_split_and_what_to_do(
    tmp_path: Path, text: str, said: str
) -> None:
    path = tmp_path / "splits.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        read_kept_apart(path)
    assert str(caught.value).startswith(f"the keep-apart file {path}: ")
    assert said in str(caught.value)
    assert "kg merges --kept-apart --json" in (caught.value.hint or "")


def test_a_missing_or_binary_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read it"):
        read_kept_apart(tmp_path / "absent.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SourceError, match="not UTF-8"):
        read_kept_apart(binary)


def test_keys_are_read_as_lists_show_them_and_arxiv_ids_made_canonical(tmp_path: Path) -> None:
    path = tmp_path / "splits.json"
    split = {
        "split_from": "title:sparse-coding:2010",  # the handle kg merges and kg paper show
        "keys": ["title:sparse-coding:2011", "arXiv:1905.01234v2", "HEP-TH/9901001"],
        "norm_titles": ["sparse coding"],
    }
    path.write_text(json.dumps([split]), encoding="utf-8")
    assert read_kept_apart(path) == [
        KeptApart(
            split_from="title:sparse coding:2010",
            keys=["title:sparse coding:2011", "1905.01234", "hep-th/9901001"],
            norm_titles=["sparse coding"],
        )
    ]


def test_titles_are_normalised_as_the_loaders_normalise_them(tmp_path: Path) -> None:
    """A title written as the paper shows it would match no paper's normalised title, and
    the split would be read by no reconcile of it."""
    path = tmp_path / "splits.json"
    split = {
        "keys": ["title:sparse coding:2011"],
        "norm_titles": ["Sparse Coding", "sparse coding", "Bounds for $p \\leq q$", " "],
    }
    path.write_text(json.dumps([split]), encoding="utf-8")
    assert read_kept_apart(path)[0].norm_titles == ["sparse coding", "bounds for p ≤ q"]


@pytest.mark.parametrize(
    ("key", "meant"),
    [
        ("title:Sparse Coding:2011", "did you mean title:sparse coding:2011?"),
        ("title:sparse coding.:2011", "did you mean title:sparse coding:2011?"),
        ("title:sparse-codi…", ""),  # a handle cut short names no one key
        ("sparse coding", ""),
        ("title:sparse coding:20x1", ""),
        ("arXiv 1905.01234", ""),
    ],
)
def test_a_key_written_otherwise_is_refused_with_how_keys_are_written(
    tmp_path: Path, key: str, meant: str
) -> None:
    path = tmp_path / "splits.json"
    good = {"split_from": "1905.01234", "keys": ["title:x:2019"]}
    path.write_text(json.dumps([good, {"keys": ["title:x:2019", key]}]), encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        read_kept_apart(path)
    assert str(caught.value).startswith(
        f"the keep-apart file {path}: split 2 names {json.dumps(key)}, "
        "which is not written as a key"
    )
    assert "title:<normalised title>:<year>" in (caught.value.hint or "")
    assert meant in (caught.value.hint or "")
    assert ("did you mean" in (caught.value.hint or "")) == bool(meant)
