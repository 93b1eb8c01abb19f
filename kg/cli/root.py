"""The root `kg` group: how every command reports errors and --json, and which module holds
each command, loaded when it is called.

This module imports click and nothing heavy: `kg --version` and `kg --help` answer from it
alone, without the driver, pydantic, rich or the analytics. A command's module (and with it
the library) is imported when that command runs, or when its own help is asked for.
"""

from __future__ import annotations

import importlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from datetime import date, datetime
from typing import IO, Any, TypeVar

import click

from kg import __version__
from kg.errors import KGError, ParameterError
from loaders.errors import CONTROL

F = TypeVar("F", bound=Callable[..., Any])
JSON_KEY = "kg.json"
_ARGS_KEY = "kg.args"
# An error's own line breaks (a hint's list of candidates) are kept; every other control
# character prints as \xNN.
_ERROR_CONTROL = {code: text for code, text in CONTROL.items() if code != ord("\n")}

COMMANDS: dict[str, tuple[str, str]] = {
    "author": (
        "question_commands",
        (
            "An author's papers (newest first, then the most cited), co-authors and citation "
            "totals within the map."
        ),
    ),
    "beauties": (
        "timeline_commands",
        "List sleeping beauties: papers by the beauty coefficient B of Ke et al.",
    ),
    "bursts": (
        "timeline_commands",
        (
            "List citation bursts, strongest first: Kleinberg's two-state burst detection over "
            "each paper's citations per year, as CiteSpace does."
        ),
    ),
    "categories": (
        "question_commands",
        (
            "Papers per category, and how often papers of one primary are cross-listed in another"
            " (one row per pair, most papers first)."
        ),
    ),
    "category": (
        "question_commands",
        "A category's paper counts and its papers, most cited in the map first.",
    ),
    "cocited": (
        "question_commands",
        "Papers most often cited together with a paper, with cosine and Jaccard scores.",
    ),
    "common-citers": (
        "question_commands",
        "The papers that cite both A and B, most cited first.",
    ),
    "communities": (
        "analytics_commands",
        "Find communities of papers on the undirected citation graph.",
    ),
    "connect": (
        "question_commands",
        (
            "The literature connector: papers on the shortest citation paths between the seeds "
            "(REF A, REF B, ...), either direction, ranked by PageRank among the seeds and them."
        ),
    ),
    "coupled": (
        "question_commands",
        "Papers sharing the most references with a paper (bibliographic coupling).",
    ),
    "cypher": (
        "query_commands",
        "Run one Cypher statement.",
    ),
    "data": (
        "data_commands",
        "The public data sets: where they come from, and getting them onto this machine.",
    ),
    "db": (
        "db_commands",
        "Install, start, stop and inspect the local Neo4j 5.26 in $KG_HOME.",
    ),
    "embed": (
        "embed_commands",
        (
            "Embed each titled paper's title and abstract with a local model (no download, "
            "CPU) and store the vectors in the vector index paper_embedding, for `kg search "
            "--semantic`, `kg search --hybrid` and `kg similar REF --by text`."
        ),
    ),
    "export": (
        "export_commands",
        (
            "Write papers and their citations as GraphML, GEXF, Pajek, CSV, VOSviewer, BibTeX, "
            "RIS, or a paper's graph as JSON."
        ),
    ),
    "formats": (
        "load_commands",
        "List the input formats `kg load` reads, and what in a file tells each one.",
    ),
    "init": (
        "db_commands",
        "Apply cypher/schema.cypher: constraints, indexes and the title full-text index.",
    ),
    "load": (
        "load_commands",
        "Load map pages, paper JSON records, arXiv snapshots, edge lists or .abs files.",
    ),
    "mainpath": (
        "timeline_commands",
        (
            "Show the main path of the citations: search path count (SPC) weights, the global "
            "main path and the key-route main path."
        ),
    ),
    "merges": (
        "identity_commands",
        (
            "The merge records: papers that absorbed other keys, by which rule, from which "
            "snapshots."
        ),
    ),
    "near": (
        "question_commands",
        "The papers within K citation hops of a paper, nearest first, then the most cited.",
    ),
    "paper": (
        "question_commands",
        "The map page of a paper rebuilt from the graph: graph counts beside stated ones.",
    ),
    "path": (
        "question_commands",
        "The shortest citation path from A to B, following CITES forward (A cites ...",
    ),
    "plot": (
        "plot_commands",
        ("Pictures of the map: citers per year, a paper's neighbourhood, a centrality's spread."),
    ),
    "queries": (
        "query_commands",
        "List the named questions with their parameters, by folder (--all: every query).",
    ),
    "query": (
        "query_commands",
        "Run a named query from cypher/ with parameters, as its file's mode says.",
    ),
    "rank": (
        "analytics_commands",
        "Rank papers by pagerank, betweenness, indegree, outdegree, hits or kcore.",
    ),
    "recommend": (
        "question_commands",
        (
            "Papers most related to the seeds (REF ...) by co-citation, coupling and direct "
            "citations together (Adamic-Adar over the seed set), each with its reasons."
        ),
    ),
    "search": (
        "question_commands",
        (
            "Find papers by title words (full-text index), arXiv id or node key; by meaning "
            "with --semantic; by words, meaning and citations together with --hybrid."
        ),
    ),
    "serve": (
        "serve_commands",
        (
            "Serve the map as a read-only web app: search, paper pages, co-citation and coupling "
            "with their reasons, author and category pages, and a graph view."
        ),
    ),
    "shared-refs": (
        "question_commands",
        "The papers both A and B cite, most cited first.",
    ),
    "similar": (
        "analytics_commands",
        "The stored co-citation and coupling lists; with --write, compute and store them.",
    ),
    "snapshots": (
        "question_commands",
        "The snapshots that describe a paper, oldest first, with the counts each one stated.",
    ),
    "stats": (
        "db_commands",
        (
            "Count nodes per label and relationships per type, for every label and type in the "
            "database (the analytics' too, such as PageRankTop1 and CO_CITED)."
        ),
    ),
    "traction": (
        "timeline_commands",
        "List papers gaining traction: recent citations against what their age predicts.",
    ),
    "unmerge": (
        "identity_commands",
        "Split a wrong merge, and keep the keys apart on every later load.",
    ),
}
"""Each command's module in kg.cli and its short help, as `kg --help` lists it without
loading the module; tests/unit/test_cli_start.py checks both against the commands."""


