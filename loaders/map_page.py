"""Parse a map page saved as text: one paper, the papers it builds on and those built on it.

A page is, loosely: an optional ``<site>Data to <date>`` line, the title, an
``arXiv <id> ↗First posted <date><categories>cited by <n>`` line, an abstract, a
``Key facts.`` paragraph, a "Builds on" section listing references and a "Built on by"
section with a per-year histogram and the citing papers. List items read
``2017Attention Is All You Needcited by 60,361`` (year, title, count, glued), numbered,
bulleted or bare. Blank lines, the site line, the arXiv line and any section may be missing.

The file is read twice: the first pass gathers the page's own facts (its identity, dates,
stated and listed counts) and the key and title of each item (to see which papers it lists
apart under one title), so that the snapshot and the paper can be yielded before the
citation edges, which the second pass streams.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import ValidationError

from .errors import SourceError
from .records import (
    MAX_YEAR,
    MIN_YEAR,
    CitationRecord,
    Origin,
    PaperRecord,
    PaperRef,
    ParsedItem,
    Rejected,
)
from .source_file import (
    MAX_CATEGORY_CHARS,
    MAX_INT,
    LongLine,
    arxiv_id_and_version,
    bounded_int,
    file_snapshot,
    numbered_lines,
    read_head,
    record_problem,
    version_problem,
)
from .text import collapse_spaces
from .titles import normalize_title, parse_title_key

__all__ = ["parse", "parse_date", "parse_item"]

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_DATE = (
    r"(?:\d{4}-\d{1,2}-\d{1,2}"
    r"|\d{1,2}\s+[A-Za-z]{3,9}\.?,?\s+\d{4}"
    r"|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4})"
)
# The patterns of a page's lines, one constant each: a table whose rows share a shape.
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})")
_MONTH_DAY_YEAR = re.compile(r"([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})")
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_CATEGORY = re.compile(r"[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]{2,}(?:-[a-z]+)?)?")

# No "\s*" before "Data": after a lazy ".*?" it made a long run of spaces quadratic.
_HEADER = re.compile(rf"^(?P<site>.*?)Data (?:to|through)\s+(?P<date>{_DATE})\.?$", re.I)
_ID_LINE = re.compile(r"^arXiv[:\s]\s*(?P<id>[^\s↗]+)\s*(?P<arrow>↗)?(?P<rest>.*)$")
_POSTED_LINE = re.compile(r"^First posted\b", re.I)
_ID_CITED_BY = re.compile(r"cited by", re.I)
_ID_POSTED = re.compile(
    rf"First posted\s*(?:on\s+)?(?:arXiv\s+)?(?:on\s+)?(?P<date>{_DATE})?", re.I
)
_KEY_FACTS = re.compile(r"^Key facts\b[.:]?", re.I)
_FACT_CITED = re.compile(r"\bCited by (?P<n>[\d,]+|no|one) papers? in the map", re.I)
_FACT_NOT_CITED = re.compile(r"\bNot (?:yet )?cited by any papers? in the map", re.I)
_FACT_DATA = re.compile(r"\(data (?:through|to)\s*(?P<date>[^)]*)\)", re.I)
_FACT_REFS = re.compile(
    r"\bBuilds on (?P<m>[\d,]+|none|no|one) of its (?P<k>[\d,]+|one) references?", re.I
)
_FACT_REFS_IN_MAP = re.compile(
    r"\bBuilds on (?P<m>[\d,]+|no|one) references? (?:that (?:are|is) )?in the map", re.I
)
_FACT_POSTED = re.compile(
    rf"\bFirst posted(?: on arXiv)?(?: on)?\s*(?P<date>{_DATE})?(?P<rest>[^.]*)", re.I
)
_ABSTRACT = re.compile(r"^Abstract\s*(?:\([^)]*\))?\s*:?$", re.I)
_BUILDS_ON = re.compile(r"^Builds on\s*(?:[·:(]\s*[\d,]*\)?)?$", re.I)
_BUILT_ON_BY = re.compile(r"^Built on by\s*(?:[·:(]\s*[\d,]*\)?)?$", re.I)
_REFS_HEADING = re.compile(r"^References?\s*(?:·\s*(?P<n>[\d,]+))?$", re.I)
_CITING_HEADING = re.compile(r"^(?:Cited by year|Citing papers|Cited by(?:\s*·\s*[\d,]+)?)$", re.I)
_HISTOGRAM = re.compile(r"^Citing papers per year\s*:?\s*(?P<body>.*)$", re.I)
_HISTOGRAM_SPLIT = re.compile(r";|,\s+(?=\d{4}\s*:)")
_HISTOGRAM_ENTRY = re.compile(r"\s*(\d{4})\s*:\s*(\d{1,3}(?:,\d{3})+|\d+)\s*")
_REFS_SUMMARY = re.compile(
    r"^(?P<m>[\d,]+|no|none|one) of (?:its )?(?P<k>[\d,]+|one) references?(?: in the map)?\.?$",
    re.I,
)
_PAPERS_SUMMARY = re.compile(r"^(?P<n>[\d,]+|no|one) (?:citing )?papers?\.?$", re.I)
_MORE = re.compile(r"^\+?\s*[\d,]+ more(?: references| papers| citing papers)?\.?$")
_TRAILER = re.compile(
    r"^(?:[\d,]+ (?:most cited|most recent|shown|listed)|Showing [\d,]+) "
    r"(?:of|out of) (?P<total>[\d,]+)\b.*$",
    re.I,
)
_CHROME = re.compile(
    r"^(?:Not on the map\b.*|Sort\s*:.*|By area\s*:.*|Show (?:all|more|less)\b.*"
    r"|All [\d,]+(?:\s*\(JSON\))?|\(JSON\))$",
    re.I,
)
_STRUCTURE = (
    ("facts", _KEY_FACTS),
    ("abstract", _ABSTRACT),
    ("builds_on", _BUILDS_ON),
    ("built_on_by", _BUILT_ON_BY),
    ("histogram", _HISTOGRAM),
    ("refs_heading", _REFS_HEADING),
    ("citing_heading", _CITING_HEADING),
    ("refs_summary", _REFS_SUMMARY),
    ("papers_summary", _PAPERS_SUMMARY),
    ("more", _MORE),
    ("trailer", _TRAILER),
    ("chrome", _CHROME),
)
_MARKER = re.compile(r"^(?:\d{1,4}[.)]\s*|[-*•‣]\s+)")
_YEAR = re.compile(r"\d{4}")
_CITED_BY = "cited by"
_TITLE_TRIM = " \t\u00b7\u2022|\u2014\u2013"  # spaces, dots, bars and dashes
_RAW_LIMIT = 500
_ITEM_EXAMPLE = "'2017Attention Is All You Needcited by 60,361' (year, title, 'cited by' count)"

_Section = Literal["refs", "citing"]
_State = Literal["start", "top", "abstract", "facts", "refs", "citing"]


def parse_date(text: str) -> date | None:
    """Return the date in ``8 Oct 2021``, ``14 October 2026``, ``Oct 8, 2021`` or ``2026-10-14``.

    Returns None when ``text`` is not one of these, names no real day or a year outside
    MIN_YEAR-MAX_YEAR (a placeholder like ``9999-12-31`` would win over every later page).
    """
    text = text.strip().rstrip(".").strip()
    parts: tuple[int, int, int] | None = None
    if match := _ISO_DATE.fullmatch(text):
        parts = (int(match[1]), int(match[2]), int(match[3]))
    elif match := _DAY_MONTH_YEAR.fullmatch(text):
        parts = (int(match[3]), _month(match[2]) or 0, int(match[1]))
    elif match := _MONTH_DAY_YEAR.fullmatch(text):
        parts = (int(match[3]), _month(match[1]) or 0, int(match[2]))
    if parts is None or not MIN_YEAR <= parts[0] <= MAX_YEAR:
        return None
    try:
        return date(parts[0], parts[1], parts[2])
    except ValueError:
        return None


def _month(name: str) -> int | None:
    name = name.lower()
    if name == "sept":
        return 9
    for number, full in enumerate(_MONTHS, start=1):
        if len(name) >= 3 and full.startswith(name):
            return number
    return None


def _count(text: str) -> int | None:
    """Return the count in ``60,361``, ``12``, ``one`` or ``no``/``none``; None if not one.

    A count over MAX_INT (more than Neo4j stores) is None too; ``_too_large`` tells it apart.
    """
    text = text.strip().lower()
    if text in ("no", "none"):
        return 0
    if text == "one":
        return 1
    return bounded_int(text.replace(",", "")) if _NUMBER.fullmatch(text) else None


def _too_large(text: str) -> bool:
    """Return True when ``text`` is a number written in digits that is over MAX_INT."""
    text = text.strip()
    return bool(_NUMBER.fullmatch(text)) and bounded_int(text.replace(",", "")) is None


def _shown(text: str, limit: int = 40) -> str:
    """Return ``text`` cut to ``limit`` characters for a message, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _over(what: str, text: str) -> str:
    return f"{what} {_shown(text)} is over {MAX_INT:,}, the largest number Neo4j stores"


