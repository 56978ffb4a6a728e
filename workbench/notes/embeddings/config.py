"""Choosing the embedding provider from the environment (a new provider per call, no process-wide one).

=================================  ==========================================================
variable                           meaning
=================================  ==========================================================
``WORKBENCH_EMBEDDING_PROVIDER``   ``local`` (default), ``openai`` or ``ollama``
``WORKBENCH_EMBEDDING_MODEL``      model name for ``openai`` / ``ollama``
``WORKBENCH_EMBEDDING_DIMENSION``  its native width (default 1536 for openai, 768 for ollama)
``WORKBENCH_EMBEDDING_BASE_URL``   API root (default ``https://api.openai.com/v1`` for
                                   openai; ``$OLLAMA_HOST`` or ``http://localhost:11434``
                                   for ollama)
``OLLAMA_HOST``                    Ollama's own variable: its server, the ollama default
``WORKBENCH_EMBEDDING_API_KEY``    bearer token (``OPENAI_API_KEY`` is used when unset)
``WORKBENCH_EMBEDDING_BATCH_SIZE`` texts per request / forward pass
``WORKBENCH_EMBEDDING_TIMEOUT_S``  HTTP timeout [s] (default 60)
``WORKBENCH_EMBEDDING_THREADS``    onnxruntime threads of the local model (default all cores)
=================================  ==========================================================
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from workbench.errors import EmbeddingError
from workbench.notes.embeddings.base import EmbeddingProvider

__all__ = ["PROVIDERS", "get_provider", "provider_from_env"]

PROVIDERS = ("local", "openai", "ollama")
_DEFAULTS = {
    "openai": ("text-embedding-3-small", 1536, "https://api.openai.com/v1"),
    "ollama": ("nomic-embed-text", 768, "http://localhost:11434"),
}


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise EmbeddingError(f"{name}={raw!r} is not an integer") from exc


def provider_from_env(env: Mapping[str, str] | None = None) -> EmbeddingProvider:
    """Build the provider the environment describes (a new instance each call).

    Raises
    ------
    EmbeddingError
        Unknown provider name or a malformed number.
    """
    env = os.environ if env is None else env
    kind = env.get("WORKBENCH_EMBEDDING_PROVIDER", "local").strip().lower() or "local"
    if kind not in PROVIDERS:
        raise EmbeddingError(
            f"WORKBENCH_EMBEDDING_PROVIDER={kind!r} is unknown; use one of {', '.join(PROVIDERS)}"
        )
    if kind == "local":
        from workbench.notes.embeddings.local import LocalMiniLMProvider

        return LocalMiniLMProvider(batch_size=_int(env, "WORKBENCH_EMBEDDING_BATCH_SIZE", 32))
    from workbench.notes.embeddings.http import OllamaProvider, OpenAICompatibleProvider

    model, dimension, base_url = _DEFAULTS[kind]
    if kind == "ollama" and env.get("OLLAMA_HOST", "").strip():
        host = env["OLLAMA_HOST"].strip()
        base_url = host if "://" in host else f"http://{host}"
    timeout_raw = env.get("WORKBENCH_EMBEDDING_TIMEOUT_S", "60")
    try:
        timeout_s = float(timeout_raw)
    except ValueError as exc:
        raise EmbeddingError(
            f"WORKBENCH_EMBEDDING_TIMEOUT_S={timeout_raw!r} is not a number"
        ) from exc
    cls = OpenAICompatibleProvider if kind == "openai" else OllamaProvider
    return cls(
        env.get("WORKBENCH_EMBEDDING_MODEL") or model,
        _int(env, "WORKBENCH_EMBEDDING_DIMENSION", dimension),
        env.get("WORKBENCH_EMBEDDING_BASE_URL") or base_url,
        api_key=env.get("WORKBENCH_EMBEDDING_API_KEY") or env.get("OPENAI_API_KEY"),
        timeout_s=timeout_s,
        batch_size=_int(env, "WORKBENCH_EMBEDDING_BATCH_SIZE", 64),
    )


def get_provider() -> EmbeddingProvider:
    """A new provider built from the environment (same as :func:`provider_from_env`).

    Nothing is cached in the process: whoever needs a provider for more than one call (a server,
    a notebook panel) builds one and passes it to each call (``provider=``); the library
    functions that get none build one for that call.
    """
    return provider_from_env()
