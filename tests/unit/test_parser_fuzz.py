"""Fuzzing every parser: random bytes and mutations of valid inputs never crash a load.

For any input, a parser yields records and ``Rejected`` items or raises SourceError for the
file as a whole; nothing else. Each record it yields must also be writable: integers that
fit Neo4j's INT64, titles and names within their bounds, category codes the writer accepts
(see ``loaders.source_file.record_problem``). Format detection gives a format or a
SourceError. Each test is bounded by ``max_examples`` so the file runs in well under a
minute on two cores; set KG_FUZZ_EXAMPLES for a longer run.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kg.errors import SourceError  # noqa: E402
from loaders import arxiv_oai, edge_list, hepth_abs, map_page, paper_json, source_file  # noqa: E402
from loaders.detect import detect_format  # noqa: E402
from loaders.formats import FORMATS  # noqa: E402
from loaders.records import ParsedItem, SnapshotRecord  # noqa: E402
from loaders.source_file import record_problem  # noqa: E402
from loaders.taxonomy import is_category_code  # noqa: E402
from tests import parsed  # noqa: E402

PARSERS: dict[str, Callable[[Path], Iterator[ParsedItem]]] = {
    "page": map_page.parse,
    "pith": paper_json.parse,
    "arxiv": arxiv_oai.parse,
    "abs": hepth_abs.parse,
}
FUZZ = settings(
    deadline=None,
    max_examples=int(os.environ.get("KG_FUZZ_EXAMPLES", "300")),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

PAGE = (
    "siteData to 14 Oct 2026\n\nA Fuzzed Paper\n\n"
    "arXiv 2401.00001v2 ↗First posted 2 Jan 2024cs.LG cs.CLcited by 12\n\n"
    "Abstract (arXiv)\n\nOne paragraph.\n\n"
    "Key facts. Cited by 2 papers in the map (data through 14 Oct 2026). "
    "Builds on 2 of its 3 references that are in the map.\n\n"
    "Builds on\n\n2 of 3 references.\n\nReferences · 2\n\n"
    "  1. 2017Attention Is All You Needcited by 60,361\n"
    "  2. 2015Deep Residual Learningcited by 1,000\n\n"
    "Built on by\n\nCiting papers per year: 2024: 1; 2025: 1.\n\n2 papers.\n\n"
    "  1. 2025A Citercited by 0\n  2. 2024Another Citercited by 3\nShowing 2 of 2\n"
)
PITH = {
    "source": {"id": "2401.00001", "kind": "arxiv", "version": 2},
    "paper": {
        "title": "A Fuzzed Record",
        "primary_cat": "cs.LG",
        "cross_cats": ["cs.CL"],
        "authors_text": "Ada One, Bo Two and Cy Three",
        "submitted_at": "2024-01-02T10:00:00Z",
        "abstract_excerpt": "An excerpt.",
    },
    "claims": {"count": 2, "snapshot_sha256": "a" * 64},
    "integrity": {"clean": True, "summary": {"critical": 0, "advisory": 1}},
    "references": {"count": 3, "resolved_work": 1},
    "builder_version": "builder-2026-05-17-v1",
}
ARXIV = {
    "id": "2401.00001",
    "title": "A Fuzzed Record",
    "authors": "A. One (Somewhere), B. Two and C. Three",
    "authors_parsed": [["One", "A.", ""], ["Two", "B.", ""]],
    "categories": "cs.LG cs.CL",
    "abstract": "  First paragraph\nruns on.\n  Second paragraph.\n",
    "versions": [{"version": "v1", "created": "Tue, 2 Jan 2024 10:00:00 GMT"}],
    "update_date": "2024-01-03",
    "doi": "10.1/x",
    "report-no": "R-1",
}
ABS = (
    "------------------------------------------------------------------------------\n\\\\\n"
    "Paper: hep-th/9201001\nFrom: someone@example.org\n"
    "Date: Thu, 2 Jan 92 10:00:00 GMT   (5kb)\nDate (revised): Fri, 3 Jan 92 10:00:00 GMT\n\n"
    "Title: A Fuzzed Abs Record\n  that wraps\nAuthors: A. One and B. Two (Somewhere)\n"
    "Comments: 10 pages\nSubj-class: High Energy Physics - Theory; Quantum Algebra\n"
    "Journal-ref: J. Fuzz 1 (1992) 1\n\\\\\n  An abstract\nover lines.\\\\\n\\\\\n"
)
VALID: dict[str, str] = {
    "page": PAGE,
    "pith": json.dumps(PITH) + "\n" + json.dumps({**PITH, "source": {"id": "2401.00002"}}) + "\n",
    "arxiv": json.dumps(ARXIV) + "\n" + json.dumps({**ARXIV, "id": "2401.00002"}) + "\n",
    "abs": ABS + ABS.replace("9201001", "9201002"),
}

HOSTILE_TEXT = st.sampled_from(
    [
        "9" * 26,
        "v" + "9" * 30,
        "1" * 5000,
        "-1",
        "T" * 2500,
        "[/bold]",
        "[bold red]",
        "\x1b[31m",
        "\x00",
        "\ufeff",
        "\r\n",
        "\\\\",
        "cited by ",
        "Paper: ",
        "Key facts. ",
        "Builds on\n",
        "Built on by\n",
        "(" * 200,
        "[" * 3000,
        '{"a": ' * 50,
        "null",
        "\n\n",
        "\t",
        "é",
        "\udcff",
    ]
)
TEXT = st.one_of(HOSTILE_TEXT, st.text(max_size=40))


def _write(data: bytes, folder: str, *, zipped: bool = False) -> Path:
    path = Path(folder) / "input"
    path.write_bytes(gzip.compress(data) if zipped else data)
    return path


def _check(items: Iterator[ParsedItem]) -> list[ParsedItem]:
    """Drain a parser; return its items after checking each could be written to Neo4j."""
    seen = list(items)
    if seen:
        assert isinstance(seen[0], SnapshotRecord)
    for paper in parsed.papers(seen):
        assert record_problem(paper) is None, paper
        for code in (paper.primary_category, *paper.cross_categories):
            assert code is None or is_category_code(code), code
    for cite in parsed.citations(seen):
        assert record_problem(cite.citing) is None
        assert record_problem(cite.cited) is None
    for reject in parsed.rejects(seen):
        assert reject.reason
        assert reject.message().startswith(f"{reject.origin.path}:{reject.origin.line}: ")
    return seen


def _run(fmt: str, path: Path) -> list[ParsedItem]:
    """Parse ``path`` as ``fmt``; a SourceError (the whole file refused) is an allowed outcome."""
    try:
        return _check(PARSERS[fmt](path))
    except SourceError as exc:
        refused = exc
    assert str(refused).startswith(str(path)), refused  # it names the file
    return []


def _detect(path: Path) -> None:
    try:
        assert detect_format(path) in FORMATS
        return
    except SourceError as exc:
        refused = exc
    assert str(refused).startswith(str(path)), refused


@FUZZ
@given(data=st.binary(max_size=2000), zipped=st.booleans())
def test_random_bytes(data: bytes, zipped: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = _write(data, folder, zipped=zipped)
        _detect(path)
        for fmt in PARSERS:
            _run(fmt, path)


@st.composite
def _mutated(draw: st.DrawFn, fmt: str) -> bytes:
    """Return a valid input of ``fmt`` with a few random edits: inserts, cuts, line swaps."""
    text = VALID[fmt]
    for _ in range(draw(st.integers(1, 4))):
        lines = text.splitlines(keepends=True)
        action = draw(st.sampled_from(["insert", "cut", "replace_line", "truncate", "dup"]))
        at = draw(st.integers(0, len(text)))
        if action == "insert":
            text = text[:at] + draw(TEXT) + text[at:]
        elif action == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 60)) :]
        elif action == "replace_line" and lines:
            index = draw(st.integers(0, len(lines) - 1))
            lines[index] = draw(TEXT) + "\n"
            text = "".join(lines)
        elif action == "truncate":
            text = text[:at]
        elif lines:
            index = draw(st.integers(0, len(lines) - 1))
            lines.insert(index, lines[index])
            text = "".join(lines)
    data = text.encode("utf-8", "replace")
    if draw(st.booleans()):
        flip = draw(st.integers(0, max(len(data) - 1, 0)))
        data = data[:flip] + bytes([draw(st.integers(0, 255))]) + data[flip + 1 :]
    return data


@pytest.mark.parametrize("fmt", list(PARSERS))
def test_mutated_valid_inputs(fmt: str) -> None:
    @FUZZ
    @given(data=_mutated(fmt))
    def run(data: bytes) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = _write(data, folder)
            _detect(path)
            _run(fmt, path)

    run()


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)


def _replace(value: object, path: list[str], new: object) -> object:
    """Return ``value`` (a JSON object) with the field at ``path`` set to ``new``."""
    if not path or not isinstance(value, dict):
        return new
    return {**value, path[0]: _replace(value.get(path[0]), path[1:], new)}


def _fields(value: object, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if not isinstance(value, dict):
        return [prefix]
    found = [prefix] if prefix else []
    for key, inner in value.items():
        found.extend(_fields(inner, (*prefix, key)))
    return found


@pytest.mark.parametrize(("fmt", "base"), [("pith", PITH), ("arxiv", ARXIV)])
def test_json_fields_of_any_type(fmt: str, base: dict[str, object]) -> None:
    @FUZZ
    @given(
        where=st.lists(st.sampled_from(_fields(base)), min_size=1, max_size=3),
        values=st.lists(JSON, min_size=3, max_size=3),
    )
    def run(where: list[tuple[str, ...]], values: list[object]) -> None:
        record: object = base
        for field, value in zip(where, values, strict=False):
            record = _replace(record, list(field), value)
        text = json.dumps(record) + "\n" + json.dumps(base) + "\n"
        with tempfile.TemporaryDirectory() as folder:
            path = _write(text.encode(), folder)
            _detect(path)
            items = _run(fmt, path)
            # the untouched second object always loads
            assert parsed.papers(items)

    run()


@FUZZ
@given(title=TEXT, count=st.integers(min_value=0, max_value=2**90), year=st.integers(0, 99999))
def test_page_list_items(title: str, count: int, year: int) -> None:
    item = f"  1. {year}{title}cited by {count:,}\n"
    text = PAGE.replace("  2. 2015Deep Residual Learningcited by 1,000\n", item)
    with tempfile.TemporaryDirectory() as folder:
        items = _run("page", _write(text.encode("utf-8", "replace"), folder))
        # the other reference always loads
        titles = [cite.cited.title for cite in parsed.citations(items)]
        assert "Attention Is All You Need" in titles


EDGE_TOKEN = st.one_of(
    st.sampled_from(["2110.03888", "1706.03762v7", "hep-th/9901001", "arXiv:2101.00001", ""]),
    st.from_regex(r"[0-9]{1,9}", fullmatch=True),
    st.from_regex(r"[0-9]{4}\.[0-9]{4,5}v[0-9]{1,40}", fullmatch=True),
    st.text(max_size=30),
    # tokens that are their own ids, read in runs of lines (edge_list.OWN_IDS)
    st.from_regex(edge_list.OWN_IDS["arxiv"], fullmatch=True),
    st.sampled_from(["1001", "9201001", "0013001", "2110.03888", "1706.03762"]),
)
EDGE_LINE_ENDS = st.sampled_from(["\n", "\n", "\n", "\r\n", " \n", "\n\n", "\n# note\n"])
EDGE_HEADERS = st.sampled_from(
    ["", "citing,cited", "cited,citing", "citing,cited,weight", "to\tfrom", "citing cited",
     "citing,foo", "weight,citing,cited"]
)  # fmt: skip


@FUZZ
@given(
    rows=st.lists(st.tuples(EDGE_TOKEN, EDGE_TOKEN, EDGE_LINE_ENDS), max_size=20),
    header=EDGE_HEADERS,
    later=st.tuples(st.integers(0, 20), EDGE_HEADERS),
    separator=st.sampled_from([",", "\t", " "]),
    scheme=st.sampled_from(["arxiv", "snap-hepth", "snap-hepph"]),
    block_chars=st.sampled_from([1, 16, 64, source_file.BLOCK_CHARS]),
    long_run=st.sampled_from([1, 2, 16]),
)
def test_edge_lists(
    rows: list[tuple[str, str, str]],
    header: str,
    later: tuple[int, str],
    separator: str,
    scheme: edge_list.IdScheme,
    block_chars: int,
    long_run: int,
) -> None:
    """Any edge list gives edges, rejects and skipped self-citations, or a SourceError, and
    every edge names two different arXiv ids; in columns, read in blocks of any size and
    runs of any length, the same."""
    lines = [citing + separator + cited + end for citing, cited, end in rows]
    lines.insert(min(later[0], len(lines)), later[1] + "\n" if later[1] else "")
    text = (header + "\n" if header else "") + "".join(lines)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "edges.txt"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            items = list(edge_list.parse(path, id_scheme=scheme))
        except SourceError:
            return
        defaults = source_file.BLOCK_CHARS, edge_list._LONG_RUN
        source_file.BLOCK_CHARS, edge_list._LONG_RUN = block_chars, long_run
        try:
            in_columns = list(edge_list.parse_in_columns(path, id_scheme=scheme))
        finally:
            source_file.BLOCK_CHARS, edge_list._LONG_RUN = defaults
    assert not parsed.papers(items)  # snapshots, edges, rejects and skipped ones only
    for cite in parsed.citations(items):
        assert cite.citing.arxiv_id
        assert cite.cited.arxiv_id
        assert cite.citing.arxiv_id != cite.cited.arxiv_id
    # In columns, the same citations (as their keys) and the same other items, in order
    assert parsed.columns_flattened(in_columns) == parsed.records_as_keys(items)
