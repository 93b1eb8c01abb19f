"""`kg merges` and `kg unmerge`: the merge records, and splitting a wrong merge."""

from __future__ import annotations

import click
from rich.cells import cell_len
from rich.text import Text

from kg.answers import KeptApart, MergeRecord
from kg.cli.app import count, emit_json, face_option, json_option, main, open_graph
from kg.cli.tables import Column, clean, console, print_table, render_mapping
from kg.errors import ParameterError
from kg.knowledge_graph import KnowledgeGraph


@main.command("merges")
@click.argument("ref", required=False)
@face_option(KnowledgeGraph.merges, "limit", "How many merged papers to show.", type=count())
@click.option(
    "--kept-apart",
    is_flag=True,
    help="List the splits made with kg unmerge instead, with REF those naming its key (with "
    "--json: the file that `kg load --keep-apart` reads, to keep them in a new database).",
)
@click.option(
    "--contested",
    is_flag=True,
    help="Only the merges worth a look: another arXiv paper in the title's group (years "
    "chained at most 1 apart; the rule gave each title key to the nearest in years), or a "
    "page that lists two of the keys as separate papers.",
)
@json_option
@click.pass_context
def merges(
    ctx: click.Context,
    ref: str | None,
    limit: int,
    kept_apart: bool,
    contested: bool,
    as_json: bool,
) -> None:
    """The merge records: papers that absorbed other keys, by which rule, from which snapshots.

    Papers known only by title and year merge by the identity rule (docs/MODEL.md); each
    merged key is kept in the paper's aliases; "cites" counts the citations whose source
    named the paper by that key. With REF, that paper only. The last column
    says what speaks against a merge: another arXiv paper in the title's group (years
    chained at most 1 apart; the rule gave each title key to the nearest in years), or a
    page that lists two of its keys apart. `kg unmerge` splits a wrong merge.

    Example: kg merges --contested --limit 5
    """
    graph = open_graph(ctx)
    if kept_apart:
        _show_kept_apart(graph.kept_apart(ref), ref, as_json)
        return
    records = graph.merges(ref, limit, contested=contested)
    never = f"{ref} was never merged with another key" if ref else "no paper absorbed another key"
    if contested and ref and not records and not graph.merges(ref, 1):
        contested = False  # say that it never merged, not that nothing speaks against it
    if as_json:
        emit_json({"results": [r.model_dump(mode="json") for r in records]})
        return
    empty = f"nothing speaks against a merge of {ref or 'any paper'}" if contested else never
    _render_merges(records, empty)


def _show_kept_apart(splits: list[KeptApart], ref: str | None, as_json: bool) -> None:
    """Print the splits made with kg unmerge (with REF, those naming its key)."""
    if as_json:
        emit_json({"results": [s.model_dump(mode="json") for s in splits]})
        return
    print_table(  # the keys wrap whole: a key cut short would lose its year
        (
            Column("split from"),
            Column("kept apart", flex=True, wrap=True),
            Column("recorded"),
        ),
        ([s.split_from, ", ".join(s.keys), s.recorded_at] for s in splits),
        empty=f"no split names {ref}" if ref else "no splits recorded (kg unmerge makes one)",
    )


def _render_merges(records: list[MergeRecord], empty: str) -> None:
    """Print merge records, a row per merged key: as a table, or as a field/value list per
    key where the table's rule would not fit; ``empty`` when there are none."""
    title = "Merged papers (kg merges REF --json shows the snapshots)"
    contesting = any(r.contested for r in records)
    rows = [
        {
            "ref": r.handle,
            "year": None if r.year is None else str(r.year),  # 2017, not 2,017
            "merged key": m.key,
            "cited as": m.cited_as,
            "cites": f"{m.citations:,}",
            "rule": m.rule,
            **({"against the merge": _against(r) if at == 0 else ""} if contesting else {}),
        }
        for r in records
        for at, m in enumerate(r.merged)  # what speaks against it, on its first row
    ]
    if rows and not _rule_fits(rows):
        # Too narrow for a table whose rule reads: each merged key as a field/value list
        # (as kg query lists rows too wide for the terminal), the rule wrapping in its value.
        console().print(Text(title))
        for row in rows:
            render_mapping(
                {name: value for name, value in row.items() if name not in ("ref", "year")},
                title=f"{row['ref']}" + (f" ({row['year']})" if row["year"] else ""),
            )
        return
    columns = [
        Column("ref"),
        Column("year", "right"),
        Column("merged key", flex=True, wrap=True),
        Column("cited as", flex=True),
        Column("cites", "right"),
        Column("rule", flex=True, wrap=True),
    ]
    if contesting:
        columns.append(Column("against the merge", flex=True))
    print_table(
        tuple(columns),
        ([row[column.header] for column in columns] for row in rows),
        title=title,
        empty=empty,
    )


