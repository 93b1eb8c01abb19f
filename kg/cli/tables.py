"""Table layout for the CLI: how data prints (cleaned of control characters, numbers with
separators), tables whose title column wraps to the terminal, query rows and mappings."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.progress import Progress, ProgressColumn
from rich.table import Table
from rich.text import Text

from kg.cli.root import json_default, silence_stdout
from kg.text import display as display
from kg.text import display_key as display_key
from loaders.errors import CONTROL

Justify = Literal["left", "right"]
ELLIPSIS = "…"

# C0 and C1 control characters (ANSI escapes among them) print as visible \xNN text.
_CONTROL = CONTROL


class _Console(Console):
    """A rich console whose reader going away (`kg paper … | head -1`) ends the command
    quietly with exit code 0, as for any Unix filter; rich's own exits with 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        silence_stdout()
        raise SystemExit(0)


def console(stderr: bool = False) -> Console:
    """Return a console sized now: the terminal's width, or $COLUMNS, or 80 when piped."""
    return _Console(stderr=stderr, highlight=False)


def progress_bar(*columns: str | ProgressColumn, as_json: bool) -> Progress:
    """Return a progress display of ``columns`` on stderr, gone when it ends, and off with
    --json or when stderr is no terminal."""
    return Progress(
        *columns,
        console=console(stderr=True),
        disable=as_json or not sys.stderr.isatty(),
        transient=True,
    )


def clean(value: object) -> str:
    """Return data as plain text safe to print: control characters shown as \\xNN.

    Data is always printed as rich ``Text``, never as markup, so ``[bold]`` in a title stays
    literal; this removes the other way data could drive the terminal.
    """
    return str(value).translate(_CONTROL)


def fmt(value: object) -> str:
    """Return a value as a table shows it: thousands separators, 3 decimals, '' for None."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.3f}"
    if isinstance(value, date | datetime):
        return value.isoformat()
    if hasattr(value, "iso_format"):
        return str(value.iso_format())
    if isinstance(value, list | dict):
        return clean(json.dumps(value, default=json_default, ensure_ascii=False))
    return clean(value)


@dataclass(frozen=True)
class Column:
    """One table column; its header may take two lines (``"refs\\nstated"``). The ``flex``
    column (a title) wraps at word boundaries to fit the terminal, over at most
    WRAPPED_LINES lines (then it ends in '…' after a whole word); every other column keeps
    its full width. ``cut_left`` cuts a flex column's cells from the left instead
    (``…/attention.txt``: a file path keeps its file name); ``wrap`` wraps them whole over
    as many lines as they need (a merged key, a merge rule). ``drop`` marks a column worth
    less than room for the titles: where the flex columns would get under MIN_TITLE cells,
    such columns are left out, the highest ``drop`` first."""

    header: str
    justify: Justify = "left"
    flex: bool = False
    cut_left: bool = False
    wrap: bool = False
    drop: int = 0


class _LeftCut:
    """A cell cut from the left with an ellipsis to the width its column gets."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(cell_len(self.text), 2), cell_len(self.text))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text, width = self.text, options.max_width
        if cell_len(text) > width:
            while text and cell_len(text) > width - 1:
                text = text[1:]
            text = ELLIPSIS + text
        yield Text(text, no_wrap=True, overflow="crop")


def print_table(
    columns: Sequence[Column],
    rows: Iterable[Sequence[object]],
    *,
    title: str | None = None,
    footer: str | None = None,
    empty: str = "no rows",
) -> None:
    """Print a table that fits the terminal, data printed as text.

    Every column but the flex ones (titles) keeps its full width, so a key, id or number is
    never cut; the flex columns share what is left, wrapped at word boundaries. Where that
    leaves them under MIN_TITLE cells, the columns marked ``drop`` are left out first (a
    note says which). Only when the other columns alone are wider than the terminal are
    they cut too. ``footer`` is a dim line under the table (e.g. "showing 20 of 2,587"),
    wrapped to the terminal; ``empty`` is printed instead of a table without rows.
    """
    out = console()
    materialised = [[fmt(cell) for cell in row] for row in rows]
    if not materialised:
        out.print(Text(clean(empty), style="dim"))
        return
    columns, materialised, dropped = _fit(columns, materialised, out.width)
    widths = _widths(columns, materialised, out.width)
    wrap = {i for i, column in enumerate(columns) if column.flex and not column.cut_left}
    table = Table(title=Text(clean(title)) if title else None, title_justify="left")
    for i, (column, width) in enumerate(zip(columns, widths, strict=True)):
        table.add_column(
            Text(column.header, no_wrap=True, overflow="ellipsis"),
            justify=column.justify,
            no_wrap=i not in wrap,
            overflow="fold" if i in wrap else "ellipsis",
            width=width,
        )
    for row in materialised:
        table.add_row(
            *(
                _cell(cell, column, i in wrap, width)
                for i, (column, cell, width) in enumerate(zip(columns, row, widths, strict=True))
            )
        )
    out.print(table)
    if footer:
        out.print(Text(footer, style="dim"))
    if dropped:
        out.print(
            Text(f"left out for room: {', '.join(dropped)} (wider terminal or --json)", "dim")
        )