def _split_item(text: str) -> tuple[int, str, int] | str:
    """Return (year, title, cited-by count) of a list item, or why the line is not one."""
    body = _MARKER.sub("", text.strip(), count=1).strip()
    if not body:
        return "the list item is empty"
    if not _YEAR.match(body):
        return "it does not start with a 4-digit year"
    at = body.lower().rfind(_CITED_BY)
    if at < 0:
        return "it has no 'cited by N' count at the end"
    count_text = body[at + len(_CITED_BY) :].strip()
    count = _count(count_text) if count_text[:1].isdigit() else None
    if count is None:
        if not count_text:
            return "'cited by' has no count"
        if _too_large(count_text):
            return _over("the 'cited by' count", count_text)
        return f"'cited by {_shown(count_text)}' is not a number"
    title = body[4:at].strip(_TITLE_TRIM)
    if not title:
        return "it has no title between the year and 'cited by'"
    year = int(body[:4])
    if not MIN_YEAR <= year <= MAX_YEAR:
        return f"the year {year} is not between {MIN_YEAR} and {MAX_YEAR}"
    return year, title, count


def parse_item(text: str) -> tuple[int, str, int] | None:
    """Return (year, title, cited-by count) for a list item line, or None if it is not one.

    The item may be numbered (``1.``), bulleted (``-``) or bare; the year is exactly the
    first four digits, so ``20193D Shapes...`` is 2019 and ``3D Shapes...``.
    """
    parts = _split_item(text)
    return None if isinstance(parts, str) else parts


