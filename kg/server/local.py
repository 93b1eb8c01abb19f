"""The managed local Neo4j: start, stop and report on it (installing it is ``kg.server.install``).

Neo4j 5.26 LTS community is assembled from Maven Central artifacts with ``mvn`` (the server,
its runtime dependencies and Neo4j Browser; see ``kg.server.install``) and run with ``java``
directly through ``org.neo4j.server.CommunityEntryPoint``. It listens on 127.0.0.1 only, with
authentication on; its password is generated on first start, set with the admin tool through an
argument file (so it never shows in a process list) and kept in a 0600 file in KG_HOME. The
server's data, logs and run folders are 0700, so the password hash in ``data/dbms/auth.ini``
and the store are the user's alone.

Install, start and stop take an exclusive lock on ``$KG_HOME/kg.lock`` (``fcntl.flock``), so
two ``kg db`` commands on one KG_HOME run one after the other: a second ``kg db start`` waits
for the first and then finds its server running. Long steps report what they do through an
``on_step`` callback; the library itself never prints.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from kg.errors import PortInUseError, ServerError
from kg.server.config import LocalSettings, quiet_driver_logs, read_password, write_new_password
from kg.server.install import (
    NEO4J_VERSION,
    Java,
    Step,
    fetch_jars,
    find_java,
    installed_versions,
    log_tail,
    say,
    write_marker,
)

__all__ = ["LocalServer", "ServerStatus", "home_lock", "port_in_use"]

ENTRY_POINT = "org.neo4j.server.CommunityEntryPoint"
ADMIN_TOOL = "org.neo4j.cli.AdminTool"
LOCK_FILE = "kg.lock"
_DATABASE_NAME = re.compile(r"[a-z0-9][a-z0-9.-]{2,62}")
"""A standard database name, as Neo4j's naming rules allow (lower case once stored)."""


# The folders of the server that hold the store, the password hash, logs and the pid: the
# server runs as this user, so nobody else needs to read them.
_PRIVATE_FOLDERS = ("data", "logs", "run")

_JVM_OPTIONS = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=262144",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
)


@dataclass(frozen=True)
class ServerStatus:
    """What ``kg db status`` reports."""

    installed: bool
    running: bool
    version: str | None
    pid: int | None
    bolt_uri: str
    browser_url: str
    data_dir: str
    kg_home: str
    apoc: bool

    def as_dict(self) -> dict[str, object]:
        """Return the status as a JSON-ready dict."""
        return asdict(self)


# One flock per KG_HOME per process. The lock is reentrant within the process (any thread):
# ``kg db start`` holds it across install and start, and start may call stop on a timeout.
_held: dict[Path, list[int]] = {}
_held_guard = threading.Lock()


@contextlib.contextmanager
def home_lock(home: Path, on_step: Step | None = None) -> Iterator[None]:
    """Hold the exclusive lock on ``home/kg.lock`` (created 0600) for the ``with`` block.

    Blocks while another process holds it, after telling ``on_step`` who holds it. The lock
    file descriptor is not inherited by the server or other child processes.
    """
    with _held_guard:
        entry = _held.get(home)
        if entry is None:
            home.mkdir(parents=True, exist_ok=True)
            path = home / LOCK_FILE
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
                    who = f"kg (pid {holder})" if holder.isdigit() else "another kg command"
                    say(on_step, f"waiting for {who}, which holds {path}…")
                    fcntl.flock(fd, fcntl.LOCK_EX)
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            except BaseException:
                os.close(fd)
                raise
            entry = _held[home] = [fd, 0]
        entry[1] += 1
    try:
        yield
    finally:
        with _held_guard:
            entry[1] -= 1
            if entry[1] == 0:
                del _held[home]
                with contextlib.suppress(OSError):
                    os.ftruncate(entry[0], 0)
                fcntl.flock(entry[0], fcntl.LOCK_UN)
                os.close(entry[0])


