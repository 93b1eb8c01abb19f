"""Titled works for the identity tests: record sets of arXiv records, map pages that name
papers by title and year only and edge lists (drawn by hypothesis or written by hand), the
files they make, what the identity rule expects of them, and the loads that build a graph
from them online or as `kg load --bulk` does."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from kg.answers.loads import LoadSummary
from kg.database import Database
from kg.knowledge_graph import STAGE_MEMORY, KnowledgeGraph
from kg.load.import_sink import ImportSink
from kg.load.merges import keep_apart as keep_apart_splits
from kg.load.merges import read_kept_apart
from kg.load.neo4j_sink import GraphWriter
from kg.load.pipeline import (
    RejectsFile,
    input_files,
    input_format,
    load_files,
)
from kg.load.schema import clear_database
from loaders.titles import paper_key
from tests.graph_dump import create_from_import_files, dump_graph
from tests.map_pages import map_page
from tests.streams import stream_settings

# Each base title with spellings that must all be read as the same title.
TITLES: tuple[tuple[str, ...], ...] = (
    ("Attention Is All You Need", "Attention is all you  need", "ATTENTION IS ALL YOU NEED!"),
    (
        "Efficient Fine-Tuning of Sparse Models",
        "Eﬃcient ﬁne-tuning of sparse models",
        "efficient fine tuning of sparse models.",
    ),
    ("Deep Learning", "Deep learning", "deep-learning"),
    ("Sparse Coding", "Sparse coding."),
    ("From dyadic $\\Gamma$ to $\\Delta$", "From dyadic Γ to Δ"),
    (
        "From dyadic $\\Lambda_{\\alpha}$ to $\\Lambda_{\\alpha}$",
        "From Dyadic $\\Lambda_\\alpha$ to $\\Lambda_\\alpha$",
    ),
    ("The $\\alpha$-expansion of black holes", "The α-Expansion of Black Holes"),
    ("{\\em Gauge} theory on the lattice", "Gauge Theory on the Lattice"),
)
FAR = 10  # the second paper of a title comes this many years later
# How many papers the first work of a title is: mostly one; sometimes arXiv "twins", two
# (now and then three, the third maybe known by title only) posted 0 or 1 years apart, so
# that a title key can be nearest either twin, or as near to both. (1,) turns twins off.
TWINS = (1, 1, 1, 1, 1, 2, 2, 3)


@dataclass(frozen=True)
class Work:
    """One real paper: a base title, a year, and an arXiv id or none."""

    title: int
    year: int
    arxiv_id: str | None


@dataclass(frozen=True)
class RecordSet:
    """The drawn papers and the files that describe them."""

    works: tuple[Work, ...]
    arxiv: tuple[tuple[tuple[int, int, str], ...], ...]  # files of (work, spelling, update)
    pages: tuple[tuple[int, int, str, tuple[tuple[int, int, int], ...]], ...]
    edges: tuple[tuple[int, int], ...]
    jsons: tuple[tuple[int, int, str], ...] = ()  # paper JSON files of (work, spelling, build)
    # arXiv records that give an arXiv paper another base title: (work, title, update)
    retitled: tuple[tuple[int, int, str], ...] = ()


# One author spelled as each record's update date says (one Author key), so that its name,
# like every other value, must come out the same in every order, grouping and batch size (a
# batch holding two spellings smaller than the stored one broke that before kg 0.2.2;
# test_load checks the smallest spelling itself).
AUTHOR_SPELLINGS = {"2021-03-01": "A.B. author", "2022-07-26": "A.B. Author"}


def arxiv_record(arxiv_id: str, title: str, year: int, update: str) -> str:
    record = {
        "id": arxiv_id,
        "title": title,
        "authors": f"{AUTHOR_SPELLINGS.get(update, 'A. B. Author')} and B. Writer",
        "categories": "cs.CL cs.LG",
        # each update revises the abstract, so which record gave it shows in the graph
        "abstract": f"The abstract of {arxiv_id} as of {update}.",
        "versions": [{"version": "v1", "created": f"Mon, 2 Jan {year} 10:00:00 GMT"}],
        "update_date": update,
    }
    return json.dumps(record) + "\n"


def paper_json_record(arxiv_id: str, title: str, year: int, built: str) -> str:
    """A paper JSON record: a license and an excerpt (which no arXiv record or page states)
    that change with each build, so which record gave them shows in the graph."""
    record = {
        "source": {"id": arxiv_id, "kind": "arxiv", "version": 1},
        "paper": {
            "title": title,
            "license": f"license of {built}",
            "primary_cat": "cs.LG",
            "authors_text": "A. Author, C. Critic",
            "submitted_at": f"{year}-01-02T10:00:00Z",
            "abstract_excerpt": f"The excerpt of {arxiv_id} as built {built}.",
        },
        "claims": {"count": int(built[-2:])},
        "builder_version": f"pith-number-builder-{built}-v1",
    }
    return json.dumps(record)


@st.composite
def record_sets(draw: st.DrawFn) -> RecordSet:
    """A few papers per title (the first work, sometimes arXiv twins; maybe a second, far
    later) and files about them: arXiv records, paper JSON records, pages of arXiv and of
    title-only papers, and an edge list."""
    titles = draw(st.lists(st.integers(0, len(TITLES) - 1), min_size=2, max_size=5, unique=True))
    works: list[Work] = []
    for title in titles:
        year = draw(st.integers(2014, 2018))
        for copy in range(draw(st.integers(1, 2))):
            twins = draw(st.sampled_from(TWINS)) if copy == 0 else 1
            for twin in range(twins):
                # twins have arXiv ids, except perhaps a third; each is 0 or 1 years later
                with_id = (twins > 1 and twin < 2) or draw(st.booleans())
                posted = year + copy * FAR + (draw(st.integers(0, 1)) if twin else 0)
                number = len(works) + 1
                arxiv_id = f"{posted - 2000:02d}01.{number:05d}" if with_id else None
                works.append(Work(title, posted, arxiv_id))
    ided = [i for i, w in enumerate(works) if w.arxiv_id]
    if not ided:
        works[0] = Work(works[0].title, works[0].year, f"{works[0].year - 2000:02d}01.00001")
        ided = [0]
    # Each work's twins: the other works of its title posted within a year of it.
    twins_of = [
        [
            j
            for j, v in enumerate(works)
            if j != i and v.title == w.title and abs(v.year - w.year) <= 1
        ]
        for i, w in enumerate(works)
    ]
    dates = st.sampled_from(["2021-03-01", "2022-07-26", "2024-05-01", "2026-10-14"])
    records = []
    for i in ided:
        for _ in range(draw(st.integers(1, 2))):
            spelling = draw(st.integers(0, len(TITLES[works[i].title]) - 1))
            records.append((i, spelling, draw(dates)))
    split = draw(st.integers(0, len(records)))
    arxiv = tuple(f for f in (tuple(records[:split]), tuple(records[split:])) if f)
    # Any work may have a page, one known by title only among arXiv twins too: its record's
    # values fold into the twin it joins, and the paper is taken apart when a nearer twin
    # comes or a page lists it apart (docs/MODEL.md).
    # Such pages come often: they are the case that takes a paper apart.
    among_twins = [
        i
        for i, w in enumerate(works)
        if w.arxiv_id is None and any(works[j].arxiv_id for j in twins_of[i])
    ]
    paged = [*range(len(works)), *among_twins, *among_twins]
    pages = []
    for i in draw(st.lists(st.sampled_from(paged), max_size=2, unique=True)):
        refs = []
        # a twin's page often cites its twins by title, with years nearest either
        cited = draw(st.lists(st.sampled_from(twins_of[i]), max_size=2)) if twins_of[i] else []
        for j in cited + draw(st.lists(st.integers(0, len(works) - 1), max_size=6)):
            if j == i:
                continue
            offset = draw(st.sampled_from([-1, 0, 1] if works[j].arxiv_id else [0, 1]))
            spelling = draw(st.integers(0, len(TITLES[works[j].title]) - 1))
            refs.append((j, spelling, offset))
        spelling = draw(st.integers(0, len(TITLES[works[i].title]) - 1))
        pages.append(
            (i, spelling, draw(st.sampled_from(["14 Oct 2026", "1 Mar 2021"])), tuple(refs))
        )
    edges = tuple(
        (a, b)
        for a, b in draw(
            st.lists(st.tuples(st.sampled_from(ided), st.sampled_from(ided)), max_size=4)
        )
        if a != b
    )
    builds = st.sampled_from(["2021-03-02", "2022-07-26", "2025-05-17", "2026-10-14"])
    # paper JSON records, mostly of arXiv papers, sometimes of a work known by title only
    jsons = tuple(
        (i, draw(st.integers(0, len(TITLES[works[i].title]) - 1)), draw(builds))
        for i in draw(st.lists(st.sampled_from([*ided, *ided, *range(len(works))]), max_size=3))
    )
    # One record may give an arXiv paper (a twin or not) the title of another work, posted up
    # to two years apart: under that title the paper chains by its own year only, not by the
    # keys of its first title it holds (which can move to a nearer twin as records come), so
    # a key of the second title two years off joins it only through a key one year off.
    # Its newer page then gives the merged paper its year, which must not change which
    # references to the arXiv paper's own title join it. The title may have a page of a paper
    # known by it only, which the rule places as it places any key.
    retitled: tuple[tuple[int, int, str], ...] = ()
    pairs = sorted(
        {
            (i, w.title)
            for w in works
            for i in ided
            if w.title != works[i].title and abs(works[i].year - w.year) <= 2
        }
    )
    if draw(st.booleans()) and pairs:
        i, title = draw(st.sampled_from(pairs))
        retitled = ((i, title, draw(dates)),)
    return RecordSet(tuple(works), arxiv, tuple(pages), edges, jsons, retitled)


def write_files(records: RecordSet, folder: Path) -> list[Path]:
    """Write the record set's files; return them in a fixed order."""
    works = records.works
    files = []
    for n, content in enumerate(records.arxiv):
        path = folder / f"arxiv{n}.jsonl"
        path.write_text(
            "".join(
                arxiv_record(works[i].arxiv_id or "", TITLES[works[i].title][s], works[i].year, u)
                for i, s, u in content
            ),
            encoding="utf-8",
        )
        files.append(path)
    for n, (i, spelling, data_to, refs) in enumerate(records.pages):
        lines = [
            f"{works[j].year + offset}{TITLES[works[j].title][s]}cited by {j + 1}"
            for j, s, offset in refs
        ]
        path = folder / f"page{n}.txt"
        work = works[i]
        path.write_text(
            map_page(TITLES[work.title][spelling], work.arxiv_id, work.year, data_to, lines),
            encoding="utf-8",
        )
        files.append(path)
    for n, (i, spelling, built) in enumerate(records.jsons):
        work = works[i]
        path = folder / f"paper{n}.json"
        text = paper_json_record(
            work.arxiv_id or "", TITLES[work.title][spelling], work.year, built
        )
        path.write_text(text, encoding="utf-8")
        files.append(path)
    if records.retitled:
        path = folder / "retitled.jsonl"
        path.write_text(
            "".join(
                arxiv_record(works[i].arxiv_id or "", TITLES[t][0], works[i].year, u)
                for i, t, u in records.retitled
            ),
            encoding="utf-8",
        )
        files.append(path)
    if records.edges:
        path = folder / "edges.csv"
        rows = "".join(f"{works[a].arxiv_id},{works[b].arxiv_id}\n" for a, b in records.edges)
        path.write_text("citing,cited\n" + rows, encoding="utf-8")
        files.append(path)
    return files