class _Item(NamedTuple):
    """One parsed list item of a section."""

    section: _Section
    line: int
    ref: PaperRef


@dataclass
class _Counts:
    """The counts of a page's paper that one part of the page states: its key facts, or
    its sections' headings and summaries."""

    cited_in_map: int | None = None
    refs_in_map: int | None = None
    refs_total: int | None = None

    def over(self, other: _Counts) -> _Counts:
        """Return these counts, each one they do not state taken from ``other``."""
        return _Counts(
            _first(self.cited_in_map, other.cited_in_map),
            _first(self.refs_in_map, other.refs_in_map),
            _first(self.refs_total, other.refs_total),
        )


@dataclass
class _Facts(_Counts):
    """What a page's key facts state: the counts, the data date and the first-posted one."""

    data_date: date | None = None
    posted: date | None = None


@dataclass
class _Page:
    """The facts a page states about its own paper, gathered while scanning. Its key facts
    win over its sections for the counts, and its site and arXiv lines over its key facts
    for the dates."""

    seen_text: bool = False
    recognised: bool = False
    header_date: date | None = None
    title: str | None = None
    title_line: int = 1
    arxiv_id: str | None = None
    version: int | None = None
    posted: date | None = None
    primary: str | None = None
    cross: tuple[str, ...] = ()
    cited_by: int | None = None
    facts: _Facts = field(default_factory=_Facts)
    section: _Counts = field(default_factory=_Counts)
    listed_refs: int | None = None
    listed_citing: int | None = None
    histogram: dict[int, int] = field(default_factory=dict)
    abstract: list[str] = field(default_factory=list)
    has_facts: bool = False
    last_line: int = 1

    def missing(self) -> str | None:
        """Return what a page that stops short lacks, or None when it looks whole.

        A page that names its paper but lists neither references nor citing papers (unless
        its key facts say there are none of either), or whose key facts count references
        or citing papers in the map that it never lists, was cut off.
        """
        no_refs = self.listed_refs is None
        no_citing = self.listed_citing is None and not self.histogram
        counts = self.counts
        refs, citers = counts.refs_in_map, counts.cited_in_map
        if no_refs and no_citing and not (refs == 0 and citers == 0):
            parts = "'Builds on' and 'Built on by' lists"
            if not self.has_facts:
                parts = "'Key facts.', 'Builds on' and 'Built on by' parts"
            return (
                f"the page ends here without its {parts}, so it looks truncated: only the "
                "paper's own facts were loaded; save the whole page and load it again"
            )
        lists = []
        if no_refs and refs:
            lists.append(f"the 'Builds on' list of the {_papers(refs, 'reference')} in the map")
        if no_citing and citers:
            lists.append(
                f"the 'Built on by' list of the {_papers(citers, 'citing paper')} in the map"
            )
        if not lists:
            return None
        return (
            f"the page ends here without {' or '.join(lists)} that its key facts count, so it "
            "looks truncated: those citations were not loaded; save the whole page and load "
            "it again"
        )

    @property
    def data_date(self) -> date | None:
        """The date the page's data runs to: the site line's, else the key facts'."""
        return self.header_date or self.facts.data_date

    @property
    def published(self) -> date | None:
        """The first-posted date: the arXiv line's, else the key facts'."""
        return self.posted or self.facts.posted

    @property
    def counts(self) -> _Counts:
        """The counts in the map the page states: the key facts', else the sections'."""
        return self.facts.over(self.section)

    @property
    def year(self) -> int | None:
        """The year the paper was first posted, if the page says."""
        return self.published.year if self.published else None

    def ref(self) -> PaperRef:
        """Return the page's paper as the other end of its citation edges."""
        return PaperRef(arxiv_id=self.arxiv_id, title=self.title, year=self.year)

    def record(self, origin: Origin, snapshot: str) -> PaperRecord:
        """Return the PaperRecord of the page's paper; raises ValidationError if unusable."""
        counts = self.counts
        return PaperRecord(
            origin=origin,
            snapshot=snapshot,
            as_of=self.data_date,
            arxiv_id=self.arxiv_id,
            version=self.version,
            title=self.title,
            year=self.year,
            published=self.published,
            abstract="\n\n".join(self.abstract) or None,
            primary_category=self.primary,
            cross_categories=self.cross,
            stated_cited_by=self.cited_by,
            stated_cited_by_in_map=counts.cited_in_map,
            stated_refs_in_map=counts.refs_in_map,
            stated_refs_total=counts.refs_total,
            listed_refs=self.listed_refs,
            listed_citing=self.listed_citing,
            histogram=dict(self.histogram),
        )


