"""Entity resolution helpers: arXiv ids, titles, names and keys."""

from __future__ import annotations

import pytest

from kg.resolve import (
    canonical_arxiv_id,
    hepth_id,
    latex_to_unicode,
    normalize_name,
    normalize_title,
    paper_key,
    parse_arxiv_id,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2110.03888", ("2110.03888", None)),
        ("2110.03888v3", ("2110.03888", 3)),
        ("arXiv:2110.03888v2", ("2110.03888", 2)),
        ("https://arxiv.org/abs/1706.03762v7", ("1706.03762", 7)),
        ("0704.0001", ("0704.0001", None)),
        ("hep-th/9901001", ("hep-th/9901001", None)),
        ("Hep-Th/9901001v2", ("hep-th/9901001", 2)),
        ("math.GT/0309136", ("math/0309136", None)),
        (" cond-mat/0102536 ", ("cond-mat/0102536", None)),
    ],
)
def test_arxiv_ids_in_every_spelling(text: str, expected: tuple[str, int | None]) -> None:
    assert parse_arxiv_id(text) == expected


@pytest.mark.parametrize("text", ["", "1001", "2110.388", "hep-th/99", "attention", "21100.03888"])
def test_things_that_are_not_arxiv_ids(text: str) -> None:
    assert canonical_arxiv_id(text) is None


def test_titles_fold_case_punctuation_spacing_and_unicode() -> None:
    assert normalize_title("BERT: Pre-training of  Deep\nBidirectional") == (
        "bert pre training of deep bidirectional"
    )
    assert normalize_title("Ｆｕｌｌ-width ＡＩ") == normalize_title("Full width AI")
    assert normalize_title("{\\em Gauge} Theory on $S^2$") == "gauge theory on s 2"
    assert normalize_title("PanGu-α: Models") == "pangu α models"


def test_names_fold_latex_accents_and_case() -> None:
    assert latex_to_unicode("Bal\\'azs") == "Balázs"
    assert latex_to_unicode("Jos\\'e Mour\\~ao") == "José Mourão"
    assert latex_to_unicode("Ambj\\o rn") == "Ambjørn"
    assert normalize_name("Bal\\'azs  Kov\\\"acs") == normalize_name("Balázs Kovács")
    assert normalize_name("Balázs Kovács") == "balazs kovacs"
    assert normalize_name("J.M. Maldacena") == "j. m. maldacena"


def test_paper_keys() -> None:
    assert paper_key("2110.03888v3", None, None) == "2110.03888"
    assert paper_key(None, "Attention Is All You Need", 2017) == (
        "title:attention is all you need:2017"
    )
    assert paper_key(None, "Untitled?", None) == "title:untitled:unknown"
    with pytest.raises(ValueError, match="needs an arXiv id or a title"):
        paper_key(None, "  ", 2020)
    with pytest.raises(ValueError, match="not an arXiv id"):
        paper_key("nope", None, None)


def test_snap_hepth_ids() -> None:
    assert hepth_id(1001) == "hep-th/0001001"
    assert hepth_id("9201001") == "hep-th/9201001"
    with pytest.raises(ValueError, match="not a SNAP hep-th id"):
        hepth_id("12345678")
