"""Pictures of the map: citers per year, a paper's neighbourhood, a centrality's spread.

Each function returns a matplotlib ``Figure`` (drawn without pyplot, so no global state and
no display is needed); ``save`` writes it as PNG, SVG or PDF by the file's suffix. The data
behind each picture comes from the same KnowledgeGraph the CLI and the web view ask
(``graph.plots.years(REF)`` is the way in; this module loads matplotlib and igraph, so the
face imports it only when a picture is drawn).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Final

import igraph
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from kg import queries
from kg.analytics.igraph_engine import stored_properties, storing_command
from kg.answers import short_handle
from kg.errors import ParameterError, PlotError
from kg.export import ExportedPaper, check_folder_of
from kg.knowledge_graph import KnowledgeGraph
from kg.paths import PathArg, as_path
from kg.questions.bounds import check_range
from kg.text import display, display_key

__all__ = [
    "FORMATS",
    "draw_papers",
    "ego",
    "lay_out",
    "rank_distribution",
    "render",
    "save",
    "short_title",
    "years",
]

FORMATS: Final = (".png", ".svg", ".pdf")
_LABELLED: Final = 12  # the most cited neighbours get a label; more would not be legible
_NEIGHBOURS: Final = 20_000  # the neighbours read to choose the most cited among


def save(figure: Figure, path: PathArg) -> Path:
    """Write ``figure`` to ``path`` (a Path or a str) as PNG, SVG or PDF by its suffix; return
    the path. Raises ParameterError for another suffix, a folder that does not exist (it is
    not made) or a path that cannot be written."""
    path = as_path(path, "path")
    if path.suffix.lower() not in FORMATS:
        raise ParameterError(
            f"cannot tell the picture format of {path.name}", "name a .png, .svg or .pdf file"
        )
    check_folder_of(path)
    try:
        render(figure, path, dpi=150)
    except OSError as exc:
        raise ParameterError(
            f"cannot write {path} ({exc.strerror})", "name a path in a folder you can write to"
        ) from exc
    return path


def render(figure: Figure, target: Path | IO[Any], **options: Any) -> None:
    """Draw ``figure`` into ``target`` (a path or an open file; ``options`` go to
    ``savefig``, e.g. ``format="svg"``). Raises PlotError when matplotlib cannot draw it;
    an OSError of the target passes through."""
    try:
        figure.savefig(target, bbox_inches="tight", **options)
    except OSError:
        raise
    except Exception as exc:  # matplotlib's drawing errors have no common class
        raise PlotError(
            f"could not draw the picture: {type(exc).__name__}: {exc}".splitlines()[0],
            "report it as a bug, with the command that drew it",
        ) from exc


def years(graph: KnowledgeGraph, ref: str) -> Figure:
    """Bars of the papers citing ``ref``'s paper per year: counted in the graph beside what
    the newest source stated. Raises PaperNotFound or AmbiguousPaper for a bad REF."""
    report = graph.paper(ref)
    counted = {c.year: c.count for c in report.citers_per_year if c.year is not None}
    stated = {c.year: c.count for c in report.stated_citers_per_year if c.year is not None}
    all_years = sorted(set(counted) | set(stated))
    figure = Figure(figsize=(max(6.0, 0.5 * len(all_years) + 2), 4))
    axes = figure.add_subplot()
    width = 0.4 if stated else 0.8
    positions = range(len(all_years))
    axes.bar(
        [p - width / 2 if stated else p for p in positions],
        [counted.get(y, 0) for y in all_years],
        width,
        label="counted in the graph",
    )
    if stated:
        axes.bar(
            [p + width / 2 for p in positions],
            [stated.get(y, 0) for y in all_years],
            width,
            label="stated by the source",
        )
    axes.set_xticks(list(positions), [str(y) for y in all_years], rotation=45)
    axes.set_ylabel("citing papers")
    # Text from the data is drawn as it is: never parsed as mathtext ($\\half$ in a title).
    axes.set_title(
        short_title(f"Citers per year: {display(report.title) or display_key(report.key)}"),
        parse_math=False,
    )
    axes.legend()
    return figure


def ego(
    graph: KnowledgeGraph,
    ref: str,
    hops: int = 1,
    limit: int = 40,
    seed: int = 42,
    link: Callable[[str], str] | None = None,
) -> Figure:
    """The paper's neighbourhood within ``hops`` citation hops (its ``limit`` most cited
    papers there), laid out by Fruchterman-Reingold (seeded), sized by PageRank when every
    paper shown has one (else by in-graph citations), coloured by community when every one
    has one (else by year); the most cited are labelled with their handles. With ``link``,
    each node of an SVG links to ``link(key)``.
    Raises PaperNotFound, AmbiguousPaper or ParameterError."""
    limit = check_range("limit", limit, 1)
    near = graph.near(ref, hops, _NEIGHBOURS)
    around = list(graph.exports.papers(sorted(p.key for p in near.results)))
    around.sort(key=lambda p: (-p.cited_by, p.key))
    keys = sorted({near.paper.key, *(p.key for p in around[:limit])})
    nodes = list(graph.exports.papers(keys))
    index = {paper.key: number for number, paper in enumerate(nodes)}
    edges = [(index[a], index[b]) for a, b in graph.exports.citations(keys)]
    xs, ys = lay_out(len(nodes), edges, seed, directed=True)
    figure = Figure(figsize=(9, 8))
    axes = figure.add_subplot()
    for a, b in edges:
        axes.annotate(
            "",
            xy=(xs[b], ys[b]),
            xytext=(xs[a], ys[a]),
            arrowprops={"arrowstyle": "-|>", "color": "#9a9a9a", "lw": 0.6, "alpha": 0.7},
        )
    draw_papers(figure, axes, xs, ys, nodes, near.paper.key, link)
    axes.set_axis_off()
    shown = f"the {len(nodes) - 1:,} most cited of {near.total:,}" if near.total else "no papers"
    within = "1 hop" if hops == 1 else f"{hops} hops"
    axes.set_title(
        short_title(f"Within {within} of {near.paper.handle}: {shown}"), parse_math=False
    )
    return figure


def rank_distribution(graph: KnowledgeGraph, prop: str = "pagerank", bins: int = 50) -> Figure:
    """A histogram (log-log) of one value `kg rank --write` stored on the papers.
    Raises ParameterError when no paper holds it, or for fewer than 1 bin."""
    bins = check_range("bins", bins, 1)
    values = [row["value"] for row in queries.analytics.rank_values.run(graph, property=prop)]
    if not values:
        command = storing_command(prop)
        hint = (
            f"compute and store it first with `{command}`"
            if command
            else f"pass one of {', '.join(stored_properties())}"
        )
        raise ParameterError(f"no paper holds {prop!r}", hint)
    positive = [v for v in values if v > 0]
    figure = Figure(figsize=(7, 4.5))
    axes = figure.add_subplot()
    if positive and max(positive) > min(positive):
        low, high = math.log10(min(positive)), math.log10(max(positive))
        edges = [10 ** (low + (high - low) * i / bins) for i in range(bins + 1)]
        # 10 ** log10(x) need not give x back: pin the ends so no value falls outside.
        edges[0], edges[-1] = min(positive), max(positive)
        axes.hist(positive, bins=edges)
        axes.set_xscale("log")
        axes.set_yscale("log")
    else:
        axes.hist(values, bins=bins)
    axes.set_xlabel(prop, parse_math=False)
    axes.set_ylabel("papers")
    zero = len(values) - len(positive)
    note = f" ({zero:,} at zero not shown)" if zero and positive else ""
    axes.set_title(f"{prop} over {len(values):,} papers{note}", parse_math=False)
    return figure


def lay_out(
    count: int,
    edges: list[tuple[int, int]],
    seed: int,
    *,
    directed: bool,
    weights: list[float] | None = None,
) -> tuple[list[float], list[float]]:
    """Return the x and y of ``count`` nodes joined by ``edges`` (pairs of node numbers),
    laid out by Fruchterman-Reingold; the same seed gives the same picture."""
    network = igraph.Graph(n=count, edges=edges, directed=directed)
    random.seed(seed)  # igraph's layouts draw from Python's random module
    layout = network.layout_fruchterman_reingold(weights=weights, niter=500)
    return [c[0] for c in layout.coords], [c[1] for c in layout.coords]


def draw_papers(
    figure: Figure,
    axes: Axes,
    xs: list[float],
    ys: list[float],
    nodes: list[ExportedPaper],
    centre: str,
    link: Callable[[str], str] | None,
) -> None:
    """Draw the papers at their places: sized by PageRank when every paper shown has one
    (else by in-graph citations), coloured by community when every one has one (else by
    year, with a colour bar), ``centre`` ringed in red, the most cited labelled with their
    handles; with ``link``, each node of an SVG links to ``link(key)``."""
    known_years = [p.year for p in nodes if p.year is not None]
    by_rank = all(p.pagerank is not None for p in nodes)
    by_community = all(p.community is not None for p in nodes)
    if by_rank:
        top = max(p.pagerank or 0.0 for p in nodes) or 1.0
        sizes = [30 + 900 * math.sqrt((p.pagerank or 0.0) / top) for p in nodes]
    else:
        sizes = [30 + 25 * math.sqrt(p.cited_by) for p in nodes]
    if by_community:
        colours = [float(p.community or 0) for p in nodes]
    else:
        colours = [float(p.year or min(known_years, default=0)) for p in nodes]
    scatter = axes.scatter(
        xs,
        ys,
        s=sizes,
        c=colours,
        cmap="tab20" if by_community else "viridis",
        edgecolors=["#d62728" if p.key == centre else "white" for p in nodes],
        linewidths=[2.5 if p.key == centre else 0.5 for p in nodes],
        zorder=3,
    )
    if link is not None:
        scatter.set_urls([link(p.key) for p in nodes])
    if known_years and not by_community:
        bar = figure.colorbar(scatter, ax=axes, label="year")
        bar.ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    place = {p.key: (x, y) for p, x, y in zip(nodes, xs, ys, strict=True)}
    labelled = sorted(nodes, key=lambda p: (p.key != centre, -p.cited_by, p.key))
    for paper in labelled[:_LABELLED]:
        axes.annotate(
            short_handle(paper.key, paper.arxiv_id),
            place[paper.key],
            textcoords="offset points",
            xytext=(6, 6),
            fontsize=8,
            zorder=4,
            parse_math=False,
        )


def short_title(text: str, width: int = 80) -> str:
    """Return ``text`` cut to ``width`` characters with an ellipsis, for a figure's title."""
    return text if len(text) <= width else text[: width - 1] + "…"
