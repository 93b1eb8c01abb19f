"""Which key a citation's source named: the rows the writer sends (``redirected``), the
separator the CITES ``named`` entries rely on, and how ``kg merges`` counts them."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from kg.load.merges import merged_key
from kg.load.rows import Batch, batch_statements, redirected, split_rows
from loaders.records import CitationRecord, Origin, PaperRef
from loaders.titles import normalize_title, title_key


def _citation(citing: str, cited: str, snapshot: str = "sha256:aa") -> dict[str, object]:
    return {
        "citing": citing,
        "cited": cited,
        "snapshot": snapshot,
        "as_of": None,
        "named_citing": None,
        "named_cited": None,
    }


def test_a_reference_to_a_merged_key_goes_to_its_holder_and_keeps_the_key_it_named() -> None:
    early, late = "title:sparse coding:2010", "title:sparse coding:2011"
    rows = [
        _citation("2301.00002", late),
        _citation("2301.00002", early),  # one page naming both keys of one paper
        _citation(late, "2301.00009"),
        _citation(late, early),  # a citation between two keys of one paper: no edge
        _citation("2301.00002", "2301.00003"),
    ]
    [selves, (name, params)] = redirected([("load_citations", {"rows": rows})], {late: early})
    assert selves == (
        "load_self_citations",
        {"rows": [{"key": early, "entry": f"sha256:aa|{late}|{early}"}]},
    )
    assert name == "load_citations"
    assert [
        (r["citing"], r["cited"], r["named_citing"], r["named_cited"]) for r in params["rows"]
    ] == [
        ("2301.00002", early, None, late),
        ("2301.00002", early, None, None),
        (early, "2301.00009", late, None),
        ("2301.00002", "2301.00003", None, None),
    ]


@given(st.text(max_size=80), st.one_of(st.none(), st.integers(0, 3000)))
def test_no_key_holds_the_separator_of_named_entries(title: str, year: int | None) -> None:
    """CITES ``named`` entries are 'snapshot|citing|cited': a normalised title (and so a
    title key) never holds '|', nor a look-alike that NFKC folds to it."""
    for text in (title, f"{title}|{title}", f"{title}｜∣¦"):
        assert "|" not in normalize_title(text)
        assert "|" not in title_key(normalize_title(text), year)


def test_citations_under_a_merged_key_count_each_other_paper_once_a_direction() -> None:
    """Two pages naming the citing paper by two keys (one merged into 2301.00001) are one
    citation; a citation by the merged key is counted once, and its snapshots listed."""
    alias = "title:x:2011"
    named = [
        {"entry": f"sha256:a|title:c:2010|{alias}", "other": "2301.00001", "outgoing": False},
        {"entry": f"sha256:b|2301.00001|{alias}", "other": "2301.00001", "outgoing": False},
        {"entry": "sha256:b|2301.00005|title:x:2010", "other": "2301.00005", "outgoing": False},
        {"entry": f"sha256:c|{alias}|2301.00007", "other": "2301.00007", "outgoing": True},
    ]
    found = merged_key(alias, "rule", named)
    assert (found.citations, found.named_in) == (2, ["sha256:a", "sha256:b", "sha256:c"])
    assert merged_key("title:x:2010", "rule", named).citations == 1
    assert merged_key("title:y:2010", "rule", named).citations == 0


def _stub(key: str, spelling: str, snapshot: str = "sha256:aa") -> dict[str, object]:
    return {
        "key": key,
        "arxiv_id": None,
        "title": spelling,
        "norm_title": normalize_title(spelling),
        "year": 2011,
        "ref_as_of": f"2026-01-01|{snapshot}|{spelling}|2011",
        "snapshot": snapshot,
        "stated_cited_by": None,
        "as_of": None,
        "named": None,
    }


def test_a_reference_to_a_merged_key_is_written_to_its_holder_under_the_key_it_named() -> None:
    early, late = "title:sparse coding:2010", "title:sparse coding:2011"
    rows = [_stub(late, "Sparse Coding"), _stub(early, "Sparse coding"), _stub("x", "X")]
    [(_, params)] = redirected([("load_stubs", {"rows": rows})], {late: early})
    assert [(r["key"], r["named"], r["title"]) for r in params["rows"]] == [
        (early, late, "Sparse Coding"),  # sorted by key, then rank: the best applies last
        (early, None, "Sparse coding"),
        ("x", None, "X"),
    ]


def test_a_merged_key_shows_how_its_best_reference_spelled_it() -> None:
    """``key_refs`` entries are 'key|data date|snapshot|title|year'; a title may hold '|'."""
    alias = "title:a b:2011"
    refs = [
        "title:a b:2010|2026-01-01|sha256:aa|A | B|2010",
        f"{alias}|2026-01-01|sha256:bb|A | B (extended)|2011",
    ]
    found = merged_key(alias, "rule", [], refs)
    assert (found.cited_as, found.cited_as_in) == ("A | B (extended)", "sha256:bb")
    missing = merged_key("title:c:2011", "rule", [], refs)
    assert (missing.cited_as, missing.cited_as_in) == (None, None)


def test_a_key_taken_out_of_a_paper_is_written_back_as_its_own_stub() -> None:
    """What split_key returns becomes load rows: the key's best reference and counts under
    its own key, its citations between their papers with the keys the sources named, one
    between it and the paper it left, and the paper's best remaining reference."""
    key, holder = "title:twin title:2017", "1801.00002"
    found = {
        "entry": f"{key}|2026-01-01|sha256:aa|Twin | Title|2017",
        "described": [{"snapshot": "sha256:aa", "count": 3, "as_of": None}],
        "cites": [
            {
                "entry": f"sha256:aa|2301.00004|{key}",
                "other": "2301.00004",
                "outgoing": False,
                "as_of": None,
            },
            {
                "entry": f"sha256:bb|{key}|title:x:2010",
                "other": "1001.00009",
                "outgoing": True,
                "as_of": None,
            },
        ],
        "selves": [{"entry": f"sha256:cc|{holder}|{key}", "as_of": None}],
        "best": "title:twin title:2018|2021-03-01|sha256:dd|Twin title|2018",
    }
    stubs, citations = split_rows(holder, key, found)
    assert [(r["key"], r["named"], r["title"], r["stated_cited_by"]) for r in stubs] == [
        (holder, "title:twin title:2018", "Twin title", None),
        (key, None, None, 3),  # a count alone: no reference to rank
        (key, None, "Twin | Title", None),
    ]
    assert stubs[2]["ref_as_of"] == "2026-01-01|sha256:aa|Twin | Title|2017"
    assert stubs[2]["norm_title"] == "twin title"
    assert stubs[2]["year"] == 2017
    assert [
        (r["citing"], r["cited"], r["snapshot"], r["named_citing"], r["named_cited"])
        for r in citations
    ] == [
        ("2301.00004", key, "sha256:aa", None, None),
        (key, "1001.00009", "sha256:bb", None, "title:x:2010"),
        (holder, key, "sha256:cc", None, None),
    ]