class KGFailure(click.ClickException):
    """A KGError as one line, ``Error: message; hint``, and exit code 1."""

    def __init__(self, error: KGError) -> None:
        # The library escapes the data it puts in an error; this catches any it missed
        # (a server's words, a file's name), keeping the error's own line breaks.
        super().__init__(str(error).translate(_ERROR_CONTROL))


class KGUsageFailure(KGFailure):
    """A ParameterError, the library's one check of an argument (a --limit out of its
    bounds): a usage error, with click's exit code 2 for one."""

    exit_code = 2


class JSONError(click.ClickException):
    """An error shown as ``{"error": {"message": ..., "hint": ...}}`` on stdout (--json)."""

    def __init__(self, error: KGError) -> None:
        super().__init__(str(error))
        self.error = error

    def show(self, file: IO[Any] | None = None) -> None:
        emit_json({"error": {"message": self.error.message, "hint": self.error.hint or None}})


class JSONUsageFailure(JSONError):
    """A ParameterError shown as JSON, with exit code 2 (``KGUsageFailure``)."""

    exit_code = 2


class JSONUsageError(click.UsageError):
    """A usage error (a bad option value, a missing argument, an unknown command) shown as
    ``{"error": {"message": ..., "hint": ...}}`` on stdout (--json), with click's exit code
    2 for usage errors."""

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.format_message(), error.ctx)
        command = error.ctx.command_path if error.ctx is not None else "kg"
        self.hint = f"see `{command} --help`"

    def show(self, file: IO[Any] | None = None) -> None:
        emit_json({"error": {"message": self.message, "hint": self.hint}})


