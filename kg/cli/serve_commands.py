"""`kg serve`: the local, read-only web view of the map."""

from __future__ import annotations

import click

from kg.cli.app import main
from kg.web import DEFAULT_HOST, DEFAULT_PORT


@main.command("serve")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to listen on.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
def serve(host: str, port: int) -> None:
    """Serve the map as a read-only web app: search, paper pages, co-citation and coupling
    with their reasons, author and category pages, and a graph view.

    It listens on 127.0.0.1 unless --host says otherwise, and reads the same server as every
    other command. Example: kg serve --port 8765, then open http://127.0.0.1:8765/
    """
    import uvicorn

    from kg.web import create_app

    click.echo(f"the map: http://{host}:{port}/  (read-only; Ctrl-C stops it)")
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
