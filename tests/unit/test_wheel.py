"""The wheel ships the .cypher files and the installed package finds them."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import kg

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_with_its_queries(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path)],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    wheels = list(tmp_path.glob("*.whl"))
    assert len(wheels) == 1
    with zipfile.ZipFile(wheels[0]) as wheel:
        top_level = {name.split("/")[0] for name in wheel.namelist()}
        shipped = set(wheel.namelist())
    # The graph view's library is served by the app itself, with its licence beside it.
    assert {
        "kg/web/static/graph.js",
        "kg/web/static/vendor/cytoscape.min.js",
        "kg/web/static/vendor/cytoscape.LICENSE",
    } <= shipped
    # Two packages: kg, and the parsers as `loaders`, the name they have in the checkout, so
    # that one module has one name everywhere (docs/ARCHITECTURE.md says why not kg.loaders).
    assert top_level == {"kg", "loaders", f"kg_map-{kg.__version__}.dist-info"}
    assert not any(name.startswith("kg/loaders/") for name in shipped)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheels[0])], check=True, capture_output=True
    )
    help_run = subprocess.run(
        [str(env_dir / "bin" / "kg"), "--help"], capture_output=True, text=True, check=True
    )
    assert "Usage: kg" in help_run.stdout
    probe = (
        "from kg import queries; q = queries.questions.paper_by_key; "
        "print(q.path); print(sorted(p.name for p in q.params))"
    )
    loaded = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    path_line, params_line = loaded.stdout.strip().splitlines()
    assert "site-packages/kg/cypher/questions/paper_by_key.cypher" in path_line
    assert params_line == "['key']"
    parsers = subprocess.run(
        [str(python), "-c", "from loaders.taxonomy import category; print(category('hep-th'))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert "High Energy Physics" in parsers.stdout
