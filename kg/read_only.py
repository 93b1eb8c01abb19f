"""A user's own Cypher, run read-only (`kg cypher` without --write).

A READ transaction stops every write to the graph, but not a procedure that acts on the
server: ``dbms.killConnection`` drops another client's connection, ``apoc.log.stream`` reads
the server's logs, and a string of Cypher run by ``apoc.cypher.runFirstColumnSingle`` calls
what it likes. So a statement is first planned (``EXPLAIN``, which runs nothing) and its plan,
the server's own reading of it, decides: every procedure it calls must be one of
READ_PROCEDURES, no function may run Cypher from a string (RUNS_CYPHER), and no
``TERMINATE TRANSACTIONS`` may stop other sessions' work. Only then does the statement run,
in a READ transaction.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Final, LiteralString

from kg.database import Database, Row
from kg.errors import ParameterError, QueryFailed
from kg.queries import trusted

__all__ = ["READ_PROCEDURES", "RUNS_CYPHER", "check_plan", "plan", "run_read_only"]

READ_PROCEDURES: Final = frozenset(
    {
        # the schema and the tokens (cypher/questions/graph_stats.cypher calls two)
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.schema.visualization",
        "db.schema.nodeTypeProperties",
        "db.schema.relTypeProperties",
        # the full-text and vector indexes (cypher/questions/search_titles.cypher)
        "db.index.fulltext.queryNodes",
        "db.index.fulltext.queryRelationships",
        "db.index.fulltext.listAvailableAnalyzers",
        "db.index.vector.queryNodes",
        "db.index.vector.queryRelationships",
        # waiting for an index to come online (cypher/analytics/await_vector_index.cypher)
        "db.awaitIndex",
        "db.awaitIndexes",
        # the database and the server's version
        "db.info",
        "db.ping",
        "dbms.components",
        # APOC's path expanders (cypher/browser/neighbourhood_graph.cypher) and schema reads
        "apoc.path.expand",
        "apoc.path.expandConfig",
        "apoc.path.spanningTree",
        "apoc.path.subgraphAll",
        "apoc.path.subgraphNodes",
        "apoc.meta.data",
        "apoc.meta.schema",
        "apoc.meta.stats",
        "apoc.help",
    }
)
"""The procedures a read-only statement may call: each reads the graph, its schema or the
server's version, and nothing else. Any other (``dbms.*``, the rest of ``apoc.*``, ``gds.*``
and ``db.*``) needs --write."""

RUNS_CYPHER: Final = re.compile(r"\bapoc\s*\.\s*cypher\s*\.", re.IGNORECASE)
"""The functions that run Cypher given as a string (APOC's ``apoc.cypher.*``), whose
procedure calls no plan shows."""

# Every operator of a plan that calls a procedure is one of these (ProcedureCall, and the
# eager form some runtimes plan); its details start with the procedure's name.
_PROCEDURE_OPERATOR = re.compile(r"ProcedureCall", re.IGNORECASE)
_PROCEDURE_NAME = re.compile(r"\s*([\w.`]+)\s*\(")
_TERMINATE = re.compile(r"TerminateTransactions", re.IGNORECASE)
# Neo4j refuses EXPLAIN of a statement that says PROFILE itself ("conflicting values for
# execution mode"); the statement is planned again without its PROFILE.
_CONFLICTING_MODE = "execution mode"
_PROFILE = re.compile(r"\bPROFILE\b", re.IGNORECASE)
# Neo4j Community plans no administration command it does not offer (CREATE DATABASE,
# GRANT ROLE): such a command calls no procedure, and in a READ transaction the server
# refuses it as the write it is. Any other statement Neo4j cannot plan is refused with its
# words: one it cannot plan it cannot run either.
_ADMINISTRATION = frozenset(
    {
        "Neo.ClientError.Statement.UnsupportedAdministrationCommand",
        "Neo.ClientError.Statement.NotSystemDatabaseError",
    }
)
_SYSTEM = "system"
# On the system database a plan names a procedure call by the procedure (dbms.components),
# and an administration command by this.
_ADMINISTRATION_OPERATOR = "AdministrationCommand"
_PROFILE_TRIES = 5
_EXPLAIN: Final = "EXPLAIN "
_AS_WRITE = "run it as a write if you mean it (kg cypher --write, graph.write in Python)"
_HINT = f"{_AS_WRITE}; `kg cypher --help` lists the procedures a read may call"


def plan(graph: Database, statement: LiteralString, params: Mapping[str, Any]) -> dict[str, Any]:
    """Return the plan Neo4j makes for ``statement`` (EXPLAIN: nothing runs), as the driver
    gives it (``operatorType``, ``args``, ``children``).

    Raises QueryFailed when Neo4j cannot plan it (a syntax error, an unknown procedure).
    """

    def explain(text: LiteralString) -> dict[str, Any]:
        return graph.read_transaction(
            lambda tx: dict(tx.run(_EXPLAIN + text, dict(params)).consume().plan or {})
        )

    try:
        return explain(statement)
    except QueryFailed as exc:
        if getattr(exc.__cause__, "code", None) in _ADMINISTRATION:
            return {}  # calls no procedure; the READ transaction refuses it as a write
        if _CONFLICTING_MODE not in exc.message:
            raise _as_typed(exc) from exc.__cause__
        # Only the statement's own PROFILE keyword, taken out, ends the conflict: a PROFILE
        # taken out of a string or a name leaves it, and that plan fails as this one did.
        for found in list(_PROFILE.finditer(statement))[:_PROFILE_TRIES]:
            without = statement[: found.start()] + " " + statement[found.end() :]
            try:
                return explain(trusted(without))
            except QueryFailed as again:
                if _CONFLICTING_MODE not in again.message:
                    raise _as_typed(again) from again.__cause__
        raise


def _as_typed(error: QueryFailed) -> QueryFailed:
    """Return the error of planning a statement as said of the statement the user typed: the
    server quotes it, points at the fault with '^' and counts its column, all with EXPLAIN."""
    shift = len(_EXPLAIN)
    message = error.message.replace(f'"{_EXPLAIN}', '"', 1)
    if message != error.message:  # the first line, quoted: its caret moves left too
        message = re.sub(rf"\n {{{shift}}}(\s*\^)", r"\n\1", message)
    message = re.sub(
        r"\(line (\d+), column (\d+) \(offset: (\d+)\)\)",
        lambda m: (
            f"(line {m[1]}, column {int(m[2]) - (shift if m[1] == '1' else 0)} "
            f"(offset: {int(m[3]) - shift}))"
        ),
        message,
    )
    return QueryFailed(message, error.hint)


def _operators(node: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Yield (operator type, details) of every operator of a plan, children included."""
    args = node.get("args") or node.get("arguments") or {}
    yield str(node.get("operatorType", "")), str(args.get("Details", ""))
    for child in node.get("children") or ():
        yield from _operators(child)


def _procedure(kind: str, database: str, details: str) -> str | None:
    """Return the procedure a plan's operator calls ('' when its name cannot be read), or
    None when it calls none."""
    if _PROCEDURE_OPERATOR.search(kind):
        found = _PROCEDURE_NAME.match(details)
        return found.group(1).replace("`", "") if found else ""
    if database == _SYSTEM and kind != _ADMINISTRATION_OPERATOR:
        return kind
    return None


def check_plan(statement_plan: Mapping[str, Any]) -> None:
    """Raise ParameterError when a plan calls a procedure outside READ_PROCEDURES, a
    function that runs Cypher from a string, or TERMINATE TRANSACTIONS."""
    for operator, details in _operators(statement_plan):
        kind, _at, database = operator.partition("@")
        if _TERMINATE.search(kind):
            raise ParameterError(
                "TERMINATE TRANSACTIONS stops other sessions' work, which a READ transaction "
                "allows",
                _AS_WRITE,
            )
        procedure = _procedure(kind, database, details)
        if procedure is not None and procedure not in READ_PROCEDURES:
            raise ParameterError(
                f"a read-only statement calls only procedures that read, and "
                f"{procedure or 'the procedure of ' + repr(details)} is not one of them: a "
                "READ transaction stops writes to the graph, not what a procedure does to the "
                "server",
                _HINT,
            )
        if RUNS_CYPHER.search(details):
            raise ParameterError(_RUNS_CYPHER_MESSAGE, _HINT)


_RUNS_CYPHER_MESSAGE = (
    "a read-only statement runs no Cypher held in a string (apoc.cypher.*): a READ "
    "transaction would not check the procedures it calls"
)


def run_read_only(
    graph: Database, statement: LiteralString, params: Mapping[str, Any] | None = None
) -> list[Row]:
    """Run a user's ``statement`` in a READ transaction, once its plan shows it calls only
    READ_PROCEDURES (``check_plan``); return its rows as dicts.

    Raises ParameterError for a statement that calls another procedure, runs Cypher from a
    string or terminates transactions, and QueryFailed when Neo4j refuses it (any write).
    """
    values = dict(params or {})
    # The statement's own text too: apoc.cypher.* given in backticks or spread over lines
    # is still named so, and a plan may show an expression shortened.
    if RUNS_CYPHER.search(_without_quoting(statement)):
        raise ParameterError(_RUNS_CYPHER_MESSAGE, _HINT)
    check_plan(plan(graph, statement, values))
    return graph.read(statement, values)


def _without_quoting(statement: str) -> str:
    """The statement without backticks and comments, as names are spelled in it."""
    return re.sub(r"/\*.*?\*/|//[^\n]*|`", "", statement, flags=re.DOTALL)