MIN_TITLE = 30
"""The cells a title column gets before a column marked ``drop`` is left out for it."""
WRAPPED_LINES = 3
"""The most lines a title wraps over; past them it ends in '…' after a whole word."""


def _fit(
    columns: Sequence[Column], rows: list[list[str]], total: int
) -> tuple[Sequence[Column], list[list[str]], list[str]]:
    """Return the columns and rows with the ``drop`` columns left out, highest first, while
    the flex columns would get under MIN_TITLE cells each; and the headers left out."""
    dropped: list[str] = []
    while any(c.flex for c in columns) and any(c.drop for c in columns):
        widths = _widths(columns, rows, total)
        flex = [w for w, c in zip(widths, columns, strict=True) if c.flex]
        natural = [
            max(_header_width(c), *(cell_len(row[i]) for row in rows))
            for i, c in enumerate(columns)
            if c.flex
        ]
        if all(w >= min(MIN_TITLE, n) for w, n in zip(flex, natural, strict=True)):
            break
        gone = max(range(len(columns)), key=lambda i: (columns[i].drop, i))
        dropped.append(columns[gone].header.replace("\n", " "))
        columns = [c for i, c in enumerate(columns) if i != gone]
        rows = [[cell for i, cell in enumerate(row) if i != gone] for row in rows]
    return columns, rows, dropped


def _cell(cell: str, column: Column, wrap: bool, width: int) -> _LeftCut | Text:
    if column.cut_left:
        return _LeftCut(cell)
    if wrap:
        lines = textwrap.wrap(cell, width, break_on_hyphens=False) or [""]
        if len(lines) > WRAPPED_LINES and not column.wrap:
            lines = [*lines[: WRAPPED_LINES - 1], _ending(lines[WRAPPED_LINES - 1], width)]
        return Text("\n".join(lines), overflow="fold")
    return Text(cell, no_wrap=True, overflow="ellipsis")


def _ending(line: str, width: int) -> str:
    """Return the last line a cut title shows: its whole words that fit before a '…'."""
    words = line.split(" ")
    while len(words) > 1 and cell_len(" ".join(words)) > width - 1:
        words.pop()
    shown = " ".join(words)
    return (shown if cell_len(shown) <= width - 1 else shown[: width - 1]) + ELLIPSIS


def _header_width(column: Column) -> int:
    """The width of a column's header: its longest line (a header may take two lines)."""
    return max(cell_len(line) for line in column.header.split("\n"))


def _widths(columns: Sequence[Column], rows: Sequence[Sequence[str]], total: int) -> list[int]:
    """Return each column's width: its widest cell (or header) for the fixed columns, and
    for the flex ones a fair share of what is left (none more than it needs)."""
    natural = [
        max(_header_width(column), *(cell_len(row[i]) for row in rows))
        for i, column in enumerate(columns)
    ]
    room = total - (3 * len(columns) + 1)  # the borders and a space either side of a cell
    flex = [i for i, column in enumerate(columns) if column.flex]
    fixed = sum(natural[i] for i in range(len(columns)) if i not in flex)
    widths = list(natural)
    left = room - fixed
    floor = {i: min(natural[i], max(_header_width(columns[i]), 4)) for i in flex}
    if left < sum(floor.values()):
        # Even the fixed columns do not fit: every column gives up width, the widest first.
        for i in flex:
            widths[i] = floor[i]
        while sum(widths) > room and max(widths) > 1:
            widest = widths.index(max(widths))
            widths[widest] -= 1
        return widths
    for i in flex:
        widths[i] = floor[i]
    left -= sum(floor.values())
    pending = sorted(flex, key=lambda i: natural[i] - floor[i])
    while pending:  # what is left, shared out fairly: none gets more than it needs
        share = left // len(pending)
        i = pending.pop(0)
        extra = min(natural[i] - floor[i], share)
        widths[i] += extra
        left -= extra
    return widths


