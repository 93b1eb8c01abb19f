"""Unit tests for loaders.hepth_abs: KDD Cup 2003 hep-th .abs files, tarball and directory."""

from __future__ import annotations

import gzip
import io
import os
import tarfile
import threading
import zlib
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from kg.errors import SourceError
from loaders import hepth_abs
from loaders.records import PaperRecord, ParsedItem, Rejected, SnapshotRecord
from loaders.source_file import content_sha256
from tests import parsed
from tests.data import REAL_HEPTH_ABSTRACTS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "abs"
TREE = FIXTURES / "tree"
REAL_TARBALL = REAL_HEPTH_ABSTRACTS
KEY = "sha256:" + "0" * 64


def _papers(items: list[ParsedItem]) -> dict[str, PaperRecord]:
    return {item.arxiv_id or "": item for item in items if isinstance(item, PaperRecord)}


def _tarball(path: Path, *, compress: bool) -> Path:
    """Write a tarball like the KDD one: a directory entry, .abs members and a stray file."""
    with tarfile.open(path, "w:gz" if compress else "w") as archive:
        folder = tarfile.TarInfo("abstracts")
        folder.type = tarfile.DIRTYPE
        archive.addfile(folder)
        for file in sorted(TREE.rglob("*")):
            if file.is_file():
                archive.add(file, arcname=f"abstracts/{file.relative_to(TREE).as_posix()}")
        listing = (FIXTURES / "listing.abs").read_bytes()
        member = tarfile.TarInfo("abstracts/listing.abs")
        member.size = len(listing)
        archive.addfile(member, io.BytesIO(listing))
    return path


@pytest.fixture(scope="module")
def listing() -> list[ParsedItem]:
    return list(hepth_abs.parse(FIXTURES / "listing.abs"))


def test_snapshot_first(listing: list[ParsedItem]) -> None:
    snapshot = listing[0]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.kind == "hepth_abs"
    assert snapshot.source == "listing.abs"
    assert snapshot.sha256 == content_sha256(FIXTURES / "listing.abs")
    assert not any(isinstance(item, SnapshotRecord) for item in listing[1:])


def test_concatenated_listing_gives_one_paper_per_record(listing: list[ParsedItem]) -> None:
    papers = [item for item in listing if isinstance(item, PaperRecord)]
    assert [(p.arxiv_id, p.origin.line) for p in papers] == [
        ("hep-th/9312112", 3),
        ("hep-th/9303001", 23),
        ("hep-th/9509068", 34),
        ("hep-th/9705206", 45),
        ("hep-th/0212346", 56),
    ]
    assert parsed.rejects(listing) == []


def test_wrapped_fields_authors_with_latex_and_affiliations(listing: list[ParsedItem]) -> None:
    paper = _papers(listing)["hep-th/9312112"]
    assert paper.title == ("Invented structures on imaginary moduli spaces and their quantization")
    assert paper.authors == ("C. Balázs", "M. Cvetič", "J. Ambjørn")
    assert paper.comments == "18 pages, with corrections and an appendix"
    assert paper.published == date(1993, 12, 14)
    assert paper.year == 1993
    assert paper.as_of == date(1993, 12, 14)
    assert paper.version == 3
    assert paper.abstract == (
        "Let $\\pi$ be an invented group of a made-up surface and $G$ a Lie "
        "group with a biinvariant metric."
    )
    assert paper.extra == {"report_no": "PUB. NOWHERE-93-33.X"}


def test_subj_class_keeps_codes_and_maps_subject_names(listing: list[ParsedItem]) -> None:
    papers = _papers(listing)
    assert papers["hep-th/9312112"].primary_category == "hep-th"
    # "Symplectic Geometry" is a subject name: it is cross-listed as math.SG.
    assert papers["hep-th/9312112"].cross_categories == ("math.QA", "math.SG", "math-ph")
    assert papers["hep-th/9303001"].cross_categories == ()


def test_suffix_and_et_al_in_authors(listing: list[ParsedItem]) -> None:
    assert _papers(listing)["hep-th/9303001"].authors == ("A. Author", "B. Author Jr.", "C. Author")


