"""Unit tests for loaders.arxiv_oai: the Kaggle/OAI arXiv metadata JSON-lines parser."""

from __future__ import annotations

import gzip
import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from kg.errors import SourceError
from loaders import arxiv_oai
from loaders.records import PaperRecord, ParsedItem, Rejected, SnapshotRecord
from loaders.source_file import content_sha256

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "arxiv"
SAMPLE = FIXTURES / "sample.jsonl"
MALFORMED = FIXTURES / "malformed.jsonl"


def _papers(items: list[ParsedItem]) -> dict[str, PaperRecord]:
    return {item.arxiv_id or "": item for item in items if isinstance(item, PaperRecord)}


def _rejects(items: list[ParsedItem]) -> dict[int, Rejected]:
    return {item.origin.line: item for item in items if isinstance(item, Rejected)}


@pytest.fixture(scope="module")
def sample() -> list[ParsedItem]:
    return list(arxiv_oai.parse(SAMPLE))


def test_yields_snapshot_first_and_last_with_dates(sample: list[ParsedItem]) -> None:
    first, last = sample[0], sample[-1]
    assert isinstance(first, SnapshotRecord)
    assert isinstance(last, SnapshotRecord)
    assert first.kind == "arxiv_oai"
    assert first.source == "sample.jsonl"
    assert first.sha256 == content_sha256(SAMPLE)
    assert first.key == f"sha256:{first.sha256}"
    assert first.data_date is None
    assert last.key == first.key
    assert last.data_date == date(2021, 10, 12)
    assert last.first_date == date(2007, 5, 23)
    assert not any(isinstance(item, SnapshotRecord) for item in sample[1:-1])


def test_blank_lines_are_skipped_and_every_line_is_a_paper(sample: list[ParsedItem]) -> None:
    papers = [item for item in sample if isinstance(item, PaperRecord)]
    assert [paper.origin.line for paper in papers] == [1, 3, 4, 5, 6]
    assert not any(isinstance(item, Rejected) for item in sample)


def test_full_new_style_record(sample: list[ParsedItem]) -> None:
    paper = _papers(sample)["0704.0001"]
    assert paper.version == 2
    assert paper.title == (
        "Invented cross sections of made-up particles at Imaginary and "
        "Fictional energies with $\\gamma\\gamma$ pairs"
    )
    assert paper.published == date(2007, 4, 2)
    assert paper.year == 2007
    assert paper.as_of == date(2008, 11, 13)
    assert paper.abstract == (
        "A fully invented calculation in made-up chromodynamics is "
        "presented for the production of imaginary photon pairs."
    )
    assert paper.authors == ("C. Balázs", "E. L. Inventa", "P. M. Fictus", "C. -P. Madeup")
    assert paper.primary_category == "hep-ph"
    assert paper.cross_categories == ()
    assert paper.doi == "10.5555/invented.76.000001"
    assert paper.journal_ref == "Inv.Phys.D76:000001,2007"
    assert paper.comments == "37 pages, 15 figures; published version"
    assert paper.license is None
    assert paper.extra == {"report_no": "INV-HEP-PR-07-12"}
    assert isinstance(sample[0], SnapshotRecord)
    assert paper.snapshot == sample[0].key


def test_version_suffix_in_id_and_authors_string(sample: list[ParsedItem]) -> None:
    paper = _papers(sample)["2110.03888"]
    assert paper.version == 3
    assert paper.published is None
    assert paper.year == 2021
    assert paper.authors == ("Ang Wang", "An Yang", "Chang Zhou")
    assert paper.primary_category == "cs.LG"
    assert paper.cross_categories == ("cs.CL", "cs.DC")
    assert paper.license == "http://creativecommons.org/licenses/by-sa/4.0/"


def test_old_style_id_with_latex_authors_and_affiliation(sample: list[ParsedItem]) -> None:
    paper = _papers(sample)["hep-th/9901001"]
    assert paper.authors == ("C. Balázs", "J.-B. Zuber", "José Mourão")
    assert paper.published == date(1999, 1, 1)
    assert paper.version == 1
    assert paper.primary_category == "hep-th"
    assert paper.cross_categories == ("math.QA",)
    assert paper.abstract is None


def test_old_style_id_with_subject_class(sample: list[ParsedItem]) -> None:
    papers = _papers(sample)
    paper = next(p for key, p in papers.items() if key.endswith("/0309136"))
    # LaTeX in a title is stored exactly; only white space is folded.
    assert paper.title == "Three-manifolds with {\\em boundary}"
    assert paper.authors == ("William P. Thurston Jr",)
    assert paper.version == 2
    assert paper.published == date(2003, 9, 8)


