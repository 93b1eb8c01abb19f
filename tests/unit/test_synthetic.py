"""Unit tests for the benchmark's synthetic arXiv snapshot and citation edge list."""

from __future__ import annotations

import csv
import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from loaders.detect import detect_format
from loaders.formats import parse_file
from loaders.records import CitationRecord, PaperRecord, Rejected
from tests.bench.synthetic import CATEGORIES, MEAN_REFERENCES, generate, main, paper_id


def _edges(path: Path) -> list[tuple[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        assert next(reader) == ["citing", "cited"]
        return [(citing, cited) for citing, cited in reader]


def _records(path: Path) -> list[dict[str, object]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def test_the_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    first = generate(300, 7, tmp_path / "a")
    second = generate(300, 7, tmp_path / "b")
    other = generate(300, 8, tmp_path / "c")
    assert first.arxiv.read_bytes() == second.arxiv.read_bytes()
    assert first.edges.read_bytes() == second.edges.read_bytes()
    assert first.edges.read_bytes() != other.edges.read_bytes()


def test_counts_ids_and_fields(tmp_path: Path) -> None:
    made = generate(2000, 1, tmp_path)
    records = _records(made.arxiv)
    edges = _edges(made.edges)
    assert len(records) == made.papers == 2000
    assert len(edges) == made.citations
    ids = [str(r["id"]) for r in records]
    assert len(set(ids)) == 2000
    assert ids == sorted(ids)  # posting order is id order
    assert ids[0] == "1501.00001"
    assert all(len(i) == 10 and i[4] == "." for i in ids)
    # About cit-HepTh's 12.7 references per paper.
    assert 0.8 * MEAN_REFERENCES < len(edges) / 2000 < 1.2 * MEAN_REFERENCES
    first = records[0]
    assert set(first) >= {
        "id",
        "authors",
        "authors_parsed",
        "title",
        "categories",
        "abstract",
        "versions",
        "update_date",
    }
    assert all(code in CATEGORIES for r in records for code in str(r["categories"]).split())


def test_edges_point_to_older_papers_only(tmp_path: Path) -> None:
    made = generate(1500, 3, tmp_path)
    edges = _edges(made.edges)
    assert all(citing != cited for citing, cited in edges)
    assert all(cited < citing for citing, cited in edges)  # ids sort in posting order
    assert len(set(edges)) == len(edges)


def test_in_degrees_follow_a_power_law(tmp_path: Path) -> None:
    made = generate(5000, 11, tmp_path)
    in_degree = Counter(cited for _, cited in _edges(made.edges))
    mean = made.citations / made.papers
    assert max(in_degree.values()) > 20 * mean
    # Most papers are cited rarely: the median is far below the mean.
    degrees = sorted(in_degree.get(paper_id(i, 5000), 0) for i in range(5000))
    assert degrees[len(degrees) // 2] < mean / 2


def test_the_project_parsers_accept_every_line(tmp_path: Path) -> None:
    made = generate(200, 5, tmp_path)
    assert detect_format(made.arxiv) == "arxiv_oai"
    assert detect_format(made.edges) == "edge_list"
    papers = list(parse_file(made.arxiv, "arxiv_oai"))
    citations = list(parse_file(made.edges, "edge_list"))
    assert not any(isinstance(item, Rejected) for item in papers + citations)
    records = [item for item in papers if isinstance(item, PaperRecord)]
    assert len(records) == 200
    assert all(r.title and r.authors and r.primary_category and r.published for r in records)
    assert sum(isinstance(item, CitationRecord) for item in citations) == made.citations


def test_too_few_papers_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least one paper"):
        generate(0, 1, tmp_path)


def test_the_command_line_writes_a_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["--papers", "50", "--seed", "2", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "50 papers" in out
    assert (tmp_path / "arxiv-50-s2.jsonl.gz").exists()
    assert (tmp_path / "cites-50-s2.csv").exists()
