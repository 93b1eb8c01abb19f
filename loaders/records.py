"""The validated records every source format yields and the graph writer upserts.

A parser is a generator over one input file. It yields, in this order:
1. one ``SnapshotRecord`` describing the captured state of the source;
2. any number of ``PaperRecord``, ``CitationRecord``, ``Rejected`` and ``Skipped`` items,
   streamed;
3. optionally a final ``SnapshotRecord`` with the same key, completing facts that are only
   known at the end (an arXiv dump's newest ``update_date``).

A parser never raises for bad data: a bad record becomes a ``Rejected`` item naming the
file, the line and the reason, and parsing goes on. It raises ``kg.errors.SourceError`` only
when the file as a whole cannot be read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Literal, Required, TypedDict

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .errors import valid_text
from .ids import (
    AUTHOR_ID_KINDS,
    ID_KINDS,
    AuthorIdKind,
    IdKind,
    id_key,
    normal_author_id,
    normal_id,
)
from .titles import canonical_arxiv_id, normalize_title, paper_key

__all__ = [
    "MAX_YEAR",
    "MIN_YEAR",
    "CitationRecord",
    "EdgeChunk",
    "NamedPaper",
    "Origin",
    "PaperRecord",
    "PaperRef",
    "PaperValues",
    "Record",
    "Rejected",
    "SkipKind",
    "Skipped",
    "SnapshotRecord",
    "StagedBlock",
    "checked_citation",
    "checked_paper",
]

MIN_YEAR = 1800
MAX_YEAR = 2100
"""The years a paper's year, a date of the data or a histogram year may take; any other is
a typo or a placeholder (``9999-12-31``, ``0000``) and is rejected rather than loaded, since
the newest date of a record wins."""

FormatName = Literal[
    "map_page",
    "paper_json",
    "arxiv_oai",
    "edge_list",
    "hepth_abs",
    "openalex",
    "crossref",
    "semantic_scholar",
    "unarxive",
]
"""The input formats by name; ``loaders.formats.FORMATS`` has one entry for each."""
SnapshotKind = FormatName
"""A snapshot's kind is the name of the format its file was read as."""


