"""The parsers' shortcuts give what the slow paths they skip would give.

Each shortcut stands in for a general function on the inputs where it provably agrees with
it; these tests check that agreement, exhaustively over code points where that is cheap and
with generated inputs elsewhere.
"""

from __future__ import annotations

import csv
import re
import string
import tarfile
from datetime import date
from email.utils import parsedate_to_datetime
from typing import Literal, cast

import pytest
from pydantic import ValidationError

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from loaders import arxiv_oai, edge_list, hepth_abs, plain_tar, text  # noqa: E402
from loaders import titles as resolve  # noqa: E402
from loaders.edge_list import _fields, _Layout  # noqa: E402
from loaders.errors import valid_text  # noqa: E402
from loaders.records import (  # noqa: E402
    CitationRecord,
    Origin,
    PaperRecord,
    PaperRef,
    PaperValues,
    checked_citation,
    checked_paper,
)
from loaders.source_file import (  # noqa: E402
    _ASCII_GROWTH,
    MAX_INDEX_BYTES,
    MAX_INT,
    _found_problems,
    _name_problem,
    _text_problem,
    name_problem,
    record_problem,
    title_problem,
)

SETTINGS = settings(max_examples=300, deadline=None)
LATEX_ASCII = st.text(
    alphabet=st.sampled_from(list("\\{}$.'`^\"~=_ -,aiosltuvHckbdrAOLpmnex019")), max_size=60
)
EVERY_CHAR = [chr(code) for code in range(0x110000)]


def test_collapse_spaces_agrees_with_the_regex_for_every_code_point() -> None:
    for char in EVERY_CHAR:
        for sample in (f"a{char}b", char, f" a{char}{char}b {char}"):
            assert text.collapse_spaces(sample) == resolve.collapse_spaces(sample), hex(ord(char))


@SETTINGS
@given(st.text(max_size=80))
def test_collapse_spaces_agrees_on_any_text(sample: str) -> None:
    assert text.collapse_spaces(sample) == resolve.collapse_spaces(sample)


@SETTINGS
@given(st.one_of(st.text(max_size=80), LATEX_ASCII))
def test_latex_to_unicode_agrees(sample: str) -> None:
    assert text.latex_to_unicode(sample) == resolve.latex_to_unicode(sample)


@SETTINGS
@given(st.one_of(st.text(max_size=80), LATEX_ASCII, st.text(alphabet=string.printable)))
def test_normalize_name_agrees(sample: str) -> None:
    assert text.normalize_name(sample) == resolve.normalize_name(sample)


def test_normalize_name_agrees_for_every_ascii_character() -> None:
    for code in range(128):
        char = chr(code)
        for sample in (f"J.{char}M. Mal{char}dacena", char, f" {char}{char}.x{char}"):
            assert text.normalize_name(sample) == resolve.normalize_name(sample), hex(code)


@SETTINGS
@given(LATEX_ASCII)
def test_normalising_ascii_at_most_doubles_its_size(sample: str) -> None:
    for normalized in (resolve.normalize_title(sample), resolve.normalize_name(sample)):
        assert len(normalized.encode()) <= _ASCII_GROWTH * len(sample)


@pytest.mark.parametrize("size", [1, 500, 501, 2000, 2001, 4500])
def test_title_and_name_problems_agree_with_the_full_checks(size: int) -> None:
    for sample in ("\\o." * size, "." * size, "a" * size, "é" * size, "\\mu " * size):
        title = _text_problem("the title", sample, 2000, resolve.normalize_title(sample))
        assert title_problem(sample) == title
        assert name_problem(sample) == _name_problem.__wrapped__(sample)


def test_the_ascii_shortcut_leaves_room() -> None:
    assert _ASCII_GROWTH * 2000 <= MAX_INDEX_BYTES


