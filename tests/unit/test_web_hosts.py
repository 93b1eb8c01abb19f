"""The Host header `kg serve` reads (kg.web.hosts): the host a header names, and an allowed
host given as --host or --allow-host spelled as a header names it."""

from __future__ import annotations

import pytest

from kg.web.hosts import host_name, requested_host


@pytest.mark.parametrize(
    ("header", "host"),
    [
        ("127.0.0.1:8765", "127.0.0.1"),
        ("localhost", "localhost"),
        ("LocalHost.:80", "localhost"),
        ("[::1]:8765", "[::1]"),
        ("[0:0::1]", "[::1]"),
        ("evil.example.com", "evil.example.com"),
        ("evil.example.com:8765", "evil.example.com"),
        ("evil:port", ""),
        ("[::1", ""),
        ("::1", ""),
        ("", ""),
    ],
)
def test_the_host_a_header_names(header: str, host: str) -> None:
    assert requested_host(header) == host


@pytest.mark.parametrize(
    ("given", "name"),
    [("::1", "[::1]"), ("[::1]", "[::1]"), ("127.0.0.1", "127.0.0.1"), ("Map.LAN", "map.lan")],
)
def test_an_allowed_host_as_a_header_names_it(given: str, name: str) -> None:
    assert host_name(given) == name