def test_vms_style_date(listing: list[ParsedItem]) -> None:
    assert _papers(listing)["hep-th/9303001"].published == date(1993, 3, 12)


@pytest.mark.parametrize("arxiv_id", ["hep-th/9509068", "hep-th/9705206"])
def test_odd_or_implausible_date_falls_back_to_the_id_month(
    listing: list[ParsedItem], arxiv_id: str
) -> None:
    paper = _papers(listing)[arxiv_id]
    year, month = int("19" + arxiv_id[7:9]), int(arxiv_id[9:11])
    assert paper.published == date(year, month, 1)
    assert paper.year == year
    assert paper.extra["published_from_id"] is True


def test_last_record_without_closing_line_or_authors(listing: list[ParsedItem]) -> None:
    paper = _papers(listing)["hep-th/0212346"]
    assert paper.authors == ()
    assert paper.published == date(2002, 12, 31)
    assert paper.abstract == "Its abstract runs to the end of the file."


def test_directory_of_abs_files_ignores_other_files() -> None:
    items = list(hepth_abs.parse(TREE))
    snapshot = items[0]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.source == "tree"
    papers = [item for item in items if isinstance(item, PaperRecord)]
    assert [(p.arxiv_id, p.origin.path) for p in papers] == [
        ("hep-th/9201001", str(TREE / "1992" / "9201001.abs")),
        ("hep-th/9901001", str(TREE / "1999" / "9901001.abs")),
    ]
    first, second = papers
    assert first.published == date(1991, 12, 31)  # ctime-style date, a day before the id month
    assert first.authors == ("A. Writer", "B.-C. Reader")
    assert first.journal_ref == "Invented J. Phys. A7 (1992) 1-46"
    assert first.cross_categories == ("math.QA",)  # Subj-class: ...; Quantum Algebra
    assert second.authors == ("Petre Diţă",)
    assert second.version == 2


def test_directory_snapshot_changes_with_content(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    (copy / "1992").mkdir(parents=True)
    text = (TREE / "1992" / "9201001.abs").read_text()
    (copy / "1992" / "9201001.abs").write_text(text)
    before = next(iter(hepth_abs.parse(copy)))
    (copy / "1992" / "9201001.abs").write_text(text.replace("46 pages", "47 pages"))
    after = next(iter(hepth_abs.parse(copy)))
    assert isinstance(before, SnapshotRecord)
    assert isinstance(after, SnapshotRecord)
    assert before.key != after.key


@pytest.mark.parametrize("compress", [True, False])
def test_tarball_is_streamed(tmp_path: Path, compress: bool) -> None:
    tarball = _tarball(tmp_path / "abstracts.tar.gz", compress=compress)
    items = list(hepth_abs.parse(tarball))
    snapshot = items[0]
    assert isinstance(snapshot, SnapshotRecord)
    assert snapshot.sha256 == content_sha256(tarball)
    papers = _papers(items)
    assert len(papers) == 7
    assert papers["hep-th/9201001"].origin.path == f"{tarball}:abstracts/1992/9201001.abs"
    assert papers["hep-th/9201001"].origin.line == 3
    assert papers["hep-th/9705206"].origin.path == f"{tarball}:abstracts/listing.abs"
    assert papers["hep-th/9705206"].origin.line == 45
    assert parsed.rejects(items) == []
    assert not (tmp_path / "abstracts").exists()  # nothing was extracted


def test_gzipped_single_file(tmp_path: Path) -> None:
    path = tmp_path / "9201001"
    path.write_bytes(gzip.compress((TREE / "1992" / "9201001.abs").read_bytes()))
    assert list(_papers(list(hepth_abs.parse(path)))) == ["hep-th/9201001"]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (14, "'Paper: hep-th/abc' is not an arXiv id; expected e.g. 'Paper: hep-th/9201001'"),
        (24, "hep-th/9201004 has no title; add a 'Title:' line to the header"),
    ],
)
def test_malformed_records_are_rejected(line: int, reason: str) -> None:
    path = FIXTURES / "malformed.abs"
    items = list(hepth_abs.parse(path))
    rejected = {item.origin.line: item for item in parsed.rejects(items)}[line]
    assert rejected.reason == reason
    assert rejected.origin.path == str(path)
    assert rejected.raw.startswith("Paper: ")
    assert sorted(_papers(items)) == ["hep-th/9201002", "hep-th/9201005"]


