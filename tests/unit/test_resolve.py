"""Entity resolution helpers: arXiv ids, titles, names and keys."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loaders import titles
from loaders.identity import (
    TitleCandidate,
    TitlePlan,
    title_groups,
    title_merges,
    title_places,
    title_plan,
    title_splits,
)
from loaders.titles import (
    canonical_arxiv_id,
    hepth_id,
    latex_to_unicode,
    normalize_name,
    normalize_title,
    paper_key,
    parse_arxiv_id,
    parse_title_key,
)


@given(prefix=st.from_regex(titles._PREFIX))
def test_every_id_prefix_starts_with_a_character_parse_arxiv_id_looks_for(prefix: str) -> None:
    assert prefix[:1] in titles._PREFIX_STARTS


_FULLWIDTH_OF = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}


@given(
    space=st.sampled_from(["", " ", "\t", "\u3000", " \n "]),
    prefix=st.from_regex(titles._PREFIX, fullmatch=True),
    fullwidth=st.booleans(),
    arxiv_id=st.sampled_from(["2110.03888", "2110.03888v2", "hep-th/9901001", "math.GT/0309136"]),
)
def test_a_prefix_is_read_however_it_is_spaced_cased_or_typed(
    space: str, prefix: str, fullwidth: bool, arxiv_id: str
) -> None:
    typed = prefix.translate(_FULLWIDTH_OF) if fullwidth else prefix
    assert parse_arxiv_id(f"{space}{typed}{arxiv_id}") == parse_arxiv_id(arxiv_id) is not None


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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("１８１０.04805", ("1810.04805", None)),  # fullwidth digits read as ASCII (NFKC's)
        ("arXiv:１８１０.04805ｖ２", ("1810.04805", 2)),
        ("ｈｅｐ－ｔｈ/９２０１００１", ("hep-th/9201001", None)),
        ("١٧٠٦.٠٣٧٦٢", None),  # Arabic-Indic digits: not an arXiv id
        ("1810.०४८०५", None),  # Devanagari
        ("hep-th/９２०१००१", None),
        ("1810.04805v٢", None),
        ("hep-t\u212a/9201001", None),  # the Kelvin sign, which IGNORECASE took for a k
        ("1501.0001", None),  # four digits after 2014: 1501.00010 without its last zero
        ("1706.3762", None),
        ("2113.00001", None),  # no thirteenth month
        ("1412.1234", ("1412.1234", None)),
        ("0704.0001v2", ("0704.0001", 2)),
    ],
)
def test_digits_of_other_scripts_are_not_arxiv_ids(
    text: str, expected: tuple[str, int | None] | None
) -> None:
    assert parse_arxiv_id(text) == expected


def test_titles_fold_case_punctuation_spacing_and_unicode() -> None:
    assert normalize_title("BERT: Pre-training of  Deep\nBidirectional") == (
        "bert pre training of deep bidirectional"
    )
    assert normalize_title("Ｆｕｌｌ-width ＡＩ") == normalize_title("Full width AI")
    assert normalize_title("{\\em Gauge} Theory on $S^2$") == "gauge theory on s2"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Sharp bounds for $p \\leq q$", "Sharp bounds for $p \\geq q$"),
        ("Lectures on $\\infty$-topoi", "Lectures on topoi"),
        ("Virasoro algebra for c<1", "Virasoro algebra for C>1"),
        ("Dualities in $N=2$ theories", "Dualities in $N=4$ theories"),
        (
            "From dyadic $\\Gamma$ to $\\Delta$",
            "From dyadic $\\Lambda_{\\alpha}$ to $\\Lambda_{\\alpha}$",
        ),
    ],
)
def test_titles_that_differ_in_a_symbol_stay_apart(one: str, other: str) -> None:
    assert normalize_title(one) != normalize_title(other)


@pytest.mark.parametrize(
    "spellings",
    [
        [
            "Long quantum superstrings in AdS_5 x S^5",
            "Long quantum superstrings in AdS5 x S5",
            "Long quantum superstrings in AdS₅ × S⁵",
            "Long quantum superstrings in $AdS_5 \\times S^5$",
        ],
        ["Superfluid $^3$He films", "Superfluid ³He films", "Superfluid $^{3}$He films"],
        ["CO$_2$ capture in $L^2$", "CO2 capture in L2", "CO₂ capture in L²"],
        ["Bounds for $p \\leq q$", "Bounds for p ≤ q", "Bounds for $p\\le q$"],
    ],
)
def test_one_title_written_with_latex_or_unicode_scripts_is_one_title(
    spellings: list[str],
) -> None:
    assert len({normalize_title(s) for s in spellings}) == 1, [
        normalize_title(s) for s in spellings
    ]
    assert normalize_title("PanGu-α: Models") == "pangu α models"


def test_names_fold_latex_accents_and_case() -> None:
    assert latex_to_unicode("Bal\\'azs") == "Balázs"
    assert latex_to_unicode("Jos\\'e Mour\\~ao") == "José Mourão"
    assert latex_to_unicode("Ambj\\o rn") == "Ambjørn"
    assert normalize_name("Bal\\'azs  Kov\\\"acs") == normalize_name("Balázs Kovács")
    assert normalize_name("Balázs Kovács") == "balazs kovacs"
    assert normalize_name("J.M. Maldacena") == "j. m. maldacena"


def test_names_read_latex_ties_and_dashes() -> None:
    # Seen in the hep-th abstracts (tests.bench.latex): each was an Author of its own.
    assert latex_to_unicode("A.~M.~Semikhatov") == "A. M. Semikhatov"
    assert latex_to_unicode("Mour\\~ao") == "Mourão"  # an accent, not a tie
    assert latex_to_unicode('H.J.W. M\\"uller--Kirsten') == "H.J.W. Müller\u2013Kirsten"
    assert latex_to_unicode("Smith---Jones") == "Smith\u2014Jones"
    assert normalize_name("P.~Berglund") == normalize_name("P. Berglund") == "p. berglund"
    assert normalize_name("A. Gonz\\'alez--Ruiz") == normalize_name("A. González-Ruiz")
    assert normalize_name("A. González\u2014Ruiz") == "a. gonzalez-ruiz"


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
    assert hepth_id("９201003") == "hep-th/9201003"  # fullwidth digits read as ASCII
    for other in ("٩201003", "९२०१००३", "²"):
        with pytest.raises(ValueError, match="not a SNAP hep-th id"):
            hepth_id(other)


def test_latex_keeps_the_math_content_of_a_title() -> None:
    gamma = normalize_title("From dyadic $\\Gamma$ to $\\Delta$")
    lam = normalize_title("From dyadic $\\Lambda_{\\alpha}$ to $\\Lambda_{\\alpha}$")
    assert gamma == "from dyadic γ to δ"
    assert lam == "from dyadic λ α to λ α"
    assert normalize_title("The $\\alpha$-expansion") == normalize_title("The α-Expansion")
    assert normalize_title("Eﬃcient ﬁne-tuning") == "efficient fine tuning"
    assert normalize_title("On \\textbf{Cveti\\v c} and $\\log N$") == "on cvetič and log n"
    assert normalize_title("{\\em Gauge} Theory") == normalize_title("Gauge theory")


def _c(key: str, year: int | None, arxiv: str | None = None, *aliases: str) -> TitleCandidate:
    """A paper whose records state ``year`` under its own key."""
    stated = (year,) if year is not None else ()
    return TitleCandidate(key=key, arxiv_id=arxiv, year=year, aliases=aliases, stated_years=stated)


def test_title_groups_chain_years_across_arxiv_and_title_only_papers() -> None:
    twin_a = _c("1706.00001", 2017, "1706.00001")
    twin_b = _c("1801.00002", 2018, "1801.00002")
    cited = _c("title:t:2016", 2016)
    late = _c("title:t:2021", 2021)
    unknown = _c("title:t:unknown", None)
    groups = title_groups("t", [late, unknown, cited, twin_b, twin_a])
    assert [[p.key for p in group] for group in groups] == [
        ["1706.00001", "1801.00002", "title:t:2016"],
        ["title:t:2021"],
    ]
    assert title_groups("t", [twin_a, cited], kept_apart=["title:t:2016"]) == [[twin_a]]


def test_title_merges_chain_years_and_prefer_the_arxiv_paper() -> None:
    t = "deep learning"
    stubs = [_c(f"title:{t}:{y}", y) for y in (2015, 2016, 2017, 2020)]
    assert title_merges(t, stubs) == {
        f"title:{t}:2016": f"title:{t}:2015",
        f"title:{t}:2017": f"title:{t}:2015",
    }
    with_id = [*stubs, _c("1501.00001", 2016, "1501.00001")]
    assert title_merges(t, with_id) == {
        f"title:{t}:2015": "1501.00001",
        f"title:{t}:2016": "1501.00001",
        f"title:{t}:2017": "1501.00001",
    }
    # Two arXiv papers with one title are never one paper; unknown years join nothing.
    two = [_c("a", 2016, "1601.00001"), _c("b", 2016, "1601.00002"), _c(f"title:{t}:unknown", None)]
    assert title_merges(t, two) == {}


def test_title_merges_remember_the_years_of_merged_keys() -> None:
    t = "sparse coding"
    # 2010 and 2011 merged before; a 2012 reference chains through the 2011 alias.
    merged = _c(f"title:{t}:2010", 2010, None, f"title:{t}:2011")
    assert title_merges(t, [merged, _c(f"title:{t}:2012", 2012)]) == {
        f"title:{t}:2012": f"title:{t}:2010"
    }


def test_title_merges_match_every_year_stated_not_only_the_one_held() -> None:
    t = "attention"
    # The arXiv paper holds 2018 (a newer page gave it) and was also stated as 2016: a
    # reference of 2015 reaches it through 2016, whichever record the paper holds.
    held_only = TitleCandidate(key="1606.00001", arxiv_id="1606.00001", year=2018)
    stated = TitleCandidate(
        key="1606.00001", arxiv_id="1606.00001", year=2018, stated_years=(2016, 2018)
    )
    reference = _c(f"title:{t}:2015", 2015)
    assert title_merges(t, [held_only, reference]) == {}
    assert title_merges(t, [stated, reference]) == {f"title:{t}:2015": "1606.00001"}
    assert stated.chain_years(t) == {2016, 2018}


def test_title_merges_do_not_depend_on_order() -> None:
    t = "x"
    papers = [_c(f"title:{t}:{y}", y) for y in (2001, 2002, 2004, 2005)]
    assert title_merges(t, papers) == title_merges(t, list(reversed(papers)))
    assert parse_title_key(f"title:{t}:2001") == (t, 2001)
    assert parse_title_key(f"title:{t}:unknown") == (t, None)
    assert parse_title_key("2101.00001") is None


def test_a_paper_merged_away_while_read_is_no_candidate() -> None:
    """Read without locks, a paper another loader is merging away can come back with no
    properties; the plan leaves it out instead of failing (seen in the four-loader test)."""
    from kg.load.reconcile import candidates_by_title, plan_titles

    rows: list[dict[str, Any]] = [
        {
            "norm_title": "deep learning",
            "key": None,
            "arxiv_id": None,
            "year": None,
            "aliases": None,
        },
        {
            "norm_title": "deep learning",
            "key": "title:deep learning:2015",
            "arxiv_id": None,
            "year": 2015,
            "aliases": None,
        },
        {
            "norm_title": "deep learning",
            "key": "title:deep learning:2016",
            "arxiv_id": None,
            "year": 2016,
            "aliases": None,
        },
    ]
    plans = plan_titles(candidates_by_title(rows))
    assert plans["deep learning"].merges == {"title:deep learning:2016": "title:deep learning:2015"}


def test_a_title_key_goes_to_the_arxiv_paper_nearest_its_year_whichever_came_first() -> None:
    """Twin Title, posted 2017 (A) and 2018 (B), cited by title as 2017 and 2019: each key
    goes to the twin whose own years are nearest it. One that joined B before A came moves
    to A; one with a record of its own stays (its values folded into B)."""
    t = "twin title"
    a = TitleCandidate(key="1706.00001", arxiv_id="1706.00001", year=2017, stated_years=(2017,))
    cited = [_c(f"title:{t}:2017", 2017), _c(f"title:{t}:2019", 2019)]
    b = TitleCandidate(key="1801.00002", arxiv_id="1801.00002", year=2018, stated_years=(2018,))
    assert title_merges(t, [a, b, *cited]) == {
        f"title:{t}:2017": "1706.00001",
        f"title:{t}:2019": "1801.00002",
    }
    # Both keys joined B while it was alone: B's years are its own, not those of its keys
    held = TitleCandidate(
        key="1801.00002",
        arxiv_id="1801.00002",
        year=2018,
        aliases=(f"title:{t}:2017", f"title:{t}:2019", "title:other:2017"),
        stated_years=(2018,),
    )
    assert held.own_years() == {2018}
    # It chains by its own years: the keys it holds are placed each on its own
    assert held.chain_years(t) == {2018}
    assert title_splits(t, [held]) == []  # alone, it is the nearest
    assert title_splits(t, [held, a]) == [("1801.00002", f"title:{t}:2017", "1706.00001")]
    assert title_merges(t, [held, a]) == {}
    # A tie goes to the smallest key; a key with a record of its own moves as any key does
    tie = TitleCandidate(
        key="1801.00002",
        arxiv_id="1801.00002",
        year=2018,
        aliases=(f"title:{t}:2018",),
        stated_years=(2018,),
    )
    later = TitleCandidate(key="1801.00001", arxiv_id="1801.00001", year=2018, stated_years=(2018,))
    # The year a paper holds is not one of its own: a merged key's reference can give it
    assert TitleCandidate(key="x", arxiv_id="x", year=2019, stated_years=()).own_years() == set()
    assert title_splits(t, [tie, later]) == [("1801.00002", f"title:{t}:2018", "1801.00001")]
    recorded = TitleCandidate(
        key="1801.00002",
        arxiv_id="1801.00002",
        year=2018,
        aliases=(f"title:{t}:2017",),
        recorded=(f"title:{t}:2017",),
    )
    assert title_splits(t, [recorded, a]) == [("1801.00002", f"title:{t}:2017", "1706.00001")]
    # One plan gives all three, as the writer reads them in a reconcile round.
    cited_2018 = _c(f"title:{t}:2018", 2018)
    plan = title_plan(t, [recorded, a, cited_2018, cited[1]])
    # B here states no year of its own, so A is the nearest of 2017, 2018 (which chains to
    # both through 2017), and of 2019, which chains through the 2018 key (not through the
    # 2018 B holds: a year a paper holds is not one it chains by)
    assert plan.merges == {f"title:{t}:2018": "1706.00001", f"title:{t}:2019": "1706.00001"}
    assert plan.splits == [("1801.00002", f"title:{t}:2017", "1706.00001")]
    assert plan.needed
    assert not title_plan(t, [held]).needed


def test_each_title_chains_by_its_own_keys_so_a_key_another_title_chained_in_moves_out() -> None:
    """A paper's keys of one title do not chain its keys of another: "twin" 2017 joined X
    (posted 2015 as "old" and "twin") through "old" 2016 under kg 0.5, and stayed there
    when "old" 2016 moved to a nearer "old" paper; now each title's keys chain by their own
    years and X's, so it leaves X, as loading everything at once gives."""
    old, twin = "old", "twin"
    x = TitleCandidate(
        "1501.00001", "1501.00001", 2015, (f"title:{old}:2016", f"title:{twin}:2017"), (2015,)
    )
    assert x.chain_years(twin) == x.chain_years(old) == {2015}
    assert title_plan(twin, [x]).splits == [
        ("1501.00001", f"title:{twin}:2017", f"title:{twin}:2017")
    ]
    assert title_plan(old, [x]).splits == []
    y = TitleCandidate("1601.00002", "1601.00002", 2016, stated_years=(2016,))
    assert title_plan(old, [x, y]).splits == [("1501.00001", f"title:{old}:2016", "1601.00002")]
    # A title-only paper of it with no key to chain it to X stays its own paper
    alone = _c(f"title:{twin}:2017", 2017)
    assert title_plan(
        twin, [TitleCandidate("1501.00001", "1501.00001", 2015, (), (2015,)), alone]
    ) == (TitlePlan({}, []))
    # The keys that looped under an extra rule tried before 0.5.1 (docs/MODEL.md): X1 "q" and
    # "r" of 2014, X0 "r" of 2018, keys q 2015, q 2017 and r 2016. Wherever they are held,
    # q 2015 is X1's and the other two are papers of their own.
    x1 = TitleCandidate(
        "1401.00001", "1401.00001", 2014, ("title:q:2015", "title:q:2017", "title:r:2016"), (2014,)
    )
    x0 = TitleCandidate("1801.00000", "1801.00000", 2018, stated_years=(2018,))
    assert title_plan("q", [x1]).splits == [("1401.00001", "title:q:2017", "title:q:2017")]
    assert title_plan("r", [x1, x0]).splits == [("1401.00001", "title:r:2016", "title:r:2016")]
    in_x0 = TitleCandidate("1801.00000", "1801.00000", 2018, ("title:r:2016",), (2018,))
    assert title_plan("r", [in_x0]).splits == [("1801.00000", "title:r:2016", "title:r:2016")]
    separate = [TitleCandidate("1401.00001", "1401.00001", 2014, (), (2014,)), x0]
    assert title_plan("r", [*separate, _c("title:r:2016", 2016)]) == TitlePlan({}, [])
    assert title_plan(
        "q", [separate[0], _c("title:q:2015", 2015), _c("title:q:2017", 2017)]
    ).merges == {"title:q:2015": "1401.00001"}


