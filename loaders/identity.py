"""The identity rule: which of the papers sharing a normalised title are one paper.

The rule is a function of the set of records (``title_plan``: what merges and what moves
among the candidates of one title), so that any order of the loads ends in the same graph.
The keys and matching forms it reads are ``loaders.titles``'.
"""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

from .titles import parse_title_key
from .unions import Unions

__all__ = [
    "TITLE_LOCK_STRIPES",
    "TitleCandidate",
    "TitlePlan",
    "title_groups",
    "title_lock_stripe",
    "title_merges",
    "title_places",
    "title_plan",
    "title_splits",
]

TITLE_LOCK_STRIPES = 4096
"""How many lock stripes the normalised titles are spread over (see ``title_lock_stripe``)."""


def title_lock_stripe(norm_title: str) -> int:
    """Return the lock stripe of a normalised title: a stable hash, the same in every process.

    Writers that touch papers known by title, and the reconciliation that merges them, lock
    the stripes of the titles they touch, so that they run one after another per title.
    """
    return zlib.crc32(norm_title.encode("utf-8")) % TITLE_LOCK_STRIPES


@dataclass(frozen=True)
class TitleCandidate:
    """A paper with a given normalised title, as the identity rule sees it."""

    key: str
    arxiv_id: str | None
    year: int | None
    aliases: tuple[str, ...] = ()
    stated_years: tuple[int, ...] = ()
    """Every year a record or a reference gave the paper under its own key (its ``years``)."""
    recorded: tuple[str, ...] = ()
    """Its title keys that a full record was written under (its ``recorded``). The rule
    places them as it places any title key; the loader takes the paper apart to move one
    (``kg.load.reconcile.Reconciler.take_apart``), since their values fold into the paper."""

    def own_years(self) -> set[int]:
        """The years stated under its own key (``years``): what the rule measures an arXiv
        paper by when several share a title, whichever title keys it holds. Not the year it
        holds, which a merged key's reference can have given it."""
        return set(self.stated_years)

    def chain_years(self, norm_title: str) -> set[int]:
        """The years by which the paper itself chains under ``norm_title``: those stated
        under its own key (``years``) and its own key's year. Not the year it holds, nor the
        years of the title keys it holds, which the rule places on their own (``_movable``),
        nor those of keys of its other titles: each title's keys chain by their own years
        only."""
        found = set(self.stated_years)
        parsed = parse_title_key(self.key)
        if parsed is not None and parsed[1] is not None:
            found.add(parsed[1])
        return found


@dataclass(frozen=True)
class _Unit:
    """What the rule places as one under a title: a title-only paper with the keys that
    cannot leave it, or a title key of that title another paper holds."""

    key: str
    year: int
    """The year it is placed by: its key's."""
    years: frozenset[int]
    """The years it chains by (``TitleCandidate.chain_years`` for a paper, else its key's)."""
    members: frozenset[str]
    """The keys that go wherever it goes."""
    holder: TitleCandidate


def _fixed(paper: TitleCandidate, norm_title: str) -> frozenset[str]:
    """The paper's keys that cannot leave it under ``norm_title``: all but ``_movable``."""
    return frozenset((paper.key, *paper.aliases)) - set(_movable(paper, norm_title))


def _atoms(
    norm_title: str, candidates: Iterable[TitleCandidate], apart: frozenset[str]
) -> tuple[list[TitleCandidate], list[_Unit]]:
    """The arXiv papers and the units (``_Unit``) the rule places among the papers with one
    normalised title; a paper a user split (``apart``) is neither, and the keys it holds are
    placed each on its own, as a key of a paper going elsewhere is (the split was recorded
    after they merged into it)."""
    anchors: list[TitleCandidate] = []
    units: list[_Unit] = []
    for paper in sorted(candidates, key=lambda c: c.key):
        if paper.key in apart:
            pass  # neither; the keys it holds are units below
        elif paper.arxiv_id is not None:
            anchors.append(paper)  # _chains reads its years
        elif years := frozenset(paper.chain_years(norm_title)):
            own = parse_title_key(paper.key)
            year = own[1] if own is not None and own[1] is not None else min(years)
            units.append(_Unit(paper.key, year, years, _fixed(paper, norm_title), paper))
        for alias, year in _movable(paper, norm_title).items():
            if alias not in apart:
                units.append(_Unit(alias, year, frozenset((year,)), frozenset((alias,)), paper))
    return anchors, units


