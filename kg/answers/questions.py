"""The answers to the questions about papers (kg.questions): one pydantic model per kind.

Every model forbids unknown fields, so a query that returns a column the model does not
know fails loudly instead of dropping it. A result that is a list keeps it in ``results``,
which is also where the CLI's ``--json`` puts it. Dates arrive from the driver as
``neo4j.time.Date`` and are stored as ``datetime.date``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Annotated, Final, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, computed_field

from kg.text import display, display_key

__all__ = [
    "AuthorName",
    "AuthorPaper",
    "AuthorRef",
    "AuthorReport",
    "CategoryCount",
    "CategoryOverview",
    "CategoryPaper",
    "CategoryRef",
    "CategoryReport",
    "CitationPath",
    "CitedPaper",
    "CoAuthor",
    "ConnectResult",
    "ConnectorPaper",
    "CrossListing",
    "Date",
    "DateTime",
    "GraphData",
    "GraphEdge",
    "GraphLayer",
    "GraphNode",
    "LoadedSnapshot",
    "MapOverview",
    "Model",
    "NearPaper",
    "Neighbourhood",
    "Overlap",
    "OverviewPaper",
    "PaperReport",
    "PaperSnapshots",
    "PaperSources",
    "PaperSummary",
    "PathResult",
    "RecommendResult",
    "Recommendation",
    "SearchHit",
    "SearchResult",
    "SeedPath",
    "SeedReason",
    "SimilarPaper",
    "Similarity",
    "SimilarityBasis",
    "SnapshotLink",
    "SourceDifference",
    "SourceLink",
    "TextNeighbours",
    "YearCount",
    "short_handle",
    "short_handles",
    "source_name",
]


def _native_date(value: object) -> object:
    """Return a driver date (``neo4j.time.Date``) as a ``datetime.date``; pass others through."""
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value


HANDLE_WIDTH: Final = 24
ELLIPSIS: Final = "…"


def short_handle(key: str, arxiv_id: str | None = None, width: int = HANDLE_WIDTH) -> str:
    """Return the short handle a list shows for a paper, which ``kg`` accepts as a REF: the
    arXiv id, else the node key with its spaces written as '-' (a normalised title has no
    hyphen), cut to ``width`` with a '…' (then it names the keys that start with what comes
    before it and end with what follows). A title key keeps its year: its title is cut
    (``title:sparse-α-cod…:2020``)."""
    handle = arxiv_id or key.replace(" ", "-")
    if len(handle) <= width:
        return handle
    head, colon, year = handle.rpartition(":")
    tail = f":{year}" if handle.startswith("title:") and colon and len(head) > len("title") else ""
    cut = handle[: max(width - 1 - len(tail), len("title:") + 1)].rstrip("-")
    return cut + ELLIPSIS + tail


def short_handles(keys: Sequence[str]) -> list[str]:
    """Return the short handles of ``keys`` shown together (``short_handle``), each cut
    longer where two would read the same, so that no two different keys show alike."""
    widths = dict.fromkeys(keys, HANDLE_WIDTH)
    while True:
        shown = {key: short_handle(key, width=width) for key, width in widths.items()}
        alike: dict[str, list[str]] = {}
        for key, handle in shown.items():
            alike.setdefault(handle, []).append(key)
        clashes = [key for group in alike.values() if len(group) > 1 for key in group]
        if not clashes:
            return [shown[key] for key in keys]
        for key in clashes:
            widths[key] += 1


def _count(number: int, one: str, many: str | None = None) -> str:
    """Return '1 paper' or '2,414 papers'."""
    word = one if number == 1 else (many or f"{one}s")
    return f"{number:,} {word}"


Date = Annotated[date, BeforeValidator(_native_date)]
DateTime = Annotated[datetime, BeforeValidator(_native_date)]
Direction = Literal["cites", "cited_by"]


class Model(BaseModel):
    """Base of every result model: immutable, and unknown fields are an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class PaperSummary(Model):
    """A paper as one line of a list: its key, id, title, year and whether it is a stub."""

    key: str
    arxiv_id: str | None = None
    title: str | None = None
    year: int | None = None
    stub: bool = False

    def label(self) -> str:
        """Return a short human label: the title as it prints (kg.text.display) and the year;
        a paper without a title reads as its title key's title and year, else its key."""
        if self.title:
            return display_key(self.key, self.title, self.year)
        shown = display_key(self.key)
        return f"{shown} ({self.year})" if shown == self.key and self.year is not None else shown

    @property
    def handle(self) -> str:
        """The short handle lists show, which kg accepts as a REF (see short_handle)."""
        return short_handle(self.key, self.arxiv_id)