def test_a_paper_holding_a_key_earlier_than_its_own_gives_it_up_to_be_the_paper() -> None:
    """A title-only paper under 2011 holding 2010 (a state kg 0.5 could leave): the group is
    one paper under its earliest key, so 2010 comes out to stand on its own and the others
    join it next round. When a page lists 2010 and 2013 apart, the cluster 2010 names forms
    the same way (review of kg 0.6.0: it never formed, the plan was empty)."""
    held = _stub(2011, 2010)
    plan = title_plan("sparse coding", [held, _stub(2012)])
    assert (plan.merges, plan.splits) == ({}, [(_key(2011), _key(2010), _key(2010))])
    after = [_stub(2011), _stub(2010), _stub(2012)]
    assert title_merges("sparse coding", after) == {_key(2011): _key(2010), _key(2012): _key(2010)}
    apart = [[_key(2010), _key(2013)]]
    plan = title_plan("sparse coding", [held, _stub(2012), _stub(2013)], listed_apart=apart)
    assert (plan.merges, plan.splits) == ({}, [(_key(2011), _key(2010), _key(2010))])
    plan = title_plan("sparse coding", [*after, _stub(2013)], listed_apart=apart)
    assert (plan.merges, plan.splits) == ({_key(2011): _key(2010), _key(2012): _key(2010)}, [])