def test_record_without_paper_line_is_rejected() -> None:
    items = list(hepth_abs.parse(FIXTURES / "no_paper.abs"))
    (rejected,) = parsed.rejects(items)
    assert rejected.origin.line == 1
    assert rejected.reason.startswith("no 'Paper:' line")
    assert "Title: A record without a Paper line" in rejected.raw


def test_runaway_record_is_rejected_and_parsing_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hepth_abs, "MAX_RECORD_LINES", 20)
    path = tmp_path / "runaway.abs"
    junk = "".join(f"junk line {n}\n" for n in range(50))
    path.write_text(junk + (TREE / "1992" / "9201001.abs").read_text())
    items = list(hepth_abs.parse(path))
    (rejected,) = parsed.rejects(items)
    assert rejected.origin.line == 1
    assert "record runs over 20 lines" in rejected.reason
    assert _papers(items)["hep-th/9201001"].origin.line == 53


def test_parse_abs_on_text() -> None:
    text = (TREE / "1999" / "9901001.abs").read_text()
    record = hepth_abs.parse_abs(text, "memory.abs", KEY)
    assert isinstance(record, PaperRecord)
    assert record.snapshot == KEY
    assert record.origin.path == "memory.abs"
    assert record.origin.line == 3
    assert record.title == "An invented paper about branes"
    bad = hepth_abs.parse_abs("Title: only a title\n", "memory.abs", KEY)
    assert isinstance(bad, Rejected)
    assert bad.reason.startswith("no 'Paper:' line")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tue Dec 31 23:10:10 MET 1991 +0100   (30kb)", date(1991, 12, 31)),
        ("Tue, 14 Dec 93 11:12:13 +0100   (12kb)", date(1993, 12, 14)),
        ("Wed, 15 Mar 1995 17:34:48 +1100   (18kb)", date(1995, 3, 15)),
        ("12-MAR-1993 10:01:02.5 TST   (9kb)", date(1993, 3, 12)),
        ("THU, 12 MAY 1994 10:00 EXP   (9kb)", date(1994, 5, 12)),
        ("5 September 1996 10:00:00 CDT   (9kb)", date(1996, 9, 5)),
        ("01/02/93 13:35:33 GMT+0100   (7kb)", date(1993, 2, 1)),
        ("Thu Mar 4 12:00:00 1993   (7kb)", date(1993, 3, 4)),
        ("sometime   (7kb)", None),
    ],
)
def test_parse_abs_date(text: str, expected: date | None) -> None:
    assert hepth_abs.parse_abs_date(text) == expected


def test_tar_without_abs_files_is_a_source_error(tmp_path: Path) -> None:
    tarball = tmp_path / "other.tar"
    with tarfile.open(tarball, "w") as archive:
        archive.add(TREE / "README.txt", arcname="README.txt")
    with pytest.raises(SourceError, match=r"holds no \.abs files"):
        list(hepth_abs.parse(tarball))


def test_truncated_tarball_is_a_source_error(tmp_path: Path) -> None:
    tarball = _tarball(tmp_path / "full.tar", compress=False)
    truncated = tmp_path / "truncated.tar"
    truncated.write_bytes(tarball.read_bytes()[:1600])
    with pytest.raises(SourceError, match=r"truncated\.tar: cannot read the tar archive") as info:
        list(hepth_abs.parse(truncated))
    assert "not corrupt" in info.value.hint


