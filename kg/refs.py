"""Paper references: what a user may type to name a paper, and which paper it names.

A REF is an arXiv id in any common spelling (``2110.03888``, ``arXiv:2110.03888v2``,
``hep-th/9901001``), another strong id as users write it (``10.1145/…``, ``doi:10.1145/…``,
``https://doi.org/…``, ``W2741809807`` or its openalex.org URL, ``CorpusId:14636783``, a
40-hex Semantic Scholar paperId or its URL, ``PMID:…``; see ``loaders.ids.read_id``), a
node key (``title:attention is all you need:2017``), a handle as
lists show it (a key cut short with ``…``, its year kept: ``title:attention-is-a…:2017``)
or a title, exact
or in any spelling that normalises the same. It resolves by node key first, then by arXiv
id or another strong id the paper holds, then by the normalised title a paper holds,
then by one it is also known by (another version's title), then by key prefix, then by
a key merged into it (an alias, whole or as a prefix). Several papers at the first tier
that matches make the REF ambiguous; none at all make it unknown, and the error suggests
near ids (when the REF looks like an arXiv id: keys sharing its start within two edits) or
else near titles from the full-text index.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from kg import queries
from kg.answers import PaperSummary, SearchHit
from kg.database import Database
from kg.errors import AmbiguousReference, ParameterError, QueryFailed, UnknownReference
from loaders.ids import id_key, read_id
from loaders.titles import canonical_arxiv_id, normalize_title

__all__ = [
    "MAX_SEARCH_WORDS",
    "ParsedRef",
    "escape_lucene",
    "first_words",
    "fuzzy_title_query",
    "handle_names",
    "key_written",
    "lookup",
    "near_ids",
    "parse_ref",
    "resolve",
    "search_titles",
    "too_many_words",
]

SUGGESTIONS = 5
MAX_SEARCH_WORDS: Final = 256
"""How many words of a text a title search sends to the full-text index: the words after
them are left out. Lucene refuses a query of more than 1,024 clauses (its maxClauseCount),
and a search near a title sends two for each long word (the word, and the word within one
edit)."""
# A word as the index's analyzer splits text: a run of letters, digits and '_' (it splits
# at '-', '/' and the like too, so "a-b-c" is three words), but each Han ideograph and each
# hiragana letter alone, as Lucene's standard tokenizer takes them.
_ONE_CHAR_WORDS = "\u3040-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_WORD = re.compile(rf"[{_ONE_CHAR_WORDS}]|[^\W{_ONE_CHAR_WORDS}]+")
# A handle cut short in a list (see kg.answers.short_handle) ends with one of these and
# names the papers whose key starts with what comes before it.
_ELLIPSES = ("…", "...")
_TITLE_KEY = "title:"
# What a title key's handle keeps after its '…' (kg.answers.short_handle): the key's year.
_YEAR_TAIL = re.compile(r":(?:\d+|unknown)")
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_LUCENE_OPERATORS = frozenset({"AND", "OR", "NOT"})
_FUZZY_MIN_LENGTH = 4
# What looks like an arXiv id, typo and all: an old-style archive/number or a new-style
# YYMM.number, with an optional 'arXiv:' before it and a version or stray letters after.
_ID_LIKE = re.compile(
    r"^(?:arxiv:)?([a-z][a-z-]*(?:\.[a-z]{2})?/\d{4,9}|\d{3,5}\.\d{2,6})\w*$", re.IGNORECASE
)
_ID_EDITS = 2
_VERSION = re.compile(r"v\d+$", re.IGNORECASE)
_ID_CANDIDATES = 200
# What Python makes of bytes that are not UTF-8 (on a command line, as surrogateescape
# decodes them) or of a broken UTF-16 pair: text that no UTF-8 query can carry.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class ParsedRef:
    """A REF split into what each resolution tier looks up."""

    text: str
    key: str
    arxiv_id: str | None
    norm_title: str
    key_prefix: str | None = None
    key_suffix: str = ""


def parse_ref(ref: str) -> ParsedRef:
    """Return what each tier looks up for ``ref``: node key, canonical arXiv id, title.

    Raises ParameterError for an empty reference, one that is not a str, or one that is not
    valid text (a lone surrogate: command-line bytes that are not UTF-8).
    """
    if not isinstance(ref, str):
        raise ParameterError(
            f"the paper reference is {ref!r}, not a str",
            "pass an arXiv id, a title or a node key as a str",
        )
    if not ref.isascii() and _LONE_SURROGATE.search(ref):
        raise ParameterError(
            f"the paper reference {ref!r} is not valid text: it holds bytes that are not UTF-8",
            "pass an arXiv id, a title or a node key as UTF-8 text",
        )
    text = ref.strip()
    if not text:
        raise ParameterError(
            "the paper reference is empty", "pass an arXiv id, a title or a node key"
        )
    arxiv_id = canonical_arxiv_id(text)
    strong = read_id(text) if arxiv_id is None else None
    key = id_key(*strong) if strong is not None else _undash(text)
    key_prefix = key_suffix = None
    for ellipsis in _ELLIPSES:
        before, cut, after = key.partition(ellipsis)
        if cut and before and (not after or _YEAR_TAIL.fullmatch(after)):
            key_prefix, key_suffix = before, after
            break
    return ParsedRef(
        text=text,
        key=arxiv_id or key,
        arxiv_id=arxiv_id,
        norm_title=normalize_title(text),
        key_prefix=key_prefix,
        key_suffix=key_suffix or "",
    )


def _undash(text: str) -> str:
    """Return a title key's handle with its '-' written back as spaces: a handle writes the
    spaces of its key as '-' (see kg.answers.short_handle), and a normalised title has no
    hyphen, so this is the key. Any other text is returned as it is."""
    return text.replace("-", " ") if text.startswith(_TITLE_KEY) else text


def key_written(text: str) -> str | None:
    """Return the node key ``text`` writes, or None when it is not written as a key.

    A key is a canonical arXiv id, accepted in any common spelling (``arXiv:1706.03762v2``
    is ``1706.03762``), or a title key, ``title:<normalised title>:<year or unknown>``,
    accepted as lists show it too (its spaces written as '-': ``title:sparse-coding:2011``).
    A handle cut short with '…', a title key whose title is not normalised
    (``title:Sparse Coding:2011``) and anything else name no one key: None.
    """
    text = text.strip()
    arxiv_id = canonical_arxiv_id(text)
    if arxiv_id is not None:
        return arxiv_id
    strong = read_id(text)
    if strong is not None:
        return id_key(*strong)
    if not text.startswith(_TITLE_KEY) or any(e in text for e in _ELLIPSES):
        return None
    norm, colon, year = _undash(text).removeprefix(_TITLE_KEY).rpartition(":")
    if not colon or not norm or normalize_title(norm) != norm:
        return None
    if year != "unknown" and not (year.isascii() and year.isdigit() and str(int(year)) == year):
        return None
    return f"{_TITLE_KEY}{norm}:{year}"


def handle_names(text: str, key: str) -> bool:
    """Whether ``text`` names the node key ``key`` as a key or a handle of it: written as the
    key (``key_written``), or a handle cut short with '…' whose start and end ``key`` has
    (``title:sparse-α-cod…:2020``)."""
    if not text.strip():
        return False
    parsed = parse_ref(text)
    if parsed.key_prefix is None:
        return key_written(text) == key
    return key.startswith(parsed.key_prefix) and key.endswith(parsed.key_suffix)


def escape_lucene(text: str) -> str:
    """Return ``text`` safe to pass as a Lucene query: every special character is escaped
    with a backslash and the operators AND, OR and NOT become plain (lower-case) words."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    return " ".join(word.lower() if word in _LUCENE_OPERATORS else word for word in escaped.split())


