"""The embedding provider interface and the one place that turns vectors into SQL literals.

Every stored embedding has :data:`STORE_DIMENSION` (1536) components, the width of the
contract's ``vector(1536)`` column. A model with fewer native dimensions is zero-padded: the
padding changes neither dot products nor norms, so cosine distances between two padded vectors
equal those between the native ones. Longer vectors are refused.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

import numpy as np

from workbench.errors import EmbeddingError

__all__ = [
    "CONTENT_HASH_SQL",
    "STORE_DIMENSION",
    "EmbeddingProvider",
    "check_dimension",
    "content_hash",
    "embedding_text",
    "pad_to_store",
    "to_vector_literal",
]

STORE_DIMENSION = 1536
"""Width of the stored vectors [components]."""

ProgressCallback = Callable[[int], None]


def embedding_text(title: str | None, content: str | None) -> str:
    """The text a note's embedding is made from: title and content on separate lines."""
    return f"{title or ''}\n{content or ''}".strip()


def content_hash(title: str | None, content: str | None) -> str:
    """sha256 (hex) of a note's title and content; equals :data:`CONTENT_HASH_SQL` in SQL."""
    raw = f"{title or ''}\n{content or ''}".encode()
    return hashlib.sha256(raw).hexdigest()


CONTENT_HASH_SQL = (
    "encode(sha256(convert_to(coalesce({alias}.\"title\", '') || E'\\n' || "
    "coalesce({alias}.\"content\", ''), 'UTF8')), 'hex')"
)
"""SQL expression of :func:`content_hash` for a ``"Note"`` row aliased ``{alias}``."""


def pad_to_store(vector: Sequence[float] | np.ndarray, *, source: str = "embedding") -> np.ndarray:
    """Check one vector and zero-pad it to :data:`STORE_DIMENSION`.

    Parameters
    ----------
    vector : sequence of float
        Native embedding [-].
    source : str
        Named in error messages (a note id or a provider).

    Raises
    ------
    EmbeddingError
        Not one-dimensional, empty, longer than 1536, holding NaN or infinity, or all zero.
    """
    arr = np.asarray(vector, dtype=np.float32)
    if arr.ndim != 1 or arr.size == 0:
        raise EmbeddingError(f"{source}: expected a non-empty 1-D vector, got shape {arr.shape}")
    if arr.size > STORE_DIMENSION:
        raise EmbeddingError(
            f"{source}: {arr.size} dimensions is more than the {STORE_DIMENSION} the store holds"
        )
    if not np.all(np.isfinite(arr)):
        raise EmbeddingError(f"{source}: the vector holds NaN or infinite values")
    if not np.any(arr):
        raise EmbeddingError(
            f"{source}: the vector is all zeros (no direction for cosine distance)"
        )
    if arr.size < STORE_DIMENSION:
        arr = np.concatenate([arr, np.zeros(STORE_DIMENSION - arr.size, dtype=np.float32)])
    return arr


def to_vector_literal(vector: Sequence[float] | np.ndarray, *, source: str = "embedding") -> str:
    """The pgvector text literal (``'[0.1,0.2,...]'``) of a vector padded to 1536 dimensions.

    This is the only function that writes vectors for SQL: query parameters (cast with
    ``::vector``) and COPY rows both use it. Values are written with 9 significant digits, which
    round-trips single precision exactly.
    """
    arr = pad_to_store(vector, source=source)
    native = int(np.flatnonzero(arr)[-1]) + 1 if arr.size else 0
    body = ",".join(f"{x:.9g}" for x in arr[:native].tolist())
    zeros = ",0" * (STORE_DIMENSION - native)
    return f"[{body}{zeros}]"


class EmbeddingProvider(ABC):
    """Turns texts into unit-length vectors.

    Subclasses set :attr:`model_id` (recorded on every stored row; search only compares rows
    of the configured model) and :attr:`dimension` (native width, at most 1536), and implement
    :meth:`_embed_batch`.
    """

    model_id: str
    """Name recorded with every embedding, e.g. ``local/all-MiniLM-L6-v2-onnx-int8``."""
    dimension: int
    """Native dimension of the model [components]."""
    batch_size: int = 32
    """Texts per call of :meth:`_embed_batch`."""

    @abstractmethod
    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        """Embed one batch; returns an array of shape (len(texts), dimension)."""

    def embed(
        self, texts: Sequence[str], *, progress: ProgressCallback | None = None
    ) -> np.ndarray:
        """Embed texts in batches of :attr:`batch_size`.

        Parameters
        ----------
        texts : sequence of str
            Texts to embed.
        progress : callable, optional
            Called with the number of texts done after each batch (for a tqdm bar).

        Returns
        -------
        numpy.ndarray
            Shape (len(texts), :attr:`dimension`), float32, rows of unit length [-].

        Raises
        ------
        EmbeddingError
            If the provider fails or returns vectors of the wrong shape or non-finite values.
        """
        texts = list(texts)
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(texts), self.batch_size):
            chunk = texts[start : start + self.batch_size]
            vecs = np.asarray(self._embed_batch(chunk), dtype=np.float32)
            if vecs.shape != (len(chunk), self.dimension):
                raise EmbeddingError(
                    f"{self.model_id}: returned shape {vecs.shape} for {len(chunk)} texts, "
                    f"expected ({len(chunk)}, {self.dimension})"
                )
            if not np.all(np.isfinite(vecs)):
                raise EmbeddingError(f"{self.model_id}: returned NaN or infinite values")
            out[start : start + len(chunk)] = vecs
            if progress is not None:
                progress(len(chunk))
        return out

    def embed_one(self, text: str) -> np.ndarray:
        """Embed a single text (a search query); shape (dimension,)."""
        return self.embed([text])[0]

    def __repr__(self) -> str:
        """The provider's class, model id and dimension."""
        return f"{type(self).__name__}(model_id={self.model_id!r}, dimension={self.dimension})"


def check_dimension(dimension: int, model_id: str) -> int:
    """A provider's vector dimension, checked against the store's width.

    Parameters
    ----------
    dimension : int
        Length of the provider's vectors [-].
    model_id : str
        The model, for the message.

    Returns
    -------
    int
        ``dimension``, unchanged.

    Raises
    ------
    EmbeddingError
        ``dimension`` is outside ``1..STORE_DIMENSION``: vectors are zero-padded to the store's
        width, so a longer one cannot be stored.
    """
    if not 1 <= dimension <= STORE_DIMENSION:
        raise EmbeddingError(
            f"{model_id}: dimension {dimension} is outside 1..{STORE_DIMENSION} (the store's width)"
        )
    return dimension
