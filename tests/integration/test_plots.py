"""Pictures: valid PNG, SVG and PDF files, and figures that show the data asked for, drawn
through the face (``graph.plots``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy
import pytest
from click.testing import CliRunner
from matplotlib import colormaps
from matplotlib.collections import PathCollection
from matplotlib.patches import Rectangle

from kg import KnowledgeGraph, questions
from kg.cli import main
from kg.database import Database
from kg.plots import short_title
from kg.server.config import Connection
from kg.text import display


def test_years_shows_counted_beside_stated(small_map: Database) -> None:
    figure = KnowledgeGraph.on(small_map).plots.years("2110.03888")
    axes = figure.axes[0]
    counted, stated = axes.containers
    labels = [tick.get_text() for tick in axes.get_xticklabels()]
    assert labels == ["2021", "2022", "2023", "2024", "2025"]
    report = questions.paper_report(small_map, "2110.03888")
    graph_counts = {str(c.year): c.count for c in report.citers_per_year}
    assert [bar.get_height() for bar in counted] == [graph_counts.get(y, 0) for y in labels]
    assert [bar.get_height() for bar in stated] == [2, 14, 5, 7, 3]
    assert axes.get_legend() is not None


def test_ego_draws_the_neighbourhood(small_map: Database) -> None:
    graph = KnowledgeGraph.on(small_map)
    near = questions.neighbourhood(small_map, "2110.03888", 1, 1000)
    answer = graph.graph_data("2110.03888", "citations", 1, 10)
    figure = graph.plots.ego("2110.03888", hops=1, limit=10)
    assert len(figure.axes) == 1  # no colour bar beside the drawing
    axes = figure.axes[0]
    (points,) = [c for c in axes.collections if isinstance(c, PathCollection)]
    # matplotlib annotates get_offsets as any ArrayLike; it returns an (N, 2) ndarray.
    assert len(points.get_offsets()) == min(10, near.total) + 1  # type: ignore[arg-type]
    labels = [text.get_text() for text in axes.texts if text.get_text()]
    arrows = [text for text in axes.texts if not text.get_text()]
    assert len(arrows) == len(answer.edges) > 0
    report = questions.paper_report(small_map, "2110.03888")
    assert report.title
    assert short_title(report.title, 30) in labels  # the paper's title, shortened
    assert len(labels) == min(13, len(points.get_offsets()))  # type: ignore[arg-type]
    assert all(len(label) <= 30 for label in labels)
    assert "Within 1 hop of 2110.03888" in axes.get_title()
    # colour is the year on the whole graph's first..last scale, the same in every picture
    years = small_map.read("MATCH (p:Paper) RETURN min(p.year) AS first, max(p.year) AS last")
    first, last = years[0]["first"], years[0]["last"]
    assert (answer.first_year, answer.last_year) == (first, last)
    viridis = colormaps["viridis"]
    faces = numpy.asarray(points.get_facecolor())  # an (N, 4) array of RGBA
    for node, colour in zip(answer.nodes, faces, strict=True):
        if node.year is not None:
            assert tuple(colour) == pytest.approx(viridis((node.year - first) / (last - first)))
    sizes = list(points.get_sizes())
    by_citers = sorted(range(len(sizes)), key=lambda n: answer.nodes[n].cited_by)
    assert [sizes[n] for n in by_citers] == sorted(sizes)
    legends = [t.get_text() for legend in figure.legends for t in legend.get_texts()]
    assert "cited by 1" in legends
    assert "the paper" in legends


def test_rank_distribution_counts_every_paper(small_map: Database) -> None:
    plots = KnowledgeGraph.on(small_map).plots
    with pytest.raises(Exception, match="no paper holds 'pagerank'"):
        plots.rank_distribution()
    result = KnowledgeGraph.on(small_map).analytics.rank("pagerank", engine="igraph", write=True)
    figure = plots.rank_distribution()
    heights = 0.0
    for patch in figure.axes[0].patches:
        assert isinstance(patch, Rectangle)  # a histogram's bars
        heights += patch.get_height()
    assert heights == result.nodes


def test_files_are_valid(small_map: Database, tmp_path: Path) -> None:
    plots = KnowledgeGraph.on(small_map).plots
    figure = plots.years("1810.04805")
    png = plots.save(figure, tmp_path / "years.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = plots.save(figure, tmp_path / "years.svg")
    assert ET.parse(svg).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    pdf = plots.save(figure, tmp_path / "years.pdf")
    assert pdf.read_bytes()[:5] == b"%PDF-"


def test_plot_commands(small_map: Database, kg_env: Connection, tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["plot", "ego", "1810.04805", "-o", str(tmp_path / "e.svg")])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {tmp_path / 'e.svg'}\n"
    wrong = runner.invoke(main, ["plot", "years", "1810.04805", "-o", str(tmp_path / "y.txt")])
    assert wrong.exit_code == 2
    assert "Error: cannot tell the picture format of y.txt" in wrong.output
    missing = runner.invoke(main, ["plot", "rank", "--property", "hits_hub", "-o", "x.png"])
    assert missing.exit_code == 2
    assert "kg rank hits --write" in missing.output


MATH_TITLE = r"$N=\half$ Superstring in Zero Dimension, with $x^2$"


def test_titles_with_dollars_are_drawn_as_text(
    small_map: Database, kg_env: Connection, tmp_path: Path
) -> None:
    """A title holding $...$ (hep-th/9206086's $N=\\half$, an unknown mathtext symbol) was
    parsed as mathtext and ended in a ParseFatalException traceback; it is drawn as it prints
    (kg.text.display: no $, x²), never parsed as mathtext."""
    small_map.write(
        "MATCH (p:Paper {key: '1810.04805'}) SET p.title = $title", {"title": MATH_TITLE}
    )
    result = CliRunner().invoke(
        main, ["plot", "years", "1810.04805", "-o", str(tmp_path / "y.svg")]
    )
    assert result.exit_code == 0, result.output
    figure = KnowledgeGraph.on(small_map).plots.years("1810.04805")
    shown = "N=half Superstring in Zero Dimension, with x²"
    assert display(MATH_TITLE) == shown
    assert figure.axes[0].get_title() == f"Citers per year: {shown}"
    assert "$" not in figure.axes[0].get_title()
    assert "N=half" in (tmp_path / "y.svg").read_text()  # drawn as the characters themselves
    # the ego picture labels the paper by its title as it prints too
    labels = [
        text.get_text()
        for text in KnowledgeGraph.on(small_map).plots.ego("1810.04805").axes[0].texts
    ]
    assert any(label.startswith("N=half Superstring") for label in labels), labels
    assert not any("$" in label for label in labels), labels