class Record(BaseModel):
    """Base of all records: immutable, and unknown fields are an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Origin(Record):
    """Where a record came from: the input file and the 1-based line it starts on."""

    path: str
    line: int = Field(ge=1)

    @field_validator("path")
    @classmethod
    def _valid_path(cls, path: str) -> str:
        # A file name that is not UTF-8 stays readable, and valid to write and print.
        return valid_text(path)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


class SnapshotRecord(Record):
    """One captured state of a source: a map page, a JSON record, a dump or an edge list."""

    key: str = Field(min_length=1, description="'sha256:<hex>' of the file's decompressed bytes")
    kind: SnapshotKind
    source: str = Field(description="the file name it was read from")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    data_date: date | None = Field(
        default=None, description="the date the data runs to, e.g. a map page's 'data through'"
    )
    first_date: date | None = Field(default=None, description="oldest record date (dumps)")
    builder_version: str | None = None
    hashes: dict[str, str] = Field(default_factory=dict, description="hashes the source states")
    listed_apart: tuple[str, ...] = Field(
        default=(),
        description="for each normalised title a map page lists two or more papers under, "
        "their keys, sorted and joined by '|'",
    )

    @field_validator("source")
    @classmethod
    def _valid_source(cls, source: str) -> str:
        # Stored in Neo4j, which takes valid Unicode only (not a non-UTF-8 file name).
        return valid_text(source)


class NamedPaper(Record):
    """A paper named by arXiv id, by other strong ids, or by title and year; the base of
    PaperRef and PaperRecord."""

    arxiv_id: str | None = None
    ids: dict[IdKind, str] = Field(
        default_factory=dict,
        description="its strong ids but arXiv's, by kind, each in its normal form "
        "(loaders.ids.normal_id): a value in another spelling is normalised, a value of "
        "no id of its kind is an error",
    )
    title: str | None = None
    year: int | None = Field(default=None, ge=MIN_YEAR, le=MAX_YEAR)

    @field_validator("ids")
    @classmethod
    def _normal_ids(cls, ids: dict[IdKind, str]) -> dict[IdKind, str]:
        normal: dict[IdKind, str] = {}
        for kind in ID_KINDS:
            if kind not in ids:
                continue
            value = normal_id(kind, ids[kind])
            if value is None:
                raise ValueError(f"not a {kind} id: {ids[kind]!r}")
            normal[kind] = value
        return normal

    @model_validator(mode="after")
    def _named(self) -> NamedPaper:
        if self.arxiv_id is not None and canonical_arxiv_id(self.arxiv_id) is None:
            raise ValueError(f"not an arXiv id: {self.arxiv_id!r}")
        if (
            self.arxiv_id is None
            and not self.ids
            and not (self.title and normalize_title(self.title))
        ):
            raise ValueError("a paper needs an arXiv id, another strong id or a non-empty title")
        return self

    @property
    def key(self) -> str:
        """The paper's node key: its canonical arXiv id, else its first strong id in
        ``loaders.ids.ID_KINDS`` order (``doi:10.1145/…``), else its title key (see
        loaders.titles.paper_key)."""
        if self.arxiv_id is None:
            for kind in ID_KINDS:
                if kind in self.ids:
                    return id_key(kind, self.ids[kind])
        return paper_key(self.arxiv_id, self.title, self.year)

    @property
    def id_keys(self) -> list[str]:
        """Every strong id key the record states but its arXiv id, sorted."""
        return sorted(id_key(kind, value) for kind, value in self.ids.items())

    def ref(self, stated_cited_by: int | None = None) -> PaperRef:
        """Return a PaperRef naming this paper as it names itself (arXiv id, ids, title
        and year), with ``stated_cited_by``."""
        return PaperRef(
            arxiv_id=self.arxiv_id,
            ids=self.ids,
            title=self.title,
            year=self.year,
            stated_cited_by=stated_cited_by,
        )


class PaperRef(NamedPaper):
    """A paper as another record names it, with the cited-by count that record shows."""

    stated_cited_by: int | None = Field(default=None, ge=0)


# One field a fact a source can state: declarations alike in shape to the facts a parser
# gathers (map_page._Page) and to the input formats' own models, data rather than logic.
class PaperRecord(NamedPaper):
    """Everything one source states about one paper, as of ``as_of``."""

    origin: Origin
    snapshot: str = Field(description="SnapshotRecord.key this record came from")
    as_of: date | None = Field(
        default=None, description="the date the data runs to; decides which source wins"
    )
    version: int | None = Field(default=None, ge=1)
    published: date | None = Field(default=None, description="first posted on arXiv")
    abstract: str | None = None
    abstract_excerpt: str | None = Field(default=None, description="never overwrites abstract")
    license: str | None = None
    doi: str | None = None
    journal_ref: str | None = None
    comments: str | None = None
    primary_category: str | None = None
    cross_categories: tuple[str, ...] = ()
    authors: tuple[str, ...] = Field(default=(), description="in the order the source gives")
    author_ids: tuple[dict[AuthorIdKind, str], ...] = Field(
        default=(),
        description="each author's strong ids (ORCID, OpenAlex, Semantic Scholar), in the "
        "order of ``authors`` (``{}`` for an author without); empty when the source gives none",
    )
    stated_cited_by: int | None = Field(default=None, ge=0, description="cited by, all sources")
    stated_cited_by_in_map: int | None = Field(default=None, ge=0)
    stated_refs_total: int | None = Field(default=None, ge=0)
    stated_refs_in_map: int | None = Field(default=None, ge=0)
    topics: tuple[str, ...] | None = Field(
        default=None,
        description="the source's subject labels, most relevant first (OpenAlex topics)",
    )
    listed_refs: int | None = Field(default=None, ge=0, description="references the page lists")
    listed_citing: int | None = Field(default=None, ge=0, description="citers the page lists")
    histogram: dict[int, int] = Field(
        default_factory=dict, description="stated citing papers per year"
    )
    extra: dict[str, str | int | float | bool | None] = Field(
        default_factory=dict,
        description="flat source-specific facts kept on the snapshot link, e.g. integrity",
    )

    @field_validator("author_ids")
    @classmethod
    def _normal_author_ids(
        cls, author_ids: tuple[dict[AuthorIdKind, str], ...]
    ) -> tuple[dict[AuthorIdKind, str], ...]:
        normal: list[dict[AuthorIdKind, str]] = []
        for ids in author_ids:
            found: dict[AuthorIdKind, str] = {}
            for kind in AUTHOR_ID_KINDS:
                if kind in ids:
                    value = normal_author_id(kind, ids[kind])
                    if value is None:
                        raise ValueError(f"not an author's {kind} id: {ids[kind]!r}")
                    found[kind] = value
            normal.append(found)
        return tuple(normal) if any(normal) else ()

    @model_validator(mode="after")
    def _ids_per_author(self) -> PaperRecord:
        if self.author_ids and len(self.author_ids) != len(self.authors):
            raise ValueError(f"{len(self.author_ids)} authors' ids for {len(self.authors)} authors")
        return self

    @model_validator(mode="before")
    @classmethod
    def _doi_is_an_id(cls, data: object) -> object:
        # The DOI a record states as text (an arXiv record's journal DOI) is a strong id of
        # the paper too, where it is one DOI (arXiv's field sometimes lists several)
        if isinstance(data, dict) and data.get("doi"):
            ids = dict(data.get("ids") or {})
            doi = normal_id("doi", str(data["doi"]))
            if doi is not None and "doi" not in ids:
                data = {**data, "ids": {**ids, "doi": doi}}
        return data


class CitationRecord(Record):
    """One CITES edge as a source asserts it: ``citing`` cites ``cited``."""

    origin: Origin
    snapshot: str
    as_of: date | None = None
    citing: PaperRef
    cited: PaperRef


class Rejected(Record):
    """A record that failed validation: where it was, why, and its raw text."""

    origin: Origin
    reason: str
    raw: str = ""

    def message(self) -> str:
        """Return the ``file:line: reason`` line shown to the user."""
        return f"{self.origin}: {self.reason}"


SkipKind = Literal[
    "self-citation",
    "unresolved citation",
]
"""What a Skipped item is: a paper listing itself, or a citation whose other paper the source
names by no id and no title (a Semantic Scholar entry with a null paperId and title, a null
``citedcorpusid``, an unarXive bib entry no id was matched to)."""


class Skipped(Record):
    """A record that is a fact of the data, not an error, which the graph does not keep (see
    SkipKind). Counted and reported by kind, never a reject."""

    origin: Origin
    kind: SkipKind
    detail: str

    def message(self) -> str:
        """Return the ``file:line: detail`` line shown to the user."""
        return f"{self.origin}: {self.detail}"


ParsedItem = SnapshotRecord | PaperRecord | CitationRecord | Rejected | Skipped


@dataclass(slots=True)
class EdgeChunk:
    """Citations of one edge list in columns, for a sink that stages them as they are (bulk
    mode's ``ImportSink``): each pair is one the parser would give as a CitationRecord of two
    references by arXiv id alone, that is, two different canonical arXiv ids (the papers'
    keys), valid as a PaperRef's, with no date (``as_of``). Built without an object per edge."""

    snapshot: str
    citing: list[str] = field(default_factory=list)
    cited: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.citing)


