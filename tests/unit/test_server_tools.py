"""Finding java and mvn, and refusing the wrong ones with a clear message."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import main
from kg.errors import ToolMissingError
from kg.server.install import find_java, find_mvn

TEMURIN_25 = Path("/usr/lib/jvm/temurin-25-jdk-amd64")


def test_java_17_or_21_is_found() -> None:
    java = find_java()
    assert java.major in (17, 21)
    assert java.executable.exists()


@pytest.mark.skipif(not TEMURIN_25.exists(), reason="no Java 25 on this machine to refuse")
def test_java_home_of_another_version_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAVA_HOME", str(TEMURIN_25))
    with pytest.raises(ToolMissingError, match=r"is Java 25, and Neo4j 5\.26 needs Java 17 or 21"):
        find_java()


def test_java_home_without_java_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(ToolMissingError, match="has no working bin/java"):
        find_java()


def test_missing_mvn_is_one_clear_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ToolMissingError, match=r"mvn .* is not on PATH"):
        find_mvn()
    result = CliRunner().invoke(
        main,
        ["db", "install"],
        # No jar cache: with one kept, an install needs no Maven (test_jar_cache.py)
        env={"KG_HOME": str(tmp_path / "home"), "PATH": str(tmp_path), "KG_JAR_CACHE": "off"},
    )
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "Traceback" not in result.output
