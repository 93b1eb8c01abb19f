"""`kg rank` and `kg communities`: graph analytics over the CITES graph."""

from __future__ import annotations

import click

from kg import analytics
from kg.analytics import Algorithm, CommunityMethod, Engine, RankOptions, Scope
from kg.answers import short_handle
from kg.cli.app import Column, emit_json, json_option, main, open_graph, print_table

_ENGINE_HELP = (
    "igraph reads the graph out of Neo4j and computes in igraph; gds runs in the server's "
    "Graph Data Science plugin (needs `pip install graphdatascience`); auto uses GDS when "
    "both are there."
)

_NO_PAPERS = (
    "No papers in scope: nothing to compute. Check --category and --years, or drop "
    "--no-stubs (papers loaded only from edge lists are stubs)."
)


def _scope(no_stubs: bool, category: str | None, years: str | None) -> Scope:
    first, last = analytics.parse_years(years) if years else (None, None)
    return Scope(include_stubs=not no_stubs, category=category, year_from=first, year_to=last)


def _scope_options(func: click.decorators.FC) -> click.decorators.FC:
    for option in reversed(
        [
            click.option(
                "--engine",
                type=click.Choice(analytics.ENGINES),
                default="auto",
                show_default=True,
                help=_ENGINE_HELP,
            ),
            click.option(
                "--no-stubs", is_flag=True, help="Leave out stubs (papers known only as citations)."
            ),
            click.option(
                "--category", metavar="CODE", help="Only papers of this primary category."
            ),
            click.option(
                "--years",
                metavar="FROM-TO",
                help="Only papers of these years, e.g. 2019-2023, 2019- or -2023.",
            ),
            click.option(
                "--write",
                is_flag=True,
                help="Store the values on the Paper nodes (replacing any from an earlier run) "
                "and record the run as an AnalyticsRun node.",
            ),
            click.option(
                "--batch-size",
                default=analytics.DEFAULT_BATCH_SIZE,
                show_default=True,
                help="Papers per write transaction.",
            ),
        ]
    ):
        func = option(func)
    return func


def _footer(
    what: str, nodes: int, edges: int, engine: str, timings: analytics.Timings, left_out: int
) -> str:
    t = timings
    late = (
        f"; {left_out:,} citations of papers added while it read were left out" if left_out else ""
    )
    return (
        f"{what} over {nodes:,} papers and {edges:,} citations with {engine} in {t.total:.2f}s "
        f"(read {t.projection:.2f}s, build {t.build:.2f}s, compute {t.compute:.2f}s, "
        f"write {t.write:.2f}s){late}"
    )


def _value(value: float) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


