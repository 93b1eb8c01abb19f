"""What a new user's review of the CLI found, run on the default map: every table readable
at 80 and 140 columns, every handle shown usable as a REF, near ids suggested for a typo.
The review and the help examples name hep-th papers, so the module needs cit-HepTh, read
through KG_DATA_DIR: skipped with the reason where it is absent (never under CI=true)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from rich.cells import cell_len

from kg.cli import main
from kg.database import Database
from kg.server.config import Connection
from tests.integration.test_readme import HEPTH, _env, default_map

__all__ = ["default_map"]  # the module fixture, loaded once for these tests too

pytestmark = pytest.mark.needs_data(*HEPTH)


def _run(connection: Connection, args: list[str], columns: int = 80) -> Result:
    return CliRunner().invoke(main, args, env=_env(connection, columns))


@pytest.mark.parametrize("columns", [80, 140])
def test_categories_lists_cross_listing_one_pair_a_row(
    default_map: Database, neo4j_connection: Connection, columns: int
) -> None:
    result = _run(neo4j_connection, ["categories", "--limit", "5"], columns)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(cell_len(line) <= columns for line in lines)
    assert "┃┃" not in result.output
    assert "│…" not in result.output
    assert any("hep-th" in line and "math.QA" in line and "880" in line for line in lines)
    assert "showing 5 of 58 categories; --limit N to see more" in result.output
    assert "showing 5 of 57 pairs; --limit N to see more" in result.output
    payload = _run(neo4j_connection, ["categories", "--limit", "3", "--json"]).stdout
    assert payload.count('"cross":') == 3


def test_every_handle_kg_paper_shows_is_a_ref(
    default_map: Database, neo4j_connection: Connection
) -> None:
    shown = _run(neo4j_connection, ["paper", "1706.03762"], 140)
    assert "title:attention-is…:2017" in shown.output  # the year kept
    for ref in ("title:attention-is…:2017", "title:attention-is-all-you-need:2017"):
        result = _run(neo4j_connection, ["paper", ref, "--json"])
        assert result.exit_code == 0, result.output
        assert '"key": "1706.03762"' in result.stdout


@pytest.mark.parametrize(
    ("ref", "first"),
    [
        ("hep-th/9711201x", "hep-th/9711201"),
        ("hep-th/971120", "hep-th/9711200"),
        ("1706.0376", "1706.03762"),
        ("arXiv:1706.03763v2", "1706.03762"),
    ],
)
def test_a_mistyped_arxiv_id_suggests_the_nearest_ids(
    default_map: Database, neo4j_connection: Connection, ref: str, first: str
) -> None:
    result = _run(neo4j_connection, ["paper", ref], 200)
    assert result.exit_code == 1
    suggested = [line.split()[0] for line in result.output.splitlines()[1:] if line.strip()]
    assert suggested[0] == first, result.output
    assert all(key.startswith(first[:6]) for key in suggested), result.output
    assert "Comment on" not in result.output


def test_hints_name_the_command_that_helps(
    default_map: Database, neo4j_connection: Connection, tmp_path: Path
) -> None:
    community = _run(neo4j_connection, ["plot", "rank", "--property", "community", "-o", "x.png"])
    assert "`kg communities --write`" in community.output
    nosuch = _run(neo4j_connection, ["plot", "rank", "--property", "nosuch", "-o", "x.png"])
    assert "kg rank nosuch" not in nosuch.output
    assert "Pass one of pagerank," in nosuch.output
    out = str(tmp_path / "t.gexf")
    export = _run(neo4j_connection, ["export", "gexf", out, "--community", "3"])
    assert export.exit_code == 1
    assert "run `kg communities --write` first" in export.output
    env = {**_env(neo4j_connection, 80), "NEO4J_DATABASE": "nope"}
    missing = CliRunner().invoke(main, ["stats"], env=env)
    assert missing.exit_code == 1
    assert "Check NEO4J_DATABASE" in missing.output
    assert "check the query" not in missing.output


def _examples() -> list[list[list[str]]]:
    """Every `kg ...` example of every --help that does not manage the server or change
    the papers, as its steps ('kg rank pagerank --write, then kg plot rank ...')."""
    found: list[list[list[str]]] = []
    commands: list[click.Command] = [main]
    while commands:
        command = commands.pop()
        if isinstance(command, click.Group):
            commands.extend(command.commands.values())
        for example in re.findall(r"Example: (kg [^\n]+)", command.help or ""):
            steps = [shlex.split(part) for part in re.split(r" && | \|\| |, then ", example)]
            steps = [words[1:] for words in steps if words[0] == "kg"]
            steps = [words for words in steps if not _SKIP.intersection(words)]
            if steps and (len(steps) > 1 or "--write" not in steps[0]):
                found.append(steps)
    return sorted(found)


_SKIP = {"db", "init", "load", "serve", "unmerge", "--yes", "embed", "--semantic", "--hybrid"}
"""Examples that manage the server, change the papers or need `kg embed` first (hours on
cit-HepTh on this machine): tests/integration/test_embed.py runs the search-by-meaning ones
on a small embedded map."""
EXAMPLES = _examples()


@pytest.mark.parametrize(
    "steps", EXAMPLES, ids=[", ".join(" ".join(step) for step in s) for s in EXAMPLES]
)
def test_every_help_example_answers_on_the_default_map(
    default_map: Database,
    neo4j_connection: Connection,
    steps: list[list[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # where `kg export` and `kg plot` write their files
    for args in steps:
        result = _run(neo4j_connection, args, 120)
        assert result.exit_code == 0, result.output
        assert "no rows" not in result.output


def test_the_unmerge_example_names_a_merge_of_the_default_map(
    default_map: Database, neo4j_connection: Connection
) -> None:
    example = re.findall(r"Example: kg (unmerge [^\n]+)", main.commands["unmerge"].help or "")
    args = shlex.split(example[0])
    merges = _run(neo4j_connection, ["merges", args[1], "--json"])
    assert args[args.index("--key") + 1] in merges.stdout