class KGGroup(click.Group):
    """A click group that turns every KGError into a one-line `Error:` and exit code 1 (2 for
    a ParameterError, a usage error), or, when the command was given --json, into a JSON
    error object; a usage error of a command
    given --json (a bad option value, checked before --json itself may have been read) is a
    JSON error object too, with exit code 2."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.parent is None:
            # Every word of the command line, to tell a usage error of a --json command.
            ctx.meta[_ARGS_KEY] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a reader gone (`kg paper … | head -1`) shows here, not at exit
            return result
        except BrokenPipeError:
            silence_stdout()
            ctx.exit(0)
        except click.UsageError as exc:
            if ctx.parent is None and not isinstance(exc, JSONUsageError) and _wants_json(ctx):
                raise JSONUsageError(exc) from exc
            raise
        except KGError as exc:
            usage = isinstance(exc, ParameterError)
            if ctx.find_root().meta.get(JSON_KEY):
                raise (JSONUsageFailure if usage else JSONError)(exc) from exc
            raise (KGUsageFailure if usage else KGFailure)(exc) from exc


class _Commands(dict[str, click.Command]):
    """The root group's commands: every name of COMMANDS is listed at once, and a command's
    module is imported (registering its commands) when the command itself is looked up."""

    def _load(self, name: object) -> None:
        if isinstance(name, str) and name in COMMANDS and not super().__contains__(name):
            importlib.import_module(f"kg.cli.{COMMANDS[name][0]}")

    def __getitem__(self, name: str) -> click.Command:
        self._load(name)
        return super().__getitem__(name)

    def get(self, name: str, default: Any = None) -> Any:
        self._load(name)
        return super().get(name, default)

    def pop(self, name: str, *default: Any) -> Any:
        self._load(name)
        return super().pop(name, *default)

    def __contains__(self, name: object) -> bool:
        return name in COMMANDS or super().__contains__(name)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*COMMANDS, *super().keys()}))

    def __len__(self) -> int:
        return len({*COMMANDS, *super().keys()})

    def keys(self) -> Any:
        return list(self)

    def values(self) -> Any:
        return [self[name] for name in self]

    def items(self) -> Any:
        return [(name, self[name]) for name in self]


class RootGroup(KGGroup):
    """The `kg` group: its command list and short help come from COMMANDS, so that
    `kg --help` and `kg --version` import none of the library."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands(self.commands)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = list(self.commands)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            known = COMMANDS.get(name)
            # A command of the table is shortened as click shortens it, without its module;
            # one added at run time (a test's) is loaded already.
            command = click.Command(name, help=known[1]) if known else self.commands[name]
            rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _wants_json(ctx: click.Context) -> bool:
    """Return whether the command line holds --json (before a ``--`` that ends the options)."""
    if ctx.meta.get(JSON_KEY):
        return True
    args: list[str] = ctx.meta.get(_ARGS_KEY, [])
    words = args[: args.index("--")] if "--" in args else args
    return "--json" in words


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that the flush at exit does not fail again on the pipe
    whose reader has gone: output cut short by `head` is no error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def json_default(value: object) -> object:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if hasattr(value, "as_dict"):  # the analytics and export answers are dataclasses
        return value.as_dict()
    return str(value)


def emit_json(payload: object) -> None:
    """Print ``payload`` as indented JSON on stdout."""
    click.echo(json.dumps(payload, indent=2, default=json_default, ensure_ascii=False))


@click.group(cls=RootGroup)
@click.version_option(version=__version__, prog_name="kg")
def main() -> None:
    """The map of machine-learning papers as a Neo4j knowledge graph.

    Connects to the local server that `kg db` manages, or to NEO4J_URI (a server, a cluster
    with neo4j://, or Aura) when that is set.

    Example: kg db start && kg init && kg stats
    """
