"""`kg query`, `kg queries` and `kg cypher`: the named query library and raw Cypher."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, LiteralString

import click
from neo4j.exceptions import Neo4jError

from kg import queries
from kg.cli.app import emit_json, json_option, main, open_graph
from kg.cli.tables import Column, print_table, render_rows
from kg.errors import ConnectionFailed, ParameterError, QueryFailed
from kg.knowledge_graph import KnowledgeGraph
from kg.read_only import READ_PROCEDURES

# Server commands that change what other sessions see although the server runs them in a
# READ transaction; `kg cypher` asks for --write before it sends one.
_SERVER_COMMANDS = re.compile(r"\bTERMINATE\s+TRANSACTIONS?\b", re.IGNORECASE)


_PARAM_HELP = (
    "A parameter: key=value passes the value as a string, key:=JSON as JSON "
    '(a number, true/false, null, a list or a map: -p n:=2, -p keys:=\'["a", "b"]\').'
)


def _parse_params(pairs: Iterable[str]) -> dict[str, Any]:
    """Return the --param pairs as a dict: ``key=value`` a string, ``key:=JSON`` the JSON
    value (HTTPie's spelling), so that a number is never guessed from a string such as the
    arXiv id 2110.03888."""
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        as_json = name.endswith(":")
        name = name.removesuffix(":").strip()
        if not sep or not name:
            raise click.BadParameter(
                f"{pair!r} is not key=value or key:=JSON", param_hint="--param"
            )
        if as_json:
            try:
                values[name] = json.loads(value)
            except ValueError as exc:
                raise click.BadParameter(
                    f"{pair!r}: {value!r} is not JSON (a string needs its quotes: "
                    f"{name}:='\"text\"', or write {name}=text)",
                    param_hint="--param",
                ) from exc
        else:
            values[name] = value
    return values


@main.command("query")
@click.argument("name")
@click.option("--param", "-p", "pairs", multiple=True, help=_PARAM_HELP)
@json_option
@click.pass_context
def query(ctx: click.Context, name: str, pairs: tuple[str, ...], as_json: bool) -> None:
    """Run a named query from cypher/ with parameters, as its file's mode says. NAME is the
    full name (questions.cocited) or a short one only one folder holds (cocited).

    Example: kg query paper_by_key --param key=hep-th/9711200
    """
    named = queries.get(name)
    params = _parse_params(pairs)
    named.bind(params)  # bad parameters fail before the connection opens
    rows = named.run(open_graph(ctx), **params)
    if as_json:
        emit_json({"results": rows})
    else:
        render_rows(rows, title=name)


@main.command("queries")
@click.option(
    "--all", "show_all", is_flag=True, help="Also list the loader's and analytics' own queries."
)
@json_option
def list_queries(show_all: bool, as_json: bool) -> None:
    """List the named questions with their parameters, by folder (--all: every query).

    Example: kg queries
    """
    rows = [
        {
            "name": q.full_name,
            "short_name": q.name,
            "folder": q.namespace,
            "mode": q.mode,
            "params": ", ".join(
                f"{p.name}: {p.type}" + (f" = {p.default!r}" if p.has_default else "")
                for p in q.params
            ),
            "doc": q.doc,
        }
        for q in sorted(queries.all_queries().values(), key=_listing_order)
        if show_all or queries.is_question(q)
    ]
    if as_json:
        emit_json({"results": rows})
        return
    folders = list(dict.fromkeys(r["folder"] for r in rows))
    for folder in folders:
        print_table(
            (
                Column("name"),
                Column("mode"),
                Column("params", flex=True, drop=1),
                Column("what it answers", flex=True),
            ),
            (
                [r["short_name"], r["mode"], r["params"], r["doc"].split(". ")[0]]
                for r in rows
                if r["folder"] == folder
            ),
            title=f"cypher/{folder}/" if folder else "cypher/",
            footer=None
            if folder != folders[-1]
            else "run one: kg query FOLDER.NAME --param key=value (NAME alone when no other "
            "folder has it); in Browser: :param key => 'value', then paste "
            "cypher/FOLDER/NAME.cypher" + ("" if show_all else "; --all lists every query"),
        )


def _listing_order(query: queries.Query) -> tuple[int, str]:
    """The questions' folders first, in QUESTION_NAMESPACES order, then the others by name."""
    folders = queries.QUESTION_NAMESPACES
    rank = folders.index(query.namespace) if query.namespace in folders else len(folders)
    return (rank, query.full_name)


def _write_once(
    graph: KnowledgeGraph, text: LiteralString, params: dict[str, Any]
) -> list[dict[str, Any]]:
    """Run the user's write statement once, in an auto-commit transaction, and say plainly
    when it failed in a way execute_write would have retried."""
    graph.driver  # noqa: B018 - connect first: a server out of reach never saw the statement
    try:
        return graph.run_autocommit(text, params)
    except QueryFailed as exc:
        cause = exc.__cause__
        if isinstance(cause, Neo4jError) and cause.is_retryable():
            raise QueryFailed(
                f"the statement failed with {cause.code} and was not run again "
                "(--write runs it once, in an auto-commit transaction)",
                "run it again if that is safe: its transaction was rolled back, but the "
                "batches of a CALL { } IN TRANSACTIONS committed before the error stay",
            ) from cause
        raise
    except ConnectionFailed as exc:
        raise ConnectionFailed(
            f"{exc.message}; the statement ran at most once and may or may not have committed",
            "check the graph for what it does before running it again",
        ) from exc


@main.command("cypher")
@click.argument("statement")
@click.option("--param", "-p", "pairs", multiple=True, help=_PARAM_HELP)
@click.option(
    "--write",
    is_flag=True,
    help="Allow writes: the statement runs once, as an auto-commit transaction (on a cluster, "
    "on the leader), and is never retried, so a CREATE cannot run twice and CALL { } IN "
    "TRANSACTIONS works (default: a READ transaction).",
)
@json_option
@click.pass_context
def cypher(
    ctx: click.Context, statement: str, pairs: tuple[str, ...], write: bool, as_json: bool
) -> None:
    """Run one Cypher statement. Read-only unless --write: it runs in a READ transaction.
    With --write it runs once, in an auto-commit transaction, and is not retried.

    Without --write a statement may call only the procedures that read: {procedures}.
    Any other procedure (dbms.*, the rest of apoc.*, gds.*), the apoc.cypher.* functions
    and TERMINATE TRANSACTIONS need --write.

    Values travel as parameters: -p key=value a string, -p key:=JSON a number, boolean,
    null, list or map.

    Example: kg cypher 'MATCH (p:Paper {year: $y}) RETURN count(p) AS n' -p y:=1998
    """
    if not write and _SERVER_COMMANDS.search(statement):
        raise ParameterError(
            "TERMINATE TRANSACTIONS stops other sessions' work, which a READ transaction allows",
            "add --write if you mean it",
        )
    graph = open_graph(ctx)
    # The statement is the user's own Cypher, typed by them on purpose; values still travel
    # as parameters, and without --write the server itself refuses any write.
    text = queries.trusted(statement)
    params = _parse_params(pairs)
    # A write is the user's own statement, which may not be safe to repeat (a CREATE), so it
    # runs once in an auto-commit transaction, never in the retried execute_write; that is
    # also the only kind of transaction CALL { } IN TRANSACTIONS can run in.
    try:
        rows = _write_once(graph, text, params) if write else graph.read_only(text, params)
    except QueryFailed as exc:
        if "Type mismatch" not in exc.message or not any(
            isinstance(v, str) for v in params.values()
        ):
            raise
        raise QueryFailed(
            exc.message,
            "-p key=value passes a string; pass a number, boolean, null or list as -p key:=JSON",
        ) from exc
    if as_json:
        emit_json({"results": rows})
    else:
        render_rows(rows)


# The help names the procedures a read may call from the list the guard itself checks.
cypher.help = (cypher.help or "").replace("{procedures}", ", ".join(sorted(READ_PROCEDURES)))
