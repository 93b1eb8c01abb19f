"""Unit tests for loaders.detect: telling a file's format from its content."""

from __future__ import annotations

import gzip
import json
import tarfile
from pathlib import Path

import pytest

from kg.errors import SourceError
from loaders.detect import detect_format
from loaders.formats import FORMATS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

PAGE = """mlsanityData to 14 Oct 2026

Attention Is All You Need

arXiv 1706.03762 ↗First posted 12 Jun 2017cs.CL cs.LGcited by 60,361

Key facts. Cited by 60,361 papers in the map (data through 14 Oct 2026).

References · 2

  1. 2014Neural Machine Translation by Jointly Learning to Align and Translatecited by 9,001
  2. 2015Deep Residual Learning for Image Recognitioncited by 50,000
"""

PITH = {
    "paper": {"title": "M6-10T", "primary_cat": "cs.LG"},
    "claims": {"count": 0, "items": []},
    "source": {"id": "2110.03888", "kind": "arxiv", "version": 3},
    "builder_version": "pith-number-builder-2026-05-17-v1",
}


# Made-up records in the shape the APIs return (tests/unit/test_detect_works.py has more).
OPENALEX_WORK = {
    "id": "https://openalex.org/W1000000001",
    "doi": "https://doi.org/10.1234/made.up.1",
    "title": "A Made-Up Work",
    "publication_year": 2021,
    "referenced_works": ["https://openalex.org/W1000000002"],
}
CROSSREF_ANSWER = {
    "status": "ok",
    "message-type": "work",
    "message": {"DOI": "10.1234/made.up.2", "title": ["A Made-Up Crossref Work"]},
}


def _write(tmp_path: Path, name: str, text: str, *, zipped: bool = False) -> Path:
    path = tmp_path / name
    data = text.encode()
    path.write_bytes(gzip.compress(data) if zipped else data)
    return path


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        ("arxiv/sample.jsonl", "arxiv_oai"),
        ("arxiv/sample.jsonl.gz", "arxiv_oai"),
        ("arxiv/malformed.jsonl", "arxiv_oai"),
        ("edges/snap_hepth.txt", "edge_list"),
        ("edges/snap_hepth.txt.gz", "edge_list"),
        ("edges/citing_cited.tsv", "edge_list"),
        ("edges/source_target.csv", "edge_list"),
        ("edges/whitespace.txt", "edge_list"),
        ("abs/listing.abs", "hepth_abs"),
        ("abs/tree", "hepth_abs"),
        ("abs/tree/1992/9201001.abs", "hepth_abs"),
    ],
)
def test_fixtures(relative: str, expected: str) -> None:
    assert detect_format(FIXTURES / relative) == expected


def test_map_page(tmp_path: Path) -> None:
    assert detect_format(_write(tmp_path, "page.txt", PAGE)) == "map_page"


@pytest.mark.parametrize(
    "text",
    [
        "Some title\n\n  1. 2017Attention Is All You Needcited by 60,361\n",
        "Some title\n\nKey facts. Cited by 3 papers in the map.\n",
        "Some title\n\narXiv 2110.03888 ↗First posted 8 Oct 2021\n",
    ],
)
def test_each_page_signature_alone(tmp_path: Path, text: str) -> None:
    assert detect_format(_write(tmp_path, "page.txt", text)) == "map_page"


def test_pith_record_one_line_and_pretty_printed(tmp_path: Path) -> None:
    assert detect_format(_write(tmp_path, "a.json", json.dumps(PITH) + "\n")) == "paper_json"
    assert detect_format(_write(tmp_path, "b.json", json.dumps(PITH, indent=2))) == "paper_json"


def test_content_wins_over_the_name(tmp_path: Path) -> None:
    arxiv_line = json.dumps({"id": "2110.03888", "title": "x", "categories": "cs.LG"})
    assert (
        detect_format(_write(tmp_path, "edges.csv", arxiv_line + "\n", zipped=True)) == "arxiv_oai"
    )
    assert detect_format(_write(tmp_path, "paper.json", "1001\t9304045\n")) == "edge_list"


def test_arxiv_needs_a_metadata_field(tmp_path: Path) -> None:
    path = _write(tmp_path, "ids.jsonl", json.dumps({"id": "2110.03888"}) + "\n")
    with pytest.raises(SourceError, match="neither a paper record nor an arXiv metadata line"):
        detect_format(path)