RULE_WIDTH = 40
"""The fewest cells the rule of `kg merges` gets in a table; under it, each merged key is
listed on its own instead (a rule squeezed into a few cells ran over a dozen lines)."""
CITED_AS_WIDTH = 16


def _rule_fits(rows: list[dict[str, str | None]]) -> bool:
    """Whether a table of these rows gives the rule RULE_WIDTH cells at least, with each
    merged key on one line and CITED_AS_WIDTH cells for how it was cited."""

    def widest(name: str) -> int:
        return max(cell_len(name), *(cell_len(row[name] or "") for row in rows))

    fixed = sum(widest(name) for name in ("ref", "year", "merged key", "cites"))
    flex = CITED_AS_WIDTH + RULE_WIDTH
    if "against the merge" in rows[0]:
        flex += CITED_AS_WIDTH
    return fixed + flex + 3 * len(rows[0]) + 1 <= console().width


@main.command("unmerge")
@click.argument("ref")
@click.option(
    "--key",
    "keys",
    multiple=True,
    help="A merged key to split off (repeatable), as kg merges or kg paper shows it; default: "
    "the key REF names when it is one merged into the paper, else every key the paper absorbed.",
)
@click.option("--yes", is_flag=True, help="Do it without asking (--json needs it).")
@json_option
@click.pass_context
def unmerge(ctx: click.Context, ref: str, keys: tuple[str, ...], yes: bool, as_json: bool) -> None:
    """Split a wrong merge, and keep the keys apart on every later load.

    The keys are recorded as kept apart (a KeepApart node that every later load reads) and
    the merged paper is removed; reloading the sources it lists writes each key as its own
    paper. `kg merges --kept-apart` lists the splits.

    Example: kg unmerge 1706.03762 --key "title:attention is all you need:2017"
    """
    graph = open_graph(ctx)
    planned = graph.unmerge(ref, list(keys) or None, dry_run=True)  # checks REF and --key
    paper = f"{planned.paper.handle} ({planned.paper.label()})"
    kept = ", ".join(planned.kept_apart)
    if not yes:
        if as_json:
            raise ParameterError(
                f"kg unmerge --json does not ask before it removes {planned.paper.key}, "
                "so it needs --yes",
                f"add --yes to remove it and keep {kept} apart",
            )
        click.confirm(
            clean(f"Remove {paper} and keep {kept} apart from it (then reload its sources)?"),
            abort=True,
        )
    result = graph.unmerge(planned.paper.key, planned.kept_apart)
    if as_json:
        emit_json({**result.model_dump(mode="json"), "hint": result.reload_hint()})
        return
    out = console()
    out.print(Text(f"kept apart: {', '.join(result.kept_apart)}"))
    out.print(Text(f"removed {result.paper.handle}: {result.paper.label()}"))
    print_table(
        (Column("kind"), Column("source", flex=True), Column("data date")),
        ([s.kind, s.source, s.data_date] for s in result.sources),
        title="Sources to reload",
        empty="no loaded source names this paper",
    )
    out.print(Text(result.reload_hint()))


def _against(record: MergeRecord) -> str:
    """What speaks against a merge, in a few words: the arXiv papers that contest its title,
    then the pages that list two of its keys apart."""
    pages = sorted({item.source or item.snapshot for item in record.listed_apart})
    return "; ".join(
        [
            *record.contested_by,
            *(f"listed apart on {page}" for page in pages),
            *(f"{key} names another paper too" for key in record.shared_ids),
        ]
    )
