"""The graph view's similarity layers: a paper's co-cited or coupled papers as a map.

As Connected Papers draws it: the nodes are the paper and its top ``limit`` co-cited (or
coupled) papers, from the same questions the CLI and the Python API answer
(``questions.cocited`` / ``questions.coupled``), and an edge joins two shown papers when they
are co-cited (or coupled) with each other, from one query over the shown keys
(``cocitation_among`` / ``coupling_among``). Edges are weighted by cosine: the layout pulls
heavier pairs closer and draws them wider. Node size and colour follow the citation view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import igraph
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from kg import queries, questions
from kg.answers import Similarity, short_handle
from kg.database import Database
from kg.export.selection import ExportedPaper, papers

__all__ = ["LAYERS", "Layer", "SimilarityMap", "similarity_map"]

Layer = Literal["cocited", "coupled"]
LAYERS: Final[dict[str, str]] = {"cocited": "co-citation", "coupled": "coupling"}
_AMONG: Final[dict[Layer, str]] = {
    "cocited": "questions.cocitation_among",
    "coupled": "questions.coupling_among",
}
_LABELLED: Final = 12


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
    graph: Database,
    ref: str,
    layer: Layer,
    limit: int = 20,
    seed: int = 42,
    link: Callable[[str], str] | None = None,
) -> SimilarityMap:
    """Return the ``layer`` map of ``ref``'s paper and its top ``limit`` similar papers.
    With ``link``, each node of the SVG links to ``link(key)``.
    Raises PaperNotFound, AmbiguousPaper or ParameterError."""
    ask = questions.cocited if layer == "cocited" else questions.coupled
    similarity = ask(graph, ref, limit)
    keys = sorted({similarity.paper.key, *(p.key for p in similarity.results)})
    edges = [
        Edge(row["a"], row["b"], row["together"], row["cosine"])
        for row in queries.get(_AMONG[layer]).run(graph, keys=keys)
    ]
    nodes = list(papers(graph, keys))
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
    network = igraph.Graph(n=len(nodes), edges=pairs, directed=False)
    random.seed(seed)  # igraph's layouts draw from Python's random module
    weights = [e.cosine for e in edges] if edges else None
    layout = network.layout_fruchterman_reingold(weights=weights, niter=500)
    xs, ys = [c[0] for c in layout.coords], [c[1] for c in layout.coords]
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
    labelled = sorted(nodes, key=lambda p: (p.key != centre, -p.cited_by, p.key))
    for paper in labelled[:_LABELLED]:
        number = index[paper.key]
        axes.annotate(
            short_handle(paper.key, paper.arxiv_id),
            (xs[number], ys[number]),
            textcoords="offset points",
            xytext=(6, 6),
            fontsize=8,
            zorder=4,
        )
    axes.set_axis_off()
    shown = len(nodes) - 1
    title = f"{LAYERS[layer].capitalize()} of {similarity.paper.handle}: the top {shown:,}"
    axes.set_title(title if len(title) <= 80 else title[:79] + "…")
    return figure
