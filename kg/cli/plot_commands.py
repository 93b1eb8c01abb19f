"""`kg plot`: pictures of the map as PNG, SVG or PDF."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.app import SEED, count, emit_json, face_option, json_option, main, open_graph
from kg.knowledge_graph import Plots
from kg.questions import NEAR_HOPS

_OUT = click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path),
    required=True,
    help="The picture to write: a .png, .svg or .pdf file.",
)


@main.group("plot")
def plot() -> None:
    """Pictures of the map: citers per year, a paper's neighbourhood, a centrality's spread.

    Example: kg plot years hep-th/9711200 -o years.png
    """


def _wrote(path: Path, as_json: bool) -> None:
    if as_json:
        emit_json({"wrote": str(path), "format": path.suffix.lstrip(".").lower()})
    else:
        click.echo(f"wrote {path}")


@plot.command("years")
@click.argument("ref")
@_OUT
@json_option
@click.pass_context
def plot_years(ctx: click.Context, ref: str, out: Path, as_json: bool) -> None:
    """Citers per year, counted in the graph beside what the source stated.

    Example: kg plot years 1810.04805 -o bert-years.svg
    """
    plots = open_graph(ctx).plots  # matplotlib and igraph load only when a picture is drawn
    _wrote(plots.save(plots.years(ref), out), as_json)


@plot.command("ego")
@click.argument("ref")
@_OUT
@face_option(Plots.ego, "hops", "Citation hops out from the paper.", type=count(NEAR_HOPS))
@face_option(Plots.ego, "limit", "Papers at most.", type=count())
@face_option(Plots.ego, "seed", "Seed of the layout.", type=SEED)
@json_option
@click.pass_context
def plot_ego(
    ctx: click.Context, ref: str, out: Path, hops: int, limit: int, seed: int, as_json: bool
) -> None:
    """The paper's neighbourhood: its nearest papers and the citations among them.

    Example: kg plot ego hep-th/9711200 -o maldacena.png --limit 30
    """
    plots = open_graph(ctx).plots
    _wrote(plots.save(plots.ego(ref, hops, limit, seed), out), as_json)


@plot.command("rank")
@_OUT
@click.option(
    "--property", "prop", default="pagerank", show_default=True, help="A stored rank value."
)
@json_option
@click.pass_context
def plot_rank(ctx: click.Context, out: Path, prop: str, as_json: bool) -> None:
    """The distribution of a value `kg rank --write` stored (log-log).

    Example: kg rank pagerank --write, then kg plot rank -o pagerank.png
    """
    plots = open_graph(ctx).plots
    _wrote(plots.save(plots.rank_distribution(prop), out), as_json)
