"""`kg serve`'s app on a real socket, for the tests that drive it from a browser."""

from __future__ import annotations

import contextlib
import socket
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


class Relay:
    """A TCP relay on a free loopback port to ``host:port``, which ``cut`` closes with every
    connection through it: a server that goes away under a client that reached it."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # cut
            upstream = socket.create_connection(self.target)
            self.open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        # shutdown wakes the thread blocked in accept (a close alone would leave the
        # listening socket open until that accept returned)
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for end in self.open:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