def test_a_key_with_a_record_of_its_own_is_placed_as_any_key_is() -> None:
    """A page of "Twin Title" (2017) known by title only joined B (2018) before A (2017)
    came: the rule takes it out of B for A (the loader takes B apart to do so), and a user's
    split takes it out of B too; a record of it alone is placed as any title-only paper."""
    t = "twin title"
    b = TitleCandidate(
        "1801.00002",
        "1801.00002",
        2018,
        aliases=(f"title:{t}:2017",),
        stated_years=(2018,),
        recorded=(f"title:{t}:2017",),
    )
    a = TitleCandidate("1706.00001", "1706.00001", 2017, stated_years=(2017,))
    plan = title_plan(t, [a, b])
    assert (plan.merges, plan.splits) == ({}, [("1801.00002", f"title:{t}:2017", "1706.00001")])
    assert title_plan(t, [b]).needed is False
    split = title_plan(t, [b], kept_apart=[f"title:{t}:2017"])
    assert split.splits == [("1801.00002", f"title:{t}:2017", f"title:{t}:2017")]
    page = TitleCandidate(
        f"title:{t}:2017", None, 2017, stated_years=(2017,), recorded=(f"title:{t}:2017",)
    )
    assert title_plan(t, [a, page]).merges == {f"title:{t}:2017": "1706.00001"}


