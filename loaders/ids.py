"""Strong paper ids besides arXiv's: DOI, OpenAlex, Semantic Scholar, MAG and PubMed.

Each kind has one normal form, and a paper's id is written ``<kind>:<value>`` wherever the
graph keys by it (``doi:10.1145/3292500.3330701``, ``openalex:W2741809807``):
- ``doi``: lower case, without ``doi:`` or a resolver (``https://doi.org/``,
  ``http://dx.doi.org/``); DOIs are case-insensitive, and sources write them in both cases.
  arXiv's own DOIs (``10.48550/arXiv.1706.03762``) are the arXiv id, not a DOI of their own
  (``arxiv_from_doi``).
- ``openalex``: the work id ``W`` and digits, from the bare id or any openalex.org URL.
- ``s2``: Semantic Scholar's 40-hex ``paperId`` in lower case, from the bare id or a
  semanticscholar.org paper URL.
- ``corpus``: Semantic Scholar's corpus id, digits (``CorpusId:14636783``).
- ``mag``: a Microsoft Academic Graph id, digits.
- ``pmid``: a PubMed id, digits (``PMID:…`` or a pubmed.ncbi.nlm.nih.gov URL).

``ID_KINDS`` is also the order in which a paper without an arXiv id takes its node key:
its DOI where it has one, else its OpenAlex id, and so on.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from typing import Final, Literal, get_args

from .titles import canonical_arxiv_id

__all__ = [
    "AUTHOR_ID_KINDS",
    "ID_KINDS",
    "AuthorIdKind",
    "IdKind",
    "arxiv_from_doi",
    "author_key",
    "author_merges",
    "author_rank",
    "contested_ids",
    "id_key",
    "id_merges",
    "key_rank",
    "normal_author_id",
    "normal_id",
    "parse_id_key",
    "read_author_id",
    "read_id",
]

IdKind = Literal["doi", "openalex", "s2", "corpus", "mag", "pmid"]
ID_KINDS: Final[tuple[IdKind, ...]] = get_args(IdKind)

# No '|' in a DOI: the graph's bookkeeping joins keys with it (``key_refs``, CITES ``named``)
_DOI = re.compile(r"^10\.\d{4,9}/[^\s|]+$", re.ASCII)
_DOI_PREFIX = re.compile(
    r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/|(?:dx\.)?doi\.org/)", re.IGNORECASE | re.ASCII
)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE | re.ASCII)
_OPENALEX = re.compile(
    r"^(?:openalex:\s*|https?://(?:api\.)?openalex\.org/(?:works/)?)?(w\d+)$",
    re.IGNORECASE | re.ASCII,
)
_S2 = re.compile(
    r"^(?:s2:\s*|https?://(?:www\.|api\.)?semanticscholar\.org/(?:graph/v1/)?paper/"
    r"(?:[^/]+/)?)?([0-9a-f]{40})/?$",
    re.IGNORECASE | re.ASCII,
)
_NUMBERED = {
    "corpus": re.compile(r"^(?:corpus(?:_?id)?:\s*)?(\d{1,12})$", re.IGNORECASE | re.ASCII),
    "mag": re.compile(r"^(?:mag:\s*)?(\d{1,12})$", re.IGNORECASE | re.ASCII),
    "pmid": re.compile(
        r"^(?:pmid:\s*|https?://pubmed\.ncbi\.nlm\.nih\.gov/)?(\d{1,9})/?$",
        re.IGNORECASE | re.ASCII,
    ),
}
# What a REF names without saying the kind: only the forms no other kind can take.
_PREFIXED = re.compile(r"^(doi|openalex|s2|corpus|corpusid|mag|pmid):\s*(.+)$", re.IGNORECASE)
_BARE_RANK: Final = len(ID_KINDS) + 2


def arxiv_from_doi(doi: str) -> str | None:
    """Return the arXiv id of one of arXiv's own DOIs (``10.48550/arXiv.1706.03762``), else
    None."""
    text = _DOI_PREFIX.sub("", doi.strip())
    match = _ARXIV_DOI.match(text)
    return canonical_arxiv_id(match.group(1)) if match else None


def normal_id(kind: IdKind, value: str | int) -> str | None:
    """Return the normal form of an id of ``kind`` written in any of its usual spellings,
    or None when ``value`` is no such id. An arXiv DOI is no DOI here (``arxiv_from_doi``)."""
    text = str(value).strip()
    if kind == "doi":
        text = _DOI_PREFIX.sub("", text).strip().lower()
        if not _DOI.match(text) or _ARXIV_DOI.match(text):
            return None
        return text
    if kind == "openalex":
        match = _OPENALEX.match(text)
        return match.group(1).upper() if match else None
    if kind == "s2":
        match = _S2.match(text)
        return match.group(1).lower() if match else None
    match = _NUMBERED[kind].match(text)
    if match is None:
        return None
    digits = match.group(1).lstrip("0")
    return digits or None


def id_key(kind: IdKind, value: str) -> str:
    """Return the key form of a normalised id: ``<kind>:<value>``."""
    return f"{kind}:{value}"


def parse_id_key(key: str) -> tuple[IdKind, str] | None:
    """Return (kind, value) of an id key (``doi:10.1/x``), or None for any other key."""
    kind, colon, value = key.partition(":")
    if not colon or kind not in ID_KINDS:
        return None
    return kind, value  # checked against ID_KINDS


def read_id(text: str) -> tuple[IdKind, str] | None:
    """Return (kind, normalised value) of an id as users write one, or None.

    A DOI (``10.1145/…``, ``doi:10.1145/…``, ``https://doi.org/…``), an OpenAlex id
    (``W2741809807``, its openalex.org URL), a Semantic Scholar paperId (40 hex digits, a
    semanticscholar.org URL) or an id named by its kind (``CorpusId:14636783``,
    ``mag:2963403868``, ``PMID:31234567``, ``s2:…``, ``openalex:…``). Bare digits name no
    kind, so they are None: the corpus id, MAG and PubMed all write ids so.
    """
    stripped = text.strip()
    prefixed = _PREFIXED.match(stripped)
    if prefixed:
        named = prefixed.group(1).lower()
        kind: IdKind = "corpus" if named == "corpusid" else named  # type: ignore[assignment]
        value = normal_id(kind, prefixed.group(2))
        return (kind, value) if value is not None else None
    for kind in ("doi", "openalex", "s2"):
        value = normal_id(kind, stripped)
        if value is not None:
            return kind, value
    if re.match(r"^https?://pubmed\.ncbi\.nlm\.nih\.gov/", stripped, re.IGNORECASE):
        value = normal_id("pmid", stripped)
        return ("pmid", value) if value is not None else None
    return None


def key_rank(key: str) -> tuple[int, str]:
    """Order of node keys for which key a paper keeps when papers that share an id merge:
    an arXiv id first, then the id kinds in ``ID_KINDS`` order, then a title key; the
    smallest key among equals."""
    parsed = parse_id_key(key)
    if parsed is not None:
        return 1 + ID_KINDS.index(parsed[0]), key
    if key.startswith("title:"):
        return _BARE_RANK, key
    return 0, key


def _linked_groups(links: Iterable[Iterable[str]]) -> list[list[str]]:
    """The groups of keys the links join, transitively (each link: the keys one id names);
    a key in no link with another is a group of its own."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        parent.setdefault(key, key)
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for keys in links:
        linked = sorted(set(keys))
        for key in linked:
            root(key)
        for a, b in itertools.pairwise(linked):
            parent[root(b)] = root(a)
    groups: dict[str, list[str]] = {}
    for key in parent:
        groups.setdefault(root(key), []).append(key)
    return list(groups.values())


def id_merges(
    papers_by_id: Mapping[str, Iterable[str]], kept_apart: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """Return the merges the identity rule for strong ids asks for, as (source, target)
    pairs sorted by target then source.

    ``papers_by_id`` gives, for each id key, the keys of the papers it identifies. Papers an
    id links are one paper, transitively, but:
    - two arXiv papers are never one: in a group that holds several, each stays itself, and
      every other paper of the group joins the smallest arXiv id (the ids that link them
      are contested, which ``kg merges --contested`` shows);
    - a key a user split off (``kept_apart``: ``kg unmerge``) joins nothing, and nothing
      joins it.
    Otherwise a group's paper is its arXiv paper, else its key first in ``key_rank``.
    """
    apart = set(kept_apart)
    merges: list[tuple[str, str]] = []
    for members in _linked_groups(set(keys) - apart for keys in papers_by_id.values()):
        if len(members) < 2:
            continue
        ranked = sorted(members, key=key_rank)
        target = ranked[0]
        merges.extend((key, target) for key in ranked[1:] if key_rank(key)[0] != 0)
    return sorted(merges, key=lambda pair: (pair[1], pair[0]))


def contested_ids(papers_by_id: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Return the ids that identify two or more arXiv papers, each with those papers' keys
    (sorted): the rule keeps the papers apart, so such an id names more than one paper."""
    found: dict[str, list[str]] = {}
    for key, papers in papers_by_id.items():
        arxiv = sorted({p for p in papers if key_rank(p)[0] == 0})
        if len(arxiv) > 1:
            found[key] = arxiv
    return found


AuthorIdKind = Literal["orcid", "openalex", "s2"]
AUTHOR_ID_KINDS: Final[tuple[AuthorIdKind, ...]] = get_args(AuthorIdKind)
"""The strong ids of an author, in the order an author takes its key by: ORCID, OpenAlex's
author id, Semantic Scholar's authorId."""
_ORCID = re.compile(
    r"^(?:orcid:\s*|https?://(?:www\.)?orcid\.org/)?(\d{4}-\d{4}-\d{4}-\d{3}[\dX])/?$",
    re.IGNORECASE | re.ASCII,
)
_OPENALEX_AUTHOR = re.compile(
    r"^(?:openalex:\s*|https?://(?:api\.)?openalex\.org/(?:authors/)?)?(a\d+)$",
    re.IGNORECASE | re.ASCII,
)
_S2_AUTHOR = re.compile(
    r"^(?:s2:\s*|https?://(?:www\.)?semanticscholar\.org/author/(?:[^/]+/)?)?(\d{1,12})/?$",
    re.IGNORECASE | re.ASCII,
)
_AUTHOR_PATTERNS = {"orcid": _ORCID, "openalex": _OPENALEX_AUTHOR, "s2": _S2_AUTHOR}


def normal_author_id(kind: AuthorIdKind, value: str | int) -> str | None:
    """Return the normal form of an author id of ``kind`` in any of its usual spellings, or
    None: an ORCID as ``0000-0002-1825-0097`` (an ``X`` check digit in upper case, from the
    bare id or an orcid.org URL), an OpenAlex author id as ``A`` and digits, a Semantic
    Scholar authorId as digits."""
    match = _AUTHOR_PATTERNS[kind].match(str(value).strip())
    if match is None:
        return None
    found = match.group(1).upper()
    return found.lstrip("0") or None if kind == "s2" else found


def author_key(ids: Mapping[AuthorIdKind, str], norm_name: str) -> str:
    """Return an author's node key: its first strong id in ``AUTHOR_ID_KINDS`` order as
    ``<kind>:<value>`` (``orcid:0000-0002-1825-0097``), else its normalised name."""
    for kind in AUTHOR_ID_KINDS:
        if kind in ids:
            return f"{kind}:{ids[kind]}"
    return norm_name


def read_author_id(text: str) -> str | None:
    """Return the key form of an author id as users write one (``orcid:…`` or an orcid.org
    URL, ``openalex:A…`` or its URL, ``s2:…`` or a semanticscholar.org author URL; a bare
    ORCID or ``A`` and digits too), or None."""
    stripped = text.strip()
    for kind in AUTHOR_ID_KINDS:
        bare_allowed = kind != "s2"  # bare digits name no kind
        if not bare_allowed and not re.match(r"^(?:s2:|https?://)", stripped, re.IGNORECASE):
            continue
        value = normal_author_id(kind, stripped)
        if value is not None:
            return f"{kind}:{value}"
    return None


def author_rank(key: str) -> tuple[int, str]:
    """Which key an author keeps when authors that share an id merge: ORCID first, then
    OpenAlex's author id, then Semantic Scholar's, then a name; the smallest among equals."""
    kind = key.split(":", 1)[0] if ":" in key else ""
    for position, named in enumerate(AUTHOR_ID_KINDS):
        if kind == named:
            return position, key
    return len(AUTHOR_ID_KINDS), key


def author_merges(authors_by_id: Mapping[str, Iterable[str]]) -> list[tuple[str, str]]:
    """Return the merges the rule for authors' strong ids asks for, as (source, target)
    pairs sorted by target then source: authors an id links are one, transitively, keyed
    by the first key in ``author_rank``. A name is no id, so an author known by name alone
    is never linked (no id key names one)."""
    merges = [
        (key, ranked[0])
        for members in _linked_groups(authors_by_id.values())
        for ranked in [sorted(members, key=author_rank)]
        for key in ranked[1:]
    ]
    return sorted(merges, key=lambda pair: (pair[1], pair[0]))