class CitedPaper(PaperSummary):
    """A paper in a reference or citer list with both of its cited-by counts."""

    stated_cited_by: int | None = Field(
        description="what a source stated: the newest DESCRIBED_IN link, else the paper's own"
    )
    graph_cited_by: int = Field(description="incoming CITES in the graph")
    cited_by: int = Field(description="stated_cited_by when known, else graph_cited_by")


class CategoryRef(Model):
    """An arXiv category: its code and, when the taxonomy knows it, its name."""

    code: str
    name: str | None = None


class AuthorRef(Model):
    """One author of a paper and their 1-based position in the author list."""

    key: str
    name: str
    position: int | None = None


class YearCount(Model):
    """How many citing papers one year has (year None: papers without a year)."""

    year: int | None
    count: int


class PaperReport(Model):
    """A paper's map page rebuilt from the graph, graph counts beside stated ones."""

    key: str
    arxiv_id: str | None
    title: str | None
    year: int | None
    published: Date | None = Field(description="first posted on arXiv")
    stub: bool
    primary_category: CategoryRef | None
    cross_listed: list[CategoryRef]
    authors: list[AuthorRef]
    aliases: list[str] = Field(
        default_factory=list, description="other keys it was known by (merged references)"
    )
    ids: dict[str, str] = Field(
        default_factory=dict,
        description="its strong ids by kind, each present when known: arxiv, doi, openalex, "
        "s2, corpus_id, mag, pmid (the smallest, when sources gave it two of one kind)",
    )
    other_ids: list[str] = Field(
        default_factory=list,
        description="the further ids of a kind it holds two of, as '<kind>:<value>' (a "
        "preprint's and a journal's DOI, say)",
    )
    abstract: str | None = Field(description="the full abstract, else the excerpt")
    abstract_is_excerpt: bool
    version: int | None
    license: str | None
    doi: str | None
    journal_ref: str | None
    comments: str | None
    cited_by_in_map: int = Field(description="incoming CITES in the graph")
    stated_cited_by_in_map: int | None
    stated_cited_by: int | None = Field(description="stated cited-by over all sources")
    builds_on: int = Field(description="outgoing CITES in the graph (M)")
    stated_refs_in_map: int | None = Field(description="stated M")
    stated_refs_total: int | None = Field(description="stated K, all references")
    data_through: Date | None = Field(description="newest data_date of its snapshots")
    citers_per_year: list[YearCount] = Field(description="citing papers per year, graph")
    stated_citers_per_year: list[YearCount] = Field(description="the newest stated histogram")
    references: list[CitedPaper] = Field(
        description="its references, most cited first: all of them, or the page asked for "
        "(builds_on counts them all)"
    )
    citers: list[CitedPaper] = Field(
        description="the papers citing it, most cited first: all of them, or the page asked "
        "for (cited_by_in_map counts them all)"
    )
    references_offset: int = Field(default=0, description="references skipped before the list")
    citers_offset: int = Field(default=0, description="citers skipped before the list")

    @property
    def handle(self) -> str:
        """The short handle of the paper (see short_handle)."""
        return short_handle(self.key, self.arxiv_id)

    def alias_labels(self) -> list[str]:
        """Return the other keys it was known by as a person reads them: a title key as its
        title and year (``bert pre training… (2018)``), any other key as it is."""
        return [display_key(alias) for alias in self.aliases]

    def cited_by_sentence(self) -> str:
        """Return the cited-by fact as a sentence, counted and stated side by side; a stated
        in-map count that differs from the graph's is marked."""
        counted = f"Cited by {_count(self.cited_by_in_map, 'paper')} in the graph"
        stated = []
        if self.stated_cited_by_in_map is not None:
            differs = self.stated_cited_by_in_map != self.cited_by_in_map
            mark = " (differs from the graph)" if differs else ""
            stated.append(f"{self.stated_cited_by_in_map:,} in the map{mark}")
        if self.stated_cited_by is not None:
            stated.append(f"{self.stated_cited_by:,} overall")
        if not stated:
            return f"{counted}; no source states a cited-by count."
        return f"{counted}; the source states {' and '.join(stated)}."

    def builds_on_sentence(self) -> str:
        """Return the builds-on fact (M of K references) as a sentence, counted and stated
        side by side; a stated M that differs from the graph's is marked."""
        counted = f"Builds on {_count(self.builds_on, 'paper')} in the graph"
        in_map, total = self.stated_refs_in_map, self.stated_refs_total
        mark = (
            " (differs from the graph)" if in_map is not None and in_map != self.builds_on else ""
        )
        if in_map is not None and total is not None:
            return f"{counted}; the source states {in_map:,} of its {total:,} references{mark}."
        if in_map is not None:
            return f"{counted}; the source states {_count(in_map, 'reference')} in the map{mark}."
        if total is not None:
            return f"{counted}; the source states {_count(total, 'reference')} in all."
        return f"{counted}; no source states its references."

    def identity_sentence(self) -> str | None:
        """Return a sentence for a stub (known only from reference lists), else None."""
        if not self.stub:
            return None
        return (
            "Known only from reference lists (a stub): no record of its own is loaded. "
            "Load its arXiv record or map page to fill it in."
        )