def _chains(
    norm_title: str, anchors: list[TitleCandidate], units: list[_Unit]
) -> list[tuple[list[TitleCandidate], list[_Unit]]]:
    """The groups of one title: arXiv papers and units whose years chain with gaps of at
    most 1 year (an arXiv paper with no year of its own is in none), each sorted by key,
    and the groups by their first key."""
    nodes: list[tuple[str, frozenset[int]]] = [
        *((paper.key, frozenset(paper.chain_years(norm_title))) for paper in anchors),
        *((unit.key, unit.years) for unit in units),
    ]
    unions = Unions(len(nodes))
    points = sorted((year, i) for i, (_key, years) in enumerate(nodes) for year in years)
    for (year_a, a), (year_b, b) in itertools.pairwise(points):
        if year_b - year_a <= 1:
            unions.join(a, b)
    found: dict[int, tuple[list[TitleCandidate], list[_Unit]]] = {}
    for i, (_key, years) in enumerate(nodes):
        if not years:
            continue
        group = found.setdefault(unions.root(i), ([], []))
        if i < len(anchors):
            group[0].append(anchors[i])
        else:
            group[1].append(units[i - len(anchors)])
    groups = [
        (sorted(a, key=lambda p: p.key), sorted(u, key=lambda u: u.key)) for a, u in found.values()
    ]
    return sorted(groups, key=lambda g: min([p.key for p in g[0]] + [u.key for u in g[1]]))


def _papers(anchors: list[TitleCandidate], units: list[_Unit]) -> list[TitleCandidate]:
    """The papers holding a group's arXiv papers and units, sorted by key."""
    found = {paper.key: paper for paper in anchors}
    found.update({unit.holder.key: unit.holder for unit in units})
    return [found[key] for key in sorted(found)]


def title_groups(
    norm_title: str, candidates: Iterable[TitleCandidate], kept_apart: Iterable[str] = ()
) -> list[list[TitleCandidate]]:
    """Return the groups the identity rule forms among papers with one normalised title, as
    the papers holding them.

    The rule chains, by their years (gaps of at most 1 year), the title's arXiv papers
    (``TitleCandidate.chain_years``) and its title keys: a title-only paper with the keys
    that cannot leave it, and each other title key of the title that a paper holds, on its
    own (a paper's keys of this title do not chain it by their years: the rule places them,
    so what chained them once cannot keep them). A paper with no year of its own, and one a
    user split (``kept_apart``), is in none. Each group is sorted by key, and the groups by
    their first key; a paper can be in two, when the rule places a key it holds apart from
    it.
    """
    anchors, units = _atoms(norm_title, candidates, frozenset(kept_apart))
    return [_papers(a, u) for a, u in _chains(norm_title, anchors, units)]


@dataclass(frozen=True)
class TitlePlan:
    """What the identity rule asks for among the papers with one normalised title
    (``title_plan``)."""

    merges: dict[str, str]
    """{source key: target key}: the papers that are one paper (``title_merges``)."""
    splits: list[tuple[str, str, str]]
    """[(holder key, title key, target key)]: the keys to take out of the paper holding them
    (``title_splits``)."""

    @property
    def needed(self) -> bool:
        """True when the rule asks for a merge or a split."""
        return bool(self.merges or self.splits)


def title_plan(
    norm_title: str,
    candidates: Iterable[TitleCandidate],
    kept_apart: Iterable[str] = (),
    listed_apart: Iterable[Iterable[str]] = (),
) -> TitlePlan:
    """Return what the identity rule asks for among the papers with one normalised title:
    its merges (``title_merges``) and splits (``title_splits``), from one pass over the
    title's groups (``title_groups``).

    Every title key of the title is placed by the group it chains into, whichever paper
    holds it now, so the plan follows from the keys, the arXiv papers' own years and the
    pages alone: a key placed elsewhere than where its paper goes is taken out of it."""
    candidates = list(candidates)
    apart = frozenset(kept_apart)
    pairs = _pairs(listed_apart)
    anchors, units = _atoms(norm_title, candidates, apart)
    places: dict[str, str] = {}
    for ided, group in _chains(norm_title, anchors, units):
        keys = {key for paper in ided for key in _fixed(paper, norm_title)}
        keys.update(key for unit in group for key in unit.members)
        if any(pair <= keys for pair in pairs):
            places.update(_place(norm_title, ided, group, pairs))
        elif ided:
            places.update({unit.key: _nearest(ided, unit.year).key for unit in group})
        else:
            places.update(_one_paper(group))
    merges, splits = _moves(norm_title, candidates, apart, places)
    return TitlePlan(merges, splits)


