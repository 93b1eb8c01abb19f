"""The named query library: every ``.cypher`` file under ``cypher/`` is one query that runs itself.

A file starts with a header of ``//`` comment lines, so it runs unchanged in Neo4j Browser:

    // name: cocited
    // mode: read
    // Papers most often cited together with a given paper.
    // param key: str  node key of the paper
    // param limit: int = 20  how many to return
    MATCH ...

``name`` is required and must match the file name. ``mode`` is required and picks how the
query runs (``Query.run``): ``read`` in a read transaction, ``write`` in a write
transaction (which may be retried, so every write is idempotent), ``auto`` as an
auto-commit transaction (a write that batches itself with ``CALL { } IN TRANSACTIONS``,
``:auto`` in Browser) or ``script`` (several statements separated by ``;``, no parameters,
each run as an auto-commit transaction). Every ``param`` line declares one ``$param``: its
name, its type (str, int, float, bool, map, list[str], list[int], list[float], list[map]) and
an optional default. The loader refuses, with ``file:line``, a file whose declared parameters
differ from the ones its query uses.

Subfolders are namespaces, as in aiosql: ``cypher/questions/cocited.cypher`` is the query
``questions.cocited``, reached as ``queries.get("questions.cocited")`` or
``queries.questions.cocited``; ``get`` also takes the short name ``cocited`` when no other
folder has a query of that name.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, LiteralString, cast

from kg.database import INT64_MAX, INT64_MIN
from kg.errors import ParameterError, QueryFileError, QueryNotFound

__all__ = [
    "QUESTION_NAMESPACES",
    "Mode",
    "Namespace",
    "Param",
    "ParamType",
    "Query",
    "all_queries",
    "cypher_dir",
    "get",
    "is_question",
    "namespaces",
    "parse_query_file",
    "trusted",
]

if TYPE_CHECKING:
    from neo4j import ManagedTransaction, Record, Result

    from kg.database import Database, Row

Mode = Literal["read", "write", "auto", "script"]
ParamType = Literal[
    "str", "int", "float", "bool", "map", "list[str]", "list[int]", "list[float]", "list[map]"
]
_MODES: tuple[Mode, ...] = ("read", "write", "auto", "script")
_TYPES: tuple[ParamType, ...] = (
    "str",
    "int",
    "float",
    "bool",
    "map",
    "list[str]",
    "list[int]",
    "list[float]",
    "list[map]",
)
_NAME_LINE = re.compile(r"^//\s*name:\s*(\S+)\s*$")
_MODE_LINE = re.compile(r"^//\s*mode:\s*(\S+)\s*$")
_PARAM_LINE = re.compile(
    r"^//\s*param\s+([A-Za-z_]\w*)\s*:\s*([a-z\[\]]+)\s*(?:=\s*(\S+))?\s*(.*)$"
)
_USED_PARAM = re.compile(r"\$([A-Za-z_]\w*)")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_STRING_OR_COMMENT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|//[^\n]*")


def trusted(text: str) -> LiteralString:
    """Return Cypher text typed as a literal. Only for text from our own .cypher files, or a
    statement a user typed as Cypher on purpose (`kg cypher`): values never pass through here.
    """
    return text  # mypy models LiteralString as str; pyright checks the callers


def cypher_dir() -> Path:
    """Return the folder holding the .cypher files: inside the installed package, or the repo's."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "cypher", here.parent / "cypher"):
        if candidate.is_dir():
            return candidate
    raise QueryNotFound(
        f"no cypher/ folder next to {here}", "reinstall the package: its query files are missing"
    )


