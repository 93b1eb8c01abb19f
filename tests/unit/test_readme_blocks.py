"""The README's ```shell blocks: the lines a test cannot run as written.

They set the machine up (`make run`), manage the server the tests use (`kg db stop`), block
(`kg serve`), need a Docker engine, or name files a user downloads (the Kaggle arXiv
snapshot). tests/integration/test_default_map.py runs every ```bash block against the default map;
this test proves that every line of the other blocks is still valid as written: each `kg`
command and its options parse, each `make` target exists, and each file named exists.
"""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from kg.cli import main
from tests.data import REPO

README = REPO / "README.md"
_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
# Files a user brings (named in the README with where to get them), not shipped here.
_USER_FILES = {
    "arxiv-metadata-oai-snapshot.json",
    "citations.csv",
    "openalex-snapshot/data/works/updated_date=2024-*/part_*.gz",
    "s2/papers/*.gz",
    "s2/abstracts/*.gz",
    "s2/citations/*.gz",
    "crossref-public-data/*.json.gz",
}


def _shell_commands() -> list[list[str]]:
    text = README.read_text(encoding="utf-8")
    commands = []
    for language, body in _BLOCK.findall(text):
        if language != "shell":
            continue
        for line in body.splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words:
                    commands.append(words)
    return commands


COMMANDS = _shell_commands()


def test_the_readme_has_shell_blocks_to_check() -> None:
    assert len(COMMANDS) >= 15
    assert {words[0] for words in COMMANDS} >= {"make", "kg", "docker"}


@pytest.mark.parametrize("words", COMMANDS, ids=[" ".join(w)[:60] for w in COMMANDS])
def test_every_shell_line_is_valid_as_written(words: list[str]) -> None:
    program, args = words[0], words[1:]
    if program == "kg":
        # --help is eager: the command path and every option name are parsed first, so a
        # renamed command or option fails here, and nothing runs.
        result = CliRunner().invoke(main, [*args, "--help"], prog_name="kg")
        assert result.exit_code == 0, result.output
        assert result.output.startswith("Usage: kg ")
        for arg in args:
            # a URL is a REF (https://doi.org/…), not a file
            if (
                "/" in arg
                and not arg.startswith("-")
                and "://" not in arg
                and arg not in _USER_FILES
            ):
                assert (REPO / arg).exists(), f"{arg} is named in the README but missing"
    elif program == "make":
        makefile = (REPO / "Makefile").read_text(encoding="utf-8")
        for target in args:
            assert re.search(rf"^{re.escape(target)}:", makefile, re.MULTILINE), target
    elif program == "docker":
        compose = args[args.index("-f") + 1]
        assert (REPO / compose).is_file()
    elif program == "cp":
        assert (REPO / args[0]).is_file()
    elif program == "export":
        # The variables it sets are the ones the settings read.
        settings = (REPO / "kg" / "server" / "config.py").read_text(encoding="utf-8")
        names = re.findall(r"\b(NEO4J_\w+)=", " ".join(args))
        assert names, args
        assert all(f'"{name}"' in settings for name in names), names
    else:
        pytest.fail(f"a ```shell line of the README runs an unexpected program: {words}")