class SimilarPaper(PaperSummary):
    """A paper similar to the one asked about, with the overlap and its normalised scores."""

    together: int = Field(description="shared citers (co-citation) or references (coupling)")
    size_a: int = Field(description="citers or references of the paper asked about")
    size_b: int = Field(description="citers or references of this paper")
    cosine: float = Field(description="together / sqrt(size_a * size_b) (Salton)")
    jaccard: float = Field(description="together / |union|")


# Field(default=None, description=...) declarations stand alike here and in every model
# below: a field and its meaning, written once each.
class Similarity(Model):
    """Co-citation or bibliographic coupling of one paper, best first."""

    paper: PaperSummary
    measure: Literal["co-citation", "coupling"]
    offset: int = Field(default=0, description="papers of the ranking skipped before these")
    results: list[SimilarPaper]
    note: str | None = Field(default=None, description="why there are no results, if none")
    source: Literal["materialised", "live"] = Field(
        default="live",
        description="materialised: read from the stored CO_CITED/COUPLED relationships, "
        "fresh for this paper; live: computed from CITES now",
    )
    computed_at: str | None = Field(
        default=None, description="materialised: when the stored run read the graph"
    )
    stale_reason: str | None = Field(
        default=None, description="live: why the stored relationships were not used"
    )
    capped: bool = Field(
        default=False,
        description="live: the path budget left out some citers (co-citation) or "
        "references (coupling), so together is a lower bound",
    )
    counted: int | None = Field(
        default=None, description="live: citers or references counted (of size_a)"
    )
    size_a: int | None = Field(
        default=None, description="live: citers or references of the paper asked about"
    )

    def source_sentence(self) -> str:
        """Return one line saying where the answer came from and whether it is exact."""
        if self.source == "materialised":
            stored = _STORED_REL[self.measure]
            return f"Read from the stored {stored} relationships (run of {self.computed_at})."
        # The reason may hold brackets of its own: it follows a colon, never inside brackets.
        why = f": {self.stale_reason}" if self.stale_reason else ""
        if not self.capped:
            return f"Computed live from CITES{why}."
        what = "citers" if self.measure == "co-citation" else "references"
        fewest = "references" if self.measure == "co-citation" else "citers"
        return (
            f"Computed live with a bound: counted {self.counted or 0:,} of {self.size_a or 0:,} "
            f"{what} (those with the fewest {fewest}), so together is a lower bound"
            + (f"; {self.stale_reason}." if self.stale_reason else "; ")
            + ("" if self.stale_reason else "`kg similar --write` stores exact lists.")
        )


