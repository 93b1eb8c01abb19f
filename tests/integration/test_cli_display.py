"""The CLI on the example map at 80 columns, against a real Neo4j: titles shown as they print
(no LaTeX left), no title cell broken mid-word, no line wider than the terminal; and a search
typed in the rendered form finding the same paper as one typed in LaTeX."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rich.cells import cell_len
from starlette.testclient import TestClient

from kg.cli import main
from kg.cli.tables import clean
from kg.database import Database
from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from kg.text import display
from kg.web import create_app

WIDTH = 80
# Papers with LaTeX in their titles, citing the map's papers so that the analytics rank them.
LATEX_TITLES = {
    "2101.90001": r"Softly-Broken {\cal N} = 4 Supersymmetry and Attention on AdS$_5$",
    "2101.90002": r"$\lambda\phi^4$ Transformers at Large $N$: M\"uller's Bound",
}
# LaTeX left in a shown title; ``\\x07`` is how a table shows a control character, not LaTeX.
LEFTOVER = re.compile(r"\{\\cal|\$_|\$|\\(?!x[0-9a-f]{2})[a-zA-Z]")


@pytest.fixture
def latex_map(small_map: Database, kg_env: Connection) -> Database:
    """The example map, plus two papers with LaTeX titles citing its most cited papers."""
    for number, (key, title) in enumerate(LATEX_TITLES.items()):
        small_map.write(
            "MERGE (p:Paper {key: $key}) SET p.arxiv_id = $key, p.title = $title, "
            "p.year = $year, p.stub = false "
            "WITH p MATCH (q:Paper) WHERE q.key IN ['2110.03888', $cited] MERGE (p)-[:CITES]->(q)",
            {"key": key, "title": title, "year": 2021 + number, "cited": "2101.99999"},
        )
    small_map.write(
        "MATCH (p:Paper {key: '2101.90002'}), (q:Paper {key: '2101.90001'}) MERGE (p)-[:CITES]->(q)"
    )
    return small_map


def _run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": str(WIDTH)})
    assert result.exit_code == 0, result.output
    return result


def _json(*args: str) -> Any:
    return json.loads(_run(*args, "--json").stdout)


def _title_cells(output: str, column: int, start: int) -> list[str]:
    """Return each row's title cell of the table in ``output``, its wrapped lines joined by a
    space; a row starts where its cell of column ``start`` (a rank, a score) is not empty."""
    cells: list[list[str]] = []
    for line in output.splitlines():
        if not line.startswith("│"):
            continue
        parts = [part.strip() for part in line.split("│")[1:-1]]
        if parts[start]:
            cells.append([])
        if cells and parts[column]:
            cells[-1].append(parts[column])
    return [" ".join(lines) for lines in cells]


def _whole_words(cell: str, title: str) -> bool:
    """True when ``cell`` shows ``title`` (as it prints) in whole words: all of it, or its
    first words then '…'."""
    shown = " ".join(clean(display(title)).split())  # a control character shows as \\xNN
    if cell == shown:
        return True
    head = cell.removesuffix("…").rstrip()
    return cell.endswith("…") and (shown + " ").startswith(head + " ")


def _check(
    args: tuple[str, ...], results: list[dict[str, Any]], column: int, start: int = 0
) -> None:
    output = _run(*args).output
    wide = [line for line in output.splitlines() if cell_len(line) > WIDTH]
    assert wide == [], f"kg {' '.join(args)}: lines wider than {WIDTH}"
    cells = _title_cells(output, column, start)
    assert [c for c in cells if LEFTOVER.search(c)] == [], f"kg {' '.join(args)} shows LaTeX"
    titles = [row["title"] or "" for row in results]
    assert len(cells) == len(titles) > 0, output
    broken = [
        (cell, title)
        for cell, title in zip(cells, titles, strict=True)
        if not _whole_words(cell, title)
    ]
    assert broken == [], f"kg {' '.join(args)}: title cells broken mid-word:\n{output}"


@pytest.mark.parametrize(
    "args",
    [
        ("rank", "pagerank", "--top", "80"),
        ("rank", "betweenness", "--top", "80"),
        ("beauties", "--min-citations", "1"),
        ("traction", "--min-citations", "1", "--min-cohort", "1"),
    ],
)
def test_ranked_titles_fit_80_columns_in_whole_words(
    latex_map: Database, args: tuple[str, ...]
) -> None:
    _run("rank", "pagerank", "--write")
    _check(args, _json(*args)["results"], column=3)


@pytest.mark.parametrize("text", ["attention", "supersymmetry transformers bound"])
def test_search_titles_fit_80_columns_in_whole_words(latex_map: Database, text: str) -> None:
    _check(("search", text), _json("search", text)["results"], column=2, start=-1)


@pytest.mark.parametrize(
    ("raw", "rendered"),
    [("AdS$_5$", "AdS₅"), (r"{\cal N} = 4", "𝒩 = 4"), (r"$\lambda\phi^4$", "λφ⁴")],
)
def test_search_finds_a_paper_in_either_form(latex_map: Database, raw: str, rendered: str) -> None:
    by_raw = [hit["key"] for hit in _json("search", raw)["results"]]
    by_rendered = [hit["key"] for hit in _json("search", rendered)["results"]]
    assert by_raw[:1] == by_rendered[:1]
    assert by_raw[0] in LATEX_TITLES


def test_json_keeps_the_raw_title_and_the_table_and_pages_show_it_rendered(
    latex_map: Database, kg_env: Connection
) -> None:
    paper = _json("paper", "2101.90001")
    assert paper["title"] == LATEX_TITLES["2101.90001"]
    shown = "Softly-Broken 𝒩 = 4 Supersymmetry and Attention on AdS₅"
    table = CliRunner().invoke(main, ["paper", "2101.90001"], env={"COLUMNS": "200"}).output
    assert shown in table
    assert "{\\cal" not in table
    app = create_app(lambda: KnowledgeGraph.connect(kg_env))
    with TestClient(app, base_url="http://127.0.0.1") as web:
        own = web.get("/paper/2101.90001").text
        cited = web.get("/paper/2110.03888").text  # its citers' table lists both
        found = web.get("/search", params={"q": "AdS₅"}).text
    assert shown in own
    assert "λφ⁴ Transformers at Large N: Müller&#39;s Bound" in cited
    assert shown in found
    for page in (own, cited, found):
        assert "{\\cal" not in page
        assert "$_" not in page
