"""`kg export`: the map, or part of it, in the formats other tools read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kg.cli.app import (
    IDENTIFIER,
    count,
    emitted,
    json_command,
    number_option,
    open_graph,
    options_into,
    plural,
)
from kg.export import FORMATS, Selection
from kg.knowledge_graph import parse_years


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
    number_option("--hops", default=1, high=3, help="With --around."),
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
    click.argument("fmt", metavar="FORMAT", type=click.Choice(list(FORMATS))),
    click.argument("path", type=click.Path(path_type=Path)),
    _selection_options,
)
def export_command(
    ctx: click.Context, fmt: str, path: Path, selection: Selection, as_json: bool
) -> None:
    """Write papers and their citations as GraphML, GEXF, Pajek, CSV, VOSviewer, BibTeX or RIS.

    FORMAT is one of: graphml, gexf (Gephi), pajek, csv and vosviewer (PATH is a folder),
    bibtex, ris. Without a filter the whole graph is written, streamed page by page. Filters
    combine. In csv, a text cell that starts with =, +, -, @, a tab or a carriage return
    (a title, a name) gets a ' before it, so that a spreadsheet shows it and does not run
    it as a formula; numbers are written as they are.
    Example: kg export gexf hepth.gexf --category hep-th --years 1997-1999
    """
    summary = open_graph(ctx).exports.write(fmt, path, selection)
    if emitted(summary, as_json):
        return
    network = "" if fmt in ("bibtex", "ris") else f" and {plural(summary.citations, 'citation')}"
    click.echo(
        f"wrote {plural(summary.papers, 'paper')}{network} ({summary.selection}) to "
        + ", ".join(summary.files)
    )
    if summary.skipped:
        click.echo(
            f"skipped {plural(summary.skipped, 'citation')} to or from papers written after "
            "the papers were read (a load ran during the export): export again for a whole picture"
        )