_STORED_REL: Final = {"co-citation": "CO_CITED", "coupling": "COUPLED"}


class Overlap(Model):
    """What two papers have in common: the references both cite, or the papers citing both."""

    a: PaperSummary
    b: PaperSummary
    relation: Literal["shared_references", "common_citers"]
    results: list[CitedPaper]
    note: str | None = Field(default=None, description="why there are no results, if none")


class CitationPath(Model):
    """One path: the papers in order, and for each hop whether the paper cites the next."""

    papers: list[PaperSummary]
    directions: list[Direction]

    @property
    def length(self) -> int:
        """The number of hops."""
        return len(self.directions)


class PathResult(Model):
    """Shortest citation path(s) between two papers within a bound; none found is an answer."""

    source: PaperSummary
    target: PaperSummary
    directed: bool = Field(description="True: following CITES forward only")
    all_paths: bool
    max_hops: int
    found: bool
    length: int | None = Field(description="hops of the shortest path(s), None if none found")
    results: list[CitationPath]

    def message(self) -> str:
        """Return the one-line verdict, e.g. 'No citation path from A to B within 5 hops.'"""
        if not self.found:
            return (
                f"No citation path from {self.source.key} to {self.target.key} "
                f"within {self.max_hops} hops."
            )
        count = len(self.results)
        paths = f"{count} shortest paths" if count > 1 else "A shortest path"
        hops = "hop" if self.length == 1 else "hops"
        return f"{paths} of {self.length} {hops} from {self.source.key} to {self.target.key}."


class NearPaper(PaperSummary):
    """A paper near another one, how many citation hops away it is, and its citations."""

    distance: int
    cited_by: int = Field(default=0, description="papers in the map citing it")


class Neighbourhood(Model):
    """The papers within ``hops`` citation hops of a paper (either direction), nearest
    first, then the most cited in the map first."""

    paper: PaperSummary
    hops: int
    limit: int
    offset: int = Field(default=0, description="papers of the list skipped before these")
    total: int = Field(description="papers within the hops before the offset and the limit")
    results: list[NearPaper]
    note: str | None = Field(default=None, description="why there are no results, if none")


GraphLayer = Literal["citations", "cocited", "coupled"]


class GraphNode(PaperSummary):
    """A paper as the graph view draws it."""

    cited_by: int = Field(description="papers in the graph citing it: the node's size")

    @computed_field(description="the title as it prints (LaTeX as Unicode), or title (year)")
    def printed_title(self) -> str:
        """What the view shows for the paper: its title as it prints; a paper known by
        title only as 'title (year)'; one without a title by its key."""
        return display(self.title) if self.title else display_key(self.key)


class GraphEdge(Model):
    """A link the graph view draws: a citation (source cites target) or a similarity."""

    source: str = Field(description="node key; the citing paper of a citation")
    target: str = Field(description="node key; the cited paper of a citation")
    kind: Literal["cites", "cocited", "coupled"]
    weight: float = Field(description="1 for a citation, else the pair's cosine")
    together: int | None = Field(
        default=None, description="shared citers (cocited) or references (coupled)"
    )


class GraphData(Model):
    """One layer of a paper's graph, as nodes and edges: ``citations``, its most cited papers
    within ``hops`` citation hops and the citations among them; ``cocited`` or ``coupled``,
    its top papers by co-citation or coupling and a link for every pair of them that is
    co-cited or coupled too, heaviest first. The same answer feeds the web view's graph,
    ``kg export graph-json`` and scripts."""

    paper: PaperSummary
    layer: GraphLayer
    hops: int | None = Field(description="citation hops (citations layer), else None")
    limit: int = Field(description="papers asked for besides the paper itself")
    total: int = Field(
        description="papers within the hops (citations) or similar papers found, before the limit"
    )
    first_year: int | None = Field(description="the graph's first year: the colour scale's start")
    last_year: int | None = Field(description="the graph's last year: the colour scale's end")
    nodes: list[GraphNode] = Field(
        description="the paper first, then the most cited or most similar first"
    )
    edges: list[GraphEdge]
    note: str | None = Field(default=None, description="why there are no links, if none")