def stated_title_keys(records: RecordSet) -> dict[int, set[int]]:
    """The title keys the files state, as {base title: years}: each title-only page's, and
    each reference's (a page names every paper it cites by title and year only)."""
    works = records.works
    stated: dict[int, set[int]] = {}
    for i, _, _, refs in records.pages:
        if works[i].arxiv_id is None:
            stated.setdefault(works[i].title, set()).add(works[i].year)
        for j, _, offset in refs:
            stated.setdefault(works[j].title, set()).add(works[j].year + offset)
    for i, _, _ in records.jsons:
        if works[i].arxiv_id is None:
            stated.setdefault(works[i].title, set()).add(works[i].year)
    return stated


def _chains(years: set[int]) -> list[set[int]]:
    """The years in runs with gaps of at most 1."""
    runs: list[set[int]] = []
    for year in sorted(years):
        if runs and year - 1 in runs[-1]:
            runs[-1].add(year)
        else:
            runs.append({year})
    return runs


def listed_apart(records: RecordSet) -> dict[int, set[frozenset[str]]]:
    """The keys each page lists apart, as {base title: pairs of keys}: the keys its
    references name under one title, and its own paper's when it has that title."""
    works = records.works
    pairs: dict[int, set[frozenset[str]]] = {}
    for i, _, _, refs in records.pages:
        named: dict[int, set[str]] = {}
        for j, _, offset in refs:
            key = paper_key(None, TITLES[works[j].title][0], works[j].year + offset)
            named.setdefault(works[j].title, set()).add(key)
        own = works[i].arxiv_id or paper_key(None, TITLES[works[i].title][0], works[i].year)
        named.setdefault(works[i].title, set()).add(own)
        for title, keys in named.items():
            pairs.setdefault(title, set()).update(
                frozenset(pair) for pair in itertools.combinations(sorted(keys), 2)
            )
    return pairs


