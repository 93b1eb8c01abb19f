"""`kg export`: the map, or part of it, in the formats other tools read."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, cast

import click

from kg.answers import ExportSummary, GraphLayer
from kg.cli.app import (
    IDENTIFIER,
    count,
    emitted,
    json_command,
    number_option,
    open_graph,
    options_into,
)
from kg.cli.tables import plural
from kg.errors import ParameterError
from kg.export import FORMATS, Selection
from kg.knowledge_graph import KnowledgeGraph, parse_years
from kg.questions import NEAR_HOPS
from kg.questions.graph_layers import GRAPH_LAYERS

_GRAPH_JSON = "graph-json"


def _selection(years: str | None, **chosen: Any) -> Selection:
    """The Selection the filter options name; --years is parsed here, so that a bad range is
    an `Error:` (or a JSON error) like any other."""
    first, last = parse_years(years) if years else (None, None)
    return Selection(year_from=first, year_to=last, **chosen)


# The options are named as Selection's fields (but --years, which gives two of them).
_selection_options = options_into(
    "selection",
    _selection,
    click.option("--around", metavar="REF", help="Only the papers near this one (see --hops)."),
    number_option("--hops", default=1, bound=NEAR_HOPS, help="With --around."),
    click.option(
        "--category", help="Only papers in this arXiv category (primary or cross-listed)."
    ),
    click.option("--years", help="Only papers of these years: 1997-1999, 1997-, -1999 or 1998."),
    click.option(
        "--community",
        type=IDENTIFIER,
        help="Only this community (from kg communities --write).",
    ),
    click.option("--top", type=count(), help="Only the top N by --by."),
    click.option(
        "--by",
        "rank_by",
        default="pagerank",
        show_default=True,
        help="The property --top ranks by, written by kg rank --write.",
    ),
)


@json_command(
    "export",
    click.argument("fmt", metavar="FORMAT", type=click.Choice([*FORMATS, _GRAPH_JSON])),
    click.argument("path", type=click.Path(path_type=Path)),
    _selection_options,
    click.option(
        "--layer",
        type=click.Choice(list(GRAPH_LAYERS)),
        default="citations",
        show_default=True,
        help="graph-json: the layer of the --around paper's graph.",
    ),
    click.option(
        "--limit",
        type=count(),
        help="graph-json: papers besides the --around one [default: 30 for citations, else 20].",
    ),
)
def export_command(
    ctx: click.Context,
    fmt: str,
    path: Path,
    selection: Selection,
    layer: str,
    limit: int | None,
    as_json: bool,
) -> None:
    """Write papers and their citations as GraphML, GEXF, Pajek, CSV, VOSviewer, BibTeX,
    RIS, or a paper's graph as JSON.

    FORMAT is one of: graphml, gexf (Gephi), pajek, csv and vosviewer (PATH is a folder),
    bibtex, ris, graph-json. Without a filter the whole graph is written, streamed page by
    page. Filters combine. In csv, a text cell that starts with =, +, -, @, a tab or a
    carriage return (a title, a name) gets a ' before it, so that a spreadsheet shows it and
    does not run it as a formula; numbers are written as they are.
    Example: kg export gexf hepth.gexf --category hep-th --years 1997-1999

    graph-json writes one layer of the --around paper's graph as the web view draws it,
    what its /graph.json serves: --layer citations (--hops), cocited or coupled, --limit.
    Example: kg export graph-json maldacena.json --around hep-th/9711200 --layer cocited
    """
    graph = open_graph(ctx)
    if fmt == _GRAPH_JSON:
        summary = _graph_json(graph, path, selection, layer, limit)
    else:
        if limit is not None or layer != "citations":
            raise ParameterError(
                "--layer and --limit are options of graph-json",
                f"leave them out of a {fmt} export, or export graph-json",
            )
        summary = graph.exports.write(fmt, path, selection)
    if emitted(summary, as_json):
        return
    if fmt == _GRAPH_JSON:
        links = (
            plural(summary.citations, "citation")
            if layer == "citations"
            else plural(summary.links, "link")
        )
        network = f" and {links}"
    else:
        network = (
            "" if fmt in ("bibtex", "ris") else f" and {plural(summary.citations, 'citation')}"
        )
    click.echo(
        f"wrote {plural(summary.papers, 'paper')}{network} ({summary.selection}) to "
        + ", ".join(summary.files)
    )
    if summary.skipped:
        click.echo(
            f"skipped {plural(summary.skipped, 'citation')} to or from papers written after "
            "the papers were read (a load ran during the export): export again for a whole picture"
        )


def _graph_json(
    graph: KnowledgeGraph, path: Path, selection: Selection, layer: str, limit: int | None
) -> ExportSummary:
    """graph-json: one layer of the --around paper's graph; the other filters do not apply."""
    if selection.around is None:
        raise ParameterError("graph-json needs --around REF", "name the paper at the centre")
    if not dataclasses.replace(selection, around=None, hops=1).whole_graph:
        raise ParameterError(
            "graph-json takes --around, --hops, --layer and --limit only",
            "leave out --category, --years, --community and --top",
        )
    return graph.exports.graph_json(
        selection.around, path, cast(GraphLayer, layer), selection.hops, limit
    )