class SearchHit(PaperSummary):
    """A paper found by a search. score ranks it in its mode: the full-text score (text),
    the cosine similarity (semantic) or the combined score (hybrid); None for an exact id
    match. similarity is its text's cosine similarity to the query's, when known."""

    score: float | None = None
    similarity: float | None = Field(
        default=None, description="cosine similarity of its text to the query (-1 to 1)"
    )
    cited_by: int | None = Field(default=None, description="papers in the map citing it")
    text_score: float | None = Field(
        default=None,
        description="text mode: the full-text score over the best hit's (0 to 1), before "
        "the paper's citations weigh in",
    )
    authors: list[str] = Field(
        default_factory=list, description="its first authors, in author order"
    )
    author_count: int = Field(default=0, description="how many authors it has in the map")

    def authors_line(self) -> str:
        """Return its first authors, with 'et al.' when it has more: 'J. Maldacena',
        'A, B, C et al.'; '' when it has none in the map."""
        names = ", ".join(self.authors)
        return f"{names} et al." if self.author_count > len(self.authors) else names


class SearchResult(Model):
    """Papers matching a search text, best first, by words (text), by meaning (semantic)
    or by both and their citations (hybrid)."""

    text: str
    results: list[SearchHit]
    mode: Literal["text", "semantic", "hybrid"] = "text"
    offset: int = Field(default=0, description="results of the ranking skipped before these")
    total: int | None = Field(
        default=None,
        description="how many papers the ranking holds in all, when known (a text search "
        "ranks at most kg.questions.find.TEXT_CANDIDATES full-text hits)",
    )
    model: str | None = Field(default=None, description="the embedding model, by meaning")
    note: str | None = Field(
        default=None,
        description="why there are no results, if none; also that the title search used "
        "only the first words of a long text",
    )


class TextNeighbours(Model):
    """The papers nearest in meaning to one paper ("more like this"), best first."""

    paper: PaperSummary
    model: str | None = Field(description="the model of the paper's embedding")
    results: list[SearchHit]
    note: str | None = Field(default=None, description="why there are no results, if none")


class AuthorPaper(PaperSummary):
    """A paper of an author, their position on it and its cited-by counts."""

    position: int | None
    stated_cited_by: int | None
    stated_cited_by_in_map: int | None
    graph_cited_by: int


class CoAuthor(Model):
    """Someone who wrote with an author, and on how many papers."""

    key: str
    name: str
    papers: int


class AuthorName(Model):
    """An author under one spelling of a name, and how many papers they wrote in the map."""

    key: str
    name: str
    papers: int


class AuthorReport(Model):
    """An author's papers, co-authors and citation totals within the map."""

    key: str
    name: str
    spellings: list[str] = Field(
        default_factory=list, description="every spelling of the name its sources gave"
    )
    ids: list[str] = Field(
        default_factory=list,
        description="its strong ids as '<kind>:<value>' (orcid, openalex, s2), when a source "
        "gave them; an author with ids is keyed by the first",
    )
    papers: list[AuthorPaper] = Field(
        description="their papers, newest first, then the most cited in the map: all of "
        "them, or the page asked for (paper_count counts them all)"
    )
    paper_count: int = Field(description="how many papers they wrote in the map")
    offset: int = Field(default=0, description="papers skipped before the list")
    coauthors: list[CoAuthor]
    citations_in_map: int = Field(description="incoming CITES summed over their papers")
    distinct_citers: int = Field(description="distinct papers citing any of their papers")
    stated_cited_by_in_map: int | None = Field(
        description="stated cited-by in the map, summed; None when no source states one"
    )
    also: list[AuthorName] = Field(
        default_factory=list,
        description="authors with the same surname and first initial, who may be the same "
        "person under another spelling (authors are keyed by name alone)",
    )