def test_all_null_fields(sample: list[ParsedItem]) -> None:
    paper = _papers(sample)["1501.00001"]
    assert paper.title is None
    assert paper.authors == ()
    assert paper.primary_category is None
    assert paper.version is None
    assert paper.published is None
    assert paper.year == 2015
    assert paper.as_of is None


def test_gzipped_file_gives_the_same_records(sample: list[ParsedItem]) -> None:
    zipped = list(arxiv_oai.parse(FIXTURES / "sample.jsonl.gz"))
    plain = [item for item in sample if isinstance(item, PaperRecord)]
    unzipped = [item for item in zipped if isinstance(item, PaperRecord)]
    assert [p.model_dump(exclude={"origin"}) for p in unzipped] == [
        p.model_dump(exclude={"origin"}) for p in plain
    ]
    # The snapshot hash is over the decompressed content, so both files are one snapshot.
    assert isinstance(zipped[0], SnapshotRecord)
    assert isinstance(sample[0], SnapshotRecord)
    assert zipped[0].key == sample[0].key
    assert zipped[0].source == "sample.jsonl.gz"


def test_gzip_is_detected_by_content_and_crlf_is_accepted(tmp_path: Path) -> None:
    crlf = SAMPLE.read_bytes().replace(b"\n", b"\r\n")
    path = tmp_path / "dump.json"
    path.write_bytes(gzip.compress(crlf))
    items = list(arxiv_oai.parse(path))
    papers = _papers(items)
    assert len(papers) == 5
    assert papers["0704.0001"].title is not None
    assert not papers["0704.0001"].title.endswith("\r")
    assert not any(isinstance(item, Rejected) for item in items)


@pytest.fixture(scope="module")
def malformed() -> list[ParsedItem]:
    return list(arxiv_oai.parse(MALFORMED))


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (2, "invalid JSON"),
        (3, "expected a JSON object per line, found a JSON list"),
        (4, "no 'id' field"),
        (5, "id 'not-an-id/12' is not an arXiv id"),
        (6, "'id' must be a string"),
        (7, "field 'categories' must be a space-separated string"),
        (8, "bad date in versions[0].created: 'sometime in April'"),
        (9, "bad update_date '13/11/2008'; expected YYYY-MM-DD"),
        (10, "field 'versions' must be a list"),
        (11, "field 'title' must be a string or null, not int"),
        (12, "versions[0].created: the year 1770 is not between 1800 and 2100"),
    ],
)
def test_malformed_line_is_rejected(malformed: list[ParsedItem], line: int, reason: str) -> None:
    rejected = _rejects(malformed)[line]
    assert reason in rejected.reason
    assert rejected.origin.path == str(MALFORMED)
    assert rejected.raw == MALFORMED.read_text().splitlines()[line - 1]


def test_valid_lines_around_bad_ones_still_come_out(malformed: list[ParsedItem]) -> None:
    papers = _papers(malformed)
    assert sorted(papers) == ["0704.0002", "0704.0012"]
    assert papers["0704.0012"].origin.line == 13
    assert len(_rejects(malformed)) == 11
    last = malformed[-1]
    assert isinstance(last, SnapshotRecord)
    assert last.data_date == date(2009, 2, 1)
    assert last.first_date == date(2008, 12, 13)


def test_raw_text_of_a_reject_is_truncated(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    long_line = '{"id": "0704.0001", "title": "' + "x" * 2000
    path.write_text(long_line + "\n" + json.dumps({"id": "0704.0002"}) + "\n")
    items = list(arxiv_oai.parse(path))
    rejected = _rejects(items)[1]
    assert rejected.raw == long_line[:500]
    assert "0704.0002" in _papers(items)


def test_unreadable_file_raises_source_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl.gz"
    shutil.copy(FIXTURES / "sample.jsonl.gz", broken)
    broken.write_bytes(broken.read_bytes()[:40])
    with pytest.raises(SourceError, match=r"broken\.jsonl\.gz"):
        list(arxiv_oai.parse(broken))
    with pytest.raises(SourceError, match=r"missing\.jsonl"):
        list(arxiv_oai.parse(tmp_path / "missing.jsonl"))


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("C. Itzykson and J.-B. Zuber", ("C. Itzykson", "J.-B. Zuber")),
        ("M. Cveti\\v c, Jean-Fran\\c cois Roussel", ("M. Cvetič", "Jean-François Roussel")),
        ("Bj\\o rn Jensen; Jacek Pawe\\l czyk", ("Bjørn Jensen", "Jacek Pawełczyk")),
        (
            "A. Smith (1), B. Jones (2) ((1) MIT, (2) Univ. of X)",
            ("A. Smith", "B. Jones"),
        ),
        (
            "B. Chakraborty (Bose Centre, Calcutta) Subir Ghosh (ISI, Calcutta)",
            ("B. Chakraborty", "Subir Ghosh"),
        ),
        ("E. S. Moreira, Jr., K. Wu, 10 pages, Latex", ("E. S. Moreira Jr.", "K. Wu")),
        ("A. One, B. Two, and C. Three et al.", ("A. One", "B. Two", "C. Three")),
        ("M. Z. Iofa (Moscow)and L. A. Pando Zayas", ("M. Z. Iofa", "L. A. Pando Zayas")),
        # LaTeX ties and dashes (tests.bench.latex): a dash left over is no name, nor part of one
        ("M.~Ruiz--Altaba and B.~Gato-Rivera", ("M. Ruiz\u2013Altaba", "B. Gato-Rivera")),
        ("A. Smith -- (CERN), B. Jones and ---", ("A. Smith", "B. Jones")),
    ],
)
def test_split_authors(text: str, names: tuple[str, ...]) -> None:
    assert arxiv_oai.split_authors(text) == names


