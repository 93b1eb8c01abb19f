"""`kg load`: stream files into the graph."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from kg.bulk import BulkSummary, bulk_load
from kg.cli.app import RateColumn, console, emit_json, json_option, main, open_graph
from kg.ingest import DEFAULT_BATCH_SIZE, FormatChoice, IdScheme, LoadSummary, load_paths


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
@click.option(
    "--bulk",
    is_flag=True,
    help="Empty local database only: build it with neo4j-admin import (stops and restarts "
    "the local server). Same graph, much faster.",
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
    bulk: bool,
    as_json: bool,
) -> None:
    """Load map pages, paper JSON records, arXiv snapshots, edge lists or .abs files.

    Streams each file, validates every record, and upserts in batches: loading the same
    files again, or in another order, gives the same graph. Bad records are reported as
    file:line: reason and go to the rejects file; the exit code is 1 if any were rejected.

    With --bulk the files go through the same parsing and merging into neo4j-admin import
    CSVs, and the import tool builds the store: for a first load of a large set.

    Example: kg load examples/map ../shared/seeds/*.txt
    """
    bulk_summary: BulkSummary | None = None
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
        if bulk:
            bulk_summary = bulk_load(
                list(paths),
                fmt=fmt,
                batch_size=batch_size,
                strict=strict,
                id_scheme=id_scheme,
                rejects_path=rejects,
                on_progress=lambda n: progress.advance(task, n),
            )
            summary = bulk_summary.load
        else:
            summary = load_paths(
                open_graph(ctx),
                list(paths),
                fmt=fmt,
                batch_size=batch_size,
                strict=strict,
                id_scheme=id_scheme,
                rejects_path=rejects,
                on_progress=lambda n: progress.advance(task, n),
            )
    if as_json:
        emit_json(bulk_summary.as_dict() if bulk_summary else summary.as_dict())
    else:
        _render_load(summary)
        if bulk_summary:
            stages = ", ".join(f"{k} {v:.1f}s" for k, v in bulk_summary.stages.items())
            click.echo(f"bulk import: {stages}")
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
