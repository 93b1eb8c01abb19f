"""Unit tests for the source parsers' benchmark inputs (tests/bench/sources.py), on a small set:
each file is read as its format, every record loads, and the same seed gives the same bytes."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from loaders.detect import detect_format
from tests.bench.sources import INPUTS, Input, make_inputs, parse_once

PAPERS = 80


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    return make_inputs(PAPERS, 3, tmp_path_factory.mktemp("sources"))


@pytest.mark.parametrize("spec", INPUTS, ids=[spec.name for spec in INPUTS])
def test_each_input_is_its_format_and_loads_whole(
    made: dict[str, dict[str, Any]], spec: Input
) -> None:
    found = made[spec.name]
    path = Path(found["path"])
    assert detect_format(path) == spec.fmt
    with gzip.open(path) if spec.gzipped else path.open("rb") as handle:
        lines = handle.read().splitlines()
    assert len(lines) == found["lines"]
    assert all(isinstance(json.loads(line), dict) for line in lines)
    counts = parse_once(path, spec.fmt)["counts"]
    assert counts.get("Rejected", 0) == 0
    for kind in ("PaperRecord", "CitationRecord", "Skipped"):
        assert counts.get(kind, 0) == found["expected"].get(kind, 0), kind
    if spec.name != "s2-citations":
        assert counts["PaperRecord"] == PAPERS


def test_the_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    first = make_inputs(40, 5, tmp_path / "a", ("openalex", "unarxive"))
    again = make_inputs(40, 5, tmp_path / "b", ("openalex", "unarxive"))
    other = make_inputs(40, 6, tmp_path / "c", ("openalex",))
    for name in ("openalex", "unarxive"):
        assert Path(first[name]["path"]).read_bytes() == Path(again[name]["path"]).read_bytes()
    assert (
        Path(first["openalex"]["path"]).read_bytes() != Path(other["openalex"]["path"]).read_bytes()
    )


def test_a_second_call_reuses_the_files(tmp_path: Path) -> None:
    first = make_inputs(30, 1, tmp_path, ("crossref",))
    path = Path(first["crossref"]["path"])
    stamp = path.stat().st_mtime_ns
    second = make_inputs(30, 1, tmp_path, ("crossref", "s2-papers"))
    assert path.stat().st_mtime_ns == stamp
    assert Path(second["s2-papers"]["path"]).exists()
    assert second["crossref"] == first["crossref"]
