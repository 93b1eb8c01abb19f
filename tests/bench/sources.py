"""The source parsers' benchmark: OpenAlex, Semantic Scholar, Crossref and unarXive files
made from the synthetic set, each parsed alone in a fresh process.

    python -m tests.bench.sources [--scales 1,10] [--out docs/BENCHMARKS-sources.md]
    python -m tests.bench.sources --scales 0.02 --out /tmp/sources.md     # a quick check
    python -m tests.bench.sources --papers 500 --inputs openalex,unarxive --repeat 1
    python -m tests.bench.sources --scales 1,10 --load [--load-max-scale 10]

For each scale (1x is cit-HepTh's size, 27,770 papers and about 352,800 citations, as in
``tests.bench.ingest``) the synthetic set (``tests.bench.synthetic``) is made, and from its
papers and citations one file per input, in the shape the source writes it:

- ``openalex``: OpenAlex works as the snapshot holds them (gzipped JSON lines): ids, DOI,
  authorships with author ids and ORCIDs, an abstract_inverted_index, locations (arXiv's
  among them), referenced_works as W URLs, topics, concepts, counts and dates.
- ``s2-graph``: Semantic Scholar Graph API paper objects (JSON lines), a fifth of them with
  their ``references`` nested as the API returns them when asked.
- ``s2-papers``, ``s2-citations``: the S2 datasets' ``papers`` and ``citations`` lines
  (gzipped JSON lines, as the datasets API serves them).
- ``crossref``: Crossref REST works (the ``message`` of /works/DOI, as JSON lines), each
  in-set reference with its DOI and a few unstructured ones without.
- ``unarxive``: unarXive lines (paper_id, the arXiv metadata, full text with citation and
  formula markers, bib_entries with matched ids, ref_entries).

Field names and nesting follow the real records; every value is made up. Files are seeded
and cached under ``--work`` (``$KG_HOME/bench/sources``, else a folder in the system's
temporary folder), never in the repository; a second run reuses them. They take about 2 GB
at 1x and 19 GB at 10x, four fifths of it unarXive's full text (about 50 kB a line).

Each file is parsed ``--repeat`` times, each time in a fresh child process (iterating
``loaders.formats.parse_file`` to exhaustion), and the median is reported with the records
it yielded (no Rejected is allowed), the input's bytes, and the child's peak RSS: its
``VmHWM``, as ``resource.getrusage`` would report the forking parent's peak. cProfile then
runs over the 1x OpenAlex file (the first scale's when 1 is not among them) in one more
child. The report goes to ``--out`` with the command, the dates, the machine and ``uptime``
before and after; a hand-written section after the analysis mark is kept when the file is
written again.

With ``--load`` the parsers are not timed: each input file (at each size up to
``--load-max-scale``) is loaded by the online loader and by bulk mode, each in a child
process into a fresh local server, with ``tests.bench.ingest``'s machinery (its child
runner, servers and ``checksum``). The report (default docs/BENCHMARKS-sources-load.md)
gives per input and size both wall times, the graph's nodes and relationships, and whether
the two graphs' checksums are equal.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import hashlib
import json
import os
import platform
import pstats
import random
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from loaders.formats import parse_file
from loaders.records import FormatName
from tests.bench.synthetic import generate

if TYPE_CHECKING:  # imported where used: the parsers' children need no database driver
    from tests.bench.ingest import Bench, DataSet

REPO = Path(__file__).resolve().parents[2]
HEPTH_PAPERS = 27_770
"""Papers at 1x: cit-HepTh's, as ``tests.bench.ingest`` takes it (352,807 citations)."""
GENERATOR = 2
"""The shape of the generated files; change it when they change, so caches are made again."""
ANALYSIS_MARK = "<!-- analysis: written by hand, kept when the benchmark rewrites this file -->"
NESTED_SHARE = 0.2
"""The share of Graph API papers written with their ``references`` nested."""


@dataclass(frozen=True)
class Input:
    """One kind of input file: its name here, the parser's format and what it holds."""

    name: str
    fmt: FormatName
    label: str
    suffix: str

    @property
    def gzipped(self) -> bool:
        return self.suffix.endswith(".gz")


INPUTS = (
    Input("openalex", "openalex", "OpenAlex works (snapshot)", ".jsonl.gz"),
    Input("s2-graph", "semantic_scholar", "S2 Graph API papers", ".jsonl"),
    Input("s2-papers", "semantic_scholar", "S2 datasets: papers", ".jsonl.gz"),
    Input("s2-citations", "semantic_scholar", "S2 datasets: citations", ".jsonl.gz"),
    Input("crossref", "crossref", "Crossref works", ".jsonl"),
    Input("unarxive", "unarxive", "unarXive", ".jsonl"),
)
INPUT_NAMES = tuple(spec.name for spec in INPUTS)


def _log(message: str) -> None:
    print(f"[{datetime.now(UTC).strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------
# Made-up vocabularies (a fixed seed, built on first use)

_VOCABULARY = (
    "model method approach network data training learning results performance task tasks "
    "baseline benchmark accuracy loss function gradient parameters layer layers attention "
    "representation representations feature features sample samples distribution prior "
    "posterior inference estimate estimator bound bounds theorem lemma proof analysis "
    "experiment experiments evaluation dataset datasets setting settings regime scale "
    "scaling sparse dense robust efficient stable fast slow large small deep shallow "
    "convex nonconvex linear nonlinear stochastic deterministic adaptive optimal novel "
    "simple general specific empirical theoretical numerical analytical effective "
    "significant consistent improved improves improve show shows propose proposes study "
    "studies derive derives prove proves obtain obtains observe find finds demonstrate "
    "outperforms compare compared against across between under within without while "
    "which where when whose than that this these those their its our we the a an of in "
    "on for to with by from as at and or but not also further however moreover thus "
    "hence therefore both each every many several few most more less graph graphs node "
    "nodes edge edges kernel kernels policy policies reward agent agents environment "
    "field fields theory gauge string brane black hole entropy energy spectrum symmetry "
    "coupling limit flow dynamics equation equations solution solutions space spaces "
    "dimension dimensional operator operators boundary conditions regularization noise"
)
_WORDS = tuple(_VOCABULARY.split())
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_SECTIONS = (
    ("Introduction", "1", "section"),
    ("Related Work", "2", "section"),
    ("Background", "2.1", "subsection"),
    ("Method", "3", "section"),
    ("Model", "3.1", "subsection"),
    ("Training", "3.2", "subsection"),
    ("Experiments", "4", "section"),
    ("Setup", "4.1", "subsection"),
    ("Results", "4.2", "subsection"),
    ("Discussion", "5", "section"),
    ("Conclusion", "6", "section"),
)
_LATEX = (
    "x",
    "\\theta",
    "\\mathcal{L}(\\theta)",
    "f(x) = \\sum _{i=1}^{n} w_i x_i",
    "O(n \\log n)",
    "\\alpha \\in (0, 1)",
    "\\mathbb{E}[\\ell (f(x), y)]",
    "d_{\\text{model}}",
    "\\Vert W \\Vert _2 \\le 1",
    "p(y \\mid x)",
    "S_{\\mu \\nu }",
    "\\epsilon = 10^{-3}",
)
_INTENTS = ("background", "methodology", "result")
_PUBLISHERS = (
    # DOI prefix, journal, ISSN, publisher, source id, host organisation id
    ("10.1103", "Physical Review D", "2470-0010", "American Physical Society", 1, 1),
    ("10.1007", "Journal of High Energy Physics", "1029-8479", "Springer Nature", 2, 2),
    ("10.1016", "Physics Letters B", "0370-2693", "Elsevier BV", 3, 3),
    ("10.1088", "Journal of Cosmology and Astroparticle Physics", "1475-7516", "IOP", 4, 4),
    ("10.1145", "Proceedings of the ACM Conference", "2160-9293", "ACM", 5, 5),
    ("10.1109", "IEEE Transactions on Pattern Analysis", "0162-8828", "IEEE", 6, 6),
)
_COUNTRIES = ("US", "DE", "GB", "FR", "JP", "CN", "IN", "IT", "CA", "BR", "NL", "CH", "KR")
_DOMAINS = (
    ("1", "Life Sciences"),
    ("2", "Social Sciences"),
    ("3", "Physical Sciences"),
    ("4", "Health Sciences"),
)


@cache
def _sentences() -> tuple[str, ...]:
    """A fixed pool of made-up sentences, 12 to 24 words each."""
    rng = random.Random(20_261_206)
    pool = []
    for _ in range(4000):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(12, 24))]
        pool.append(" ".join(words).capitalize() + rng.choice(".....;"))
    return tuple(pool)


