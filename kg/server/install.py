"""Installing the local Neo4j: Java and Maven found on this machine, and the server, Neo4j
Browser and APOC fetched from Maven Central (or the local Maven cache) through a generated POM.

A finished install's jars are kept once per machine and user, in the jar cache
(``jar_cache``: $KG_JAR_CACHE, else $XDG_CACHE_HOME/kg/jars), one folder per set of versions.
The next KG_HOME links them from there (a hard link, or a copy across file systems) and runs
no Maven: a second install takes a fraction of a second where Maven took about 14 s.

The running of the server is ``kg.server.local``; this module only puts its jars in place.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kg.errors import InstallError, ToolMissingError

__all__ = [
    "Java",
    "fetch_jars",
    "find_java",
    "find_mvn",
    "installed_versions",
    "jar_cache",
    "java_major",
    "log_tail",
    "say",
    "write_marker",
]

NEO4J_VERSION = "5.26.30"
BROWSER_VERSION = "5.24.0"
APOC_VERSION = "5.26.19"
SUPPORTED_JAVA = (17, 21)
MARKER = "kg-install.json"

Step = Callable[[str], None]
"""A callback that is told, in a short line, each stage a long operation starts."""

_POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kg.local</groupId>
  <artifactId>{artifact}</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
{dependencies}
  </dependencies>
</project>
"""
_DEPENDENCY = (
    "    <dependency><groupId>{group}</groupId><artifactId>{artifact}</artifactId>"
    "<version>{version}</version></dependency>"
)


@dataclass(frozen=True)
class Java:
    """A Java runtime: its ``java`` executable, home and major version."""

    executable: Path
    home: Path
    major: int


def say(on_step: Step | None, line: str) -> None:
    """Tell ``on_step`` what starts now, when there is one to tell."""
    if on_step is not None:
        on_step(line)


