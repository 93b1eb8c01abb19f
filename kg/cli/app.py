"""What every command shares: --json, option types, the driver (the root `kg` group and
its errors are in kg.cli.root, table layout in kg.cli.tables)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import click

from kg.cli.root import JSON_KEY
from kg.cli.root import KGGroup as KGGroup
from kg.cli.root import emit_json as emit_json
from kg.cli.root import main as main
from kg.knowledge_graph import KnowledgeGraph
from kg.numbers import COUNT, MAX_COUNT, Bound

F = TypeVar("F", bound=Callable[..., Any])


def face_default(method: Callable[..., Any], name: str) -> Any:
    """Return the default that ``method`` of the face (``KnowledgeGraph.cocited``,
    ``Analytics.rank``) declares for its parameter ``name``: an option's default is read
    from there, so that it is written once. Raises TypeError when the face declares none."""
    default = inspect.signature(method).parameters[name].default
    if default is inspect.Parameter.empty:
        raise TypeError(f"{method.__qualname__}({name}) has no default to take")
    return default


def _remember_json(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    if value:
        ctx.find_root().meta[JSON_KEY] = True
    return value


def json_option(func: F) -> F:
    """Add the `--json` flag every command has; with it, errors are JSON too."""
    return click.option(
        "--json",
        "as_json",
        is_flag=True,
        callback=_remember_json,
        help='Print JSON instead of a table (errors too, as {"error": {...}}).',
    )(func)


def emitted(answer: object, as_json: bool) -> bool:
    """Print ``answer`` (a typed answer of kg.answers) as JSON when --json is on and return
    True: the command is done; else return False, for the command to render it."""
    if as_json:
        emit_json(answer)
    return as_json


class Bounded(click.IntRange):
    """The type of a whole-number option whose bounds the library checks: the text is parsed
    as an int (click.INT) and the bounds are shown in --help, read from the library's
    declaration (a kg.numbers.Bound), but not checked here. The library checks them once,
    before any query, and its ParameterError is a usage error (exit code 2) as click's are
    (kg.cli.root)."""

    def __init__(self, bound: Bound) -> None:
        super().__init__(bound.low, bound.high)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        return click.INT.convert(value, param, ctx)


def count(bound: Bound = COUNT) -> Bounded:
    """The type of a count option (--limit, --top, --batch-size): a whole number within
    ``bound``, which the library checks."""
    return Bounded(bound)


def shown_count(low: int = 1) -> click.IntRange:
    """The type of a count only the CLI uses (how many rows of an answer to show, or skip):
    the library never sees it, so click's range is its one check."""
    return click.IntRange(low, MAX_COUNT)


# The options below have no check in the library (a year, a seed, a stored id are any whole
# numbers there): click's range is their one check.
YEAR: Final = click.IntRange(1, 9999)
"""The type of a year option (--since, --as-of)."""
SEED: Final = click.IntRange(0, 2**32 - 1)
"""The type of a random seed option."""
IDENTIFIER: Final = click.IntRange(0, 2**63 - 1)
"""The type of an option naming a stored number (a community id): any 64-bit Neo4j integer."""


def number_option(
    *names: str, default: int | None, help: str, bound: Bound = COUNT, own: bool = False
) -> Callable[[F], F]:
    """A whole-number option within ``bound`` (which the library checks) with its default and
    bounds shown in --help: --limit, --hops, --window and their kin. An ``own`` option is the
    command's alone (how many rows it shows): click checks it (``shown_count``)."""
    kind = shown_count(bound.low) if own else count(bound)
    return click.option(*names, default=default, show_default=True, type=kind, help=help)


def face_option(
    method: Callable[..., Any], name: str, help: str, **kwargs: Any
) -> Callable[[F], F]:
    """The option --NAME of the face ``method``'s parameter ``name`` (``_`` written ``-``),
    with the method's default (face_default) shown in --help; ``kwargs`` (a ``type``) go to
    click.option."""
    flag = "--" + name.replace("_", "-")
    default = face_default(method, name)
    return click.option(flag, name, default=default, show_default=True, help=help, **kwargs)


def options_into(
    name: str, build: Callable[..., Any], *options: Callable[[Any], Any]
) -> Callable[[F], F]:
    """Declare ``options`` (in --help order) and hand their values to the command as one
    argument, ``name=build(**values)``: a Scope, a Selection, the RankOptions."""

    def decorate(func: F) -> F:
        before = len(getattr(func, "__click_params__", ()))

        @functools.wraps(func)
        def command(*args: Any, **kwargs: Any) -> Any:
            values = {key: kwargs.pop(key) for key in names}
            return func(*args, **{name: build(**values)}, **kwargs)

        for option in reversed(options):
            command = option(command)
        names = [param.name for param in command.__click_params__[before:]]  # type: ignore[attr-defined]
        return cast(F, command)

    return decorate


def json_command(
    name: str, *params: Callable[[Any], Any]
) -> Callable[[Callable[..., None]], click.Command]:
    """Register `kg NAME` with ``params`` (its click arguments and options, in --help
    order) and --json; the function takes the click context first, then the values."""

    def register(func: Callable[..., None]) -> click.Command:
        command: Callable[..., Any] = json_option(click.pass_context(func))
        for param in reversed(params):
            command = param(command)
        return main.command(name)(command)

    return register


def open_graph(ctx: click.Context) -> KnowledgeGraph:
    """Return the process's one KnowledgeGraph (the library's face, which every command
    calls), opened on first use and closed when the command exits."""
    root = ctx.find_root()
    graph: KnowledgeGraph | None = root.meta.get("kg.database")
    if graph is None:
        graph = root.with_resource(KnowledgeGraph.connect(lazy=True))
        root.meta["kg.database"] = graph
    return graph
