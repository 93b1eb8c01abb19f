"""Drawing a figure: a failure of matplotlib is a PlotError, never a traceback."""

from __future__ import annotations

import io

import pytest
from matplotlib.figure import Figure

from kg.errors import KGError, PlotError
from kg.plots import render


def test_a_drawing_failure_is_a_kg_error() -> None:
    figure = Figure()
    figure.add_subplot().set_title(r"$\half$")  # parsed as mathtext: an unknown symbol
    with pytest.raises(PlotError, match="could not draw the picture") as raised:
        render(figure, io.StringIO(), format="svg")
    assert isinstance(raised.value, KGError)
    assert "\n" not in str(raised.value)


def test_render_draws_literal_text() -> None:
    figure = Figure()
    figure.add_subplot().set_title(r"$\half$", parse_math=False)
    buffer = io.StringIO()
    render(figure, buffer, format="svg")
    assert r"\half" in buffer.getvalue()
