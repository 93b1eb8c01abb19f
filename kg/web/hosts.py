"""The host names `kg serve` answers for, as Django's ALLOWED_HOSTS and Jupyter do.

A web page on any site can make the browser that shows it ask a name it controls, which its
DNS then points at 127.0.0.1 (DNS rebinding): the browser counts that as the page's own site
and lets the page read the answer. The request still names the page's site in its Host
header, so a server that answers only for the names it is reached by locally refuses it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Final

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["ANY_HOST", "LOOPBACK_HOSTS", "KnownHosts", "host_name", "requested_host"]

LOOPBACK_HOSTS: Final = ("localhost", "127.0.0.1", "[::1]")
"""The names of this machine a browser on it uses: always answered."""
ANY_HOST: Final = "*"
"""An allowed host that answers for every name (Django's ``ALLOWED_HOSTS = ['*']``)."""


def host_name(host: str) -> str:
    """Return ``host`` (a name or an address, as --host or --allow-host give it) as a Host
    header names it: lower case, no final dot, an IPv6 address in brackets."""
    name = host.strip().lower().removesuffix(".")
    if ":" not in name:
        return name
    try:
        return f"[{ipaddress.IPv6Address(name.removeprefix('[').removesuffix(']'))}]"
    except ValueError:
        return name


def requested_host(header: str) -> str:
    """Return the host a Host header names, without its port ('' for one that names none)."""
    header = header.strip()
    if header.startswith("["):
        end = header.find("]")
        return host_name(header[: end + 1]) if end > 0 else ""
    name, _colon, port = header.partition(":")
    if ":" in port or (port and not port.isdigit()):
        return ""
    return host_name(name)


class KnownHosts:
    """ASGI middleware: pass on the requests whose Host header names one of ``hosts`` (or
    of LOOPBACK_HOSTS), and answer any other with 400 and a line saying how to allow it."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.hosts = frozenset(host_name(h) for h in (*LOOPBACK_HOSTS, *hosts))
        self.any = ANY_HOST in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.any or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = Headers(scope=scope).get("host", "")
        host = requested_host(header)
        if host and host in self.hosts:
            await self.app(scope, receive, send)
            return
        allowed = ", ".join(sorted(self.hosts))
        response = PlainTextResponse(
            f"kg serve answers requests for {allowed}, not for the host {header!r}: "
            "open the map by one of those names, or start kg serve with --allow-host NAME "
            "to answer for another\n",
            status_code=400,
        )
        await response(scope, receive, send)