def _placed(
    title: int, years: list[int], own: dict[str, int], pairs: set[frozenset[str]]
) -> dict[int, str]:
    """Where the rule places the title keys of one group (their ``years``) among its arXiv
    papers (``own``: their years) when pages list keys apart (``pairs``): nearest an arXiv
    paper first, each key joins the nearest that holds nothing listed apart from it, else
    the next; the rest, earliest first, each join the first paper of such keys holding one
    within a year of it and nothing listed apart from it, else start one."""

    def key(year: int) -> str:
        return paper_key(None, TITLES[title][0], year)

    def apart(year: int, keys: set[str]) -> bool:
        return any(frozenset((key(year), other)) in pairs for other in keys)

    held = {arxiv_id: {arxiv_id} for arxiv_id in own}
    placed: dict[int, str] = {}
    left = []
    for year in sorted(
        years, key=lambda y: (min((abs(y - o) for o in own.values()), default=0), y)
    ):
        for arxiv_id in sorted(own, key=lambda a: (abs(own[a] - year), a)):
            if not apart(year, held[arxiv_id]):
                held[arxiv_id].add(key(year))
                placed[year] = arxiv_id
                break
        else:
            left.append(year)
    formed: list[list[int]] = []
    for year in sorted(left):
        for paper in formed:
            if any(abs(year - y) <= 1 for y in paper) and not apart(year, {key(y) for y in paper}):
                paper.append(year)
                break
        else:
            formed.append([year])
    for paper in formed:
        placed.update({year: key(paper[0]) for year in paper})
    return placed