def _good_and_bad(folder: Path) -> dict[str, bytes]:
    """a.abs and c.abs (one paper and five), and between them b.abs.gz, a gzip cut in half,
    and bb.abs.gz, a gzip corrupt mid-stream (read in one go: nothing of it loads)."""
    cut = gzip.compress((TREE / "1999" / "9901001.abs").read_bytes())
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    half = deflate.compress((FIXTURES / "malformed.abs").read_bytes()) + deflate.flush(
        zlib.Z_FULL_FLUSH
    )
    return {
        "a.abs": (TREE / "1992" / "9201001.abs").read_bytes(),
        "b.abs.gz": cut[: len(cut) // 2],
        "bb.abs.gz": b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + half + b"\x07" + bytes(64),
        "c.abs": (FIXTURES / "listing.abs").read_bytes(),
    }


GOOD_KEYS = {
    "hep-th/9201001",
    "hep-th/9312112",
    "hep-th/9303001",
    "hep-th/9509068",
    "hep-th/9705206",
    "hep-th/0212346",
}


def test_a_bad_tar_member_is_rejected_by_name_and_the_others_load(tmp_path: Path) -> None:
    tarball = tmp_path / "abstracts.tar"
    with tarfile.open(tarball, "w") as archive:
        for name, data in _good_and_bad(tmp_path).items():
            member = tarfile.TarInfo(name)
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    items = list(hepth_abs.parse(tarball))
    assert set(_papers(items)) == GOOD_KEYS
    cut, corrupt = parsed.rejects(items)
    assert cut.origin.path == f"{tarball}:b.abs.gz"
    assert cut.reason.startswith("cannot read it (Compressed file ended before the")
    assert corrupt.origin.path == f"{tarball}:bb.abs.gz"
    assert corrupt.reason.startswith("cannot read it: corrupt gzip data (")
    assert "other .abs files loaded" in corrupt.reason


def test_a_bad_file_in_a_folder_is_rejected_by_name_and_the_others_load(tmp_path: Path) -> None:
    folder = tmp_path / "abstracts"
    folder.mkdir()
    for name, data in _good_and_bad(tmp_path).items():
        (folder / name).write_bytes(data)
    (folder / "b_link.abs").symlink_to(folder / "missing.abs")
    os.mkfifo(folder / "b_pipe.abs")  # opened, it would wait for a writer forever
    found: list[ParsedItem] = []
    reader = threading.Thread(target=lambda: found.extend(hepth_abs.parse(folder)), daemon=True)
    reader.start()
    reader.join(30)
    assert not reader.is_alive(), "the parser hangs on the FIFO"
    assert set(_papers(found)) == GOOD_KEYS
    assert [(Path(r.origin.path).name, r.origin.line) for r in parsed.rejects(found)] == [
        ("b.abs.gz", 5),
        ("b_link.abs", 1),
        ("bb.abs.gz", 1),
    ]
    assert parsed.rejects(found)[1].reason == (
        "a symbolic link that leads nowhere (a loop, or a missing target): point the link at "
        "an .abs file, or remove it; the other .abs files loaded"
    )


def test_empty_directory_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"holds no \.abs files"):
        list(hepth_abs.parse(tmp_path))


@pytest.mark.slow
@pytest.mark.needs_data(REAL_TARBALL)
def test_real_tarball() -> None:
    papers = 0
    rejects = []
    with_authors = 0
    titled = 0
    dated = 0
    seen_first = None
    for item in hepth_abs.parse(REAL_TARBALL):
        if isinstance(item, PaperRecord):
            papers += 1
            titled += bool(item.title)
            dated += item.published is not None
            with_authors += bool(item.authors)
            if item.arxiv_id == "hep-th/9201001":
                seen_first = item
        elif isinstance(item, Rejected):
            rejects.append(item.message())
    assert papers == 29_555
    assert rejects == []
    assert titled == papers
    assert dated == papers
    assert with_authors >= 29_500
    assert seen_first is not None
    assert seen_first.authors == ("C. Itzykson", "J.-B. Zuber")
    assert seen_first.published == date(1991, 12, 31)


# Loose ends of issue 10 and hardening of issue 13.

RECORD = """\\\\
Paper: hep-th/9406041
From: someone@example.org
Date: Tue, 7 Jun 94 10:00:00 +0100   (20kb)

Title: A record for the Subj-class and backslash cases
Authors: A. Person
Subj-class: High-Energy Physics - Theory; Quantum Algebra; Data Analysis, Statistics and
  Probability; Mesoscopic Systems and Quantum Hall Effect; Underwater Basket Weaving
\\\\
  The abstract ends in a stray line break mark.\\\\
\\\\
"""


