"""`kg embed`: the papers' text as vectors in Neo4j's vector index, for search by meaning."""

from __future__ import annotations

import click
from rich.progress import (
    BarColumn,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)

from kg.analytics.embed import DEFAULT_EMBED_BATCH
from kg.cli.app import emitted, json_command, number_option, open_graph
from kg.cli.tables import progress_bar, say


@json_command(
    "embed",
    number_option(
        "--batch-size", default=DEFAULT_EMBED_BATCH, help="Papers the model embeds at once."
    ),
)
def embed(ctx: click.Context, batch_size: int, as_json: bool) -> None:
    """Embed each titled paper's title and abstract with a local model (no download, CPU)
    and store the vectors in the vector index paper_embedding, for `kg search --semantic`,
    `kg search --hybrid` and `kg similar REF --by text`.

    Only papers whose text changed (or is new, or embedded by another model) are embedded
    again: a second run with nothing changed writes nothing.
    Example: kg embed
    """
    graph = open_graph(ctx)
    with progress_bar(
        TextColumn("embedding"),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[embedded]:,} embedded"),
        as_json=as_json,
    ) as progress:
        task = progress.add_task("embedding", total=None, embedded=0)

        def advance(checked: int, total: int, embedded: int) -> None:
            progress.update(task, completed=checked, total=total, embedded=embedded)

        report = graph.embed(batch_size=batch_size, on_progress=advance)
    if emitted(report.as_dict(), as_json):
        return
    rate = f" ({report.embedded / report.seconds:,.1f} a second)" if report.embedded else ""
    say(
        f"embedded {report.embedded:,} of {report.papers:,} titled papers in "
        f"{report.seconds:.1f}s{rate}; {report.unchanged:,} unchanged; model {report.model}, "
        f"{report.dimension} dimensions, vector index paper_embedding"
    )
