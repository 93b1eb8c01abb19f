"""Union-find: numbered things joined into sets two at a time. The identity rule groups a
title's records whose years chain (loaders.identity), and the time analytics number the
citation graph's connected bodies (kg.analytics.time)."""

from __future__ import annotations

__all__ = ["Unions"]


class Unions:
    """The sets of the numbers 0 to ``size - 1``, each alone until ``join`` puts two together."""

    def __init__(self, size: int) -> None:
        self._parent = list(range(size))

    def root(self, i: int) -> int:
        """Return the number that stands for ``i``'s set: its smallest."""
        parent = self._parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]  # path halving: the next look-up takes fewer steps
            i = parent[i]
        return i

    def join(self, a: int, b: int) -> None:
        """Put the sets of ``a`` and ``b`` together (nothing when they are one already)."""
        first, second = self.root(a), self.root(b)
        if first != second:
            self._parent[max(first, second)] = min(first, second)
