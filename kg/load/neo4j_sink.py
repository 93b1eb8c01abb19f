"""The graph writer: batches of validated records become idempotent UNWIND upserts.

Every statement is a named file in cypher/ (load_*, lock_titles, alias_holders), with the
rows ``kg.load.rows`` builds, run through ``execute_write``: each one MERGEs on a
constrained key, so a retried or repeated batch leaves the graph as it was.

A paper known only by title is always written under its own title key; a batch's statements
run in one transaction that first locks the lock stripes of those titles. Once it has
committed, the writer reconciles every title the batch touched (and every title of each
paper it gave a year) with the identity rule (``kg.load.reconcile``). A reference to a title
key that was merged away before is written, under the same locks, to the paper that holds
it in its ``aliases``: the same graph as writing the stub again and merging it, with no
churn.

Version compatibility lives here too: the writer records which kg version loaded a
snapshot whole (``LOADER_VERSION``), to skip a file loaded before and to refuse a graph
loaded under older identity rules (``IDENTITY_RULES_SINCE``).
"""

from __future__ import annotations

import contextlib
import sys
import threading
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from neo4j import ManagedTransaction

from kg import __version__, queries
from kg.database import update_counters
from kg.load.reconcile import Reconciler
from kg.load.rows import (
    STATEMENT_QUERY,
    Batch,
    author_id_rows,
    authors_held,
    batch_id_keys,
    batch_statements,
    dated_keys,
    redirected,
    snapshot_row,
    title_refs,
    touched_titles,
)
from loaders.identity import title_lock_stripe
from loaders.ids import author_rank, key_rank, parse_id_key
from loaders.records import SnapshotRecord
from loaders.titles import normalize_title, parse_title_key

__all__ = ["IDENTITY_RULES_SINCE", "LOADER_VERSION", "GraphWriter", "WriteBehind"]

LOADER_VERSION = f"kg {__version__}"
"""Marks a snapshot loaded whole; a file is skipped only when the same version loaded it."""
IDENTITY_RULES_SINCE = (0, 10, 0)
"""The first kg version whose identity rules this one's equal: a graph with files loaded by
an older one holds title keys of other rules (kg 0.7.0 normalised titles anew,
``normalize_title``, and kg 0.9.0 drops invisible format characters from them, so that
``Sparse Cod\u200bing`` is ``Sparse Coding``), or papers holding keys with records of their
own that cannot be taken apart (kg 0.8.0 keeps their ``Folded`` copies), or papers without
the strong ids their records state (kg 0.10.0 keys and merges papers by DOI, OpenAlex,
Semantic Scholar, MAG and PubMed ids)."""


def _version(loaded_by: str) -> tuple[int, ...] | None:
    """(0, 6, 0) for 'kg 0.6.0'; None for what is not such a version."""
    parts = loaded_by.removeprefix("kg ").split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


@dataclass(frozen=True)
class _BatchWrite:
    """What a batch writes and the keys its transaction locks and looks up first."""

    statements: list[tuple[str, dict[str, Any]]]
    stripes: list[int]
    """The lock stripes of its title-only papers' titles."""
    full: list[str]
    """The keys its full records are written under (locked)."""
    titled: list[dict[str, str]]
    """The title keys its full records are written under, with their normalised titles."""
    refs: list[dict[str, str]]
    """The title keys its citations name, with their normalised titles."""
    id_refs: list[str]
    """The strong id keys its citations name that none of its full records is under."""
    author_ids: list[str]
    """The strong id keys of its authors."""
    titles: list[str]
    """Every normalised title it names."""

    @classmethod
    def of(cls, batch: Batch) -> _BatchWrite:
        """Return what ``batch`` writes and locks."""
        title_only, every = touched_titles(batch)
        id_refs = {
            ref.key
            for c in batch.citations
            for ref in (c.citing, c.cited)
            if parse_id_key(ref.key) is not None
        }
        titled = {
            (r.key, normalize_title(r.title))
            for r in batch.papers
            if r.title and parse_title_key(r.key) is not None
        }
        return cls(
            statements=batch_statements(batch),
            stripes=sorted({title_lock_stripe(norm) for norm in title_only}),
            full=sorted({record.key for record in batch.papers}),
            titled=[{"key": k, "norm_title": n} for k, n in sorted(titled)],
            refs=title_refs(batch),
            # a key a full record of the batch is written under is a paper of its own until
            # the reconcile merges it, its ids with it: references to it go there too
            id_refs=sorted(id_refs - {record.key for record in batch.papers}),
            author_ids=sorted({i for row in author_id_rows(batch.papers) for i in row["ids"]}),
            titles=every,
        )


