"""Bursts, the beauty coefficient and traction on hand-worked series, and bursts against a
brute-force search over every state sequence."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.analytics.time import CitationTimeline
from kg.analytics.time_series import (
    beauty_coefficient,
    burst_states,
    bursts,
    sequence_cost,
    traction,
)


def test_a_hand_checked_burst() -> None:
    """d = 10 citations a year for 4 years, r = 1, 1, 6, 0 of them to the paper; s = 2,
    gamma = 1. p0 = 8 / 40 = 0.2 and p1 = 0.4. The binomial coefficient is the same in both
    states, so a year in state 1 saves r ln(p1/p0) + (d - r) ln((1 - p1)/(1 - p0))
    = r ln 2 - (d - r) ln(4/3): -1.896 for r = 1, ln(2^6 (3/4)^4) = ln(81/4) = 3.008 for
    r = 6 and -2.877 for r = 0. Entering state 1 costs gamma ln n = ln 4 = 1.386. Bursting
    in year 3 alone saves 3.008 - 1.386 = 1.622 > 0; widening it to year 2 or 4 adds a year
    that costs 1.896 or 2.877; a second entry never pays. So the optimum is 0, 0, 1, 0 with
    one burst of strength ln(81/4)."""
    r, d = [1, 1, 6, 0], [10, 10, 10, 10]
    assert burst_states(r, d) == [0, 0, 1, 0]
    found = bursts(r, d)
    assert [(b.start, b.end) for b in found] == [(2, 2)]
    assert found[0].strength == pytest.approx(math.log(81 / 4))
    saved = sequence_cost([0, 0, 0, 0], r, d) - sequence_cost([0, 0, 1, 0], r, d)
    assert saved == pytest.approx(math.log(81 / 4) - math.log(4))


def test_a_rise_too_small_to_pay_for_the_transition() -> None:
    """r = 2, 2, 3, 1 of 10 each: p0 = 0.2 again; the best year saves 3 ln 2 - 7 ln(4/3)
    = 0.066, less than ln 4, so there is no burst."""
    assert bursts([2, 2, 3, 1], [10, 10, 10, 10]) == []


def test_gamma_zero_and_a_larger_s() -> None:
    r, d = [1, 1, 6, 0], [10, 10, 10, 10]
    # gamma 0: every year where state 1 is cheaper bursts, and only year 3 is.
    assert burst_states(r, d, gamma=0.0) == [0, 0, 1, 0]
    # s = 3: p1 = 0.6; year 3 saves 6 ln(0.6/0.2) + 4 ln(0.4/0.8) = 6 ln 3 - 4 ln 2 = 3.819.
    found = bursts(r, d, s=3.0)
    assert [(b.start, b.end) for b in found] == [(2, 2)]
    assert found[0].strength == pytest.approx(6 * math.log(3) - 4 * math.log(2))


def test_bad_series_are_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and"):
        bursts([3], [2])
    with pytest.raises(ValueError, match="above 1"):
        bursts([1], [2], s=1.0)
    with pytest.raises(ValueError, match="differ"):
        bursts([1, 2], [2])
    assert bursts([], []) == []
    assert bursts([0, 0], [5, 5]) == []


@st.composite
def _series(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    n = draw(st.integers(1, 7))
    d = draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    r = [draw(st.integers(0, total)) for total in d]
    return r, d


@settings(max_examples=200, deadline=None)
@given(_series(), st.sampled_from([1.5, 2.0, 3.0]), st.sampled_from([0.0, 0.5, 1.0, 2.0]))
def test_viterbi_finds_the_cheapest_of_all_state_sequences(
    series: tuple[list[int], list[int]], s: float, gamma: float
) -> None:
    r, d = series
    found = burst_states(r, d, s, gamma)
    costs = {
        states: sequence_cost(states, r, d, s, gamma)
        for states in itertools.product((0, 1), repeat=len(r))
    }
    cheapest = min(costs.values())
    assert sequence_cost(found, r, d, s, gamma) == pytest.approx(cheapest, abs=1e-9)
    optimal = [states for states, cost in costs.items() if cost - cheapest < 1e-9]
    if len(optimal) == 1:
        assert tuple(found) == optimal[0]
    for burst in bursts(r, d, s, gamma):
        assert burst.strength > 0 or gamma == 0


def test_beauty_of_a_linear_series_is_zero() -> None:
    """Ke et al.: a citation count growing linearly lies on its reference line: B = 0."""
    result = beauty_coefficient([0, 1, 2, 3, 4])
    assert result.coefficient == 0.0
    assert result.peak == 4
    assert result.awakening == 0


def test_beauty_of_a_sleeping_beauty() -> None:
    """c = 0, 0, 0, 0, 10: t_m = 4 and the line is l_t = 2.5 t, so
    B = 2.5/1 + 5/1 + 7.5/1 + 0/10 = 15. The distance to the line is |10 t - 4 c_t| / sqrt(116):
    0, 10, 20, 30, 0 (over sqrt(116)), largest at t = 3, the awakening."""
    result = beauty_coefficient([0, 0, 0, 0, 10])
    assert result.coefficient == pytest.approx(15.0)
    assert (result.peak, result.awakening) == (4, 3)


def test_beauty_with_early_citations_and_a_decline() -> None:
    """c = 2, 1, 1, 1, 2, 12, 3: t_m = 5, l_t = 2 t + 2; B = 0 + 3 + 5 + 7 + 8/2 + 0 = 19.
    Distances |10 t - 5 c_t + 10|: 0, 15, 25, 35, 40, 0: the awakening is t = 4. Years after
    the peak do not count."""
    result = beauty_coefficient([2, 1, 1, 1, 2, 12, 3])
    assert result.coefficient == pytest.approx(19.0)
    assert (result.peak, result.awakening) == (5, 4)


def test_beauty_of_a_concave_series_is_negative() -> None:
    """c = 0, 6, 8, 9, 10: l_t = 2.5 t; B = -3.5/6 - 3/8 - 1.5/9 = -27/24."""
    assert beauty_coefficient([0, 6, 8, 9, 10]).coefficient == pytest.approx(-27 / 24)


def test_beauty_of_a_series_peaking_first_is_zero() -> None:
    result = beauty_coefficient([5, 1, 0, 5])
    assert (result.coefficient, result.peak, result.awakening) == (0.0, 0, 0)
    with pytest.raises(ValueError, match="empty"):
        beauty_coefficient([])


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 50), st.integers(1, 20), st.integers(1, 15))
def test_beauty_of_any_linear_growth_is_zero(start: int, slope: int, years: int) -> None:
    series = [start + slope * t for t in range(years + 1)]
    assert beauty_coefficient(series).coefficient == pytest.approx(0.0, abs=1e-9)


def test_traction_against_the_cohort_mean() -> None:
    """a, b, c: hep-th 1999, recent 6, 0, 3, mean 3: a (6+1)/(3+1) = 1.75, b 0.25, c 1.
    d is alone in its cohort: expected = its own count, ratio 1; left out with min_cohort 2."""
    recent = {"a": 6, "b": 0, "c": 3, "d": 4}
    cohorts: dict[str, tuple[str | None, int]] = {
        "a": ("hep-th", 1999),
        "b": ("hep-th", 1999),
        "c": ("hep-th", 1999),
        "d": ("hep-th", 2000),
    }
    result = traction(recent, cohorts)
    assert {k: v.ratio for k, v in result.items()} == {"a": 1.75, "b": 0.25, "c": 1.0, "d": 1.0}
    assert result["a"].expected == 3.0
    assert result["a"].cohort == 3
    assert set(traction(recent, cohorts, min_cohort=2)) == {"a", "b", "c"}


def test_the_timeline_counts_citations_per_year_from_the_projection_rows() -> None:
    """Rows as timeline_projection returns them: a repeated, a self- and an unknown citation
    are not counted (the unknown one as left out); an undated citer counts in no year."""
    papers: list[list[Any]] = [
        ["a", 1995, "1995-01-02", "hep-th"],
        ["b", 1996, None, "hep-th"],
        ["c", None, None, None],
    ]
    cites = [["a"], ["a", "a", "b", "gone"], ["a", "b"]]
    data = CitationTimeline.build(papers, cites)
    assert data.cites == [[], [0], [0, 1]]
    assert data.per_year == [{1996: 1}, {}, {}]
    assert data.totals == {1996: 1}
    assert (data.undated, data.left_out, data.edge_count, data.last_year) == (2, 1, 3, 1996)


def test_each_paper_has_the_body_of_data_citations_connect_it_to() -> None:
    """a <- b and c <- d are two bodies (citations either way connect); e cites nothing and
    nobody cites it. Each body counts its own citations per year and ends at its own last
    year; an undated citer (f) connects without counting."""
    papers: list[list[Any]] = [
        ["a", 1995, None, "hep-th"],
        ["b", 1997, None, "hep-th"],
        ["c", 2019, None, "cs.LG"],
        ["d", 2021, None, "cs.LG"],
        ["e", 2000, None, "hep-th"],
        ["f", None, None, None],
    ]
    cites = [[], ["a"], [], ["c"], [], ["e", "a"]]
    data = CitationTimeline.build(papers, cites)
    assert data.body == [0, 0, 1, 1, 0, 0]
    assert data.body_totals == [{1997: 1}, {2021: 1}]
    assert [data.last_year_of(i) for i in range(6)] == [1997, 1997, 2021, 2021, 1997, 1997]
    assert data.last_year == 2021