def test_a_key_a_user_split_after_it_merged_is_taken_out() -> None:
    """A split recorded after the merge (`kg load --keep-apart FILE` into a loaded graph):
    the key leaves the paper holding it and stands on its own; the keys a split paper holds
    go where the rule places them, as when it kept them apart from the start."""
    t = "sparse coding"
    held = _c(_key(2010), 2010, None, _key(2011), _key(2012))
    assert title_plan(t, [held]).needed is False
    plan = title_plan(t, [held], kept_apart=[_key(2011)])
    # 2012 chained to 2010 through 2011 alone, so it leaves too, as a paper of its own
    assert (plan.merges, plan.splits) == (
        {},
        [(_key(2010), _key(2011), _key(2011)), (_key(2010), _key(2012), _key(2012))],
    )
    arxiv = _c("1001.00001", 2010, "1001.00001", _key(2011))
    plan = title_plan(t, [arxiv], kept_apart=[_key(2011)])
    assert plan.splits == [("1001.00001", _key(2011), _key(2011))]
    # The holder split too: every key it holds leaves it, placed as any key is: 2011 and
    # 2012 are one paper under 2011, which 2012 joins the next round, once 2011 stands
    plan = title_plan(t, [held], kept_apart=[_key(2010)])
    assert (plan.merges, plan.splits) == (
        {},
        [(_key(2010), _key(2011), _key(2011)), (_key(2010), _key(2012), _key(2012))],
    )
    after = [_c(_key(2010), 2010), _c(_key(2011), 2011), _c(_key(2012), 2012)]
    plan = title_plan(t, after, kept_apart=[_key(2010)])
    assert (plan.merges, plan.splits) == ({_key(2012): _key(2011)}, [])
    # Once out, it merges with nothing
    alone = [_c(_key(2010), 2010), _c(_key(2011), 2011), _c(_key(2012), 2012)]
    assert title_plan(t, alone, kept_apart=[_key(2011)]).needed is False
    # A key with a record of its own leaves too (the loader takes the paper apart)
    recorded = TitleCandidate(
        "1001.00001", "1001.00001", 2010, (_key(2011),), (2010,), recorded=(_key(2011),)
    )
    plan = title_plan(t, [recorded], kept_apart=[_key(2011)])
    assert plan.splits == [("1001.00001", _key(2011), _key(2011))]
    assert title_plan(t, [recorded]).needed is False


