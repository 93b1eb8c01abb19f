"""One writer per export format, all reading the same streams of papers and citations.

``FORMATS`` maps a format's name to its writer: what it writes (a file or a folder) and the
function that writes it. Writers stream: they hold no list of papers or citations, only,
where a format numbers its nodes (Pajek, VOSviewer), the map from key to number.

Titles and names are stored as their sources wrote them, LaTeX and all. Each format writes
what its readers expect: BibTeX keeps the raw LaTeX (LaTeX is its language: ``{\\cal N}``
typesets there); GraphML, GEXF, CSV, VOSviewer and RIS are read by tools that show text as
it is, so their titles, labels and author names are shown as they print
(``kg.text.display``: ``𝒩 = 4``, ``AdS₅``); Pajek labels each vertex with its node key,
the id the other files and ``kg`` name it by.
"""

from __future__ import annotations

import csv
import hashlib
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Final
from xml.sax.saxutils import escape, quoteattr

from kg.answers import ExportSummary
from kg.errors import ParameterError
from kg.export.selection import ExportedPaper
from kg.text import display

__all__ = [
    "FORMATS",
    "Source",
    "Writer",
    "check_folder_of",
    "citation_key",
    "csv_cell",
    "graphml_id",
    "write_bibtex",
    "write_csv",
    "write_gexf",
    "write_graphml",
    "write_pajek",
    "write_ris",
    "write_vosviewer",
]

_ARXIV_ABS = "https://arxiv.org/abs/"
# Characters XML 1.0 does not allow at all; a title holding one would make the file invalid.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass(frozen=True)
class Source:
    """Where a writer reads from: each call starts a new pass over papers or citations."""

    papers: Callable[[], Iterator[ExportedPaper]]
    citations: Callable[[], Iterator[tuple[str, str]]]


@dataclass(frozen=True)
class Writer:
    """One export format: what it is for, whether it writes a folder, and its function."""

    description: str
    folder: bool
    write: Callable[[Source, Path, ExportSummary], None]


def _xml(text: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", text))


def _attr(text: str) -> str:
    return quoteattr(_NOT_XML.sub("\ufffd", text))


def check_folder_of(path: Path) -> None:
    """Raise ParameterError unless the folder ``path`` goes into exists: a file is written
    only into a folder the user made, never into folders made up from a mistyped path."""
    folder = path.parent
    if not folder.exists():
        raise ParameterError(f"no folder {folder}", "create it first")
    if not folder.is_dir():
        raise ParameterError(f"{folder} is not a folder", "name a path in a folder")


def _open(path: Path) -> IO[str]:
    return path.open("w", encoding="utf-8", newline="")


_GRAPHML_KEYS: Final = (
    ("title", "string"),
    ("arxiv_id", "string"),
    ("year", "int"),
    ("category", "string"),
    ("stub", "boolean"),
    ("cited_by", "int"),
    ("pagerank", "double"),
    ("community", "int"),
)


def _values(paper: ExportedPaper) -> Iterator[tuple[str, str]]:
    """Yield (name, text) of a paper's known attributes, as GraphML and GEXF write them."""
    for name, kind in _GRAPHML_KEYS:
        value = getattr(paper, name)
        if value is None:
            continue
        if kind == "boolean":
            yield name, "true" if value else "false"
        elif name == "title":
            yield name, display(value)
        else:
            yield name, str(value)


# GraphML types node ids as xs:NMTOKEN: no '/', no space, so neither an old-style arXiv id
# (hep-th/9711200) nor a title key is a valid id as it is.
_NMTOKEN_SAFE = re.compile(r"[A-Za-z0-9.:-]")


def graphml_id(key: str) -> str:
    """Return ``key`` as a GraphML node id (an NMTOKEN): letters, digits, '.', ':' and '-' as
    they are, every other character as '_' and the hex of its UTF-8 bytes ('/' is '_2F').
    Distinct keys give distinct ids, and the key can be read back from the id."""
    return "".join(
        char if _NMTOKEN_SAFE.fullmatch(char) else "".join(f"_{b:02X}" for b in char.encode())
        for char in key
    )


def write_graphml(source: Source, path: Path, summary: ExportSummary) -> None:
    """GraphML, directed: a node per paper with its attributes, an edge per citation. Node
    ids are the keys made NMTOKENs by ``graphml_id``; the key itself is the ``key`` data."""
    with _open(path) as out:
        out.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
            'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n'
        )
        for name, kind in (("key", "string"), *_GRAPHML_KEYS):
            out.write(f'  <key id="{name}" for="node" attr.name="{name}" attr.type="{kind}"/>\n')
        out.write('  <graph id="citations" edgedefault="directed">\n')
        for paper in source.papers():
            out.write(f'    <node id="{graphml_id(paper.key)}">')
            out.write(f'<data key="key">{_xml(paper.key)}</data>')
            for name, text in _values(paper):
                out.write(f'<data key="{name}">{_xml(text)}</data>')
            out.write("</node>\n")
            summary.papers += 1
        for citing, cited in source.citations():
            out.write(f'    <edge source="{graphml_id(citing)}" target="{graphml_id(cited)}"/>\n')
            summary.citations += 1
        out.write("  </graph>\n</graphml>\n")
    summary.files.append(str(path))