@dataclass(frozen=True)
class Param:
    """One declared query parameter."""

    name: str
    type: ParamType
    default: Any = None
    has_default: bool = False
    doc: str = ""

    def coerce(self, value: Any) -> Any:
        """Return ``value`` as this parameter's type (strings from the CLI are parsed).

        Raises ParameterError when it cannot be converted.
        """
        # The query layer's typing, not a range check: a file's `$limit :: int` is converted
        # (and kept within Neo4j's 64-bit INTEGER) for `kg query` and any caller. The bounds
        # of a question's arguments are the question's own, checked once where its function
        # starts (kg.numbers.Bound), before it runs a query.
        try:
            coerced = _coerce(self.type, value)
        except (ValueError, TypeError, OverflowError) as exc:
            # OverflowError: a JSON number beyond a float (1e999) is infinity, no int
            raise ParameterError(
                f"parameter ${self.name} wants {self.type}, got {value!r}",
                f"pass {'an' if self.type[0] in 'aeiou' else 'a'} {self.type} value",
            ) from exc
        texts = coerced if isinstance(coerced, list) else [coerced]
        if any(isinstance(t, str) and _LONE_SURROGATE.search(t) for t in texts):
            raise ParameterError(
                f"parameter ${self.name} is {value!r}, which is not valid text: it holds "
                "bytes that are not UTF-8",
                "pass UTF-8 text",
            )
        if isinstance(coerced, int) and not INT64_MIN <= coerced <= INT64_MAX:
            raise ParameterError(
                f"parameter ${self.name} is {value}, too large for Neo4j",
                f"pass a whole number from {INT64_MIN:,} to {INT64_MAX:,}",
            )
        return coerced


def _coerce(kind: ParamType, value: Any) -> Any:
    if value is None:
        return None
    if kind == "str":
        if not isinstance(value, str):
            raise TypeError(value)
        return value
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
            return value.lower() in ("true", "1", "yes")
        raise ValueError(value)
    if kind == "int":
        if isinstance(value, bool):
            raise TypeError(value)
        return int(value)
    if kind == "float":
        if isinstance(value, bool):
            raise TypeError(value)
        return float(value)
    if kind == "map":
        mapping = json.loads(value) if isinstance(value, str) else value
        if not isinstance(mapping, dict):
            raise TypeError(value)
        return mapping
    if kind == "list[map]":
        rows = json.loads(value) if isinstance(value, str) else value
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise TypeError(value)
        return rows
    items = (
        [part.strip() for part in value.split(",") if part.strip()]
        if isinstance(value, str)
        else list(value)
    )
    inner: ParamType = "str" if kind == "list[str]" else "float" if kind == "list[float]" else "int"
    return [_coerce(inner, item) for item in items]


