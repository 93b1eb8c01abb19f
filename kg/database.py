"""The connection to Neo4j: one driver per process, reads and writes as a cluster expects.

Reads go through ``execute_read`` (routed to readers on a cluster), writes through
``execute_write`` (which may retry, so every write we send is an idempotent MERGE), and
every call names the database.

Every session of one ``Database`` shares one bookmark manager, so the library's own calls
are causally chained: on a cluster, a read that follows a write in the same process waits
until the server it is routed to has that write, instead of answering from a follower that
has not caught up. (Each call opens its own session, and sessions share no bookmarks unless
they are given the same manager.)

The driver's own log lines ("Unable to retrieve routing information", "Transaction failed and
will be retried") never reach the terminal: the ``neo4j`` logger gets a NullHandler, so
Python's last-resort handler stays silent and the project's one-line error is all a user
sees. An application that configures logging still receives them through propagation.
Managed transactions retry for at most ``MAX_RETRY_SECONDS``, so a dead server is reported
in seconds rather than after a minute of retries.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, LiteralString, Self, TypeVar
from urllib.parse import urlsplit

import neo4j
from neo4j import GraphDatabase, ManagedTransaction
from neo4j.exceptions import (
    AuthError,
    ConfigurationError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

from kg.answers.loads import GRAPH_COUNTERS
from kg.errors import ConnectionFailed, ParameterError, QueryFailed
from kg.server import config
from kg.server.config import quiet_driver_logs

__all__ = [
    "COUNTER_NAMES",
    "INT64_MAX",
    "INT64_MIN",
    "MAX_RETRY_SECONDS",
    "Database",
    "Row",
    "translated_errors",
    "update_counters",
]

Row = dict[str, Any]
T = TypeVar("T")

MAX_RETRY_SECONDS = 15.0
"""How long ``execute_read``/``execute_write`` retry transient failures (driver default: 30 s)."""


INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1
"""The range of Neo4j's INTEGER, and so of a whole number a query can be passed."""


@contextmanager
def translated_errors(uri: str) -> Iterator[None]:
    """Turn the driver's connection, auth and query errors into KGError subclasses."""
    try:
        yield
    except AuthError as exc:
        raise ConnectionFailed(
            f"Neo4j at {uri} refused the credentials",
            "check NEO4J_USER/NEO4J_PASSWORD, or the local password file in KG_HOME",
        ) from exc
    except ServiceUnavailable as exc:
        raise ConnectionFailed(
            f"cannot reach Neo4j at {uri}",
            "start the local server with `kg db start`, or check NEO4J_URI"
            if _is_local(uri)
            else "check NEO4J_URI and that the network reaches that server",
        ) from exc
    except SessionExpired as exc:
        raise ConnectionFailed(
            f"lost the connection to Neo4j at {uri}",
            "check that the server is running (`kg db status`), then try again",
        ) from exc
    except ConfigurationError as exc:
        raise ConnectionFailed(f"the driver cannot use {uri}: {exc}", "check NEO4J_URI") from exc
    except OverflowError as exc:
        # The driver cannot pack an integer beyond 64 bits (Neo4j's INTEGER) into a query.
        raise ParameterError(
            "a number passed to the query is too large for Neo4j",
            f"pass whole numbers from {INT64_MIN:,} to {INT64_MAX:,}",
        ) from exc
    except UnicodeEncodeError as exc:
        # The driver sends text as UTF-8, which a lone surrogate has no form in: what Python
        # makes of command-line bytes that are not UTF-8, or of a broken UTF-16 pair.
        raise ParameterError(
            "a text passed to the query is not valid text: it holds bytes that are not UTF-8 "
            f"({exc.object[exc.start : exc.end]!r})",
            "pass UTF-8 text",
        ) from exc
    except DriverError as exc:
        # Any other failure of the driver itself (a broken connection pool, a result cut off
        # by a dying server): one line, never a traceback.
        raise ConnectionFailed(
            f"the connection to Neo4j at {uri} failed ({type(exc).__name__}: {exc})",
            "check that the server is running (`kg db status`), then try again",
        ) from exc
    except Neo4jError as exc:
        if exc.code and "AccessMode" in exc.code:
            raise QueryFailed(
                "the statement writes, and it ran in a READ transaction",
                "run it as a write: graph.write(query) in Python, kg cypher --write on the "
                "command line",
            ) from exc
        if exc.code and exc.code.endswith("DatabaseNotFound"):
            raise QueryFailed(
                f"Neo4j refused the query: {exc.message or exc}",
                "check NEO4J_DATABASE (unset, it is the server's default database)",
            ) from exc
        raise QueryFailed(
            f"Neo4j refused the query: {exc.message or exc}",
            "check the query and its parameters",
        ) from exc


