"""The root of the project's errors, and the error of a source file that cannot be read.

They live here, in the lowest layer, so that the parsers raise them without importing ``kg``;
``kg.errors`` re-exports both and builds every other error on ``KGError``.
"""

from __future__ import annotations

__all__ = [
    "BIDI_CONTROLS",
    "CONTROL",
    "KGError",
    "SourceError",
    "printable",
    "sentence",
    "valid_text",
]

# C0 and C1 control characters (ANSI escapes among them) print as visible \xNN text; the
# bidirectional controls (which reorder what a terminal shows: U+202E makes "txt.exe" of
# "exe.txt") and lone surrogates (bytes of a command line that are not UTF-8, which no
# terminal can be sent) as \uNNNN.
BIDI_CONTROLS = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
CONTROL = {
    **{code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))},
    **{code: f"\\u{code:04x}" for code in (*BIDI_CONTROLS, *range(0xD800, 0xE000))},
}


def printable(value: object) -> str:
    """Return data as text safe to print on a terminal: every control character (an escape,
    a bell, a newline) shown as \\xNN, a bidirectional control or a lone surrogate as
    \\uNNNN, the rest as it is."""
    return str(value).translate(CONTROL)


def valid_text(value: object) -> str:
    """Return ``value`` as text that is valid Unicode: a file name that is not UTF-8 (read
    by Python with its bytes as lone surrogates, ``caf\\udce9.jsonl``) shows each such byte
    as ``\\xNN`` (``caf\\xe9.jsonl``), so it can be stored in Neo4j, written as UTF-8 and
    printed; any other lone surrogate shows as ``\\uNNNN``. Valid text is returned as it is."""
    text = str(value)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:
            return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


class KGError(Exception):
    """Root of every error the library raises on purpose; the CLI prints it as one line."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}. {sentence(self.hint)}" if self.hint else self.message


_COMMANDS = frozenset({"kg", "pip", "pipx", "python", "python3", "docker", "make", "export"})


def sentence(text: str) -> str:
    """Return ``text`` as the start of a sentence: its first letter capitalised, unless its
    first word is a command (``kg …``, ``pip …``), which keeps its spelling."""
    if not text[:1].islower() or text.split(" ", 1)[0] in _COMMANDS:
        return text
    return text[0].upper() + text[1:]


class SourceError(KGError):
    """An input file cannot be read or its format cannot be told."""
