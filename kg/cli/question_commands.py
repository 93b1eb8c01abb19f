"""The question commands: paper, cocited, coupled, shared-refs, common-citers, path, near,
search, author, category, categories and snapshots.

Each one parses its arguments, calls one function of ``kg.questions`` and renders the
model it returns: rich tables for people, ``--json`` (the model's own fields, a list under
``"results"``) for scripts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from kg import questions
from kg.cli.app import (
    console,
    emit_json,
    json_option,
    main,
    open_graph,
    render_mapping,
    render_rows,
)
from kg.models import (
    CategoryOverview,
    Model,
    Overlap,
    PaperReport,
    PathResult,
    Similarity,
    YearCount,
)

_LIST_FIELDS = ("year", "title", "stub")
_HOP_ARROWS = {"cites": "→ cites", "cited_by": "← cited by"}


def _rows(items: Iterable[Model], fields: Sequence[str]) -> list[dict[str, Any]]:
    """Return the named fields of each model, in the order given, ready for a table."""
    rows = []
    for item in items:
        data = item.model_dump(mode="json")
        rows.append({name: data[name] for name in fields})
    return rows


def _table(items: Iterable[Model], fields: Sequence[str], title: str) -> None:
    render_rows(_rows(items, fields), title=title)


def _years(counts: list[YearCount]) -> str:
    return "; ".join(f"{c.year if c.year is not None else 'no year'}: {c.count}" for c in counts)


def _stated(value: int | None) -> str:
    return f"{value:,}" if value is not None else "not stated"


def _render_report(report: PaperReport) -> None:
    primary = report.primary_category.code if report.primary_category else ""
    cross = " ".join(c.code for c in report.cross_listed)
    render_mapping(
        {
            "title": report.title,
            "key": report.key,
            "arXiv": report.arxiv_id,
            "first posted": report.published,
            "year": report.year,
            "categories": f"{primary} (cross-listed: {cross})" if cross else primary,
            "authors": ", ".join(a.name for a in report.authors),
            "stub": report.stub,
            "cited by in the map": f"{report.cited_by_in_map:,} in the graph, "
            f"{_stated(report.stated_cited_by_in_map)} stated "
            f"({_stated(report.stated_cited_by)} overall)",
            "builds on": f"{report.builds_on:,} in the graph; stated "
            f"{_stated(report.stated_refs_in_map)} of {_stated(report.stated_refs_total)}",
            "data through": report.data_through,
            "citers per year (graph)": _years(report.citers_per_year),
            "citers per year (stated)": _years(report.stated_citers_per_year),
        },
        title=report.title or report.key,
    )
    if report.abstract:
        label = "Abstract (excerpt)" if report.abstract_is_excerpt else "Abstract"
        console.print(f"[bold]{label}[/bold]\n{escape(report.abstract)}\n")
    fields = (*_LIST_FIELDS, "cited_by", "stated_cited_by", "graph_cited_by")
    _table(report.references, fields, f"References in the map · {len(report.references)}")
    _table(report.citers, fields, f"Cited by · {len(report.citers)}")


def _render_overlap(overlap: Overlap) -> None:
    what = "Shared references" if overlap.relation == "shared_references" else "Common citers"
    fields = (*_LIST_FIELDS, "cited_by", "stated_cited_by", "graph_cited_by")
    title = f"{what} of {overlap.a.key} and {overlap.b.key} · {len(overlap.results)}"
    _table(overlap.results, fields, title)


def _render_similarity(result: Similarity) -> None:
    fields = (*_LIST_FIELDS, "together", "cosine", "jaccard")
    rows = _rows(result.results, fields)
    for row in rows:
        row["cosine"] = f"{row['cosine']:.3f}"
        row["jaccard"] = f"{row['jaccard']:.3f}"
    render_rows(rows, title=f"{result.measure.capitalize()} of {result.paper.label()}")


def _render_path(result: PathResult) -> None:
    click.echo(result.message())
    for number, path in enumerate(result.results, start=1):
        table = Table(title=f"path {number}" if len(result.results) > 1 else None)
        for column in ("hop", "key", "year", "title"):
            table.add_column(column)
        for index, paper in enumerate(path.papers):
            hop = _HOP_ARROWS[path.directions[index - 1]] if index else ""
            year = str(paper.year) if paper.year is not None else ""
            table.add_row(hop, escape(paper.key), year, escape(paper.title or ""))
        console.print(table)


def _render_categories(overview: CategoryOverview) -> None:
    fields = ("code", "name", "primary", "cross_listed", "total")
    _table(overview.results, fields, "Papers per category")
    if not overview.cross_listing:
        console.print("[dim]no paper is cross-listed[/dim]")
        return
    primaries = sorted({cell.primary for cell in overview.cross_listing})
    crosses = sorted({cell.cross for cell in overview.cross_listing})
    counts = {(cell.primary, cell.cross): cell.papers for cell in overview.cross_listing}
    table = Table(title="Cross-listing")
    table.add_column("primary → cross-listed", style="bold")
    for cross in crosses:
        table.add_column(cross, justify="right")
    for primary in primaries:
        table.add_row(primary, *(str(counts.get((primary, c), "")) for c in crosses))
    console.print(table)


@main.command("paper")
@click.argument("ref")
@json_option
@click.pass_context
def paper(ctx: click.Context, ref: str, as_json: bool) -> None:
    """The map page of a paper rebuilt from the graph: graph counts beside stated ones.

    REF is an arXiv id (2110.03888, arXiv:2110.03888v2, hep-th/9901001), a title or a
    node key. Example: kg paper 2110.03888 --json
    """
    report = questions.paper_report(open_graph(ctx), ref)
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        _render_report(report)


@main.command("cocited")
@click.argument("ref")
@click.option(
    "--limit",
    default=questions.DEFAULT_LIMIT,
    show_default=True,
    type=click.IntRange(min=1),
    help="How many results at most.",
)
@json_option
@click.pass_context
def cocited(ctx: click.Context, ref: str, limit: int, as_json: bool) -> None:
    """Papers most often cited together with a paper, with cosine and Jaccard scores.

    Example: kg cocited 2110.03888 --limit 10
    """
    result = questions.cocited(open_graph(ctx), ref, limit)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        _render_similarity(result)


@main.command("coupled")
@click.argument("ref")
@click.option(
    "--limit",
    default=questions.DEFAULT_LIMIT,
    show_default=True,
    type=click.IntRange(min=1),
    help="How many results at most.",
)
@json_option
@click.pass_context
def coupled(ctx: click.Context, ref: str, limit: int, as_json: bool) -> None:
    """Papers sharing the most references with a paper (bibliographic coupling).

    Example: kg coupled 2110.03888 --limit 10
    """
    result = questions.coupled(open_graph(ctx), ref, limit)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        _render_similarity(result)


@main.command("shared-refs")
@click.argument("a")
@click.argument("b")
@json_option
@click.pass_context
def shared_refs(ctx: click.Context, a: str, b: str, as_json: bool) -> None:
    """The papers both A and B cite, most cited first.

    Example: kg shared-refs 2110.03888 2101.03961
    """
    result = questions.shared_references(open_graph(ctx), a, b)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        _render_overlap(result)


@main.command("common-citers")
@click.argument("a")
@click.argument("b")
@json_option
@click.pass_context
def common_citers(ctx: click.Context, a: str, b: str, as_json: bool) -> None:
    """The papers that cite both A and B, most cited first.

    Example: kg common-citers "Attention Is All You Need" "BERT"
    """
    result = questions.common_citers(open_graph(ctx), a, b)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        _render_overlap(result)


@main.command("path")
@click.argument("a")
@click.argument("b")
@click.option("--undirected", is_flag=True, help="Follow CITES both ways, not only forward.")
@click.option("--all", "all_paths", is_flag=True, help="Every shortest path, not just one.")
@click.option(
    "--max-hops",
    default=questions.DEFAULT_MAX_HOPS,
    show_default=True,
    type=click.IntRange(1, questions.MAX_HOPS),
    help="The longest path to accept.",
)
@json_option
@click.pass_context
def path(
    ctx: click.Context,
    a: str,
    b: str,
    undirected: bool,
    all_paths: bool,
    max_hops: int,
    as_json: bool,
) -> None:
    """The shortest citation path from A to B, following CITES forward (A cites ... B).

    Example: kg path 2110.03888 "Attention Is All You Need" --undirected --all --max-hops 4
    """
    result = questions.citation_path(
        open_graph(ctx), a, b, directed=not undirected, all_paths=all_paths, max_hops=max_hops
    )
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        _render_path(result)


@main.command("near")
@click.argument("ref")
@click.option(
    "--hops",
    default=2,
    show_default=True,
    type=click.IntRange(1, questions.MAX_NEAR_HOPS),
    help="How many citation hops to go out, either direction.",
)
@click.option(
    "--limit", default=50, show_default=True, type=click.IntRange(min=1), help="How many at most."
)
@json_option
@click.pass_context
def near(ctx: click.Context, ref: str, hops: int, limit: int, as_json: bool) -> None:
    """The papers within K citation hops of a paper, nearest first.

    Example: kg near 2110.03888 --hops 2 --limit 20
    """
    result = questions.neighbourhood(open_graph(ctx), ref, hops, limit)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        fields = ("distance", *_LIST_FIELDS)
        within = "1 hop" if hops == 1 else f"{hops} hops"
        title = f"Within {within} of {result.paper.label()} · {result.total}"
        _table(result.results, fields, title)


@main.command("search")
@click.argument("text")
@click.option(
    "--limit",
    default=questions.DEFAULT_LIMIT,
    show_default=True,
    type=click.IntRange(min=1),
    help="How many results at most.",
)
@json_option
@click.pass_context
def search(ctx: click.Context, text: str, limit: int, as_json: bool) -> None:
    """Find papers by title words (full-text index), arXiv id or node key.

    Example: kg search "mixture of experts" --limit 5
    """
    result = questions.search(open_graph(ctx), text, limit)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        _table(result.results, ("key", *_LIST_FIELDS, "score"), f"Search: {text}")


@main.command("author")
@click.argument("name")
@json_option
@click.pass_context
def author(ctx: click.Context, name: str, as_json: bool) -> None:
    """An author's papers, co-authors and citation totals within the map.

    NAME is matched on its normalised form, then as words of a name. Example: kg author "Ang Wang"
    """
    report = questions.author(open_graph(ctx), name)
    if as_json:
        emit_json(report.model_dump(mode="json"))
        return
    render_mapping(
        {
            "name": report.name,
            "key": report.key,
            "papers": len(report.papers),
            "citations in the map (graph)": report.citations_in_map,
            "distinct citing papers (graph)": report.distinct_citers,
            "cited by in the map (stated, summed)": report.stated_cited_by_in_map,
        },
        title=report.name,
    )
    fields = ("position", *_LIST_FIELDS, "graph_cited_by", "stated_cited_by_in_map")
    _table(report.papers, fields, "Papers")
    _table(report.coauthors, ("name", "key", "papers"), "Co-authors")


@main.command("category")
@click.argument("code")
@click.option(
    "--limit", default=50, show_default=True, type=click.IntRange(min=1), help="How many to list."
)
@json_option
@click.pass_context
def category(ctx: click.Context, code: str, limit: int, as_json: bool) -> None:
    """A category's paper counts and its papers, most cited in the map first.

    Example: kg category cs.LG --limit 20
    """
    report = questions.category(open_graph(ctx), code, limit)
    if as_json:
        emit_json(report.model_dump(mode="json"))
        return
    title = (
        f"{report.code} {report.name or ''}: {report.primary} primary, "
        f"{report.cross_listed} cross-listed"
    )
    _table(report.results, ("role", *_LIST_FIELDS, "graph_cited_by"), title)


@main.command("categories")
@json_option
@click.pass_context
def categories(ctx: click.Context, as_json: bool) -> None:
    """Papers per category, and how often papers of one primary are cross-listed in another.

    Example: kg categories --json
    """
    overview = questions.categories(open_graph(ctx))
    if as_json:
        emit_json(overview.model_dump(mode="json"))
    else:
        _render_categories(overview)


@main.command("snapshots")
@click.argument("ref")
@json_option
@click.pass_context
def snapshots(ctx: click.Context, ref: str, as_json: bool) -> None:
    """The snapshots that describe a paper, oldest first, with the counts each one stated.

    Example: kg snapshots 2110.03888
    """
    result = questions.snapshots(open_graph(ctx), ref)
    if as_json:
        emit_json(result.model_dump(mode="json"))
        return
    fields = (
        "data_date",
        "kind",
        "source",
        "builder_version",
        "stated_cited_by",
        "stated_cited_by_in_map",
        "stated_refs_in_map",
        "stated_refs_total",
    )
    _table(result.results, fields, f"Snapshots of {result.paper.label()}")