def _papers(count: int, noun: str) -> str:
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def _first(*values: int | None) -> int | None:
    return next((value for value in values if value is not None), None)


class _Scanner:
    """A line-by-line reader of one page; ``page`` holds what it has gathered so far."""

    def __init__(self, path: str) -> None:
        self.page = _Page()
        self._path = path
        self._state: _State = "start"
        self._paragraph: list[str] = []

    def feed(self, number: int, raw: str) -> Iterator[_Item | Rejected]:
        """Take one line; yield the list item it holds or why it was rejected.

        Raises SourceError when the page turns out to have no title.
        """
        self.page.last_line = number
        text = raw.strip().lstrip("\ufeff").strip()
        if not text:
            self._end_paragraph()
            return
        if self._state == "start":
            yield from self._start(number, raw, text)
            return
        handled = self._structure(number, raw, text)
        if handled is not None:
            yield from handled
            return
        if self._state == "abstract":
            self._paragraph.append(text)
        elif self._state == "facts":
            yield from self._key_facts(number, raw, text)
        elif self._state in ("refs", "citing"):
            yield from self._section_line(number, raw, text)
        elif _MARKER.match(text) and parse_item(text) is not None:
            yield self._reject(
                number,
                raw,
                "list item before any 'Builds on' or 'Built on by' section, so it is unknown "
                "whether it is a reference or a citing paper; move it under its section",
            )

    def finish(self) -> _Page:
        """Return the page's facts; raises SourceError when it is empty or not a map page."""
        self._end_paragraph()
        if not self.page.seen_text:
            raise SourceError(f"{self._path}: the file is empty", "give a saved map page")
        if self.page.title is None:
            raise SourceError(
                f"{self._path}: the page has no title line",
                "a map page starts with the paper's title (after an optional "
                "'<site>Data to <date>' line)",
            )
        if not self.page.recognised:
            raise SourceError(
                f"{self._path}: this is not a map page: it has no 'arXiv <id>' line, no "
                "'Key facts.' and no 'Builds on' or 'Built on by' section",
                "check that the file is a map page saved as text",
            )
        return self.page

    def _reject(self, number: int, raw: str, reason: str) -> Rejected:
        return Rejected(origin=Origin(path=self._path, line=number), reason=reason, raw=raw)

    def _enter(self, state: _State) -> None:
        if self._state == "abstract":
            self._end_paragraph()
        self._state = state
        if state == "refs" and self.page.listed_refs is None:
            self.page.listed_refs = 0
        if state == "citing" and self.page.listed_citing is None:
            self.page.listed_citing = 0
        if state in ("facts", "refs", "citing"):
            self.page.recognised = True
        if state == "facts":
            self.page.has_facts = True

    def _end_paragraph(self) -> None:
        if self._paragraph:
            self.page.abstract.append(" ".join(self._paragraph))
            self._paragraph = []

    def _start(self, number: int, raw: str, text: str) -> Iterator[Rejected]:
        first_text = not self.page.seen_text
        self.page.seen_text = True
        header = _HEADER.match(text) if first_text else None
        if header:
            self.page.recognised = True
            self.page.header_date = parse_date(header["date"])
            if self.page.header_date is None:
                yield self._reject(
                    number,
                    raw,
                    f"site line: '{header['date']}' is not a real date in the years "
                    f"{MIN_YEAR}-{MAX_YEAR}; "
                    "the data-through date is taken from the key facts instead",
                )
            return
        if _CHROME.match(text):
            return
        if self._is_id_line(text) or self._structure_kind(text) is not None:
            raise SourceError(
                f"{self._path}:{number}: the page has no title line before '{text[:40]}'",
                "a map page starts with the paper's title (after an optional "
                "'<site>Data to <date>' line); add the title",
            )
        self.page.title = collapse_spaces(text)
        self.page.title_line = number
        self._state = "top"

    def _is_id_line(self, text: str) -> bool:
        match = _ID_LINE.match(text)
        if match is None:
            return bool(_POSTED_LINE.match(text))
        return bool(match["arrow"]) or arxiv_id_and_version(match["id"]) is not None

    def _structure_kind(self, text: str) -> str | None:
        """Return which page-structure line ``text`` is, or None for other text."""
        return next((kind for kind, pattern in _STRUCTURE if pattern.match(text)), None)

    def _structure(self, number: int, raw: str, text: str) -> list[Rejected] | None:
        """Handle a page-structure line; return its rejections, or None for other text."""
        page = self.page
        before_sections = self._state in ("top", "abstract", "facts")
        unidentified = page.arxiv_id is None and page.posted is None
        if before_sections and unidentified and self._is_id_line(text):
            self._enter("top")
            page.recognised = True
            return self._id_line(number, raw, text)
        kind = self._structure_kind(text)
        if kind is None:
            return None
        if kind == "facts":
            self._enter("facts")
            return list(self._key_facts(number, raw, _KEY_FACTS.sub("", text, count=1)))
        counts: list[str] = []
        if kind == "abstract":
            self._enter("abstract")
        elif kind in ("builds_on", "refs_heading", "refs_summary"):
            self._enter("refs")
            if kind == "refs_heading" and (match := _REFS_HEADING.match(text)) and match["n"]:
                counts.append(match["n"])
                page.section.refs_in_map = _first(page.section.refs_in_map, _count(match["n"]))
            if kind == "refs_summary" and (match := _REFS_SUMMARY.match(text)):
                counts.extend((match["m"], match["k"]))
                page.section.refs_in_map = _count(match["m"])
                page.section.refs_total = _count(match["k"])
        elif kind in ("built_on_by", "citing_heading", "papers_summary"):
            self._enter("citing")
            if kind == "papers_summary" and (match := _PAPERS_SUMMARY.match(text)):
                counts.append(match["n"])
                page.section.cited_in_map = _count(match["n"])
        elif kind == "histogram":
            self._enter("citing")
            return self._histogram(number, raw, _HISTOGRAM.match(text))
        elif kind == "trailer" and (match := _TRAILER.match(text)):
            counts.append(match["total"])
            total = _count(match["total"])
            if self._state == "refs":
                page.section.refs_in_map = _first(page.section.refs_in_map, total)
            elif self._state == "citing":
                page.section.cited_in_map = _first(page.section.cited_in_map, total)
        if big := [count for count in counts if _too_large(count)]:
            return [self._reject(number, raw, _over("the count", big[0]) + "; it was left out")]
        return []

    def _id_line(self, number: int, raw: str, text: str) -> list[Rejected]:
        page = self.page
        problems: list[str] = []
        rest = text
        match = _ID_LINE.match(text)
        if match:
            rest = match["rest"]
            parsed = arxiv_id_and_version(match["id"])
            if parsed is None:
                problems.append(
                    f"'{_shown(match['id'])}' is not an arXiv id (expected e.g. 2110.03888); "
                    "the paper is keyed by its title instead"
                )
            else:
                page.arxiv_id, page.version = parsed
                if problem := version_problem(match["id"]):
                    problems.append(f"{problem}; the version was left out")
        if cited := _ID_CITED_BY.search(rest):
            count_text = rest[cited.end() :].strip()
            rest = rest[: cited.start()]
            page.cited_by = _count(count_text) if count_text[:1].isdigit() else None
            if page.cited_by is None and _too_large(count_text):
                problems.append(_over("the 'cited by' count", count_text) + "; it was left out")
            elif page.cited_by is None:
                problems.append(f"'cited by {_shown(count_text)}' is not a number; it was left out")
        if posted := _ID_POSTED.search(rest):
            rest = f"{rest[: posted.start()]} {rest[posted.end() :]}"
            page.posted = parse_date(posted["date"] or "")
            if page.posted is None:
                shown = posted["date"] or rest.strip()[:20]
                problems.append(
                    f"first-posted date '{shown}' is not a real date like '8 Oct 2021' in the "
                    f"years {MIN_YEAR}-{MAX_YEAR}; "
                    "the key facts' date is used if they give one"
                )
        categories = [
            token
            for token in re.split(r"[\s·,|]+", rest.replace("↗", " "))
            if token and len(token) <= MAX_CATEGORY_CHARS and _CATEGORY.fullmatch(token)
        ]
        if categories:
            page.primary = categories[0]
            page.cross = tuple(dict.fromkeys(c for c in categories[1:] if c != categories[0]))
        if not problems:
            return []
        return [self._reject(number, raw, "arXiv line: " + "; ".join(problems))]

    def _key_facts(self, number: int, raw: str, text: str) -> Iterator[Rejected]:
        page = self.page
        problems: list[str] = []
        big = {
            value
            for pattern in (_FACT_CITED, _FACT_REFS, _FACT_REFS_IN_MAP)
            if (match := pattern.search(text))
            for value in match.groups()
            if value and _too_large(value)
        }
        problems.extend(_over("the count", value) + "; it was left out" for value in sorted(big))
        if match := _FACT_CITED.search(text):
            page.facts.cited_in_map = _count(match["n"])
        elif _FACT_NOT_CITED.search(text):
            page.facts.cited_in_map = 0
        if match := _FACT_REFS.search(text):
            page.facts.refs_in_map = _count(match["m"])
            page.facts.refs_total = _count(match["k"])
        elif match := _FACT_REFS_IN_MAP.search(text):
            page.facts.refs_in_map = _count(match["m"])
        if match := _FACT_DATA.search(text):
            page.facts.data_date = parse_date(match["date"])
            if page.facts.data_date is None:
                problems.append(
                    f"'data through {match['date']}' is not a real date like '14 Oct 2026' in the "
                    f"years {MIN_YEAR}-{MAX_YEAR}; "
                    "the snapshot's date comes from the site line, if any"
                )
        if match := _FACT_POSTED.search(text):
            page.facts.posted = parse_date(match["date"] or "")
            if page.facts.posted is None:
                shown = (match["date"] or match["rest"]).strip()
                problems.append(
                    f"first-posted date '{shown}' is not a real date like '8 Oct 2021' in the "
                    f"years {MIN_YEAR}-{MAX_YEAR}; "
                    "the paper's year is left unknown unless the arXiv line gives it"
                )
        if problems:
            yield self._reject(number, raw, "key facts: " + "; ".join(problems))

    def _histogram(self, number: int, raw: str, match: re.Match[str] | None) -> list[Rejected]:
        body = match["body"].strip().rstrip(".") if match else ""
        bad: list[str] = []
        big: list[str] = []
        outside: list[str] = []
        for entry in _HISTOGRAM_SPLIT.split(body):
            if not entry.strip():
                continue
            pair = _HISTOGRAM_ENTRY.fullmatch(entry)
            if pair is None:
                bad.append(_shown(entry.strip()))
                continue
            if not MIN_YEAR <= int(pair[1]) <= MAX_YEAR:
                outside.append(pair[1])
                continue
            count = bounded_int(pair[2].replace(",", ""))
            if count is None:
                big.append(pair[1])
                continue
            self.page.histogram[int(pair[1])] = count
        problems = []
        if bad:
            shown = ", ".join(f"'{entry}'" for entry in bad)
            problems.append(f"{shown} is not 'YEAR: COUNT'")
        if big:
            shown = ", ".join(big)
            problems.append(f"the count for {shown} is over {MAX_INT:,}, the largest Neo4j stores")
        if outside:
            shown = ", ".join(outside)
            problems.append(f"the year {shown} is not between {MIN_YEAR} and {MAX_YEAR}")
        if not problems:
            return []
        return [
            self._reject(
                number,
                raw,
                f"citing papers per year: {'; '.join(problems)}; "
                "the other years were kept, fix the entry to keep it too",
            )
        ]

    def _section_line(self, number: int, raw: str, text: str) -> Iterator[_Item | Rejected]:
        if not (_MARKER.match(text) or _YEAR.match(text) or _CITED_BY in text.lower()):
            return  # page chrome that is not a list item
        section: _Section = "refs" if self._state == "refs" else "citing"
        if section == "refs":
            self.page.listed_refs = (self.page.listed_refs or 0) + 1
        else:
            self.page.listed_citing = (self.page.listed_citing or 0) + 1
        label = "reference" if section == "refs" else "citing-paper"
        parts = _split_item(text)
        if isinstance(parts, str):
            yield self._reject(
                number,
                raw,
                f"{label} item skipped: {parts}; items read {_ITEM_EXAMPLE}, "
                "so fix or remove the line",
            )
            return
        year, title, count = parts
        try:
            ref = PaperRef(title=title, year=year, stated_cited_by=count)
        except ValidationError:
            yield self._reject(
                number,
                raw,
                f"{label} item skipped: the title '{_shown(title)}' has no letters or digits; "
                "fix or remove the line",
            )
            return
        if problem := record_problem(ref):
            yield self._reject(number, raw, f"{label} item skipped: {problem}; fix the line")
            return
        yield _Item(section, number, ref)


