"""Entity resolution: canonical arXiv ids, normalised titles and names, and node keys.

Every loader and every query helper names papers and authors through these functions,
so that the same paper gets the same key whichever source it came from.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "TitleCandidate",
    "TitlePlan",
    "canonical_arxiv_id",
    "collapse_spaces",
    "contested_groups",
    "hepth_id",
    "latex_to_unicode",
    "normalize_name",
    "normalize_title",
    "paper_key",
    "parse_arxiv_id",
    "parse_title_key",
    "title_groups",
    "title_key",
    "title_lock_stripe",
    "title_merges",
    "title_places",
    "title_plan",
    "title_splits",
]

_NEW_ID = re.compile(r"^(\d{4}\.\d{4,5})(?:v(\d+))?$")
_OLD_ID = re.compile(r"^([a-z][a-z\-]*)(?:\.[a-z]{2})?/(\d{7})(?:v(\d+))?$", re.IGNORECASE)
_PREFIX = re.compile(r"^(?:arxiv:|https?://arxiv\.org/(?:abs|pdf)/)", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
_SPACES = re.compile(r"\s+")
_LATEX_COMMAND = re.compile(r"\\([a-zA-Z]+)\s*")
_LATEX_ACCENT = re.compile(r"""\\(['`^"~=.uvHckbdr])\s*\{?\s*(\\?[a-zA-Z])(?:\s*\})?""")
# Authors write "Ambj\\orn" as often as "Ambj\\o rn", so a letter may run into the next one.
_LATEX_LETTER = re.compile(r"\\(aa|AA|ae|AE|oe|OE|ss|o|O|l|L)(?:\{\}|\s)?")
# "Cveti\\v c" and "Garc\\'\\i a": the space only ends the command, it is not between words.
_COMMAND_SPACE = re.compile(r"(\\['`^\"~=.uvHckbdr]|\\[ij])\s+(?=[\\{a-zA-Z])")
# LaTeX's tie, an unbreakable space ("P.~Berglund"), not the accent "\~n".
_TIE = re.compile(r"(?<!\\)~")
# A name's dashes are one character however they were typed ("M\"uller--Kirsten").
_DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015", "-"))
_LETTERS = {
    "aa": "å",
    "AA": "Å",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "l": "ł",
    "L": "Ł",
}
_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "b": "\u0331",
    "d": "\u0323",
    "r": "\u030a",
}


_GREEK = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "chi",
    "psi",
    "omega",
]
_LATEX_SYMBOLS = {
    **{name: chr(0x3B1 + i + (1 if i >= 17 else 0)) for i, name in enumerate(_GREEK)},
    **{name.capitalize(): chr(0x391 + i + (1 if i >= 17 else 0)) for i, name in enumerate(_GREEK)},
    "varepsilon": "ε",
    "vartheta": "θ",
    "varphi": "φ",
    "varrho": "ρ",
    "varsigma": "ς",
    "varpi": "π",
    "infty": "∞",
    "partial": "∂",
    "nabla": "∇",
    "hbar": "ℏ",
    "ell": "ℓ",
    "times": "×",
    "otimes": "⊗",
    "oplus": "⊕",
    "pm": "±",
    "mp": "∓",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "leftrightarrow": "↔",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "neq": "≠",
    "ne": "≠",
    "sim": "∼",
    "simeq": "≃",
    "approx": "≈",
    "equiv": "≡",
    "sum": "∑",
    "prod": "∏",
    "int": "∫",
    "sqrt": "√",
    "in": "∈",
    "subset": "⊂",
    "cup": "∪",
    "cap": "∩",
    "cdot": "·",
    "circ": "∘",
    "star": "⋆",
    "dagger": "†",
    "aleph": "ℵ",
    "emptyset": "∅",
    "forall": "∀",
    "exists": "∃",
}
# Commands that change how text looks, not what it says.
_LATEX_STYLE = frozenset(
    [
        "em",
        "it",
        "bf",
        "rm",
        "sf",
        "tt",
        "sl",
        "sc",
        "cal",
        "emph",
        "textbf",
        "textit",
        "textrm",
        "textsf",
        "texttt",
        "textsc",
        "textup",
        "textnormal",
        "mathrm",
        "mathbf",
        "mathit",
        "mathcal",
        "mathbb",
        "mathfrak",
        "mathsf",
        "mathtt",
        "mathscr",
        "mathnormal",
        "boldsymbol",
        "bm",
        "text",
        "mbox",
        "hbox",
        "left",
        "right",
        "big",
        "Big",
        "bigg",
        "Bigg",
        "bigl",
        "bigr",
        "Bigl",
        "Bigr",
        "displaystyle",
        "textstyle",
        "scriptstyle",
        "operatorname",
        "rm",
        "mathop",
        "limits",
        "nolimits",
    ]
)
_LATEX_LETTERS_AND_ACCENTS = frozenset(
    [
        "aa",
        "AA",
        "ae",
        "AE",
        "oe",
        "OE",
        "ss",
        "o",
        "O",
        "l",
        "L",
        "i",
        "j",
        "u",
        "v",
        "H",
        "c",
        "k",
        "b",
        "d",
        "r",
    ]
)
TITLE_LOCK_STRIPES = 4096
"""How many lock stripes the normalised titles are spread over (see ``title_lock_stripe``)."""


