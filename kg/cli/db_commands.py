"""`kg db`, `kg init` and `kg stats`: the local server, the schema and the graph's size."""

from __future__ import annotations

import os

import click

from kg import queries
from kg.cli.app import KGGroup, emit_json, json_option, main, open_graph
from kg.cli.tables import render_mapping
from kg.knowledge_graph import KnowledgeGraph

# `kg db` manages the local server, which is not the graph: it is the one command group that
# imports the server's settings and tools rather than going through the KnowledgeGraph.
from kg.server import config
from kg.server.local import LocalServer


@main.group(cls=KGGroup)
def db() -> None:
    """Install, start, stop and inspect the local Neo4j 5.26 in $KG_HOME.

    Example: kg db install && kg db start && kg db status --json
    """


def _local() -> LocalServer:
    return LocalServer(config.local_settings())


def _step(line: str) -> None:
    """Print a stage of long work on stderr, so stdout stays the command's result."""
    click.echo(line, err=True)


@db.command("install")
def db_install() -> None:
    """Fetch Neo4j 5.26 community (and Browser, APOC core) from Maven Central into $KG_HOME.

    Running it again does nothing. Each stage is printed on stderr as it starts. Waits while
    another `kg db` command works on the same $KG_HOME. Example: kg db install
    """
    server = _local()
    if server.install(on_step=_step):
        click.echo(f"Installed Neo4j {server.installed_version()} in {server.home}")
    else:
        click.echo(f"Neo4j {server.installed_version()} is already installed in {server.home}")


@db.command("start")
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for Bolt.")
def db_start(timeout: float) -> None:
    """Start the local server in the background (installing it first if needed).

    It listens on 127.0.0.1 only, with authentication on; the generated password is kept in
    $KG_HOME/neo4j-password (mode 0600). Each stage is printed on stderr as it starts. Two
    starts at once on one $KG_HOME run one after the other: the second finds the first's
    server running. Example: KG_BOLT_PORT=7688 kg db start
    """
    server = _local()
    with server.lock(on_step=_step):
        server.install(on_step=_step)
        started, seconds = server.start(timeout=timeout, on_step=_step)
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
    """Stop the local server cleanly; kill it only after the timeout.

    Waits for a `kg db start` in progress on the same $KG_HOME, then stops that server.
    Example: kg db stop
    """
    if _local().stop(timeout=timeout, on_step=_step):
        click.echo("Neo4j stopped")
    else:
        click.echo("Neo4j was not running")


STATUS_NOT_RUNNING = 3


@db.command("status")
@json_option
@click.pass_context
def db_status(ctx: click.Context, as_json: bool) -> None:
    """Report whether the local server runs, its version, pid, Bolt URI, Browser URL, data dir.

    \b
    Exit codes, as `systemctl status` uses them:
      0  the local server is running
      3  it is not running (stopped, or not installed); the report is printed all the same
      1  the settings are wrong (e.g. KG_BOLT_PORT is not a port)

    Example: kg db status --json || kg db start
    """
    status = _local().status()
    if as_json:
        emit_json(status.as_dict())
    else:
        render_mapping(status.as_dict(), title="local Neo4j")
    if not status.running:
        ctx.exit(STATUS_NOT_RUNNING)


@db.command("reset")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def db_reset(ctx: click.Context, yes: bool) -> None:
    """Empty the graph's database; its schema stays.

    On the local server the database's store is dropped: the server stops, the database's
    files go, the server starts with an empty store, and the schema is applied again (the
    password and the settings stay). Through NEO4J_URI (a server, a cluster, Aura) every
    node and relationship is deleted in batches. Stages are printed on stderr; on the local
    server it holds the $KG_HOME lock, so a `kg db stop` waits for it to finish.

    Example: kg db reset --yes
    """
    if os.environ.get("NEO4J_URI"):
        graph = open_graph(ctx)
        if not yes:
            click.confirm(
                f"Delete everything in database {graph.database!r} at {graph.uri}?", abort=True
            )
        deleted = _reset(graph)
        click.echo(f"Deleted {_count(deleted, 'node')} from {graph.database!r}")
        return
    server = _local()
    database = config.connection().database
    if not yes:
        click.confirm(
            f"Delete everything in database {database!r} of the local server in "
            f"{server.settings.home}?",
            abort=True,
        )
    with server.lock(on_step=_step):
        running = server.drop_store(database, on_step=_step)
        if running:
            _step("applying the schema…")
            open_graph(ctx).apply_schema()
    after = "the schema applied again" if running else "kg init or the next load applies the schema"
    click.echo(f"Emptied {database!r} of the local server: its store was dropped, {after}")


def _reset(graph: KnowledgeGraph) -> int:
    _step(f"counting what {graph.database!r} at {graph.uri} holds…")
    nodes = graph.read("MATCH (n) RETURN count(n) AS n")[0]["n"]
    relationships = graph.read("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"]
    _step(f"deleting {_count(relationships, 'relationship')}, then {_count(nodes, 'node')}…")
    return graph.clear()


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


@main.command("init")
@json_option
@click.pass_context
def init(ctx: click.Context, as_json: bool) -> None:
    """Apply cypher/schema.cypher: constraints, indexes and the title full-text index.

    Idempotent; each statement is retried on a transient error or a cluster leader switch.
    A load applies the schema only when some of it is missing, so on a cluster or Aura run
    kg init once as a user allowed to create indexes and constraints, and load as any user
    allowed to write. Example: kg init
    """
    report = open_graph(ctx).apply_schema()
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
    """Count nodes per label and relationships per type, for every label and type in the
    database (the analytics' too, such as PageRankTop1 and CO_CITED). Example: kg stats --json"""
    row = queries.questions.graph_stats.run(open_graph(ctx))[0]
    result = {
        "nodes": {e["name"]: e["count"] for e in row["nodes"] if e["count"]},
        "relationships": {e["name"]: e["count"] for e in row["relationships"] if e["count"]},
    }
    if as_json:
        emit_json(result)
        return
    if not result["nodes"]:
        click.echo(
            "the graph is empty: `kg load PATH` loads a map (`make run` loads the default one)"
        )
        return
    render_mapping(result["nodes"], title="nodes")
    render_mapping(result["relationships"], title="relationships", empty="none")