def _check_text(path: Path) -> None:
    """Raise SourceError when the file's content is binary rather than text."""
    head = read_head(path, 8192)
    # A stray NUL or bad byte is kept (a title may hold one); many of them mean binary.
    if head.count("\x00") > 8 or head.count("\ufffd") > max(8, len(head) // 20):
        raise SourceError(
            f"{path}: the file holds binary data, not a map page",
            "give the page saved as UTF-8 text (gzipped or not)",
        )


def _scan(path: Path) -> tuple[_Page, _Apart]:
    """Return the page's own facts, and the keys its items name under each title."""
    scanner = _Scanner(str(path))
    apart = _Apart()
    for number, line in numbered_lines(path):
        if isinstance(line, LongLine):
            continue  # rejected when the items are read
        for item in scanner.feed(number, line):
            if isinstance(item, _Item):
                apart.add(item.ref)
    return scanner.finish(), apart


class _Apart:
    """The keys a page names under each normalised title, gathered item by item: those of
    two items (references or citing papers), or of an item and the page's own paper, are
    separate papers on the page's word, which the identity rule keeps apart
    (``loaders.identity.title_places``). The snapshot record carries them
    (``listed_apart``); the graph keeps them as ListedApart nodes the snapshot LISTS_APART,
    which the rule and ``kg merges`` read."""

    def __init__(self) -> None:
        self._by_title: dict[str, set[str]] = {}

    def add(self, ref: PaperRef) -> None:
        key = ref.key
        parsed = parse_title_key(key)
        if parsed is not None and parsed[1] is None:
            return  # a paper named with no year joins no other: nothing to keep apart
        norm = parsed[0] if parsed is not None else normalize_title(ref.title or "")
        if norm:
            self._by_title.setdefault(norm, set()).add(key)

    def listed(self) -> list[str]:
        """The ``listed_apart`` entries: for each title the page names two or more papers
        under, their keys, sorted and joined by ``|``; sorted."""
        return sorted("|".join(sorted(keys)) for keys in self._by_title.values() if len(keys) > 1)


def parse(path: Path) -> Iterator[ParsedItem]:
    """Yield the snapshot, the page's paper, then one CitationRecord per listed item.

    References become edges from the page's paper to the item; citing papers become edges
    from the item to the page's paper. A malformed line becomes a ``Rejected`` item.
    ``listed_refs``/``listed_citing`` count every item line in a section, rejected or not.
    Raises SourceError when the file cannot be read, is empty or binary, has no title or is
    not a map page.
    """
    snapshot = file_snapshot(path, "map_page")
    _check_text(path)
    page, apart = _scan(path)
    origin = Origin(path=str(path), line=page.title_line)
    paper, page_ref = _own_paper(page, origin, snapshot.key)
    apart.add(page_ref)
    problem = record_problem(paper)
    yield snapshot.model_copy(
        update={
            "data_date": page.data_date,
            # a page whose items are not loaded speaks for none of them
            "listed_apart": () if problem else tuple(apart.listed()),
        }
    )
    if problem:
        listed = (page.listed_refs or 0) + (page.listed_citing or 0)
        yield Rejected(
            origin=origin,
            reason=f"the page's paper was not loaded, nor its {listed:,} listed references and "
            f"citing papers: {problem}",
            raw=(page.title or "")[:_RAW_LIMIT],
        )
        return
    yield paper
    yield from _citations(path, page, page_ref, snapshot.key)
    if missing := page.missing():
        yield Rejected(origin=Origin(path=str(path), line=page.last_line), reason=missing)


def _own_paper(page: _Page, origin: Origin, snapshot: str) -> tuple[PaperRecord, PaperRef]:
    """Return the page's own paper, as a record and as the end of its citations; raises
    SourceError when it is not usable (no title with letters or digits, no arXiv id)."""
    try:
        return page.record(origin, snapshot), page.ref()
    except ValidationError as exc:
        reason = "; ".join(error["msg"] for error in exc.errors())
        raise SourceError(
            f"{origin}: the page's own paper is not usable ({reason})",
            "give the page a title with letters or digits, or an arXiv id line",
        ) from exc


def _citations(
    path: Path, page: _Page, page_ref: PaperRef, snapshot: str
) -> Iterator[CitationRecord | Rejected]:
    """Yield a CitationRecord per listed item (from the page's paper to a reference, from a
    citing paper to it), or why the item's line is none."""
    scanner = _Scanner(str(path))
    for number, line in numbered_lines(path):
        if isinstance(line, LongLine):
            yield Rejected(
                origin=Origin(path=str(path), line=number), reason=line.reason(), raw=line.head
            )
            continue
        for item in scanner.feed(number, line):
            if isinstance(item, Rejected):
                yield item
                continue
            citing, cited = (page_ref, item.ref) if item.section == "refs" else (item.ref, page_ref)
            yield CitationRecord(
                origin=Origin(path=str(path), line=item.line),
                snapshot=snapshot,
                as_of=page.data_date,
                citing=citing,
                cited=cited,
            )
