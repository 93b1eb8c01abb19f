"""What a Neo4j cluster (or Aura) needs of the library, proved on the one server the tests
have: every session a Database opens is causally chained to the others through one
bookmark manager, so a read after a write in the same process is never answered by a
follower that has not caught up; and a load only reads the schema (no schema command to
the leader, no schema privilege needed) unless a constraint or index it needs is missing.

The bookmark manager under test is the driver's own, wrapped to record what the driver asks
of it; the server is real.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import neo4j
import neo4j.api
import pytest
from neo4j import GraphDatabase

from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.load.schema import apply_schema, ensure_schema, missing_schema, required_names
from tests.data import EXAMPLES


class RecordingBookmarks(neo4j.api.BookmarkManager):
    """The driver's bookmark manager, recording each call the driver makes to it."""

    def __init__(self) -> None:
        self.inner = GraphDatabase.bookmark_manager()
        self.lock = threading.Lock()
        self.given: list[frozenset[str]] = []
        self.updates: list[tuple[frozenset[str], frozenset[str]]] = []

    def get_bookmarks(self) -> Collection[str]:
        bookmarks = self.inner.get_bookmarks()
        with self.lock:
            self.given.append(frozenset(bookmarks))
        return bookmarks

    def update_bookmarks(
        self, previous_bookmarks: Collection[str], new_bookmarks: Collection[str]
    ) -> None:
        with self.lock:
            self.updates.append((frozenset(previous_bookmarks), frozenset(new_bookmarks)))
        self.inner.update_bookmarks(previous_bookmarks, new_bookmarks)


@pytest.fixture
def recorded(graph: Database) -> tuple[Database, RecordingBookmarks]:
    """A Database on the test driver whose sessions share a recording bookmark manager."""
    bookmarks = RecordingBookmarks()
    return Database(graph.driver, graph.database, graph.uri, bookmarks), bookmarks


def test_each_database_has_one_bookmark_manager_and_the_face_shares_it(graph: Database) -> None:
    other = Database(graph.driver, graph.database, graph.uri)
    assert graph.bookmark_manager is not other.bookmark_manager
    assert KnowledgeGraph.on(graph).bookmark_manager is graph.bookmark_manager


def test_every_kind_of_call_reads_and_advances_the_one_chain(
    recorded: tuple[Database, RecordingBookmarks],
) -> None:
    db, bookmarks = recorded
    calls: dict[str, Callable[[], object]] = {
        "write": lambda: db.write("MERGE (p:Paper {key: 'chain-1'}) SET p.stub = true"),
        "write_counters": lambda: db.write_counters("MERGE (:Paper {key: 'chain-2'})"),
        "write_transaction": lambda: db.write_transaction(
            lambda tx: tx.run("MERGE (:Paper {key: 'chain-3'})").consume()
        ),
        "run_autocommit": lambda: db.run_autocommit("MERGE (:Paper {key: 'chain-4'})"),
        "records (write)": lambda: db.records("MERGE (:Paper {key: 'chain-5'})", write=True),
    }
    for name, call in calls.items():
        asked, updated = len(bookmarks.given), len(bookmarks.updates)
        last = bookmarks.updates[-1][1] if bookmarks.updates else frozenset()
        call()
        # The session asked the shared manager for the chain so far before its transaction ...
        assert len(bookmarks.given) > asked, name
        assert bookmarks.given[asked] == last, name
        # ... and handed it the bookmark of its commit, a new one.
        assert len(bookmarks.updates) > updated, name
        new = bookmarks.updates[-1][1]
        assert new, name
        assert new != last, name
    # Reads are chained too: each starts from the last write's bookmark and sees the write.
    last = bookmarks.updates[-1][1]
    asked = len(bookmarks.given)
    rows = db.read("MATCH (p:Paper) WHERE p.key STARTS WITH 'chain-' RETURN count(p) AS n")
    assert rows == [{"n": 5}]
    assert bookmarks.given[asked] == last
    asked = len(bookmarks.given)
    assert len(db.records("MATCH (p:Paper) RETURN p.key")) == 5
    assert bookmarks.given[asked] == last