_GEXF_TYPES: Final = {
    "string": "string",
    "int": "integer",
    "boolean": "boolean",
    "double": "double",
}


def write_gexf(source: Source, path: Path, summary: ExportSummary) -> None:
    """GEXF 1.2 (Gephi), directed: labelled nodes with attributes, an edge per citation."""
    with _open(path) as out:
        out.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<gexf xmlns="http://www.gexf.net/1.2draft" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="http://www.gexf.net/1.2draft '
            'http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">\n'
            "  <meta><creator>kg-map</creator>"
            "<description>citation map</description></meta>\n"
            '  <graph mode="static" defaultedgetype="directed">\n'
            '    <attributes class="node">\n'
        )
        for name, kind in _GRAPHML_KEYS:
            out.write(f'      <attribute id="{name}" title="{name}" type="{_GEXF_TYPES[kind]}"/>\n')
        out.write("    </attributes>\n    <nodes>\n")
        for paper in source.papers():
            out.write(f"      <node id={_attr(paper.key)} label={_attr(paper.label)}><attvalues>")
            for name, text in _values(paper):
                out.write(f'<attvalue for="{name}" value={_attr(text)}/>')
            out.write("</attvalues></node>\n")
            summary.papers += 1
        out.write("    </nodes>\n    <edges>\n")
        for number, (citing, cited) in enumerate(source.citations()):
            out.write(f'      <edge id="{number}" source={_attr(citing)} target={_attr(cited)}/>\n')
            summary.citations += 1
        out.write("    </edges>\n  </graph>\n</gexf>\n")
    summary.files.append(str(path))


def _numbered(
    papers: Iterable[ExportedPaper], lines: IO[str], line: Callable[[int, ExportedPaper], str]
) -> dict[str, int]:
    """Write one line per paper, numbered from 1; return the number of each key."""
    numbers: dict[str, int] = {}
    for paper in papers:
        numbers[paper.key] = len(numbers) + 1
        lines.write(line(numbers[paper.key], paper))
    return numbers


def _between(
    citations: Iterator[tuple[str, str]], numbers: dict[str, int], summary: ExportSummary
) -> Iterator[tuple[str, str]]:
    """The citations whose two ends were written as numbered papers. Papers and citations
    are read in separate passes, so a load that ran between them can add a citation to a
    paper the first pass did not see: it is counted in ``summary.skipped``, not written."""
    for citing, cited in citations:
        if citing in numbers and cited in numbers:
            yield citing, cited
        else:
            summary.skipped += 1


