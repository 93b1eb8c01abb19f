"""The root of the project's errors, and the error of a source file that cannot be read.

They live here, in the lowest layer, so that the parsers raise them without importing ``kg``;
``kg.errors`` re-exports both and builds every other error on ``KGError``.
"""

from __future__ import annotations

__all__ = ["KGError", "SourceError", "printable"]

# C0 and C1 control characters (ANSI escapes among them) print as visible \xNN text.
CONTROL = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}


def printable(value: object) -> str:
    """Return data as text safe to print on a terminal: every control character (an escape,
    a bell, a newline) shown as \\xNN, the rest as it is."""
    return str(value).translate(CONTROL)


class KGError(Exception):
    """Root of every error the library raises on purpose; the CLI prints it as one line."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}. {self.hint}" if self.hint else self.message


class SourceError(KGError):
    """An input file cannot be read or its format cannot be told."""
