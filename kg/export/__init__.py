"""Exports: a set of papers and the citations among them, written for other tools.

``kg.export.selection`` reads what to write (papers and citations, streamed in pages);
``kg.export.writers`` holds one writer per format in ``FORMATS``: GraphML and GEXF (Gephi),
Pajek, CSV, VOSviewer map and network files, BibTeX and RIS. ``export_graph_json`` writes
one layer of a paper's graph as the web view draws it (``graph_data``'s answer as JSON).
"""

from __future__ import annotations

from kg import queries
from kg.analytics.igraph_engine import COMMUNITY_PROPERTY
from kg.answers import ExportSummary, GraphLayer
from kg.database import Database
from kg.errors import ParameterError
from kg.export.selection import (
    ExportedPaper,
    Selection,
    citations,
    papers,
    select_keys,
)
from kg.export.writers import FORMATS, Source, check_folder_of
from kg.paths import PathArg, as_path
from kg.questions import graph_data

__all__ = [
    "FORMATS",
    "ExportedPaper",
    "Selection",
    "check_folder_of",
    "citations",
    "export",
    "export_graph_json",
    "papers",
    "select_keys",
]


def export(
    graph: Database, fmt: str, path: PathArg, selection: Selection | None = None
) -> ExportSummary:
    """Write the selected papers (and, for network formats, their citations) to ``path`` in
    format ``fmt`` (a key of FORMATS; csv and vosviewer write a folder). Raises
    ParameterError for an unknown format, a path whose folder does not exist (a folder
    format's own folder is made) or an unwritable path, and the errors of
    select_keys."""
    target = as_path(path, "path")
    selection = selection or Selection()
    if fmt not in FORMATS:
        raise ParameterError(f"no export format {fmt!r}", f"pass one of {', '.join(FORMATS)}")
    check_folder_of(target)
    keys = select_keys(graph, selection)
    if keys == []:
        hint = "widen the selection, or check it with kg search / kg category"
        if selection.top is not None:
            hint = (
                f"top ranks by {selection.rank_by}: store it first with `kg rank … --write` "
                "(or graph.analytics.rank(…, write=True))"
            )
        elif selection.community is not None and not _stored(graph, COMMUNITY_PROPERTY):
            hint = "no community is stored yet: run `kg communities --write` first"
        raise ParameterError(f"no paper matches the selection ({selection.describe()})", hint)
    writer = FORMATS[fmt]
    source = Source(lambda: papers(graph, keys), lambda: citations(graph, keys))
    summary = ExportSummary(format=fmt, path=str(target), selection=selection.describe())
    try:
        writer.write(source, target, summary)
    except OSError as exc:
        raise ParameterError(
            f"cannot write {target} ({exc.strerror})", "name a path in a folder you can write to"
        ) from exc
    return summary


def _stored(graph: Database, prop: str) -> bool:
    """Return whether an analytics run stored ``prop`` on the papers."""
    return any(run["property"] == prop for run in queries.analytics.runs.run(graph))


def export_graph_json(
    graph: Database,
    ref: str,
    path: PathArg,
    layer: GraphLayer,
    hops: int,
    limit: int | None,
) -> ExportSummary:
    """Write one ``layer`` of ``ref``'s paper's graph to ``path`` as JSON: exactly the
    answer of ``graph_data(ref, layer, hops, limit)``, which the web view's /graph.json
    serves too. Raises the errors of graph_data, and ParameterError for a path whose
    folder does not exist or that cannot be written."""
    target = as_path(path, "path")
    check_folder_of(target)
    answer = graph_data(graph, ref, layer, hops, limit)
    cited = sum(1 for edge in answer.edges if edge.kind == "cites")
    summary = ExportSummary(
        format="graph-json",
        path=str(target),
        selection=f"the {layer} layer of {answer.paper.handle}",
        papers=len(answer.nodes),
        citations=cited,
        links=len(answer.edges) - cited,
        files=[str(target)],
    )
    try:
        target.write_text(answer.model_dump_json(indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ParameterError(
            f"cannot write {target} ({exc.strerror})", "name a path in a folder you can write to"
        ) from exc
    return summary