def expected_holders(records: RecordSet) -> dict[str, str]:
    """For each title key the files state, the key of the paper that must hold it.

    Per title, the arXiv papers and the title keys whose years chain (gaps of at most 1)
    are one group. In a group with arXiv papers, each key goes to the one whose own year
    (the year its records state) is nearest the key's, a tie to the smallest id; in a group
    with none, every key is one paper, under the group's earliest year. A group where a
    page lists two of its keys apart is placed as ``_placed`` says. A retitled arXiv
    paper is a paper of its second title too, chained there by its own year only."""
    works = records.works
    stated = stated_title_keys(records)
    apart = listed_apart(records)
    retitled = {t: works[i] for i, t, _ in records.retitled}
    held: dict[tuple[int, int], str] = {}  # (base title, year) of a title key -> its paper
    for title in sorted(stated):
        # The title's arXiv papers and their own years, which chain them
        own = {w.arxiv_id: w.year for w in works if w.title == title and w.arxiv_id}
        if title in retitled and (arxiv_id := retitled[title].arxiv_id):
            own[arxiv_id] = retitled[title].year
        chained = {arxiv_id: {year} for arxiv_id, year in own.items()}
        for run in _chains(stated[title].union(*chained.values())):
            ided = [arxiv_id for arxiv_id in own if chained[arxiv_id] & run]
            years = sorted(stated[title] & run)
            keys = {*ided, *(paper_key(None, TITLES[title][0], year) for year in years)}
            pairs = {pair for pair in apart.get(title, ()) if pair <= keys}
            if pairs:
                placed = _placed(title, years, {a: own[a] for a in ided}, pairs)
                held.update({(title, year): paper for year, paper in placed.items()})
                continue
            for year in years:
                if ided:
                    held[title, year] = min((abs(own[a] - year), a) for a in ided)[1]
                else:
                    held[title, year] = paper_key(None, TITLES[title][0], min(run))
    return {paper_key(None, TITLES[t][0], year): key for (t, year), key in held.items()}


def expected_papers(records: RecordSet) -> set[str]:
    """The keys the graph must hold: every arXiv paper, and one per group of title keys
    that holds no arXiv paper, whichever spelling and year named it."""
    ided = {w.arxiv_id for w in records.works if w.arxiv_id}
    return ided | set(expected_holders(records).values())