def _text(rng: random.Random, sentences: int) -> str:
    return " ".join(rng.choices(_sentences(), k=sentences))


@cache
def _institutions() -> tuple[dict[str, Any], ...]:
    rng = random.Random(3)
    found = []
    for number in range(60):
        name = f"University of {rng.choice(_WORDS).capitalize()}{rng.choice(_WORDS)}"
        ident = f"https://openalex.org/I{100_000_000 + 7_919 * number}"
        found.append(
            {
                "id": ident,
                "display_name": name,
                "ror": f"https://ror.org/0{number:02d}{rng.getrandbits(20):05x}",
                "country_code": rng.choice(_COUNTRIES),
                "type": rng.choice(("education", "facility", "funder", "company")),
                "lineage": [ident],
            }
        )
    return tuple(found)


@cache
def _topics() -> tuple[dict[str, Any], ...]:
    rng = random.Random(4)
    found = []
    for number in range(40):
        domain = rng.choice(_DOMAINS)
        field = 11 + number % 26
        subfield = field * 100 + number % 9
        name = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(2, 4))).title()
        found.append(
            {
                "id": f"https://openalex.org/T{10_000 + 37 * number}",
                "display_name": f"{name} Research",
                "score": 0.0,
                "subfield": {
                    "id": f"https://openalex.org/subfields/{subfield}",
                    "display_name": f"{rng.choice(_WORDS).title()} and {rng.choice(_WORDS)}",
                },
                "field": {
                    "id": f"https://openalex.org/fields/{field}",
                    "display_name": f"{rng.choice(_WORDS).title()} Sciences",
                },
                "domain": {
                    "id": f"https://openalex.org/domains/{domain[0]}",
                    "display_name": domain[1],
                },
            }
        )
    return tuple(found)


@cache
def _concepts() -> tuple[dict[str, Any], ...]:
    rng = random.Random(5)
    return tuple(
        {
            "id": f"https://openalex.org/C{2_000_000 + 7_211 * number}",
            "wikidata": f"https://www.wikidata.org/wiki/Q{1_000 + 913 * number}",
            "display_name": " ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 2))),
            "level": rng.randint(0, 3),
            "score": 0.0,
        }
        for number in range(120)
    )


# ---------------------------------------------------------------------------------------
# One synthetic paper and its ids in every source


@dataclass(frozen=True)
class Paper:
    """One paper of the synthetic set, as every source's writer reads it."""

    index: int
    arxiv_id: str
    metadata: dict[str, Any]
    """The arXiv metadata record the synthetic set wrote (unarXive's ``metadata``)."""
    title: str
    authors: list[tuple[str, str]]
    """(first names, last name) in order."""
    year: int
    published: str
    abstract: str
    references: list[int]
    cited_by: int


def openalex_number(index: int) -> int:
    """The number of a paper's OpenAlex W id (and its MAG id, as OpenAlex gives it)."""
    return 2_000_000_000 + 7_919 * index


def corpus_id(index: int) -> int:
    return 200_000_000 + 3 * index


def s2_paper_id(index: int) -> str:
    return hashlib.sha1(f"s2 paper {index}".encode()).hexdigest()


def has_journal_doi(index: int) -> bool:
    """Three papers in five have a journal DOI; the others only arXiv's."""
    return (index * 2_654_435_761) % 5 < 3


def journal_doi(index: int) -> str:
    """The journal DOI of a paper (Crossref gives every paper one)."""
    kind = index % len(_PUBLISHERS)
    prefix = _PUBLISHERS[kind][0]
    if kind == 0:
        return f"{prefix}/physrevd.{100 + index % 12}.{index:06d}"
    if kind == 1:
        return f"{prefix}/jhep{index % 12 + 1:02d}({2015 + index % 10}){index:05d}"
    if kind == 2:
        return f"{prefix}/j.physletb.{index:07d}"
    if kind == 3:
        return f"{prefix}/1475-7516/{index % 12 + 1:02d}/{index:06d}"
    if kind == 4:
        return f"{prefix}/{3_290_000 + index}.{3_300_000 + index % 9_999}"
    return f"{prefix}/tpami.{index:07d}"


def _author_id(first: str, last: str) -> int:
    return 5_000_000_000 + zlib.crc32(f"{first} {last}".encode()) % 1_000_000_000


def _name(author: tuple[str, str]) -> str:
    return f"{author[0]} {author[1]}"


def _papers(arxiv: Path, edges: Path, seed: int) -> Iterator[Paper]:
    """Yield the synthetic set's papers in posting order, each with the indices of the
    papers it cites and how many cite it."""
    cited_by: Counter[str] = Counter()
    with edges.open(encoding="utf-8") as handle:
        next(handle)
        for line in handle:
            cited_by[line[line.index(",") + 1 : -1]] += 1
    rng = random.Random(seed * 7_919 + 11)
    index_of: dict[str, int] = {}
    with gzip.open(arxiv, "rt", encoding="utf-8") as records, edges.open(encoding="utf-8") as refs:
        next(refs)
        pending = next(refs, "").rstrip("\n")
        for index, line in enumerate(records):
            record = json.loads(line)
            arxiv_id = record["id"]
            index_of[arxiv_id] = index
            references = []
            while pending and pending.startswith(arxiv_id + ","):
                references.append(index_of[pending[len(arxiv_id) + 1 :]])
                pending = next(refs, "").rstrip("\n")
            created = record["versions"][0]["created"].split()  # Mon, 3 May 2021 10:00:00 GMT
            month = _MONTH_NAMES.index(created[2]) + 1
            year = int(created[3])
            first_sentence = " ".join(record["abstract"].split())
            yield Paper(
                index=index,
                arxiv_id=arxiv_id,
                metadata=record,
                title=record["title"],
                authors=[(first, last) for last, first, _ in record["authors_parsed"]],
                year=year,
                published=f"{year}-{month:02d}-{int(created[1]):02d}",
                abstract=f"{first_sentence} {_text(rng, rng.randint(5, 9))}",
                references=references,
                cited_by=cited_by[arxiv_id],
            )


# ---------------------------------------------------------------------------------------
# The writers: one JSON line (or several) per paper, in each source's shape


