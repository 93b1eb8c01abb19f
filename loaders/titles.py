"""Names and keys: canonical arXiv ids, the matching forms of titles and names, and the
node keys built from them.

Every loader and every query helper names papers and authors through these functions,
so that the same paper gets the same key whichever source it came from. The rule that
decides which keys are one paper is ``loaders.identity``.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

from .latex import ACCENTS as _ACCENTS
from .latex import LETTERS as _LETTERS
from .latex import LETTERS_AND_ACCENTS as _LATEX_LETTERS_AND_ACCENTS
from .latex import STYLE as _LATEX_STYLE
from .latex import SYMBOLS as _LATEX_SYMBOLS

__all__ = [
    "canonical_arxiv_id",
    "collapse_spaces",
    "hepth_id",
    "latex_to_unicode",
    "normalize_name",
    "normalize_title",
    "paper_key",
    "parse_arxiv_id",
    "parse_title_key",
    "snap_arxiv_id",
    "snap_digits_ids",
    "title_key",
]


# ASCII only: ``\d`` would take any script's digits (``١٧٠٦.٠٣٧٦٢``), a second key for a paper.
_NEW_ID = re.compile(r"^(\d{4}\.\d{4,5})(?:v(\d+))?$", re.ASCII)
_OLD_ID = re.compile(
    r"^([a-z][a-z\-]*)(?:\.[a-z]{2})?/(\d{7})(?:v(\d+))?$", re.IGNORECASE | re.ASCII
)
_PREFIX = re.compile(r"^(?:arxiv:|https?://arxiv\.org/(?:abs|pdf)/)", re.IGNORECASE | re.ASCII)
_PREFIX_STARTS = "aAhH"
"""The characters a prefix ``_PREFIX`` matches can start with: other text is not searched."""
_FULLWIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
"""The fullwidth forms of the ASCII characters (``１８１０.04805`` typed with an East Asian
input method), read as those characters; NFKC maps them the same way."""
_MATH = "".join(
    ch
    for ch in map(chr, range(0x10000))
    if unicodedata.category(ch) == "Sm" and ch not in "|\u00d7\u2212"
)
"""The mathematical symbols of the Basic Multilingual Plane (``<``, ``=``, ``+``, ``≤``,
``∞``, ``∂``, ``→``; Unicode category Sm) but for ``|``, which separates the parts of the
entries that name keys (CITES ``named``), the times sign, which titles write as ``x`` as
often as ``×``, and the minus sign, which they write as a hyphen."""
_NON_WORD = re.compile(rf"(?:[^\w{re.escape(_MATH)}]|_)+", re.UNICODE)
_SYMBOL = re.compile(rf"([{re.escape(_MATH)}])")
# A sub- or superscript is part of what it follows: AdS_5, AdS$_5$ and AdS₅ are AdS5.
_SCRIPTS = str.maketrans({"$": None, "_": None, "^": None, "\u00d7": " x ", "\u2212": "-"})
_SPACES = re.compile(r"\s+")
_INVISIBLE = dict.fromkeys(
    code
    for code in itertools.chain(range(0x10000), range(0xE0000, 0xE0080))
    if unicodedata.category(chr(code)) == "Cf"
)
"""The format characters (Unicode category Cf), which mean nothing to a title: the soft
hyphen, the zero-width space, non-joiner and joiner, the word joiner, the byte order mark
(zero-width no-break space), the bidirectional marks and isolates, and the tags. A title is
matched as if they were not there (``Sparse Cod\u200bing`` is ``Sparse Coding``): NFKC
keeps them, and as they are no word characters each would split a word in two."""
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


@lru_cache(maxsize=1 << 16)  # edge lists name each paper many times over
def parse_arxiv_id(text: str) -> tuple[str, int | None] | None:
    """Return (canonical id, version or None) for an arXiv id in any common spelling, else None.

    New-style ids keep their digits (``2110.03888``); old-style ids keep their archive in
    lower case (``hep-th/9901001``). A ``vN`` suffix, an ``arXiv:`` prefix and an abs/pdf URL
    are accepted and stripped. Fullwidth digits and letters read as their ASCII forms; any
    other non-ASCII digit (Arabic-Indic, Devanagari, …) makes the text not an id, and so
    does a month outside 01-12 or a four-digit number after 2014 (``1501.0001``).
    """
    if not text.isascii():
        text = text.translate(_FULLWIDTH)
    candidate = text.strip()
    if candidate[:1] in _PREFIX_STARTS:  # most ids have no prefix
        candidate = _PREFIX.sub("", candidate)
    candidate = candidate.removesuffix(".pdf")
    match = _NEW_ID.match(candidate)
    if match:
        number = match.group(1)
        # YYMM.NNNN until 2014, YYMM.NNNNN since 2015: 1501.0001 (a spreadsheet's
        # 1501.00010 without its last zero) or a thirteenth month is no paper's id
        if not 1 <= int(number[2:4]) <= 12 or (len(number) == 9 and number[:4] >= "1501"):
            return None
        return number, int(match.group(2)) if match.group(2) else None
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
    differ only in their formulas stay apart. Mathematical symbols are words of their own
    (``p ≤ q`` is not ``p ≥ q``, nor ``c<1`` ``C>1``); a sub- or superscript joins what it
    follows (``AdS_5``, ``AdS$_5$`` and ``AdS₅`` are ``ads5``; ``$^3$He`` is ``³He``), and
    ``×`` (``\\times``) is ``x``. Invisible format characters (a soft hyphen, a zero-width
    space, a bidirectional mark) are dropped: ``Sparse Cod\u200bing`` is ``Sparse Coding``.
    """
    if not title.isascii():
        title = title.translate(_INVISIBLE)
    text = unicodedata.normalize("NFKC", title)
    text = latex_to_unicode(_LATEX_COMMAND.sub(_math_to_text, text))
    text = unicodedata.normalize("NFKC", text).translate(_SCRIPTS)
    text = _NON_WORD.sub(" ", _SYMBOL.sub(r" \1 ", text.casefold()))
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


def snap_arxiv_id(number: str | int, archive: str) -> str:
    """Return the arXiv id of a SNAP integer id of an old-style ``archive`` (SNAP's cit-HepTh
    and cit-HepPh write ``YYMMNNN`` without its leading zeros): ``1001`` in hep-ph is
    ``hep-ph/0001001``. Raises ValueError for anything but up to 7 digits."""
    digits = str(number).strip().translate(_FULLWIDTH)  # fullwidth digits read as ASCII
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 7:
        raise ValueError(f"not a SNAP {archive} id: {number!r}")
    return snap_digits_ids([digits], archive)[0]


def snap_digits_ids(numbers: list[str], archive: str) -> list[str]:
    """Return the arXiv ids of SNAP ids of ``archive`` that are up to 7 ASCII digits each,
    as the caller checked (``snap_arxiv_id`` checks one): ``1001`` in hep-ph is
    ``hep-ph/0001001``. A list at a time, for an edge list's columns."""
    return [f"{archive}/{digits.zfill(7)}" for digits in numbers]


def hepth_id(number: str | int) -> str:
    """Return the arXiv id of a SNAP hep-th integer id: ``1001`` -> ``hep-th/0001001``."""
    return snap_arxiv_id(number, "hep-th")


def parse_title_key(key: str) -> tuple[str, int | None] | None:
    """Return (normalised title, year or None) of a title key, or None for any other key."""
    if not key.startswith("title:"):
        return None
    norm, _, year = key[len("title:") :].rpartition(":")
    return norm, int(year) if year.isdigit() else None
