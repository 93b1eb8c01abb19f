"""A paper's graph as nodes and edges, one layer at a time: what the web view draws.

The citations layer is the paper's most cited papers within a few citation hops and the
citations among them (one query, ``neighbourhood_top``). The co-citation and coupling layers
are the paper's top papers by ``cocited`` / ``coupled`` (the same questions the CLI asks)
and, as Connected Papers draws them, a link for every pair of them that is co-cited or
coupled too (``cocitation_among`` / ``coupling_among``), weighted by its cosine. Every
node carries its in-graph cited-by count, and the answer carries the graph's first and
last year, so that a drawing sizes and colours every layer on one scale.
"""

from __future__ import annotations

from typing import Final

from kg import queries
from kg.answers import GraphData, GraphEdge, GraphLayer, GraphNode, PaperSummary
from kg.database import Database
from kg.errors import ParameterError
from kg.numbers import COUNT
from kg.questions.bounds import NEAR_HOPS
from kg.questions.neighbours import cocited, coupled
from kg.refs import resolve

__all__ = ["DEFAULT_GRAPH_LIMITS", "GRAPH_LAYERS", "graph_data"]

GRAPH_LAYERS: Final[dict[GraphLayer, str]] = {
    "citations": "citations",
    "cocited": "co-citation",
    "coupled": "coupling",
}
DEFAULT_GRAPH_LIMITS: Final[dict[GraphLayer, int]] = {"citations": 30, "cocited": 20, "coupled": 20}
_AMONG: Final = {"cocited": "questions.cocitation_among", "coupled": "questions.coupling_among"}


def graph_data(
    graph: Database,
    ref: str,
    layer: GraphLayer,
    hops: int,
    limit: int | None,
) -> GraphData:
    """Return one ``layer`` of ``ref``'s paper's graph as nodes and edges: ``citations``
    (its ``limit`` most cited papers within ``hops`` citation hops, either way, and the
    citations among them), ``cocited`` or ``coupled`` (its top ``limit`` papers by
    co-citation or coupling and the links among them, heaviest first). ``limit`` defaults
    to 30 for citations, 20 for the others. Raises PaperNotFound, AmbiguousPaper or
    ParameterError (another layer, hops not from 1 to 3, a limit below 1)."""
    if layer not in GRAPH_LAYERS:
        raise ParameterError(
            f"no graph layer {layer!r}", f"pass a layer: {', '.join(GRAPH_LAYERS)}"
        )
    hops = NEAR_HOPS.check("hops", hops)
    limit = DEFAULT_GRAPH_LIMITS[layer] if limit is None else COUNT.check("limit", limit)
    if layer == "citations":
        paper = resolve(graph, ref)
        row = queries.questions.neighbourhood_top.run(graph, key=paper.key, hops=hops, limit=limit)
        keys, total = row[0]["keys"], row[0]["total"]
        edges = [
            GraphEdge(source=citing, target=cited, kind="cites", weight=1.0)
            for citing, cited in row[0]["citations"]
        ]
        note = None if total else f"{paper.handle} has no citation links in the graph."
        return _answer(graph, paper, layer, hops, limit, total, keys, edges, note)
    similarity = cocited(graph, ref, limit) if layer == "cocited" else coupled(graph, ref, limit)
    keys = [similarity.paper.key, *(p.key for p in similarity.results)]
    pairs = queries.get(_AMONG[layer]).run(graph, keys=sorted(keys))
    edges = [
        GraphEdge(
            source=pair["a"],
            target=pair["b"],
            kind=layer,
            weight=pair["cosine"],
            together=pair["together"],
        )
        for pair in pairs
    ]
    edges.sort(key=lambda edge: (-edge.weight, edge.source, edge.target))
    total = len(similarity.results)
    return _answer(graph, similarity.paper, layer, None, limit, total, keys, edges, similarity.note)


def _answer(
    graph: Database,
    paper: PaperSummary,
    layer: GraphLayer,
    hops: int | None,
    limit: int,
    total: int,
    keys: list[str],
    edges: list[GraphEdge],
    note: str | None,
) -> GraphData:
    """The answer, with the nodes in the order of ``keys`` (the paper first); a paper gone
    between two queries (a load or merge in between) is left out with its edges."""
    found = {
        row["key"]: GraphNode.model_validate(row)
        for row in queries.questions.graph_papers.run(graph, keys=keys)
    }
    nodes = [found[key] for key in keys if key in found]
    edges = [edge for edge in edges if edge.source in found and edge.target in found]
    years = queries.questions.year_range.run(graph)
    return GraphData(
        paper=paper,
        layer=layer,
        hops=hops,
        limit=limit,
        total=total,
        first_year=years[0]["first"] if years else None,
        last_year=years[0]["last"] if years else None,
        nodes=nodes,
        edges=edges,
        note=note,
    )