class Writer:
    """Writes the lines of one input file (gzipped when its name says so), counting lines
    and uncompressed bytes; the file gets its name only when complete."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.partial = path.with_name(path.name + ".partial")
        self.raw = self.partial.open("wb")
        self.handle: IO[bytes] = self.raw
        if path.name.endswith(".gz"):
            self.handle = cast(
                IO[bytes],
                gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0, compresslevel=6),
            )
        self.lines = 0
        self.json_bytes = 0
        self._held: list[str] = []

    def write(self, value: dict[str, Any]) -> None:
        self._held.append(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
        self.lines += 1
        if len(self._held) >= 500:
            self._flush()

    def _flush(self) -> None:
        data = ("\n".join(self._held) + "\n").encode("utf-8")
        self.json_bytes += len(data)
        self.handle.write(data)
        self._held = []

    def close(self) -> dict[str, Any]:
        if self._held:
            self._flush()
        self.handle.close()
        self.raw.close()
        self.partial.replace(self.path)
        return {
            "file": self.path.name,
            "bytes": self.path.stat().st_size,
            "json_bytes": self.json_bytes,
            "lines": self.lines,
        }


class Sources:
    """Turns each synthetic paper into its lines in every requested input."""

    def __init__(self, papers: int, seed: int, writers: dict[str, Writer]) -> None:
        self.papers = papers
        self.writers = writers
        self.rngs = {
            name: random.Random(f"{seed}:{name}".encode()) for name in writers
        }  # one stream per input: each file is the same whatever else is made with it
        self.expected: dict[str, Counter[str]] = {name: Counter() for name in writers}
        self.arxiv_ids: list[str] = []
        self.titles: list[str] = []
        self.first_authors: list[tuple[str, str]] = []
        self.years: list[int] = []
        self.citation_id = 0

    def add(self, paper: Paper) -> None:
        self.arxiv_ids.append(paper.arxiv_id)
        self.titles.append(paper.title)
        self.first_authors.append(paper.authors[0])
        self.years.append(paper.year)
        handlers: dict[str, Callable[[Paper, random.Random], None]] = {
            "openalex": self._openalex,
            "s2-graph": self._s2_graph,
            "s2-papers": self._s2_papers,
            "s2-citations": self._s2_citations,
            "crossref": self._crossref,
            "unarxive": self._unarxive,
        }
        for name in self.writers:
            handlers[name](paper, self.rngs[name])

    # OpenAlex ------------------------------------------------------------------------

    def _openalex(self, paper: Paper, rng: random.Random) -> None:
        number = openalex_number(paper.index)
        work = f"https://openalex.org/W{number}"
        journal = has_journal_doi(paper.index)
        doi = journal_doi(paper.index) if journal else f"10.48550/arxiv.{paper.arxiv_id}"
        arxiv_location: dict[str, Any] = {
            "id": f"pmh:oai:arXiv.org:{paper.arxiv_id}",
            "is_oa": True,
            "landing_page_url": f"http://arxiv.org/abs/{paper.arxiv_id}",
            "pdf_url": f"https://arxiv.org/pdf/{paper.arxiv_id}",
            "source": {
                "id": "https://openalex.org/S4306400194",
                "display_name": "arXiv (Cornell University)",
                "issn_l": None,
                "issn": None,
                "is_oa": True,
                "is_in_doaj": False,
                "is_core": False,
                "host_organization": "https://openalex.org/I205783295",
                "host_organization_name": "Cornell University",
                "host_organization_lineage": ["https://openalex.org/I205783295"],
                "host_organization_lineage_names": [],
                "type": "repository",
            },
            "license": rng.choice((None, "cc-by")),
            "license_id": None,
            "version": "submittedVersion",
            "is_accepted": False,
            "is_published": False,
            "raw_source_name": "",
        }
        locations = [arxiv_location]
        if journal:
            _, name, issn, publisher, source, host = _PUBLISHERS[paper.index % len(_PUBLISHERS)]
            locations.insert(
                0,
                {
                    "id": f"doi:{doi}",
                    "is_oa": rng.random() < 0.4,
                    "landing_page_url": f"https://doi.org/{doi}",
                    "pdf_url": None,
                    "source": {
                        "id": f"https://openalex.org/S{140_000_000 + source}",
                        "display_name": name,
                        "issn_l": issn,
                        "issn": [issn],
                        "is_oa": False,
                        "is_in_doaj": False,
                        "is_core": True,
                        "host_organization": f"https://openalex.org/P{4_310_320_000 + host}",
                        "host_organization_name": publisher,
                        "host_organization_lineage": [
                            f"https://openalex.org/P{4_310_320_000 + host}"
                        ],
                        "host_organization_lineage_names": [publisher],
                        "type": "journal",
                    },
                    "license": None,
                    "license_id": None,
                    "version": "publishedVersion",
                    "is_accepted": True,
                    "is_published": True,
                    "raw_source_name": name,
                },
            )
        authorships: list[dict[str, Any]] = []
        institutions = _institutions()
        for place, author in enumerate(paper.authors):
            affiliated = [institutions[rng.randrange(len(institutions))]]
            orcid = (
                f"https://orcid.org/0000-000{rng.randint(1, 3)}-{rng.randint(1000, 9999)}-"
                f"{rng.randint(1000, 9999)}"
                if rng.random() < 0.4
                else None
            )
            raw_affiliation = f"{affiliated[0]['display_name']}, {rng.choice(_WORDS).title()}"
            authorships.append(
                {
                    "author_position": "first"
                    if place == 0
                    else ("last" if place == len(paper.authors) - 1 else "middle"),
                    "author": {
                        "id": f"https://openalex.org/A{_author_id(*author)}",
                        "display_name": _name(author),
                        "orcid": orcid,
                    },
                    "institutions": affiliated,
                    "countries": [affiliated[0]["country_code"]],
                    "is_corresponding": place == 0,
                    "raw_author_name": _name(author),
                    "raw_affiliation_strings": [raw_affiliation],
                    "affiliations": [
                        {
                            "raw_affiliation_string": raw_affiliation,
                            "institution_ids": [affiliated[0]["id"]],
                        }
                    ],
                }
            )
        index: dict[str, list[int]] = {}
        for position, word in enumerate(paper.abstract.split()):
            index.setdefault(word, []).append(position)
        topic_pool = _topics()
        topics = [
            {**topic_pool[rng.randrange(len(topic_pool))], "score": round(rng.random(), 4)}
            for _ in range(3)
        ]
        concept_pool = _concepts()
        concepts = [
            {**concept_pool[rng.randrange(len(concept_pool))], "score": round(rng.random(), 8)}
            for _ in range(rng.randint(6, 14))
        ]
        title_words = sorted({word.strip(":,").lower() for word in paper.title.split()})
        keywords = [
            {
                "id": f"https://openalex.org/keywords/{word}",
                "display_name": word.title(),
                "score": round(rng.random(), 8),
            }
            for word in title_words
            if word.isalpha() and len(word) > 3
        ][:5]
        counts = [
            {"year": year, "cited_by_count": paper.cited_by // max(1, 2025 - paper.year)}
            for year in range(2025, max(paper.year, 2012) - 1, -1)
        ]
        related = [
            f"https://openalex.org/W{openalex_number(rng.randrange(self.papers))}"
            for _ in range(10)
        ]
        ids: dict[str, Any] = {"openalex": work, "doi": f"https://doi.org/{doi}"}
        if paper.index % 2 == 0:
            ids["mag"] = str(number)
        self.writers["openalex"].write(
            {
                "id": work,
                "doi": f"https://doi.org/{doi}",
                "title": paper.title,
                "display_name": paper.title,
                "publication_year": paper.year,
                "publication_date": paper.published,
                "ids": ids,
                "language": "en",
                "primary_location": locations[0],
                "type": "article" if journal else "preprint",
                "type_crossref": "journal-article" if journal else "posted-content",
                "indexed_in": ["arxiv", "crossref"] if journal else ["arxiv", "datacite"],
                "open_access": {
                    "is_oa": True,
                    "oa_status": "green",
                    "oa_url": arxiv_location["pdf_url"],
                    "any_repository_has_fulltext": True,
                },
                "authorships": authorships,
                "institution_assertions": [],
                "countries_distinct_count": len({a["countries"][0] for a in authorships}),
                "institutions_distinct_count": len(authorships),
                "corresponding_author_ids": [authorships[0]["author"]["id"]],
                "corresponding_institution_ids": [authorships[0]["institutions"][0]["id"]],
                "apc_list": None,
                "apc_paid": None,
                "fwci": round(rng.random() * 3, 3),
                "has_fulltext": True,
                "fulltext_origin": "pdf",
                "cited_by_count": paper.cited_by,
                "citation_normalized_percentile": {
                    "value": round(rng.random(), 6),
                    "is_in_top_1_percent": False,
                    "is_in_top_10_percent": rng.random() < 0.1,
                },
                "cited_by_percentile_year": {"min": rng.randint(1, 90), "max": 99},
                "biblio": {
                    "volume": str(rng.randint(1, 120)) if journal else None,
                    "issue": str(rng.randint(1, 12)) if journal else None,
                    "first_page": str(rng.randint(1, 900)) if journal else None,
                    "last_page": None,
                },
                "is_retracted": False,
                "is_paratext": False,
                "primary_topic": topics[0],
                "topics": topics,
                "keywords": keywords,
                "concepts": concepts,
                "mesh": [],
                "locations_count": len(locations),
                "locations": locations,
                "best_oa_location": arxiv_location,
                "sustainable_development_goals": [],
                "grants": [],
                "datasets": [],
                "versions": [],
                "referenced_works_count": len(paper.references),
                "referenced_works": [
                    f"https://openalex.org/W{openalex_number(cited)}" for cited in paper.references
                ],
                "related_works": related,
                "abstract_inverted_index": index,
                "cited_by_api_url": f"https://api.openalex.org/works?filter=cites:W{number}",
                "counts_by_year": counts,
                "updated_date": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T"
                f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}."
                f"{rng.randint(0, 999_999):06d}",
                "created_date": f"{paper.published}",
            }
        )
        self.expected["openalex"].update(PaperRecord=1, CitationRecord=len(paper.references))

    # Semantic Scholar -------------------------------------------------------------------

    def _external_ids(self, index: int, lower: bool) -> dict[str, Any]:
        found: dict[str, Any] = {}
        if lower:
            found["ACL"] = None
        if index % 3:
            found["DBLP"] = f"journals/corr/abs-{self._arxiv_of(index).replace('.', '-')}"
        elif lower:
            found["DBLP"] = None
        found["ArXiv"] = self._arxiv_of(index)
        if index % 2 == 0:
            found["MAG"] = str(openalex_number(index))
        elif lower:
            found["MAG"] = None
        found["CorpusId"] = str(corpus_id(index)) if lower else corpus_id(index)
        if lower:
            found["PubMed"] = None
        if has_journal_doi(index):
            found["DOI"] = journal_doi(index)
        elif lower:
            found["DOI"] = None
        if lower:
            found["PubMedCentral"] = None
        return found

    def _arxiv_of(self, index: int) -> str:
        return self.arxiv_ids[index]

    def _s2_object(
        self,
        index: int,
        title: str,
        year: int,
        published: str | None,
        authors: list[tuple[str, str]],
        abstract: str | None,
        references: int,
        cited_by: int,
        rng: random.Random,
    ) -> dict[str, Any]:
        """A Graph API paper object with the fields a full request returns."""
        paper_id = s2_paper_id(index)
        journal = has_journal_doi(index)
        venue = _PUBLISHERS[index % len(_PUBLISHERS)][1] if journal else "arXiv.org"
        key = f"{authors[0][1].split()[-1]}{year}{title.split()[0].strip(':')[:6]}"
        bibtex = (
            f"@{'Article' if journal else 'Inproceedings'}{{{key},\n"
            f" author = {{{' and '.join(_name(a) for a in authors)}}},\n"
            + (f" journal = {{{venue}}},\n" if journal else "")
            + f" title = {{{title}}},\n year = {{{year}}}\n}}\n"
        )
        return {
            "paperId": paper_id,
            "externalIds": self._external_ids(index, lower=False),
            "corpusId": corpus_id(index),
            "publicationVenue": {
                "id": f"{zlib.crc32(venue.encode()):08x}-69c7-484e-a110-3efae1e93ecc",
                "name": venue,
                "type": "journal" if journal else "repository",
                "alternate_names": [venue.split()[0]],
                "url": "https://arxiv.org" if not journal else None,
            }
            if rng.random() < 0.6
            else None,
            "url": f"https://www.semanticscholar.org/paper/{paper_id}",
            "title": title,
            "abstract": abstract,
            "venue": venue,
            "year": year,
            "referenceCount": references,
            "citationCount": cited_by,
            "influentialCitationCount": cited_by // 10,
            "isOpenAccess": True,
            "openAccessPdf": {
                "url": f"https://arxiv.org/pdf/{self._arxiv_of(index)}",
                "status": None,
            }
            if rng.random() < 0.7
            else None,
            "fieldsOfStudy": ["Computer Science"] if rng.random() < 0.5 else ["Physics"],
            "s2FieldsOfStudy": [
                {"category": "Computer Science", "source": "external"},
                {"category": rng.choice(("Physics", "Mathematics")), "source": "s2-fos-model"},
            ],
            "publicationTypes": ["JournalArticle"] if journal else None,
            "publicationDate": published,
            "journal": {"name": venue, "volume": str(rng.randint(1, 99))} if journal else None,
            "citationStyles": {"bibtex": bibtex},
            "authors": [
                {"authorId": str(_author_id(*author) - 4_900_000_000), "name": _name(author)}
                for author in authors
            ],
        }

    def _s2_graph(self, paper: Paper, rng: random.Random) -> None:
        obj = self._s2_object(
            paper.index,
            paper.title,
            paper.year,
            paper.published,
            paper.authors,
            paper.abstract if rng.random() < 0.8 else None,
            len(paper.references),
            paper.cited_by,
            rng,
        )
        nested = bool(paper.references) and rng.random() < NESTED_SHARE
        if nested:
            obj["references"] = [
                self._s2_object(
                    cited,
                    self.titles[cited],
                    self.years[cited],
                    None if rng.random() < 0.3 else f"{self.years[cited]}-01-15",
                    [self.first_authors[cited]],
                    _text(rng, rng.randint(4, 8)) if rng.random() < 0.6 else None,
                    rng.randint(5, 60),
                    rng.randint(0, 200),
                    rng,
                )
                for cited in paper.references
            ]
        self.writers["s2-graph"].write(obj)
        self.expected["s2-graph"].update(
            PaperRecord=1, CitationRecord=len(paper.references) if nested else 0
        )

    def _s2_papers(self, paper: Paper, rng: random.Random) -> None:
        journal = has_journal_doi(paper.index)
        venue = _PUBLISHERS[paper.index % len(_PUBLISHERS)][1] if journal else ""
        self.writers["s2-papers"].write(
            {
                "corpusid": corpus_id(paper.index),
                "externalids": self._external_ids(paper.index, lower=True),
                "url": f"https://www.semanticscholar.org/paper/{s2_paper_id(paper.index)}",
                "title": paper.title,
                "authors": [
                    {"authorId": str(_author_id(*author) - 4_900_000_000), "name": _name(author)}
                    for author in paper.authors
                ],
                "venue": venue,
                "publicationvenueid": None,
                "year": paper.year,
                "referencecount": len(paper.references),
                "citationcount": paper.cited_by,
                "influentialcitationcount": paper.cited_by // 10,
                "isopenaccess": True,
                "s2fieldsofstudy": [
                    {"category": "Computer Science", "source": "external"},
                    {"category": rng.choice(("Physics", "Mathematics")), "source": "s2-fos-model"},
                ],
                "publicationtypes": ["JournalArticle"] if journal else None,
                "publicationdate": paper.published,
                "journal": {"name": venue, "pages": None, "volume": str(rng.randint(1, 99))}
                if journal
                else None,
            }
        )
        self.expected["s2-papers"].update(PaperRecord=1)

    def _s2_citations(self, paper: Paper, rng: random.Random) -> None:
        writer = self.writers["s2-citations"]
        for cited in paper.references:
            self.citation_id += 1
            contexts = (
                [_text(rng, 1) for _ in range(rng.randint(1, 3))] if rng.random() < 0.7 else None
            )
            writer.write(
                {
                    "citationid": 1_000_000_000 + self.citation_id,
                    "citingcorpusid": corpus_id(paper.index),
                    "citedcorpusid": corpus_id(cited),
                    "isinfluential": rng.random() < 0.1,
                    "contexts": contexts,
                    "intents": [[rng.choice(_INTENTS)] for _ in contexts] if contexts else None,
                }
            )
        self.expected["s2-citations"].update(CitationRecord=len(paper.references))

    # Crossref -----------------------------------------------------------------------------

    def _crossref(self, paper: Paper, rng: random.Random) -> None:
        doi = journal_doi(paper.index)
        prefix, name, issn, publisher, _, _ = _PUBLISHERS[paper.index % len(_PUBLISHERS)]
        year, month, day = (int(part) for part in paper.published.split("-"))
        indexed_day = rng.randint(1, 28)
        references: list[dict[str, Any]] = []
        for place, cited in enumerate(paper.references, 1):
            entry: dict[str, Any] = {"key": f"{doi.split('/')[-1]}_CR{place}"}
            shape = rng.random()
            cited_doi = journal_doi(cited)
            if shape < 0.45:
                entry.update({"doi-asserted-by": "crossref", "DOI": cited_doi})
            elif shape < 0.75:
                entry.update(
                    {
                        "doi-asserted-by": "publisher",
                        "first-page": str(rng.randint(1, 900)),
                        "DOI": cited_doi,
                        "volume": str(rng.randint(1, 120)),
                        "author": self.first_authors[cited][1],
                        "year": str(self.years[cited]),
                        "unstructured": f"{_name(self.first_authors[cited])}, "
                        f"{self.titles[cited]}, {self.years[cited]}",
                        "journal-title": _PUBLISHERS[cited % len(_PUBLISHERS)][1],
                    }
                )
            else:
                entry.update(
                    {
                        "doi-asserted-by": "publisher",
                        "first-page": str(rng.randint(1, 900)),
                        "DOI": cited_doi,
                        "article-title": self.titles[cited],
                        "volume": str(rng.randint(1, 120)),
                        "author": self.first_authors[cited][1],
                        "year": str(self.years[cited]),
                        "journal-title": _PUBLISHERS[cited % len(_PUBLISHERS)][1],
                    }
                )
            references.append(entry)
        unnamed = rng.randint(0, 4)  # books, theses, software: no DOI, no title field
        for place in range(len(references) + 1, len(references) + 1 + unnamed):
            references.append(
                {
                    "key": f"{doi.split('/')[-1]}_CR{place}",
                    "unstructured": f"{rng.choice(_WORDS).title()} {rng.choice('ABCDEFGH')}. "
                    f"{_text(rng, 1)} ({rng.randint(1980, 2020)})",
                }
            )

        def dated(parts: list[int], stamp: bool = False) -> dict[str, Any]:
            found: dict[str, Any] = {"date-parts": [parts]}
            if stamp:
                found["date-time"] = (
                    f"{parts[0]}-{parts[1]:02d}-{parts[2]:02d}T0{rng.randint(0, 9)}:17:17Z"
                )
                found["timestamp"] = 1_687_580_237_047
            return found

        abstract = (
            f"<jats:title>Abstract</jats:title><jats:p>{paper.abstract}</jats:p>"
            if rng.random() < 0.5
            else None
        )
        work: dict[str, Any] = {
            "indexed": dated([2025, rng.randint(1, 12), indexed_day], stamp=True),
            "reference-count": len(references),
            "publisher": publisher,
            "issue": str(rng.randint(1, 12)),
            "license": [
                {
                    "start": dated([year, month, day], stamp=True),
                    "content-version": "vor",
                    "delay-in-days": 0,
                    "URL": "http://creativecommons.org/licenses/by/4.0/",
                }
            ],
            "content-domain": {"domain": [], "crossmark-restriction": False},
            "short-container-title": [name.split()[0]],
            "published-print": dated([year, month]),
        }
        if abstract:
            work["abstract"] = abstract
        work.update(
            {
                "DOI": doi,
                "type": "journal-article",
                "created": dated([year, month, day], stamp=True),
                "page": f"{rng.randint(1, 400)}-{rng.randint(401, 900)}",
                "source": "Crossref",
                "is-referenced-by-count": paper.cited_by,
                "title": [paper.title],
                "prefix": prefix,
                "volume": str(rng.randint(1, 120)),
                "author": [
                    {
                        "given": first,
                        "family": last,
                        "sequence": "first" if place == 0 else "additional",
                        "affiliation": [{"name": f"{rng.choice(_WORDS).title()} Institute"}],
                    }
                    for place, (first, last) in enumerate(paper.authors)
                ],
                "member": str(100 + paper.index % len(_PUBLISHERS)),
                "published-online": dated([year, month, day]),
                "reference": references,
                "container-title": [name],
                "original-title": [],
                "language": "en",
                "link": [
                    {
                        "URL": f"https://example.org/pdf/{doi}",
                        "content-type": "application/pdf",
                        "content-version": "vor",
                        "intended-application": "text-mining",
                    }
                ],
                "deposited": dated([year + 1, month, day], stamp=True),
                "score": 1,
                "resource": {"primary": {"URL": f"https://example.org/{doi}"}},
                "subtitle": [],
                "short-title": [],
                "issued": dated([year, month, day]),
                "references-count": len(references),
                "journal-issue": {"issue": str(rng.randint(1, 12))},
                "alternative-id": [doi.split("/")[-1]],
                "URL": f"https://doi.org/{doi}",
                "relation": {},
                "ISSN": [issn],
                "issn-type": [{"value": issn, "type": "print"}],
                "subject": [],
                "published": dated([year, month, day]),
            }
        )
        self.writers["crossref"].write(work)
        self.expected["crossref"].update(PaperRecord=1, CitationRecord=len(paper.references))

    # unarXive -----------------------------------------------------------------------------

    def _unarxive(self, paper: Paper, rng: random.Random) -> None:
        entries: dict[str, dict[str, Any]] = {}
        linked = 0
        for place, cited in enumerate(paper.references):
            ref_id = hashlib.sha1(f"{paper.arxiv_id} {place}".encode()).hexdigest()
            cited_arxiv = self._arxiv_of(cited)
            raw = (
                f"{_name(self.first_authors[cited])}, {self.titles[cited]}, "
                f"{_PUBLISHERS[cited % len(_PUBLISHERS)][1]} ({self.years[cited]})"
            )
            contained: list[dict[str, Any]] = []
            links: list[dict[str, Any]] = []
            if rng.random() < 0.55:
                text = f"arXiv:{cited_arxiv}"
                contained.append({"id": cited_arxiv, "text": text, "start": len(raw) + 2, "end": 0})
                contained[0]["end"] = contained[0]["start"] + len(text)
                raw = f"{raw}, {text}"
            doi = journal_doi(cited) if has_journal_doi(cited) else ""
            if doi and rng.random() < 0.5:
                tail = raw[-20:]
                links.append(
                    {
                        "url": f"https://doi.org/{doi}",
                        "text": tail,
                        "start": len(raw) - len(tail),
                        "end": len(raw),
                    }
                )
            openalex = (
                f"W{openalex_number(cited)}" if rng.random() < 0.8 or not (contained or doi) else ""
            )
            entries[ref_id] = {
                "bib_entry_raw": raw,
                "contained_arXiv_ids": contained,
                "contained_links": links,
                "discipline": "Physics",
                "ids": {
                    "open_alex_id": f"https://openalex.org/{openalex}" if openalex else "",
                    "sem_open_alex_id": f"https://semopenalex.org/work/{openalex}"
                    if openalex
                    else "",
                    "pubmed_id": "",
                    "pmc_id": "",
                    "doi": doi,
                    "arxiv_id": "",
                },
            }
            linked += 1
        unlinked = rng.randint(0, 2 * len(paper.references) + 2)  # unarXive links ~44%
        for place in range(len(entries), len(entries) + unlinked):
            ref_id = hashlib.sha1(f"{paper.arxiv_id} {place}".encode()).hexdigest()
            entries[ref_id] = {
                "bib_entry_raw": f"{rng.choice(_WORDS).title()} {rng.choice('ABCDEFGH')}., "
                f"{_text(rng, 1)} ({rng.randint(1970, 2020)})",
                "contained_arXiv_ids": [],
                "contained_links": [],
                "discipline": "Physics",
                "ids": {
                    "open_alex_id": "",
                    "sem_open_alex_id": "",
                    "pubmed_id": "",
                    "pmc_id": "",
                    "doi": "",
                    "arxiv_id": "",
                },
            }
        ref_ids = list(entries)
        body: list[dict[str, Any]] = []
        ref_entries: dict[str, dict[str, Any]] = {}
        formulas = 0
        formula_head = f"{zlib.crc32(paper.arxiv_id.encode()):08x}"
        formula_tail = f"4d3d-9756-{paper.index:012x}"
        paragraphs = rng.randint(10, 34)
        for number in range(paragraphs):
            section, sec_number, sec_type = _SECTIONS[number * len(_SECTIONS) // paragraphs]
            parts: list[str] = []
            cite_spans: list[dict[str, Any]] = []
            ref_spans: list[dict[str, Any]] = []
            at = 0
            for sentence in rng.choices(_sentences(), k=rng.randint(3, 7)):
                parts.append(sentence)
                at += len(sentence)
                if rng.random() < 0.5:
                    formulas += 1
                    formula_id = f"{formula_head}-{formulas:04x}-{formula_tail}"
                    marker = f"{{{{formula:{formula_id}}}}}"
                    parts.append(f" {marker}")
                    ref_spans.append(
                        {
                            "start": at + 1,
                            "end": at + 1 + len(marker),
                            "text": marker,
                            "ref_id": formula_id,
                        }
                    )
                    at += 1 + len(marker)
                    ref_entries[formula_id] = {"latex": rng.choice(_LATEX), "type": "formula"}
                if ref_ids and rng.random() < 0.35:
                    ref_id = ref_ids[int(rng.random() * len(ref_ids))]
                    marker = f"{{{{cite:{ref_id}}}}}"
                    parts.append(f" {marker}")
                    cite_spans.append(
                        {
                            "start": at + 1,
                            "end": at + 1 + len(marker),
                            "text": marker,
                            "ref_id": ref_id,
                        }
                    )
                    at += 1 + len(marker)
                parts.append(" ")
                at += 1
            body.append(
                {
                    "section": section,
                    "sec_number": sec_number,
                    "sec_type": sec_type,
                    "content_type": "paragraph",
                    "text": "".join(parts),
                    "cite_spans": cite_spans,
                    "ref_spans": ref_spans,
                }
            )
        self.writers["unarxive"].write(
            {
                "paper_id": paper.arxiv_id,
                "_pdf_hash": None,
                "_source_hash": hashlib.sha1(paper.arxiv_id.encode()).hexdigest(),
                "_source_name": f"{paper.arxiv_id}.gz",
                "metadata": paper.metadata,
                "discipline": "Physics",
                "abstract": {
                    "section": "Abstract",
                    "text": paper.abstract,
                    "cite_spans": [],
                    "ref_spans": [],
                },
                "body_text": body,
                "bib_entries": entries,
                "ref_entries": ref_entries,
            }
        )
        self.expected["unarxive"].update(PaperRecord=1, CitationRecord=linked, Skipped=unlinked)


# ---------------------------------------------------------------------------------------
# Making the inputs, cached


def input_path(folder: Path, spec: Input, papers: int, seed: int) -> Path:
    return folder / f"{spec.name}-{papers}-s{seed}{spec.suffix}"


def make_inputs(
    papers: int, seed: int, folder: Path, names: tuple[str, ...] = INPUT_NAMES
) -> dict[str, dict[str, Any]]:
    """Write (or find, from an earlier run) the ``names`` inputs of a set of ``papers``
    under ``folder``; return what each holds: its path, bytes on disk, uncompressed bytes,
    lines, the papers of the set, and the records its parser should yield."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / f"inputs-{papers}-s{seed}.json"
    manifest: dict[str, Any] = {}
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest.get("generator") != GENERATOR:
            manifest = {}
    known: dict[str, dict[str, Any]] = manifest.get("inputs", {})
    specs = {spec.name: spec for spec in INPUTS}
    missing = [
        name
        for name in names
        if name not in known
        or not (folder / known[name]["file"]).exists()
        or (folder / known[name]["file"]).stat().st_size != known[name]["bytes"]
    ]
    if missing:
        began = time.perf_counter()
        _log(f"making {', '.join(missing)} for {papers:,} papers under {folder}")
        made = generate(papers, seed, folder / "synthetic")
        writers = {name: Writer(input_path(folder, specs[name], papers, seed)) for name in missing}
        sources = Sources(papers, seed, writers)
        for paper in _papers(made.arxiv, made.edges, seed):
            sources.add(paper)
        for name, writer in writers.items():
            known[name] = {
                **writer.close(),
                "papers": papers,
                "citations": made.citations,
                "expected": dict(sources.expected[name]),
            }
        made.arxiv.unlink()
        made.edges.unlink()
        manifest = {"generator": GENERATOR, "inputs": known}
        manifest_path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        _log(f"made in {time.perf_counter() - began:.1f} s")
    return {name: {**known[name], "path": str(folder / known[name]["file"])} for name in names}


