"""What a search result and a chart show, without a server: the authors line of a hit, the
count axis of the citers-per-year chart, and the line under a page of a list."""

from __future__ import annotations

import itertools

import pytest

from kg.answers import SearchHit
from kg.cli.question_commands import _window
from kg.questions.retrievers import importance
from kg.web.app import _ticks


@pytest.mark.parametrize(
    ("authors", "count", "line"),
    [
        ([], 0, ""),
        (["Juan M. Maldacena"], 1, "Juan M. Maldacena"),
        (["A", "B", "C"], 3, "A, B, C"),
        (["A", "B", "C"], 4, "A, B, C et al."),
    ],
)
def test_the_authors_line_says_et_al_only_when_some_are_left_out(
    authors: list[str], count: int, line: str
) -> None:
    hit = SearchHit(key="k", authors=authors, author_count=count)
    assert hit.authors_line() == line


@pytest.mark.parametrize("peak", [1, 2, 3, 5, 6, 9, 10, 11, 24, 99, 100, 101, 599, 2414, 60361])
def test_the_count_axis_covers_the_peak_in_round_steps(peak: int) -> None:
    ticks = _ticks(peak)
    assert ticks[0] == 0
    assert ticks[-1] >= peak
    assert ticks[-2] < peak
    step = ticks[1]
    assert all(b - a == step for a, b in itertools.pairwise(ticks))
    assert str(step).rstrip("0") in ("1", "2", "5")
    assert 2 <= len(ticks) <= 7


def test_a_page_of_a_list_says_where_it_is_and_how_to_go_on() -> None:
    assert _window(0, 20, 2414) == "showing 20 of 2,414; --limit N to see more"
    assert _window(0, 20, 20) is None
    assert _window(20, 20, 2414) == "showing 21–40 of 2,414; --offset 40 for more"
    assert _window(2400, 14, 2414) == "showing 2,401–2,414 of 2,414"
    assert _window(3000, 0, 2414) == "showing none of 2,414"
    assert _window(20, 20, None) == "showing 21–40; --offset 40 for more"


def test_importance_grows_with_citations_up_to_its_cap() -> None:
    values = [importance(n) for n in (None, 0, 1, 10, 100, 1000, 100_000)]
    assert values[:2] == [0.0, 0.0]
    assert values == sorted(values)
    assert values[-2:] == [1.0, 1.0]