def write_pajek(source: Source, path: Path, summary: ExportSummary) -> None:
    """Pajek .net: numbered vertices labelled with the key (the id every other file names
    the paper by), then one arc per citation."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as vertices:
        numbers = _numbered(
            source.papers(),
            vertices,
            lambda number, paper: f'{number} "{paper.key.replace(chr(34), chr(39))}"\n',
        )
        with _open(path) as out:
            out.write(f"*Vertices {len(numbers)}\n")
            vertices.seek(0)
            shutil.copyfileobj(vertices, out)
            out.write("*Arcs\n")
            for citing, cited in _between(source.citations(), numbers, summary):
                out.write(f"{numbers[citing]} {numbers[cited]}\n")
                summary.citations += 1
    summary.papers = len(numbers)
    summary.files.append(str(path))


_CSV_PAPER_FIELDS: Final = (
    "key",
    "arxiv_id",
    "title",
    "year",
    "published",
    "doi",
    "journal_ref",
    "category",
    "authors",
    "stub",
    "cited_by",
    "pagerank",
    "community",
)


# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
_FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> object:
    """Return a value as a CSV export writes it: None as '', and text that a spreadsheet
    would run as a formula (it starts with =, +, -, @, a tab or a carriage return) with a
    single quote before it, as OWASP advises; a number, a date or a bool as it is (a
    negative number is data, not a formula)."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def write_csv(source: Source, path: Path, summary: ExportSummary) -> None:
    """A folder with papers.csv (one row per paper, title and names as they print; authors
    joined by '; ') and
    citations.csv (citing,cited). A text cell that starts with =, +, -, @, a tab or a
    carriage return (a title, a name, a key) gets a single quote before it, so that a
    spreadsheet shows it rather than runs it as a formula (``csv_cell``)."""
    path.mkdir(exist_ok=True)  # the export's own folder; its parent must exist
    with _open(path / "papers.csv") as out:
        rows = csv.writer(out)
        rows.writerow(_CSV_PAPER_FIELDS)
        for paper in source.papers():
            values = {name: getattr(paper, name) for name in _CSV_PAPER_FIELDS}
            values["title"] = display(paper.title) or None
            values["authors"] = "; ".join(display(author) for author in paper.authors)
            rows.writerow([csv_cell(values[n]) for n in _CSV_PAPER_FIELDS])
            summary.papers += 1
    with _open(path / "citations.csv") as out:
        rows = csv.writer(out)
        rows.writerow(("citing", "cited"))
        for edge in source.citations():
            rows.writerow([csv_cell(key) for key in edge])
            summary.citations += 1
    summary.files.extend([str(path / "papers.csv"), str(path / "citations.csv")])


def write_vosviewer(source: Source, path: Path, summary: ExportSummary) -> None:
    """A folder with VOSviewer's map file (map.txt: id, label, cluster, citations, year) and
    network file (network.txt: one citation link per line)."""
    path.mkdir(exist_ok=True)  # the export's own folder; its parent must exist
    with _open(path / "map.txt") as out:
        out.write("id\tlabel\tcluster\tweight<Citations>\tscore<Year>\n")
        numbers = _numbered(
            source.papers(),
            out,
            lambda number, paper: (
                f"{number}\t{_tsv(paper.label)}\t"
                f"{'' if paper.community is None else paper.community + 1}\t"
                f"{paper.cited_by}\t{'' if paper.year is None else paper.year}\n"
            ),
        )
    with _open(path / "network.txt") as out:
        for citing, cited in _between(source.citations(), numbers, summary):
            out.write(f"{numbers[citing]}\t{numbers[cited]}\t1\n")
            summary.citations += 1
    summary.papers = len(numbers)
    summary.files.extend([str(path / "map.txt"), str(path / "network.txt")])


def _tsv(text: str) -> str:
    return " ".join(text.split())


def citation_key(paper: ExportedPaper) -> str:
    """Return the BibTeX key of a paper: its arXiv id (``hep-th_9711200``), else the start
    of its title and a short hash of its node key, so that keys are unique and stable."""
    if paper.arxiv_id:
        return re.sub(r"[^A-Za-z0-9.:-]", "_", paper.arxiv_id)
    words = re.findall(r"[A-Za-z0-9]+", paper.title or "")[:3]
    digest = hashlib.sha1(paper.key.encode("utf-8")).hexdigest()[:8]
    return "_".join([*words, str(paper.year or ""), digest]).strip("_")


_LATEX_SPECIAL = re.compile(r"(?<!\\)([&%#])")