# ---------------------------------------------------------------------------------------
# Measuring, in child processes


def _rss_mb() -> float:
    """This process's peak resident set size in MB: the kernel's ``VmHWM``, which starts
    afresh at ``exec``, where ``getrusage``'s ``ru_maxrss`` keeps the forking parent's peak
    (the parent made the inputs, so it would show the generator's memory, not the parser's);
    ``ru_maxrss`` where /proc is missing."""
    try:
        status = Path("/proc/self/status").read_text(encoding="utf-8")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def parse_once(path: Path, fmt: FormatName) -> dict[str, Any]:
    """Iterate the parser over ``path`` to exhaustion; return its time, the items it yielded
    by type, the first reject's reason, and this process's peak RSS before and after."""
    counts: Counter[str] = Counter()
    first_reject = None
    rss_before = _rss_mb()
    began = time.perf_counter()
    cpu_began = time.process_time()
    for item in parse_file(path, fmt):
        kind = type(item).__name__
        counts[kind] += 1
        if kind == "Rejected" and first_reject is None:
            first_reject = f"line {item.origin.line}: {item.reason}"  # type: ignore[union-attr]
    return {
        "seconds": time.perf_counter() - began,
        "cpu_seconds": time.process_time() - cpu_began,
        "counts": dict(counts),
        "first_reject": first_reject,
        "rss_before_mb": rss_before,
        "peak_rss_mb": _rss_mb(),
    }