@dataclass(slots=True)
class StagedBlock:
    """A block of a file's lines as a sink staged them, in other processes (bulk mode's
    ``ImportSink``; ``loaders.source_file.BlockStage``): the ``as_of`` of each PaperRecord
    the lines gave, in order (the snapshot's dates), and the sink's own items for them."""

    dates: list[date | None]
    items: list[object]

    def __len__(self) -> int:
        return len(self.items)


# A parser that yields a record per line of a large file builds these two without running
# validation again on values it has already checked the same way: validation (pydantic-core,
# plus the after-validator of each PaperRef inside) costs three times what the record does.
# pydantic's model_construct would do, but costs more than validating.
# BaseModel's slots, which its frozen __setattr__ would refuse, set as model_construct does.
_set_fields_set = vars(BaseModel)["__pydantic_fields_set__"].__set__
_set_extra = vars(BaseModel)["__pydantic_extra__"].__set__
_set_private = vars(BaseModel)["__pydantic_private__"].__set__
# Each record's fields set is a new copy of one of these (copying a set costs less than
# building one).
_origin_fields = {"path", "line"}.copy
_citation_fields = {"origin", "snapshot", "citing", "cited"}.copy


def checked_citation(
    path: str, line: int, snapshot: str, citing: PaperRef, cited: PaperRef
) -> CitationRecord:
    """Return ``CitationRecord(origin=Origin(path=path, line=line), snapshot=snapshot,
    citing=citing, cited=cited)`` without validating it again, for a ``path`` that
    ``valid_text`` returned, a ``line`` of at least 1 and valid refs: all that validation
    checks (it runs a PaperRef's own validation again, and nothing more)."""
    origin = object.__new__(Origin)
    origin.__dict__.update(path=path, line=line)
    _set_fields_set(origin, _origin_fields())
    _set_extra(origin, None)
    _set_private(origin, None)
    record = object.__new__(CitationRecord)
    record.__dict__.update(origin=origin, snapshot=snapshot, as_of=None, citing=citing, cited=cited)
    _set_fields_set(record, _citation_fields())
    _set_extra(record, None)
    _set_private(record, None)
    return record


