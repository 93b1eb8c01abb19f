"""A paper's properties, declared once: each one's name, type, merge rule and source.

``PAPER_PROPERTIES`` is every property the loads write on a ``(:Paper)`` from records and
references: its name, its Neo4j (and ``neo4j-admin import``) type, the rule that decides its
value when several records, references or merged papers state one (``POLICIES`` says what
each rule is, as the ``cypher/load`` statements apply it), and the ``PaperRecord`` fields it
comes from. ``PAPER_LISTS`` are the author list and the categories, replaced as a whole;
``LINK_PROPERTIES`` are the counts a record states for its snapshot, kept on its
``DESCRIBED_IN`` link. ``OTHER_FIELDS`` says where the rest of a ``PaperRecord`` goes.

What reads this table: ``kg.load.rows.paper_row`` (the ``papers.cypher`` row of a
record), ``kg.load.import_sink`` (the columns of the import CSVs). The Cypher files stay
plain files that run as they are in Neo4j Browser, so they spell the lists out;
``tests/unit/test_paper_properties.py`` reads each list from them and fails, naming the file
and the property, when one disagrees with this table.

Adding a property a record states (one that the newest record stating it gives):

1. a field on ``loaders.records.PaperRecord``, and the parsers that fill it;
2. one ``_stated(...)`` line in ``PAPER_PROPERTIES``, after ``stated_refs_in_map`` (its place
   is its index in the Cypher lists);
3. the same name in the lists the test names: the ``names`` list and a ``name: value[i]``
   entry of the SET map in ``cypher/load/papers.cypher`` and ``merge_papers.cypher``, and a
   ``.name`` in ``restore_folded.cypher``'s restored map.

``paper_row`` and the import columns follow from the table. A count stated per snapshot
(kept on ``DESCRIBED_IN``) is one line in ``LINK_PROPERTIES`` and an entry in the link maps of
``papers.cypher`` and ``merge_papers.cypher``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Literal

from .records import PaperRecord
from .titles import canonical_arxiv_id, normalize_title

__all__ = [
    "DESCRIBED_COLUMNS",
    "LINK_PROPERTIES",
    "OTHER_FIELDS",
    "PAPER_COLUMNS",
    "PAPER_LISTS",
    "PAPER_PROPERTIES",
    "POLICIES",
    "RECORD_PROPERTIES",
    "REFERENCE_PROPERTIES",
    "ROW_PROPERTIES",
    "ImportType",
    "LinkProperty",
    "PaperList",
    "PaperProperty",
    "Policy",
]

ImportType = Literal["string", "long", "date", "boolean", "string[]", "long[]"]
"""A property's type, as ``neo4j-admin import`` headers spell it (``year:long``)."""

Policy = Literal[
    "newest",
    "newest_or_reference",
    "newest_record",
    "with_list",
    "until_record",
    "identity",
    "own_years",
    "union",
    "best_reference",
    "best_per_key",
    "provenance",
]

POLICIES: dict[Policy, str] = {
    "newest": "the newest record that states it gives it, property by property: records are "
    "ordered by their as_of key (data date, then snapshot key; then line in one file), never "
    "by load order; an older record fills it when no newer one states it, and filled_as_of "
    "says which (papers.cypher); a merge takes each from the paper that got it from the "
    "newer record (merge_papers.cypher)",
    "newest_or_reference": "as newest; when no record states it, the paper's best reference "
    "(ref_as_of) gives it, '<name>=' in filled_as_of (stubs.cypher); a stub takes all three "
    "from its best reference; a merge takes title, norm_title and year no record gave "
    "either paper together from the better reference",
    "newest_record": "the as_of key of the newest record of the paper (the largest)",
    "with_list": "replaced together with its list (PAPER_LISTS) by a record at least as new as "
    "the one that set it; a merge keeps the newer list's",
    "until_record": "true while no full record names the paper (stubs.cypher creates it true, "
    "papers.cypher sets it false); a merged paper is a stub when both were",
    "identity": "the canonical arXiv id, the paper's key when it has one: a record's sets it, "
    "a reference's only when it is missing, a merge keeps the target's, else takes the source's",
    "own_years": "every year a record or a reference stated under the paper's own key, sorted "
    "(the identity rule matches them); a merge adds none, a merged title key's year is in "
    "its key",
    "union": "a sorted set: a merge gives the target both papers' (and merge_papers.cypher "
    "adds what the merge itself makes: the source's key, citations between the two)",
    "best_reference": "the largest ref_as_of of the references to the paper's own key "
    "(stubs.cypher), the largest of both on a merge",
    "best_per_key": "per key of the paper, the best reference under it ('<key>|<ref_as_of>'), "
    "kept once the paper absorbed another key",
    "provenance": "worked out from the others each time they are written: for each property "
    "the newest record did not state, which record gave it",
}
"""What each merge rule is, as the cypher/load statements apply it."""