def _one_paper(group: list[_Unit]) -> dict[str, str]:
    """Places a group with no arXiv paper as one paper, keyed by its earliest key (then the
    smallest): the title-only paper under that key, or, when another paper holds it, the
    key on its own, which its holder gives up (``_moves``) and the others then join."""
    target = min(group, key=lambda unit: (min(unit.years), unit.key)).key
    return {unit.key: target for unit in group}


def _moves(
    norm_title: str,
    candidates: list[TitleCandidate],
    apart: frozenset[str],
    places: dict[str, str],
) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """The merges and splits that put every placed unit where ``places`` says: a title-only
    paper merges into the paper it is placed in, once that one stands (an arXiv paper, or a
    title-only paper placed in itself); a key held by a paper that goes elsewhere, or that
    the paper's own group is named after (a paper holding a key earlier than its own), is
    taken out of it, to the paper it is placed in when that one stands, else as a paper of
    its own (a later round merges it). A paper a user split (``apart``) goes nowhere and takes
    in nothing: a key a user split is taken out of the paper holding it, and every key a
    split paper holds goes where it is placed (the split recorded after they merged:
    ``kg load --keep-apart FILE`` into a loaded graph)."""
    standing = {
        paper.key
        for paper in candidates
        if paper.arxiv_id is not None or places.get(paper.key, paper.key) == paper.key
    }
    merges: dict[str, str] = {}
    splits: list[tuple[str, str, str]] = []
    for paper in candidates:
        fixed = paper.arxiv_id is not None or paper.key in apart
        goes = paper.key if fixed else places.get(paper.key, paper.key)
        if goes != paper.key and goes in standing:
            merges[paper.key] = goes
        for alias in _movable(paper, norm_title):
            # A key a user split after it merged stands on its own
            place = alias if alias in apart else places.get(alias, goes)
            # A key the paper's own group is named after leaves it, to stand on its own
            if place != goes or alias == goes:
                splits.append((paper.key, alias, place if place in standing else alias))
    return merges, sorted(splits)


def _nearest(ided: list[TitleCandidate], year: int) -> TitleCandidate:
    """The arXiv paper whose own years are nearest ``year``, then the smallest key."""
    return min(
        ided,
        key=lambda paper: (
            min((abs(year - y) for y in paper.own_years()), default=10**6),
            paper.key,
        ),
    )


def title_merges(
    norm_title: str,
    candidates: Iterable[TitleCandidate],
    kept_apart: Iterable[str] = (),
    listed_apart: Iterable[Iterable[str]] = (),
) -> dict[str, str]:
    """Return which papers with one normalised title are one paper: {source key: target key}.

    ``kept_apart`` are keys a user split from a wrong merge (``kg unmerge``): a paper under
    one of them stays its own paper, and nothing merges into it.

    The rule, over the title's arXiv papers and title keys (``title_groups``): those whose
    years chain with gaps of at most 1 year form one group; a paper with no known year joins
    nothing. Two papers with arXiv ids are never merged. In a group with one arXiv paper,
    every title key is that paper; with several, each goes to the arXiv paper whose own
    years (``TitleCandidate.own_years``) are nearest its year (then the smallest key); with
    none, all are one paper under the earliest key (then the smallest key).
    The places follow from the keys, so a key that joined a paper the rule no longer gives
    it (a nearer arXiv paper came) moves (``title_splits``). A target is never itself a
    source.

    ``listed_apart`` are the keys a page lists as separate papers under this title (one
    iterable per page and title): in a group where two of them would be one paper, the
    group is placed by ``title_places`` instead, which keeps them apart.
    """
    return title_plan(norm_title, candidates, kept_apart, listed_apart).merges


