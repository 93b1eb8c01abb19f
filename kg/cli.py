"""The `kg` command line: each command parses its arguments, calls the library, renders.

Only this module imports click. Library errors (KGError) become `Error: <what>. <what to do>`
with exit code 1, never a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import (
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from kg import config, queries
from kg.errors import KGError
from kg.graph import Graph
from kg.ingest import DEFAULT_BATCH_SIZE, FormatChoice, IdScheme, LoadSummary, load_paths
from kg.local_server import LocalServer
from kg.schema import apply_schema, clear_database

F = TypeVar("F", bound=Callable[..., Any])
console = Console()


class KGGroup(click.Group):
    """A click group that turns every KGError into a one-line `Error:` and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KGError as exc:
            raise click.ClickException(str(exc)) from exc


def _json_default(value: object) -> object:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return str(value)


def emit_json(payload: object) -> None:
    """Print ``payload`` as indented JSON on stdout."""
    click.echo(json.dumps(payload, indent=2, default=_json_default, ensure_ascii=False))


def render_rows(rows: list[dict[str, Any]], title: str | None = None) -> None:
    """Print rows as a rich table (columns from the first row)."""
    if not rows:
        console.print("[dim]no rows[/dim]")
        return
    table = Table(title=title)
    for column in rows[0]:
        table.add_column(str(column))
    for row in rows:
        table.add_row(*(_cell(row.get(column)) for column in rows[0]))
    console.print(table)


def render_mapping(values: Mapping[str, Any], title: str | None = None) -> None:
    """Print a mapping as a two-column rich table."""
    table = Table(title=title, show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in values.items():
        table.add_row(str(key), _cell(value))
    console.print(table)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list | dict):
        return json.dumps(value, default=_json_default, ensure_ascii=False)
    return str(value)


class RateColumn(ProgressColumn):
    """Records per second, once there is a rate to show."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f}/s" if speed else "", style="progress.data.speed")


def json_option(func: F) -> F:
    """Add the `--json` flag every command has."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(
        func
    )


def open_graph(ctx: click.Context) -> Graph:
    """Return the process's one Graph, opened on first use and closed when the command exits."""
    root = ctx.find_root()
    graph: Graph | None = root.meta.get("kg.graph")
    if graph is None:
        graph = root.with_resource(Graph.connect())
        root.meta["kg.graph"] = graph
    return graph


@click.group(cls=KGGroup)
@click.version_option(package_name="kg-map")
def main() -> None:
    """The map of machine-learning papers as a Neo4j knowledge graph.

    Connects to the local server that `kg db` manages, or to NEO4J_URI (a server, a cluster
    with neo4j://, or Aura) when that is set.

    Example: kg db start && kg init && kg stats
    """


@main.group(cls=KGGroup)
def db() -> None:
    """Install, start, stop and inspect the local Neo4j 5.26 in $KG_HOME.

    Example: kg db install && kg db start && kg db status --json
    """


def _local() -> LocalServer:
    return LocalServer(config.local_settings())


@db.command("install")
def db_install() -> None:
    """Fetch Neo4j 5.26 community (and Browser, APOC core) from Maven Central into $KG_HOME.

    Running it again does nothing. Example: kg db install
    """
    server = _local()
    if server.install():
        click.echo(f"Installed Neo4j {server.installed_version()} in {server.home}")
    else:
        click.echo(f"Neo4j {server.installed_version()} is already installed in {server.home}")


@db.command("start")
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for Bolt.")
def db_start(timeout: float) -> None:
    """Start the local server in the background (installing it first if needed).

    It listens on 127.0.0.1 only, with authentication on; the generated password is kept in
    $KG_HOME/neo4j-password (mode 0600). Example: KG_BOLT_PORT=7688 kg db start
    """
    server = _local()
    server.install()
    started, seconds = server.start(timeout=timeout)
    status = server.status()
    if started:
        click.echo(f"Neo4j {status.version} started in {seconds:.1f}s (pid {status.pid})")
    else:
        click.echo(f"Neo4j is already running (pid {status.pid})")
    click.echo(f"Bolt:    {status.bolt_uri}")
    click.echo(f"Browser: {status.browser_url}")
    click.echo(f"Login:   user neo4j, password in {server.settings.password_file}")


@db.command("stop")
@click.option("--timeout", default=60.0, show_default=True, help="Seconds before a kill.")
def db_stop(timeout: float) -> None:
    """Stop the local server cleanly; kill it only after the timeout. Example: kg db stop"""
    if _local().stop(timeout=timeout):
        click.echo("Neo4j stopped")
    else:
        click.echo("Neo4j was not running")


@db.command("status")
@json_option
def db_status(as_json: bool) -> None:
    """Report whether the local server runs, its version, pid, Bolt URI, Browser URL, data dir.

    Example: kg db status --json
    """
    status = _local().status()
    if as_json:
        emit_json(status.as_dict())
    else:
        render_mapping(status.as_dict(), title="local Neo4j")


