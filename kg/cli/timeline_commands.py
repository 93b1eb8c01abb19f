"""`kg bursts`, `kg traction`, `kg beauties` and `kg mainpath`: change over time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypedDict

import click

from kg.cli.analytics_commands import RunOptions, answered, ranked_cells, scope_options
from kg.cli.app import (
    YEAR,
    F,
    count,
    face_option,
    json_command,
    number_option,
    open_graph,
    options_into,
)
from kg.cli.tables import RANKED_COLUMNS, Column, print_table, say, showing
from kg.knowledge_graph import Analytics
from kg.numbers import COUNT_OR_ZERO


def _options(
    what: str, method: Callable[..., Any], limit: Callable[[F], F] | None = None
) -> Callable[[F], F]:
    """The scope, --limit, --write and --batch-size options every time command shares, with
    the defaults of ``method`` of the face; ``limit`` for a --limit the method does not take
    (the rows shown)."""
    return scope_options(
        limit or face_option(method, "limit", "How many rows to list.", type=count(COUNT_OR_ZERO)),
        method=method,
        years="Only papers of these years, e.g. 1995-2003; citations count only between "
        "papers in scope.",
        write=f"Store {what} (replacing any from an earlier run) and record the run as "
        "AnalyticsRun nodes.",
        batch="Rows per write transaction.",
    )


def _footer(run: Any, noun: str) -> str:
    undated = (
        f"; {run.undated:,} citations from papers of unknown year left out" if run.undated else ""
    )
    late = (
        f"; {run.left_out:,} citations of papers added while it read were left out"
        if run.left_out
        else ""
    )
    size = f"{run.nodes:,} papers and {run.edges:,} citations"
    return f"{noun} over {size} in {run.seconds:.2f}s{undated}{late}"


def _wrote(run: Any) -> None:
    if run.runs:
        say(
            f"wrote {run.written:,} rows; recorded as AnalyticsRun "
            f"{', '.join(r.key for r in run.runs)}"
        )


class _Bursts(TypedDict):
    """What --since, --s and --gamma say, in the words of ``graph.analytics.bursts``."""

    since: int | None
    s: float
    gamma: float


_bursts_options = options_into(
    "options",
    _Bursts,
    click.option(
        "--since", type=YEAR, metavar="YEAR", help="Only bursts lasting until this year or later."
    ),
    face_option(
        Analytics.bursts,
        "s",
        "The burst state's citation rate as a multiple of the paper's base rate.",
    ),
    face_option(
        Analytics.bursts,
        "gamma",
        "Cost of entering a burst, times ln(years): higher finds fewer, stronger bursts.",
    ),
)


@json_command(
    "bursts",
    _bursts_options,
    _options(
        "each paper's strongest burst (burst_strength, burst_start, burst_end)", Analytics.bursts
    ),
)
def bursts(
    ctx: click.Context,
    options: _Bursts,
    limit: int,
    run: RunOptions,
    as_json: bool,
) -> None:
    """List citation bursts, strongest first: Kleinberg's two-state burst detection over
    each paper's citations per year, as CiteSpace does.

    Year t holds the d citations made that year within scope, r of them to the paper. The
    base state cites the paper at its overall rate, the burst state at s times that rate;
    entering a burst costs gamma ln(years). A burst's strength is how much better the burst
    state explains its years.

    Example: kg bursts --since 2000 --limit 10
    """
    result = open_graph(ctx).analytics.bursts(**options, limit=limit, **run)
    if answered(result, result.run.nodes, as_json):
        return
    since = options["since"]
    print_table(
        (*RANKED_COLUMNS, Column("burst", "right"), Column("strength", "right")),
        (
            ranked_cells(
                p,
                f"{p.values['burst_start']}–{p.values['burst_end']}",
                f"{p.values['strength']:.2f}",
            )
            for p in result.top
        ),
        title=f"citation bursts{'' if since is None else f' lasting until {since} or later'}",
        footer=showing(len(result.top), result.shown_of),
        empty="no bursts"
        + ("" if since is None else f" lasting until {since} or later")
        + ": try an earlier --since or a lower --gamma",
    )
    say(
        _footer(result.run, "bursts")
        + f"; {result.bursts_found:,} bursts in {result.papers_with_bursts:,} papers"
    )
    _wrote(result.run)


@json_command(
    "beauties",
    face_option(
        Analytics.beauties, "min_citations", "Only papers cited at least this often.", type=count()
    ),
    _options("beauty and awakening (a year) on every paper scored", Analytics.beauties),
)
def beauties(
    ctx: click.Context,
    min_citations: int,
    limit: int,
    run: RunOptions,
    as_json: bool,
) -> None:
    """List sleeping beauties: papers by the beauty coefficient B of Ke et al. (PNAS 2015).

    B sums, over the years up to the paper's peak of citations, how far each year falls
    below the straight line from its first year to its peak, relative to that year's
    citations; B = 0 for citations growing linearly, large for a long sleep and a sudden
    awakening. The awakening is the year farthest below the line.

    Example: kg beauties --min-citations 20 --limit 10
    """
    result = open_graph(ctx).analytics.beauties(
        min_citations=min_citations,
        limit=limit,
        **run,
    )
    if answered(result, result.run.nodes, as_json):
        return
    print_table(
        (
            *RANKED_COLUMNS,
            Column("B", "right"),
            Column("awakened", "right", drop=2),
            Column("peak", "right", drop=1),
            Column("cited", "right"),
        ),
        (
            ranked_cells(
                p,
                f"{p.values['beauty']:.2f}",
                str(p.values["awakening"]),
                str(p.values["peak"]),
                p.values["citations"],
            )
            for p in result.top
        ),
        title="sleeping beauties",
        footer=showing(len(result.top), result.scored),
        empty=f"no paper in scope is cited {min_citations} times: try a lower --min-citations",
    )
    say(_footer(result.run, "beauty coefficients") + f"; {result.scored:,} papers scored")
    _wrote(result.run)


class _Traction(TypedDict):
    """What --as-of, --window, --min-citations and --min-cohort say, in the words of
    ``graph.analytics.traction``."""

    as_of: int | None
    window: int
    min_citations: int
    min_cohort: int


_traction_options = options_into(
    "options",
    _Traction,
    click.option(
        "--as-of",
        type=YEAR,
        metavar="YEAR",
        help="The last year of the window [default: the last year of each paper's body of "
        "data, the papers citations connect it to].",
    ),
    face_option(Analytics.traction, "window", "How many years count as recent.", type=count()),
    face_option(
        Analytics.traction,
        "min_citations",
        "Only list papers cited at least this often in the window.",
        type=count(COUNT_OR_ZERO),
    ),
    face_option(
        Analytics.traction,
        "min_cohort",
        "Only score papers whose category and year hold at least this many papers.",
        type=count(),
    ),
)


@json_command(
    "traction",
    _traction_options,
    _options("traction on every paper scored", Analytics.traction),
)
def traction(
    ctx: click.Context,
    options: _Traction,
    limit: int,
    run: RunOptions,
    as_json: bool,
) -> None:
    """List papers gaining traction: recent citations against what their age predicts.

    A paper's citations in the last --window years up to --as-of, against the mean of the
    same count over the papers of its primary category published the same year:
    traction = (recent + 1) / (expected + 1); above 1 it is cited more than its peers.

    Example: kg traction --as-of 2002 --window 3 --limit 10
    """
    result = open_graph(ctx).analytics.traction(**options, limit=limit, **run)
    if answered(result, result.run.nodes, as_json):
        return
    min_citations = options["min_citations"]
    span = (
        f" in {result.as_of - result.window + 1}–{result.as_of}"
        if result.as_of is not None
        else f" in the last {result.window} years of each paper's data"
    )
    print_table(
        (
            *RANKED_COLUMNS,
            Column("traction", "right"),
            Column("recent", "right", drop=1),
            Column("expected", "right", drop=2),
            Column("cohort", "right", drop=3),
        ),
        (
            ranked_cells(
                p,
                f"{p.values['traction']:.2f}",
                p.values["recent"],
                f"{p.values['expected']:.2f}",
                p.values["cohort"],
            )
            for p in result.top
        ),
        title=f"traction: citations{span} against the same category and year",
        empty=f"no paper has {min_citations} citations{span}: try --as-of or --min-citations",
    )
    say(_footer(result.run, "traction") + f"; {result.scored:,} papers scored")
    _wrote(result.run)


@json_command(
    "mainpath",
    face_option(
        Analytics.main_path,
        "key_routes",
        "How many of the heaviest citations seed the key-route main path.",
        type=count(),
    ),
    _options(
        "spc on every citation used and the main_path and key_route flags on papers",
        Analytics.main_path,
        limit=number_option("--limit", default=20, help="How many rows to list.", own=True),
    ),
)
def mainpath_command(
    ctx: click.Context,
    key_routes: int,
    limit: int,
    run: RunOptions,
    as_json: bool,
) -> None:
    """Show the main path of the citations: search path count (SPC) weights, the global main
    path and the key-route main path.

    A citation's SPC is the number of paths from a paper citing nothing in scope to a paper
    cited by nothing in scope that run through it; the global main path is the path with
    the largest sum of SPC, and the key-route main path joins the heaviest citations to
    sources and sinks along their heaviest neighbours. Cycles (papers citing each other)
    are broken by dropping the citations that run against time, and reported.

    Example: kg mainpath --key-routes 5 --limit 30
    """
    result = open_graph(ctx).analytics.main_path(
        key_routes=key_routes,
        **run,
    )
    shown = replace(result, path=result.path[:limit], key_route=result.key_route[:limit])
    if answered(shown, result.run.nodes, as_json):
        return
    print_table(
        (*RANKED_COLUMNS, Column("SPC share in", "right")),
        (
            ranked_cells(
                p,
                "" if p.values["spc_in"] is None else f"{p.values['spc_in']:.4f}",
            )
            for p in result.path[:limit]
        ),
        title="global main path (oldest first)",
        footer=showing(min(limit, len(result.path)), len(result.path)),
        empty="no citations in scope: no path",
    )
    print_table(
        RANKED_COLUMNS,
        (ranked_cells(p) for p in result.key_route[:limit]),
        title=f"key-route main path from {result.key_routes} key citations "
        f"({len(result.key_route):,} papers)",
        footer=showing(min(limit, len(result.key_route)), len(result.key_route)),
        empty="no key route",
    )
    flow = (
        ""
        if result.total_flow_log10 is None
        else f"; 10^{result.total_flow_log10:.1f} source-to-sink paths"
    )
    say(
        _footer(result.run, "main path")
        + flow
        + f"; cycles: {result.mutual_pairs:,} mutual pairs, {result.cyclic_components:,} "
        f"cyclic groups (largest {result.largest_component:,} papers), "
        f"{result.dropped:,} citations against time dropped"
    )
    _wrote(result.run)
