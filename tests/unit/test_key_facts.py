"""The key facts of a paper read as sentences for every mix of known and unknown counts."""

from __future__ import annotations

import itertools

import pytest

from kg.answers import PaperReport, short_handle, short_handles
from kg.refs import parse_ref

_UNKNOWN = None


def _report(**overrides: object) -> PaperReport:
    """Return a report of a plain arXiv paper with ``overrides`` in place of its fields:
    counts mostly, but also the identity of a stub (``stub``, ``arxiv_id``, ``key``)."""
    fields: dict[str, object] = {
        "key": "2101.00001",
        "arxiv_id": "2101.00001",
        "title": "A paper",
        "year": 2021,
        "published": None,
        "stub": False,
        "primary_category": None,
        "cross_listed": [],
        "authors": [],
        "abstract": None,
        "abstract_is_excerpt": False,
        "version": None,
        "license": None,
        "doi": None,
        "journal_ref": None,
        "comments": None,
        "cited_by_in_map": 8,
        "stated_cited_by_in_map": None,
        "stated_cited_by": None,
        "builds_on": 1,
        "stated_refs_in_map": None,
        "stated_refs_total": None,
        "data_through": None,
        "citers_per_year": [],
        "stated_citers_per_year": [],
        "references": [],
        "citers": [],
    }
    fields.update(overrides)
    return PaperReport.model_validate(fields)


@pytest.mark.parametrize(
    ("in_map", "overall", "expected"),
    [
        (_UNKNOWN, _UNKNOWN, "Cited by 8 papers in the graph; no source states a cited-by count."),
        (_UNKNOWN, 60361, "Cited by 8 papers in the graph; the source states 60,361 overall."),
        (8, _UNKNOWN, "Cited by 8 papers in the graph; the source states 8 in the map."),
        (
            10,
            60361,
            "Cited by 8 papers in the graph; the source states 10 in the map (differs from the "
            "graph) and 60,361 overall.",
        ),
    ],
)
def test_cited_by_sentence(in_map: int | None, overall: int | None, expected: str) -> None:
    report = _report(stated_cited_by_in_map=in_map, stated_cited_by=overall)
    assert report.cited_by_sentence() == expected


@pytest.mark.parametrize(
    ("in_map", "total", "expected"),
    [
        (_UNKNOWN, _UNKNOWN, "Builds on 1 paper in the graph; no source states its references."),
        (_UNKNOWN, 52, "Builds on 1 paper in the graph; the source states 52 references in all."),
        (1, _UNKNOWN, "Builds on 1 paper in the graph; the source states 1 reference in the map."),
        (1, 52, "Builds on 1 paper in the graph; the source states 1 of its 52 references."),
        (
            40,
            52,
            "Builds on 1 paper in the graph; the source states 40 of its 52 references "
            "(differs from the graph).",
        ),
    ],
)
def test_builds_on_sentence(in_map: int | None, total: int | None, expected: str) -> None:
    report = _report(stated_refs_in_map=in_map, stated_refs_total=total)
    assert report.builds_on_sentence() == expected


def test_no_combination_reads_garbled() -> None:
    values = (None, 0, 1, 8, 2414)
    for a, b, c, d, e, f in itertools.product(values, repeat=6):
        report = _report(
            cited_by_in_map=a or 0,
            stated_cited_by_in_map=b,
            stated_cited_by=c,
            builds_on=d or 0,
            stated_refs_in_map=e,
            stated_refs_total=f,
        )
        text = report.cited_by_sentence() + " " + report.builds_on_sentence()
        assert "not stated" not in text
        assert "None" not in text
        assert text.count(".") >= 2


def test_stub_sentence() -> None:
    assert _report().identity_sentence() is None
    stub = _report(stub=True, arxiv_id=None, key="title:deep learning:2015")
    assert (stub.identity_sentence() or "").startswith("Known only from reference lists (a stub)")


@pytest.mark.parametrize(
    ("key", "arxiv_id", "handle"),
    [
        ("hep-th/9711200", "hep-th/9711200", "hep-th/9711200"),
        ("title:deep learning:2015", None, "title:deep-learning:2015"),
        (
            "title:language models are few shot learners:2020",
            None,
            "title:language-mod…:2020",  # the year is kept, the title cut
        ),
        ("title:language models are few shot learners:unknown", None, "title:language…:unknown"),
    ],
)
def test_handles_resolve_back_to_their_key(key: str, arxiv_id: str | None, handle: str) -> None:
    assert short_handle(key, arxiv_id) == handle
    parsed = parse_ref(handle)
    if "…" in handle:
        assert parsed.key_prefix is not None
        assert key.startswith(parsed.key_prefix)
        assert key.endswith(parsed.key_suffix)
        assert parsed.key_suffix == handle.partition("…")[2]
    else:
        assert parsed.key == key


def test_keys_shown_together_never_read_alike() -> None:
    keys = [
        "title:sparse α coding with fine filters:2019",
        "title:sparse α coding with fine filters:2020",
        "title:sparse α coding with many filters:2020",
        "title:sparse α coding with many filters:2021",
    ]
    handles = short_handles(keys)
    assert len(set(handles)) == len(keys)
    for key, handle in zip(keys, handles, strict=True):
        assert handle.endswith(key[-5:])  # the year shows
        parsed = parse_ref(handle)
        assert parsed.key_prefix is not None
        assert key.startswith(parsed.key_prefix)
        assert key.endswith(parsed.key_suffix)
    assert handles[0] == "title:sparse-α-cod…:2019"  # no other key reads the same