@pytest.mark.parametrize(
    ("arxiv_id", "expected"),
    [
        ("hep-th/9201001", (1992, 1)),
        ("hep-th/0212346", (2002, 12)),
        ("2110.03888", (2021, 10)),
        ("hep-th/9913001", None),
    ],
)
def test_id_year_month(arxiv_id: str, expected: tuple[int, int] | None) -> None:
    assert arxiv_oai.id_year_month(arxiv_id) == expected


# Hardening (issues 13 and 10): huge numbers, oversized values, categories, paragraphs.


def _jsonl(path: Path, *lines: object) -> list[ParsedItem]:
    path.write_text(
        "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in lines),
        encoding="utf-8",
    )
    return list(arxiv_oai.parse(path))


def test_huge_versions_are_rejected_and_the_rest_loads(tmp_path: Path) -> None:
    items = _jsonl(
        tmp_path / "huge.jsonl",
        {"id": "2101.00001", "title": "Fine"},
        {"id": "2101.00002", "title": "T", "versions": [{"version": "v" + "9" * 30}]},
        {"id": "2101.00003v" + "9" * 30, "title": "T"},
        {"id": "2101.00004", "title": "T", "versions": [{"version": "v" + "9" * 5000}]},
        '{"id": "2101.00005", "title": "T", "n": ' + "9" * 5000 + "}",
        {"id": "2101.00006", "title": "Fine too"},
    )
    assert sorted(_papers(items)) == ["2101.00001", "2101.00006"]
    rejects = _rejects(items)
    assert sorted(rejects) == [2, 3, 4, 5]
    for line in (2, 3, 4):
        assert "over 9,223,372,036,854,775,807, the largest Neo4j stores" in rejects[line].reason
    assert rejects[5].reason.startswith("invalid JSON (Exceeds the limit")


def test_oversized_values_and_bad_categories_are_rejected(tmp_path: Path) -> None:
    items = _jsonl(
        tmp_path / "big.jsonl",
        {"id": "2101.00001", "title": "T" * 100_000},
        {"id": "2101.00002", "title": "T", "authors": "A. Person and " + "B" * 600},
        {"id": "2101.00003", "title": "T", "categories": "cs.LG [bold]"},
        {"id": "2101.00004", "title": "T", "categories": "c" * 100},
        {"id": "2101.00005", "title": "\x1b[31mRed\x1b[0m [bold red]markup[/]"},
    )
    rejects = _rejects(items)
    assert rejects[1].reason == "the title is 100,000 characters long, over the limit of 2,000"
    assert "is 600 characters long, over the limit of 500" in rejects[2].reason
    assert rejects[3].reason.startswith("categories: '[bold]' is not an arXiv category code")
    assert rejects[4].reason.startswith("categories: 'cccc")
    assert _papers(items)["2101.00005"].title == "\x1b[31mRed\x1b[0m [bold red]markup[/]"


def test_abstract_keeps_its_paragraph_breaks(tmp_path: Path) -> None:
    abstract = (
        "  The first paragraph runs\nover two lines.\n  An indented line starts the second."
        "\n\nA blank line starts the third,\r\n   which ends here.  \n"
    )
    items = _jsonl(tmp_path / "p.jsonl", {"id": "2101.00001", "abstract": abstract})
    assert _papers(items)["2101.00001"].abstract == (
        "The first paragraph runs over two lines.\n\n"
        "An indented line starts the second.\n\n"
        "A blank line starts the third,\n\nwhich ends here."
    )


def test_deeply_nested_parentheses_in_authors_take_linear_time() -> None:
    names = arxiv_oai.split_authors("A. One " + "(" * 50_000 + "x" + ")" * 50_000 + ", B. Two")
    assert names == ("A. One", "B. Two")
    assert arxiv_oai.split_authors("A. One (Cut (off, B. Two") == ("A. One",)


