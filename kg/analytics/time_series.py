"""Change over time in citations, as pure functions of yearly counts (no Neo4j here).

Three measures, each over a paper's citations per year (the years of the papers citing it):

- **Bursts**: Kleinberg's two-state automaton over batched counts ("Bursty and hierarchical
  structure in streams", 2002/2003, section 4, "enumerating bursts"), as CiteSpace uses it.
  Year ``t`` is a batch of ``d[t]`` citations made that year to the papers in scope, ``r[t]``
  of them to this paper. State 0 emits a citation to the paper with probability
  ``p0 = sum(r) / sum(d)`` over the paper's years, state 1 with ``p1 = s * p0`` (capped below
  1). Staying in state ``i`` for year ``t`` costs ``-ln(C(d, r) p_i^r (1 - p_i)^(d - r))``;
  moving up from state 0 to state 1 costs ``gamma * ln n`` (``n`` the number of years), moving
  down is free, and the sequence starts in state 0. The cheapest state sequence (Viterbi)
  marks the burst years; a burst is a maximal run of state 1 and its strength is
  ``sum over its years of (cost in state 0 - cost in state 1)``, Kleinberg's weight.
- **Sleeping beauties**: the beauty coefficient ``B`` and the awakening time of Ke, Ferrara,
  Radicchi and Flammini, "Defining and identifying Sleeping Beauties in science", PNAS 2015.
- **Gaining traction**: a paper's citations in the last ``window`` years against the mean of
  the same count over its cohort, the papers of its primary category published the same year
  (so of the same age): ``traction = (observed + 1) / (expected + 1)``. Above 1 the paper is
  cited more than papers of its field and age are; the add-one keeps a cohort whose papers are
  not cited at all from dividing by zero.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_GAMMA",
    "DEFAULT_S",
    "DEFAULT_WINDOW",
    "Beauty",
    "Burst",
    "Traction",
    "beauty_coefficient",
    "burst_costs",
    "burst_states",
    "bursts",
    "sequence_cost",
    "traction",
]

DEFAULT_S = 2.0
DEFAULT_GAMMA = 1.0
DEFAULT_WINDOW = 3
_P_CAP = 1.0 - 1e-9


@dataclass(frozen=True)
class Burst:
    """One burst: the first and last year (indices into the series, or years once placed)
    and its strength (the cost the burst state saves over those years)."""

    start: int
    end: int
    strength: float


def _emission(p: float, r: int, d: int) -> float:
    """Return -ln of the binomial probability of ``r`` of ``d`` at rate ``p``."""
    if d == 0:
        return 0.0
    log_choose = math.lgamma(d + 1) - math.lgamma(r + 1) - math.lgamma(d - r + 1)
    hits = r * math.log(p) if r else 0.0
    misses = (d - r) * math.log1p(-p) if d - r else 0.0
    return -(log_choose + hits + misses)


def burst_costs(
    r: Sequence[int], d: Sequence[int], s: float = DEFAULT_S
) -> tuple[list[float], list[float]]:
    """Return the emission costs of each year in state 0 and in state 1.

    Raises ValueError when the series differ in length, a count is negative, ``r[t] > d[t]``
    or ``s <= 1``.
    """
    if len(r) != len(d):
        raise ValueError("r and d differ in length")
    if s <= 1:
        raise ValueError(f"s must be above 1, got {s}")
    if any(x < 0 for x in r) or any(a > b for a, b in zip(r, d, strict=True)):
        raise ValueError("every r[t] must lie between 0 and d[t]")
    total_r, total_d = sum(r), sum(d)
    if total_r == 0:
        return [0.0] * len(r), [0.0] * len(r)
    p0 = min(total_r / total_d, _P_CAP)
    p1 = min(s * p0, _P_CAP)
    cost0 = [_emission(p0, a, b) for a, b in zip(r, d, strict=True)]
    cost1 = [_emission(p1, a, b) for a, b in zip(r, d, strict=True)]
    return cost0, cost1


def sequence_cost(
    states: Sequence[int],
    r: Sequence[int],
    d: Sequence[int],
    s: float = DEFAULT_S,
    gamma: float = DEFAULT_GAMMA,
) -> float:
    """Return the cost of one state sequence (0s and 1s) under the two-state model."""
    cost0, cost1 = burst_costs(r, d, s)
    up = gamma * math.log(len(r)) if len(r) > 1 else 0.0
    total, previous = 0.0, 0
    for t, state in enumerate(states):
        total += cost1[t] if state else cost0[t]
        if state > previous:
            total += up
        previous = state
    return total


def burst_states(
    r: Sequence[int], d: Sequence[int], s: float = DEFAULT_S, gamma: float = DEFAULT_GAMMA
) -> list[int]:
    """Return the cheapest state sequence (Viterbi): 1 for the years in a burst, else 0.

    Ties go to state 0. Raises ValueError as burst_costs does, or for a negative gamma.
    """
    if gamma < 0:
        raise ValueError(f"gamma must not be negative, got {gamma}")
    cost0, cost1 = burst_costs(r, d, s)
    return _viterbi(cost0, cost1, gamma)


def _viterbi(cost0: Sequence[float], cost1: Sequence[float], gamma: float) -> list[int]:
    n = len(cost0)
    if n == 0:
        return []
    up = gamma * math.log(n) if n > 1 else 0.0
    best = [cost0[0], up + cost1[0]]
    back: list[tuple[int, int]] = [(0, 0)]
    for t in range(1, n):
        from0 = best[0], best[1]  # into state 0 from 0 or 1 (moving down is free)
        from1 = best[0] + up, best[1]
        came0 = 0 if from0[0] <= from0[1] else 1
        came1 = 1 if from1[1] <= from1[0] else 0
        best = [from0[came0] + cost0[t], from1[came1] + cost1[t]]
        back.append((came0, came1))
    state = 0 if best[0] <= best[1] else 1
    states = [state]
    for t in range(n - 1, 0, -1):
        state = back[t][state]
        states.append(state)
    states.reverse()
    return states


def bursts(
    r: Sequence[int], d: Sequence[int], s: float = DEFAULT_S, gamma: float = DEFAULT_GAMMA
) -> list[Burst]:
    """Return the bursts of a series (index ranges into it), in order of time."""
    if gamma < 0:
        raise ValueError(f"gamma must not be negative, got {gamma}")
    cost0, cost1 = burst_costs(r, d, s)
    states = _viterbi(cost0, cost1, gamma)
    found: list[Burst] = []
    t = 0
    while t < len(states):
        if not states[t]:
            t += 1
            continue
        start = t
        while t < len(states) and states[t]:
            t += 1
        strength = sum(cost0[i] - cost1[i] for i in range(start, t))
        found.append(Burst(start, t - 1, strength))
    return found


@dataclass(frozen=True)
class Beauty:
    """The beauty coefficient of a series and where it peaks and awakens (years after
    publication: 0 is the year of publication)."""

    coefficient: float
    peak: int
    awakening: int


def beauty_coefficient(citations: Sequence[int]) -> Beauty:
    """Return Ke et al.'s beauty coefficient of ``citations`` (index t = t years after
    publication, up to the end of the data).

    ``t_m`` is the year of the most citations (the earliest, on a tie); the reference line
    joins ``(0, c_0)`` and ``(t_m, c_tm)``; ``B = sum over t = 0..t_m of
    (l_t - c_t) / max(1, c_t)``. The awakening time is the ``t <= t_m`` farthest from that
    line (the earliest, on a tie). A series peaking in its first year has ``B = 0`` and
    awakening 0. Raises ValueError for an empty series or a negative count.
    """
    if not citations:
        raise ValueError("the series is empty")
    if any(c < 0 for c in citations):
        raise ValueError("citation counts must not be negative")
    c = list(citations)
    peak = max(range(len(c)), key=lambda t: (c[t], -t))
    if peak == 0:
        return Beauty(0.0, 0, 0)
    rise = c[peak] - c[0]
    total = 0.0
    for t in range(peak + 1):
        line = rise / peak * t + c[0]
        total += (line - c[t]) / max(1, c[t])
    norm = math.hypot(rise, peak)
    distances = [abs(rise * t - peak * c[t] + peak * c[0]) / norm for t in range(peak + 1)]
    awakening = max(range(peak + 1), key=lambda t: (distances[t], -t))
    return Beauty(total, peak, awakening)


@dataclass(frozen=True)
class Traction:
    """A paper's recent citations against its cohort's mean (papers of its primary category
    and publication year): ``ratio = (observed + 1) / (expected + 1)``."""

    observed: int
    expected: float
    cohort: int
    ratio: float


def traction(
    recent: Mapping[str, int], cohorts: Mapping[str, tuple[str | None, int]], min_cohort: int = 1
) -> dict[str, Traction]:
    """Return the traction of each paper of ``recent`` (its citations in the window).

    ``cohorts`` maps each paper to its (primary category, publication year); the expected
    count is the mean of ``recent`` over the papers sharing both (the paper included).
    Papers in cohorts smaller than ``min_cohort``, or without a cohort, are left out.
    """
    groups: dict[tuple[str | None, int], list[int]] = {}
    for key, cohort in cohorts.items():
        if key in recent:
            groups.setdefault(cohort, []).append(recent[key])
    means = {cohort: (sum(v) / len(v), len(v)) for cohort, v in groups.items()}
    result: dict[str, Traction] = {}
    for key, observed in recent.items():
        if key not in cohorts:
            continue
        expected, size = means[cohorts[key]]
        if size < min_cohort:
            continue
        result[key] = Traction(observed, expected, size, (observed + 1) / (expected + 1))
    return result