@main.command("rank")
@click.argument("algorithm", type=click.Choice(analytics.ALGORITHMS))
@click.option("--top", default=10, show_default=True, help="How many papers to list.")
@_scope_options
@click.option(
    "--damping", default=0.85, show_default=True, help="PageRank: probability of following a link."
)
@click.option(
    "--tolerance",
    default=1e-7,
    show_default=True,
    help="PageRank with GDS: stop when scores change less. igraph always solves to 1e-10.",
)
@click.option(
    "--max-iterations",
    default=100,
    show_default=True,
    help="PageRank and HITS with GDS: iteration limit.",
)
@click.option(
    "--samples",
    type=int,
    default=None,
    help="Betweenness: estimate from this many random source papers instead of all.",
)
@click.option("--seed", default=42, show_default=True, help="Betweenness: seed of the sample.")
@json_option
@click.pass_context
def rank(
    ctx: click.Context,
    algorithm: Algorithm,
    top: int,
    engine: Engine,
    no_stubs: bool,
    category: str | None,
    years: str | None,
    write: bool,
    batch_size: int,
    damping: float,
    tolerance: float,
    max_iterations: int,
    samples: int | None,
    seed: int,
    as_json: bool,
) -> None:
    """Rank papers by pagerank, betweenness, indegree, outdegree, hits or kcore.

    Computes over the citations among the papers in scope and lists the top papers; with
    --write the values are stored on the papers (hits writes hits_authority and hits_hub).
    Sampled betweenness (--samples) sums over that many random source papers and scales
    the sums up to all papers: an unbiased estimate.

    Example: kg rank pagerank --top 20 --no-stubs --years 2019-2023 --write
    """
    scope = _scope(no_stubs, category, years)
    result = analytics.rank(
        open_graph(ctx),
        algorithm,
        scope=scope,
        engine=engine,
        options=RankOptions(
            damping=damping,
            tolerance=tolerance,
            max_iterations=max_iterations,
            samples=samples,
            seed=seed,
        ),
        top=top,
        write=write,
        batch_size=batch_size,
    )
    if as_json:
        emit_json(result.as_dict())
        return
    if not result.nodes:
        click.echo(_NO_PAPERS)
        return
    print_table(
        (
            Column("#", "right"),
            Column("ref"),
            Column("year", "right"),
            Column("title", flex=True),
            *(Column(p, "right") for p in result.properties),
        ),
        (
            [
                paper.rank,
                short_handle(paper.key),
                None if paper.year is None else str(paper.year),
                paper.title or ("stub" if paper.stub else ""),
                *(_value(paper.values[p]) for p in result.properties),
            ]
            for paper in result.top
        ),
        title=f"{algorithm}: top {len(result.top)}",
    )
    click.echo(
        _footer(
            algorithm,
            result.nodes,
            result.edges,
            result.engine,
            result.timings,
            result.left_out,
        )
    )
    if write:
        click.echo(
            f"wrote {', '.join(result.properties)} on {result.written:,} papers; "
            f"recorded as AnalyticsRun {', '.join(r.key for r in result.runs)}"
        )


@main.command("communities")
@click.option("--top", default=10, show_default=True, help="How many of the largest to list.")
@click.option("--papers", default=3, show_default=True, help="Most cited papers shown for each.")
@_scope_options
@click.option(
    "--method",
    type=click.Choice(analytics.COMMUNITY_METHODS),
    default="leiden",
    show_default=True,
    help="Leiden (modularity) or Louvain.",
)
@click.option("--seed", default=42, show_default=True, help="The same seed gives the same split.")
@click.option(
    "--resolution", default=1.0, show_default=True, help="Higher gives smaller communities."
)
@json_option
@click.pass_context
def communities(
    ctx: click.Context,
    top: int,
    papers: int,
    engine: Engine,
    no_stubs: bool,
    category: str | None,
    years: str | None,
    write: bool,
    batch_size: int,
    method: CommunityMethod,
    seed: int,
    resolution: float,
    as_json: bool,
) -> None:
    """Find communities of papers on the undirected citation graph.

    Lists the largest communities with their most cited papers (in-degree in scope); with
    --write each paper's community number (0 is the largest) is stored as `community`.

    Example: kg communities --top 5 --papers 3 --seed 7 --write
    """
    scope = _scope(no_stubs, category, years)
    result = analytics.communities(
        open_graph(ctx),
        scope=scope,
        engine=engine,
        method=method,
        seed=seed,
        resolution=resolution,
        top=top,
        papers=papers,
        write=write,
        batch_size=batch_size,
    )
    if as_json:
        emit_json(result.as_dict())
        return
    if not result.nodes:
        click.echo(_NO_PAPERS)
        return
    rows = []
    for community in result.communities:
        for index, member in enumerate(community.top):
            rows.append(
                [
                    community.id if index == 0 else None,
                    community.size if index == 0 else None,
                    short_handle(member.key),
                    int(member.values["indegree"]),
                    member.title or "",
                ]
            )
    print_table(
        (
            Column("community", "right"),
            Column("size", "right"),
            Column("ref"),
            Column("in-degree", "right"),
            Column("most cited papers", flex=True),
        ),
        rows,
        title=f"{method}: {result.count:,} communities, top {len(result.communities)}",
    )
    quality = "" if result.modularity is None else f", modularity {result.modularity:.4f}"
    footer = _footer(
        method, result.nodes, result.edges, result.engine, result.timings, result.left_out
    )
    click.echo(footer + quality)
    if write:
        click.echo(
            f"wrote community on {result.written:,} papers; recorded as AnalyticsRun community"
        )