def _braced(text: str) -> str:
    """Return text safe inside a BibTeX {…} field that LaTeX typesets: a brace without its
    pair is escaped (balanced ones, as in ``$\\frac{a}{b}$``, are kept), and so are ``&``,
    ``%`` and ``#`` not escaped already, which LaTeX would read as commands."""
    open_at: list[int] = []
    unpaired: set[int] = set()
    escaped = False
    for at, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            open_at.append(at)
        elif char == "}":
            if open_at:
                open_at.pop()
            else:
                unpaired.add(at)
    unpaired.update(open_at)
    text = "".join("\\" + char if at in unpaired else char for at, char in enumerate(text))
    return " ".join(_LATEX_SPECIAL.sub(r"\\\1", text).split())


def write_bibtex(source: Source, path: Path, summary: ExportSummary) -> None:
    """BibTeX: an @misc (or @article with a journal reference) per paper, with the arXiv
    eprint fields, authors, year, DOI and a URL; the title as its source wrote it, LaTeX
    and all, for LaTeX to typeset."""
    with _open(path) as out:
        for paper in source.papers():
            fields: list[tuple[str, str]] = []
            if paper.title:
                fields.append(("title", paper.title))
            if paper.authors:
                fields.append(("author", " and ".join(paper.authors)))
            if paper.year is not None:
                fields.append(("year", str(paper.year)))
            if paper.arxiv_id:
                fields += [
                    ("eprint", paper.arxiv_id),
                    ("archiveprefix", "arXiv"),
                    ("url", _ARXIV_ABS + paper.arxiv_id),
                ]
                if paper.category:
                    fields.append(("primaryclass", paper.category))
            if paper.doi:
                fields.append(("doi", paper.doi))
            if paper.journal_ref:
                fields.append(("journal", paper.journal_ref))
            kind = "article" if paper.journal_ref else "misc"
            body = ",\n".join(f"  {name} = {{{_braced(value)}}}" for name, value in fields)
            out.write(f"@{kind}{{{citation_key(paper)},\n{body}\n}}\n\n")
            summary.papers += 1
    summary.files.append(str(path))


def write_ris(source: Source, path: Path, summary: ExportSummary) -> None:
    """RIS: a record per paper (JOUR with a journal reference, else UNPB for a preprint);
    title and names as they print (reference managers show RIS text as it is)."""
    with _open(path) as out:
        for paper in source.papers():
            lines = [("TY", "JOUR" if paper.journal_ref else "UNPB")]
            lines += [("AU", display(author)) for author in paper.authors]
            if paper.title:
                lines.append(("TI", display(paper.title)))
            if paper.year is not None:
                lines.append(("PY", str(paper.year)))
            if paper.journal_ref:
                lines.append(("JO", paper.journal_ref))
            if paper.doi:
                lines.append(("DO", paper.doi))
            if paper.arxiv_id:
                lines += [("UR", _ARXIV_ABS + paper.arxiv_id), ("N1", f"arXiv:{paper.arxiv_id}")]
            lines.append(("ID", paper.key))
            for tag, value in lines:
                out.write(f"{tag}  - {' '.join(value.split())}\n")
            out.write("ER  - \n\n")
            summary.papers += 1
    summary.files.append(str(path))


FORMATS: Final[dict[str, Writer]] = {
    "graphml": Writer("GraphML (Gephi, Cytoscape, networkx, igraph)", False, write_graphml),
    "gexf": Writer("GEXF 1.2 (Gephi)", False, write_gexf),
    "pajek": Writer("Pajek .net (Pajek, VOSviewer, igraph)", False, write_pajek),
    "csv": Writer(
        "papers.csv and citations.csv in a folder (text that would start a spreadsheet "
        "formula gets a ' before it)",
        True,
        write_csv,
    ),
    "vosviewer": Writer("VOSviewer map.txt and network.txt in a folder", True, write_vosviewer),
    "bibtex": Writer("BibTeX entries of the papers (no citations)", False, write_bibtex),
    "ris": Writer("RIS records of the papers (no citations)", False, write_ris),
}