def test_edge_lists_by_header_or_comments(tmp_path: Path) -> None:
    assert (
        detect_format(_write(tmp_path, "a", "citing,cited\n2110.03888,1706.03762\n")) == "edge_list"
    )
    assert detect_format(_write(tmp_path, "b", '"from"\t"to"\n')) == "edge_list"
    assert detect_format(_write(tmp_path, "c", "# Nodes: 0 Edges: 0\n")) == "edge_list"


def test_abs_text_starting_with_paper(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.txt", "Paper: hep-th/9201001\nTitle: T\n", zipped=True)
    assert detect_format(path) == "hepth_abs"


def test_abs_tarball(tmp_path: Path) -> None:
    tarball = tmp_path / "abstracts.tgz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(FIXTURES / "abs" / "tree", arcname="abstracts")
    assert detect_format(tarball) == "hepth_abs"


def test_tarball_of_other_files_is_unknown(tmp_path: Path) -> None:
    tarball = tmp_path / "other.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(FIXTURES / "edges" / "to_from.csv", arcname="to_from.csv")
    with pytest.raises(SourceError, match=r"'to_from\.csv' is not \.abs"):
        detect_format(tarball)


@pytest.mark.parametrize(
    "text",
    ["Dear reader,\nthis is a letter.\n", "hello world\n", "[1, 2, 3]\n"],
)
def test_unknown_content_lists_the_formats(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, "unknown.txt", text)
    with pytest.raises(SourceError, match=r"unknown\.txt: cannot tell its format") as info:
        detect_format(path)
    assert info.value.hint == "pass --format with one of " + ", ".join(FORMATS)
    assert tuple(FORMATS)[:5] == ("map_page", "paper_json", "arxiv_oai", "edge_list", "hepth_abs")


@pytest.mark.parametrize("text", ["", "\n  \n\t\n", "\ufeff\n\ufeff\n"])
def test_empty_file(tmp_path: Path, text: str) -> None:
    with pytest.raises(SourceError, match=r"empty\.txt: the file is empty"):
        detect_format(_write(tmp_path, "empty.txt", text))


def test_empty_gzip_and_missing_path(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="the file is empty"):
        detect_format(_write(tmp_path, "empty.gz", "", zipped=True))
    with pytest.raises(SourceError, match=r"nowhere\.txt: no such file"):
        detect_format(tmp_path / "nowhere.txt")


def test_directory_without_abs_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing\n")
    with pytest.raises(SourceError, match=r"a directory without \.abs files"):
        detect_format(tmp_path)


# Hardening (issue 13): deep JSON, and reading past a bad line near the top.


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        "[" * 100_000,
    ],
    ids=["arrays", "objects", "unclosed"],
)
def test_json_nested_100k_deep_is_unknown_not_a_crash(tmp_path: Path, text: str) -> None:
    with pytest.raises(SourceError, match="JSON, but neither a paper record nor an arXiv"):
        detect_format(_write(tmp_path, "deep.json", text + "\n"))


def test_deep_json_naming_a_paper_record_is_still_pith(tmp_path: Path) -> None:
    text = '{"paper": {}, "source": {}, "deep": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    assert detect_format(_write(tmp_path, "deep.json", text)) == "paper_json"


EDGES = "".join(f"2110.0388{n}\t1706.0376{n}\n" for n in range(8))


@pytest.mark.parametrize(
    "text",
    [
        "2110.03888\t1706.03762\nthis line is garbage\n" + EDGES,
        "garbage first\n" + EDGES,
        "# comment\ngarbage\tgarbage\tgarbage\n" + EDGES,
        "2110.03888\t1706.03762v" + "9" * 5000 + "\n" + EDGES,
        "some junk\nciting,cited\n2110.03888,1706.03762\n",
    ],
    ids=["second-line", "first-line", "after-comment", "huge-version", "junk-before-header"],
)
def test_edge_list_with_a_bad_line_near_the_top(tmp_path: Path, text: str) -> None:
    assert detect_format(_write(tmp_path, "edges.txt", text)) == "edge_list"