def first_words(text: str, count: int = MAX_SEARCH_WORDS) -> tuple[str, bool]:
    """Return ``text`` cut after its first ``count`` words (runs of letters, digits and
    '_'), and whether a word was cut off."""
    for number, match in enumerate(_WORD.finditer(text), start=1):
        if number == count:
            return text[: match.end()], _WORD.search(text, match.end()) is not None
    return text, False


def fuzzy_title_query(text: str) -> str:
    """Return a Lucene query matching titles near ``text``: each normalised word as it is
    and, when long enough, within one edit (``word~1``), so that a typo still finds the
    title while the exact words still rank first. Only the first MAX_SEARCH_WORDS words
    are used."""
    terms: list[str] = []
    for word in normalize_title(text).split()[:MAX_SEARCH_WORDS]:
        escaped = escape_lucene(word)
        terms.append(escaped)
        if len(word) >= _FUZZY_MIN_LENGTH:
            terms.append(f"{escaped}~1")
    return " ".join(terms)


def search_titles(graph: Database, lucene_query: str, limit: int) -> list[SearchHit]:
    """Return the papers whose title matches ``lucene_query`` (already escaped), best first.

    Raises ParameterError when the index refuses the query for its number of clauses (a
    query of more than MAX_SEARCH_WORDS words, or of words the index splits further).
    """
    if not lucene_query.strip():
        return []
    with too_many_words():
        rows = queries.questions.search_titles.run(graph, query=lucene_query, limit=limit)
    return [SearchHit.model_validate(row) for row in rows]


