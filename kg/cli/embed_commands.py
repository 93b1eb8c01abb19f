"""`kg embed`: the papers' text as vectors in Neo4j's vector index, for search by meaning."""

from __future__ import annotations

from pathlib import Path

import click
from rich.progress import (
    BarColumn,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)

from kg.answers import VectorFileReport
from kg.cli.app import count, emitted, face_option, json_command, open_graph
from kg.cli.tables import clean, progress_bar, say
from kg.knowledge_graph import KnowledgeGraph


@json_command(
    "embed",
    face_option(
        KnowledgeGraph.embed, "batch_size", "Papers the model embeds at once.", type=count()
    ),
    click.option(
        "--from",
        "from_file",
        type=click.Path(path_type=Path, dir_okay=False),
        help="Store the vectors of this file instead (JSON lines or Parquet of id and vector: "
        "an embedding dump), on the papers of the map they name.",
    ),
    click.option("--model", help="With --from: the model the file's vectors are from."),
    click.option(
        "--replace",
        is_flag=True,
        help="With --from: first remove the map's vectors of another model or dimension.",
    ),
)
def embed(
    ctx: click.Context,
    batch_size: int,
    from_file: Path | None,
    model: str | None,
    replace: bool,
    as_json: bool,
) -> None:
    """Embed each titled paper's title and abstract with a local model (no download, CPU)
    and store the vectors in the vector index paper_embedding, for `kg search --semantic`,
    `kg search --hybrid` and `kg similar REF --by text`.

    Only papers whose text changed (or is new, or embedded by another model) are embedded
    again: a second run with nothing changed writes nothing.

    With --from FILE, the vectors come from a file instead (one paper a row, named by its
    arXiv id, DOI, OpenAlex or Semantic Scholar id or corpus id): they serve `kg similar
    REF --by text` and the recommendations; a search by meaning needs the local model's.
    Examples: kg embed; kg embed --from specter.jsonl --model specter_v2 --replace
    """
    if from_file is not None:
        _embed_from(ctx, from_file, model, replace, as_json)
        return
    if model is not None or replace:
        raise click.UsageError("--model and --replace go with --from FILE")
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


def _embed_from(
    ctx: click.Context, path: Path, model: str | None, replace: bool, as_json: bool
) -> None:
    """`kg embed --from FILE`: store the file's vectors and say what was done."""
    report = open_graph(ctx).load_vectors(path, model=model, replace=replace)
    if not emitted(report.as_dict(), as_json):
        _say_vectors(report)
    if report.rejected:
        ctx.exit(1)


def _say_vectors(report: VectorFileReport) -> None:
    for line in report.rejects:
        click.echo(clean(line), err=True)
    more = report.rejected - len(report.rejects)
    if more:
        click.echo(f"... and {more:,} more", err=True)
    removed = (
        f"; removed {report.replaced:,} vectors of another model first" if report.replaced else ""
    )
    say(
        f"stored {report.written:,} vectors of {report.rows:,} rows from {report.path} "
        f"({report.model}, {report.dimension} dimensions); {report.not_in_map:,} name no "
        f"paper of the map, {report.rejected:,} rejected{removed}"
    )