@lru_cache(maxsize=1 << 16)  # edge lists name each paper many times over
def parse_arxiv_id(text: str) -> tuple[str, int | None] | None:
    """Return (canonical id, version or None) for an arXiv id in any common spelling, else None.

    New-style ids keep their digits (``2110.03888``); old-style ids keep their archive in
    lower case (``hep-th/9901001``). A ``vN`` suffix, an ``arXiv:`` prefix and an abs/pdf URL
    are accepted and stripped.
    """
    candidate = _PREFIX.sub("", text.strip())
    candidate = candidate.removesuffix(".pdf")
    match = _NEW_ID.match(candidate)
    if match:
        return match.group(1), int(match.group(2)) if match.group(2) else None
    match = _OLD_ID.match(candidate)
    if match:
        version = int(match.group(3)) if match.group(3) else None
        return f"{match.group(1).lower()}/{match.group(2)}", version
    return None


def canonical_arxiv_id(text: str) -> str | None:
    """Return the canonical arXiv id (no version) for ``text``, or None if it is not one."""
    parsed = parse_arxiv_id(text)
    return parsed[0] if parsed else None


def latex_to_unicode(text: str) -> str:
    """Return ``text`` with LaTeX accents (``Bal\\'azs``), letters (``\\o``, ``\\l``,
    ``\\aa``), ties (``P.~Berglund``) and dashes (``--``, ``---``) turned into Unicode and
    braces dropped."""

    def accent(match: re.Match[str]) -> str:
        letter = match.group(2).lstrip("\\")  # \i is the dotless i under an accent
        return unicodedata.normalize("NFC", letter + _ACCENTS[match.group(1)])

    text = _COMMAND_SPACE.sub(r"\1", text)
    text = _LATEX_ACCENT.sub(accent, text)
    text = _LATEX_LETTER.sub(lambda m: _LETTERS[m.group(1)], text)
    text = _TIE.sub(" ", text).replace("---", "\u2014").replace("--", "\u2013")
    return text.replace("{", "").replace("}", "")


def collapse_spaces(text: str) -> str:
    """Return ``text`` with every run of white space (newlines too) folded to one space."""
    return _SPACES.sub(" ", text).strip()


