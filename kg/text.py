"""Titles and names as a reader sees them: the LaTeX a source wrote turned into the Unicode
it prints as, for every table, page, picture and export; and a search's words folded to the
tokens the full-text index holds for the raw LaTeX.

The graph stores titles raw, as their sources wrote them (``Softly-Broken {\\cal N} = 4``):
matching reads them through ``loaders.titles.normalize_title``, and only presentation uses
``display`` (``Softly-Broken 𝒩 = 4``). Both read LaTeX through one set of tables,
``loaders.latex``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from loaders.latex import LETTERS_AND_ACCENTS, STYLE, SYMBOLS
from loaders.titles import latex_to_unicode, parse_title_key

__all__ = ["display", "display_key", "search_words"]

_SUPERSCRIPTS: Final = dict(
    zip(
        "0123456789+-−=()nijhlrswxyabdegkmoptuvABDEGHIJKLMNOPRTUVWαβγδεθιφχ′*",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱʲʰˡʳˢʷˣʸᵃᵇᵈᵉᵍᵏᵐᵒᵖᵗᵘᵛᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᶥᵠᵡ′*",
        strict=True,
    )
)
_SUBSCRIPTS: Final = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ",
        strict=True,
    )
)
_ALPHABETS: Final = {
    "cal": "SCRIPT",
    "mathcal": "SCRIPT",
    "mathscr": "SCRIPT",
    "mathbb": "DOUBLE-STRUCK",
    "Bbb": "DOUBLE-STRUCK",
    "mathfrak": "FRAKTUR",
    "frak": "FRAKTUR",
}
"""The math alphabets whose letters are other letters (``{\\cal N}`` is 𝒩, ``\\mathbb R`` ℝ),
by command; bold and italic only change how a letter looks, and stay plain."""
_LETTERLIKE: Final = {"FRAKTUR": "BLACK-LETTER"}
"""The names of the Letterlike Symbols that fill the holes of the math alphabets (ℋ, ℝ, ℭ)."""
_MATH_ACCENTS: Final = {
    "bar": "\u0304",
    "overline": "\u0305",
    "hat": "\u0302",
    "widehat": "\u0302",
    "tilde": "\u0303",
    "widetilde": "\u0303",
    "vec": "\u20d7",
    "dot": "\u0307",
    "ddot": "\u0308",
    "check": "\u030c",
    "breve": "\u0306",
}
_WORD_LIKE: Final = frozenset(ch for ch in SYMBOLS.values() if ch.isalpha()) | {"∂", "∇", "∞"}
"""The symbols that read as letters (Greek letters, ℏ, ℓ, ∂): in math, the space after
their command only ends the command (``\\lambda \\phi`` is λφ)."""
_RELATIONS: Final = frozenset(
    SYMBOLS[name]
    for name in (
        *("times", "otimes", "oplus", "to", "rightarrow", "leftarrow", "leftrightarrow"),
        *("le", "leq", "ge", "geq", "neq", "ne", "sim", "simeq", "approx", "equiv"),
        *("in", "subset", "cup", "cap"),
    )
)
"""The symbols that stand between two terms (``A \\to B``): in math they get a space either
side, as LaTeX sets them (``ℝ³ × S¹``)."""
_MORE_SYMBOLS: Final = {
    "prime": "′",
    "rtimes": "⋊",
    "ltimes": "⋉",
    "langle": "⟨",
    "rangle": "⟩",
    "ldots": "…",
    "cdots": "⋯",
    "dots": "…",
    "propto": "∝",
    "perp": "⊥",
    "wedge": "∧",
    "vee": "∨",
    "ast": "∗",
    "setminus": "∖",
    "supset": "⊃",
    "subseteq": "⊆",
    "supseteq": "⊇",
    "notin": "∉",
    "ni": "∋",
    "mapsto": "↦",
    "Rightarrow": "⇒",
    "Leftrightarrow": "⇔",
    "longrightarrow": "⟶",
    "uparrow": "↑",
    "downarrow": "↓",
    "ll": "≪",
    "gg": "≫",
    "cong": "≅",
    "lesssim": "≲",
    "gtrsim": "≳",
    "hookrightarrow": "↪",
    "Box": "□",
    "square": "□",
}
"""Symbols a title may hold that matching reads as their names (``loaders.latex.SYMBOLS``
leaves them out, and adding them there would change the matching form): shown only."""
_ESCAPES: Final = {"&": "&", "%": "%", "#": "#", "_": "_", "{": "{", "}": "}", "$": "$"}
_SPACING: Final = {",": " ", ";": " ", ":": " ", "!": "", " ": " ", "\\": " ", "/": ""}

_MATH_SPLIT = re.compile(r"(?<!\\)\$+|\\\(|\\\)|\\\[|\\\]")
_ESCAPE = re.compile(r"\\([&%#_{}$])")
_ALPHABET = re.compile(
    r"\\(" + "|".join(_ALPHABETS) + r")(?![a-zA-Z])\s*(?:\{\s*([^{}]*?)\s*\}|([A-Za-z]+))"
)
_MATH_ACCENT = re.compile(
    r"\\(" + "|".join(_MATH_ACCENTS) + r")(?![a-zA-Z])\s*(?:\{\s*([^{}]*?)\s*\}|(\\[a-zA-Z]+|\S))"
)
_FRACTION = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_COMMAND = re.compile(r"\\([a-zA-Z]+)(\s*)(?=([\\a-zA-Z])?)")
_SCRIPT = re.compile(r"(?<!\\)([_^])\s*(?:\{([^{}]*)\}|(\S))")
# Outside math a script is read only where it cannot be a plain underscore (``file_name``):
# braced, or digits (``AdS_5``, ``C_60``).
_TEXT_SCRIPT = re.compile(r"(?<!\\)([_^])(?:\{([^{}]*)\}|([0-9]+))")
_OTHER_BACKSLASH = re.compile(r"\\(.)|\\$", re.DOTALL)
_SPACES = re.compile(r"\s+")
_GAP_BEFORE_SCRIPT = re.compile(r"\s+(?=[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻₀₁₂₃₄₅₆₇₈₉₊₋′])")

# Private-use stand-ins for escaped characters (``\$``, ``\_``, ``\{``) while the LaTeX is
# read, so that they are not taken for math shifts, subscripts or groups.
_HOLD = {ch: chr(0xE000 + i) for i, ch in enumerate(_ESCAPES)}
_RELEASE = str.maketrans({code: ch for ch, code in _HOLD.items()})


@lru_cache(maxsize=1 << 14)
def display(text: str | None) -> str:
    """Return ``text`` (a title or a name as its source wrote it) as it prints: LaTeX turned
    into Unicode and math shifts (``$``) dropped; '' for None.

    ``{\\cal N} = 4`` reads ``𝒩 = 4``, ``AdS$_5$`` ``AdS₅``, ``$\\lambda\\phi^4$`` ``λφ⁴``,
    ``M\\"uller`` ``Müller``; a style command (``\\em``, ``\\rm``) is dropped, a command it
    does not know is shown as its name (``\\log`` reads ``log``), and a sub- or superscript
    Unicode has no characters for keeps its mark before it (``M_{Pl}`` reads ``M_Pl``).
    Text without LaTeX comes back as it is. Never raises.
    """
    if not text:
        return ""
    if not any(ch in text for ch in "\\${}^_~") and "--" not in text:
        return text
    held = _hold_unbalanced(_ESCAPE.sub(lambda m: _HOLD[m.group(1)], text))
    parts = _MATH_SPLIT.split(held)
    shown = "".join(_read(part, math=i % 2 == 1) for i, part in enumerate(parts))
    shown = latex_to_unicode(shown)
    shown = _OTHER_BACKSLASH.sub(lambda m: _SPACING.get(m.group(1) or "", m.group(1) or ""), shown)
    shown = _SPACES.sub(" ", shown.replace("$", "")).strip()
    return unicodedata.normalize("NFC", shown.translate(_RELEASE))


def _hold_unbalanced(text: str) -> str:
    """Return ``text`` with every brace that has no partner held as itself: it groups
    nothing, so it is text (``{unbalanced``), not LaTeX."""
    opened: list[int] = []
    unpaired: list[int] = []
    for index, ch in enumerate(text):
        if ch == "{":
            opened.append(index)
        elif ch == "}" and opened:
            opened.pop()
        elif ch == "}":
            unpaired.append(index)
    unpaired += opened
    if not unpaired:
        return text
    chars = list(text)
    for index in unpaired:
        chars[index] = _HOLD[chars[index]]
    return "".join(chars)


def _read(text: str, *, math: bool) -> str:
    """One stretch of text or of math: commands, alphabets, fractions, scripts read."""
    text = _ALPHABET.sub(_alphabet, text)
    text = _FRACTION.sub(r"\1/\2", text)
    text = _COMMAND.sub(lambda m: _command(m, math), text)
    text = _MATH_ACCENT.sub(_math_accent, text)
    text = (_SCRIPT if math else _TEXT_SCRIPT).sub(_script, text)
    if math:
        text = _GAP_BEFORE_SCRIPT.sub("", text)
    return text


def _alphabet(match: re.Match[str]) -> str:
    style = _ALPHABETS[match.group(1)]
    letters = match.group(2) if match.group(2) is not None else match.group(3)
    return "".join(_styled(ch, style) for ch in letters)


def _styled(ch: str, style: str) -> str:
    if not ch.isascii() or not ch.isalpha():
        return ch
    case = "CAPITAL" if ch.isupper() else "SMALL"
    for name in (
        f"MATHEMATICAL {style} {case} {ch.upper()}",
        f"{_LETTERLIKE.get(style, style)} {case} {ch.upper()}",
    ):
        try:
            return unicodedata.lookup(name)
        except KeyError:
            continue
    return ch


def _command(match: re.Match[str], math: bool) -> str:
    name, space = match.group(1), match.group(2)
    if name in LETTERS_AND_ACCENTS:
        return match.group(0)  # latex_to_unicode reads letters and accents
    if name in _MATH_ACCENTS or name in ("frac", "dfrac", "tfrac"):
        return match.group(0)
    if name in SYMBOLS:
        symbol = SYMBOLS[name]
        if math and symbol in _RELATIONS:
            return f" {symbol} "
        return symbol if (math or not space) and symbol in _WORD_LIKE else symbol + space
    if name in STYLE:
        return ""
    if name in _MORE_SYMBOLS:
        return _MORE_SYMBOLS[name] + space
    # a name running into a letter or a command (``\\A\\rtimes\\U``) keeps a space after it
    return name + (space or (" " if match.group(3) else ""))


def _math_accent(match: re.Match[str]) -> str:
    mark = _MATH_ACCENTS[match.group(1)]
    body = match.group(2) if match.group(2) is not None else match.group(3)
    body = _COMMAND.sub(lambda m: _command(m, True), body)
    return body + mark if len(body) == 1 else body


def _script(match: re.Match[str]) -> str:
    mark = match.group(1)
    body = (match.group(2) if match.group(2) is not None else match.group(3)).strip()
    table = _SUPERSCRIPTS if mark == "^" else _SUBSCRIPTS
    if body and all(ch in table for ch in body):
        return "".join(table[ch] for ch in body)
    if mark == "^" and body in ("'", "′"):
        return "′"
    return mark + body


def display_key(key: str, title: str | None = None, year: int | None = None) -> str:
    """Return how a paper known by ``key`` reads to a person: ``title (year)`` from the
    paper's own title and year when given, else from a title key (``title:bert pre
    training…:2018`` reads ``bert pre training… (2018)``); any other key (an arXiv id, a
    DOI key) as it is."""
    if title:
        shown = display(title)
        return f"{shown} ({year})" if year is not None else shown
    parsed = parse_title_key(key)
    if parsed is None:
        return key
    norm_title, key_year = parsed
    return f"{norm_title} ({key_year})" if key_year is not None else norm_title


_FOLDABLE = re.compile(r"[^\x00-\x7f]")
_WORD = re.compile(r"\S+")
_GREEK_NAMES: Final = {
    ch: name for name, ch in reversed(SYMBOLS.items()) if ch.isalpha() and ch.isascii() is False
}
"""Each Greek letter's command name, the first the table gives it (φ is ``phi``, not
``varphi``)."""


def search_words(text: str) -> str:
    """Return a search's ``text`` with, after each word typed in rendered Unicode (``AdS₅``,
    ``𝒩``, ``λφ⁴``), the same word folded to the tokens the full-text index holds for the
    raw LaTeX titles: NFKC (``AdS5``, ``N``), sub- and superscripts also split off (``AdS
    5``), Greek letters also as their command names (``lambda phi 4``). ASCII words come back
    as they are, so a raw query is unchanged; a title in either form is then found."""
    if text.isascii():
        return text
    return " ".join(_search_forms(word.group(0)) for word in _WORD.finditer(text))


def _search_forms(word: str) -> str:
    if not _FOLDABLE.search(word):
        return word
    folded = unicodedata.normalize("NFKC", word)
    split = "".join(
        f" {unicodedata.normalize('NFKC', ch)} " if ch in _SCRIPT_CHARACTERS else ch for ch in word
    )
    split = unicodedata.normalize("NFKC", split)
    named = "".join(f" {_GREEK_NAMES[ch]} " if ch in _GREEK_NAMES else ch for ch in split)
    alphabets = " ".join(dict.fromkeys(_alphabet_commands(ch) for ch in word if ord(ch) > 0x2000))
    forms = dict.fromkeys(
        _SPACES.sub(" ", f).strip() for f in (word, folded, split, named, alphabets)
    )
    return " ".join(form for form in forms if form)


def _alphabet_commands(ch: str) -> str:
    """The commands a math letter is typed with (𝒩: ``cal mathcal``), as the index holds
    them for a raw title (``{\\cal N}``); '' for any other character."""
    name = unicodedata.name(ch, "")
    if not unicodedata.normalize("NFKC", ch).isascii():
        return ""
    if "SCRIPT" in name and "SUBSCRIPT" not in name and "SUPERSCRIPT" not in name:
        return "cal mathcal"
    if "DOUBLE-STRUCK" in name:
        return "mathbb"
    if "FRAKTUR" in name or "BLACK-LETTER" in name:
        return "mathfrak"
    return ""


_SCRIPT_CHARACTERS: Final = frozenset(_SUPERSCRIPTS.values()).union(_SUBSCRIPTS.values()) - {"*"}