@pytest.mark.parametrize(
    ("subject", "code"),
    [
        ("High Energy Physics - Theory", "hep-th"),
        ("high-energy physics -  theory", "hep-th"),
        ("Quantum Algebra", "math.QA"),
        ("Mathematical Physics", "math-ph"),
        ("Exactly Solvable and Integrable Systems", "nlin.SI"),
        ("Differential Geometry", "math.DG"),
        ("Statistical Mechanics", "cond-mat.stat-mech"),
        ("Superconductivity", "cond-mat.supr-con"),
        ("History of Physics", "physics.hist-ph"),
        ("Quantum Algebra and Topology", "q-alg"),
        ("math.QA", "math.QA"),
        ("Machine Learning", None),  # cs.LG or stat.ML: it names neither for sure
        ("Underwater Basket Weaving", None),
        ("", None),
    ],
)
def test_subject_code(subject: str, code: str | None) -> None:
    assert hepth_abs.subject_code(subject) == code


def test_subj_class_names_become_cross_listed_categories(tmp_path: Path) -> None:
    path = tmp_path / "9406041.abs"
    path.write_text(RECORD, encoding="utf-8")
    items = list(hepth_abs.parse(path))
    paper = _papers(items)["hep-th/9406041"]
    assert paper.primary_category == "hep-th"
    assert paper.cross_categories == ("math.QA", "physics.data-an", "cond-mat.mes-hall")
    (reject,) = parsed.rejects(items)
    assert reject.message() == (
        f"{path}:8: Subj-class: 'Underwater Basket Weaving' names no arXiv category (e.g. "
        "'Quantum Algebra' or 'math.QA'); hep-th/9406041 loaded without it"
    )


def test_trailing_line_break_mark_is_stripped_from_the_abstract(tmp_path: Path) -> None:
    path = tmp_path / "9406041.abs"
    path.write_text(RECORD, encoding="utf-8")
    paper = _papers(list(hepth_abs.parse(path)))["hep-th/9406041"]
    assert paper.abstract == "The abstract ends in a stray line break mark."


def test_oversized_title_and_huge_version_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "big.abs"
    path.write_text(
        "Paper: hep-th/9201001\nTitle: " + "T" * 100_000 + "\n\\\\\n  Text.\n\\\\\n"
        "Paper: hep-th/9201002v" + "9" * 5000 + "\nTitle: Fine\n\\\\\n  Text.\n\\\\\n"
        "Paper: hep-th/9201003\nTitle: Also fine\nDate: " + "1 " * 50_000 + "\n",
        encoding="utf-8",
    )
    items = list(hepth_abs.parse(path))
    assert sorted(_papers(items)) == ["hep-th/9201003"]
    reasons = {item.origin.line: item.reason for item in parsed.rejects(items)}
    assert reasons[1] == "the title is 100,000 characters long, over the limit of 2,000"
    assert reasons[6].startswith("'Paper: hep-th/9201002v9999")
    assert reasons[6].endswith("is not an arXiv id; expected e.g. 'Paper: hep-th/9201001'")


@pytest.mark.slow
@pytest.mark.needs_data(REAL_TARBALL)
def test_real_tarball_subjects_and_abstract_ends() -> None:
    cross: dict[str, int] = {}
    ends: dict[str, str] = {}
    for item in hepth_abs.parse(REAL_TARBALL):
        assert not isinstance(item, Rejected), item.message()
        if isinstance(item, PaperRecord):
            for code in item.cross_categories:
                cross[code] = cross.get(code, 0) + 1
            if item.arxiv_id in ("hep-th/9406041", "hep-th/0206075"):
                ends[item.arxiv_id] = (item.abstract or "").rsplit(" ", 1)[-1]
    assert cross["math.QA"] == 880
    assert cross["math-ph"] == 749
    assert ends == {"hep-th/9406041": "understood.", "hep-th/0206075": "otherwise."}