@dataclass(frozen=True)
class Query:
    """One named query: its text, declared mode and parameters, and documentation.

    ``run`` executes it as its mode says; no caller picks a transaction.
    """

    name: str
    path: Path
    mode: Mode
    text: str
    params: tuple[Param, ...]
    doc: str
    statements: tuple[str, ...] = field(default=())
    namespace: str = ""

    @property
    def full_name(self) -> str:
        """The name with its folder, e.g. ``questions.cocited`` (``schema`` at the top)."""
        return f"{self.namespace}.{self.name}" if self.namespace else self.name

    def run(self, db: Database, /, **params: Any) -> list[Row]:
        """Bind ``params`` and run the query as its mode says; return its rows as dicts.

        ``read`` runs in ``execute_read``, ``write`` in ``execute_write``; ``auto`` runs as
        an auto-commit transaction, retried on transient errors (our ``auto`` statements
        only remove values, which is safe to repeat); ``script`` runs each statement that way.
        Raises ParameterError for bad parameters and QueryFailed when Neo4j refuses it.
        """
        bound = self.bind(params)
        if self.mode == "read":
            return db.read(self.cypher, bound)
        if self.mode == "write":
            return db.write(self.cypher, bound)
        if self.mode == "auto":
            return db.run_autocommit(self.cypher, bound, retry=True)
        rows: list[Row] = []
        for statement in self.script:
            rows = db.run_autocommit(statement)
        return rows

    def run_records(self, db: Database, /, **params: Any) -> list[Record]:
        """Run a ``read`` or ``write`` query like ``run`` and return the driver's records as
        they come, without a dict per row: for results of hundreds of thousands of values.

        Raises ParameterError for bad parameters or an ``auto`` or ``script`` query.
        """
        if self.mode not in ("read", "write"):
            raise ParameterError(
                f"query {self.full_name} runs as an auto-commit transaction",
                "use run() for it",
            )
        return db.records(self.cypher, self.bind(params), write=self.mode == "write")

    def run_counters(self, db: Database, /, **params: Any) -> dict[str, int]:
        """Run a ``write`` query in ``execute_write``; return the server's update counters.

        Raises ParameterError for bad parameters or a query of another mode.
        """
        if self.mode != "write":
            raise ParameterError(
                f"query {self.full_name} is a {self.mode} query, with no write counters",
                "use run() for it",
            )
        return db.write_counters(self.cypher, self.bind(params))

    def run_in(self, tx: ManagedTransaction, /, **params: Any) -> Result:
        """Run the query inside the caller's transaction ``tx`` and return the driver's
        result, for several statements that must commit together (the loader's batches).

        Raises ParameterError for bad parameters, or for an ``auto`` or ``script`` query,
        which cannot run inside a transaction.
        """
        if self.mode not in ("read", "write"):
            raise ParameterError(
                f"query {self.full_name} runs as an auto-commit transaction",
                "use run() for it: it cannot run inside another transaction",
            )
        return tx.run(self.cypher, self.bind(params))

    def bind(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Return the full parameter map for ``values``: defaults filled, types checked.

        Raises ParameterError for an unknown or missing parameter or a bad value.
        """
        declared = {p.name: p for p in self.params}
        unknown = sorted(set(values) - set(declared))
        if unknown:
            raise ParameterError(
                f"query {self.name} has no parameter {', '.join('$' + u for u in unknown)}",
                f"its parameters are: {', '.join('$' + p for p in declared) or 'none'}",
            )
        bound: dict[str, Any] = {}
        for param in self.params:
            if param.name in values:
                bound[param.name] = param.coerce(values[param.name])
            elif param.has_default:
                bound[param.name] = param.default
            else:
                raise ParameterError(
                    f"query {self.name} needs ${param.name} ({param.type})",
                    f"pass {param.name}=...",
                )
        return bound

    @property
    def cypher(self) -> LiteralString:
        """The query text, typed as a literal: it comes from our own files, never from input."""
        return trusted(self.text)

    @property
    def script(self) -> list[LiteralString]:
        """The statements of a ``script`` file, typed as literals like ``cypher``."""
        return [trusted(statement) for statement in self.statements]


def parse_query_file(path: Path, namespace: str = "") -> Query:
    """Parse one .cypher file of the folder ``namespace`` ("" for the top).

    Raises QueryFileError naming ``file:line`` for a bad file.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    name: str | None = None
    mode: Mode | None = None
    params: list[Param] = []
    doc: list[str] = []
    body_start = len(lines)
    for index, raw in enumerate(lines):
        line = raw.strip()
        number = index + 1
        if not line.startswith("//"):
            body_start = index
            break
        if match := _NAME_LINE.match(line):
            name = match.group(1)
            if name != path.stem:
                raise QueryFileError(
                    f"{path}:{number}: query name {name!r} differs from the file name",
                    f"rename it to {path.stem!r}",
                )
        elif match := _MODE_LINE.match(line):
            if match.group(1) not in _MODES:
                raise QueryFileError(
                    f"{path}:{number}: mode {match.group(1)!r} is unknown",
                    "use read, write, auto or script",
                )
            mode = cast(Mode, match.group(1))
        elif match := _PARAM_LINE.match(line):
            params.append(_parse_param(path, number, match))
        else:
            text = line[2:].strip()
            if text:
                doc.append(text)
    if name is None:
        raise QueryFileError(
            f"{path}:1: no `// name: {path.stem}` header line", "add one as the first line"
        )
    if mode is None:
        raise QueryFileError(
            f"{path}:2: no `// mode:` header line",
            "declare how it runs: `// mode: read`, write, auto or script",
        )
    body = "\n".join(lines[body_start:]).strip()
    if not body:
        raise QueryFileError(f"{path}:{len(lines)}: the file has no query", "add the query text")
    _check_params(path, lines, body_start, params)
    statements: tuple[str, ...] = ()
    if mode == "script":
        statements = tuple(s.strip() for s in re.split(r";\s*(?:\n|$)", body) if s.strip())
    return Query(name, path, mode, body, tuple(params), " ".join(doc), statements, namespace)


def _parse_param(path: Path, number: int, match: re.Match[str]) -> Param:
    pname, ptype, raw_default, pdoc = match.groups()
    if ptype not in _TYPES:
        raise QueryFileError(
            f"{path}:{number}: parameter ${pname} has unknown type {ptype!r}",
            f"use one of {', '.join(_TYPES)}",
        )
    kind = cast(ParamType, ptype)
    if raw_default is None:
        return Param(pname, kind, doc=pdoc.strip())
    try:
        default = json.loads(raw_default.replace("'", '"'))
        default = _coerce(kind, default)
    except (ValueError, TypeError) as exc:
        raise QueryFileError(
            f"{path}:{number}: default {raw_default!r} of ${pname} is not a {ptype}",
            "write it as a JSON literal",
        ) from exc
    return Param(pname, kind, default, True, pdoc.strip())


def _check_params(path: Path, lines: list[str], body_start: int, params: list[Param]) -> None:
    declared = {p.name for p in params}
    used: dict[str, int] = {}
    for index in range(body_start, len(lines)):
        code = _STRING_OR_COMMENT.sub("", lines[index])
        for found in _USED_PARAM.findall(code):
            used.setdefault(found, index + 1)
    for pname in sorted(set(used) - declared):
        raise QueryFileError(
            f"{path}:{used[pname]}: ${pname} is used but not declared",
            f"add `// param {pname}: <type>` to the header",
        )
    for number, line in enumerate(lines[:body_start], start=1):
        match = _PARAM_LINE.match(line.strip())
        if match and match.group(1) not in used:
            raise QueryFileError(
                f"{path}:{number}: ${match.group(1)} is declared but not used",
                "remove the param line or use it in the query",
            )


@cache
def _library(folder: Path) -> dict[str, Query]:
    queries: dict[str, Query] = {}
    for path in sorted(folder.rglob("*.cypher")):
        namespace = ".".join(path.relative_to(folder).parent.parts)
        query = parse_query_file(path, namespace)
        queries[query.full_name] = query
    return queries


def all_queries() -> dict[str, Query]:
    """Return every query of the library by full name (``questions.cocited``), sorted.

    Raises QueryFileError for a bad file.
    """
    return dict(_library(cypher_dir()))


def namespaces() -> list[str]:
    """Return the folders of the library, sorted ("" is the top folder)."""
    return sorted({q.namespace for q in _library(cypher_dir()).values()})


def get(name: str) -> Query:
    """Return the query called ``name``: a full name (``questions.cocited``) or a short name
    (``cocited``) that only one folder holds.

    Raises QueryNotFound for an unknown name, listing near ones, or an ambiguous short name,
    listing its full names.
    """
    library = _library(cypher_dir())
    if name in library:
        return library[name]
    same = sorted(full for full, q in library.items() if q.name == name)
    if len(same) == 1:
        return library[same[0]]
    if same:
        raise QueryNotFound(
            f"more than one query is named {name!r}: {', '.join(same)}",
            "use the full name, with its folder",
        )
    # Each near query once, by its short name when that names only it (`schema` is both the
    # full and the short name of one query), else by its full name.
    shorts = Counter(q.name for q in library.values())
    spoken = {full: q.name if shorts[q.name] == 1 else full for full, q in library.items()}
    by_name = {q.name: spoken[full] for full, q in library.items()} | spoken
    near = list(
        dict.fromkeys(
            by_name[match]
            for match in difflib.get_close_matches(name, list(by_name), n=6, cutoff=0.6)
        )
    )[:3]
    hint = (
        f"Did you mean {' or '.join(near)}? `kg queries` lists them all"
        if near
        else "`kg queries` lists the questions; `kg queries --all` lists every query"
    )
    raise QueryNotFound(f"no query named {name!r}", hint)


QUESTION_NAMESPACES = ("questions", "browser", "search")
"""The folders of the queries a user asks; the others hold the loader's, the analytics' and
the exports' own queries, and the schema."""


def is_question(query: Query) -> bool:
    """Return True for a query a user asks (one in QUESTION_NAMESPACES)."""
    return query.namespace in QUESTION_NAMESPACES


@dataclass(frozen=True)
class Namespace:
    """One folder of the library: its queries are attributes (``queries.questions.cocited``)."""

    name: str

    def __getattr__(self, name: str) -> Query:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return get(f"{self.name}.{name}")
        except QueryNotFound as exc:
            raise AttributeError(str(exc)) from exc


def __getattr__(name: str) -> Namespace:
    if not name.startswith("__") and name in namespaces():
        return Namespace(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