def assert_title_keys_held(graph: Database, records: RecordSet) -> None:
    """Every title key the files state is held by the paper the rule picks: as its key, or
    in its ``aliases``."""
    holders = {
        key: row["key"]
        for row in graph.read("MATCH (p:Paper) RETURN p.key AS key, p.aliases AS aliases")
        for key in (row["key"], *(row["aliases"] or ()))
    }
    wrong = {
        key: f"held by {holders.get(key)}, expected in {paper}"
        for key, paper in expected_holders(records).items()
        if holders.get(key) != paper
    }
    assert not wrong, wrong


def bulk_dump(
    graph: Database,
    files: list[Path],
    batch_size: int,
    folder: Path,
    keep_apart: Path | None = None,
) -> tuple[list[str], list[str]]:
    """Return the graph `kg load --bulk` builds from ``files``, dumped: the pipeline into the
    import sink, its import files created in the emptied ``graph`` as the import tool would,
    the splits of ``keep_apart`` recorded, then the rest through the online writer."""
    folder.mkdir()
    inputs = input_files(files)
    formats = [input_format(item, "auto", False) for item in inputs]
    sink = ImportSink(folder / "stage.duckdb", STAGE_MEMORY)
    rejects = RejectsFile(folder / "rejects.jsonl")
    try:
        load_files(
            sink, inputs, formats, LoadSummary(), rejects, stream_settings(batch_size=batch_size)
        )
        import_files = sink.write_csv(folder / "csv")
        clear_database(graph)
        create_from_import_files(graph, import_files)
        keep_apart_splits(graph, read_kept_apart(keep_apart) if keep_apart else [])
        writer = GraphWriter(graph)
        for snapshot in sink.snapshots:
            writer.write_snapshot(snapshot)
        for rows in sink.author_spellings(chunk=2):
            writer.write_author_names(rows)
        for batch in sink.online_batches(batch_size):
            writer.write_batch(batch)
        for key in sink.marked:
            writer.mark_loaded_whole(key)
        return dump_graph(graph)
    finally:
        sink.close()
        rejects.close()


def load_all(
    graph: Database,
    files: list[Path],
    batch_size: int,
    rejects: Path,
    keep_apart: Path | None = None,
) -> LoadSummary:
    summary = KnowledgeGraph.on(graph).load(
        files, batch_size=batch_size, rejects_path=rejects, keep_apart=keep_apart
    )
    assert summary.rejected == 0, summary.reject_messages
    return summary


def cli_load_moves_a_key(graph: Database, first: list[Path], last: Path, rejects: Path) -> None:
    """Clear the graph, `kg load` the files of ``first`` in one run and then ``last`` in
    another, and assert that both succeed and the second says it moved one title key."""
    from click.testing import CliRunner

    from kg.cli import main

    clear_database(graph)
    said = CliRunner().invoke(main, ["load", "--rejects", str(rejects), *map(str, first)])
    assert said.exit_code == 0, said.output
    said = CliRunner().invoke(main, ["load", "--rejects", str(rejects), str(last)])
    assert said.exit_code == 0, said.output
    assert "moved 1 title key to the paper the identity rule now gives it" in " ".join(
        said.output.split()
    )


def sparse_coding_pages(folder: Path) -> tuple[Path, Path, Path]:
    """Three pages citing "Sparse Coding" by title only: as 2010, as 2011, and as 2011 again
    (the rule makes the first two one paper: their years are one apart)."""
    cites = ["2010Sparse Coding", "2011Sparse coding.", "2011Sparse Coding"]
    pages = []
    for n, (name, cited) in enumerate(zip(("One", "Two", "Three"), cites, strict=True), 1):
        path = folder / f"{name.lower()}.txt"
        page = map_page(
            f"Citing {name}", f"2301.0000{n}", 2023, "2026-01-01", [f"{cited}cited by 5"]
        )
        path.write_text(page, encoding="utf-8")
        pages.append(path)
    return pages[0], pages[1], pages[2]


def chained_work_pages(folder: Path) -> list[Path]:
    """Three pages citing "Chained Work" by title only, as 2010, 2011 and 2012: the rule
    chains the three keys into one paper, title:chained work:2010."""
    cites = ["2010Chained Work", "2011Chained work", "2012CHAINED WORK"]
    pages = []
    for n, cited in enumerate(cites, 1):
        path = folder / f"chained{n}.txt"
        page = map_page(f"Page {n}", f"2003.0001{n}", 2020, "2026-01-01", [f"{cited}cited by 5"])
        path.write_text(page, encoding="utf-8")
        pages.append(path)
    return pages
