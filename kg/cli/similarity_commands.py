"""`kg similar`, `kg connect` and `kg recommend`: stored similarity and multi-seed questions."""

from __future__ import annotations

import click
from rich.text import Text

from kg import similarity
from kg.cli.app import (
    Column,
    clean,
    console,
    emit_json,
    json_option,
    main,
    open_graph,
    print_table,
)


def _stored_json(runs: list[similarity.StoredRun]) -> list[dict[str, object]]:
    return [
        {
            "key": stored.run.key,
            "measure": stored.measure,
            "k": stored.k,
            "relationships": stored.relationships,
            "computed_at": stored.run.computed_at,
            "seconds": stored.run.seconds,
            "nodes": stored.run.nodes,
            "edges": stored.run.edges,
        }
        for stored in runs
    ]


@main.command("similar")
@click.option(
    "--write",
    is_flag=True,
    help="Compute every paper's top-k co-cited and coupled papers and store them as "
    "CO_CITED and COUPLED relationships (replacing the old ones), with a run record.",
)
@click.option(
    "--k",
    "k",
    default=similarity.DEFAULT_K,
    show_default=True,
    type=click.IntRange(min=1),
    help="How many similar papers each paper keeps; questions asking for more run live.",
)
@click.option(
    "--batch-size",
    default=similarity.DEFAULT_BATCH_SIZE,
    show_default=True,
    type=click.IntRange(min=1),
    help="Papers per write transaction.",
)
@json_option
@click.pass_context
def similar(ctx: click.Context, write: bool, k: int, batch_size: int, as_json: bool) -> None:
    """The stored co-citation and coupling lists; with --write, compute and store them.

    `kg cocited` and `kg coupled` read the stored lists for a paper when no load has touched
    it or its neighbours since the run, and compute live otherwise.
    Example: kg similar --write --k 20
    """
    graph = open_graph(ctx)
    run = (
        similarity.run_similarity(graph, k=k, write=True, batch_size=batch_size) if write else None
    )
    stored = similarity.stored_runs(graph)
    if as_json:
        emit_json({"run": run.as_dict() if run else None, "stored": _stored_json(stored)})
        return
    if run is not None:
        t = run.timings
        click.echo(
            f"wrote {run.pairs.get('co-citation', 0):,} CO_CITED and "
            f"{run.pairs.get('coupling', 0):,} COUPLED relationships (top {run.k}) over "
            f"{run.nodes:,} papers and {run.edges:,} citations in {t['total']:.1f}s "
            f"(read {t['read']:.1f}s, compute {t['compute']:.1f}s, write {t['write']:.1f}s)"
        )
    print_table(
        (
            Column("relationship"),
            Column("k", "right"),
            Column("stored", "right"),
            Column("read the graph at"),
            Column("seconds", "right"),
        ),
        (
            [s.run.key.upper(), s.k, s.relationships, s.run.computed_at, s.run.seconds]
            for s in stored
        ),
        title="Stored similarity runs",
        empty="No similarity run is stored: `kg similar --write` computes and stores one.",
    )


def _note(text: str) -> None:
    console().print(Text(clean(text), style="dim"))
