"""Settings from the environment, and the password file's rules."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kg.errors import ConfigError
from kg.server import config


def test_kg_home_defaults_to_the_per_user_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("KG_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert config.kg_home() == tmp_path / "kg"
    monkeypatch.setenv("KG_HOME", str(tmp_path / "elsewhere"))
    assert config.kg_home() == tmp_path / "elsewhere"


def test_ports_default_and_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KG_BOLT_PORT", raising=False)
    monkeypatch.delenv("KG_HTTP_PORT", raising=False)
    settings = config.local_settings()
    assert (settings.bolt_port, settings.http_port) == (7687, 7474)
    assert settings.bolt_uri == "neo4j://127.0.0.1:7687"
    monkeypatch.setenv("KG_BOLT_PORT", "seventy")
    with pytest.raises(ConfigError, match="KG_BOLT_PORT='seventy' is not a port number"):
        config.local_settings()
    monkeypatch.setenv("KG_BOLT_PORT", "7474")
    with pytest.raises(ConfigError, match="both 7474"):
        config.local_settings()


def test_memory_settings_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KG_HEAP", "lots")
    with pytest.raises(ConfigError, match="KG_HEAP='lots' is not a memory size"):
        config.local_settings()


def test_password_file_is_0600_and_refused_when_open(tmp_path: Path) -> None:
    path = tmp_path / "pw"
    password = config.write_new_password(path)
    assert len(password) >= 24
    assert password[0].isalnum()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert config.read_password(path) == password
    os.chmod(path, 0o644)
    with pytest.raises(ConfigError, match="readable by other users"):
        config.read_password(path)


def test_external_connection_needs_a_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j+s://example.databases.neo4j.io")
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    with pytest.raises(ConfigError, match="NEO4J_PASSWORD is not"):
        config.connection()
    monkeypatch.setenv("NEO4J_PASSWORD", "secret")
    monkeypatch.setenv("NEO4J_DATABASE", "maps")
    conn = config.connection()
    assert (conn.uri, conn.user, conn.database, conn.external) == (
        "neo4j+s://example.databases.neo4j.io",
        "neo4j",
        "maps",
        True,
    )
    assert "secret" not in repr(conn)


def test_local_connection_without_password_file_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.setenv("KG_HOME", str(tmp_path))
    with pytest.raises(ConfigError, match="Run `kg db start`"):
        config.connection()


def test_a_connection_to_a_given_uri_takes_the_credentials_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j://elsewhere:7687")
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    monkeypatch.setenv("NEO4J_USER", "reader")
    with pytest.raises(ConfigError, match="no password to connect to neo4j"):
        config.connection("neo4j://db.example:7687")
    monkeypatch.setenv("KG_HOME", str(tmp_path))
    config.write_new_password(tmp_path / config.PASSWORD_FILE)
    local = config.connection("bolt://127.0.0.1:7999")
    assert (local.uri, local.user) == ("bolt://127.0.0.1:7999", "reader")
    assert local.password == config.read_password(tmp_path / config.PASSWORD_FILE)
    monkeypatch.setenv("NEO4J_PASSWORD", "secret")
    remote = config.connection("neo4j://db.example:7687")
    assert (remote.uri, remote.user, remote.password) == (
        "neo4j://db.example:7687",
        "reader",
        "secret",
    )
