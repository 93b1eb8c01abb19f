"""The server's class-data archive (kg.server.class_data): which JVM options a start gets,
and what a stop keeps. The JVM's own side (that a start maps the archive a stop kept) is
held by tests/integration/test_local_server.py."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kg.server.class_data import ClassData
from kg.server.install import Java


@pytest.fixture
def java(tmp_path: Path) -> Java:
    """A Java runtime's files as the archive's name reads them (never run here)."""
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    (home / "lib" / "server").mkdir(parents=True)
    (home / "bin" / "java").write_text("java")
    (home / "lib" / "server" / "libjvm.so").write_text("jvm")
    (home / "lib" / "server" / "classes.jsa").write_text("base archive")
    return Java(home / "bin" / "java", home, 17)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ClassData:
    monkeypatch.setenv("KG_JAR_CACHE", str(tmp_path / "cache"))
    home = tmp_path / "home" / "neo4j"
    for folder in ("run", "lib", "plugins"):
        (home / folder).mkdir(parents=True)
    (home / "lib" / "neo4j-kernel.jar").write_text("kernel")
    return ClassData(home, (home / "plugins", home / "lib"))


def _option(options: list[str], name: str) -> Path:
    (value,) = (o.split("=", 1)[1] for o in options if o.startswith(f"-XX:{name}="))
    return Path(value)


def test_a_clean_exit_keeps_the_archive_and_the_next_start_maps_it(
    server: ClassData, java: Java
) -> None:
    first = server.options(java)
    partial = _option(first, "ArchiveClassesAtExit")
    assert "-Xlog:cds=error" in first
    partial.write_text("classes")  # what the JVM writes at its exit
    server.keep(clean_exit=True)
    archive = server.archive(java)
    assert archive.read_text() == "classes"
    assert not partial.exists()
    assert not server.mark.exists()
    assert server.options(java) == [f"-XX:SharedArchiveFile={archive}"]


def test_a_killed_server_keeps_nothing_and_the_next_start_writes_again(
    server: ClassData, java: Java
) -> None:
    partial = _option(server.options(java), "ArchiveClassesAtExit")
    partial.write_text("half")
    server.keep(clean_exit=False)
    assert not partial.exists()
    assert not server.archive(java).exists()
    again = _option(server.options(java), "ArchiveClassesAtExit")
    assert again != partial


def test_a_server_that_died_unstopped_leaves_nothing_behind_the_next_start(
    server: ClassData, java: Java
) -> None:
    partial = _option(server.options(java), "ArchiveClassesAtExit")
    partial.write_text("written at an exit nobody saw")
    server.options(java)  # the next start: it cannot know the first exit was clean
    assert not partial.exists()
    assert not server.archive(java).exists()


def test_another_servers_archive_is_not_replaced(server: ClassData, java: Java) -> None:
    partial = _option(server.options(java), "ArchiveClassesAtExit")
    archive = server.archive(java)
    archive.write_text("kept by another home's server")
    partial.write_text("mine")
    server.keep(clean_exit=True)
    assert archive.read_text() == "kept by another home's server"
    assert not partial.exists()


def test_another_jar_or_runtime_is_another_archive(
    server: ClassData, java: Java, tmp_path: Path
) -> None:
    before = server.archive(java)
    plugin = server.jar_dirs[0] / "apoc-core.jar"
    plugin.write_text("apoc")
    with_plugin = server.archive(java)
    assert with_plugin != before
    os.utime(plugin, ns=(1, 1))
    assert server.archive(java) != with_plugin  # the JVM checks each jar's time and size
    (java.home / "lib" / "server" / "libjvm.so").write_text("another build")
    assert server.archive(java) not in {before, with_plugin}
    assert server.archive(java).parent == tmp_path / "cache" / "class-data"


def test_no_base_archive_or_no_folder_means_no_option(
    server: ClassData, java: Java, tmp_path: Path
) -> None:
    (java.home / "lib" / "server" / "classes.jsa").unlink()
    assert server.options(java) == []
    (java.home / "lib" / "server" / "classes.jsa").write_text("base archive")
    server.folder.parent.mkdir(parents=True)
    server.folder.write_text("a file where the folder goes")
    assert server.options(java) == []
    assert not server.mark.exists()


def test_old_partial_archives_are_removed_and_recent_ones_kept(
    server: ClassData, java: Java
) -> None:
    server.folder.mkdir(parents=True)
    old = server.folder / "neo4j-0.abc.partial"
    recent = server.folder / "neo4j-0.def.partial"
    old.write_text("left by a killed server")
    recent.write_text("being written by a server's exit")
    an_hour_and_more = time.time() - 3_700
    os.utime(old, (an_hour_and_more, an_hour_and_more))
    server.options(java)
    assert not old.exists()
    assert recent.exists()


def test_without_a_jar_cache_the_archive_stays_in_the_home(
    tmp_path: Path, java: Java, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KG_JAR_CACHE", "off")
    home = tmp_path / "alone" / "neo4j"
    (home / "run").mkdir(parents=True)
    server = ClassData(home, (home / "lib",))
    assert server.archive(java).parent == home / "run"