class GraphWriter(Reconciler):
    """Writes snapshots, then batches of papers and citations, to one Database, and
    reconciles what each batch touched (``Reconciler``)."""

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        """Upsert one Snapshot node; dates only ever widen."""
        self.counts.add(
            queries.load.snapshots.run_counters(self.graph, rows=[snapshot_row(snapshot)])
        )

    def write_author_names(self, rows: list[dict[str, str]]) -> None:
        """Make sure these authors exist, each with its smallest spelling (rows: key, name,
        several spellings of one author allowed)."""
        self.counts.add(queries.load.author_names.run_counters(self.graph, rows=rows))

    def loaded_whole(self, snapshot_key: str) -> bool:
        """Return True when this loader version loaded every record of the snapshot before."""
        rows = queries.load.snapshot_loaded_by.run(self.graph, key=snapshot_key)
        return bool(rows) and rows[0]["loaded_by"] == LOADER_VERSION

    def older_identity_rules(self) -> list[str]:
        """The kg versions older than IDENTITY_RULES_SINCE that loaded snapshots of the graph
        whole (sorted): a graph with their files is rebuilt for the rules to hold."""
        rows = queries.load.older_loaders.run(self.graph, current=LOADER_VERSION)
        return [
            row["loaded_by"]
            for row in rows
            if (version := _version(str(row["loaded_by"]))) is not None
            and version < IDENTITY_RULES_SINCE
        ]

    def write_follows(self, snapshot_key: str, since: str, unchanged: int) -> None:
        """Record that a snapshot follows an older one and restates ``unchanged`` of its
        records as they were (an incremental load)."""
        follows = queries.load.snapshot_follows.run_counters(
            self.graph, snapshot=snapshot_key, since=since, unchanged=unchanged
        )
        self.counts.add(follows)

    def mark_loaded_whole(self, snapshot_key: str) -> None:
        """Record on the Snapshot that every record of it is in, and by which loader."""
        mark = queries.load.mark_snapshot_loaded
        self.counts.add(mark.run_counters(self.graph, key=snapshot_key, loaded_by=LOADER_VERSION))

    def write_batch(self, batch: Batch) -> None:
        """Upsert the batch's papers, authors, categories, stubs and CITES in one transaction
        that holds the lock stripes of its title-only papers and the locks of the papers its
        full records name (taken before anything is read), then reconcile its titles."""
        self.write_planned(batch, _BatchWrite.of(batch))

    def write_planned(self, batch: Batch, plan: _BatchWrite) -> None:
        """``write_batch`` of a batch whose statements and locks are planned (``plan``)."""
        counters, titles = self._transaction(lambda tx: self._write_locked(tx, plan))
        for counter in counters:
            self.counts.add(counter)
        id_keys = batch_id_keys(batch)
        if id_keys:
            titles += self.reconcile_ids(id_keys)
        if plan.author_ids:
            self.reconcile_authors(plan.author_ids)
        every = sorted({*plan.titles, *titles})
        if every:
            self.reconcile(every)

    def _write_locked(
        self, tx: ManagedTransaction, plan: _BatchWrite
    ) -> tuple[list[dict[str, int]], list[str]]:
        """Take the batch's locks, take apart the papers its records would write to, and run
        its statements written to the papers that hold their keys now; return the counters
        and every title of the papers given a year or taken apart."""
        if plan.stripes:
            queries.load.lock_titles.run_in(tx, stripes=plan.stripes).consume()
        if plan.full:
            queries.load.lock_papers.run_in(tx, keys=plan.full).consume()
        counters: list[dict[str, int]] = []
        # A paper that holds title keys with records of their own is taken apart before
        # a record is written to it, or under one of those keys (take_apart)
        find = queries.load.alias_holders
        titles = plan.titled
        owners = [row["holder"] for row in find.run_in(tx, refs=titles)] if titles else []
        parted = self.take_apart(tx, sorted({*plan.full, *owners}), counters) if plan.full else []
        todo = plan.statements
        holders = self._key_holders(tx, plan)
        if holders:
            todo = redirected(todo, holders)
        if plan.author_ids:
            # an author a source gives ids for is written to the one that holds them
            authors: dict[str, str] = {}
            for row in queries.load.author_holders.run_in(tx, keys=plan.author_ids):
                found = authors.get(row["key"], row["holder"])
                authors[row["key"]] = min(row["holder"], found, key=author_rank)
            todo = authors_held(todo, authors)
        counters += [
            update_counters(queries.get(STATEMENT_QUERY[name]).run_in(tx, **params).consume())
            for name, params in todo
        ]
        return counters, self._titles_of(tx, sorted({*dated_keys(todo), *parted}))

    @staticmethod
    def _key_holders(tx: ManagedTransaction, plan: _BatchWrite) -> dict[str, str]:
        """Return, for each key the batch's references name that merged into another paper,
        the paper that holds it now."""
        holders: dict[str, str] = {}
        if plan.refs:
            for row in queries.load.alias_holders.run_in(tx, refs=plan.refs):
                holders[row["key"]] = min(row["holder"], holders.get(row["key"], row["holder"]))
        if plan.id_refs:
            # a reference by a strong id that merged into another paper goes to it
            for row in queries.load.id_holders.run_in(tx, keys=plan.id_refs):
                before = holders.get(row["key"], row["holder"])
                holders[row["key"]] = min(row["holder"], before, key=key_rank)
        return holders