_KINDS = (
    ("pydantic", "pydantic (validating the models, pydantic-core)"),
    ("json/", "json (decoding: json.loads)"),
    ("gzip", "reading (gzip, zlib, io, hashlib, codecs)"),
    ("_compression", "reading (gzip, zlib, io, hashlib, codecs)"),
    ("zlib", "reading (gzip, zlib, io, hashlib, codecs)"),
    ("_hashlib", "reading (gzip, zlib, io, hashlib, codecs)"),
    ("_io.", "reading (gzip, zlib, io, hashlib, codecs)"),
    ("_codecs", "reading (gzip, zlib, io, hashlib, codecs)"),
    ("re.Pattern", "re (regular expressions)"),
    ("re.Match", "re (regular expressions)"),
)


def _kind(function: str) -> str:
    """Return where a profiled function's own time goes: its module for the project's
    code (``kg/loaders/openalex.py``), else the library or kind of built-in."""
    if function.startswith("kg/"):
        return function.split(":", 1)[0]
    return next(
        (kind for mark, kind in _KINDS if mark in function),
        "other built-ins and standard library (str, dict, list, sorted, isinstance, …)",
    )


def _where(key: tuple[str, int, str]) -> str:
    """A profile entry's function as ``path:line(name)``, its path from ``kg/`` on."""
    path, line, name = key
    if path == "~":
        return name
    for root in ("/kg/", "/site-packages/", "/lib/python3"):
        if root in path:
            path = path[path.index(root) + 1 :]
            break
    return f"{path}:{line}({name})"


