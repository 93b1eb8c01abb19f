"""Entity resolution: canonical arXiv ids, normalised titles and names, and node keys.

Every loader and every query helper names papers and authors through these functions,
so that the same paper gets the same key whichever source it came from.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_NEW_ID = re.compile(r"^(\d{4}\.\d{4,5})(?:v(\d+))?$")
_OLD_ID = re.compile(r"^([a-z][a-z\-]*)(?:\.[a-z]{2})?/(\d{7})(?:v(\d+))?$", re.IGNORECASE)
_PREFIX = re.compile(r"^(?:arxiv:|https?://arxiv\.org/(?:abs|pdf)/)", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
_SPACES = re.compile(r"\s+")
_LATEX_COMMAND = re.compile(r"\\[a-zA-Z]+\s*")
_LATEX_ACCENT = re.compile(r"""\\(['`^"~=.uvHckbdr])\s*\{?\s*(\\?[a-zA-Z])(?:\s*\})?""")
# Authors write "Ambj\\orn" as often as "Ambj\\o rn", so a letter may run into the next one.
_LATEX_LETTER = re.compile(r"\\(aa|AA|ae|AE|oe|OE|ss|o|O|l|L)(?:\{\}|\s)?")
# "Cveti\\v c" and "Garc\\'\\i a": the space only ends the command, it is not between words.
_COMMAND_SPACE = re.compile(r"(\\['`^\"~=.uvHckbdr]|\\[ij])\s+(?=[\\{a-zA-Z])")
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
    """Return ``text`` with LaTeX accents (``Bal\\'azs``) and letters (``\\o``, ``\\l``,
    ``\\aa``) turned into Unicode and braces dropped."""

    def accent(match: re.Match[str]) -> str:
        letter = match.group(2).lstrip("\\")  # \i is the dotless i under an accent
        return unicodedata.normalize("NFC", letter + _ACCENTS[match.group(1)])

    text = _COMMAND_SPACE.sub(r"\1", text)
    text = _LATEX_ACCENT.sub(accent, text)
    text = _LATEX_LETTER.sub(lambda m: _LETTERS[m.group(1)], text)
    return text.replace("{", "").replace("}", "")


def collapse_spaces(text: str) -> str:
    """Return ``text`` with every run of white space (newlines too) folded to one space."""
    return _SPACES.sub(" ", text).strip()


def normalize_title(title: str) -> str:
    """Return the matching form of a title: NFKC, case-folded, punctuation and spacing folded.

    LaTeX commands and braces are dropped so that ``{\\em Gauge} theory`` matches
    ``Gauge theory``.
    """
    text = unicodedata.normalize("NFKC", title)
    text = _LATEX_COMMAND.sub(" ", text.replace("$", " "))
    text = _NON_WORD.sub(" ", text.casefold())
    return collapse_spaces(text)


def normalize_name(name: str) -> str:
    """Return the key form of a person's name: accents folded, case-folded, spacing folded."""
    text = unicodedata.normalize("NFKD", latex_to_unicode(name))
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