Reader = Callable[[PaperRecord], object]


@dataclass(frozen=True)
class PaperProperty:
    """One property of a ``(:Paper)`` that the loads write."""

    name: str
    type: ImportType
    policy: Policy
    fields: tuple[str, ...]
    """The ``PaperRecord`` fields it comes from (none: no record states it as such)."""
    doc: str
    read: Reader | None = None
    """Its value in a record's ``papers.cypher`` row (``kg.load.rows.paper_row``), under
    its own name; None when the row does not carry it so (the statements work it out)."""
    imported: bool = False
    """A column of the paper import CSV (``kg.load.import_sink``): a property a paper with
    one full record has, written by ``papers``, ``authors`` and ``categories.cypher``."""


@dataclass(frozen=True)
class LinkProperty:
    """One property of the ``DESCRIBED_IN`` link of a paper to the snapshot of its record.

    The newest record of the paper in the snapshot (data date, then line) gives them all,
    a missing one too (papers.cypher); a link of references only holds the largest
    ``stated_cited_by`` and the newest ``as_of`` they stated (stubs.cypher)."""

    name: str
    type: ImportType
    row: str
    """Its key in the ``papers.cypher`` row."""
    fields: tuple[str, ...]
    read: Reader
    doc: str


@dataclass(frozen=True)
class PaperList:
    """A list a record states that is replaced as a whole by a newer record's."""

    name: str
    fields: tuple[str, ...]
    relationships: tuple[str, ...]
    stamp: str
    """The paper property saying which record set it (its as_of key)."""
    statement: str
    """The ``cypher/load`` file that writes it."""


def _stated(name: str, type_: ImportType, doc: str, policy: Policy = "newest") -> PaperProperty:
    """A property a record states as its field of the same name."""
    return PaperProperty(name, type_, policy, (name,), doc, read=attrgetter(name), imported=True)


def _stamp(name: str, policy: Policy, doc: str) -> PaperProperty:
    """A property naming the record that set something: its ``as_of`` key,
    '<data date>|<snapshot key>'."""
    return PaperProperty(name, "string", policy, ("as_of", "snapshot"), doc, imported=True)


def _kept(name: str, type_: ImportType, policy: Policy, doc: str) -> PaperProperty:
    """A property no record states: the load statements work it out in the graph."""
    return PaperProperty(name, type_, policy, (), doc)


def _counted(name: str, type_: ImportType, doc: str) -> LinkProperty:
    """A link property a record states as its field of the same name."""
    return LinkProperty(name, type_, name, (name,), attrgetter(name), doc)


def _norm_title(record: PaperRecord) -> object:
    return normalize_title(record.title) if record.title else None


def _arxiv_id(record: PaperRecord) -> object:
    return canonical_arxiv_id(record.arxiv_id) if record.arxiv_id else None


def _histogram_years(record: PaperRecord) -> object:
    return sorted(record.histogram) or None


def _histogram_counts(record: PaperRecord) -> object:
    return [record.histogram[y] for y in sorted(record.histogram)] or None


_STATED_COUNTS: tuple[tuple[str, str], ...] = (
    ("stated_cited_by", "cited by, all sources"),
    ("stated_cited_by_in_map", "cited by papers in the map"),
    ("stated_refs_total", "references in all"),
    ("stated_refs_in_map", "references in the map"),
)
"""The counts a record states about its paper, with what each counts: each is a paper
property (the newest record's) and a ``DESCRIBED_IN`` property (every record's)."""