class LocalServer:
    """One managed Neo4j under ``settings.home``; several can run side by side on other ports."""

    def __init__(self, settings: LocalSettings) -> None:
        self.settings = settings
        self.home = settings.neo4j_home

    @property
    def lib_dir(self) -> Path:
        """The server's jars."""
        return self.home / "lib"

    @property
    def plugins_dir(self) -> Path:
        """Optional plugins (APOC core)."""
        return self.home / "plugins"

    @property
    def data_dir(self) -> Path:
        """Databases and transaction logs; survives stop and start."""
        return self.home / "data"

    @property
    def log_file(self) -> Path:
        """The server's console output."""
        return self.home / "logs" / "console.log"

    @property
    def pid_file(self) -> Path:
        """The pid of the running server."""
        return self.home / "run" / "kg-neo4j.pid"

    def lock(self, on_step: Step | None = None) -> contextlib.AbstractContextManager[None]:
        """Hold the KG_HOME lock (see ``home_lock``); reentrant within this process."""
        return home_lock(self.settings.home, on_step)

    def installed_version(self) -> str | None:
        """Return the Neo4j version installed here, or None."""
        versions = installed_versions(self.home)
        return str(versions["neo4j"]) if versions else None

    def install(self, on_step: Step | None = None) -> bool:
        """Install Neo4j here from Maven Central. Returns False when it already was.

        Holds the KG_HOME lock; tells ``on_step`` each stage as it starts.
        Raises ToolMissingError (no mvn or Java) or InstallError (Maven failed).
        """
        with self.lock(on_step):
            if self.installed_version() == NEO4J_VERSION:
                return False
            versions = fetch_jars(self.home, self.lib_dir, self.plugins_dir, on_step)
            for folder in ("conf", "data", "logs", "run", "import", "plugins"):
                (self.home / folder).mkdir(exist_ok=True)
            self.secure_folders()
            write_marker(self.home, versions)
            return True

    def write_config(self) -> Path:
        """Write conf/neo4j.conf from the settings and return its path."""
        s = self.settings
        conf = self.home / "conf"
        conf.mkdir(parents=True, exist_ok=True)
        lines = [
            "# Written by `kg db start` from KG_* settings; edits are overwritten.",
            "server.default_listen_address=127.0.0.1",
            "server.default_advertised_address=127.0.0.1",
            f"server.bolt.listen_address=127.0.0.1:{s.bolt_port}",
            f"server.bolt.advertised_address=127.0.0.1:{s.bolt_port}",
            f"server.http.listen_address=127.0.0.1:{s.http_port}",
            f"server.http.advertised_address=127.0.0.1:{s.http_port}",
            "server.bolt.enabled=true",
            "server.http.enabled=true",
            "server.https.enabled=false",
            "dbms.security.auth_enabled=true",
            "dbms.usage_report.enabled=false",
            # Neo4j Browser: no product analytics (nor the banner asking for them), and remote
            # content (guides) only from this machine. browser.allow_outgoing_connections is
            # an enterprise setting: community's strict validation refuses to start with it.
            "client.allow_telemetry=false",
            "browser.remote_content_hostname_whitelist=localhost,127.0.0.1",
            f"server.memory.pagecache.size={s.pagecache}",
            f"server.directories.data={self.data_dir}",
            f"server.directories.logs={self.home / 'logs'}",
            f"server.directories.plugins={self.plugins_dir}",
            f"server.directories.run={self.home / 'run'}",
            f"server.directories.import={self.home / 'import'}",
            f"server.directories.lib={self.lib_dir}",
            "dbms.security.procedures.unrestricted=apoc.*",
            "db.tx_log.rotation.retention_policy=2 files",
            # Bolt's Netty loops otherwise wait a quiet 5 s each (two connectors: 10 s) on
            # every stop, after the databases have already stopped and no connection is left
            "internal.dbms.bolt.netty_server_shutdown_quiet_period=0",
        ]
        path = conf / "neo4j.conf"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    def _is_ours(self, pid: int) -> bool:
        """Return True when ``pid`` runs this home's server (a recycled pid must not count)."""
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            return False
        return ENTRY_POINT in args and f"--home-dir={self.home}" in args

    def server_pids(self) -> list[int]:
        """Return every running process that is this home's server, pid file or not."""
        found = []
        with contextlib.suppress(OSError):
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit() and self._is_ours(int(entry.name)):
                    found.append(int(entry.name))
        return sorted(found)

    def pid(self) -> int | None:
        """Return the pid of this home's running server, or None.

        A stale pid file is removed. A server of this home running without a pid file (one
        an older kg lost track of) is found in /proc and its pid file written again, so that
        status reports it and stop stops it.
        """
        try:
            pid: int | None = int(self.pid_file.read_text(encoding="utf-8").strip())
        except (FileNotFoundError, ValueError):
            pid = None
        if pid is not None and self._is_ours(pid):
            return pid
        with contextlib.suppress(FileNotFoundError):
            self.pid_file.unlink()
        running = self.server_pids()
        if not running:
            return None
        with contextlib.suppress(OSError):
            self.pid_file.write_text(f"{running[0]}\n", encoding="utf-8")
        return running[0]

    def secure_folders(self) -> None:
        """Make the data, logs and run folders, and data/dbms/auth.ini, private to this user.

        The server runs as this user, so 0700 folders cost it nothing; under umask 022 Neo4j
        would leave the password hash in auth.ini (and the store) readable by everyone.
        """
        for name in _PRIVATE_FOLDERS:
            folder = self.home / name
            if folder.is_dir():
                os.chmod(folder, 0o700)
        dbms = self.data_dir / "dbms"
        if dbms.is_dir():
            os.chmod(dbms, 0o700)
            auth = dbms / "auth.ini"
            if auth.exists():
                os.chmod(auth, 0o600)

    def start(self, timeout: float = 180.0, on_step: Step | None = None) -> tuple[bool, float]:
        """Start the server in the background and wait until Bolt and HTTP answer.

        Returns (started, seconds): started is False when it was already running. Holds the
        KG_HOME lock, so a concurrent start waits for this one and then finds it running.
        Raises PortInUseError, ToolMissingError, ServerError (with the log tail).
        """
        with self.lock(on_step):
            return self._start(timeout, on_step)

    def _start(self, timeout: float, on_step: Step | None) -> tuple[bool, float]:
        if self.pid() is not None:
            return False, 0.0
        if self.installed_version() is None:
            raise ServerError(f"Neo4j is not installed in {self.home}", "run `kg db install` first")
        began = time.monotonic()
        self._check_ports()
        java = find_java()
        self.write_config()
        for name in _PRIVATE_FOLDERS:
            (self.home / name).mkdir(parents=True, exist_ok=True)
        self.secure_folders()
        password = self._ensure_password(java, on_step)
        say(on_step, f"starting Neo4j {self.installed_version()} with Java {java.major}…")
        pid = self._spawn(java)
        self.pid_file.write_text(f"{pid}\n", encoding="utf-8")
        say(
            on_step,
            f"waiting for Bolt on 127.0.0.1:{self.settings.bolt_port} and HTTP on "
            f"127.0.0.1:{self.settings.http_port}…",
        )
        self._wait_for_bolt(pid, password, timeout)
        # The first start creates data/dbms and the store under the server's umask.
        self.secure_folders()
        return True, time.monotonic() - began

    def _check_ports(self) -> None:
        """Raise PortInUseError when the Bolt or HTTP port is taken."""
        for name, port in (
            ("KG_BOLT_PORT", self.settings.bolt_port),
            ("KG_HTTP_PORT", self.settings.http_port),
        ):
            if port_in_use(port):
                raise PortInUseError(
                    f"port {port} on 127.0.0.1 is already in use",
                    f"stop what uses it, or set {name} to a free port",
                )

    def _spawn(self, java: Java) -> int:
        """Start the server with ``java``, detached, its output to the log; return its pid."""
        command = [
            str(java.executable),
            f"-Xms{self.settings.heap}",
            f"-Xmx{self.settings.heap}",
            *_JVM_OPTIONS,
            "-cp",
            f"{self.plugins_dir}/*:{self.lib_dir}/*",
            ENTRY_POINT,
            f"--home-dir={self.home}",
            f"--config-dir={self.home / 'conf'}",
        ]
        # posix_spawn rather than Popen: the server outlives this process, and a Popen
        # object dropped while its child runs is reported as a leaked resource.
        return os.posix_spawn(
            str(java.executable),
            command,
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (
                    os.POSIX_SPAWN_OPEN,
                    1,
                    str(self.log_file),
                    os.O_WRONLY | os.O_CREAT | os.O_APPEND,
                    0o600,
                ),
                (os.POSIX_SPAWN_DUP2, 1, 2),
            ],
            setsid=True,
        )

    def _ensure_password(self, java: Java, on_step: Step | None = None) -> str:
        path = self.settings.password_file
        if path.exists():
            return read_password(path)
        if (self.data_dir / "dbms" / "auth.ini").exists() or (
            self.data_dir / "databases" / "system"
        ).exists():
            raise ServerError(
                f"the server in {self.home} was started before, but {path} is gone",
                f"restore that file, or remove {self.data_dir} to start over with an empty map",
            )
        say(on_step, f"setting the initial password (kept in {path}, mode 0600)…")
        password = write_new_password(path)
        # picocli reads arguments from an @file: the password never appears in a process list.
        fd, argfile = tempfile.mkstemp(prefix="kg-pw-", dir=self.settings.home)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(password + "\n")
            env = {
                **os.environ,
                "NEO4J_HOME": str(self.home),
                "NEO4J_CONF": str(self.home / "conf"),
            }
            result = subprocess.run(
                [
                    str(java.executable),
                    "-cp",
                    f"{self.lib_dir}/*",
                    ADMIN_TOOL,
                    "dbms",
                    "set-initial-password",
                    f"@{argfile}",
                ],
                env=env,
                cwd=self.home,
                capture_output=True,
                text=True,
                check=False,
            )
        finally:
            os.unlink(argfile)
        if result.returncode != 0:
            path.unlink(missing_ok=True)
            message = (result.stderr or result.stdout).strip().splitlines()
            raise ServerError(
                f"setting the initial password failed: {message[-1] if message else 'no output'}",
                f"check {self.home / 'conf' / 'neo4j.conf'}",
            )
        self.secure_folders()
        return password

    def _wait_for_bolt(self, pid: int, password: str, timeout: float) -> None:
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, ServiceUnavailable

        quiet_driver_logs()

        deadline = time.monotonic() + timeout
        uri = f"bolt://127.0.0.1:{self.settings.bolt_port}"
        while time.monotonic() < deadline:
            code = _exit_code(pid)
            if code is not None:
                self.pid_file.unlink(missing_ok=True)
                raise ServerError(
                    f"Neo4j exited during start with code {code}; "
                    f"log tail: {log_tail(self.log_file, 8)}",
                    f"see {self.log_file} and {self.home / 'logs' / 'neo4j.log'}",
                )
            if port_in_use(self.settings.bolt_port):
                try:
                    with GraphDatabase.driver(uri, auth=("neo4j", password)) as driver:
                        driver.verify_connectivity()
                    # Bolt comes up a moment before HTTP; Browser users need both.
                    if port_in_use(self.settings.http_port) and _accepts(self.settings.http_port):
                        return
                except ServiceUnavailable:
                    pass
                except AuthError as exc:
                    raise ServerError(
                        "the local server refused the password in the password file",
                        f"restore {self.settings.password_file} or remove {self.data_dir}",
                    ) from exc
            time.sleep(0.5)
        self.stop()
        raise ServerError(
            f"Neo4j did not answer on Bolt within {timeout:.0f}s; "
            f"log tail: {log_tail(self.log_file, 8)}",
            "start it with a larger timeout (kg db start --timeout), or look at the log",
        )

    def stop(self, timeout: float = 60.0, on_step: Step | None = None) -> bool:
        """Stop the server: SIGTERM, then SIGKILL after ``timeout``. False if it was not running.

        Holds the KG_HOME lock, so it waits for a start in progress and then stops that server.
        """
        with self.lock(on_step):
            return self._stop(timeout, on_step)

    def _stop(self, timeout: float, on_step: Step | None) -> bool:
        pid = self.pid()
        if pid is None:
            return False
        say(on_step, f"stopping Neo4j (pid {pid})…")
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not _alive(pid):
                break
            time.sleep(0.25)
        else:
            os.kill(pid, signal.SIGKILL)
            while _alive(pid):
                time.sleep(0.1)
        self.pid_file.unlink(missing_ok=True)
        # Another server of this home (left by an older kg that lost its pid) goes too.
        if self.server_pids():
            self._stop(timeout, on_step)
        return True

    def drop_store(
        self, database: str, timeout: float = 180.0, on_step: Step | None = None
    ) -> bool:
        """Empty ``database`` by removing its store and transaction logs while the server is
        stopped, then start the server again if it was running: Neo4j makes an empty store
        for a database whose files are gone. The system database (the password, the users)
        and the settings stay; the database's schema goes with its store. Returns whether
        the server was running. Holds the KG_HOME lock. Raises ServerError for the system
        database or a name that is not a database's."""
        if database.lower() == "system" or not _DATABASE_NAME.fullmatch(database.lower()):
            raise ServerError(
                f"{database!r} is not a database whose store kg db reset may drop",
                "name the graph's database with NEO4J_DATABASE (default neo4j)",
            )
        with self.lock(on_step):
            running = self._stop(60.0, on_step)
            for kind in ("databases", "transactions"):
                folder = self.data_dir / kind / database.lower()
                if folder.exists():
                    say(on_step, f"removing {folder}…")
                    shutil.rmtree(folder)
            if running:
                self._start(timeout, on_step)
        return running

    def status(self) -> ServerStatus:
        """Return whether the server is installed and running, and where to reach it."""
        apoc = bool((installed_versions(self.home) or {}).get("apoc"))
        pid = self.pid()
        return ServerStatus(
            installed=self.installed_version() is not None,
            running=pid is not None,
            version=self.installed_version(),
            pid=pid,
            bolt_uri=self.settings.bolt_uri,
            browser_url=self.settings.browser_url,
            data_dir=str(self.data_dir),
            kg_home=str(self.settings.home),
            apoc=apoc,
        )


def port_in_use(port: int) -> bool:
    """Return True when something on 127.0.0.1 accepts connections on ``port`` or holds it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _accepts(port: int) -> bool:
    """Return True when a TCP connection to 127.0.0.1:``port`` succeeds."""
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _exit_code(pid: int) -> int | None:
    """Return the exit code of our child ``pid`` if it has exited, else None."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return None if _alive(pid) else -1
    return os.waitstatus_to_exitcode(status) if done == pid else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie child of ours has exited; reap it so the pid goes away.
    with contextlib.suppress(ChildProcessError):
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    return True