class CategoryCount(Model):
    """How many papers have a category as primary, and how many are cross-listed in it."""

    code: str
    name: str | None
    archive: str | None
    primary: int
    cross_listed: int
    total: int


class CrossListing(Model):
    """How many papers with primary category ``primary`` are cross-listed in ``cross``."""

    primary: str
    cross: str
    papers: int


class CategoryOverview(Model):
    """Papers per category, and the cross-listing matrix as its non-zero cells."""

    results: list[CategoryCount]
    cross_listing: list[CrossListing]


class CategoryPaper(PaperSummary):
    """A paper of a category: primary there or cross-listed, and its in-map citations."""

    role: Literal["primary", "cross_listed"]
    graph_cited_by: int


class CategoryReport(Model):
    """One category with its paper counts and its papers, most cited in the map first."""

    code: str
    name: str | None
    archive: str | None
    primary: int
    cross_listed: int
    offset: int = Field(default=0, description="papers of the list skipped before these")
    results: list[CategoryPaper]

    @property
    def total(self) -> int:
        """How many papers the whole list holds: primary and cross-listed."""
        return self.primary + self.cross_listed


class OverviewPaper(PaperSummary):
    """A paper of the map's overview: its citations in the map and its stored PageRank."""

    cited_by: int = Field(description="papers in the map citing it")
    pagerank: float | None = Field(description="stored by `kg rank pagerank --write`, if run")


class LoadedSnapshot(Model):
    """A snapshot (one loaded file's content): its kind, file, data date and loader, and how
    many papers it describes."""

    key: str
    kind: str | None
    source: str | None
    data_date: Date | None
    loaded_by: str | None = Field(description="the kg version that loaded it whole, if any")
    papers: int = Field(description="papers it describes (DESCRIBED_IN)")


class MapOverview(Model):
    """The map at a glance: its size and data date, its most cited and most central
    papers, its categories and its snapshots with the newest data."""

    papers: int
    stubs: int = Field(description="papers known only from reference lists")
    citations: int
    authors: int
    snapshots: int
    data_date: Date | None = Field(description="the newest data date of its snapshots")
    most_cited: list[OverviewPaper] = Field(description="most cited in the map first")
    most_central: list[OverviewPaper] = Field(
        description="highest stored PageRank first; empty before `kg rank pagerank --write`"
    )
    pagerank_at: DateTime | None = Field(description="when the stored PageRank was computed")
    categories: list[CategoryCount] = Field(description="those with papers, most first")
    loads: list[LoadedSnapshot] = Field(
        description="the snapshots with the newest data first (the graph keeps no load time)"
    )


class SnapshotLink(Model):
    """A snapshot describing a paper, and what it stated on the DESCRIBED_IN link."""

    key: str
    kind: str | None
    source: str | None
    data_date: Date | None
    builder_version: str | None
    as_of: Date | None
    line: int | None
    stated_cited_by: int | None
    stated_cited_by_in_map: int | None
    stated_refs_total: int | None
    stated_refs_in_map: int | None
    listed_refs: int | None
    listed_citing: int | None


class PaperSnapshots(Model):
    """The snapshots that describe a paper, oldest data first."""

    paper: PaperSummary
    results: list[SnapshotLink]


SOURCE_NAMES: Final = {
    "map_page": ("map page", "the map pages"),
    "paper_json": ("paper JSON", "the paper JSON records"),
    "arxiv_oai": ("arXiv", "arXiv"),
    "edge_list": ("edge list", "the edge lists"),
    "hepth_abs": ("hep-th abs", "the hep-th .abs files"),
    "openalex": ("OpenAlex", "OpenAlex"),
    "semantic_scholar": ("S2", "S2"),
    "crossref": ("Crossref", "Crossref"),
    "unarxive": ("unarXive", "unarXive"),
}
"""How a kind of snapshot (the format its file was read as) is named to people: one file of
it, and all of its files in a sentence (plural where it starts with 'the')."""


