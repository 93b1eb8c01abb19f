"""`kg similar`, `kg connect` and `kg recommend`: stored similarity and multi-seed questions."""

from __future__ import annotations

import click
from rich.text import Text

from kg.analytics import similarity
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
from kg.questions import seeds as seeds


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
    if not stored:
        click.echo("No similarity run is stored: kg cocited and kg coupled compute live.")
        click.echo("`kg similar --write` computes every paper's lists and stores them.")
        return
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
    )


def _note(text: str | None) -> None:
    if text:
        console().print(Text(clean(text), style="dim"))


_HOPS = {"cites": "→", "cited_by": "←"}


def _year(year: int | None) -> str | None:
    return None if year is None else str(year)


@main.command("connect")
@click.argument("refs", nargs=-1, required=True)
@click.option(
    "--max-hops",
    default=seeds.DEFAULT_CONNECT_HOPS,
    show_default=True,
    type=click.IntRange(2, seeds.MAX_CONNECT_HOPS),
    help="The longest path between two seeds to follow, either direction.",
)
@click.option(
    "--limit",
    default=20,
    show_default=True,
    type=click.IntRange(min=1),
    help="How many papers between the seeds to list.",
)
@click.option(
    "--paths",
    "paths_per_pair",
    default=seeds.DEFAULT_PATHS_PER_PAIR,
    show_default=True,
    type=click.IntRange(min=1),
    help="The most shortest paths to keep per pair of seeds.",
)
@json_option
@click.pass_context
def connect(
    ctx: click.Context,
    refs: tuple[str, ...],
    max_hops: int,
    limit: int,
    paths_per_pair: int,
    as_json: bool,
) -> None:
    """The literature connector: papers on the shortest citation paths between the seeds
    (REF A, REF B, ...), either direction, ranked by PageRank among the seeds and them.

    Example: kg connect hep-th/9711200 hep-th/0002230 --max-hops 3 --limit 10
    """
    result = seeds.connect(
        open_graph(ctx), list(refs), max_hops=max_hops, limit=limit, paths_per_pair=paths_per_pair
    )
    if as_json:
        emit_json(result.model_dump(mode="json"))
        return
    print_table(
        (
            Column("#", "right"),
            Column("ref"),
            Column("year", "right"),
            Column("title", flex=True),
            Column("pagerank", "right"),
            Column("paths", "right"),
        ),
        (
            [p.rank, p.handle, _year(p.year), p.title or "", p.pagerank, p.paths]
            for p in result.results
        ),
        title="Between " + ", ".join(seed.handle for seed in result.seeds),
        empty=result.note or "none",
    )
    handles = {seed.key: seed.handle for seed in result.seeds}
    shown = result.paths[:limit]
    for seed_path in shown:
        steps = [seed_path.path.papers[0].handle]
        for paper, hop in zip(seed_path.path.papers[1:], seed_path.path.directions, strict=True):
            steps.append(f"{_HOPS[hop]} {paper.handle}")
        _line(f"{handles[seed_path.source]} … {handles[seed_path.target]}: " + " ".join(steps))
    if len(result.paths) > len(shown):
        _note(f"showing {len(shown)} of {len(result.paths)} paths; --json lists them all")
    for a, b in result.unconnected:
        _note(f"no citation path within {result.max_hops} hops joins {handles[a]} and {handles[b]}")


def _line(text: str) -> None:
    console().print(Text(clean(text)))


@main.command("recommend")
@click.argument("refs", nargs=-1, required=True)
@click.option(
    "--limit",
    default=20,
    show_default=True,
    type=click.IntRange(min=1),
    help="How many papers to recommend.",
)
@click.option(
    "--max-degree",
    default=seeds.DEFAULT_MAX_DEGREE,
    show_default=True,
    type=click.IntRange(min=2),
    help="Leave out links through papers with more citations than this (hubs).",
)
@json_option
@click.pass_context
def recommend(
    ctx: click.Context, refs: tuple[str, ...], limit: int, max_degree: int, as_json: bool
) -> None:
    """Papers most related to the seeds (REF ...) by co-citation, coupling and direct
    citations together (Adamic-Adar over the seed set), each with its reasons.

    Example: kg recommend hep-th/9711200 hep-th/9802150 --limit 10
    """
    result = seeds.recommend(open_graph(ctx), list(refs), limit=limit, max_degree=max_degree)
    if as_json:
        emit_json(result.model_dump(mode="json"))
        return
    handles = {seed.key: seed.handle for seed in result.seeds}
    print_table(
        (
            Column("#", "right"),
            Column("ref"),
            Column("year", "right"),
            Column("title", flex=True),
            Column("score", "right"),
        ),
        ([r.rank, r.handle, _year(r.year), r.title or "", r.score] for r in result.results),
        title="Related to " + ", ".join(seed.handle for seed in result.seeds),
        empty=result.note or "none",
    )
    for r in result.results:
        why = " | ".join(reason.sentence(handles[reason.seed]) for reason in r.reasons)
        _line(f"{r.rank}. {r.handle}: {why}")
    if result.hubs_skipped:
        _note(
            f"{result.hubs_skipped:,} links through papers with more than "
            f"{result.max_degree:,} citations were left out (--max-degree)"
        )
