"""The graph view's similarity layers: a paper's co-cited or coupled papers as a map.

As Connected Papers draws it: the nodes are the paper and its top ``limit`` co-cited (or
coupled) papers, from the same KnowledgeGraph questions the CLI and scripts ask
(``graph.cocited`` / ``graph.coupled``), and an edge joins two shown papers when they
are co-cited (or coupled) with each other, from one query over the shown keys
(``cocitation_among`` / ``coupling_among``). Edges are weighted by cosine: the layout pulls
heavier pairs closer and draws them wider. Node size and colour follow the citation view
(``kg.plots.draw_papers``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from matplotlib.figure import Figure

from kg import queries
from kg.answers import Similarity
from kg.errors import ParameterError
from kg.export import ExportedPaper
from kg.knowledge_graph import KnowledgeGraph
from kg.numbers import whole_number
from kg.plots import draw_papers, lay_out, short_title

__all__ = ["LAYERS", "Edge", "Layer", "SimilarityMap", "similarity_map"]

Layer = Literal["cocited", "coupled"]
LAYERS: Final[dict[str, str]] = {"cocited": "co-citation", "coupled": "coupling"}
_AMONG: Final[dict[Layer, str]] = {
    "cocited": "questions.cocitation_among",
    "coupled": "questions.coupling_among",
}


@dataclass(frozen=True)
class Edge:
    """Two shown papers that are co-cited (or coupled) with each other."""

    a: str
    b: str
    together: int
    cosine: float


@dataclass(frozen=True)
class SimilarityMap:
    """A similarity layer: what was asked, the papers shown, the edges among them, the figure."""

    similarity: Similarity
    nodes: list[ExportedPaper]
    edges: list[Edge]
    figure: Figure


def similarity_map(
    graph: KnowledgeGraph,
    ref: str,
    layer: Layer,
    limit: int = 20,
    seed: int = 42,
    link: Callable[[str], str] | None = None,
) -> SimilarityMap:
    """Return the ``layer`` map of ``ref``'s paper and its top ``limit`` similar papers.
    With ``link``, each node of the SVG links to ``link(key)``.
    Raises PaperNotFound, AmbiguousPaper or ParameterError (a layer other than cocited or
    coupled, a limit below 1)."""
    if layer not in _AMONG:
        raise ParameterError(
            f"no similarity layer {layer!r}", f"pass a layer: {' or '.join(_AMONG)}"
        )
    seed = whole_number("seed", seed)
    similarity = graph.cocited(ref, limit) if layer == "cocited" else graph.coupled(ref, limit)
    keys = sorted({similarity.paper.key, *(p.key for p in similarity.results)})
    edges = [
        Edge(row["a"], row["b"], row["together"], row["cosine"])
        for row in queries.get(_AMONG[layer]).run(graph, keys=keys)
    ]
    nodes = list(graph.exports.papers(keys))
    return SimilarityMap(
        similarity, nodes, edges, _draw(similarity, nodes, edges, layer, seed, link)
    )


def _draw(
    similarity: Similarity,
    nodes: list[ExportedPaper],
    edges: list[Edge],
    layer: Layer,
    seed: int,
    link: Callable[[str], str] | None,
) -> Figure:
    centre = similarity.paper.key
    index = {paper.key: number for number, paper in enumerate(nodes)}
    pairs = [(index[e.a], index[e.b]) for e in edges]
    weights = [e.cosine for e in edges] if edges else None
    xs, ys = lay_out(len(nodes), pairs, seed, directed=False, weights=weights)
    figure = Figure(figsize=(9, 8))
    axes = figure.add_subplot()
    heaviest = max((e.cosine for e in edges), default=1.0) or 1.0
    for number, (edge, (a, b)) in enumerate(zip(edges, pairs, strict=True)):
        axes.plot(
            [xs[a], xs[b]],
            [ys[a], ys[b]],
            color="#8a8a8a",
            alpha=0.35 + 0.5 * edge.cosine / heaviest,
            linewidth=0.5 + 5.5 * edge.cosine / heaviest,
            zorder=1,
            gid=f"edge-{number}",
        )
    draw_papers(figure, axes, xs, ys, nodes, centre, link)
    axes.set_axis_off()
    shown = len(nodes) - 1
    title = f"{LAYERS[layer].capitalize()} of {similarity.paper.handle}: the top {shown:,}"
    axes.set_title(short_title(title), parse_math=False)
    return figure