def source_name(kind: str | None) -> str:
    """Return the name people know a kind of source by: 'OpenAlex' for ``openalex``, 'S2'
    for ``semantic_scholar``, 'map page'; an unknown kind as it is."""
    return SOURCE_NAMES.get(kind or "", (kind or "unknown source",) * 2)[0]


def _sources_of(kind: str) -> tuple[str, bool]:
    """Return a kind's files as a sentence names them, and whether that name is plural."""
    name = SOURCE_NAMES.get(kind, (kind, kind))[1]
    return name, name.startswith("the ")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class SourceLink(SnapshotLink):
    """A source of a paper: a snapshot that describes it or asserts a citation of or by it.
    What it states (the SnapshotLink fields, null where it has no record of the paper)
    stands beside what it asserts in the graph (the CITES edges that list it)."""

    describes: bool = Field(
        description="it has a DESCRIBED_IN link to the paper: a record of it, or the cited-by "
        "count a reference list showed for it"
    )
    asserted_refs: int = Field(description="outgoing CITES of the paper whose snapshots list it")
    asserted_citers: int = Field(description="incoming CITES of the paper whose snapshots list it")
    stub_refs: int = Field(
        description="of the references it asserts, the stubs: papers known only from "
        "reference lists, with no record of their own"
    )
    stub_examples: list[PaperSummary] = Field(
        description="the first of those stubs, most cited in the graph first"
    )

    @property
    def name(self) -> str:
        """The name of its kind of source ('OpenAlex', 'S2', 'map page')."""
        return source_name(self.kind)

    def stubs_sentence(self) -> str | None:
        """Return 'OpenAlex (works.jsonl) names 3 references known only from reference
        lists.', or None when it names none."""
        if not self.stub_refs:
            return None
        where = f" ({self.source})" if self.source else ""
        return (
            f"{_capital(self.name)}{where} names {_count(self.stub_refs, 'reference')} known "
            "only from reference lists."
        )


class SourceDifference(Model):
    """The references of a paper one kind of source names and another does not, where both
    name some of its references."""

    kind: str = Field(description="the kind of source that names them")
    lacking: str = Field(description="the kind of source that names others, but not these")
    count: int
    stubs: int = Field(
        description="how many of them are stubs, known only by the ids a reference list gave "
        "(a work one source names by a DOI and another by an OpenAlex id is two stubs until a "
        "record gives both ids)"
    )
    examples: list[PaperSummary] = Field(
        description="the first of them, most cited in the graph first"
    )

    def sentence(self) -> str:
        """Return 'OpenAlex names 12 references S2 lacks (10 of them stubs).' ('The map
        pages name 3 references OpenAlex lacks.')"""
        (naming, many), (lacking, both) = _sources_of(self.kind), _sources_of(self.lacking)
        stubs = (
            ""
            if not self.stubs
            else " (a stub)"
            if self.count == 1
            else " (all stubs)"
            if self.stubs == self.count
            else f" ({self.stubs:,} of them stubs)"
        )
        return (
            f"{_capital(naming)} {'name' if many else 'names'} "
            f"{_count(self.count, 'reference')} {lacking} {'lack' if both else 'lacks'}{stubs}."
        )


