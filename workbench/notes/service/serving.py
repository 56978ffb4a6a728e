"""Run an ASGI application with uvicorn in a background thread (tests, benchmarks, notebooks).

::

    with ServerThread(create_app(services), port=free_port()) as server:
        httpx.get(server.url + "/healthz")
"""

from __future__ import annotations

import socket
import threading
import time

import uvicorn

from workbench.errors import NoteStoreError
from workbench.notes.service.protocol import JsonErrorH11Protocol

__all__ = ["ServerThread", "free_port"]


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class ServerThread:
    """uvicorn serving ``app`` on ``host:port`` in a daemon thread, as a context manager.

    Parameters
    ----------
    app : ASGI application
    host : str
        Interface (loopback by default).
    port : int, optional
        Default :func:`free_port`.
    start_timeout_s : float
        How long to wait for the server to accept connections [s].
    """

    def __init__(
        self,
        app,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        start_timeout_s: float = 30.0,
        log_level: str = "warning",
    ) -> None:
        self.host = host
        self.port = port or free_port(host)
        self.start_timeout_s = start_timeout_s
        config = uvicorn.Config(
            app, host=host, port=self.port, log_level=log_level, http=JsonErrorH11Protocol
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="uvicorn", daemon=True)

    @property
    def url(self) -> str:
        """``http://host:port``."""
        return f"http://{self.host}:{self.port}"

    def __enter__(self) -> ServerThread:
        """Start the server thread and wait until it accepts connections.

        Raises
        ------
        NoteStoreError
            The server stopped while starting, or did not start within ``start_timeout_s``.
        """
        self._thread.start()
        deadline = time.monotonic() + self.start_timeout_s
        while not self._server.started:
            if not self._thread.is_alive():
                raise NoteStoreError(f"the server on {self.url} stopped while starting")
            if time.monotonic() > deadline:
                self._server.should_exit = True
                raise NoteStoreError(f"the server on {self.url} did not start in time")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        """Ask the server to exit and wait for its thread (at most 30 s)."""
        self._server.should_exit = True
        self._thread.join(30.0)
