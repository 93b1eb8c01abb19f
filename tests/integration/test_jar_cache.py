"""The jar cache: an install keeps its jars once, and the next KG_HOME links them from there
without Maven; a cache kept only in part, or turned off, is never used.

One real install through Maven (about 14 s) fills a cache of the test's own; the others link.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.errors import ToolMissingError
from kg.server.install import NEO4J_VERSION, installed_versions
from kg.server.local import LocalServer
from tests.conftest import local_settings_for


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, LocalServer]:
    """A jar cache of the module's own, filled by one install through Maven, and that
    install's server (never started)."""
    cache = tmp_path_factory.mktemp("jar-cache") / "jars"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KG_JAR_CACHE", str(cache))
        server = LocalServer(local_settings_for(tmp_path_factory.mktemp("home-maven")))
        steps: list[str] = []
        assert server.install(on_step=steps.append)
    assert any("kept the jars in the jar cache" in step for step in steps), steps
    return cache, server


def _no_maven(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Leave mvn off PATH, so an install that needs Maven fails with ToolMissingError."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))


def _jars(folder: Path) -> dict[str, bytes]:
    return {jar.name: jar.read_bytes()[:4096] for jar in sorted(folder.glob("*.jar"))}


def test_a_second_home_links_the_kept_jars_without_maven(
    kept: tuple[Path, LocalServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, first = kept
    monkeypatch.setenv("KG_JAR_CACHE", str(cache))
    _no_maven(monkeypatch, tmp_path)
    server = LocalServer(local_settings_for(tmp_path / "home"))
    server.plugins_dir.mkdir(parents=True)
    (server.plugins_dir / "users-own-plugin.jar").write_bytes(b"not ours")
    steps: list[str] = []
    assert server.install(on_step=steps.append)
    assert any("from the jar cache" in step for step in steps), steps
    assert installed_versions(server.home) == installed_versions(first.home)
    assert server.installed_version() == NEO4J_VERSION
    assert _jars(server.lib_dir) == _jars(first.lib_dir)
    assert len(_jars(server.lib_dir)) > 100
    kernel = server.lib_dir / f"neo4j-kernel-{NEO4J_VERSION}.jar"
    assert kernel.stat().st_ino == (first.lib_dir / kernel.name).stat().st_ino  # a hard link
    plugins = _jars(server.plugins_dir)
    assert plugins.pop("users-own-plugin.jar") == b"not ours"  # a user's plugin stays
    assert plugins == _jars(first.plugins_dir)


def test_a_cache_kept_in_part_is_not_used(
    kept: tuple[Path, LocalServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache, _ = kept
    (folder,) = (p for p in cache.iterdir() if p.is_dir())
    partial = tmp_path / "partial" / folder.name
    partial.mkdir(parents=True)
    marker = json.loads((folder / "kept.json").read_text(encoding="utf-8"))
    (partial / "kept.json").write_text(json.dumps(marker), encoding="utf-8")  # no jars
    monkeypatch.setenv("KG_JAR_CACHE", str(partial.parent))
    _no_maven(monkeypatch, tmp_path)
    with pytest.raises(ToolMissingError, match="mvn"):
        LocalServer(local_settings_for(tmp_path / "home")).install()


def test_with_the_cache_off_an_install_needs_maven(
    kept: tuple[Path, LocalServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KG_JAR_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(kept[0].parent))  # where "jars" would be read
    _no_maven(monkeypatch, tmp_path)
    with pytest.raises(ToolMissingError, match="mvn"):
        LocalServer(local_settings_for(tmp_path / "home")).install()
