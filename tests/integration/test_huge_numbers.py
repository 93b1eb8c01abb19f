"""A whole number beyond Neo4j's 64-bit INTEGER, from an option, a query parameter or the
library, is a KGError (a usage error in the CLI), never the driver's OverflowError: the
library's bound (kg.numbers.MAX_COUNT) refuses a count first, a query's parameter type
(kg.queries.Param.coerce) a number it cannot carry."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kg import KnowledgeGraph
from kg.cli import main
from kg.database import Database
from kg.errors import ParameterError
from kg.knowledge_graph import parse_years
from kg.server.config import Connection

HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["search", "attention", "--limit", HUGE], f"limit is {HUGE}. Pass a limit from 1 to"),
        (["near", "1810.04805", "--limit", HUGE], f"limit is {HUGE}"),
        (["export", "csv", "out", "--community", HUGE], "is not in the range"),
        (["rank", "pagerank", "--years", f"1-{HUGE}"], f"'1-{HUGE}' is not a year range"),
        (["export", "csv", "out", "--years", HUGE], f"'{HUGE}' is not a year range"),
        (
            ["query", "questions.search_titles", "-p", "query=a", "-p", f"limit={HUGE}"],
            f"parameter $limit is {HUGE}, too large for Neo4j",
        ),
    ],
)
def test_huge_numbers_in_the_cli(
    small_map: Database, kg_env: Connection, args: list[str], error: str
) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code in (1, 2), result.output
    assert error in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_huge_numbers_in_the_library(small_map: Database) -> None:
    graph = KnowledgeGraph.on(small_map)
    with pytest.raises(
        ParameterError, match=r"limit is 10+\. Pass a limit from 1 to 1,000,000,000"
    ):
        graph.search("attention", limit=10**20)
    with pytest.raises(ParameterError, match="not a year range"):
        parse_years(f"1-{HUGE}")
    with pytest.raises(ParameterError, match="too large for Neo4j"):
        small_map.read("RETURN $n AS n", {"n": 10**20})
    assert small_map.read("RETURN $n AS n", {"n": 2**63 - 1}) == [{"n": 2**63 - 1}]