def _key(year: int, title: str = "sparse coding") -> str:
    return f"title:{title}:{year}"


def _stub(year: int, *aliases: int, recorded: tuple[int, ...] = ()) -> TitleCandidate:
    return TitleCandidate(
        key=_key(year),
        arxiv_id=None,
        year=year,
        aliases=tuple(_key(y) for y in aliases),
        recorded=tuple(_key(y) for y in recorded),
    )


def _arxiv(key: str, year: int, *aliases: int) -> TitleCandidate:
    return TitleCandidate(
        key=key,
        arxiv_id=key,
        year=year,
        aliases=tuple(_key(y) for y in aliases),
        stated_years=(year,),
    )


def test_keys_a_page_lists_apart_are_two_papers_though_their_years_chain() -> None:
    t = "sparse coding"
    stubs = [_stub(2010), _stub(2011), _stub(2012)]
    assert title_merges(t, stubs) == {_key(2011): _key(2010), _key(2012): _key(2010)}
    # 2010 and 2011 apart: 2012 joins the first paper within a year of it that holds
    # nothing listed apart from it, 2011's
    apart = [[_key(2010), _key(2011)]]
    assert title_merges(t, stubs, listed_apart=apart) == {_key(2012): _key(2011)}
    assert title_merges(t, list(reversed(stubs)), listed_apart=apart) == {_key(2012): _key(2011)}
    # A page listing a third key apart from both: three papers
    assert title_merges(t, stubs, listed_apart=[[_key(2010), _key(2011), _key(2012)]]) == {}
    # Two keys that merged before the page came: the later one comes out, as a paper of its
    # own (the target is the key itself)
    merged = _stub(2010, 2011, 2012)
    assert title_splits(t, [merged], listed_apart=apart) == [
        (_key(2010), _key(2011), _key(2011)),
        (_key(2010), _key(2012), _key(2012)),  # 2011's paper is still to be formed
    ]
    assert title_places(t, [merged], frozenset({frozenset(apart[0])})) == {
        _key(2010): _key(2010),
        _key(2011): _key(2011),
        _key(2012): _key(2011),
    }
    # Pages listing keys that are in no group together say nothing
    far = [[_key(2010), _key(2020)]]
    assert title_merges(t, stubs, listed_apart=far) == title_merges(t, stubs)