class PaperValues(TypedDict, total=False):
    """The fields ``checked_paper`` takes, typed as validation keeps them unchanged (an
    exact ``str``, ``int``, ``date``, tuple of ``str``; a subclass is not one)."""

    origin: Required[Origin]
    snapshot: Required[str]
    arxiv_id: Required[str]
    as_of: date | None
    version: int | None
    title: str
    year: int | None
    published: date | None
    abstract: str | None
    journal_ref: str | None
    comments: str | None
    primary_category: str | None
    cross_categories: tuple[str, ...]
    authors: tuple[str, ...]
    extra: dict[str, str | int | float | bool | None]


def _paper_defaults() -> dict[str, object]:
    """Return each PaperRecord field's default (None for the required ones, ``{}`` for a
    dict made by a factory), in field order."""
    defaults: dict[str, object] = {}
    for name, info in PaperRecord.model_fields.items():
        if info.default_factory is not None:
            if info.default_factory is not dict:  # pragma: no cover
                raise AssertionError(f"checked_paper makes {name} a dict, not its default")
            defaults[name] = {}
        else:
            defaults[name] = None if info.is_required() else info.default
    return defaults


_PAPER_DEFAULTS = _paper_defaults()
_FACTORY_MADE = tuple(name for name, value in _PAPER_DEFAULTS.items() if value == {})


def checked_paper(values: PaperValues) -> PaperRecord | None:
    """Return ``PaperRecord(**values)`` built without validation, or None when validation
    might change or refuse it (a year out of range, a version under 1, no arXiv id): then
    the caller validates ``values`` and reads the ValidationError. ``origin`` is a
    validated Origin and every value of the exact type ``PaperValues`` gives, as a typed
    parser builds them; what else validation checks (the ids, a DOI, authors' ids) is
    not among them. Its ``__dict__`` (a copy of ``extra``) and fields set are what
    validation makes (tests/unit/test_parse_speedups.py)."""
    year, version = values.get("year"), values.get("version")
    if (
        (year is not None and not MIN_YEAR <= year <= MAX_YEAR)
        or (version is not None and version < 1)
        or canonical_arxiv_id(values["arxiv_id"]) is None
    ):
        return None
    fields = dict(_PAPER_DEFAULTS)
    for name in _FACTORY_MADE:
        fields[name] = {}
    fields.update(values)
    if "extra" in values:
        fields["extra"] = dict(values["extra"])
    record = object.__new__(PaperRecord)
    record.__dict__.update(fields)
    _set_fields_set(record, set(values))
    _set_extra(record, None)
    _set_private(record, None)
    return record
