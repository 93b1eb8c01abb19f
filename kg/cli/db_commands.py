"""`kg db`, `kg init` and `kg stats`: the local server, the schema and the graph's size."""

from __future__ import annotations

import click

from kg import config, queries
from kg.cli.app import KGGroup, emit_json, json_option, main, open_graph, render_mapping
from kg.local_server import LocalServer
from kg.schema import apply_schema, clear_database


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