def _math_to_text(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _LATEX_SYMBOLS:
        return f" {_LATEX_SYMBOLS[name]} "
    if name in _LATEX_STYLE:
        return " "
    if name in _LATEX_LETTERS_AND_ACCENTS:
        return match.group(0)  # latex_to_unicode turns it into a letter
    return f" {name} "


def normalize_title(title: str) -> str:
    """Return the matching form of a title: NFKC, case-folded, punctuation and spacing folded.

    LaTeX keeps its content: Greek letters and common symbols become their Unicode
    characters (``$\\Gamma$`` matches ``Γ``), accents become accented letters, other
    commands stay as their name (``\\log`` is ``log``), and only style commands and braces
    are dropped, so ``{\\em Gauge} theory`` matches ``Gauge theory`` while titles that
    differ only in their formulas stay apart.
    """
    text = unicodedata.normalize("NFKC", title).replace("$", " ")
    text = latex_to_unicode(_LATEX_COMMAND.sub(_math_to_text, text))
    text = unicodedata.normalize("NFKC", text)
    text = _NON_WORD.sub(" ", text.casefold())
    return collapse_spaces(text)


def normalize_name(name: str) -> str:
    """Return the key form of a person's name: accents folded, dashes made hyphens,
    case-folded, spacing folded."""
    text = unicodedata.normalize("NFKD", latex_to_unicode(name)).translate(_DASHES)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace(".", ". ")
    return collapse_spaces(text.casefold())


def title_key(norm_title: str, year: int | None) -> str:
    """Return the node key of a paper that has no arXiv id: its normalised title and year."""
    return f"title:{norm_title}:{year if year is not None else 'unknown'}"


def paper_key(arxiv_id: str | None, title: str | None, year: int | None) -> str:
    """Return a paper's node key: the canonical arXiv id if known, else the title key.

    Raises ValueError when neither an id nor a title is given.
    """
    if arxiv_id:
        canonical = canonical_arxiv_id(arxiv_id)
        if canonical is None:
            raise ValueError(f"not an arXiv id: {arxiv_id!r}")
        return canonical
    if title and normalize_title(title):
        return title_key(normalize_title(title), year)
    raise ValueError("a paper needs an arXiv id or a title")


def hepth_id(number: str | int) -> str:
    """Return the arXiv id of a SNAP hep-th integer id: ``1001`` -> ``hep-th/0001001``."""
    digits = str(number).strip()
    if not digits.isdigit() or len(digits) > 7:
        raise ValueError(f"not a SNAP hep-th id: {number!r}")
    return f"hep-th/{digits.zfill(7)}"


def parse_title_key(key: str) -> tuple[str, int | None] | None:
    """Return (normalised title, year or None) of a title key, or None for any other key."""
    if not key.startswith("title:"):
        return None
    norm, _, year = key[len("title:") :].rpartition(":")
    return norm, int(year) if year.isdigit() else None


def title_lock_stripe(norm_title: str) -> int:
    """Return the lock stripe of a normalised title: a stable hash, the same in every process.

    Writers that touch papers known by title, and the reconciliation that merges them, lock
    the stripes of the titles they touch, so that they run one after another per title.
    """
    return zlib.crc32(norm_title.encode("utf-8")) % TITLE_LOCK_STRIPES


@dataclass(frozen=True)
class TitleCandidate:
    """A paper with a given normalised title, as the identity rule sees it."""

    key: str
    arxiv_id: str | None
    year: int | None
    aliases: tuple[str, ...] = ()
    stated_years: tuple[int, ...] = ()
    """Every year a record or a reference gave the paper under its own key (its ``years``)."""
    recorded: tuple[str, ...] = ()
    """Its title keys that a full record was written under (its ``recorded``): their values
    fold into the paper, so the rule never takes them out of it again (``title_splits``)."""

    def own_years(self) -> set[int]:
        """The years stated under its own key (``years``): what the rule measures an arXiv
        paper by when several share a title, whichever title keys it holds. Not the year it
        holds, which a merged key's reference can have given it."""
        return set(self.stated_years)

    def years(self) -> set[int]:
        """The years its records and references state: the year it holds, every year stated
        for it under its own key (``years``), and those of its title keys (a reference to a
        title key states the key's year), whichever of its titles they came under."""
        found = set(self.stated_years)
        if self.year is not None:
            found.add(self.year)
        for key in (self.key, *self.aliases):
            parsed = parse_title_key(key)
            if parsed is not None and parsed[1] is not None:
                found.add(parsed[1])
        return found


def title_groups(
    norm_title: str, candidates: Iterable[TitleCandidate], kept_apart: Iterable[str] = ()
) -> list[list[TitleCandidate]]:
    """Return the groups the identity rule forms among papers with one normalised title.

    Papers whose years (``TitleCandidate.years``) chain with gaps of at most 1 year are one
    group; a paper with no known year, and one a user split (``kept_apart``), is in none.
    Each group is sorted by key, and the groups by their first key.
    """
    apart = set(kept_apart)
    papers = sorted((c for c in candidates if c.key not in apart), key=lambda c: c.key)
    years = [c.years() for c in papers]
    parent = list(range(len(papers)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    points = sorted((year, i) for i, found in enumerate(years) for year in found)
    for (year_a, a), (year_b, b) in itertools.pairwise(points):
        if year_b - year_a <= 1:
            parent[root(b)] = root(a)
    groups: dict[int, list[TitleCandidate]] = {}
    for i, found in enumerate(years):
        if found:
            groups.setdefault(root(i), []).append(papers[i])
    return sorted(groups.values(), key=lambda group: group[0].key)


@dataclass(frozen=True)
class TitlePlan:
    """What the identity rule asks for among the papers with one normalised title
    (``title_plan``)."""

    merges: dict[str, str]
    """{source key: target key}: the papers that are one paper (``title_merges``)."""
    splits: list[tuple[str, str, str]]
    """[(holder key, title key, target key)]: the keys to take out of the paper holding them
    (``title_splits``)."""
    contested: list[list[TitleCandidate]]
    """The groups whose result can still depend on the order of the loads
    (``contested_groups``)."""

    @property
    def needed(self) -> bool:
        """True when the rule asks for a merge or a split."""
        return bool(self.merges or self.splits)


def title_plan(
    norm_title: str,
    candidates: Iterable[TitleCandidate],
    kept_apart: Iterable[str] = (),
    listed_apart: Iterable[Iterable[str]] = (),
) -> TitlePlan:
    """Return what the identity rule asks for among the papers with one normalised title:
    its merges (``title_merges``), splits (``title_splits``) and contested groups
    (``contested_groups``), from one pass over the title's groups (``title_groups``)."""
    candidates = list(candidates)
    apart = frozenset(kept_apart)
    pairs = _pairs(listed_apart)
    contested: list[list[TitleCandidate]] = []
    merges: dict[str, str] = {}
    splits: list[tuple[str, str, str]] = []
    for group in title_groups(norm_title, candidates, apart):
        ided = [paper for paper in group if paper.arxiv_id is not None]
        against = _speaks_against(group, pairs)
        if (len(ided) > 1 or against) and _recorded(norm_title, group):
            contested.append(group)
        if against:
            places = title_places(norm_title, group, pairs)
            primaries = {paper.key for paper in group}
            for paper in group:
                place = places.get(paper.key, paper.key)
                if paper.arxiv_id is None and place != paper.key and place in primaries:
                    merges[paper.key] = place
            splits.extend(_placed_splits(norm_title, group, places))
            continue
        titled = [paper for paper in group if paper.arxiv_id is None]
        if not ided:
            target = min(titled, key=lambda paper: (min(paper.years()), paper.key))
            merges.update({p.key: target.key for p in titled if p is not target})
            continue
        for paper in titled:
            own = parse_title_key(paper.key)
            year = own[1] if own is not None and own[1] is not None else min(paper.years())
            merges[paper.key] = _nearest(ided, year).key
        if len(ided) < 2:
            continue
        for paper in ided:
            for alias, year in _movable(paper, norm_title).items():
                target = _nearest(ided, year)
                if target.key != paper.key:
                    splits.append((paper.key, alias, target.key))
    return TitlePlan(merges, sorted(splits), contested)


def _recorded(norm_title: str, group: list[TitleCandidate]) -> bool:
    """True when a paper of the group holds a title key of this title with a full record
    of its own (``TitleCandidate.recorded``): ``contested_groups``' first test."""
    return any(
        (parsed := parse_title_key(key)) is not None and parsed[0] == norm_title
        for paper in group
        for key in paper.recorded
    )


def contested_groups(
    norm_title: str,
    candidates: Iterable[TitleCandidate],
    kept_apart: Iterable[str] = (),
    listed_apart: Iterable[Iterable[str]] = (),
) -> list[list[TitleCandidate]]:
    """Return the groups (``title_groups``) of one normalised title where the rule's result
    can still depend on the order of the loads: those holding a title key of this title
    with a full record of its own (``TitleCandidate.recorded``), as a paper of its own or
    merged into another, and either several arXiv papers or two keys a page lists apart
    (``listed_apart``). Its values fold into the paper it joins, so it is never taken out
    again (docs/MODEL.md's known limit); a key only references named moves to the paper the
    rule picks (``title_splits``)."""
    return title_plan(norm_title, candidates, kept_apart, listed_apart).contested


def _nearest(ided: list[TitleCandidate], year: int) -> TitleCandidate:
    """The arXiv paper whose own years are nearest ``year``, then the smallest key."""
    return min(
        ided,
        key=lambda paper: (
            min((abs(year - y) for y in paper.own_years()), default=10**6),
            paper.key,
        ),
    )


def title_merges(
    norm_title: str,
    candidates: Iterable[TitleCandidate],
    kept_apart: Iterable[str] = (),
    listed_apart: Iterable[Iterable[str]] = (),
) -> dict[str, str]:
    """Return which papers with one normalised title are one paper: {source key: target key}.

    ``kept_apart`` are keys a user split from a wrong merge (``kg unmerge``): a paper under
    one of them stays its own paper, and nothing merges into it.

    The rule, over the set of papers (and every year stated for each, ``TitleCandidate.years``):
    papers whose years chain with gaps of at most 1 year form one group (``title_groups``); a
    paper with no known year joins nothing. Two papers with arXiv ids are never merged. In a
    group with one arXiv paper, every title-only paper merges into it; with several, each
    title-only paper goes to the arXiv paper whose own years (``TitleCandidate.own_years``)
    are nearest the year of its key (then the smallest key); with none, all go to the
    title-only paper with the earliest year (then the smallest key). Adding papers only
    joins groups, so merging as records arrive gives the same graph in any order; in a group
    that comes to hold several arXiv papers, a key that joined one of them before the
    nearer one arrived moves (``title_splits``). A target is never itself a source.

    ``listed_apart`` are the keys a page lists as separate papers under this title (one
    iterable per page and title): in a group where two of them would be one paper, the
    group is placed by ``title_places`` instead, which keeps them apart.
    """
    return title_plan(norm_title, candidates, kept_apart, listed_apart).merges


def title_splits(
    norm_title: str,
    candidates: Iterable[TitleCandidate],
    kept_apart: Iterable[str] = (),
    listed_apart: Iterable[Iterable[str]] = (),
) -> list[tuple[str, str, str]]:
    """Return the title keys of one normalised title that an arXiv paper holds but the rule
    gives to another: [(holder key, title key, target key)], sorted.

    In a group with several arXiv papers each title key belongs to the one whose own years
    are nearest its year (then the smallest key), as ``title_merges`` sends a title-only
    paper; a key that joined one before the nearer one arrived is taken out of it and
    merged into that one, so the result is the same in any order. A key with a full record
    of its own (``TitleCandidate.recorded``) stays: its values folded into the paper.

    In a group where keys a page lists apart (``listed_apart``) would be one paper, any
    paper's title key goes where ``title_places`` places it; the target is the key itself
    when it is to stay a paper of its own, or when the paper it goes to is still to be
    taken out of another (a later round merges it).
    """
    return title_plan(norm_title, candidates, kept_apart, listed_apart).splits


def _pairs(listed_apart: Iterable[Iterable[str]]) -> frozenset[frozenset[str]]:
    """Every two keys one page lists apart, as unordered pairs."""
    return frozenset(
        frozenset(pair)
        for keys in listed_apart
        for pair in itertools.combinations(sorted(set(keys)), 2)
    )


def _movable(paper: TitleCandidate, norm_title: str) -> dict[str, int]:
    """The title keys of ``norm_title`` merged into ``paper`` that the rule may take out of
    it, with their years: those with a year, and no full record of their own
    (``recorded``)."""
    found = {}
    for alias in paper.aliases:
        parsed = parse_title_key(alias)
        if parsed is None or parsed[0] != norm_title or parsed[1] is None:
            continue
        if alias not in paper.recorded:
            found[alias] = parsed[1]
    return found


def _speaks_against(group: list[TitleCandidate], pairs: frozenset[frozenset[str]]) -> bool:
    """True when a page lists two keys of this group apart."""
    if not pairs:
        return False
    keys = {key for paper in group for key in (paper.key, *paper.aliases)}
    return any(pair <= keys for pair in pairs)


@dataclass(frozen=True)
class _Unit:
    """What the rule places as one: a title key, with the keys that go wherever it goes."""

    key: str
    year: int
    members: frozenset[str]


def title_places(
    norm_title: str, group: list[TitleCandidate], pairs: frozenset[frozenset[str]]
) -> dict[str, str]:
    """Return where the rule places each title key of one group (``title_groups``) that a
    page speaks against merging whole: {title key: key of the paper it is}.

    Two keys a page lists apart (``pairs``) are never one paper. Every other title key (a
    title-only paper, or a key of this title merged into a paper) is placed on its own,
    with the keys that cannot leave it (a paper's arXiv key, and a merged key with a full
    record of its own, ``recorded``):
    - nearest the group's arXiv papers first (then the earliest, then the smallest key),
      each joins the arXiv paper whose own years are nearest its year (then the smallest
      id) that holds no key listed apart from it, else the next nearest;
    - those that none can take, earliest first (then the smallest key), each joins the
      first title-only paper so formed that has a key placed in it within a year of it and
      holds none listed apart from it, else starts one: the paper is its first key's.
    So the places follow from the keys, their years and the pages alone.
    """

    def fixed(paper: TitleCandidate) -> frozenset[str]:
        return frozenset((paper.key, *paper.aliases)) - set(_movable(paper, norm_title))

    def apart(a: Iterable[str], b: Iterable[str]) -> bool:
        return any(frozenset((x, y)) in pairs for x in a for y in b)

    def distance(year: int, paper: TitleCandidate) -> int:
        return min((abs(year - y) for y in paper.own_years()), default=10**6)

    ided = [paper for paper in group if paper.arxiv_id is not None]
    units = []
    for paper in group:
        if paper.arxiv_id is None:
            own = parse_title_key(paper.key)
            year = own[1] if own is not None and own[1] is not None else min(paper.years())
            units.append(_Unit(paper.key, year, fixed(paper)))
        for alias, alias_year in _movable(paper, norm_title).items():
            units.append(_Unit(alias, alias_year, frozenset((alias,))))
    held = {paper.key: set(fixed(paper)) for paper in ided}
    places: dict[str, str] = {}
    left = []
    nearest_first = sorted(
        units,
        key=lambda u: (min((distance(u.year, p) for p in ided), default=10**6), u.year, u.key),
    )
    for unit in nearest_first:
        for paper in sorted(ided, key=lambda p: (distance(unit.year, p), p.key)):
            if not apart(unit.members, held[paper.key]):
                held[paper.key] |= unit.members
                places[unit.key] = paper.key
                break
        else:
            left.append(unit)
    formed: list[list[_Unit]] = []
    for unit in sorted(left, key=lambda u: (u.year, u.key)):
        for cluster in formed:
            near = any(abs(unit.year - other.year) <= 1 for other in cluster)
            if near and not apart(unit.members, {k for other in cluster for k in other.members}):
                cluster.append(unit)
                break
        else:
            formed.append([unit])
    for cluster in formed:
        places.update({unit.key: cluster[0].key for unit in cluster})
    return places


def _placed_splits(
    norm_title: str, group: list[TitleCandidate], places: dict[str, str]
) -> list[tuple[str, str, str]]:
    """``title_splits`` for a group placed by ``title_places`` (``places``)."""
    moving = [
        (paper, alias)
        for paper in group
        for alias in _movable(paper, norm_title)
        if places[alias] != (paper.key if paper.arxiv_id else places[paper.key])
    ]
    taken = {alias for _paper, alias in moving}
    standing = {paper.key for paper in group if paper.arxiv_id or places[paper.key] == paper.key}
    splits = []
    for paper, alias in moving:
        target = places[alias]
        splits.append((paper.key, alias, target if target in standing - taken else alias))
    return splits