def test_a_second_database_on_the_same_driver_is_not_chained(
    recorded: tuple[Database, RecordingBookmarks],
) -> None:
    db, bookmarks = recorded
    db.write("MERGE (:Paper {key: 'chain-other'})")
    other = Database(db.driver, db.database, db.uri)
    before = len(bookmarks.given)
    other.read("MATCH (p:Paper) RETURN count(p) AS n")
    assert len(bookmarks.given) == before  # the other Database keeps its own chain


def test_the_chain_holds_across_threads_sharing_one_database(
    recorded: tuple[Database, RecordingBookmarks],
) -> None:
    """The web view shares one Database between request threads: each write's bookmark
    reaches the manager, and a read after all of them starts from bookmarks that cover
    them (the driver's manager keeps the newest of concurrent commits)."""
    db, bookmarks = recorded
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            db.write("MERGE (p:Paper {key: $key})", {"key": f"thread-{n}"})
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(bookmarks.updates) == 8
    assert db.read("MATCH (p:Paper) RETURN count(p) AS n") == [{"n": 8}]
    assert bookmarks.given[-1]


class _Statements:
    """Records every statement a Database sends, by the executor that sent it (the server
    runs each one)."""

    def __init__(self, graph: Database, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: list[tuple[str, str]] = []
        for executor in ("read", "write", "records", "write_counters", "run_autocommit"):
            monkeypatch.setattr(graph, executor, self._wrap(executor, getattr(graph, executor)))

    def _wrap(self, executor: str, run: Callable[..., Any]) -> Callable[..., Any]:
        def call(query: str, *args: Any, **kwargs: Any) -> Any:
            self.sent.append((executor, query))
            return run(query, *args, **kwargs)

        return call

    def schema_commands(self) -> list[str]:
        return [
            q
            for _, q in self.sent
            if q.lstrip()
            .upper()
            .startswith(
                ("CREATE CONSTRAINT", "CREATE INDEX", "CREATE FULLTEXT", "CALL DB.AWAITINDEXES")
            )
        ]


def test_a_load_with_the_schema_in_place_only_reads_it(
    graph: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert missing_schema(graph) == []
    face = KnowledgeGraph.on(graph)
    sent = _Statements(face, monkeypatch)
    summary = face.load([EXAMPLES / "map"], rejects_path=tmp_path / "rejects")
    assert summary.written > 0
    assert sent.schema_commands() == []
    shows = [(executor, q) for executor, q in sent.sent if q.startswith("SHOW")]
    assert shows
    assert {executor for executor, _ in shows} == {"read"}  # execute_read: retried, routed
    assert not [q for executor, q in sent.sent if executor == "run_autocommit"]


def test_a_load_applies_the_schema_when_an_index_or_constraint_is_missing(
    graph: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        graph.run_autocommit("DROP INDEX paper_year IF EXISTS")
        graph.run_autocommit("DROP CONSTRAINT snapshot_key IF EXISTS")
        assert missing_schema(graph) == ["paper_year", "snapshot_key"]
        face = KnowledgeGraph.on(graph)
        sent = _Statements(face, monkeypatch)
        face.load([EXAMPLES / "map"], rejects_path=tmp_path / "rejects")
        # The whole schema file, each statement retried on transient errors, and the wait.
        applied = [(e, q) for e, q in sent.sent if q.startswith("CREATE")]
        assert len(applied) == len(required_names())
        assert {e for e, _ in applied} == {"run_autocommit"}
        assert missing_schema(graph) == []
        monkeypatch.undo()
        assert ensure_schema(graph) is None  # now complete: nothing to apply
    finally:
        apply_schema(graph)


def test_kg_init_still_applies_the_schema_explicitly(
    graph: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = _Statements(graph, monkeypatch)
    report = apply_schema(graph)
    assert report.created == ()
    assert set(report.existing) == required_names()
    assert len(sent.schema_commands()) == len(required_names()) + 1  # and the wait
