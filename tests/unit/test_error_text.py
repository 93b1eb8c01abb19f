"""Data in an error's message or hint is escaped: a title or a name with terminal escapes
never reaches the terminal raw through an `Error:` line."""

from __future__ import annotations

from click.testing import CliRunner

from kg.answers import PaperSummary
from kg.cli.app import main
from kg.errors import AmbiguousAuthor, AmbiguousReference, KGError, UnknownReference

TITLE = "Retitle \x1b]0;PWNED\x07 and clear \x1b[2J\x9b31m end"
SHOWN = "Retitle \\x1b]0;PWNED\\x07 and clear \\x1b[2J\\x9b31m end"


def _raw(text: str) -> bool:
    return any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0 for c in text)


def test_reference_hints_escape_titles() -> None:
    papers = [
        PaperSummary(key="2101.00001", title=TITLE, year=2021),
        PaperSummary(key="title:x\x1b[2J", title="line\nbreak"),
    ]
    for error in (UnknownReference("retitle", papers), AmbiguousReference("retitle", papers)):
        assert not _raw(str(error)), str(error)
        assert SHOWN in error.hint
        assert "title:x\\x1b[2J  (----)  line\\x0abreak" in error.hint
        assert error.hint.count("\n") == 2  # one line per candidate, after the lead-in


def test_author_hint_escapes_names() -> None:
    error = AmbiguousAuthor("kim", [{"key": "k", "name": "Kim \x1b[31mred", "papers": 2}])
    assert not _raw(str(error))
    assert "Kim \\x1b[31mred  (2 papers)" in error.hint


def test_the_cli_escapes_any_error_it_prints() -> None:
    @main.command("raise-for-test", hidden=True)
    def raise_for_test() -> None:
        raise KGError("bad \x1b[2J name", "see\nthe \x07 hint")

    try:
        result = CliRunner().invoke(main, ["raise-for-test"])
    finally:
        main.commands.pop("raise-for-test")
    assert result.exit_code == 1
    assert result.output == "Error: bad \\x1b[2J name. See\nthe \\x07 hint\n"
