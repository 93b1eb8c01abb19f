"""The question commands: paper, cocited, coupled, shared-refs, common-citers, path, near,
search, author, category, categories and snapshots, and the multi-seed connect and recommend.

Each one parses its arguments, calls one method of the ``KnowledgeGraph`` and renders the
model it returns: rich tables for people, ``--json`` (the model's own fields, a list under
``"results"``) for scripts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import click
from rich.text import Text

from kg.answers import (
    CategoryOverview,
    CitedPaper,
    Overlap,
    PaperReport,
    PaperSources,
    PaperSummary,
    PathResult,
    Similarity,
    TextNeighbours,
    YearCount,
    short_handles,
)
from kg.cli.app import (
    F,
    count,
    emitted,
    face_default,
    json_command,
    number_option,
    open_graph,
    shown_count,
)
from kg.cli.tables import (
    PAPER_COLUMNS,
    RANKED_COLUMNS,
    Column,
    clean,
    console,
    display,
    display_key,
    note,
    paper_cells,
    print_table,
    render_mapping,
    showing,
)
from kg.knowledge_graph import KnowledgeGraph, parse_years
from kg.numbers import COUNT_OR_ZERO
from kg.questions import DEFAULT_LIMIT, HOPS, NEAR_HOPS
from kg.questions.find import SearchMode
from kg.questions.paper import MAX_EXAMPLES
from kg.questions.seeds import CONNECT_HOPS, SEED_DEGREE

# Every command has one shape, as sqlite-utils' do: json_command declares it with its
# arguments and options, the body calls the face, then prints --json (emitted) or a table.
_HOP_ARROWS = {"cites": "→ cites", "cited_by": "← cited by"}
_CITED = (Column("cited by", "right"), Column("in graph", "right"))
_EXAMPLES = face_default(KnowledgeGraph.sources, "examples")


def _limit_option(
    default: int | None = DEFAULT_LIMIT, what: str = "rows", *, own: bool = False
) -> Callable[[F], F]:
    """The --limit option of every list: how many rows to show (``own``: the command cuts
    the answer itself, the library never sees it)."""
    shown = f"{default}" if default is not None else "all"
    return click.option(
        "--limit",
        default=default,
        type=shown_count() if own else count(),
        help=f"How many {what} at most [default: {shown}].",
    )


def _offset_option(what: str = "rows", *, own: bool = False) -> Callable[[F], F]:
    """The --offset option of every list cut into pages: how many rows to skip (``own``: the
    command skips them itself)."""
    return click.option(
        "--offset",
        default=0,
        show_default=True,
        type=shown_count(0) if own else count(COUNT_OR_ZERO),
        help=f"How many {what} to skip: --offset 20 --limit 20 shows the second twenty.",
    )


def _window(offset: int, shown: int, total: int | None, noun: str = "") -> str | None:
    """Return the line under a page of a list: 'showing 21–40 of 2,414; --offset 40 for
    more', or showing()'s line for a first page."""
    if offset == 0:
        return showing(shown, total, noun)
    more = total is None or offset + shown < total
    of = f" of {total:,}" if total is not None else ""
    window = f"{offset + 1:,}–{offset + shown:,}" if shown else "none"
    hint = f"; --offset {offset + shown} for more" if more and shown else ""
    return f"showing {window}{of}{noun}{hint}"


def _named(paper: PaperSummary) -> str:
    """Return a paper as a table's title names it: 'handle: title (year)', or only its title
    and year when it is known by title only (its handle would be its internal key)."""
    handle = paper.handle
    return paper.label() if handle.startswith("title:") else f"{handle}: {paper.label()}"


def _paper_row(paper: PaperSummary, *extra: object) -> list[object]:
    return paper_cells(paper.handle, paper.year, paper.title, *extra)


def _print_cited(
    papers: Sequence[CitedPaper],
    limit: int,
    title: str,
    empty: str,
    *,
    offset: int = 0,
    total: int | None = None,
) -> None:
    """Print a reference or citer list (a page of ``total`` from ``offset``, or the whole
    list); the stated 'cited by' column only when a source stated a count for one of them."""
    stated = any(p.stated_cited_by is not None for p in papers)
    columns = (*PAPER_COLUMNS, *(_CITED if stated else _CITED[1:]))
    rows = (
        _paper_row(p, *((p.stated_cited_by,) if stated else ()), p.graph_cited_by)
        for p in papers[:limit]
    )
    whole = len(papers) + offset if total is None else total
    print_table(
        columns,
        rows,
        title=f"{title} · {whole:,}",
        footer=_window(offset, min(limit, len(papers)), whole),
        empty=empty if not offset else "no more papers",
    )


def _years(counts: list[YearCount]) -> str:
    return "; ".join(f"{c.year if c.year is not None else 'no year'}: {c.count:,}" for c in counts)


def _render_report(report: PaperReport, limit: int) -> None:
    primary = report.primary_category.code if report.primary_category else None
    cross = " ".join(c.code for c in report.cross_listed)
    categories = f"{primary} (cross-listed: {cross})" if primary and cross else primary or cross
    facts: dict[str, Any] = {
        "ref": report.handle,
        "arXiv": report.arxiv_id or "no arXiv id in the graph",
        "first posted": report.published,
        "year": None if report.year is None else str(report.year),
        "categories": categories or None,
        "authors": ", ".join(a.name for a in report.authors) or None,
        "journal ref": report.journal_ref,
        "known as": report.identity_sentence(),
        "also known as": "; ".join(report.alias_labels()) or None,
        "ids": ", ".join(
            [f"{kind} {value}" for kind, value in report.ids.items() if kind != "arxiv"]
            + report.other_ids
        )
        or None,
        "cited by": report.cited_by_sentence(),
        "builds on": report.builds_on_sentence(),
        "data through": report.data_through,
        "citers per year": _years(report.citers_per_year) or None,
        "  as stated": _years(report.stated_citers_per_year) or None,
    }
    render_mapping(
        {name: value for name, value in facts.items() if value is not None},
        title=display(report.title) or display_key(report.key),
    )
    if report.abstract:
        label = "Abstract (excerpt)" if report.abstract_is_excerpt else "Abstract"
        out = console()
        out.print(Text(label, style="bold"))
        out.print(Text(clean(" ".join(report.abstract.split()))))  # wrapped to the terminal
        out.print()
    _print_cited(
        report.references,
        limit,
        "References in the graph",
        "no references in the graph",
        offset=report.references_offset,
        total=report.builds_on,
    )
    _print_cited(
        report.citers,
        limit,
        "Cited by",
        "no citers in the graph",
        offset=report.citers_offset,
        total=report.cited_by_in_map,
    )


def _render_overlap(overlap: Overlap, limit: int, offset: int = 0) -> None:
    what = "Shared references" if overlap.relation == "shared_references" else "Common citers"
    title = f"{what} of {overlap.a.handle} and {overlap.b.handle}"
    total = len(overlap.results)
    page = overlap.results[offset : offset + limit]
    _print_cited(page, limit, title, overlap.note or "none", offset=offset, total=total)


def _render_similarity(result: Similarity) -> None:
    print_table(
        (
            *PAPER_COLUMNS,
            Column("together", "right"),
            Column("cosine", "right"),
            Column("jaccard", "right"),
        ),
        (_paper_row(r, r.together, r.cosine, r.jaccard) for r in result.results),
        title=f"{result.measure.capitalize()} of {_named(result.paper)}",
        empty=result.note or "none",
    )
    note(result.source_sentence())


def _render_path(result: PathResult) -> None:
    click.echo(result.message())
    for number, path in enumerate(result.results, start=1):
        rows = []
        for index, paper in enumerate(path.papers):
            hop = _HOP_ARROWS[path.directions[index - 1]] if index else ""
            rows.append([hop, *_paper_row(paper)])
        print_table(
            (Column("hop"), *PAPER_COLUMNS),
            rows,
            title=f"path {number}" if len(result.results) > 1 else None,
        )


def _render_categories(overview: CategoryOverview, limit: int) -> None:
    """Print the papers per category, then the cross-listing in long form: one row per
    (primary, cross-listed) pair, most papers first, each list cut to ``limit`` rows."""
    print_table(
        (
            Column("code"),
            Column("name", flex=True),
            Column("primary", "right"),
            Column("cross-listed", "right"),
            Column("total", "right"),
        ),
        ([c.code, c.name, c.primary, c.cross_listed, c.total] for c in overview.results[:limit]),
        title=f"Papers per category · {len(overview.results):,}",
        footer=showing(min(limit, len(overview.results)), len(overview.results), " categories"),
    )
    if not overview.cross_listing:
        console().print(Text("no paper is cross-listed", style="dim"))
        return
    names = {c.code: c.name for c in overview.results}
    pairs = sorted(overview.cross_listing, key=lambda c: (-c.papers, c.primary, c.cross))
    print_table(
        (
            Column("primary"),
            Column("cross-listed in"),
            Column("name", flex=True),
            Column("papers", "right"),
        ),
        ([c.primary, c.cross, names.get(c.cross) or "", c.papers] for c in pairs[:limit]),
        title=f"Cross-listing · {len(pairs):,} pairs",
        footer=showing(min(limit, len(pairs)), len(pairs), " pairs"),
    )


_SOURCE_COLUMNS = (
    Column("source"),
    Column("file", flex=True, cut_left=True),
    Column("data date"),
    Column("refs\nstated", "right"),
    Column("cited by\nstated", "right"),
    Column("refs\nnamed", "right"),
    Column("citers\nnamed", "right"),
)


def _papers_line(text: str, papers: Sequence[PaperSummary], count: int) -> Text:
    """Return a sentence with the handles of the first papers it speaks of after it."""
    shown = short_handles([p.key for p in papers])
    handles = ", ".join(
        p.label() if h.startswith("title:") else h for p, h in zip(papers, shown, strict=True)
    )
    more = f" and {count - len(papers):,} more" if 0 < len(papers) < count else ""
    return Text(clean(f"{text[:-1]}: {handles}{more}." if handles else text))


def render_sources(result: PaperSources) -> None:
    """Print what each source says of a paper beside the graph's own counts, then the
    references the kinds of source disagree on and the stubs each source names."""
    print_table(
        _SOURCE_COLUMNS,
        [
            *(
                [
                    s.name,
                    s.source,
                    s.data_date,
                    s.stated_refs_total,
                    s.stated_cited_by,
                    s.asserted_refs,
                    s.asserted_citers,
                ]
                for s in result.results
            ),
            ["graph", "every source", None, None, None, result.builds_on, result.cited_by_in_map],
        ],
        title=f"Sources of {_named(result.paper)}",
    )
    note(
        "stated: what the source's record of the paper says; named: the paper's citations in "
        "the graph that the source asserts (graph: every source's)"
        if result.results
        else "No snapshot describes this paper or asserts a citation of or by it."
    )
    out = console()
    lines = [_papers_line(d.sentence(), d.examples, d.count) for d in result.differences]
    if agreement := result.agreement_sentence():
        lines.append(Text(clean(agreement)))
    for source in result.results:
        if sentence := source.stubs_sentence():
            lines.append(_papers_line(sentence, source.stub_examples, source.stub_refs))
    for line in lines:
        out.print(line)
    note(result.stubs_hint())


@json_command(
    "paper",
    click.argument("ref"),
    click.option(
        "--sources",
        "show_sources",
        is_flag=True,
        help="What each source states and asserts of the paper, beside the graph's counts; "
        "the references the sources disagree on, and the stubs each names.",
    ),
    click.option(
        "--limit",
        type=count(),
        help="How many references and citers to list [default: 20; with --json, all]; with "
        f"--sources, how many papers each of its lists shows [default: {_EXAMPLES}; "
        f"at most {MAX_EXAMPLES:,}].",
    ),
    _offset_option("references and citers"),
)
def paper(
    ctx: click.Context,
    ref: str,
    show_sources: bool,
    limit: int | None,
    offset: int,
    as_json: bool,
) -> None:
    """The map page of a paper rebuilt from the graph: graph counts beside stated ones.

    REF is an arXiv id (2110.03888, arXiv:2110.03888v2, hep-th/9901001), another id (a DOI,
    an OpenAlex or Semantic Scholar id, in any spelling), a title, a node key or a handle
    from a list. With --sources, what each source (OpenAlex, S2, Crossref, a map page, ...)
    states of it and asserts in the graph instead.
    With --offset, the references and citers from that place in their lists (most cited
    first): --offset 20 --limit 20 shows the second twenty of each.
    Example: kg paper hep-th/9711200 --sources
    """
    if show_sources:
        examples = _EXAMPLES if limit is None else min(limit, MAX_EXAMPLES)
        result = open_graph(ctx).sources(ref, examples)
        if not emitted(result, as_json):
            render_sources(result)
        return
    shown = limit if limit is not None or as_json else DEFAULT_LIMIT
    report = open_graph(ctx).paper(ref, limit=shown, references_offset=offset, citers_offset=offset)
    if not emitted(report, as_json):
        _render_report(report, shown or DEFAULT_LIMIT)


def _similarity_command(
    name: str, ask: Callable[[KnowledgeGraph, str, int, int], Similarity], ranked: str, doc: str
) -> click.Command:
    """Make `kg cocited` or `kg coupled`: one question, two measures, ``ranked`` saying
    what the top list is ranked by."""

    def command(ctx: click.Context, ref: str, limit: int, offset: int, as_json: bool) -> None:
        result = ask(open_graph(ctx), ref, limit, offset)
        if not emitted(result, as_json):
            _render_similarity(result)
            if len(result.results) == limit or offset:
                note(_window(offset, len(result.results), None, f" by {ranked}"))

    command.__doc__ = doc
    return json_command(
        name,
        click.argument("ref"),
        _limit_option(face_default(KnowledgeGraph.cocited, "limit"), what="papers"),
        _offset_option("papers"),
    )(command)


cocited = _similarity_command(
    "cocited",
    lambda graph, ref, limit, offset: graph.cocited(ref, limit, offset=offset),
    "papers citing both",
    """Papers most often cited together with a paper, with cosine and Jaccard scores.

    Example: kg cocited hep-th/9711200 --limit 10
    """,
)
coupled = _similarity_command(
    "coupled",
    lambda graph, ref, limit, offset: graph.coupled(ref, limit, offset=offset),
    "shared references",
    """Papers sharing the most references with a paper (bibliographic coupling).

    Example: kg coupled hep-th/9711200 --limit 10
    """,
)


def _overlap_command(
    name: str, ask: Callable[[KnowledgeGraph, str, str], Overlap], doc: str
) -> click.Command:
    """Make `kg shared-refs` or `kg common-citers`: the papers two papers share."""

    def command(ctx: click.Context, a: str, b: str, limit: int, offset: int, as_json: bool) -> None:
        result = ask(open_graph(ctx), a, b)
        page = result.results[offset : offset + limit]
        if not emitted(result.model_copy(update={"results": page}), as_json):
            _render_overlap(result, limit, offset)

    command.__doc__ = doc
    return json_command(
        name,
        click.argument("a"),
        click.argument("b"),
        _limit_option(what="papers", own=True),
        _offset_option("papers", own=True),
    )(command)


shared_refs = _overlap_command(
    "shared-refs",
    lambda graph, a, b: graph.shared_references(a, b),
    """The papers both A and B cite, most cited first.

    Example: kg shared-refs hep-th/9711200 hep-th/9802150
    """,
)
common_citers = _overlap_command(
    "common-citers",
    lambda graph, a, b: graph.common_citers(a, b),
    """The papers that cite both A and B, most cited first.

    Example: kg common-citers 1706.03762 1810.04805
    """,
)


@json_command(
    "path",
    click.argument("a"),
    click.argument("b"),
    click.option("--undirected", is_flag=True, help="Follow CITES both ways, not only forward."),
    click.option("--all", "all_paths", is_flag=True, help="Every shortest path, not just one."),
    number_option(
        "--max-hops",
        default=face_default(KnowledgeGraph.path, "max_hops"),
        bound=HOPS,
        help="The longest path to accept.",
    ),
    _limit_option(default=10, what="paths (with --all)", own=True),
)
def path(
    ctx: click.Context,
    a: str,
    b: str,
    undirected: bool,
    all_paths: bool,
    max_hops: int,
    limit: int,
    as_json: bool,
) -> None:
    """The shortest citation path from A to B, following CITES forward (A cites ... B).

    Example: kg path hep-th/0002230 hep-th/9711200 --all --max-hops 4
    """
    result = open_graph(ctx).path(
        a, b, directed=not undirected, all_paths=all_paths, max_hops=max_hops
    )
    total = len(result.results)
    result = result.model_copy(update={"results": result.results[:limit]})
    if not emitted(result, as_json):
        _render_path(result)
        note(showing(len(result.results), total, " paths"))


@json_command(
    "near",
    click.argument("ref"),
    number_option(
        "--hops",
        default=face_default(KnowledgeGraph.near, "hops"),
        bound=NEAR_HOPS,
        help="How many citation hops to go out, either direction.",
    ),
    _limit_option(face_default(KnowledgeGraph.near, "limit"), what="papers"),
    _offset_option("papers"),
)
def near(ctx: click.Context, ref: str, hops: int, limit: int, offset: int, as_json: bool) -> None:
    """The papers within K citation hops of a paper, nearest first, then the most cited.

    Example: kg near hep-th/9711200 --hops 1 --limit 20
    """
    result = open_graph(ctx).near(ref, hops, limit, offset=offset)
    if emitted(result, as_json):
        return
    within = "1 hop" if hops == 1 else f"{hops} hops"
    print_table(
        (Column("hops", "right"), *PAPER_COLUMNS, Column("cited by", "right")),
        ([r.distance, *_paper_row(r, r.cited_by)] for r in result.results),
        title=f"Within {within} of {result.paper.handle} · {result.total:,}",
        footer=_window(offset, len(result.results), result.total),
        empty=(result.note or "none") if not offset else "no more papers",
    )


@json_command(
    "search",
    click.argument("text"),
    _limit_option(face_default(KnowledgeGraph.search, "limit"), what="papers"),
    click.option(
        "--semantic",
        "mode",
        flag_value="semantic",
        help="Find papers by meaning: the text's embedding against `kg embed`'s vectors.",
    ),
    click.option(
        "--hybrid",
        "mode",
        flag_value="hybrid",
        help="Rank by title words, meaning and citations in the map together.",
    ),
    click.option("--years", metavar="RANGE", help="Only papers of these years: 1998-2000, 1999-."),
    click.option("--category", metavar="CODE", help="Only papers in this category, e.g. hep-th."),
    _offset_option("papers of the ranking"),
)
def search(
    ctx: click.Context,
    text: str,
    limit: int,
    mode: str | None,
    years: str | None,
    category: str | None,
    offset: int,
    as_json: bool,
) -> None:
    """Find papers by title words (full-text index), arXiv id or node key; by meaning with
    --semantic; by words, meaning and citations together with --hybrid.

    By title words, the best 200 full-text hits are ranked by how well the title matches
    times the paper's weight in the map (its citations there); hits scoring under a fifth
    of the best hit's text score are left out. By meaning, the score is the cosine
    similarity of the paper's title and abstract to TEXT (`kg embed` first).
    Example: kg search --semantic "gravity localised on a brane" --years 1999- --limit 5
    """
    first, last = parse_years(years) if years is not None else (None, None)
    result = open_graph(ctx).search(
        text,
        limit,
        mode=cast(SearchMode, mode or "text"),
        offset=offset,
        year_from=first,
        year_to=last,
        category=category,
    )
    if emitted(result, as_json):
        return
    places = 4 if result.mode == "hybrid" else 2  # a fused score is a sum of 1 / (60 + rank)
    shown = len(result.results)
    full = shown == limit and (result.total is None or offset + shown < result.total)
    print_table(
        (
            *PAPER_COLUMNS,
            Column("authors", flex=True),
            Column("cited by", "right"),
            Column("score", "right"),
            *((Column("similarity", "right"),) if result.mode == "hybrid" else ()),
        ),
        (
            _paper_row(
                hit,
                hit.authors_line(),
                hit.cited_by,
                "exact" if hit.score is None else f"{hit.score:.{places}f}",
                *((_similarity(hit.similarity),) if result.mode == "hybrid" else ()),
            )
            for hit in result.results
        ),
        title=f"Search ({result.mode}): {text}",
        footer=_window(offset, shown, result.total) if full or offset else None,
        empty=(result.note or "none") if not offset else "no more papers",
    )
    if result.results:
        note(result.note)  # the words a long text's title search left out
    if result.model:
        note(f"by meaning with {result.model}")


def _similarity(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"


def render_text_neighbours(result: TextNeighbours) -> None:
    """Print the papers nearest in meaning to one paper, with their similarity."""
    print_table(
        (*PAPER_COLUMNS, Column("similarity", "right"), Column("cited by", "right")),
        (_paper_row(hit, _similarity(hit.similarity), hit.cited_by) for hit in result.results),
        title=f"Like {_named(result.paper)}, by meaning",
        empty=result.note or "none",
    )
    if result.model:
        note(f"by meaning with {result.model}")


@json_command(
    "author",
    click.argument("name"),
    _limit_option(what="papers and co-authors"),
    _offset_option("papers"),
)
def author(ctx: click.Context, name: str, limit: int, offset: int, as_json: bool) -> None:
    """An author's papers (newest first, then the most cited), co-authors and citation
    totals within the map.

    NAME is matched on its normalised form, then as words of a name; or NAME is an author's
    id (an ORCID, orcid:…, openalex:A…, s2:…).
    Example: kg author "Juan Maldacena"
    """
    report = open_graph(ctx).author(name, limit=limit, offset=offset)
    if emitted(report, as_json):
        return
    spellings = [s for s in report.spellings if s != report.name]
    render_mapping(
        {
            "name": report.name,
            **({"also spelled": "; ".join(spellings)} if spellings else {}),
            **({"ids": ", ".join(report.ids)} if report.ids else {}),
            "papers": report.paper_count,
            "citations in the graph": report.citations_in_map,
            "distinct citing papers": report.distinct_citers,
            **(
                {"cited by in the map, as stated (summed)": report.stated_cited_by_in_map}
                if report.stated_cited_by_in_map is not None
                else {}
            ),
        },
        title=report.name,
    )
    if report.also:
        # Authors are keyed by name alone: say which other spellings may be this person
        note(
            "may also be under: "
            + "; ".join(
                f"{o.name} ({o.papers:,} paper{'' if o.papers == 1 else 's'})" for o in report.also
            )
            + f' (kg author "{report.also[0].name}")'
        )
    print_table(
        (Column("#", "right"), *PAPER_COLUMNS, Column("in graph", "right")),
        ([p.position, *_paper_row(p, p.graph_cited_by)] for p in report.papers),
        title=f"Papers · {report.paper_count:,}",
        footer=_window(offset, len(report.papers), report.paper_count),
        empty="no more papers",
    )
    print_table(
        (Column("name", flex=True), Column("papers together", "right")),
        ([c.name, c.papers] for c in report.coauthors[:limit]),
        title=f"Co-authors · {len(report.coauthors):,}",
        footer=showing(min(limit, len(report.coauthors)), len(report.coauthors)),
        empty="no co-authors in the graph",
    )


@json_command(
    "category", click.argument("code"), _limit_option(what="papers"), _offset_option("papers")
)
def category(ctx: click.Context, code: str, limit: int, offset: int, as_json: bool) -> None:
    """A category's paper counts and its papers, most cited in the map first.

    Example: kg category hep-th --limit 20
    """
    report = open_graph(ctx).category(code, limit, offset=offset)
    if emitted(report, as_json):
        return
    total = report.primary + report.cross_listed
    print_table(
        (Column("role"), *PAPER_COLUMNS, Column("in graph", "right")),
        ([p.role.replace("_", "-"), *_paper_row(p, p.graph_cited_by)] for p in report.results),
        title=(
            f"{report.code} {report.name or ''}: {report.primary:,} primary, "
            f"{report.cross_listed:,} cross-listed"
        ),
        footer=_window(offset, len(report.results), total),
        empty="no more papers",
    )


@json_command(
    "categories",
    click.option(
        "--limit",
        type=shown_count(),
        help=f"How many categories and cross-listed pairs to list [default: {DEFAULT_LIMIT}; "
        "with --json, all].",
    ),
)
def categories(ctx: click.Context, limit: int | None, as_json: bool) -> None:
    """Papers per category, and how often papers of one primary are cross-listed in another
    (one row per pair, most papers first).

    Example: kg categories --limit 10
    """
    overview = open_graph(ctx).categories()
    shown = overview
    if limit is not None:
        shown = overview.model_copy(
            update={
                "results": overview.results[:limit],
                "cross_listing": sorted(
                    overview.cross_listing, key=lambda c: (-c.papers, c.primary, c.cross)
                )[:limit],
            }
        )
    if not emitted(shown, as_json):
        _render_categories(overview, limit or DEFAULT_LIMIT)


@json_command("snapshots", click.argument("ref"), _limit_option(what="snapshots", own=True))
def snapshots(ctx: click.Context, ref: str, limit: int, as_json: bool) -> None:
    """The snapshots that describe a paper, oldest first, with the counts each one stated.

    kg paper REF --sources sets them beside the citations each source asserts in the graph.
    Example: kg snapshots 1810.04805
    """
    result = open_graph(ctx).snapshots(ref)
    if emitted(result, as_json):
        return
    shown = result.results[:limit]
    print_table(
        (
            Column("data date"),
            Column("kind"),
            Column("source", flex=True, cut_left=True),
            Column("cited\nby", "right"),
            Column("cited by\nin map", "right"),
            Column("refs\nin map", "right"),
            Column("refs", "right"),
        ),
        (
            [
                s.data_date,
                s.kind,
                s.source,
                s.stated_cited_by,
                s.stated_cited_by_in_map,
                s.stated_refs_in_map,
                s.stated_refs_total,
            ]
            for s in shown
        ),
        title=f"Snapshots of {_named(result.paper)}",
        footer=showing(len(shown), len(result.results)),
    )


_HOPS = {"cites": "→", "cited_by": "←"}


def _seeds_limit(method: Callable[..., Any], what: str) -> Callable[[F], F]:
    # Unlike the lists above, a seed question's --limit shows its default: same help as before.
    return number_option("--limit", default=face_default(method, "limit"), help=f"How many {what}.")


@json_command(
    "connect",
    click.argument("refs", nargs=-1, required=True),
    number_option(
        "--max-hops",
        default=face_default(KnowledgeGraph.connector, "max_hops"),
        bound=CONNECT_HOPS,
        help="The longest path between two seeds to follow, either direction.",
    ),
    _seeds_limit(KnowledgeGraph.connector, "papers between the seeds to list"),
    number_option(
        "--paths",
        "paths_per_pair",
        default=face_default(KnowledgeGraph.connector, "paths_per_pair"),
        help="The most shortest paths to keep per pair of seeds.",
    ),
)
def connect(
    ctx: click.Context,
    refs: tuple[str, ...],
    max_hops: int,
    limit: int,
    paths_per_pair: int,
    as_json: bool,
) -> None:
    """The literature connector: papers on the shortest citation paths between the seeds
    (REF A, REF B, ...), either direction, ranked by PageRank among the seeds and them.

    Example: kg connect hep-th/9711200 hep-th/0002230 --max-hops 3 --limit 10
    """
    result = open_graph(ctx).connector(
        *refs, max_hops=max_hops, limit=limit, paths_per_pair=paths_per_pair
    )
    if emitted(result, as_json):
        return
    print_table(
        (*RANKED_COLUMNS, Column("pagerank", "right"), Column("paths", "right")),
        (
            [p.rank, *paper_cells(p.handle, p.year, p.title, p.pagerank, p.paths)]
            for p in result.results
        ),
        title="Between " + ", ".join(seed.handle for seed in result.seeds),
        empty=result.note or "none",
    )
    handles = {seed.key: seed.handle for seed in result.seeds}
    shown = result.paths[:limit]
    for seed_path in shown:
        steps = [seed_path.path.papers[0].handle]
        for paper, hop in zip(seed_path.path.papers[1:], seed_path.path.directions, strict=True):
            steps.append(f"{_HOPS[hop]} {paper.handle}")
        _line(f"{handles[seed_path.source]} … {handles[seed_path.target]}: " + " ".join(steps))
    if len(result.paths) > len(shown):
        note(f"showing {len(shown)} of {len(result.paths)} paths; --json lists them all")
    for a, b in result.unconnected:
        note(f"no citation path within {result.max_hops} hops joins {handles[a]} and {handles[b]}")


def _line(text: str) -> None:
    console().print(Text(clean(text)))


@json_command(
    "recommend",
    click.argument("refs", nargs=-1, required=True),
    _seeds_limit(KnowledgeGraph.recommend, "papers to recommend"),
    number_option(
        "--max-degree",
        default=face_default(KnowledgeGraph.recommend, "max_degree"),
        bound=SEED_DEGREE,
        help="Leave out links through papers with more citations than this (hubs).",
    ),
)
def recommend(
    ctx: click.Context, refs: tuple[str, ...], limit: int, max_degree: int, as_json: bool
) -> None:
    """Papers most related to the seeds (REF ...) by co-citation, coupling and direct
    citations together (Adamic-Adar over the seed set), each with its reasons.

    Example: kg recommend hep-th/9711200 hep-th/9802150 --limit 10
    """
    result = open_graph(ctx).recommend(*refs, limit=limit, max_degree=max_degree)
    if emitted(result, as_json):
        return
    handles = {seed.key: seed.handle for seed in result.seeds}
    print_table(
        (*RANKED_COLUMNS, Column("score", "right")),
        ([r.rank, *paper_cells(r.handle, r.year, r.title, r.score)] for r in result.results),
        title="Related to " + ", ".join(seed.handle for seed in result.seeds),
        empty=result.note or "none",
    )
    for r in result.results:
        why = " | ".join(reason.sentence(handles[reason.seed]) for reason in r.reasons)
        _line(f"{r.rank}. {r.handle}: {why}")
    if result.hubs_skipped:
        note(
            f"{result.hubs_skipped:,} links through papers with more than "
            f"{result.max_degree:,} citations were left out (--max-degree)"
        )