def profile_once(path: Path, fmt: FormatName, top: int) -> dict[str, Any]:
    """cProfile one pass over ``path``: the ``top`` functions by cumulative and by own
    time, and the own time by category."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in parse_file(path, fmt):
        pass
    profiler.disable()
    stats = pstats.Stats(profiler)
    raw = cast(dict[tuple[str, int, str], tuple[int, int, float, float, Any]], stats.stats)  # type: ignore[attr-defined]
    harness = Path(__file__).name
    rows: list[dict[str, Any]] = [
        {
            "function": _where(key),
            "calls": calls,
            "own_s": own,
            "cumulative_s": cumulative,
        }
        for key, (_, calls, own, cumulative, _callers) in raw.items()
        if not key[0].endswith(harness) and "cProfile" not in key[2] and "disable" not in key[2]
    ]
    total = sum(row["own_s"] for row in rows)
    shares: Counter[str] = Counter()
    for row in rows:
        name = row["function"]
        shares[_kind(name)] += row["own_s"]
    return {
        "total_s": total,
        "by_cumulative": sorted(rows, key=lambda row: -row["cumulative_s"])[:top],
        "by_own": sorted(rows, key=lambda row: -row["own_s"])[:top],
        "shares": {label: seconds / total for label, seconds in shares.most_common()},
    }


def _child(request: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement (or profile) in a fresh interpreter; return its answer."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.sources", "--child", json.dumps(request)],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    return cast(dict[str, Any], json.loads(done.stdout))


# ---------------------------------------------------------------------------------------
# The machine and the report


def _uptime() -> str:
    try:
        done = subprocess.run(["uptime"], capture_output=True, text=True, check=True)
        return done.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _machine() -> dict[str, Any]:
    cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
    models = [line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")]
    meminfo = Path("/proc/meminfo").read_text(encoding="utf-8").splitlines()
    total_kb = next(int(line.split()[1]) for line in meminfo if line.startswith("MemTotal:"))
    return {
        "cpu": models[0] if models else platform.processor(),
        "cores": os.cpu_count(),
        "memory_gib": round(total_kb / 1024 / 1024, 1),
        "python": platform.python_version(),
        "kernel": platform.release(),
    }


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "kg", "loaders", "tests/bench"],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        return done.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout else "")
    except OSError:
        return "unknown"


def scale_label(scale: float) -> str:
    return f"{scale:g}×"


def _mb(count: float) -> str:
    return f"{count / 1e6:,.1f}" if count >= 1e6 else f"{count / 1e6:,.3f}"


def _rate(count: float) -> str:
    return f"{count:,.0f}"


def _run_lines(results: dict[str, Any], settings: str, before: str) -> list[str]:
    """The "## Run" section both reports open with: the command, the times and commit, the
    machine (and ``settings`` after it), and ``uptime`` before ``before`` and after."""
    m = results["machine"]
    return [
        "## Run",
        "",
        "```",
        results["command"],
        "```",
        "",
        f"- Started {results['started']}, ended {results.get('ended', '(still running)')}; "
        f"commit {results['commit']}.",
        f"- CPU: {m['cpu']} ({m['cores']} cores), {m['memory_gib']} GiB memory, Linux "
        f"{m['kernel']}, Python {m['python']}.{settings}",
        f"- `uptime` before {before} (inputs made): `{results['uptime_before']}`",
        f"- `uptime` after: `{results.get('uptime_after', '(still running)')}`",
    ]


def render(results: dict[str, Any]) -> list[str]:
    """Return the Markdown report of a run."""
    lines = [
        "# Source parsers benchmark",
        "",
        "Produced by `tests/bench/sources.py`: the OpenAlex, Semantic Scholar, Crossref and "
        "unarXive parsers alone (no database), over files in each source's real shape made "
        "from the synthetic set (1× is cit-HepTh's size: 27,770 papers, about 352,800 "
        "citations). Every figure below comes from the run described here.",
        "",
        *_run_lines(results, "", "measuring"),
        f"- Each file parsed {results['repeat']} time(s), each in a fresh process; the median "
        "is shown (all runs in the last column). Generated inputs under "
        f"`{results['work']}` (seed {results['seed']}), cached between runs.",
        "",
        "## Results",
        "",
        "records/s counts the PaperRecords and CitationRecords yielded; MB/s is over the JSON "
        "text the parser reads (uncompressed; the gzipped files' size on disk is in the next "
        "table). Skipped are the unarXive bib entries matched to no paper (as 56% of real ones "
        "are). No Rejected: the run stops on one. Peak RSS is the child's high-water mark "
        "(`VmHWM`; `getrusage`'s `ru_maxrss` would keep the forking parent's peak across "
        "`exec`), interpreter and imports included: `before` is the mark when parsing "
        "starts.",
        "",
        "| scale | input | format | PaperRecord | CitationRecord | Skipped | JSON MB | median s "
        "| CPU s | records/s | MB/s | peak RSS MB (before) | runs s |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in results["rows"]:
        counts = row["counts"]
        records = counts.get("PaperRecord", 0) + counts.get("CitationRecord", 0)
        lines.append(
            f"| {row['scale_label']} | {row['label']} | {row['format']} | "
            f"{counts.get('PaperRecord', 0):,} | {counts.get('CitationRecord', 0):,} | "
            f"{counts.get('Skipped', 0):,} | {_mb(row['json_bytes'])} | {row['seconds']:.2f} | "
            f"{row['cpu_seconds']:.2f} | {_rate(records / row['seconds'])} | "
            f"{row['json_bytes'] / 1e6 / row['seconds']:,.1f} | {row['peak_rss_mb']:.0f} "
            f"({row['rss_before_mb']:.0f}) | {' '.join(f'{s:.2f}' for s in row['runs'])} |"
        )
    lines += [
        "",
        "## Inputs",
        "",
        "| scale | input | file | lines | bytes on disk | JSON bytes | JSON bytes per line "
        "| records as generated |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    for row in results["rows"]:
        lines.append(
            f"| {row['scale_label']} | {row['label']} | `{row['file']}` | {row['lines']:,} | "
            f"{row['bytes']:,} | {row['json_bytes']:,} | {row['json_bytes'] // row['lines']:,} "
            f"| {'yes' if row['as_generated'] else 'no: ' + row['as_generated_note']} |"
        )
    made = results.get("generation", {})
    if made:
        lines += [
            "",
            "Making the inputs (not part of any figure above): "
            + "; ".join(f"{label} {seconds:.0f} s" for label, seconds in made.items())
            + ".",
        ]
    profile = results.get("profile")
    if profile:
        lines += [
            "",
            f"## Where the time goes: OpenAlex at {profile['scale_label']} (cProfile)",
            "",
            f"One more pass over the OpenAlex file under cProfile ({profile['total_s']:.1f} s "
            "with the profiler's overhead). Own time by module of the project, or by library "
            "for the rest:",
            "",
            "| where | share of own time |",
            "|---|---:|",
        ]
        lines += [
            f"| {label} | {share:.0%} |"
            for label, share in profile["shares"].items()
            if share >= 0.005
        ]
        top = list(profile["shares"].items())[:3]
        named = ", ".join(f"{label} ({share:.0%})" for label, share in top)
        lines += [
            "",
            f"What dominates: {top[0][0]}, {top[0][1]:.0%} of the own time."
            if top[0][1] >= 0.25
            else f"What dominates: no one part; the first three are {named}.",
            "",
            "Top 8 functions by cumulative time:",
            "",
            "| function | calls | own s | cumulative s |",
            "|---|---:|---:|---:|",
        ]
        for row in profile["by_cumulative"]:
            lines.append(
                f"| `{row['function']}` | {row['calls']:,} | {row['own_s']:.2f} | "
                f"{row['cumulative_s']:.2f} |"
            )
        lines += [
            "",
            "Top 8 functions by own time:",
            "",
            "| function | calls | own s | cumulative s |",
            "|---|---:|---:|---:|",
        ]
        for row in profile["by_own"]:
            lines.append(
                f"| `{row['function']}` | {row['calls']:,} | {row['own_s']:.2f} | "
                f"{row['cumulative_s']:.2f} |"
            )
    return lines


def write_report(path: Path, lines: list[str]) -> None:
    """Write the report to ``path``, keeping a hand-written analysis already there."""
    kept = ""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        if ANALYSIS_MARK in text:
            kept = text[text.index(ANALYSIS_MARK) :]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n" + ("\n" + kept if kept else ""), encoding="utf-8")


def _default_work() -> Path:
    home = os.environ.get("KG_HOME")
    return (
        Path(home) / "bench" / "sources"
        if home
        else Path(tempfile.gettempdir()) / "kg-bench-sources"
    )


def _check(row: dict[str, Any], expected: dict[str, int]) -> tuple[bool, str]:
    """Return whether the parser yielded the records the generator wrote, and how not."""
    counts = row["counts"]
    wrong = [
        f"{kind} {counts.get(kind, 0):,} of {expected.get(kind, 0):,}"
        for kind in ("PaperRecord", "CitationRecord", "Skipped")
        if counts.get(kind, 0) != expected.get(kind, 0)
    ]
    return not wrong, ", ".join(wrong)


def _sizes(args: argparse.Namespace) -> list[tuple[str, int]]:
    """The sizes asked for: each one's label and papers."""
    if args.papers:
        return [(f"{n:,} papers", n) for n in args.papers]
    return [(scale_label(s), max(1, round(s * HEPTH_PAPERS))) for s in args.scales]


