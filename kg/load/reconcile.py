"""The reconcile loop: after a batch commits, the identity rule is applied to what the
graph holds, round after round, until it settles.

The rule itself is a function of the records (``loaders.identity.title_plan`` for titles,
``loaders.ids.id_merges`` and ``author_merges`` for strong ids). Each round is one
transaction: it reads what is committed, and only where the rule asks for a merge or a move
does it take the locks (title stripes, or papers in key order), read again and apply it. A
paper that absorbed another, or gave a key up, is reconciled again under all its titles
(or ids) in the next round, until a round changes nothing; a rule that would need more
than ``RECONCILE_ROUNDS`` stops with ``IdentityUnsettled`` instead of running on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from neo4j import ManagedTransaction

from kg import queries
from kg.answers.loads import WriteCounts
from kg.database import Database, update_counters
from kg.errors import IdentityUnsettled, OlderGraph
from kg.load.rows import STATEMENT_QUERY, reference_row, split_rows
from kg.queries import Query
from loaders.identity import TitleCandidate, TitlePlan, title_lock_stripe, title_plan
from loaders.ids import author_merges, id_merges

__all__ = [
    "RECONCILE_ROUNDS",
    "Reconciler",
    "candidates_by_title",
    "plan_titles",
    "title_evidence",
]

_T = TypeVar("_T")
RECONCILE_ROUNDS = 50
"""The most reconcile rounds one batch's titles may take (``Reconciler.reconcile``): the rule
settles in a few, so more means a rule that does not, which must stop, not run on."""


def candidates_by_title(rows: Iterable[dict[str, Any]]) -> dict[str, list[TitleCandidate]]:
    """Group reconcile_titles rows into the rule's candidates, by normalised title."""
    grouped: dict[str, list[TitleCandidate]] = {}
    for row in rows:
        if row["key"] is None:
            # Read without the stripes' locks, a paper another loader is merging away can
            # show with no properties left: it is no candidate (the locked reread decides).
            continue
        grouped.setdefault(row["norm_title"], []).append(
            TitleCandidate(
                key=row["key"],
                # A paper keyed by another strong id (a DOI, say) is fixed under its title
                # as an arXiv paper is: title keys may join it, and it joins no other
                arxiv_id=row["arxiv_id"]
                or (None if row["key"].startswith("title:") else row["key"]),
                year=row["year"],
                aliases=tuple(row["aliases"] or ()),
                stated_years=tuple(row.get("years") or ()),
                recorded=tuple(row.get("recorded") or ()),
            )
        )
    return grouped


def title_evidence(
    rows: Iterable[Mapping[str, Any]],
) -> tuple[list[str], dict[str, list[list[str]]]]:
    """Return, from title_evidence rows, the keys users split (sorted) and the keys pages
    list apart, per normalised title (each title's lists sorted)."""
    kept: set[str] = set()
    listed: dict[str, list[list[str]]] = {}
    for row in rows:
        if row["kind"] == "kept":
            kept.update(row["keys"])
        else:
            listed.setdefault(row["norm_title"], []).append(list(row["keys"]))
    return sorted(kept), {norm: sorted(lists) for norm, lists in listed.items()}


def plan_titles(
    grouped: dict[str, list[TitleCandidate]],
    kept_apart: Iterable[str] = (),
    listed: Mapping[str, list[list[str]]] | None = None,
) -> dict[str, TitlePlan]:
    """Return, per normalised title, what the identity rule asks for (``title_plan``: its
    merges and splits) among the candidates ``candidates_by_title``
    grouped; ``kept_apart`` are the keys users split (kg unmerge), which merge with nothing,
    and ``listed`` the keys pages list apart, per title (``title_evidence``)."""
    apart = frozenset(kept_apart)
    return {
        norm: title_plan(norm, candidates, apart, (listed or {}).get(norm, ()))
        for norm, candidates in grouped.items()
    }


