"""Pictures of the map: citers per year, a paper's neighbourhood, a centrality's spread.

Each function returns a matplotlib ``Figure`` (drawn without pyplot, so no global state and
no display is needed); ``save`` writes it as PNG, SVG or PDF by the file's suffix. The data
behind each picture comes from the same questions the CLI and the web view ask
(``graph.plots.years(REF)`` is the way in; this module loads matplotlib and igraph, so the
face imports it only when a picture is drawn). It sits below the face: each function takes
the connection (a ``Database``) and asks ``kg.questions`` itself.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any, Final

import igraph
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from kg import queries
from kg.analytics.igraph_engine import stored_properties, storing_command
from kg.answers import GraphNode, short_handle
from kg.database import Database
from kg.errors import ParameterError, PlotError
from kg.export import check_folder_of
from kg.numbers import COUNT, whole_number
from kg.paths import PathArg, as_path
from kg.questions import graph_data, paper_report
from kg.text import display, display_key

__all__ = [
    "FORMATS",
    "ego",
    "rank_distribution",
    "render",
    "save",
    "short_title",
    "years",
]

FORMATS: Final = (".png", ".svg", ".pdf")
_LABELLED: Final = 12  # the most cited neighbours get a label; more would not be legible
_LABEL_WIDTH: Final = 30  # a label's characters: a title cut with an ellipsis
_UNKNOWN: Final = (0.78, 0.8, 0.83, 1.0)  # the colour of a paper of no known year


def save(figure: Figure, path: PathArg) -> Path:
    """Write ``figure`` to ``path``; ``KnowledgeGraph.plots.save`` documents it."""
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


def years(graph: Database, ref: str) -> Figure:
    """Bars of citers per year; ``KnowledgeGraph.plots.years`` documents it."""
    report = paper_report(graph, ref)
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
    graph: Database,
    ref: str,
    hops: int,
    limit: int,
    seed: int,
    link: Callable[[str], str] | None,
) -> Figure:
    """The paper's neighbourhood; ``KnowledgeGraph.plots.ego`` documents it and holds the
    defaults."""
    seed = whole_number("seed", seed)
    data = graph_data(graph, ref, "citations", hops, COUNT.check("limit", limit))
    nodes = data.nodes
    index = {paper.key: number for number, paper in enumerate(nodes)}
    edges = [(index[e.source], index[e.target]) for e in data.edges]
    xs, ys = _lay_out(len(nodes), edges, seed)
    figure = Figure(figsize=(9, 8.6))
    axes = figure.add_subplot()
    sizes = [_area(paper.cited_by) for paper in nodes]
    _draw_arrows(axes, edges, xs, ys, sizes)
    years = (data.first_year, data.last_year)
    scatter = axes.scatter(
        xs,
        ys,
        s=sizes,
        c=[_colour(paper.year, years) for paper in nodes],
        edgecolors=["#d62728" if paper.key == data.paper.key else "white" for paper in nodes],
        linewidths=[2.5 if paper.key == data.paper.key else 0.5 for paper in nodes],
        zorder=3,
    )
    if link is not None:
        scatter.set_urls([link(paper.key) for paper in nodes])
    # The paper first, then the most cited.
    _label(axes, nodes[: _LABELLED + 1], [(xs[i], ys[i], sizes[i]) for i in range(len(nodes))])
    axes.margins(0.08)
    axes.set_axis_off()
    _legend(axes, years, max((paper.cited_by for paper in nodes), default=0))
    shown = f"the {len(nodes) - 1:,} most cited of {data.total:,}" if data.total else "no papers"
    within = "1 hop" if hops == 1 else f"{hops} hops"
    axes.set_title(
        short_title(f"Within {within} of {data.paper.handle}: {shown}"), parse_math=False
    )
    return figure


def _draw_arrows(
    axes: Axes,
    edges: list[tuple[int, int]],
    xs: Sequence[float],
    ys: Sequence[float],
    sizes: list[float],
) -> None:
    """Draw an arrow from each citing node to its cited node, stopping at the markers."""
    for a, b in edges:
        axes.annotate(
            "",
            xy=(xs[b], ys[b]),
            xytext=(xs[a], ys[a]),
            arrowprops={
                "arrowstyle": "-|>",
                "color": "#9a9a9a",
                "lw": 0.6,
                "alpha": 0.7,
                "shrinkA": math.sqrt(sizes[a]) / 2,
                "shrinkB": math.sqrt(sizes[b]) / 2 + 1,
            },
            zorder=1,
        )


def _label(
    axes: Axes, papers: Sequence[GraphNode], places: list[tuple[float, float, float]]
) -> None:
    """Write each of ``papers``' shortened titles below its marker (``places`` holds each
    node's x, y and marker area, in the order of the nodes, which ``papers`` begin)."""
    for number, paper in enumerate(papers):
        x, y, size = places[number]
        axes.annotate(
            short_title(
                display(paper.title) or short_handle(paper.key, paper.arxiv_id), _LABEL_WIDTH
            ),
            (x, y),
            textcoords="offset points",
            xytext=(0, -(math.sqrt(size) / 2 + 8)),
            ha="center",
            fontsize=7,
            zorder=4,
            parse_math=False,
            annotation_clip=False,
        )


