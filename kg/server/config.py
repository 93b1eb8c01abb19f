"""Settings from the environment: where KG_HOME is, which ports, which server to talk to; and
the driver's log kept off the terminal (``quiet_driver_logs``), which the connection
(``kg.database``) and the local server's start (``kg.server.local``) both need."""

from __future__ import annotations

import logging
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from kg.errors import ConfigError

__all__ = [
    "Connection",
    "LocalSettings",
    "connection",
    "kg_home",
    "local_settings",
    "quiet_driver_logs",
    "read_password",
    "write_new_password",
]

DEFAULT_BOLT_PORT = 7687
DEFAULT_HTTP_PORT = 7474
DEFAULT_DATABASE = "neo4j"
DEFAULT_USER = "neo4j"
PASSWORD_FILE = "neo4j-password"


def kg_home() -> Path:
    """Return the state folder: $KG_HOME, else the per-user data folder ($XDG_DATA_HOME/kg)."""
    explicit = os.environ.get("KG_HOME")
    if explicit:
        return Path(explicit).expanduser().resolve()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return (Path(data_home) / "kg").resolve()


def quiet_driver_logs() -> None:
    """Keep the driver's log records off the terminal (idempotent).

    With no handler anywhere, Python prints WARNING and above through its last-resort handler
    on stderr; a NullHandler on the ``neo4j`` logger stops that without muting applications
    that configure logging themselves.
    """
    driver_log = logging.getLogger("neo4j")
    if not any(isinstance(h, logging.NullHandler) for h in driver_log.handlers):
        driver_log.addHandler(logging.NullHandler())


def _port(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise ConfigError(f"{name}={raw!r} is not a port number", f"set {name} to 1-65535")
    return int(raw)


def _memory(name: str, default: str) -> str:
    raw = os.environ.get(name, "") or default
    if not raw[:-1].isdigit() or raw[-1].lower() not in "kmg":
        raise ConfigError(f"{name}={raw!r} is not a memory size", f"set {name} like 512m or 2g")
    return raw.lower()


@dataclass(frozen=True)
class LocalSettings:
    """Where the managed local Neo4j lives and how it listens."""

    home: Path
    bolt_port: int
    http_port: int
    heap: str
    pagecache: str

    @property
    def neo4j_home(self) -> Path:
        """The Neo4j installation folder inside KG_HOME."""
        return self.home / "neo4j"

    @property
    def password_file(self) -> Path:
        """The 0600 file that holds the generated password of the local server."""
        return self.home / PASSWORD_FILE

    @property
    def bolt_uri(self) -> str:
        """The routing Bolt URI of the local server."""
        return f"neo4j://127.0.0.1:{self.bolt_port}"

    @property
    def browser_url(self) -> str:
        """Where Neo4j Browser is served."""
        return f"http://127.0.0.1:{self.http_port}/browser/"


def local_settings() -> LocalSettings:
    """Return the local-server settings from KG_HOME, KG_*_PORT, KG_HEAP and KG_PAGECACHE.

    The defaults fit a 2-core, 24 GiB machine: 2 GiB heap and 2 GiB page cache.
    Raises ConfigError for a value that is not a port or a memory size.
    """
    bolt = _port("KG_BOLT_PORT", DEFAULT_BOLT_PORT)
    http = _port("KG_HTTP_PORT", DEFAULT_HTTP_PORT)
    if bolt == http:
        raise ConfigError(
            f"KG_BOLT_PORT and KG_HTTP_PORT are both {bolt}", "give them different values"
        )
    return LocalSettings(
        home=kg_home(),
        bolt_port=bolt,
        http_port=http,
        heap=_memory("KG_HEAP", "2g"),
        pagecache=_memory("KG_PAGECACHE", "2g"),
    )


@dataclass(frozen=True)
class Connection:
    """How to reach Neo4j: URI, credentials and database. ``external`` when set by NEO4J_*."""

    uri: str
    user: str
    password: str
    database: str
    external: bool

    def __repr__(self) -> str:
        return (
            f"Connection(uri={self.uri!r}, user={self.user!r}, password='***', "
            f"database={self.database!r}, external={self.external})"
        )


def read_password(path: Path) -> str:
    """Return the password kept in ``path``.

    Raises ConfigError when the file is missing, empty, or readable by others.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError as exc:
        raise ConfigError(
            f"no password file at {path}", "run `kg db start` once to create the local server"
        ) from exc
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(
            f"{path} is readable by other users", f"run `chmod 600 {path}` and try again"
        )
    password = path.read_text(encoding="utf-8").strip()
    if not password:
        raise ConfigError(
            f"{path} is empty",
            "restore the password in it, or run `kg db stop` and remove it and "
            "$KG_HOME/neo4j/data to start over with an empty map",
        )
    return password


def write_new_password(path: Path) -> str:
    """Generate a password, write it to ``path`` with mode 0600, and return it."""
    password = secrets.token_urlsafe(24)
    # The admin tool reads it as a command-line argument: one starting with "-" is an option.
    while not password[0].isalnum():
        password = secrets.token_urlsafe(24)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(password + "\n")
    os.chmod(path, 0o600)
    return password


def connection(uri: str | None = None) -> Connection:
    """Return where to connect: NEO4J_URI and friends if set, else the local managed server.

    With ``uri``, connect there instead of NEO4J_URI, as NEO4J_USER (default neo4j) with
    NEO4J_PASSWORD, or, when it is unset and ``uri`` names this machine, the local server's
    password.

    Raises ConfigError when NEO4J_URI is set without NEO4J_PASSWORD, when ``uri`` names
    another machine and NEO4J_PASSWORD is unset, or when the local server has no password
    file yet.
    """
    database = os.environ.get("NEO4J_DATABASE") or DEFAULT_DATABASE
    if uri is not None:
        user = os.environ.get("NEO4J_USER") or DEFAULT_USER
        password = os.environ.get("NEO4J_PASSWORD")
        if password is None:
            if urlsplit(uri).hostname not in ("localhost", "127.0.0.1", "::1"):
                raise ConfigError(
                    f"no password to connect to {uri}: NEO4J_PASSWORD is not set",
                    "set NEO4J_PASSWORD (and NEO4J_USER), or pass a "
                    "kg.server.config.Connection with the credentials",
                )
            password = read_password(local_settings().password_file)
        return Connection(uri, user, password, database, external=True)
    uri = os.environ.get("NEO4J_URI")
    if uri:
        password = os.environ.get("NEO4J_PASSWORD")
        if password is None:
            raise ConfigError("NEO4J_URI is set but NEO4J_PASSWORD is not", "set NEO4J_PASSWORD")
        user = os.environ.get("NEO4J_USER") or DEFAULT_USER
        return Connection(uri, user, password, database, external=True)
    local = local_settings()
    password = read_password(local.password_file)
    return Connection(local.bolt_uri, DEFAULT_USER, password, database, external=False)