def title_splits(
    norm_title: str,
    candidates: Iterable[TitleCandidate],
    kept_apart: Iterable[str] = (),
    listed_apart: Iterable[Iterable[str]] = (),
) -> list[tuple[str, str, str]]:
    """Return the title keys of one normalised title that a paper holds but the rule places
    elsewhere: [(holder key, title key, target key)], sorted.

    Each title key is placed by the group it chains into (``title_merges``), whichever paper
    holds it: one that joined an arXiv paper before a nearer one arrived, one a page lists
    apart from a key of its paper, and one whose chain to its paper ran through a key that
    has since moved are taken out and go where the rule places them, so the result is the
    same in any order. A key with a full record of its own (``TitleCandidate.recorded``)
    moves too: the loader takes the paper apart (``kg.load.reconcile.Reconciler.take_apart``).

    The target is the paper the key is placed in, or the key itself when it is to be a paper
    of its own, or when the paper it goes to is still to be formed (a later round merges
    it).
    """
    return title_plan(norm_title, candidates, kept_apart, listed_apart).splits


def _pairs(listed_apart: Iterable[Iterable[str]]) -> frozenset[frozenset[str]]:
    """Every two keys one page lists apart, as unordered pairs."""
    return frozenset(
        frozenset(pair)
        for keys in listed_apart
        for pair in itertools.combinations(sorted(set(keys)), 2)
    )


def _movable(paper: TitleCandidate, norm_title: str) -> dict[str, int]:
    """The title keys of ``norm_title`` merged into ``paper`` that the rule places on their
    own, with their years: every one with a year, a key with a full record of its own
    (``recorded``) too."""
    found = {}
    for alias in paper.aliases:
        parsed = parse_title_key(alias)
        if parsed is not None and parsed[0] == norm_title and parsed[1] is not None:
            found[alias] = parsed[1]
    return found


def title_places(
    norm_title: str, group: list[TitleCandidate], pairs: frozenset[frozenset[str]]
) -> dict[str, str]:
    """Return where the rule places each title key of one group (``title_groups``) that a
    page speaks against merging whole: {title key: key of the paper it is}.

    Two keys a page lists apart (``pairs``) are never one paper. Every other title key (a
    title-only paper, or a key of this title merged into a paper) is placed on its own,
    with the keys that cannot leave it (a paper's arXiv key):
    - nearest the group's arXiv papers first (then the earliest, then the smallest key),
      each joins the arXiv paper whose own years are nearest its year (then the smallest
      id) that holds no key listed apart from it, else the next nearest;
    - those that none can take, earliest first (then the smallest key), each joins the
      first title-only paper so formed that has a key placed in it within a year of it and
      holds none listed apart from it, else starts one: the paper is its first key's.
    So the places follow from the keys, their years and the pages alone.
    """
    anchors, units = _atoms(norm_title, group, frozenset())
    return _place(norm_title, anchors, units, pairs)


def _place(
    norm_title: str,
    ided: list[TitleCandidate],
    units: list[_Unit],
    pairs: frozenset[frozenset[str]],
) -> dict[str, str]:
    """``title_places`` for a group's arXiv papers (``ided``) and units."""

    def apart(a: Iterable[str], b: Iterable[str]) -> bool:
        return any(frozenset((x, y)) in pairs for x in a for y in b)

    def distance(year: int, paper: TitleCandidate) -> int:
        return min((abs(year - y) for y in paper.own_years()), default=10**6)

    held = {paper.key: set(_fixed(paper, norm_title)) for paper in ided}
    places: dict[str, str] = {}
    left = []
    nearest_first = sorted(
        units,
        key=lambda u: (min((distance(u.year, p) for p in ided), default=10**6), u.year, u.key),
    )
    for unit in nearest_first:
        for paper in sorted(ided, key=lambda p: (distance(unit.year, p), p.key)):
            if not apart(unit.members, held[paper.key]):
                held[paper.key] |= unit.members
                places[unit.key] = paper.key
                break
        else:
            left.append(unit)
    formed: list[list[_Unit]] = []
    for unit in sorted(left, key=lambda u: (u.year, u.key)):
        for cluster in formed:
            near = any(abs(unit.year - other.year) <= 1 for other in cluster)
            if near and not apart(unit.members, {k for other in cluster for k in other.members}):
                cluster.append(unit)
                break
        else:
            formed.append([unit])
    for cluster in formed:
        places.update({unit.key: cluster[0].key for unit in cluster})
    return places
