"""`kg export`: the map, or part of it, in the formats other tools read."""

from __future__ import annotations

from pathlib import Path

import click

from kg.cli.app import emit_json, json_option, main, open_graph
from kg.export import FORMATS, Selection
from kg.knowledge_graph import parse_years


@main.command("export")
@click.argument("fmt", metavar="FORMAT", type=click.Choice(list(FORMATS)))
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--around", metavar="REF", help="Only the papers near this one (see --hops).")
@click.option(
    "--hops", default=1, show_default=True, type=click.IntRange(1, 3), help="With --around."
)
@click.option("--category", help="Only papers in this arXiv category (primary or cross-listed).")
@click.option("--years", help="Only papers of these years: 1997-1999, 1997-, -1999 or 1998.")
@click.option("--community", type=int, help="Only this community (from kg communities --write).")
@click.option("--top", type=click.IntRange(min=1), help="Only the top N by --by.")
@click.option(
    "--by",
    "rank_by",
    default="pagerank",
    show_default=True,
    help="The property --top ranks by, written by kg rank --write.",
)
@json_option
@click.pass_context
def export_command(
    ctx: click.Context,
    fmt: str,
    path: Path,
    around: str | None,
    hops: int,
    category: str | None,
    years: str | None,
    community: int | None,
    top: int | None,
    rank_by: str,
    as_json: bool,
) -> None:
    """Write papers and their citations as GraphML, GEXF, Pajek, CSV, VOSviewer, BibTeX or RIS.

    FORMAT is one of: graphml, gexf (Gephi), pajek, csv and vosviewer (PATH is a folder),
    bibtex, ris. Without a filter the whole graph is written, streamed page by page. Filters
    combine. Example: kg export gexf hepth.gexf --category hep-th --years 1997-1999
    """
    # Option by option into the Selection, by keyword: alike in shape to other keyword
    # calls, and the one place the options meet the library's names.
    first, last = parse_years(years) if years else (None, None)
    selection = Selection(
        around=around,
        hops=hops,
        category=category,
        year_from=first,
        year_to=last,
        community=community,
        top=top,
        rank_by=rank_by,
    )
    summary = open_graph(ctx).exports.write(fmt, path, selection)
    if as_json:
        emit_json(summary.as_dict())
        return
    network = "" if fmt in ("bibtex", "ris") else f" and {summary.citations:,} citations"
    click.echo(
        f"wrote {summary.papers:,} papers{network} ({summary.selection}) to "
        + ", ".join(summary.files)
    )