PAPER_COLUMNS = (Column("ref"), Column("year", "right"), Column("title", flex=True))
"""The ref, year and title columns every list of papers starts with (after its ``#``)."""
RANKED_COLUMNS = (Column("#", "right"), *PAPER_COLUMNS)


def paper_cells(handle: str, year: int | None, title: str | None, *extra: object) -> list[object]:
    """Return a paper's ref, year and title cells, then ``extra``; the year is text so that
    it prints as 1998, not 1,998, and the title as it prints (kg.text.display: no LaTeX).
    A paper known by title only reads as its title and year: its ref cell, which would
    show its internal title key, is left empty (kg takes the title as a REF)."""
    shown = display(title)
    if handle.startswith("title:"):
        return ["", None if year is None else str(year), shown or display_key(handle), *extra]
    return [handle, None if year is None else str(year), shown, *extra]


def showing(shown: int, total: int | None, noun: str = "") -> str | None:
    """Return the 'showing 20 of 2,587; --limit N to see more' line under a list, or None
    when it shows all; with no ``total``, 'showing the top 20'."""
    if total is not None and shown >= total:
        return None
    if total is None:
        return f"showing the top {shown:,}{noun}; --limit N to see more"
    return f"showing {shown:,} of {total:,}{noun}; --limit N to see more"


def say(text: str) -> None:
    """Print a line of a command's report (the summary under a table), wrapped at word
    boundaries to the terminal's width."""
    console().print(Text(clean(text)))


def note(text: str | None) -> None:
    """Print a dim line under a table (a footnote, a hint); nothing for None or ''."""
    if text:
        console().print(Text(clean(text), style="dim"))


def render_rows(rows: list[dict[str, Any]], title: str | None = None) -> None:
    """Print dict rows as they came from a query, numbers as the query returned them (a year
    stays 1998): a column of short values (keys, ids, numbers) is never cut, long text
    (titles) takes the remaining width. When the short columns alone do not fit the
    terminal, each row is printed as its own field/value list instead (psql's expanded
    display), so that no value is cut or left out."""
    names = list(rows[0]) if rows else []
    cells = [[_raw(row.get(name)) for name in names] for row in rows]
    texts = [[fmt(cell) for cell in row] for row in cells]
    long = {i for i in range(len(names)) if any(cell_len(row[i]) > SHORT_VALUE for row in texts)}
    fixed = (
        sum(
            max(cell_len(str(names[i])), *(cell_len(row[i]) for row in texts))
            for i in range(len(names))
            if i not in long
        )
        if rows
        else 0
    )
    room = (
        console().width
        - (3 * len(names) + 1)
        - sum(max(4, min(cell_len(str(names[i])), 8)) for i in long)
    )
    if rows and fixed > room:
        if title:
            console().print(Text(clean(title)))
        for number, row in enumerate(rows, start=1):
            render_mapping({str(k): _raw(v) for k, v in row.items()}, title=f"row {number}")
        return
    print_table(
        [Column(str(name), flex=i in long) for i, name in enumerate(names)],
        cells,
        title=title,
    )


SHORT_VALUE = 24
"""A query column whose values are all this short (keys, ids, numbers) is never cut."""


def _raw(value: object) -> object:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def render_mapping(
    values: Mapping[str, Any], title: str | None = None, *, empty: str | None = None
) -> None:
    """Print a mapping as two columns, field and value; long values wrap within the value.

    ``empty``, when given, is printed instead of a table without rows.
    """
    if not values and empty is not None:
        console().print(Text(clean(f"{title}: {empty}" if title else empty), style="dim"))
        return
    table = Table(title=Text(clean(title)) if title else None, show_header=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for key, value in values.items():
        named = isinstance(value, int) and _IDENTIFIER.search(str(key))
        table.add_row(Text(clean(key)), Text(str(value) if named else fmt(value)))
    console().print(table)


_IDENTIFIER = re.compile(r"(?:^|[ _])(?:pid|port|id|year)$", re.IGNORECASE)
"""A field holding a number that names something (a pid, a port, a year): it prints without
thousands separators, as its owner writes it (pid 8387, not 8,387)."""


def plural(number: int, one: str, many: str | None = None) -> str:
    """Return '1 citation' or '2,414 citations'."""
    return f"{number:,} {one if number == 1 else (many or one + 's')}"
