"""Authors' strong ids: their normal forms, and which authors the rule makes one."""

from __future__ import annotations

from typing import Any

import pytest

from kg.load.rows import author_id_rows, authors_held, record_authors
from loaders.ids import author_key, author_merges, normal_author_id, read_author_id
from loaders.records import Origin, PaperRecord

ORCID = "0000-0002-1825-0097"


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("orcid", ORCID, ORCID),
        ("orcid", f"https://orcid.org/{ORCID}", ORCID),
        ("orcid", "http://orcid.org/0000-0002-1694-233x", "0000-0002-1694-233X"),
        ("orcid", "0000-0002-1825", None),
        ("openalex", "https://openalex.org/A5023888391", "A5023888391"),
        ("openalex", "a5023888391", "A5023888391"),
        ("openalex", "W5023888391", None),
        ("s2", "1741101", "1741101"),
        ("s2", "https://www.semanticscholar.org/author/Ashish-Vaswani/40348417", "40348417"),
        ("s2", "Vaswani", None),
    ],
)
def test_author_ids_have_one_normal_form(kind: str, text: str, expected: str | None) -> None:
    assert normal_author_id(kind, text) == expected  # type: ignore[arg-type]


def test_an_author_is_keyed_by_the_first_id_else_the_name() -> None:
    assert author_key({"openalex": "A1", "orcid": ORCID}, "ada") == f"orcid:{ORCID}"
    assert author_key({"s2": "9"}, "ada") == "s2:9"
    assert author_key({}, "ada") == "ada"
    assert read_author_id(f"https://orcid.org/{ORCID}") == f"orcid:{ORCID}"
    assert read_author_id("1741101") is None  # bare digits name no kind
    assert read_author_id("s2:1741101") == "s2:1741101"


def test_authors_an_id_links_are_one_keyed_by_the_first_id() -> None:
    merges = author_merges(
        {
            "openalex:A1": ["openalex:A1", f"orcid:{ORCID}"],
            "s2:5": ["s2:5", "openalex:A1"],
            "s2:6": ["s2:6"],
        }
    )
    assert merges == [("openalex:A1", f"orcid:{ORCID}"), ("s2:5", f"orcid:{ORCID}")]


def _record(ids: tuple[dict[str, str], ...]) -> PaperRecord:
    return PaperRecord.model_validate(
        {
            "arxiv_id": "2001.00001",
            "authors": ("Ada Lovelace", "Name Only"),
            "author_ids": ids,
            "origin": Origin(path="a", line=1),
            "snapshot": "s",
        }
    )


def test_a_record_gives_ids_per_author_or_none() -> None:
    record = _record(({"orcid": f"https://orcid.org/{ORCID}"}, {}))
    assert record_authors(record) == [
        (f"orcid:{ORCID}", "Ada Lovelace", {"orcid": ORCID}),
        ("name only", "Name Only", {}),
    ]
    assert author_id_rows([record]) == [{"key": f"orcid:{ORCID}", "ids": [f"orcid:{ORCID}"]}]
    assert _record(({}, {})).author_ids == ()
    with pytest.raises(ValueError, match="1 authors' ids for 2 authors"):
        _record(({"orcid": ORCID},))
    with pytest.raises(ValueError, match="not an author's orcid id"):
        _record(({"orcid": "12"}, {}))


def test_an_author_goes_to_the_holder_of_its_ids_only_when_that_ranks_first() -> None:
    statements: list[tuple[str, dict[str, Any]]] = [
        ("load_author_names", {"rows": [{"key": "openalex:A1", "name": "A", "norm_name": "a"}]}),
        (
            "load_authors",
            {
                "rows": [
                    {"key": "p", "as_of": "x", "authors": [{"key": "openalex:A1", "name": "A"}]}
                ]
            },
        ),
        ("load_author_ids", {"rows": [{"key": "openalex:A1", "ids": ["openalex:A1"]}]}),
    ]
    held = authors_held(statements, {"openalex:A1": f"orcid:{ORCID}"})
    assert held[1][1]["rows"][0]["authors"][0]["key"] == f"orcid:{ORCID}"
    assert held[2][1]["rows"][0]["key"] == f"orcid:{ORCID}"
    assert authors_held(statements, {"openalex:A1": "s2:5"}) == statements