def test_a_key_listed_apart_from_an_arxiv_paper_goes_to_the_next_nearest_or_stays() -> None:
    t = "sparse coding"
    a, b = _arxiv("1501.00001", 2015), _arxiv("1601.00002", 2016)
    # The page of A cites the title as 2016: not A, whose years are nearest
    assert title_merges(t, [a, _stub(2016)]) == {_key(2016): "1501.00001"}
    assert title_merges(t, [a, _stub(2016)], listed_apart=[["1501.00001", _key(2016)]]) == {}
    # Taken out of A when it joined A first; to B when B is there
    held = _arxiv("1501.00001", 2015, 2016)
    apart = [["1501.00001", _key(2016)]]
    assert title_splits(t, [held], listed_apart=apart) == [("1501.00001", _key(2016), _key(2016))]
    # Two keys listed apart nearest one arXiv paper: the nearer joins it, the other the
    # next nearest: 2016 is as near A (2015) as C (2017), A has the smaller id but holds 2015
    c = _arxiv("1701.00003", 2017)
    both = [[_key(2015), _key(2016)]]
    held = _arxiv("1501.00001", 2015, 2015, 2016)
    assert title_splits(t, [held, c]) == []
    assert title_splits(t, [held, c], listed_apart=both) == [
        ("1501.00001", _key(2016), "1701.00003")
    ]
    assert title_merges(t, [a, c, _stub(2015), _stub(2016)], listed_apart=both) == {
        _key(2015): "1501.00001",
        _key(2016): "1701.00003",
    }
    assert title_splits(t, [held, b], listed_apart=both) == [
        ("1501.00001", _key(2016), "1601.00002")
    ]
    # A key with a record of its own leaves the paper it joined as well
    recorded = TitleCandidate(
        key="1501.00001",
        arxiv_id="1501.00001",
        year=2015,
        aliases=(_key(2016),),
        stated_years=(2015,),
        recorded=(_key(2016),),
    )
    assert title_splits(t, [recorded], listed_apart=apart) == [
        ("1501.00001", _key(2016), _key(2016))
    ]
    # And a key that could join nothing makes no merge (2014 is apart from 2015 in A)
    assert title_merges(t, [held, _stub(2014)], listed_apart=[[_key(2014), _key(2015)]]) == {}