@contextlib.contextmanager
def too_many_words() -> Iterator[None]:
    """Turn the full-text index's refusal of a query for its number of clauses into a
    ParameterError that says how many words a search takes; other failures pass."""
    try:
        yield
    except QueryFailed as exc:
        if "TooManyClauses" not in exc.message and "TooManyNestedClauses" not in exc.message:
            raise
        raise ParameterError(
            "the search holds more words than the full-text index takes in one query",
            f"search with fewer words (at most {MAX_SEARCH_WORDS:,})",
        ) from exc


def lookup(graph: Database, ref: str) -> list[PaperSummary]:
    """Return the papers ``ref`` names at the first tier that matches (key, arXiv id,
    normalised title, another title, key prefix, alias); an empty list when none does. Raises
    ParameterError for an empty ref.
    """
    parsed = parse_ref(ref)
    # Each tier by name as the query's $params: clearer spelled out than unpacked from the
    # dataclass.
    rows = queries.questions.paper_lookup.run(
        graph,
        key=parsed.key,
        arxiv_id=parsed.arxiv_id,
        norm_title=parsed.norm_title,
        key_prefix=parsed.key_prefix,
        key_suffix=parsed.key_suffix,
    )
    if not rows:
        return []
    tier = rows[0]["tier"]
    found: dict[str, PaperSummary] = {}
    for row in rows:
        if row["tier"] == tier:
            fields = {name: value for name, value in row.items() if name != "tier"}
            found.setdefault(row["key"], PaperSummary.model_validate(fields))
    return list(found.values())


def resolve(graph: Database, ref: str) -> PaperSummary:
    """Return the one paper ``ref`` names.

    Raises AmbiguousReference (an AmbiguousPaper) listing the candidates when several match,
    UnknownReference (a PaperNotFound) suggesting near titles when none does, and
    ParameterError for an empty ref.
    """
    found = lookup(graph, ref)
    if len(found) == 1:
        return found[0]
    if found:
        raise AmbiguousReference(ref, found)
    parsed = parse_ref(ref)
    suggestions: list[PaperSummary] = list(near_ids(graph, parsed.text))
    if not suggestions and parsed.arxiv_id is None:
        # Words the index splits into too many clauses leave no near titles to offer.
        with contextlib.suppress(ParameterError):
            suggestions = list(search_titles(graph, fuzzy_title_query(parsed.text), SUGGESTIONS))
    raise UnknownReference(ref, suggestions)


def _edits(a: str, b: str) -> int:
    """Return the Levenshtein distance between ``a`` and ``b``."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            )
        previous = current
    return previous[-1]


def near_ids(graph: Database, text: str) -> list[PaperSummary]:
    """Return the papers whose key is within two edits of ``text`` when it looks like an
    arXiv id (``hep-th/9711201x``, ``1706.0376``), nearest first; else an empty list.

    The candidates are the keys sharing the id's start (a key-index seek on ever shorter
    prefixes, down to the archive and year-month), so a typo in the last digits is found.
    """
    match = _ID_LIKE.match(text.strip())
    if match is None:
        return []
    typed = match.group(0)
    typed = typed[typed.index(":") + 1 :] if typed.lower().startswith("arxiv:") else typed
    typed = _VERSION.sub("", typed)
    number = match.group(1)
    shortest = number.index("/") + 5 if "/" in number else number.index(".") + 1
    found: dict[str, tuple[int, PaperSummary]] = {}
    for end in range(len(number) - 1, shortest - 1, -1):
        rows = queries.questions.papers_by_key_prefix.run(
            graph, prefix=number[:end], limit=_ID_CANDIDATES
        )
        for row in rows:
            distance = _edits(typed.lower(), str(row["key"]).lower())
            if distance <= _ID_EDITS:
                found.setdefault(row["key"], (distance, PaperSummary.model_validate(row)))
        if len(found) >= SUGGESTIONS:
            break
    ranked = sorted(found.values(), key=lambda pair: (pair[0], pair[1].key))
    return [paper for _, paper in ranked[:SUGGESTIONS]]