def _is_local(uri: str) -> bool:
    """Return whether ``uri`` names a server on this machine (the one `kg db` runs)."""
    return urlsplit(uri).hostname in ("localhost", "127.0.0.1", "::1", None)


COUNTER_NAMES: Final = (*GRAPH_COUNTERS, "constraints_added", "indexes_added")
"""The server's update counters the project reads, in one place."""


def update_counters(summary: neo4j.ResultSummary) -> dict[str, int]:
    """Return a finished statement's update counters (COUNTER_NAMES) as a dict."""
    return {name: int(getattr(summary.counters, name)) for name in COUNTER_NAMES}


@dataclass(frozen=True)
class _Opened:
    """The driver of a Database once it is open, with the database and URI it serves."""

    driver: neo4j.Driver
    database: str
    uri: str


def _open(connection: config.Connection | str | None) -> _Opened:
    """Open and check the driver for ``connection`` (see ``Database.connect``)."""
    conn = (
        config.connection(connection)
        if not isinstance(connection, config.Connection)
        else connection
    )
    quiet_driver_logs()
    with translated_errors(conn.uri):
        # Schema-free queries on an empty graph draw "label does not exist" notices;
        # they are noise for a tool whose queries name only the model's own labels.
        driver = GraphDatabase.driver(
            conn.uri,
            auth=(conn.user, conn.password),
            notifications_min_severity="OFF",
            max_transaction_retry_time=MAX_RETRY_SECONDS,
        )
        try:
            driver.verify_connectivity()
        except BaseException:
            driver.close()
            raise
    return _Opened(driver, conn.database, conn.uri)