_SWITCH_INTERVAL = 0.0005
"""The interpreter's switch interval while batches are written behind (``WriteBehind``)."""


class WriteBehind:
    """A GraphWriter whose batches are written in a thread of their own, one at a time and
    in order, while the caller reads and plans the next: the loader's own work (parsing,
    validating, building rows) overlaps the server's, where it used to wait for it.

    Every other call waits for the batch in flight first, and so does leaving the ``with``
    block: what the graph holds, and when, is what ``GraphWriter`` alone would give. An error
    writing a batch is raised by the next call (``wait``); ``unwritten`` then counts that
    batch's records.
    """

    def __init__(self, writer: GraphWriter) -> None:
        self.writer = writer
        self.unwritten = 0
        """How many records the batch whose write failed held (0 until one fails)."""
        self._thread: threading.Thread | None = None
        self._size = 0
        self._error: BaseException | None = None
        self._interval = sys.getswitchinterval()

    def __enter__(self) -> WriteBehind:
        # The writer's thread takes the GIL back after each of a batch's round trips; at
        # the default switch interval (5 ms) it would wait that long each time for the
        # loader's thread to let go. Held to 0.5 ms while the block runs.
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._interval, _SWITCH_INTERVAL))
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if kind is None:
                self.wait()
                return
            with contextlib.suppress(Exception):  # the block's own error is the one raised
                self.wait()
        finally:
            sys.setswitchinterval(self._interval)

    def write_batch(self, batch: Batch) -> None:
        """Plan ``batch``, wait for the batch in flight, then start writing this one."""
        plan = _BatchWrite.of(batch)
        self.wait()
        self._size = len(batch)
        self._thread = threading.Thread(
            target=self._write, args=(batch, plan), name="kg-write-behind", daemon=True
        )
        self._thread.start()

    def _write(self, batch: Batch, plan: _BatchWrite) -> None:
        try:
            self.writer.write_planned(batch, plan)
        except BaseException as error:  # raised in the caller's thread by wait()
            self._error = error

    def wait(self) -> None:
        """Wait for the batch in flight; raise what writing it raised."""
        if self._thread is None:
            return
        self._thread.join()
        self._thread = None
        error, self._error = self._error, None
        if error is not None:
            self.unwritten = self._size
            raise error

    def write_snapshot(self, snapshot: SnapshotRecord) -> None:
        self.wait()
        self.writer.write_snapshot(snapshot)

    def loaded_whole(self, snapshot_key: str) -> bool:
        self.wait()
        return self.writer.loaded_whole(snapshot_key)

    def mark_loaded_whole(self, snapshot_key: str) -> None:
        self.wait()
        self.writer.mark_loaded_whole(snapshot_key)
