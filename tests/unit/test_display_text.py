"""kg.text: titles and names shown as they print (LaTeX to Unicode), title keys shown as a
title and year, and searches typed in the rendered form folded to the index's tokens."""

from __future__ import annotations

import re

import pytest

from kg.text import display, display_key, search_words
from loaders import hepth_abs
from loaders.records import PaperRecord
from loaders.titles import normalize_title
from tests.data import REAL_HEPTH_ABSTRACTS

# What no shown title may hold: a math alphabet's command, a raw subscript, any command.
LEFTOVERS = re.compile(r"\{\\cal|\\cal\b|\$_|\\[a-zA-Z]+")


def leftover(raw: str) -> bool:
    """Return True when ``raw`` shows with LaTeX left in it: a command, or a ``$`` that is
    no dollar the source escaped (``\\$tring Theory`` is a pun, and keeps its one ``$``)."""
    shown = display(raw)
    return bool(LEFTOVERS.search(shown)) or shown.count("$") != raw.count("\\$")


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (r"Softly-Broken {\cal N} = 4 Supersymmetry", "Softly-Broken 𝒩 = 4 Supersymmetry"),
        (r"${\cal N}=4$ Super Yang-Mills", "𝒩=4 Super Yang-Mills"),
        (r"Strings on AdS$_5$ x S$^5$", "Strings on AdS₅ x S⁵"),
        (r"AdS_5 black holes", "AdS₅ black holes"),
        (r"C_60 and AdS_5xS^5", "C₆₀ and AdS₅xS⁵"),
        (r"$\lambda\phi^4$ theory", "λφ⁴ theory"),
        ('M\\"uller', "Müller"),
        (r"Ambj\o rn", "Ambjørn"),
        (r"{\em Gauge} theory", "Gauge theory"),
        (r"$\mathbb{R}^{3}\times S^1$", "ℝ³ × S¹"),
        (r"$N \to \infty$ limit", "N → ∞ limit"),
        (r"$\frac{1}{2}$-BPS states", "1/2-BPS states"),
        (r"$\alpha'$ corrections", "α' corrections"),
        (r"${\cal H}$, $\mathcal{R}$ and $\mathfrak{g}$", "ℋ, ℛ and 𝔤"),
        (r"$SU(N)_{k}$ Chern-Simons", "SU(N)ₖ Chern-Simons"),
        (r"$M_{\rm Pl}$ and the $\log N$ term", "M_Pl and the log N term"),
        (r"The $\bar{D}$-brane", "The D\u0304-brane"),
        (r"Percent \% and \_ kept", "Percent % and _ kept"),
        ("A {lone brace and {\\em one} pair}}", "A lone brace and one pair}"),
        ("file_name and a~tie -- dashed", "file_name and a tie \u2013 dashed"),
        ("Attention Is All You Need", "Attention Is All You Need"),
        ("", ""),
        (None, ""),
    ],
)
def test_display(raw: str | None, shown: str) -> None:
    assert display(raw) == shown


def test_display_keeps_an_escaped_dollar() -> None:
    assert display(r"\$tring Theory") == "$tring Theory"
    assert not leftover(r"\$tring Theory")
    assert display("$x") == "x"


def test_display_keeps_an_unpaired_brace_as_text() -> None:
    assert display("Less <than> & [bold] {unbalanced") == "Less <than> & [bold] {unbalanced"


def test_display_shows_an_unknown_command_by_its_name() -> None:
    assert display(r"The \foo{bar} $\qux$ model") == "The foobar qux model"


def test_display_leaves_the_matching_form_alone() -> None:
    raw = r"Softly-Broken {\cal N} = 4 Supersymmetry on AdS$_5$"
    assert normalize_title(display(raw)) == normalize_title(raw)


def test_display_key_reads_a_title_key_as_title_and_year() -> None:
    assert display_key("title:bert pre training of deep:2018") == "bert pre training of deep (2018)"
    assert display_key("title:bert:2018", "BERT: Pre-training", 2018) == "BERT: Pre-training (2018)"
    assert display_key("title:undated paper:unknown") == "undated paper"
    assert display_key("hep-th/9901001") == "hep-th/9901001"


@pytest.mark.parametrize(
    ("query", "holds"),
    [
        ("AdS₅", {"AdS5", "AdS", "5"}),
        ("𝒩 = 4", {"N", "=", "4", "cal"}),
        ("ℝ³", {"R", "3", "mathbb"}),
        ("λφ⁴ theory", {"lambda", "phi", "4", "theory"}),
    ],
)
def test_search_words_fold_the_rendered_form(query: str, holds: set[str]) -> None:
    assert holds <= set(search_words(query).split())


def test_search_words_leave_ascii_alone() -> None:
    assert search_words(r"AdS$_5$ {\cal N}=4") == r"AdS$_5$ {\cal N}=4"


@pytest.mark.slow
@pytest.mark.needs_data(REAL_HEPTH_ABSTRACTS)
def test_every_hepth_title_with_latex_displays_clean() -> None:
    """Every real hep-th title holding LaTeX shows no math shift, ``{\\cal``, ``$_`` or
    command left over (a dollar the source escaped stays a dollar)."""
    with_latex = [
        item.title
        for item in hepth_abs.parse(REAL_HEPTH_ABSTRACTS)
        if isinstance(item, PaperRecord) and item.title and re.search(r"[\\$^_{}]", item.title)
    ]
    assert len(with_latex) > 1_000  # the corpus holds ~1,900 such titles
    left = {title: display(title) for title in with_latex if leftover(title)}
    assert left == {}