def test_a_created_date_with_a_huge_year_is_rejected(tmp_path: Path) -> None:
    # Found by tests/unit/test_parser_fuzz.py: email.utils raised OverflowError.
    created = "Tue, 2 Jan 999999999999999999999999992024 10:00:00 GMT"
    items = _jsonl(
        tmp_path / "y.jsonl",
        {"id": "2101.00001", "versions": [{"version": "v1", "created": created}]},
        {"id": "2101.00002", "title": "Fine"},
    )
    assert sorted(_papers(items)) == ["2101.00002"]
    assert _rejects(items)[1].reason.startswith(
        "versions[0].created: the year 99999999999999999999 is not between 1800 and 2100"
    )


def test_dates_outside_the_years_1800_to_2100_are_rejected(tmp_path: Path) -> None:
    def line(number: int, created: str, updated: str) -> dict[str, object]:
        return {
            "id": f"2101.0000{number}",
            "title": f"Paper {number}",
            "versions": [{"version": "v1", "created": created}],
            "update_date": updated,
        }

    items = _jsonl(
        tmp_path / "dates.jsonl",
        line(1, "Mon, 2 Apr 2007 19:18:42 GMT", "9999-12-31"),  # would win every later fix
        line(2, "Mon, 2 Apr 0000 19:18:42 GMT", "2008-01-01"),  # the email module: 2000
        line(3, "Mon, 2 Apr 1700 19:18:42 GMT", "2008-01-01"),
        line(4, "Mon, 2 Apr 2007 19:18:42 GMT", "1799-12-31"),
        line(5, "Mon, 2 Apr 07 19:18:42 GMT", "2008-01-02"),  # RFC 2822's two-digit year
    )
    assert {key: paper.published for key, paper in _papers(items).items()} == {
        "2101.00005": date(2007, 4, 2)
    }
    assert {line: item.reason for line, item in _rejects(items).items()} == {
        1: "update_date: the year 9999 is not between 1800 and 2100 ('9999-12-31'); "
        "fix the date or set it to null",
        2: "versions[0].created: the year 0000 is not between 1800 and 2100 "
        "('Mon, 2 Apr 0000 19:18:42 GMT'); fix the date",
        3: "versions[0].created: the year 1700 is not between 1800 and 2100 "
        "('Mon, 2 Apr 1700 19:18:42 GMT'); fix the date",
        4: "update_date: the year 1799 is not between 1800 and 2100 ('1799-12-31'); "
        "fix the date or set it to null",
    }
    snapshot = items[-1]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.data_date == snapshot.first_date == date(2008, 1, 2)
    # An incremental load reads the date of an unchanged line without decoding it: one
    # outside the years is decoded (and rejected) all the same.
    items = list(arxiv_oai.parse(tmp_path / "dates.jsonl", lambda text: True))
    assert sorted(_rejects(items)) == [1, 4]
    snapshot = items[-1]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.data_date == date(2008, 1, 2)


def test_skipped_lines_still_date_the_snapshot(tmp_path: Path) -> None:
    """An incremental load's unchanged lines are not decoded; the update_date each states,
    read without decoding, still gives the snapshot's first and newest dates, as a full
    read of the file does."""
    lines = [
        {"id": "2101.00001", "title": "One", "update_date": "2019-02-03"},
        {"id": "2101.00002", "title": "Two", "update_date": "2024-05-01"},
        {"id": "2101.00003", "title": "Three", "update_date": None},
        {"id": "2101.00004", "title": "Four"},
        {"id": "2101.00005", "title": "Five", "update_date": " 2025-01-02 "},
        {"id": "2101.00006", "title": "Six", "update_date": "2020-02-30"},
    ]
    path = tmp_path / "dump.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")

    def dates(items: list[ParsedItem]) -> tuple[date | None, date | None]:
        last = items[-1]
        assert isinstance(last, SnapshotRecord)
        return last.first_date, last.data_date

    full = list(arxiv_oai.parse(path))
    seen: list[str] = []

    def unchanged(text: str) -> bool:
        seen.append(text)
        return True

    skipping = list(arxiv_oai.parse(path, unchanged))
    assert dates(skipping) == dates(full) == (date(2019, 2, 3), date(2025, 1, 2))
    # the line whose date is spelt with spaces is decoded, and the one with no such day is
    # rejected as in a full read; the others are skipped unread
    assert [r.arxiv_id for r in skipping if isinstance(r, PaperRecord)] == ["2101.00005"]
    rejected = [r.reason for r in skipping if isinstance(r, Rejected)]
    assert rejected == [r.reason for r in full if isinstance(r, Rejected)]
    assert len(rejected) == 1
    assert "2020-02-30" in rejected[0]
    assert len(seen) == 4
