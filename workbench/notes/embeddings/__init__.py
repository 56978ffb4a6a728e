"""Embedding providers: a local offline MiniLM model, OpenAI-compatible HTTP and Ollama.

The local model is imported lazily (onnxruntime loads only when it is used).
"""

from __future__ import annotations

from typing import Any

from workbench.notes.embeddings.base import (
    CONTENT_HASH_SQL,
    STORE_DIMENSION,
    EmbeddingProvider,
    content_hash,
    embedding_text,
    pad_to_store,
    to_vector_literal,
)
from workbench.notes.embeddings.config import (
    PROVIDERS,
    get_provider,
    provider_from_env,
)
from workbench.notes.embeddings.http import OllamaProvider, OpenAICompatibleProvider

__all__ = [
    "CONTENT_HASH_SQL",
    "MINILM_MODEL_ID",
    "PROVIDERS",
    "STORE_DIMENSION",
    "EmbeddingProvider",
    "LocalMiniLMProvider",
    "OllamaProvider",
    "OpenAICompatibleProvider",
    "content_hash",
    "embedding_text",
    "get_provider",
    "pad_to_store",
    "provider_from_env",
    "to_vector_literal",
]


def __getattr__(name: str) -> Any:
    if name in ("LocalMiniLMProvider", "MINILM_MODEL_ID"):
        from workbench.notes.embeddings import local

        return getattr(local, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