def _tar_bytes(tar_format: int, names: list[str]) -> bytes:
    """Return a tar of a folder and one .abs record per name (a long name, a non-ASCII one)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tar_format) as archive:
        folder = tarfile.TarInfo("abstracts")
        folder.type = tarfile.DIRTYPE
        archive.addfile(folder)
        for number, name in enumerate(names, start=1):
            data = f"Paper: hep-th/99010{number:02d}\nTitle: Paper {number}\n\\\\\n x\n\\\\\n"
            member = tarfile.TarInfo(name)
            member.size = len(data.encode())
            archive.addfile(member, io.BytesIO(data.encode()))
    return buffer.getvalue()


def _damaged(tar: bytes, how: str) -> bytes:
    block = 4 * 512  # the header of the third record
    if how == "checksum":
        return tar[:block] + bytes([tar[block] ^ 1]) + tar[block + 1 :]
    if how == "octal":
        return tar[: block + 130] + b"9" + tar[block + 131 :]
    if how == "cut":
        return tar[: len(tar) // 2]
    if how == "cut header":
        return tar[: block + 100]
    return tar.rstrip(b"\0") if how == "no end" else tar


def _dumps(items: Iterator[ParsedItem]) -> tuple[list[str], Exception | None]:
    """Return the JSON of each item read, and the error that ended the reading, if any."""
    found: list[str] = []
    try:
        found.extend(item.model_dump_json() for item in items)
    except (SourceError, tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        return found, exc
    return found, None


@pytest.mark.parametrize(
    "tar_format", [tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT, tarfile.PAX_FORMAT]
)
@pytest.mark.parametrize("how", ["whole", "checksum", "octal", "cut", "cut header", "no end"])
def test_the_plain_tar_reader_reads_what_tarfile_reads(
    tmp_path: Path, tar_format: int, how: str
) -> None:
    long = "x" * (120 if tar_format != tarfile.USTAR_FORMAT else 80)  # GNU and pax: no limit
    names = [f"abstracts/{n}.abs" for n in ("a", "b", "c", "d", long, "é", "f", "g")]
    names.insert(2, "p" * 90 + "/" + "q" * 60 + "/prefixed.abs")  # ustar's name prefix
    path = tmp_path / "abstracts.tar"
    path.write_bytes(_damaged(_tar_bytes(tar_format, names), how))
    expected, error = _dumps(hepth_abs._tarfile_items(path, KEY, 0))
    found, wrapped = _dumps(hepth_abs._tar_items(path, KEY))
    assert found == expected
    assert (wrapped is None) == (error is None)
    assert error is None or str(error) in str(wrapped)
    # The same tar held in memory, as parse holds one of up to 128 MiB, reads the same.
    held, held_error = _dumps(hepth_abs._tar_items(path, KEY, path.read_bytes()))
    assert (held, str(held_error)) == (found, str(wrapped))
    assert len(found) == 9 if how == "whole" else found


@pytest.mark.parametrize("how", ["whole", "cut"])
def test_a_gzipped_tar_held_in_memory_parses_as_one_read_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """parse decompresses a tar of up to 128 MiB once and holds it; a larger one is read
    twice (hashed, then parsed). Both give the same snapshot, records and rejects, and a
    cut gzip the same error."""
    path = tmp_path / "abstracts.tar.gz"
    data = gzip.compress(_tar_bytes(tarfile.USTAR_FORMAT, ["a/1.abs", "a/2.abs", "a/3.abs"]))
    path.write_bytes(data if how == "whole" else data[: len(data) // 2])
    assert (hepth_abs._held_tar(path) is not None) == (how == "whole")
    held = _dumps(hepth_abs.parse(path))
    monkeypatch.setattr(hepth_abs, "_HELD_TAR_BYTES", 100)
    assert hepth_abs._held_tar(path) is None
    streamed = _dumps(hepth_abs.parse(path))
    assert (held[0], str(held[1])) == (streamed[0], str(streamed[1]))
    if how == "cut":
        assert isinstance(held[1], SourceError)
        return
    assert held[1] is None
    assert len(held[0]) == 4  # the snapshot and three papers
    assert SnapshotRecord.model_validate_json(held[0][0]).sha256 == content_sha256(path)