def java_major(executable: Path) -> int | None:
    """Return the major version ``executable -version`` reports, or None if it does not run."""
    try:
        result = subprocess.run(
            [str(executable), "-version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', result.stderr + result.stdout)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def _java_at(home: Path) -> Java | None:
    executable = home / "bin" / "java"
    if not executable.exists():
        return None
    major = java_major(executable)
    return Java(executable, home, major) if major is not None else None


def find_java() -> Java:
    """Return a Java 17 or 21: JAVA_HOME if set, else ``java`` on PATH, else /usr/lib/jvm.

    Raises ToolMissingError when JAVA_HOME holds another version, or when none is found.
    """
    explicit = os.environ.get("JAVA_HOME")
    if explicit:
        java = _java_at(Path(explicit))
        if java is None:
            raise ToolMissingError(
                f"JAVA_HOME={explicit} has no working bin/java",
                "point JAVA_HOME at a Java 17 or 21 JDK",
            )
        if java.major not in SUPPORTED_JAVA:
            raise ToolMissingError(
                f"JAVA_HOME={explicit} is Java {java.major}, and Neo4j 5.26 needs Java 17 or 21",
                "point JAVA_HOME at a Java 17 or 21 JDK, or unset it",
            )
        return java
    candidates: list[Path] = []
    on_path = shutil.which("java")
    if on_path:
        candidates.append(Path(on_path).resolve().parent.parent)
    jvm_root = Path("/usr/lib/jvm")
    if jvm_root.is_dir():
        candidates.extend(sorted(p for p in jvm_root.iterdir() if p.is_dir()))
    seen: list[int] = []
    for home in candidates:
        java = _java_at(home)
        if java is None:
            continue
        if java.major in SUPPORTED_JAVA:
            return java
        seen.append(java.major)
    found = f" (found Java {', '.join(map(str, sorted(set(seen))))})" if seen else ""
    raise ToolMissingError(
        f"no Java 17 or 21 found{found}; Neo4j 5.26 needs one",
        "install one (e.g. `apt-get install openjdk-17-jre-headless`) or set JAVA_HOME",
    )


def find_mvn() -> Path:
    """Return the ``mvn`` executable. Raises ToolMissingError when it is not on PATH."""
    found = shutil.which("mvn")
    if not found:
        raise ToolMissingError(
            "mvn (Apache Maven) is not on PATH; it fetches Neo4j from Maven Central",
            "install it (e.g. `apt-get install maven`)",
        )
    return Path(found)


def installed_versions(home: Path) -> dict[str, str | None] | None:
    """Return what the install marker in ``home`` records (neo4j, browser, apoc), or None."""
    marker = home / MARKER
    try:
        versions = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return versions if isinstance(versions, dict) and "neo4j" in versions else None


def write_marker(home: Path, versions: dict[str, str | None]) -> None:
    """Record in ``home`` what was installed; written last, so a broken install has none."""
    (home / MARKER).write_text(json.dumps(versions, indent=2) + "\n", encoding="utf-8")


def fetch_jars(
    home: Path, lib_dir: Path, plugins_dir: Path, on_step: Step | None = None
) -> dict[str, str | None]:
    """Fetch Neo4j and Neo4j Browser into ``lib_dir`` and APOC core (optional) into
    ``plugins_dir``; return the versions for the marker (``apoc`` None when it failed).
    Links them from the jar cache when an install of these versions was kept there, and
    keeps this one there when it was not (see the module's doc).

    Raises ToolMissingError (no mvn or Java) or InstallError (Maven failed).
    """
    home.mkdir(parents=True, exist_ok=True)
    cache = jar_cache()
    kept = _kept_install(cache) if cache is not None else None
    if kept is not None:
        say(on_step, f"linking the jars of Neo4j {NEO4J_VERSION} from the jar cache {kept}…")
        _link_tree(kept / "lib", lib_dir, fresh=True)
        _link_tree(kept / "plugins", plugins_dir, fresh=False)  # a user's own plugins stay
        return {"neo4j": NEO4J_VERSION, "browser": BROWSER_VERSION, "apoc": APOC_VERSION}
    java = find_java()
    mvn = find_mvn()
    say(
        on_step,
        f"fetching Neo4j {NEO4J_VERSION} and Neo4j Browser {BROWSER_VERSION} "
        f"from Maven Central (or the local Maven cache)…",
    )
    runtime = [
        ("org.neo4j", "neo4j", NEO4J_VERSION),
        ("org.neo4j.client", "neo4j-browser", BROWSER_VERSION),
    ]
    staging = _maven_copy(home, mvn, java, "neo4j-runtime", runtime, lib_dir)
    say(on_step, f"copying {sum(1 for _ in staging.glob('*.jar'))} jars into {lib_dir}…")
    shutil.rmtree(lib_dir, ignore_errors=True)
    staging.rename(lib_dir)
    apoc = _install_apoc(home, lib_dir, plugins_dir, mvn, java, on_step)
    if cache is not None and apoc is not None:  # an install without APOC is not kept
        _keep_install(cache, lib_dir, plugins_dir, on_step)
    return {"neo4j": NEO4J_VERSION, "browser": BROWSER_VERSION, "apoc": apoc}


_CACHE_KEY = f"neo4j-{NEO4J_VERSION}-browser-{BROWSER_VERSION}-apoc-{APOC_VERSION}"
_KEPT_MARKER = "kept.json"


def jar_cache() -> Path | None:
    """Return the jar cache's folder: $KG_JAR_CACHE, else $XDG_CACHE_HOME/kg/jars (by default
    ~/.cache/kg/jars); None when KG_JAR_CACHE is ``off``, for every install to run Maven."""
    explicit = os.environ.get("KG_JAR_CACHE")
    if explicit == "off":
        return None
    if explicit:
        return Path(explicit).expanduser()
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache_home) / "kg" / "jars"


def _kept_install(cache: Path) -> Path | None:
    """Return the cache's folder for these versions when an install was kept whole there
    (its marker, written last, lists every jar and each is there), else None."""
    kept = cache / _CACHE_KEY
    try:
        listed = json.loads((kept / _KEPT_MARKER).read_text(encoding="utf-8"))
        return kept if all((kept / name).is_file() for name in listed["files"]) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _keep_install(cache: Path, lib_dir: Path, plugins_dir: Path, on_step: Step | None) -> None:
    """Keep the jars just installed in the cache, for the next KG_HOME. A folder is filled
    beside it and renamed into place, so a reader never sees half of one; two installs
    keeping at once leave the first one's. Failing to keep is said and is no error."""
    staging = cache / f"{_CACHE_KEY}.partial-{os.getpid()}"
    try:
        cache.mkdir(parents=True, exist_ok=True, mode=0o700)
        shutil.rmtree(staging, ignore_errors=True)
        _link_tree(lib_dir, staging / "lib", fresh=True)
        _link_tree(plugins_dir, staging / "plugins", fresh=True)
        files = sorted(str(p.relative_to(staging)) for p in staging.rglob("*.jar"))
        (staging / _KEPT_MARKER).write_text(
            json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8"
        )
        staging.rename(cache / _CACHE_KEY)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        if _kept_install(cache) is None:
            say(on_step, f"the jars could not be kept in the jar cache {cache}: {error}")
        return
    say(on_step, f"kept the jars in the jar cache {cache / _CACHE_KEY} for the next install")


def _link_tree(source: Path, target: Path, *, fresh: bool) -> None:
    """Put the jars of ``source`` into ``target`` (emptied first when ``fresh``): hard links
    where the file system allows them, else copies. Raises OSError when neither can be made."""
    if fresh:
        shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True, exist_ok=True)
    for jar in source.glob("*.jar"):
        try:
            os.link(jar, target / jar.name)
        except OSError:
            shutil.copy2(jar, target / jar.name)