@SETTINGS
@given(st.text(alphabet=st.sampled_from(list(" \t,\"\x00ab1.\u00a0\u2003;'x")), min_size=1))
def test_edge_list_fields_agree_with_the_csv_module_and_the_regex(line: str) -> None:
    for delimiter in (",", "\t"):
        layout = _Layout(header_line=1, delimiter=delimiter)
        try:
            expected: object = next(csv.reader([line], delimiter=delimiter), [])
        except csv.Error:
            expected = "error"
        if '"' not in line and "\0" not in line:
            assert line.split(delimiter) == expected
        assert _fields_or_error(line, layout) == _slow_fields(line, layout)
    snap = _Layout()
    slow = [field for field in re.split(r"[\s,]+", line.strip()) if field]
    got = _fields_or_error(line, snap)
    assert got == ((slow[0], slow[1]) if len(slow) == 2 else "bad")


def _fields_or_error(line: str, layout: _Layout) -> object:
    try:
        return _fields(line, layout)
    except edge_list._BadLine:
        return "bad"


def _slow_fields(line: str, layout: _Layout) -> object:
    assert layout.delimiter is not None
    try:
        fields = next(csv.reader([line], delimiter=layout.delimiter), [])
    except csv.Error:
        return "bad"
    if len(fields) < 2:
        return "bad"
    return fields[0].strip(), fields[1].strip()


