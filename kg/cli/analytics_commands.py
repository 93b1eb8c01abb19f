"""`kg rank`, `kg communities` and `kg similar`: graph analytics over the CITES graph."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

import click

from kg.analytics import (
    ALGORITHMS,
    COMMUNITY_METHODS,
    ENGINES,
    Algorithm,
    CommunityMethod,
    Engine,
    RankOptions,
    Scope,
)
from kg.answers import (
    CommunityResult,
    RankedPaper,
    RankResult,
    SimilarityRun,
    StoredRun,
    short_handle,
)
from kg.cli import question_commands
from kg.cli.app import (
    SEED,
    F,
    count,
    emitted,
    face_option,
    json_command,
    number_option,
    open_graph,
    options_into,
)
from kg.cli.tables import RANKED_COLUMNS, Column, display, paper_cells, print_table, say
from kg.knowledge_graph import Analytics, parse_years
from kg.numbers import COUNT_OR_ZERO

# What every whole-map command shares is declared once: its scope and write options
# (scope_options), the answer or the no-papers line (answered), a ranked paper's cells.
_ENGINE_HELP = (
    "igraph reads the graph out of Neo4j and computes in igraph; gds runs in the server's "
    "Graph Data Science plugin (needs `pip install graphdatascience`); auto uses GDS when "
    "both are there."
)

NO_PAPERS = (
    "No papers in scope: nothing to compute. Check --category and --years, or drop "
    "--no-stubs (papers loaded only from edge lists are stubs)."
)


class RunOptions(TypedDict):
    """What --no-stubs, --category, --years, --write and --batch-size say, in the words the
    analytics take: ``graph.analytics.rank(..., **run)``."""

    scope: Scope
    write: bool
    batch_size: int


def _run_options(
    no_stubs: bool, category: str | None, years: str | None, write: bool, batch_size: int
) -> RunOptions:
    first, last = parse_years(years) if years else (None, None)
    scope = Scope(include_stubs=not no_stubs, category=category, year_from=first, year_to=last)
    return RunOptions(scope=scope, write=write, batch_size=batch_size)


def scope_options(
    first: Callable[[Any], Any],
    *,
    method: Callable[..., Any],
    years: str,
    write: str,
    batch: str,
) -> Callable[[F], F]:
    """The options of every whole-map command, in --help order: ``first`` (--engine or
    --limit), --no-stubs, --category, --years, --write and --batch-size (the default of the
    face's ``method``), the last three with the caller's help. All but ``first`` reach the
    command as one ``run: RunOptions``."""
    scoped = options_into(
        "run",
        _run_options,
        click.option(
            "--no-stubs", is_flag=True, help="Leave out stubs (papers known only as citations)."
        ),
        click.option("--category", metavar="CODE", help="Only papers of this primary category."),
        click.option("--years", metavar="FROM-TO", help=years),
        click.option("--write", is_flag=True, help=write),
        face_option(method, "batch_size", batch, type=count()),
    )

    def decorate(func: F) -> F:
        return first(scoped(func))  # type: ignore[no-any-return]

    return decorate


def answered(result: Any, nodes: int, as_json: bool) -> bool:
    """Print ``result`` as JSON, or say that no paper was in scope; return False when the
    command is still to print its table."""
    if emitted(result, as_json):
        return True
    if not nodes:
        say(NO_PAPERS)
        return True
    return False


def ranked_cells(paper: RankedPaper, *extra: object) -> list[object]:
    """Return a ranked paper's #, ref, year and title cells (a stub's title reads "stub")."""
    title = paper.title or ("stub" if paper.stub else "")
    return [paper.rank, *paper_cells(short_handle(paper.key), paper.year, title, *extra)]


_scope_options = scope_options(
    face_option(Analytics.rank, "engine", _ENGINE_HELP, type=click.Choice(ENGINES)),
    method=Analytics.rank,
    years="Only papers of these years, e.g. 2019-2023, 2019- or -2023.",
    write="Store the values on the Paper nodes (replacing any from an earlier run) "
    "and record the run as an AnalyticsRun node.",
    batch="Papers per write transaction.",
)


def _footer(what: str, result: RankResult | CommunityResult) -> str:
    t = result.timings
    left_out = result.left_out
    late = (
        f"; {left_out:,} citations of papers added while it read were left out" if left_out else ""
    )
    size = f"{result.nodes:,} papers and {result.edges:,} citations"
    return (
        f"{what} over {size} with {result.engine} in {t.total:.2f}s "
        f"(read {t.projection:.2f}s, build {t.build:.2f}s, compute {t.compute:.2f}s, "
        f"write {t.write:.2f}s){late}"
    )


def _value(value: float) -> str:
    """A score as the rank table shows it: three significant figures (0.00553, 8.72e+07)."""
    return f"{value:.3g}" if isinstance(value, float) else str(value)


_rank_options = options_into(
    "options",
    RankOptions,
    click.option(
        "--damping",
        default=0.85,
        show_default=True,
        help="PageRank: probability of following a link.",
    ),
    click.option(
        "--tolerance",
        default=1e-7,
        show_default=True,
        help="PageRank with GDS: stop when scores change less. igraph always solves to 1e-10.",
    ),
    click.option(
        "--max-iterations",
        default=100,
        type=count(),
        show_default=True,
        help="PageRank and HITS with GDS: iteration limit.",
    ),
    click.option(
        "--samples",
        type=count(),
        default=None,
        help="Betweenness: estimate from this many random source papers instead of all.",
    ),
    click.option(
        "--seed", default=42, show_default=True, type=SEED, help="Betweenness: seed of the sample."
    ),
)


@json_command(
    "rank",
    click.argument("algorithm", type=click.Choice(ALGORITHMS)),
    face_option(Analytics.rank, "top", "How many papers to list.", type=count(COUNT_OR_ZERO)),
    _scope_options,
    _rank_options,
)
def rank(
    ctx: click.Context,
    algorithm: Algorithm,
    top: int,
    engine: Engine,
    run: RunOptions,
    options: RankOptions,
    as_json: bool,
) -> None:
    """Rank papers by pagerank, betweenness, indegree, outdegree, hits or kcore.

    Computes over the citations among the papers in scope and lists the top papers; with
    --write the values are stored on the papers (hits writes hits_authority and hits_hub).
    Sampled betweenness (--samples) sums over that many random source papers and scales
    the sums up to all papers: an unbiased estimate.

    Example: kg rank pagerank --top 20 --no-stubs --years 2019-2023 --write
    """
    result = open_graph(ctx).analytics.rank(
        algorithm, engine=engine, options=options, top=top, **run
    )
    if answered(result, result.nodes, as_json):
        return
    print_table(
        (*RANKED_COLUMNS, *(Column(p.removeprefix("hits_"), "right") for p in result.properties)),
        (
            ranked_cells(paper, *(_value(paper.values[p]) for p in result.properties))
            for paper in result.top
        ),
        title=f"{algorithm}: top {len(result.top)}",
    )
    say(_footer(algorithm, result))
    if run["write"]:
        say(
            f"wrote {', '.join(result.properties)} on {result.written:,} papers; "
            f"recorded as AnalyticsRun {', '.join(r.key for r in result.runs)}"
        )


class _Partition(TypedDict):
    """What --method, --seed and --resolution say: how the papers are split, as the RankOptions
    are how they are ranked."""

    method: CommunityMethod
    seed: int
    resolution: float


_partition_options = options_into(
    "partition",
    _Partition,
    face_option(
        Analytics.communities,
        "method",
        "Leiden (modularity) or Louvain.",
        type=click.Choice(COMMUNITY_METHODS),
    ),
    face_option(Analytics.communities, "seed", "The same seed gives the same split.", type=SEED),
    face_option(Analytics.communities, "resolution", "Higher gives smaller communities."),
)


@json_command(
    "communities",
    face_option(
        Analytics.communities, "top", "How many of the largest to list.", type=count(COUNT_OR_ZERO)
    ),
    face_option(
        Analytics.communities,
        "papers",
        "Most cited papers shown for each.",
        type=count(COUNT_OR_ZERO),
    ),
    _scope_options,
    _partition_options,
)
def communities(
    ctx: click.Context,
    top: int,
    papers: int,
    engine: Engine,
    run: RunOptions,
    partition: _Partition,
    as_json: bool,
) -> None:
    """Find communities of papers on the undirected citation graph.

    Lists the largest communities with their most cited papers (in-degree in scope); with
    --write each paper's community number (0 is the largest) is stored as `community`.

    Example: kg communities --top 5 --papers 3 --seed 7 --write
    """
    result = open_graph(ctx).analytics.communities(
        engine=engine, top=top, papers=papers, **partition, **run
    )
    if answered(result, result.nodes, as_json):
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
                    display(member.title),
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
        title=f"{partition['method']}: {result.count:,} communities, top {len(result.communities)}",
    )
    quality = "" if result.modularity is None else f", modularity {result.modularity:.4f}"
    say(_footer(partition["method"], result) + quality)
    if run["write"]:
        say(f"wrote community on {result.written:,} papers; recorded as AnalyticsRun community")


def _stored_json(runs: list[StoredRun]) -> list[dict[str, object]]:
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


@json_command(
    "similar",
    click.argument("ref", required=False),
    click.option(
        "--by",
        type=click.Choice(["text", "cocited", "coupled"]),
        help="With REF: the papers nearest in meaning (text, after `kg embed`), or most "
        "co-cited or coupled with it (as kg cocited and kg coupled) [default: text].",
    ),
    number_option("--limit", default=20, help="With REF: how many papers to list."),
    click.option(
        "--write",
        is_flag=True,
        help="Compute every paper's top-k co-cited and coupled papers and store them as "
        "CO_CITED and COUPLED relationships (replacing the old ones), with a run record.",
    ),
    face_option(
        Analytics.similar,
        "k",
        "How many similar papers each paper keeps; questions asking for more run live.",
        type=count(),
    ),
    face_option(Analytics.similar, "batch_size", "Papers per write transaction.", type=count()),
    click.option(
        "--force",
        is_flag=True,
        help="With --write: compute and compare even when no paper changed since the stored "
        "run (which is otherwise kept as it is, in a second).",
    ),
)
def similar(
    ctx: click.Context,
    ref: str | None,
    by: str | None,
    limit: int,
    write: bool,
    k: int,
    batch_size: int,
    force: bool,
    as_json: bool,
) -> None:
    """The stored co-citation and coupling lists; with --write, compute and store them.
    With REF, the papers most like that paper: by meaning (--by text, the default), or
    by co-citation or coupling.

    `kg cocited` and `kg coupled` read the stored lists for a paper when no load has touched
    it or its neighbours since the run, and compute live otherwise.
    Example: kg similar --write --k 20; kg similar hep-th/9906064 --by text --limit 10
    """
    if ref is not None:
        if write:
            raise click.UsageError("--write stores every paper's lists: drop REF or --write")
        _similar_to(ctx, ref, by or "text", limit, as_json)
        return
    if by is not None:
        raise click.UsageError("--by needs a REF: kg similar REF --by text")
    if force and not write:
        raise click.UsageError("--force goes with --write: kg similar --write --force")
    given = [
        f"--{name.replace('_', '-')}"
        for name in ("k", "batch_size")
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    ]
    if given and not write:
        verb = "goes" if len(given) == 1 else "go"
        raise click.UsageError(f"{' and '.join(given)} {verb} with --write: kg similar --write")
    graph = open_graph(ctx)
    run = (
        graph.analytics.similar(k=k, write=True, batch_size=batch_size, force=force)
        if write
        else None
    )
    stored = graph.analytics.similarity_runs()
    if emitted({"run": run, "stored": _stored_json(stored)}, as_json):
        return
    if run is not None:
        _say_similarity_run(run)
    _render_similarity_runs(stored)


def _similar_to(ctx: click.Context, ref: str, by: str, limit: int, as_json: bool) -> None:
    """Print the papers most like REF: by meaning, or as kg cocited or kg coupled."""
    if by in ("cocited", "coupled"):
        command = question_commands.cocited if by == "cocited" else question_commands.coupled
        ctx.invoke(command, ref=ref, limit=limit, as_json=as_json)
        return
    result = open_graph(ctx).similar_by_text(ref, limit)
    if not emitted(result, as_json):
        question_commands.render_text_neighbours(result)


def _say_similarity_run(run: SimilarityRun) -> None:
    """Say what a similarity run stored, or that it kept the stored lists."""
    if run.unchanged:
        say(
            f"kept the stored lists (top {run.k}): no paper changed since the run read the "
            f"graph at {run.computed_at}, so a new run would write the same "
            f"({run.timings['total']:.1f}s; --force computes and compares anyway)"
        )
        return
    t = run.timings
    lists = sum(run.rewritten.values())
    say(
        f"stored {run.pairs.get('co-citation', 0):,} CO_CITED and "
        f"{run.pairs.get('coupling', 0):,} COUPLED relationships (top {run.k}; "
        f"{lists:,} papers' lists written, the rest unchanged) over "
        f"{run.nodes:,} papers and {run.edges:,} citations in {t['total']:.1f}s "
        f"(read {t['read']:.1f}s, compute {t['compute']:.1f}s, write {t['write']:.1f}s)"
    )


def _render_similarity_runs(stored: list[StoredRun]) -> None:
    """Print the stored similarity runs, or how to make one."""
    if not stored:
        say("No similarity run is stored: kg cocited and kg coupled compute live.")
        say("`kg similar --write` computes every paper's lists and stores them.")
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
