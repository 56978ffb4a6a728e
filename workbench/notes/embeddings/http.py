"""Embedding providers over HTTP: OpenAI-compatible ``/v1/embeddings`` and Ollama's ``/api/embed``.

The OpenAI-compatible provider also serves Ollama's compatibility endpoint
(``http://localhost:11434/v1``), vLLM, LM Studio and similar servers. Both send a batch of texts
per request (``httpx``) and check every returned vector's width against the configured dimension.
"""

from __future__ import annotations

import httpx
import numpy as np

from workbench.errors import EmbeddingError
from workbench.notes.embeddings.base import EmbeddingProvider, check_dimension

__all__ = ["OllamaProvider", "OpenAICompatibleProvider"]


class _HTTPProvider(EmbeddingProvider):
    prefix = "http"

    def __init__(
        self,
        model: str,
        dimension: int,
        base_url: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        batch_size: int = 64,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.model = model
        self.model_id = f"{self.prefix}/{model}"
        self.dimension = check_dimension(int(dimension), self.model_id)
        self.base_url = base_url.rstrip("/")
        self.batch_size = batch_size
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout_s, headers=headers, transport=transport)

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def _post(self, path: str, payload: dict) -> dict:
        url = f"{self.base_url}{path}"
        try:
            response = self._client.post(url, json=payload)
        except httpx.HTTPError as exc:
            raise EmbeddingError(f"{self.model_id}: request to {url} failed: {exc}") from exc
        if response.status_code != 200:
            raise EmbeddingError(
                f"{self.model_id}: {url} answered {response.status_code}: {response.text[:300]}"
            )
        try:
            return response.json()
        except ValueError as exc:
            raise EmbeddingError(f"{self.model_id}: {url} did not answer JSON") from exc

    def _as_array(self, vectors: object, n: int, url_path: str) -> np.ndarray:
        if not isinstance(vectors, list) or len(vectors) != n:
            got = len(vectors) if isinstance(vectors, list) else type(vectors).__name__
            raise EmbeddingError(
                f"{self.model_id}: {url_path} returned {got} vectors for {n} texts"
            )
        for i, vec in enumerate(vectors):
            if not isinstance(vec, list) or len(vec) != self.dimension:
                width = len(vec) if isinstance(vec, list) else type(vec).__name__
                raise EmbeddingError(
                    f"{self.model_id}: vector {i} has {width} dimensions, expected {self.dimension} "
                    "(set WORKBENCH_EMBEDDING_DIMENSION to the model's width)"
                )
        try:
            arr = np.asarray(vectors, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise EmbeddingError(
                f"{self.model_id}: {url_path} returned non-numeric values"
            ) from exc
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        if np.any(norms == 0):
            raise EmbeddingError(f"{self.model_id}: {url_path} returned an all-zero vector")
        return arr / norms


class OpenAICompatibleProvider(_HTTPProvider):
    """``POST {base_url}/embeddings`` with ``{"model", "input": [...]}`` (OpenAI's API shape).

    Parameters
    ----------
    model : str
        Model name sent to the server (e.g. ``text-embedding-3-small``, ``nomic-embed-text``).
    dimension : int
        Native width the model returns [components], at most 1536.
    base_url : str
        API root including ``/v1``, e.g. ``https://api.openai.com/v1`` or
        ``http://localhost:11434/v1``.
    api_key : str, optional
        Sent as a bearer token.
    """

    prefix = "openai"

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        body = self._post("/embeddings", {"model": self.model, "input": texts})
        data = body.get("data")
        if not isinstance(data, list):
            raise EmbeddingError(f"{self.model_id}: /embeddings answer has no 'data' list")
        try:
            ordered = sorted(data, key=lambda item: item["index"])
            vectors = [item["embedding"] for item in ordered]
        except (KeyError, TypeError) as exc:
            raise EmbeddingError(
                f"{self.model_id}: /embeddings items need 'index' and 'embedding'"
            ) from exc
        return self._as_array(vectors, len(texts), "/embeddings")


class OllamaProvider(_HTTPProvider):
    """Ollama's native ``POST {base_url}/api/embed`` with ``{"model", "input": [...]}``.

    Parameters
    ----------
    model : str
        Ollama model tag, e.g. ``nomic-embed-text`` (768) or ``all-minilm`` (384).
    dimension : int
        Native width [components], at most 1536.
    base_url : str
        Server root, default ``http://localhost:11434``.
    """

    prefix = "ollama"

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        body = self._post("/api/embed", {"model": self.model, "input": texts})
        return self._as_array(body.get("embeddings"), len(texts), "/api/embed")
