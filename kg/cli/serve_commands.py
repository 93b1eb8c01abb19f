"""`kg serve`: the local, read-only web view of the map."""

from __future__ import annotations

import errno
import socket

import click

from kg.cli.app import main
from kg.errors import ParameterError, PortInUseError
from kg.knowledge_graph import KnowledgeGraph
from kg.web import DEFAULT_HOST, DEFAULT_PORT


def listen(host: str, port: int) -> socket.socket:
    """Return a socket bound to ``host``:``port``, for the web app to serve on; binding it
    here, before the URL is printed, makes a port in use one `Error:` line instead of
    uvicorn's own message. Raises PortInUseError, or ParameterError for an address this
    machine cannot listen on."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise ParameterError(
            f"cannot listen on {host}: {exc.strerror}",
            "pass --host 127.0.0.1 or an address of this machine",
        ) from exc
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortInUseError(
                f"port {port} on {host} is already in use",
                "stop what listens there, or pass another --port",
            ) from exc
        raise ParameterError(
            f"cannot listen on {host}:{port} ({exc.strerror})",
            "pass --host 127.0.0.1 or an address of this machine, and a --port above 1023",
        ) from exc
    sock.set_inheritable(True)
    return sock


@main.command("serve")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to listen on.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests that name this host (their Host header), for a --host that "
    "others reach by name; repeat it for more. localhost, 127.0.0.1, [::1] and the --host "
    "address are always answered, any other name gets 400. '*' answers every name, which "
    "lets any web page read the map through DNS rebinding.",
)
def serve(host: str, port: int, allow_hosts: tuple[str, ...]) -> None:
    """Serve the map as a read-only web app: search, paper pages, co-citation and coupling
    with their reasons, author and category pages, and a graph view.

    It listens on 127.0.0.1 unless --host says otherwise, and reads the same server as every
    other command. It answers only requests that name it as localhost, 127.0.0.1, [::1], the
    --host address or an --allow-host NAME, so that no web page can read it through DNS
    rebinding. Example: kg serve --port 8765, then open http://127.0.0.1:8765/
    """
    import uvicorn

    from kg.web import create_app

    # The graph and the port are checked before the URL is printed: either failing is one
    # `Error:` line, not a URL followed by a traceback.
    graph = KnowledgeGraph.connect()
    try:
        sock = listen(host, port)
    except BaseException:
        graph.close()
        raise
    with sock:
        click.echo(f"the map: http://{host}:{port}/  (read-only; Ctrl-C stops it)")
        # the app closes the graph when it stops
        app = create_app(lambda: graph, allowed_hosts=(host, *allow_hosts))
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        server.run(sockets=[sock])
