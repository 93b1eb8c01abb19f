"""Union-find (loaders.unions) against the sets found by walking the joins."""

from __future__ import annotations

import random

import pytest

from loaders.unions import Unions


def _walked(size: int, joins: list[tuple[int, int]]) -> list[frozenset[int]]:
    """Return each number's set, found by walking the joins both ways from it."""
    near: dict[int, set[int]] = {i: set() for i in range(size)}
    for a, b in joins:
        near[a].add(b)
        near[b].add(a)
    sets = []
    for start in range(size):
        seen, todo = {start}, [start]
        while todo:
            for other in near[todo.pop()] - seen:
                seen.add(other)
                todo.append(other)
        sets.append(frozenset(seen))
    return sets


@pytest.mark.parametrize("seed", range(20))
def test_each_root_is_the_smallest_of_the_set_the_joins_make(seed: int) -> None:
    chance = random.Random(seed)
    size = chance.randint(1, 40)
    joins = [(chance.randrange(size), chance.randrange(size)) for _ in range(chance.randint(0, 30))]
    unions = Unions(size)
    for a, b in joins:
        unions.join(a, b)
    assert [unions.root(i) for i in range(size)] == [min(s) for s in _walked(size, joins)]