def _holders_by_id(
    rows: Iterable[Mapping[str, Any]], holder: str
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Return, from rows of an id key, its ``holder`` (a paper or an author) and every id
    of that holder: the holders of each id key, and the ids of each holder."""
    by_id: dict[str, list[str]] = {}
    ids_of: dict[str, list[str]] = {}
    for row in rows:
        by_id.setdefault(row["key"], []).append(row[holder])
        ids_of[row[holder]] = row["ids"]
    return by_id, ids_of


@dataclass
class _Round:
    """What one reconcile round did: how many papers merged away and keys moved, the write
    counters, what the next round reconciles (``todo``) and the titles of papers that grew."""

    merged: int = 0
    moved: int = 0
    counters: list[dict[str, int]] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)


class Reconciler:
    """Applies the identity rules to one Database, counting what it writes in ``counts``."""

    def __init__(self, graph: Database) -> None:
        self.graph = graph
        self.counts = WriteCounts()

    def _transaction(self, work: Callable[[ManagedTransaction], _T]) -> _T:
        """Run ``work(tx)`` in one managed write transaction (retried as a whole)."""
        return self.graph.write_transaction(work)

    def _settle(
        self,
        work: Callable[[list[str], ManagedTransaction], _Round],
        todo: list[str],
        what: str,
        papers: bool = True,
    ) -> list[_Round]:
        """Run ``work`` one transaction a round, on what the last round left to do, until
        a round leaves nothing; return the rounds. Each round's counters go to ``counts``
        as it commits, and so do its merges and moves when they are of ``papers``.

        Raises:
            IdentityUnsettled: when ``RECONCILE_ROUNDS`` rounds still left ``what`` to do.
        """
        rounds: list[_Round] = []
        todo = sorted(set(todo))
        while todo:
            if len(rounds) == RECONCILE_ROUNDS:
                raise IdentityUnsettled(todo, len(rounds), what)
            done = self._transaction(functools.partial(work, todo))
            for counter in done.counters:
                self.counts.add(counter)
            if papers:
                self.counts.merged += done.merged
                self.counts.moved += done.moved
            rounds.append(done)
            todo = done.todo
        return rounds

    @staticmethod
    def _titles_of(tx: ManagedTransaction, keys: list[str]) -> list[str]:
        """Every normalised title of these papers (held and ALSO_TITLED)."""
        if not keys:
            return []
        return [row["norm_title"] for row in queries.load.paper_titles.run_in(tx, keys=keys)]

    @staticmethod
    def _evidence(
        tx: ManagedTransaction, grouped: dict[str, list[TitleCandidate]]
    ) -> tuple[list[str], dict[str, list[list[str]]]]:
        """The keys users split and the keys pages list apart, per title (``title_evidence``),
        under the titles among the ``candidates_by_title`` candidates that hold a title key
        (read only for those: two arXiv ids never merge)."""
        titled = sorted(
            norm
            for norm, found in grouped.items()
            if any(key.startswith("title:") for c in found for key in (c.key, *c.aliases))
        )
        if not titled:
            return [], {}
        return title_evidence(queries.load.title_evidence.run_in(tx, norm_titles=titled))

    @staticmethod
    def _split(
        tx: ManagedTransaction, holder: str, alias: str, counters: list[dict[str, int]]
    ) -> bool:
        """Take ``alias`` out of ``holder`` (split_key) and write it back as a paper of its
        own through the load statements (``split_rows``); False when the holder no longer
        holds it."""
        found = queries.load.split_key.run_in(tx, key=holder, alias=alias)
        row = found.single()
        counters.append(update_counters(found.consume()))
        if row is None:
            return False
        stubs, citations = split_rows(holder, alias, row.data())
        Reconciler._write_back(tx, stubs, citations, counters)
        return True

    @staticmethod
    def take_apart(
        tx: ManagedTransaction, keys: list[str], counters: list[dict[str, int]]
    ) -> list[str]:
        """Take apart each of these papers that holds title keys with full records of their
        own (``recorded``): each such key becomes the paper it was before it merged again, with
        its record's values and what references stated under it (split_key, restore_folded,
        then ``split_rows`` through the load statements), and the paper gets back the values
        it held before they merged (restore_folded), from the copies merge_papers.cypher
        kept.
        Return the keys of the papers so written, sorted (the loader reconciles their
        titles, and the identity rule merges them again where it places them).

        The loader does this before it writes a record to such a paper or under such a key,
        and when the rule moves such a key, so no copy is ever stale: every paper then holds
        the values a load of its records in any order gives. It holds the lock stripes of the
        keys' titles first (which need not follow the stripes the transaction holds: a
        deadlock is retried)."""
        find = queries.load.take_apart
        rows = find.run_in(tx, keys=keys).data()
        locked: set[int] = set()
        while rows:
            stripes = {title_lock_stripe(n) for row in rows for n in row["norm_titles"]}
            if stripes <= locked:
                break
            queries.load.lock_titles.run_in(tx, stripes=sorted(stripes - locked)).consume()
            locked |= stripes
            rows = find.run_in(tx, keys=keys).data()
        written: set[str] = set()

        for row in rows:
            holder = row["key"]
            if row["missing"]:
                raise OlderGraph(holder, row["missing"])
            for part in row["parts"]:
                found = queries.load.split_key.run_in(tx, key=holder, alias=part)
                taken = found.single()
                counters.append(update_counters(found.consume()))
                if taken is None:
                    raise OlderGraph(holder, [part])
                restored = queries.load.restore_folded.run_in(tx, key=part)
                counters.append(update_counters(restored.consume()))
                stubs, citations = split_rows(holder, part, taken.data())
                Reconciler._write_back(tx, stubs, citations, counters)
            base = queries.load.restore_folded.run_in(tx, key=holder)
            best = base.single()
            counters.append(update_counters(base.consume()))
            if best is not None and best["best"] is not None:
                Reconciler._write_back(tx, [reference_row(best["best"], holder)], [], counters)
            written |= {holder, *row["parts"]}
        return sorted(written)

    @staticmethod
    def _write_back(
        tx: ManagedTransaction,
        stubs: list[dict[str, Any]],
        citations: list[dict[str, Any]],
        counters: list[dict[str, int]],
    ) -> None:
        """Write ``split_rows``' rows through the load statements."""
        for name, rows in (("load_stubs", stubs), ("load_citations", citations)):
            if rows:
                result = queries.get(STATEMENT_QUERY[name]).run_in(tx, rows=rows)
                counters.append(update_counters(result.consume()))

    def reconcile_ids(self, id_keys: list[str]) -> list[str]:
        """Merge the papers that share these strong ids, as the rule for strong ids says
        (``loaders.ids.id_merges``); return every title of the papers that grew, which
        the title rule then reconciles.

        Each round is one transaction: it reads which papers the ids identify; only when
        some must merge does it lock those papers (in key order), read again and merge.
        A paper that absorbed another holds its ids too, so the next round looks at every
        id of the papers that grew, until a round merges nothing (at most
        ``RECONCILE_ROUNDS``, as for titles).
        """
        rounds = self._settle(self._ids_round, id_keys, "ids")
        return sorted({title for done in rounds for title in done.titles})

    @staticmethod
    def _id_plan(
        tx: ManagedTransaction, todo: list[str]
    ) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
        """Return the merges the rule for strong ids asks for among the papers holding
        these id keys (source, target), and every id of each of those papers."""
        rows = queries.load.paper_id_papers.run_in(tx, keys=todo).data()
        by_id, ids_of = _holders_by_id(rows, "paper")
        if not any(len(papers) > 1 for papers in by_id.values()):
            return [], ids_of
        kept = [k for row in queries.load.kept_apart_all.run_in(tx) for k in row["keys"]]
        return id_merges(by_id, kept), ids_of

    def _ids_round(self, todo: list[str], tx: ManagedTransaction) -> _Round:
        """One round of ``reconcile_ids``: its next todo is every id of the papers that grew."""
        merges, _ids = self._id_plan(tx, todo)
        if not merges:
            return _Round()
        keys = sorted({key for pair in merges for key in pair})
        queries.load.lock_papers.run_in(tx, keys=keys).consume()
        merges, ids_of = self._id_plan(tx, todo)
        done = _Round()
        grown: set[str] = set()
        next_ids: set[str] = set()
        for source, target in merges:
            if self._merge(tx, queries.load.merge_papers, source, target, done):
                grown.add(target)
                next_ids.update(ids_of.get(source, ()), ids_of.get(target, ()))
        done.todo = sorted(next_ids)
        done.titles = self._titles_of(tx, sorted(grown))
        return done

    @staticmethod
    def _merge(tx: ManagedTransaction, merge: Query, source: str, target: str, done: _Round) -> int:
        """Merge ``source`` into ``target`` with ``merge`` (merge_papers or merge_authors),
        counting the merge in ``done``; return how many merged away (0 when one is gone)."""
        result = merge.run_in(tx, source=source, target=target)
        merged = sum(int(r["merged"]) for r in result)
        done.counters.append(update_counters(result.consume()))
        done.merged += merged
        return merged

    def reconcile_authors(self, id_keys: list[str]) -> int:
        """Merge the authors that share these strong ids (``loaders.ids.author_merges``);
        return how many merged away. Round after round, as ``reconcile_ids``: an author
        that absorbed another holds its ids too."""
        rounds = self._settle(self._authors_round, id_keys, "author ids", papers=False)
        return sum(done.merged for done in rounds)

    @staticmethod
    def _authors_round(todo: list[str], tx: ManagedTransaction) -> _Round:
        """One round of ``reconcile_authors``: its next todo is every id of the authors
        that merged."""
        rows = queries.load.author_id_authors.run_in(tx, keys=todo).data()
        by_id, ids_of = _holders_by_id(rows, "author")
        done = _Round()
        next_ids: set[str] = set()
        for source, target in author_merges(by_id):
            if Reconciler._merge(tx, queries.load.merge_authors, source, target, done):
                next_ids.update(ids_of.get(source, ()), ids_of.get(target, ()))
        done.todo = sorted(next_ids)
        return done

    def reconcile(self, norm_titles: list[str]) -> int:
        """Merge the papers the identity rule makes one, among those with these normalised
        titles; return how many papers merged away.

        Each round is one transaction. It reads what is committed; only when some title
        needs a merge or a move does it lock the stripes of those titles (in order), read
        them again and apply the rule. A paper that absorbed another, or gave a key up,
        holds other keys and titles now, so the next round reconciles every title of those
        papers, until a round changes nothing. The rule places each key by the records
        alone, so this settles in a few rounds; a load that would need more than
        ``RECONCILE_ROUNDS`` stops with ``IdentityUnsettled`` instead of running on.
        """
        rounds = self._settle(self._titles_round, norm_titles, "titles")
        return sum(done.merged for done in rounds)

    def _title_plans(
        self, tx: ManagedTransaction, norm_titles: list[str]
    ) -> tuple[dict[str, list[TitleCandidate]], dict[str, TitlePlan]]:
        """Read the candidates under these titles and what the rule asks of them."""
        found = queries.load.reconcile_titles.run_in(tx, norm_titles=norm_titles).data()
        grouped = candidates_by_title(found)
        return grouped, plan_titles(grouped, *self._evidence(tx, grouped))

    def _titles_round(self, todo: list[str], tx: ManagedTransaction) -> _Round:
        """One round of ``reconcile``: take apart, split, then merge what the rule says;
        its next todo is every title of the papers that grew or gave a key up."""
        _grouped, plans = self._title_plans(tx, todo)
        needed = sorted(norm for norm, plan in plans.items() if plan.needed)
        if not needed:
            return _Round()
        stripes = sorted({title_lock_stripe(norm) for norm in needed})
        queries.load.lock_titles.run_in(tx, stripes=stripes).consume()
        grouped, plans = self._title_plans(tx, needed)
        done = _Round()
        recorded = {c.key: set(c.recorded) for found in grouped.values() for c in found}
        grown = self._apply_splits(tx, plans, recorded, done)
        for _norm, plan in sorted(plans.items()):
            for source, target in sorted(plan.merges.items(), key=lambda m: (m[1], m[0])):
                if self._merge(tx, queries.load.merge_papers, source, target, done):
                    grown.add(target)
        done.todo = done.titles = self._titles_of(tx, sorted(grown))
        return done

    def _apply_splits(
        self,
        tx: ManagedTransaction,
        plans: dict[str, TitlePlan],
        recorded: dict[str, set[str]],
        done: _Round,
    ) -> set[str]:
        """Move the keys the plans move (``recorded``: the keys each paper holds with a
        record of their own); return the keys of the papers that changed."""
        grown: set[str] = set()
        # A key with a record of its own moves by taking its paper apart: the rule then
        # merges the parts where it places them (the next round)
        parted = sorted(
            {
                holder
                for plan in plans.values()
                for holder, alias, _target in plan.splits
                if alias in recorded.get(holder, ())
            }
        )
        if parted:
            apart = self.take_apart(tx, parted, done.counters)
            done.moved += len(apart) - len(parted)
            grown |= set(apart)
        # A key taken out of the paper that holds it goes straight to the one the rule
        # gives it (or stays a paper of its own)
        for _norm, plan in sorted(plans.items()):
            for holder, alias, target in plan.splits:
                if holder in parted and alias in recorded.get(holder, ()):
                    continue
                if not self._split(tx, holder, alias, done.counters):
                    continue
                done.moved += 1
                grown |= {holder, alias}
                if target == alias:
                    continue
                result = queries.load.merge_papers.run_in(tx, source=alias, target=target)
                if sum(int(r["merged"]) for r in result):
                    grown.add(target)  # a move, not a merge: not counted as one
                done.counters.append(update_counters(result.consume()))
        return grown