DAYS = st.sampled_from(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Xyz"])
MONTHS = st.sampled_from(["Jan", "Feb", "Apr", "Jun", "Sep", "Dec", "jan", "Foo"])


@SETTINGS
@given(
    DAYS,
    st.integers(0, 40),
    MONTHS,
    st.integers(0, 2999),
    st.integers(0, 25),
    st.integers(0, 61),
    st.sampled_from(["GMT", "UT", "+0100", "EST"]),
)
def test_arxiv_dates_agree_with_the_email_module(
    day: str, number: int, month: str, year: int, hour: int, second: int, zone: str
) -> None:
    stamp = f"{day}, {number} {month} {year} {hour:02d}:17:{second:02d} {zone}"
    fast = arxiv_oai._arxiv_date(stamp)
    if fast is None:
        return
    assert fast == parsedate_to_datetime(stamp).date()


def test_arxiv_date_reads_the_usual_stamp() -> None:
    assert arxiv_oai._arxiv_date("Mon, 2 Apr 2007 19:18:42 GMT") == date(2007, 4, 2)
    assert arxiv_oai._arxiv_date("Mon, 31 Apr 2007 19:18:42 GMT") is None
    assert arxiv_oai._arxiv_date("Mon, 2 Apr 0099 19:18:42 GMT") is None


@SETTINGS
@given(st.text(max_size=20), st.integers(1, 2**40), st.text(min_size=1, max_size=20))
def test_a_checked_citation_is_the_validated_one(path: str, line: int, snapshot: str) -> None:
    citing, cited = PaperRef(arxiv_id="hep-th/9201001"), PaperRef(arxiv_id="2110.03888")
    validated = CitationRecord(
        origin=Origin(path=path, line=line), snapshot=snapshot, citing=citing, cited=cited
    )
    checked = checked_citation(valid_text(path), line, snapshot, citing, cited)
    assert checked == validated
    assert checked.model_dump_json() == validated.model_dump_json()
    assert checked.model_fields_set == validated.model_fields_set
    assert checked.origin.model_fields_set == validated.origin.model_fields_set
    assert list(checked.__dict__) == list(validated.__dict__)
    assert checked.__pydantic_extra__ == validated.__pydantic_extra__
    assert checked.__pydantic_private__ == validated.__pydantic_private__
    with pytest.raises(ValidationError):
        checked.model_copy(update={"snapshot": ""}).snapshot = "x"  # still frozen


_TEXT = st.text(max_size=30)
_OPTIONAL_TEXT = st.none() | _TEXT
_OPTIONAL_DATE = st.none() | st.dates()
_PAPER_VALUES = st.fixed_dictionaries(
    {
        "origin": st.builds(Origin, path=_TEXT, line=st.integers(1, 2**40)),
        "snapshot": _TEXT,
        "arxiv_id": st.sampled_from(["hep-th/9201001", "2110.03888", "x/1", "", "hep-th/92"]),
    },
    optional={
        "as_of": _OPTIONAL_DATE,
        "version": st.none() | st.integers(-2, 3),
        "title": _TEXT,
        "year": st.none() | st.integers(1790, 2110),
        "published": _OPTIONAL_DATE,
        "abstract": _OPTIONAL_TEXT,
        "journal_ref": _OPTIONAL_TEXT,
        "comments": _OPTIONAL_TEXT,
        "primary_category": _OPTIONAL_TEXT,
        "cross_categories": st.tuples(_TEXT, _TEXT) | st.just(()),
        "authors": st.lists(_TEXT, max_size=3).map(tuple),
        "extra": st.dictionaries(
            _TEXT, st.none() | st.booleans() | st.integers() | st.floats() | _TEXT, max_size=3
        ),
    },
)


@SETTINGS
@given(_PAPER_VALUES)
def test_a_checked_paper_is_the_validated_one(values: PaperValues) -> None:
    """checked_paper builds what validation builds, or leaves the values validation refuses
    (a year out of range, a version under 1, no arXiv id) to it."""
    checked = checked_paper(values)
    try:
        validated = PaperRecord(**values)
    except ValidationError:
        assert checked is None
        return
    assert checked is not None  # it leaves to validation only what validation refuses
    assert checked == validated
    assert checked.model_dump_json() == validated.model_dump_json()
    assert checked.model_fields_set == validated.model_fields_set
    assert list(checked.__dict__) == list(validated.__dict__)
    assert checked.__dict__ == validated.__dict__
    assert checked.__pydantic_extra__ == validated.__pydantic_extra__
    assert checked.__pydantic_private__ == validated.__pydantic_private__
    if "extra" in values:
        assert checked.extra is not values["extra"]  # a copy, as validation makes
    with pytest.raises(ValidationError):
        checked.abstract = "x"  # still frozen


def test_a_checked_paper_leaves_bad_values_to_validation() -> None:
    origin = Origin(path="a.abs", line=1)
    good: PaperValues = {"origin": origin, "snapshot": "k", "arxiv_id": "hep-th/9201001"}
    assert checked_paper(good) == PaperRecord(**good)
    for bad in ({"year": 1799}, {"year": 2101}, {"version": 0}, {"arxiv_id": "not an id"}):
        values = cast(PaperValues, {**good, **bad})
        assert checked_paper(values) is None
        with pytest.raises(ValidationError):
            PaperRecord(**values)


_ABS_DATES = st.builds(
    "{}, {} {} {} {}".format,
    st.sampled_from(["Tue", "Sun", "Xyz", "TUE"]),
    st.integers(0, 99).map(str) | st.sampled_from(["07", "3", "١٤"]),
    st.sampled_from(["Jan", "Feb", "Dec", "Xyz", "May", "Sept", "dec"]),
    st.integers(0, 99999).map(str) | st.sampled_from(["93", "00", "1997"]),
    st.text(alphabet=st.sampled_from(list("0123456789: +-()kbGMTJan,")), max_size=30),
)


@SETTINGS
@given(_ABS_DATES)
def test_the_common_abs_date_reads_as_any_date_does(text: str) -> None:
    assert hepth_abs.parse_abs_date(text) == hepth_abs._any_abs_date(text)


def test_the_common_abs_date_reads_the_usual_stamps() -> None:
    for stamp, day in (
        ("Tue, 21 Jan 97 13:28:48 MEZ   (12kb)", date(1997, 1, 21)),
        ("Fri, 11 Jul 1997 17:17:40 +0200 (METDST)   (25kb)", date(1997, 7, 11)),
        ("Mon, 31 Feb 1997 10:00:00 GMT, 3 Mar 1997", date(1997, 3, 3)),  # the next one
    ):
        assert hepth_abs._COMMON_DATE.match(stamp)
        assert hepth_abs.parse_abs_date(stamp) == hepth_abs._any_abs_date(stamp) == day


_BOUNDARY_INTS = st.sampled_from([None, 0, 7, MAX_INT, MAX_INT + 1, -MAX_INT, -MAX_INT - 1])
_BOUNDARY_TEXTS = st.sampled_from(
    [
        *("x" * size for size in (0, 3, 40, 41, 100, 101, 500, 501, 2000, 2001)),
        *("\u00e9" * 499, "\u00e9" * 501, "\ufb03" * 1999, "a\ud800", "\U0001d400"),
    ]
)
_RECORD_UPDATES = st.fixed_dictionaries(
    {},
    optional={
        "title": st.none() | _BOUNDARY_TEXTS,
        "arxiv_id": _BOUNDARY_TEXTS,
        "abstract": st.none() | _BOUNDARY_TEXTS,
        "doi": st.none() | _BOUNDARY_TEXTS,
        "primary_category": st.none() | _BOUNDARY_TEXTS,
        "cross_categories": st.lists(_BOUNDARY_TEXTS, max_size=3).map(tuple),
        "authors": st.lists(_BOUNDARY_TEXTS, max_size=3).map(tuple),
        "year": _BOUNDARY_INTS,
        "version": _BOUNDARY_INTS,
        "stated_cited_by": _BOUNDARY_INTS,
        "stated_refs_total": _BOUNDARY_INTS,
        "listed_citing": _BOUNDARY_INTS,
        "histogram": st.dictionaries(st.integers(1990, 2000), st.integers(0, 2**64), max_size=2),
        "extra": st.dictionaries(
            st.sampled_from(["k", "n"]),
            st.booleans() | _BOUNDARY_INTS | _BOUNDARY_TEXTS | st.floats(),
            max_size=2,
        ),
    },
)


@SETTINGS
@given(_RECORD_UPDATES, st.booleans())
def test_record_problem_shortcut_agrees_with_the_full_checks(
    update: dict[str, object], as_ref: bool
) -> None:
    """record_problem skips its full checks only for a record they find nothing in: every
    reject's reason is what the full checks say."""
    base = PaperRecord(
        origin=Origin(path="a.abs", line=1), snapshot="k", arxiv_id="hep-th/9201001", title="T"
    )
    if as_ref:
        fields = {"arxiv_id", "title", "year", "stated_cited_by"}
        item: PaperRecord | PaperRef = PaperRef(arxiv_id="hep-th/9201001").model_copy(
            update={key: value for key, value in update.items() if key in fields}
        )
    else:
        item = base.model_copy(update=update)
    assert record_problem(item) == _found_problems(item)


_TAR_KINDS = st.sampled_from([tarfile.REGTYPE, tarfile.DIRTYPE, tarfile.SYMTYPE])


@SETTINGS
@given(
    st.sampled_from([tarfile.USTAR_FORMAT, tarfile.GNU_FORMAT]),
    st.text(alphabet="ab/\u00e9", min_size=1, max_size=20),
    st.integers(0, 8**11 - 1),
    _TAR_KINDS,
    st.lists(st.tuples(st.integers(100, 344), st.sampled_from(b" \x000789+a")), max_size=2),
    st.booleans(),
)
def test_a_common_tar_header_reads_as_any_header_does(
    tar_format: Literal[0, 1, 2],
    name: str,
    size: int,
    kind: bytes,
    changes: list[tuple[int, int]],
    resum: bool,
) -> None:
    """plain_tar's shortcut for the headers GNU tar and tarfile write reads them as the
    general reading does, and leaves any other header (a byte changed among its numbers,
    its checksum then right or wrong) to it."""
    member = tarfile.TarInfo(name)
    member.size, member.type = size, kind
    header = bytearray(member.tobuf(tar_format, "utf-8", "surrogateescape")[-512:])
    for at, byte in changes:
        header[at] = byte
    if resum:
        header[148:156] = b"%06o\x00 " % (256 + sum(header[:148]) + sum(header[156:]))
    found = plain_tar._plain_header(bytes(header))
    assert found == plain_tar._any_plain_header(bytes(header))
    if not changes and kind == tarfile.REGTYPE:
        assert found == (name, size, True)


@SETTINGS
@given(st.text(alphabet="()ab ,", max_size=30))
def test_flat_parentheses_drop_as_any_do(text: str) -> None:
    assert arxiv_oai._drop_parentheses(text) == arxiv_oai._drop_nested_parentheses(text)
