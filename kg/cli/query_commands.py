"""`kg query`, `kg queries` and `kg cypher`: the named query library and raw Cypher."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from kg import queries
from kg.cli.app import emit_json, json_option, main, open_graph, render_rows


def _parse_params(pairs: Iterable[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint="--param")
        values[name.strip()] = value
    return values


@main.command("query")
@click.argument("name")
@click.option("--param", "-p", "pairs", multiple=True, help="A parameter as key=value.")
@json_option
@click.pass_context
def query(ctx: click.Context, name: str, pairs: tuple[str, ...], as_json: bool) -> None:
    """Run a named query from cypher/ with parameters.

    Example: kg query paper_by_key --param key=2110.03888
    """
    named = queries.get(name)
    params = named.bind(_parse_params(pairs))
    graph = open_graph(ctx)
    if named.mode == "script":
        rows: list[dict[str, Any]] = []
        for statement in named.script:
            rows = graph.run_autocommit(statement)
    elif named.mode == "auto":
        rows = graph.run_autocommit(named.cypher, params)
    elif named.mode == "write":
        rows = graph.write(named.cypher, params)
    else:
        rows = graph.read(named.cypher, params)
    if as_json:
        emit_json({"results": rows})
    else:
        render_rows(rows, title=name)


@main.command("queries")
@json_option
def list_queries(as_json: bool) -> None:
    """List the named queries with their parameters. Example: kg queries"""
    rows = [
        {
            "name": q.name,
            "mode": q.mode,
            "params": ", ".join(
                f"{p.name}: {p.type}" + (f" = {p.default!r}" if p.has_default else "")
                for p in q.params
            ),
            "doc": q.doc,
        }
        for q in queries.all_queries().values()
    ]
    if as_json:
        emit_json({"results": rows})
    else:
        render_rows(rows, title="queries")


@main.command("cypher")
@click.argument("statement")
@click.option("--param", "-p", "pairs", multiple=True, help="A string parameter as key=value.")
@click.option("--write", is_flag=True, help="Allow writes (default: a READ transaction).")
@json_option
@click.pass_context
def cypher(
    ctx: click.Context, statement: str, pairs: tuple[str, ...], write: bool, as_json: bool
) -> None:
    """Run one Cypher statement. Read-only unless --write: it runs in a READ transaction.

    Example: kg cypher "MATCH (p:Paper) RETURN count(p) AS papers"
    """
    graph = open_graph(ctx)
    # The statement is the user's own Cypher, typed by them on purpose; values still travel
    # as parameters, and without --write the server itself refuses any write.
    text = queries.trusted(statement)
    params = _parse_params(pairs)
    rows = graph.write(text, params) if write else graph.read(text, params)
    if as_json:
        emit_json({"results": rows})
    else:
        render_rows(rows)