def run(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """Make the inputs and measure each; return the results (written as they come)."""
    work: Path = args.work
    names = tuple(args.inputs)
    sizes = _sizes(args)
    results: dict[str, Any] = {
        "command": command,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "machine": _machine(),
        "uptime_before": _uptime(),
        "repeat": args.repeat,
        "work": str(work),
        "seed": args.seed,
        "rows": [],
        "generation": {},
    }
    specs = {spec.name: spec for spec in INPUTS}
    inputs: dict[str, dict[str, dict[str, Any]]] = {}
    for label, papers in sizes:  # make every input before timing any
        began = time.perf_counter()
        inputs[label] = make_inputs(papers, args.seed, work, names)
        results["generation"][label] = time.perf_counter() - began
    results["uptime_before"] = _uptime()
    for label, papers in sizes:
        for name in names:
            spec = specs[name]
            found = inputs[label][name]
            _log(f"{label} {name}: parsing {found['path']} x{args.repeat}")
            runs = [_child({"path": found["path"], "format": spec.fmt}) for _ in range(args.repeat)]
            for each in runs:
                if each["counts"].get("Rejected"):
                    raise SystemExit(
                        f"{found['path']}: {each['counts']['Rejected']:,} Rejected (none "
                        f"expected); the first: {each['first_reject']}"
                    )
            middle = sorted(runs, key=lambda each: each["seconds"])[(len(runs) - 1) // 2]
            row = {
                "scale_label": label,
                "papers": papers,
                "input": name,
                "label": spec.label,
                "format": spec.fmt,
                **{k: found[k] for k in ("file", "bytes", "json_bytes", "lines")},
                "counts": middle["counts"],
                "seconds": statistics.median(each["seconds"] for each in runs),
                "cpu_seconds": statistics.median(each["cpu_seconds"] for each in runs),
                "peak_rss_mb": max(each["peak_rss_mb"] for each in runs),
                "rss_before_mb": max(each["rss_before_mb"] for each in runs),
                "runs": [each["seconds"] for each in runs],
            }
            row["as_generated"], row["as_generated_note"] = _check(row, found["expected"])
            results["rows"].append(row)
            _log(f"  {row['seconds']:.2f} s, {row['counts']}, peak RSS {row['peak_rss_mb']:.0f} MB")
            write_report(args.out, render(results))
    if "openalex" in names and not args.no_profile:
        label = next((lab for lab, _ in sizes if lab == "1×"), sizes[0][0])
        _log(f"profiling the OpenAlex parser at {label}")
        profile = _child(
            {"path": inputs[label]["openalex"]["path"], "format": "openalex", "profile": 8}
        )
        results["profile"] = {**profile, "scale_label": label}
    results["uptime_after"] = _uptime()
    results["ended"] = datetime.now(UTC).isoformat(timespec="seconds")
    write_report(args.out, render(results))
    (work / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return results


# ---------------------------------------------------------------------------------------
# --load: each input loaded online and in bulk mode, into fresh local servers


def _load_once(
    bench: Bench, data: DataSet, mode: str, tag: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Load ``data`` with ``mode`` (online or bulk) in a child process, into a fresh local
    server of ``bench``; return the child's report and the checksum of the graph it left.
    The server and its files are removed after."""
    from tests.bench import ingest

    server = bench.server(f"{mode}-{tag}")
    try:
        spec = bench.spec(
            server, mode, data, rejects=str(bench.work / f"{tag}-{mode}.rejects.jsonl")
        )
        report = ingest.run_child(spec, bench.work / f"{tag}-{mode}.log")
        return report, ingest.checksum(server.settings)
    finally:
        server.stop()
        shutil.rmtree(server.settings.home, ignore_errors=True)
        shutil.rmtree(bench.work / "scratch", ignore_errors=True)  # bulk mode's kept CSVs


def load_row(bench: Bench, label: str, name: str, path: Path) -> dict[str, Any]:
    """Load the file of input ``name`` online and with ``--bulk``; return the table's row."""
    from tests.bench.ingest import DataSet

    data = DataSet(f"{label} {name}", 0, [path], "arxiv")
    tag = f"{label.replace(' ', '').replace(',', '')}-{name}"
    _log(f"{label} {name}: online loader")
    online, online_sum = _load_once(bench, data, "online", tag)
    _log(f"{label} {name}: bulk mode")
    bulk, bulk_sum = _load_once(bench, data, "bulk", tag)
    row = {
        "input": name,
        "scale_label": label,
        "online_seconds": online["wall_seconds"],
        "bulk_seconds": bulk["wall_seconds"],
        "online": online_sum,
        "bulk": bulk_sum,
        "rejected": [online.get("rejected", 0), bulk.get("rejected", 0)],
        "bulk_online_papers": bulk["bulk"]["online_papers"],
        "equal": online_sum == bulk_sum,
    }
    _log(f"  online {online_sum}, bulk {bulk_sum}: {'equal' if row['equal'] else 'NOT equal'}")
    return row


def run_loads(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """Make the inputs up to ``--load-max-scale``, load each online and in bulk mode (each
    into a fresh local server) and compare the two graphs; return the results."""
    from tests.bench.ingest import Bench

    limit = args.load_max_scale * HEPTH_PAPERS
    sizes = [(label, papers) for label, papers in _sizes(args) if papers <= limit]
    if not sizes:
        raise SystemExit(f"no size within --load-max-scale {args.load_max_scale:g}")
    names = tuple(args.inputs)
    results: dict[str, Any] = {
        "command": command,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "machine": _machine(),
        "work": str(args.work),
        "seed": args.seed,
        "settings": {"heap": args.heap, "pagecache": args.pagecache},
        "skipped_sizes": [label for label, papers in _sizes(args) if papers > limit],
        "loads": [],
    }
    inputs = {label: make_inputs(papers, args.seed, args.work, names) for label, papers in sizes}
    results["uptime_before"] = _uptime()
    args.work.mkdir(parents=True, exist_ok=True)
    bench = Bench(Path(tempfile.mkdtemp(prefix="load-", dir=args.work)), args.heap, args.pagecache)
    try:
        for label, _papers in sizes:
            for name in names:
                path = Path(inputs[label][name]["path"])
                results["loads"].append(load_row(bench, label, name, path))
                write_report(args.out, render_loads(results))
    finally:
        shutil.rmtree(bench.work, ignore_errors=True)
    results["uptime_after"] = _uptime()
    results["ended"] = datetime.now(UTC).isoformat(timespec="seconds")
    write_report(args.out, render_loads(results))
    (args.work / "load-results.json").write_text(
        json.dumps(results, indent=1) + "\n", encoding="utf-8"
    )
    return results


def _counts(row: dict[str, Any], key: str) -> str:
    """The online graph's count of ``key``, and bulk mode's where it differs."""
    online, bulk = row["online"][key], row["bulk"][key]
    return f"{online:,}" if online == bulk else f"{online:,} (bulk {bulk:,})"


def render_loads(results: dict[str, Any]) -> list[str]:
    """Return the Markdown report of a ``--load`` run."""
    s = results["settings"]
    lines = [
        "# Source inputs loaded: online loader and bulk mode",
        "",
        "Produced by `tests/bench/sources.py --load`: each source file of the source parsers' "
        "benchmark (made from the synthetic set; 1× is cit-HepTh's size, 27,770 papers) "
        "loaded by the online loader and by bulk mode (`kg load --bulk`), each in a child "
        "process into a fresh local server (`tests.bench.ingest`'s machinery). The graphs "
        "are compared by `tests.bench.ingest.checksum`, an order-free hash of the canonical "
        "dump. Every figure below comes from the run described here.",
        "",
        *_run_lines(
            results,
            f" Every server: heap {s['heap']}, page cache {s['pagecache']}.",
            "loading",
        ),
        f"- Inputs under `{results['work']}` (seed {results['seed']}), cached between runs.",
    ]
    if results["skipped_sizes"]:
        lines.append(
            f"- Not loaded (past `--load-max-scale`): {', '.join(results['skipped_sizes'])}."
        )
    lines += [
        "",
        "## Bulk mode against the online loader",
        "",
        "Seconds are each child's wall time (interpreter start included; for bulk mode the "
        "server's stop, import and start too). Nodes and relationships are the online graph's "
        "(bulk mode's in brackets where they differ). `via online writer` counts the papers "
        "bulk mode left to the online writer for the identity rules.",
        "",
        "| input | scale | online s | bulk s | nodes | relationships | rejected online / bulk "
        "| bulk: papers via online writer | bulk = online |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in results["loads"]:
        lines.append(
            f"| {row['input']} | {row['scale_label']} | {row['online_seconds']:.1f} | "
            f"{row['bulk_seconds']:.1f} | {_counts(row, 'nodes')} | "
            f"{_counts(row, 'relationships')} | {row['rejected'][0]:,} / {row['rejected'][1]:,} "
            f"| {row['bulk_online_papers']:,} | {'equal' if row['equal'] else 'NOT equal'} |"
        )
    equal = sum(row["equal"] for row in results["loads"])
    lines += ["", f"Equal: {equal} of {len(results['loads'])} rows."]
    return lines


def _floats(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part.strip()]


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = set(names) - set(INPUT_NAMES)
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown input(s) {', '.join(sorted(unknown))}; known: {', '.join(INPUT_NAMES)}"
        )
    return names


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and run the benchmark (or, with --child, one measurement)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--scales", type=_floats, default=[1.0, 10.0], help="of 27,770 papers (default 1,10)"
    )
    parser.add_argument(
        "--papers", type=_ints, help="sizes in papers instead of scales, e.g. 500,2000"
    )
    parser.add_argument(
        "--inputs",
        type=_names,
        default=list(INPUT_NAMES),
        help=f"which inputs, comma-separated (default all: {','.join(INPUT_NAMES)})",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per file (median shown)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=_default_work(), help="cache folder")
    parser.add_argument("--out", type=Path, help="default docs/BENCHMARKS-sources.md")
    parser.add_argument("--no-profile", action="store_true", help="skip the cProfile pass")
    parser.add_argument(
        "--load",
        action="store_true",
        help="instead of timing the parsers, load each input online and with --bulk, each "
        "into a fresh local server, and compare the graphs (default --out "
        "docs/BENCHMARKS-sources-load.md)",
    )
    parser.add_argument(
        "--load-max-scale",
        type=float,
        default=10,
        help="with --load, sizes past this scale are not loaded (default 10)",
    )
    parser.add_argument("--heap", default="2g", help="with --load, each server's heap")
    parser.add_argument("--pagecache", default="2g", help="with --load, each server's page cache")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        request = json.loads(args.child)
        path, fmt = Path(request["path"]), cast(FormatName, request["format"])
        if "profile" in request:
            answer = profile_once(path, fmt, int(request["profile"]))
        else:
            answer = parse_once(path, fmt)
        print(json.dumps(answer))
        return
    command = "python -m tests.bench.sources " + shlex.join(
        argv if argv is not None else sys.argv[1:]
    )
    if args.out is None:
        name = "BENCHMARKS-sources-load.md" if args.load else "BENCHMARKS-sources.md"
        args.out = REPO / "docs" / name
    (run_loads if args.load else run)(args, command.strip())
    _log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