def _install_apoc(
    home: Path, lib_dir: Path, plugins_dir: Path, mvn: Path, java: Java, on_step: Step | None
) -> str | None:
    plugins_dir.mkdir(parents=True, exist_ok=True)
    say(on_step, f"fetching APOC core {APOC_VERSION} from Maven Central…")
    apoc = [
        ("org.neo4j.procedure", "apoc-common", APOC_VERSION),
        ("org.neo4j.procedure", "apoc-core", APOC_VERSION),
    ]
    try:
        staging = _maven_copy(home, mvn, java, "neo4j-plugins", apoc, plugins_dir)
    except InstallError:
        say(on_step, "APOC core could not be fetched; going on without it (it is optional)")
        return None  # APOC is optional: the project's queries never need it
    say(on_step, f"copying plugins into {plugins_dir}…")
    # Plugins share the server's classpath: a second, older copy of a library the
    # server already ships (commons-lang3, slf4j) would shadow the server's own.
    shipped = {_artifact_name(jar) for jar in lib_dir.glob("*.jar")}
    for jar in staging.glob("*.jar"):
        if _artifact_name(jar) not in shipped:
            shutil.move(str(jar), plugins_dir / jar.name)
    shutil.rmtree(staging, ignore_errors=True)
    return APOC_VERSION


def _maven_copy(
    home: Path,
    mvn: Path,
    java: Java,
    artifact: str,
    coordinates: list[tuple[str, str, str]],
    bound_for: Path,
) -> Path:
    """Copy the jars of ``coordinates`` and all their dependencies into a fresh staging
    folder beside ``bound_for`` (``lib.partial`` for ``lib``), built as the Maven project
    ``artifact`` in ``home``; return the folder. Raises InstallError when mvn fails."""
    target = home / f"{bound_for.name}.partial"
    shutil.rmtree(target, ignore_errors=True)
    build = home / "maven" / artifact
    build.mkdir(parents=True, exist_ok=True)
    dependencies = "\n".join(
        _DEPENDENCY.format(group=g, artifact=a, version=v) for g, a, v in coordinates
    )
    (build / "pom.xml").write_text(
        _POM.format(artifact=artifact, dependencies=dependencies), encoding="utf-8"
    )
    command = [
        str(mvn),
        "-B",
        "-q",
        "dependency:copy-dependencies",
        f"-DoutputDirectory={target}",
        "-DincludeScope=runtime",
        "-DexcludeTransitive=false",
    ]
    env = {**os.environ, "JAVA_HOME": str(java.home)}
    log = home / "maven" / f"{artifact}.log"
    with log.open("w", encoding="utf-8") as out:
        result = subprocess.run(
            command, cwd=build, env=env, stdout=out, stderr=subprocess.STDOUT, check=False
        )
    if result.returncode != 0:
        tail = log_tail(log, 5)
        raise InstallError(
            f"mvn could not fetch {', '.join(a for _, a, _ in coordinates)} "
            f"(exit {result.returncode}): {tail}",
            f"check that Maven Central is reachable; the full log is {log}",
        )
    return target


def _artifact_name(jar: Path) -> str:
    """Return a jar's artifact name without its version: ``asm-9.7.1.jar`` -> ``asm``."""
    return re.sub(r"-\d[\w.\-]*$", "", jar.stem)


def log_tail(path: Path, lines: int) -> str:
    """Return the last ``lines`` non-blank lines of a log, joined by " | ", for an error."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return "(no log)"
    return " | ".join(line.strip() for line in text[-lines:] if line.strip()) or "(empty log)"