def test_the_writer_plans_with_the_keys_pages_list_apart_per_title() -> None:
    """The reconcile's plans take the lists per title (title_evidence rows), and the
    snapshot's rows name each list's title by a title key in it (a list of arXiv ids alone
    is none: two arXiv papers never merge)."""
    from kg.load.reconcile import plan_titles
    from kg.load.rows import listed_apart_rows

    dl = _key(2016, "deep learning")
    held = TitleCandidate("1501.00001", "1501.00001", 2015, aliases=(dl,), stated_years=(2015,))
    grouped = {"sparse coding": [_stub(2010), _stub(2011)], "deep learning": [held]}
    listed = {"sparse coding": [[_key(2010), _key(2011)]]}

    def needed(plans: dict[str, TitlePlan]) -> dict[str, tuple[object, object]]:
        return {norm: (plan.merges, plan.splits) for norm, plan in plans.items() if plan.needed}

    assert needed(plan_titles(grouped)) == {"sparse coding": ({_key(2011): _key(2010)}, [])}
    assert needed(plan_titles(grouped, (), listed)) == {}
    assert needed(plan_titles(grouped, (), {"deep learning": [["1501.00001", dl]]})) == {
        "deep learning": ({}, [("1501.00001", dl, dl)]),
        "sparse coding": ({_key(2011): _key(2010)}, []),
    }
    entries = (f"1501.00001|{dl}", "1501.00001|1601.00002", f"{_key(2010)}|{_key(2011)}")
    assert listed_apart_rows(entries) == [
        {"key": f"1501.00001|{dl}", "norm_title": "deep learning"},
        {"key": f"{_key(2010)}|{_key(2011)}", "norm_title": "sparse coding"},
    ]
