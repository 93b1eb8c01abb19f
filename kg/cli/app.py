"""The root `kg` group and what every command shares: errors, --json, rendering, the driver."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import date, datetime
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import ProgressColumn, Task
from rich.table import Table
from rich.text import Text

from kg.errors import KGError
from kg.graph import Graph

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
        table.add_row(escape(str(key)), _cell(value))
    console.print(table)


def _cell(value: object) -> str:
    # Titles such as "[Re] ..." must print as text, not as rich markup.
    if value is None:
        return ""
    if isinstance(value, list | dict):
        return escape(json.dumps(value, default=_json_default, ensure_ascii=False))
    return escape(str(value))


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