def test_a_key_refs_entry_reads_back_with_a_bar_in_its_title() -> None:
    """A key_refs entry is '<key>|<ref_as_of>'; keys and snapshot keys hold no '|', a title
    may, and the year may be missing."""
    from kg.load.rows import KeyRef

    ref = KeyRef.parse("title:a b:2011|2026-01-01|sha256:aa|A | B|2011")
    assert ref == KeyRef(
        "title:a b:2011", "2026-01-01|sha256:aa|A | B|2011", "sha256:aa", "A | B", 2011
    )
    assert KeyRef.parse("k|0000-00-00|sha256:bb|T|").year is None


@given(
    st.lists(st.one_of(st.none(), st.dates(date(1990, 1, 1), date(2030, 1, 1))), min_size=1),
    st.integers(1, 6),
)
def test_a_citation_stated_on_several_dates_keeps_its_first_and_last_in_any_batching(
    dates: list[date | None], size: int
) -> None:
    """Two records of one paper (two OpenAlex works of one arXiv paper, say) that state one
    citation on different dates: the rows the writer sends carry its first and last date
    whether the records come in one batch or several (one batch kept only the last row)."""
    records = [
        CitationRecord(
            origin=Origin(path="works.jsonl", line=line),
            snapshot="sha256:aa",
            as_of=day,
            citing=PaperRef(arxiv_id="1304.7300"),
            cited=PaperRef(arxiv_id="1207.0001"),
        )
        for line, day in enumerate(dates, start=1)
    ]
    sent: list[date | None] = []
    for start in range(0, len(records), size):
        statements = dict(batch_statements(Batch(citations=records[start : start + size])))
        sent += [row["as_of"] for row in statements["load_citations"]["rows"]]
    known = sorted(day for day in dates if day is not None)
    stated = sorted(day for day in sent if day is not None)
    assert (stated[:1], stated[-1:]) == (known[:1], known[-1:])
    assert set(stated) <= set(known)
