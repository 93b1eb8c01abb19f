"""`kg serve`'s app on a real socket, for the tests that drive it from a browser."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from kg.knowledge_graph import KnowledgeGraph
from kg.server.config import Connection
from kg.web import create_app
from tests.conftest import free_port


@contextmanager
def serving(connection: Connection | None = None) -> Iterator[str]:
    """Serve the web app on ``connection``'s graph (else the one NEO4J_* or the local server
    name, as `kg serve`) on a free loopback port, in a thread, and yield its base URL; the
    server stops when the block ends."""
    port = free_port()
    app = create_app(lambda: KnowledgeGraph.connect(connection))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
