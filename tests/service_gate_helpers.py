"""Helpers of the gate tests (issue 42): tokens, raw sockets, requests and error checks.

Imported by ``tests/service_gate_fixtures.py`` (the servers) and the gate test modules.
"""

from __future__ import annotations

import contextlib
import socket

import httpx
import numpy as np
import psycopg

from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.fairness import SharedBudget

ALICE, BOB, CAROL = "alice-g-token-0123456789", "bob-g-token-0123456789", "carol-g-token-01234567"


MIB = 1024 * 1024


def auth(token: str) -> dict[str, str]:
    """The bearer header of ``token``."""
    return {"Authorization": f"Bearer {token}"}


def gate_tokens() -> TokenRegistry:
    """Alice, Bob and Carol, each an owner of its own."""
    return TokenRegistry(
        [
            (ALICE, Principal("alice"), "t"),
            (BOB, Principal("bob"), "t"),
            (CAROL, Principal("carol"), "t"),
        ]
    )


def json_error(resp: httpx.Response, status: int, code: str) -> dict:
    """The JSON error body of ``resp``, checked for ``status`` and ``code``."""
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json"), resp.headers
    body = resp.json()
    assert body["error"] == code, body
    assert body["message"]
    return body


def rpc_error(resp: httpx.Response, status: int, code: str) -> dict:
    """The JSON-RPC error object of ``resp``, checked for ``status`` and ``code``."""
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/json"), resp.headers
    body = resp.json()
    assert body["jsonrpc"] == "2.0", body
    assert "result" not in body, body
    assert isinstance(body["error"]["code"], int), body
    assert body["error"]["message"], body
    assert body["error"]["data"]["error"] == code, body
    return body


class WatchingProvider(EmbeddingProvider):
    """The real model; records whether the owner's shared slot was held at each embedding."""

    def __init__(self, model: EmbeddingProvider) -> None:
        self.model = model
        self.model_id, self.dimension = model.model_id, model.dimension
        self.batch_size = model.batch_size
        self.url: str | None = None
        self.budget: SharedBudget | None = None
        self.seen: list[int] = []

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        if self.url and self.budget and texts and texts[0].startswith("watched"):
            with psycopg.connect(self.url, autocommit=True) as conn:
                self.seen.append(self.budget.held(conn, "alice"))
        return self.model.embed(texts)


def open_socket(port: int, head: bytes) -> socket.socket:
    """A raw loopback connection to ``port`` that has sent ``head``."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head)
    return sock


def read_all(sock: socket.socket, limit_s: float = 30.0) -> bytes:
    """All the server sends on ``sock`` until it closes (at most ``limit_s`` per read)."""
    sock.settimeout(limit_s)
    out = b""
    with contextlib.suppress(ConnectionResetError, TimeoutError):
        while chunk := sock.recv(65536):
            out += chunk
    return out


def import_note(client: httpx.Client, token: str, tag: str) -> httpx.Response:
    """Import one note tagged ``tag`` as the owner of ``token``."""
    notes = [{"title": f"Note {tag}", "content": f"condenser fan {tag}", "external_id": tag}]
    return client.post("/api/notes/import", json={"notes": notes}, headers=auth(token))


def search_notes(client: httpx.Client, token: str, q: str = "condenser fan") -> httpx.Response:
    """Search ``q`` (3 results) as the owner of ``token``."""
    return client.post("/api/notes/search", params={"q": q, "limit": 3}, headers=auth(token))