def rank_distribution(graph: Database, prop: str = "pagerank", bins: int = 50) -> Figure:
    """A histogram of one stored value; ``KnowledgeGraph.plots.rank_distribution``
    documents it."""
    bins = COUNT.check("bins", bins)
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


def _lay_out(
    count: int, edges: list[tuple[int, int]], seed: int
) -> tuple[list[float], list[float]]:
    """Return the x and y of ``count`` nodes joined by ``edges`` (pairs of node numbers),
    laid out by Fruchterman-Reingold; the same seed gives the same picture."""
    network = igraph.Graph(n=count, edges=edges, directed=True)
    random.seed(seed)  # igraph's layouts draw from Python's random module
    layout = network.layout_fruchterman_reingold(niter=500)
    return [c[0] for c in layout.coords], [c[1] for c in layout.coords]


def _area(cited_by: int) -> float:
    """A node's marker area (points squared) for the papers citing it: log scale."""
    return (6 + 6 * math.log10(1 + cited_by)) ** 2


def _colour(year: int | None, years: tuple[int | None, int | None]) -> tuple[float, ...]:
    """A year's colour on the fixed first..last scale of the graph (viridis); grey unknown."""
    first, last = years
    if year is None or first is None or last is None:
        return _UNKNOWN
    share = (year - first) / (last - first) if last > first else 0.5
    return tuple(colormaps["viridis"](min(1.0, max(0.0, share))))


def _legend(axes: Axes, years: tuple[int | None, int | None], most: int) -> None:
    """A compact legend below the drawing, two rows: colour is the year (and the paper
    itself is ringed), size the papers in the graph citing it."""
    first, last = years
    steps = sorted({first, (first + last) // 2, last}) if first and last else []
    colours = [_mark(str(year), _colour(year, years), 8) for year in steps]
    colours.append(_mark("unknown", _UNKNOWN, 8))
    colours.append(_mark("the paper", "white", 8, edge="#d62728"))
    counts = [c for c in (1, 10, 100, 1000, 10000) if c <= max(most, 10)]
    sizes = [_mark(f"cited by {count:,}", "#9aa4b5", math.sqrt(_area(count))) for count in counts]
    figure = axes.get_figure()
    assert isinstance(figure, Figure)
    figure.subplots_adjust(bottom=0.14)
    title = "colour: year · size: papers in the graph citing it"
    rows: list[tuple[str | None, list[Line2D], float, float]] = [
        (title, colours, 0.065, 1.0),
        (None, sizes, 0.0, 2.6),
    ]
    for heading, handles, height, handle_height in rows:
        figure.legend(
            handles=handles,
            title=heading,
            loc="lower center",
            bbox_to_anchor=(0.5, height),
            ncol=len(handles),
            fontsize=7,
            title_fontsize=7,
            frameon=False,
            columnspacing=1.4,
            handleheight=handle_height,
        )


def _mark(label: str, colour: Any, size: float, edge: str = "white") -> Line2D:
    """One entry of the legend: a dot of ``colour`` and ``size`` (points across)."""
    width = 2.5 if edge != "white" else 0.5
    return Line2D(
        [],
        [],
        linestyle="",
        marker="o",
        color=colour,
        markeredgecolor=edge,
        markeredgewidth=width,
        markersize=size,
        label=label,
    )


def short_title(text: str, width: int = 80) -> str:
    """Return ``text`` cut to ``width`` characters with an ellipsis, for a figure's title."""
    return text if len(text) <= width else text[: width - 1] + "…"