# The order is the order of the Cypher lists: the record properties (newest_or_reference,
# then newest) in the order of papers.cypher's `names`, whose indexes its SET map and
# merge_papers.cypher's use; the imported ones in the order of the import CSV's columns.
PAPER_PROPERTIES: tuple[PaperProperty, ...] = (
    PaperProperty(
        "stub", "boolean", "until_record", (), "known only from references", imported=True
    ),
    PaperProperty(
        "arxiv_id",
        "string",
        "identity",
        ("arxiv_id",),
        "the canonical arXiv id (no version)",
        read=_arxiv_id,
        imported=True,
    ),
    _stated("title", "string", "the title as the record gives it", "newest_or_reference"),
    PaperProperty(
        "norm_title",
        "string",
        "newest_or_reference",
        ("title",),
        "the title's matching form (loaders.titles.normalize_title)",
        read=_norm_title,
        imported=True,
    ),
    _stated("year", "long", "the year", "newest_or_reference"),
    _stated("published", "date", "first posted on arXiv"),
    _stated("abstract", "string", "the full abstract"),
    _stated(
        "abstract_excerpt",
        "string",
        "an excerpt of the abstract (a paper JSON record's), a property of its own: it never "
        "replaces `abstract`, and readers take it only when there is no abstract",
    ),
    _stated("license", "string", "the license"),
    _stated("version", "long", "the arXiv version"),
    _stated("doi", "string", "the DOI as stated (the strong id is a PaperId)"),
    _stated("journal_ref", "string", "the journal reference"),
    _stated("comments", "string", "the comments"),
    *(_stated(name, "long", doc) for name, doc in _STATED_COUNTS),
    _stated(
        "topics",
        "string[]",
        "the subject labels of the newest record that gives any (OpenAlex topics, else its "
        "concepts), most relevant first",
    ),
    _stamp("as_of", "newest_record", "'<data date>|<snapshot key>' of the newest record"),
    PaperProperty("years", "long[]", "own_years", ("year",), "every year stated", imported=True),
    _stamp("authors_as_of", "with_list", "which record set the author list"),
    _stamp("categories_as_of", "with_list", "which record set the categories"),
    PaperProperty(
        "primary_category",
        "string",
        "with_list",
        ("primary_category",),
        "the primary category's code",
        imported=True,
    ),
    _kept(
        "filled_as_of",
        "string[]",
        "provenance",
        "'<name>=<as_of>' per property an older record or a reference gave",
    ),
    _kept("ref_as_of", "string", "best_reference", "the best reference to the paper"),
    _kept("aliases", "string[]", "union", "the other keys the paper was known by"),
    _kept(
        "recorded",
        "string[]",
        "union",
        "the title keys among its keys that a full record was written under",
    ),
    _kept("key_refs", "string[]", "best_per_key", "the best reference under each key"),
    _kept("self_cites", "string[]", "union", "citations between two keys of the paper"),
)

RECORD_PROPERTIES: tuple[PaperProperty, ...] = tuple(
    p for p in PAPER_PROPERTIES if p.policy in ("newest", "newest_or_reference")
)
"""The properties each record gives property by property: papers.cypher's ``names``."""

REFERENCE_PROPERTIES: tuple[PaperProperty, ...] = tuple(
    p for p in PAPER_PROPERTIES if p.policy == "newest_or_reference"
)
"""The record properties a reference gives when no record does: the first of ``names``."""

ROW_PROPERTIES: tuple[PaperProperty, ...] = tuple(p for p in PAPER_PROPERTIES if p.read)
"""The properties a record's papers.cypher row carries under their own names."""

LINK_PROPERTIES: tuple[LinkProperty, ...] = (
    LinkProperty("line", "long", "line", ("origin",), attrgetter("origin.line"), "its line"),
    LinkProperty("as_of", "date", "as_of_date", ("as_of",), attrgetter("as_of"), "its date"),
    *(_counted(name, "long", doc) for name, doc in _STATED_COUNTS),
    _counted("listed_refs", "long", "references the page lists"),
    _counted("listed_citing", "long", "citers the page lists"),
    LinkProperty(
        "histogram_years",
        "long[]",
        "histogram_years",
        ("histogram",),
        _histogram_years,
        "the years of the stated citers-per-year histogram",
    ),
    LinkProperty(
        "histogram_counts",
        "long[]",
        "histogram_counts",
        ("histogram",),
        _histogram_counts,
        "the citers stated for each of those years",
    ),
)
"""The ``DESCRIBED_IN`` properties papers.cypher sets, in its order, beside the record's
``extra`` facts."""

PAPER_LISTS: tuple[PaperList, ...] = (
    PaperList("authors", ("authors",), ("AUTHORED",), "authors_as_of", "authors.cypher"),
    PaperList(
        "categories",
        ("primary_category", "cross_categories"),
        ("PRIMARY_CATEGORY", "CROSS_LISTED"),
        "categories_as_of",
        "categories.cypher",
    ),
)

OTHER_FIELDS: dict[str, str] = {
    "ids": "a (:PaperId) per strong id, which IDENTIFIES the paper (paper_ids.cypher)",
    "extra": "more DESCRIBED_IN properties, one per fact (papers.cypher's `extra {.*}`)",
    "author_ids": "each author's (:AuthorId) nodes, which IDENTIFY the author, keyed by its "
    "first id (author_ids.cypher, authors.cypher)",
}
"""The ``PaperRecord`` fields no property above comes from, and where they go."""


PAPER_COLUMNS: tuple[tuple[str, ImportType], ...] = tuple(
    (p.name, p.type) for p in PAPER_PROPERTIES if p.imported
)
"""The paper import CSV's columns after its key, ``(name, type)``: ``stub`` and ``arxiv_id``
first (a stub's row is those two alone)."""

DESCRIBED_COLUMNS: tuple[tuple[str, ImportType], ...] = tuple(
    (p.name, p.type) for p in LINK_PROPERTIES
)
"""The ``DESCRIBED_IN`` import CSV's columns after its two ends, before the ``extra`` ones."""
