"""Java's class-data sharing for the local server: the classes a start loads, kept once.

A server's JVM loads and checks some 10,000 classes from its jars on every start. Started
with ``-XX:ArchiveClassesAtExit``, it writes the classes it loaded into an archive as it
exits; a later start given ``-XX:SharedArchiveFile`` maps them instead, which takes about a
third off a start (docs/BENCHMARKS.md, "Starting the local server"). Java 17 has no option
that makes the archive when it is missing, so this module does:

- ``options`` (at a start) names the archive when it exists; otherwise it has the JVM write
  one, under a name of its own, at its exit, and says so in the server's run folder;
- ``keep`` (at a stop) moves an archive written at a clean exit into place, and drops one a
  killed server may have left half written.

One archive serves one Java runtime and one set of jars: its name is a digest of both, and it
lives in the jar cache beside them, so every KG_HOME that links the same jars maps it (the
JVM takes an archive of a class path that moved as a whole). The JVM checks the archive
against itself and the jars; one that no longer fits is left unused with a warning in the
server's log, and the start goes on as without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import time
from pathlib import Path

from kg.server.install import Java, jar_cache

__all__ = ["ClassData"]

_MARK = "kg-class-data"
"""In the server's run folder: the archive the running server writes at its exit, if any."""
_STALE_SECONDS = 3_600.0
"""A partial archive this old was left by a server that never reached ``keep``."""


class ClassData:
    """The class-data archive of the server in ``home``, its jars in ``jar_dirs`` (in
    class-path order)."""

    def __init__(self, home: Path, jar_dirs: tuple[Path, ...]) -> None:
        self.mark = home / "run" / _MARK
        self.jar_dirs = jar_dirs
        cache = jar_cache()
        self.folder = cache / "class-data" if cache is not None else home / "run"

    def archive(self, java: Java) -> Path:
        """Where the archive for ``java`` and these jars is (whether or not it exists)."""
        digest = hashlib.sha256()
        for path in (java.executable.resolve(), _runtime(java)):
            digest.update(_stamp(path))
        for folder in self.jar_dirs:
            for jar in sorted(folder.glob("*.jar")):
                digest.update(_stamp(jar))
        return self.folder / f"neo4j-{digest.hexdigest()[:24]}.jsa"

    def options(self, java: Java) -> list[str]:
        """The JVM options of a start with ``java``: map the archive, or write it at exit.
        None when the runtime has no base archive to build on (then the JVM would only
        warn) or the archive's folder cannot be made."""
        self._drop_partial()
        if not (_runtime(java).parent / "classes.jsa").is_file():
            return []
        archive = self.archive(java)
        if archive.is_file():
            return [f"-XX:SharedArchiveFile={archive}"]
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._drop_stale()
            partial = archive.with_name(f"{archive.stem}.{secrets.token_hex(6)}.partial")
            self.mark.write_text(f"{partial}\n{archive}\n", encoding="utf-8")
        except OSError:
            return []
        # the classes of optional jars that fail to link are left out of the archive with a
        # warning each, which would only fill the server's log
        return [f"-XX:ArchiveClassesAtExit={partial}", "-Xlog:cds=error"]

    def keep(self, *, clean_exit: bool) -> None:
        """After the server exited: move the archive it wrote into place when it exited
        cleanly (unless another server's is there already), else drop it."""
        named = self._named()
        if named is None:
            return
        partial, archive = named
        with contextlib.suppress(OSError):
            if clean_exit and partial.is_file() and not archive.exists():
                os.replace(partial, archive)
        self._drop_partial()

    def _named(self) -> tuple[Path, Path] | None:
        """The partial archive and its final name, as the mark holds them."""
        try:
            lines = self.mark.read_text(encoding="utf-8").splitlines()
        except OSError:
            return None
        return (Path(lines[0]), Path(lines[1])) if len(lines) == 2 else None

    def _drop_partial(self) -> None:
        """Remove the mark and whatever partial archive it names."""
        named = self._named()
        if named is not None:
            named[0].unlink(missing_ok=True)
        self.mark.unlink(missing_ok=True)

    def _drop_stale(self) -> None:
        """Remove partial archives of servers that were killed or lost long ago."""
        cutoff = time.time() - _STALE_SECONDS
        for partial in self.folder.glob("*.partial"):
            with contextlib.suppress(OSError):
                if partial.stat().st_mtime < cutoff:
                    partial.unlink()


def _runtime(java: Java) -> Path:
    """The JVM's library: a new build of the runtime is a new file."""
    return java.home / "lib" / "server" / "libjvm.so"


def _stamp(path: Path) -> bytes:
    """A file's name, size and modification time, as bytes (all that the JVM checks)."""
    try:
        found = path.stat()
    except OSError:
        return f"{path.name}:-\n".encode()
    return f"{path.name}:{found.st_size}:{found.st_mtime_ns}\n".encode()