@db.command("reset")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def db_reset(ctx: click.Context, yes: bool) -> None:
    """Delete every node and relationship of the configured database (the schema stays).

    Example: kg db reset --yes
    """
    graph = open_graph(ctx)
    if not yes:
        click.confirm(
            f"Delete everything in database {graph.database!r} at {graph.uri}?", abort=True
        )
    deleted = clear_database(graph)
    click.echo(f"Deleted {deleted} nodes from {graph.database!r}")


@main.command("init")
@json_option
@click.pass_context
def init(ctx: click.Context, as_json: bool) -> None:
    """Apply cypher/schema.cypher: constraints, indexes and the title full-text index.

    Idempotent. Example: kg init
    """
    report = apply_schema(open_graph(ctx))
    if as_json:
        emit_json({"created": list(report.created), "existing": list(report.existing)})
        return
    for name in report.created:
        click.echo(f"created  {name}")
    click.echo(f"{len(report.created)} created, {len(report.existing)} already present")


@main.command("stats")
@json_option
@click.pass_context
def stats(ctx: click.Context, as_json: bool) -> None:
    """Count nodes per label and relationships per type. Example: kg stats --json"""
    row = open_graph(ctx).read(queries.get("graph_stats").cypher)[0]
    result = {
        "nodes": {k: v for k, v in row["nodes"].items() if v},
        "relationships": {k: v for k, v in row["relationships"].items() if v},
    }
    if as_json:
        emit_json(result)
        return
    render_mapping(result["nodes"], title="nodes")
    render_mapping(result["relationships"], title="relationships")


@main.command("load")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["auto", "page", "pith", "arxiv", "edges", "abs"]),
    default="auto",
    show_default=True,
    help="Input format; auto looks at the content, not the name.",
)
@click.option(
    "--batch-size", default=DEFAULT_BATCH_SIZE, show_default=True, help="Rows per transaction."
)
@click.option("--strict", is_flag=True, help="Stop at the first bad record.")
@click.option(
    "--id-scheme",
    type=click.Choice(["arxiv", "snap-hepth"]),
    default="arxiv",
    show_default=True,
    help="How edge-list ids read: arXiv ids, or SNAP hep-th integers (1001 -> hep-th/0001001).",
)
@click.option(
    "--rejects",
    type=click.Path(path_type=Path),
    default=Path("kg-load.rejects.jsonl"),
    show_default=True,
    help="Where bad records go, one JSON line each (only written when there are some).",
)
@json_option
@click.pass_context
def load(
    ctx: click.Context,
    paths: tuple[Path, ...],
    fmt: FormatChoice,
    batch_size: int,
    strict: bool,
    id_scheme: IdScheme,
    rejects: Path,
    as_json: bool,
) -> None:
    """Load map pages, paper JSON records, arXiv snapshots, edge lists or .abs files.

    Streams each file, validates every record, and upserts in batches: loading the same
    files again, or in another order, gives the same graph. Bad records are reported as
    file:line: reason and go to the rejects file; the exit code is 1 if any were rejected.

    Example: kg load examples/map ../shared/seeds/*.txt
    """
    graph = open_graph(ctx)
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("{task.completed:,} records"),
        RateColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=as_json or not sys.stderr.isatty(),
        transient=True,
    ) as progress:
        task = progress.add_task("loading", total=None)
        summary = load_paths(
            graph,
            list(paths),
            fmt=fmt,
            batch_size=batch_size,
            strict=strict,
            id_scheme=id_scheme,
            rejects_path=rejects,
            on_progress=lambda n: progress.advance(task, n),
        )
    if as_json:
        emit_json(summary.as_dict())
    else:
        _render_load(summary)
    if summary.rejected:
        ctx.exit(1)


def _render_load(summary: LoadSummary) -> None:
    for message in summary.reject_messages:
        click.echo(message, err=True)
    if summary.rejected > len(summary.reject_messages):
        click.echo(f"... and {summary.rejected - len(summary.reject_messages)} more", err=True)
    table = Table(title=f"loaded in {summary.seconds:.1f}s")
    for column in ("file", "format", "read", "papers", "citations", "rejected"):
        table.add_column(column)
    for f in summary.files:
        table.add_row(
            f.path, f.format, str(f.read), str(f.papers), str(f.citations), str(f.rejected)
        )
    console.print(table)
    counts = summary.counts
    click.echo(
        f"created {counts.nodes_created} nodes and {counts.relationships_created} relationships, "
        f"set {counts.properties_set} properties, merged {counts.merged} duplicate papers"
    )
    if summary.rejects_file:
        click.echo(
            f"{summary.rejected} records rejected; see {summary.rejects_file}. "
            "Fix them and load the file again: what loaded stays as it is."
        )


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
