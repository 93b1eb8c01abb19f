"""`kg query`, `kg queries` and `kg cypher`: the named query library and raw Cypher."""

from __future__ import annotations

import re
from collections.abc import Iterable

import click

from kg import queries
from kg.cli.app import Column, emit_json, json_option, main, open_graph, print_table, render_rows
from kg.errors import ParameterError

# Server commands that change what other sessions see although the server runs them in a
# READ transaction; `kg cypher` asks for --write before it sends one.
_SERVER_COMMANDS = re.compile(r"\bTERMINATE\s+TRANSACTIONS?\b", re.IGNORECASE)


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
                Column("params", flex=True),
                Column("what it answers", flex=True),
            ),
            (
                [r["name"], r["mode"], r["params"], r["doc"].split(". ")[0]]
                for r in rows
                if r["folder"] == folder
            ),
            title=f"cypher/{folder}/" if folder else "cypher/",
            footer=None
            if folder != folders[-1]
            else "run one: kg query NAME --param key=value (NAME without its folder when no "
            "other folder has it); in Browser: :param key => 'value', then paste "
            "cypher/FOLDER/NAME.cypher" + ("" if show_all else "; --all lists every query"),
        )


def _listing_order(query: queries.Query) -> tuple[int, str]:
    """The questions' folders first, in QUESTION_NAMESPACES order, then the others by name."""
    folders = queries.QUESTION_NAMESPACES
    rank = folders.index(query.namespace) if query.namespace in folders else len(folders)
    return (rank, query.full_name)


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
    rows = graph.write(text, params) if write else graph.read(text, params)
    if as_json:
        emit_json({"results": rows})
    else:
        render_rows(rows)