class PaperSources(Model):
    """What each source says of a paper beside what the graph holds, and where the sources
    differ: the answer to "97 citations in S2 against 39 in OpenAlex"."""

    paper: PaperSummary
    builds_on: int = Field(description="outgoing CITES in the graph, from every source")
    cited_by_in_map: int = Field(description="incoming CITES in the graph, from every source")
    results: list[SourceLink] = Field(description="its sources, oldest data first")
    reference_kinds: list[str] = Field(
        description="the kinds of source that name any of its references, sorted"
    )
    differences: list[SourceDifference] = Field(
        description="for each of reference_kinds and each other, the references the one names "
        "and the other does not (none listed when it names them all)"
    )

    def stubs_hint(self) -> str | None:
        """Return why two sources may disagree on references that are one work, when stubs
        are among the references they disagree on; else None."""
        if not any(d.stubs for d in self.differences):
            return None
        return (
            "A stub is known only by the ids its reference gave: a work one source names by a "
            "DOI and another by an OpenAlex id stays two stubs until a record gives both."
        )

    def agreement_sentence(self) -> str | None:
        """Return what the reference lists have in common when no difference says it: one
        kind alone naming them, or every kind naming the same; else None."""
        names = [_sources_of(kind) for kind in self.reference_kinds]
        if self.differences or not names:
            return None
        if len(names) == 1:
            name, many = names[0]
            verb = "name" if many else "names"
            return f"Only {name} {verb} its references: there is nothing to compare."
        listed = ", ".join(name for name, _ in names[:-1]) + f" and {names[-1][0]}"
        return f"{_capital(listed)} name the same {_count(self.builds_on, 'reference')}."


class SimilarityBasis(Model):
    """The counts that explain an empty co-citation, coupling or overlap answer."""

    citers: int = Field(description="papers citing it in the graph")
    citers_citing_others: int = Field(description="of those, papers citing another paper too")
    references: int = Field(description="papers it cites in the graph")
    references_cited_by_others: int = Field(description="of those, papers another paper cites")


class ConnectorPaper(PaperSummary):
    """A paper on a shortest citation path between seed papers, ranked by PageRank inside
    the subgraph of the seeds and the papers on their paths."""

    rank: int
    pagerank: float = Field(description="PageRank inside the seeds-and-paths subgraph")
    paths: int = Field(description="how many of the shown paths pass through it")
    seeds: list[str] = Field(description="keys of the seeds whose paths pass through it")


class SeedPath(Model):
    """One shortest path between two seed papers."""

    source: str
    target: str
    path: CitationPath


class ConnectResult(Model):
    """The literature connector: the papers between the seeds, best first, and the paths."""

    seeds: list[PaperSummary]
    max_hops: int
    results: list[ConnectorPaper]
    paths: list[SeedPath]
    unconnected: list[list[str]] = Field(
        default_factory=list, description="pairs of seed keys with no path within max_hops"
    )
    note: str | None = Field(default=None, description="why there are no results, if none")


class SeedReason(Model):
    """Why a recommended paper relates to one seed."""

    seed: str
    cocited: int = Field(description="papers citing both the seed and this paper")
    coupled: int = Field(description="papers both the seed and this paper cite")
    cited_by_seed: bool
    cites_seed: bool
    score: float
    text_similarity: float | None = Field(
        default=None,
        description="cosine similarity of the two papers' text embeddings, when both have one",
    )

    def sentence(self, seed_handle: str) -> str:
        """Return the reason as a short phrase, e.g. 'cited with S by 3; cites S; abstracts
        0.81 alike'."""
        parts = []
        if self.cites_seed:
            parts.append(f"cites {seed_handle}")
        if self.cited_by_seed:
            parts.append(f"cited by {seed_handle}")
        if self.cocited:
            parts.append(f"cited with {seed_handle} by {_count(self.cocited, 'paper')}")
        if self.coupled:
            parts.append(f"shares {_count(self.coupled, 'reference')} with {seed_handle}")
        if self.text_similarity is not None:
            parts.append(f"abstracts {self.text_similarity:.2f} alike")
        return "; ".join(parts)


class Recommendation(PaperSummary):
    """A paper related to the seeds, its Adamic-Adar score and its reasons, per seed."""

    rank: int
    score: float
    reasons: list[SeedReason]


class RecommendResult(Model):
    """Papers most related to a set of seeds by co-citation, coupling and direct links."""

    seeds: list[PaperSummary]
    results: list[Recommendation]
    hubs_skipped: int = Field(
        description="links through papers with more than max_degree citations, left out"
    )
    max_degree: int
    note: str | None = Field(default=None, description="why there are no results, if none")