def test_arxiv_lines_with_a_bad_first_line(tmp_path: Path) -> None:
    good = "".join(
        json.dumps({"id": f"2101.0000{n}", "title": "T", "categories": "cs.LG"}) + "\n"
        for n in range(5)
    )
    assert detect_format(_write(tmp_path, "a.jsonl", "not json at all\n" + good)) == "arxiv_oai"
    assert detect_format(_write(tmp_path, "b.jsonl", '{"broken": \n' + good)) == "arxiv_oai"
    pith = json.dumps(PITH) + "\n"
    assert detect_format(_write(tmp_path, "c.jsonl", "garbage\n" + pith * 3)) == "paper_json"


def test_abs_with_a_bad_first_line(tmp_path: Path) -> None:
    text = "a stray line\nPaper: hep-th/9201001\nTitle: T\n\\\\\n  Abstract.\n\\\\\n"
    assert detect_format(_write(tmp_path, "x.txt", text)) == "hepth_abs"


def test_mostly_garbage_is_still_unknown(tmp_path: Path) -> None:
    text = "garbage one\ngarbage two\ngarbage three\n2110.03888\t1706.03762\n"
    with pytest.raises(SourceError, match="cannot tell its format"):
        detect_format(_write(tmp_path, "junk.txt", text))


def test_the_format_table_drives_the_cli_detection_and_snapshot_kinds(tmp_path: Path) -> None:
    """One name per format: --format takes the table's names, detection returns one of them,
    and the snapshot a parser yields has that name as its kind."""
    from typing import get_args

    from click.testing import CliRunner

    from kg.cli import main
    from loaders.records import SnapshotKind

    assert set(get_args(SnapshotKind)) == set(FORMATS)
    load = main.commands["load"]
    fmt = next(p for p in load.params if p.name == "fmt")
    assert list(fmt.type.choices) == ["auto", *FORMATS]  # type: ignore[attr-defined]
    samples = {
        "map_page": _write(tmp_path, "page.txt", PAGE),
        "paper_json": _write(tmp_path, "record.json", json.dumps(PITH) + "\n"),
        "arxiv_oai": FIXTURES / "arxiv" / "sample.jsonl",
        "edge_list": FIXTURES / "edges" / "citing_cited.tsv",
        "hepth_abs": FIXTURES / "abs" / "listing.abs",
        "openalex": _write(tmp_path, "works.jsonl", json.dumps(OPENALEX_WORK) + "\n"),
        "crossref": _write(tmp_path, "crossref.json", json.dumps(CROSSREF_ANSWER)),
        "semantic_scholar": _write(tmp_path, "s2.jsonl", json.dumps({"paperId": "ab" * 20}) + "\n"),
        "unarxive": _write(
            tmp_path,
            "unarxive.jsonl",
            json.dumps({"paper_id": "2105.05862", "metadata": {}, "bib_entries": {}}) + "\n",
        ),
    }
    assert set(samples) == set(FORMATS)
    for name, path in samples.items():
        assert detect_format(path) == name
        first = next(iter(FORMATS[name].parse(path, "arxiv", None)))
        assert getattr(first, "kind", None) == name, (name, first)
    listed = CliRunner().invoke(main, ["formats", "--json"])
    assert listed.exit_code == 0, listed.output
    assert [row["name"] for row in json.loads(listed.output)["results"]] == list(FORMATS)


@pytest.mark.parametrize(
    ("encoding", "mark"), [("utf-16-le", "FF FE"), ("utf-16-be", "FE FF"), ("utf-16", "FF FE")]
)
@pytest.mark.parametrize("zipped", [False, True])
def test_utf16_text_says_to_save_it_as_utf8(
    tmp_path: Path, encoding: str, mark: str, zipped: bool
) -> None:
    path = tmp_path / "edges.csv"
    data = "citing,cited\n1907.11692,1810.04805\n".encode(encoding)
    if encoding != "utf-16":  # the utf-16 codec writes its byte order mark itself
        data = "\ufeff".encode(encoding) + data
    path.write_bytes(gzip.compress(data) if zipped else data)
    with pytest.raises(
        SourceError, match=rf"edges\.csv: the file is UTF-16 text \(.*{mark}\)"
    ) as info:
        detect_format(path)
    assert "save it as UTF-8" in info.value.hint