class Database:
    """A driver bound to one database. Close it, or use it as a context manager.

    ``bookmark_manager`` chains every session this object opens (see the module docstring);
    pass another Database's to share its causal chain (``KnowledgeGraph.on`` does), or leave
    it out for a new one.
    """

    def __init__(
        self,
        driver: neo4j.Driver,
        database: str,
        uri: str,
        bookmark_manager: neo4j.api.BookmarkManager | None = None,
    ) -> None:
        self._opened: _Opened | None = _Opened(driver, database, uri)
        self._connection: config.Connection | str | None = None
        if bookmark_manager is None:
            bookmark_manager = GraphDatabase.bookmark_manager()
        self.bookmark_manager = bookmark_manager

    def _open(self) -> _Opened:
        if self._opened is None:
            self._opened = _open(self._connection)
        return self._opened

    @property
    def driver(self) -> neo4j.Driver:
        """The driver, opened (and checked) now if ``connect(lazy=True)`` left it closed."""
        return self._open().driver

    @property
    def database(self) -> str:
        """The name of the database the queries run in."""
        return self._open().database

    @property
    def uri(self) -> str:
        """The server's URI."""
        return self._open().uri

    def session(self, **config: Any) -> neo4j.Session:
        """Open a driver session on this database, causally chained to every other session
        this object opens (its bookmark manager); ``config`` adds session options."""
        return self.driver.session(
            database=self.database, bookmark_manager=self.bookmark_manager, **config
        )

    @classmethod
    def connect(
        cls, connection: config.Connection | str | None = None, *, lazy: bool = False
    ) -> Self:
        """Open the driver for ``connection`` (default: NEO4J_* or the local server) and check it.

        ``connection`` may be a URI (``"neo4j://host:7687"``): the user and password are then
        NEO4J_USER and NEO4J_PASSWORD, or the local server's for a URI on this machine
        (``kg.server.config.connection``). With ``lazy`` the connection is read and the driver
        opened on first use instead (the CLI's way: a command checks its arguments first).

        Raises ConnectionFailed when the server cannot be reached or refuses the credentials,
        ConfigError when there is no password to use (with ``lazy``: on first use), and
        ParameterError for a ``connection`` that is neither a Connection nor a URI.
        """
        if connection is not None and not isinstance(connection, str | config.Connection):
            raise ParameterError(
                f"connection is {connection!r}",
                "pass a URI such as 'neo4j://localhost:7687', a kg.server.config.Connection, "
                "or nothing for NEO4J_* or the local server",
            )
        graph = cls.__new__(cls)
        graph._opened = None
        graph._connection = connection
        graph.bookmark_manager = GraphDatabase.bookmark_manager()
        if not lazy:
            graph._open()
        return graph

    def close(self) -> None:
        """Close the driver and its connection pool (nothing, when it never opened)."""
        if self._opened is not None:
            self._opened.driver.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _managed(self, access: str, work: Callable[[ManagedTransaction], T]) -> T:
        with translated_errors(self.uri), self.session() as session:
            if access == neo4j.WRITE_ACCESS:
                done = session.execute_write(work)
                self._check_committed(session)
                return done
            return session.execute_read(work)

    def _check_committed(self, session: neo4j.Session) -> None:
        """Raise ConnectionFailed unless the session's last transaction was confirmed.

        Neo4j answers every commit, of an auto-commit query too, with a bookmark. A server
        that stops while a client idles in a transaction (suspended, or between statements)
        rolls it back and leaves a bare SUCCESS in the socket, which the driver takes for the
        COMMIT's answer: without a bookmark, nothing is confirmed
        (tests/integration/test_faults.py)."""
        if not session.last_bookmarks():
            raise ConnectionFailed(
                f"Neo4j at {self.uri} did not confirm a commit (its answer held no bookmark): "
                "the server stopped or the connection broke mid-write",
                "check that the server is running (`kg db status`), then try again",
            )

    def read_transaction(self, work: Callable[[ManagedTransaction], T]) -> T:
        """Run ``work(tx)`` in one managed read transaction, retried as a whole on transient
        errors, and return what it returns: for what a read needs beyond its rows."""
        return self._managed(neo4j.READ_ACCESS, work)

    def write_transaction(self, work: Callable[[ManagedTransaction], T]) -> T:
        """Run ``work(tx)`` in one managed write transaction, retried as a whole on transient
        errors, and return what it returns: for several statements that commit together."""
        return self._managed(neo4j.WRITE_ACCESS, work)

    def read(self, query: LiteralString, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Run ``query`` in a read transaction and return its rows as dicts."""
        values = dict(params or {})
        return self._managed(
            neo4j.READ_ACCESS, lambda tx: [record.data() for record in tx.run(query, values)]
        )

    def write(self, query: LiteralString, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Run ``query`` in a write transaction (retried on transient errors); return its rows."""
        values = dict(params or {})
        return self._managed(
            neo4j.WRITE_ACCESS, lambda tx: [record.data() for record in tx.run(query, values)]
        )

    def records(
        self, query: LiteralString, params: Mapping[str, Any] | None = None, *, write: bool = False
    ) -> list[neo4j.Record]:
        """Run ``query`` in a read (with ``write``, a write) transaction and return the
        driver's records as they come: for results of hundreds of thousands of values, which
        ``Record.data()`` would walk again in Python."""
        values = dict(params or {})
        access = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
        return self._managed(access, lambda tx: list(tx.run(query, values)))

    def write_counters(
        self, query: LiteralString, params: Mapping[str, Any] | None = None
    ) -> dict[str, int]:
        """Run ``query`` in a write transaction and return the server's update counters."""
        values = dict(params or {})

        def work(tx: ManagedTransaction) -> dict[str, int]:
            return update_counters(tx.run(query, values).consume())

        return self._managed(neo4j.WRITE_ACCESS, work)

    def run_autocommit(
        self,
        query: LiteralString,
        params: Mapping[str, Any] | None = None,
        *,
        retry: bool = False,
    ) -> list[Row]:
        """Run ``query`` as an auto-commit transaction, for schema commands and
        ``CALL { } IN TRANSACTIONS``, which cannot run inside a managed transaction.

        With ``retry`` a failure the driver calls retryable (a deadlock with a concurrent
        writer, a server that is briefly unavailable, a cluster member that is no longer the
        leader) runs the query again in a new session, whose routing finds the new leader, as
        ``execute_write`` would, for at most ``MAX_RETRY_SECONDS``: only for statements that
        are safe to repeat. Without it the statement runs once.
        """
        values = dict(params or {})
        deadline = time.monotonic() + MAX_RETRY_SECONDS
        delay = 0.2
        with translated_errors(self.uri):
            while True:
                try:
                    with self.session() as session:
                        rows = [record.data() for record in session.run(query, values)]
                        self._check_committed(session)
                        return rows
                except (Neo4jError, DriverError) as exc:
                    if not retry or not exc.is_retryable():
                        raise
                    if time.monotonic() + delay > deadline:
                        raise
                time.sleep(delay)
                delay = min(delay * 2, 3.0)
