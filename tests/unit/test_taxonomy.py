"""The shipped arXiv taxonomy is complete, well formed, and found through the installed package."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from loaders.taxonomy import Category, category, is_category_code, load_taxonomy


def _rows() -> list[dict[str, object]]:
    text = (files("loaders") / "data" / "arxiv_categories.json").read_text(encoding="utf-8")
    rows: list[dict[str, object]] = json.loads(text)["categories"]
    return rows


def test_json_ships_inside_the_kg_package() -> None:
    assert files("loaders").joinpath("data/arxiv_categories.json").is_file()


def test_taxonomy_has_a_sane_number_of_categories() -> None:
    assert 150 < len(load_taxonomy()) < 300


def test_every_code_is_unique_and_well_formed() -> None:
    codes = [row["code"] for row in _rows()]
    assert len(codes) == len(set(codes))
    for code in codes:
        assert isinstance(code, str)
        assert is_category_code(code), code


def test_every_category_names_its_archive_and_group() -> None:
    archives = json.loads((files("loaders") / "data" / "arxiv_categories.json").read_text())[
        "archives"
    ]
    for cat in load_taxonomy().values():
        assert cat.name
        assert cat.group
        assert cat.archive == cat.code.split(".", 1)[0]
        assert cat.archive in archives
        if cat.alias_of is not None:
            assert cat.alias_of in load_taxonomy()


@pytest.mark.parametrize(
    ("code", "name", "group"),
    [
        ("cs.LG", "Machine Learning", "Computer Science"),
        ("cs.CL", "Computation and Language", "Computer Science"),
        ("hep-th", "High Energy Physics - Theory", "Physics"),
        ("stat.ML", "Machine Learning", "Statistics"),
        ("cond-mat.stat-mech", "Statistical Mechanics", "Physics"),
    ],
)
def test_known_categories_have_their_official_names(code: str, name: str, group: str) -> None:
    cat = category(code)
    assert (cat.name, cat.group, cat.legacy) == (name, group, False)


def test_archive_is_the_part_before_the_dot() -> None:
    assert category("cs.LG").archive == "cs"
    assert category("astro-ph.CO").archive == "astro-ph"
    assert category("physics.atm-clus").archive == "physics"
    assert category("hep-th").archive == "hep-th"


def test_legacy_archives_are_marked() -> None:
    for code in ("alg-geom", "cmp-lg", "solv-int", "supr-con", "plasm-ph"):
        assert category(code).legacy, code
    assert category("cmp-lg").group == "Computer Science"


def test_aliases_point_at_their_canonical_category() -> None:
    assert category("math.MP").alias_of == "math-ph"
    assert category("cs.SY").alias_of == "eess.SY"
    assert category("cs.LG").alias_of is None


def test_unknown_well_formed_code_gets_no_name() -> None:
    assert category("cs.ZZ") == Category(code="cs.ZZ", name=None, archive="cs", group=None)
    assert category("new-arch").archive == "new-arch"


@pytest.mark.parametrize("code", ["", "CS.LG", "cs.", "cs.LG.x", "cs LG", "0704.0001", "cs.LG\n"])
def test_malformed_code_raises(code: str) -> None:
    assert not is_category_code(code)
    with pytest.raises(ValueError, match="not an arXiv category code"):
        category(code)
