"""Bounded, low-priority embedding of writes (issue 28, items 1 and 8).

The local model tokenizes only a bounded prefix of a long text and still gets the whole text's
256 tokens; the background embedder gives the same vectors as the model in a worker process at
nice 10, whose onnxruntime threads are at nice 10 too, while the caller's thread stays at 0.
"""

from __future__ import annotations

import os
import random
import signal
import threading

import numpy as np
import pytest

from workbench.notes.service.embedder import BackgroundEmbedder, thread_nice

pytest_plugins = ["notes_fixtures"]
linux_only = pytest.mark.skipif(os.uname().sysname != "Linux", reason="per-thread nice is Linux")


def test_notes_long_text_tokens_are_the_whole_texts(minilm) -> None:
    rng = random.Random(28)
    words = [
        "the",
        "condenser",
        "fouling",
        "raised",
        "discharge",
        "pressure",
        "2.5",
        "bar;",
        "R-290",
        "(propane)",
        "café",
        "naïve",
        "évaporateur,",
        "x=3.14/2",
        "superheat!!",
        "日本語",
    ]
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 9000))) for _ in range(10)]
    texts += [
        "a" * 10_000,  # one giant word: no place to cut
        "a," * 5_000,  # a token per character
        " " * 9_000 + "word",  # the prefix holds no token at all
        "x " * 300 + " " * 70_000 + "tail words here",
        "short",
        " ",
    ]
    whole = minilm._tokenizer.encode_batch(texts)
    bounded = minilm._encode(texts)
    for text, a, b in zip(texts, whole, bounded, strict=True):
        assert a.ids == b.ids, text[:40]
        assert a.attention_mask == b.attention_mask


@linux_only
def test_service_background_embedder_same_vectors_at_nice_10(minilm) -> None:
    texts = [f"compressor log {i}: oil return in the riser " * (1 + 50 * i) for i in range(9)]
    embedder = BackgroundEmbedder(minilm, workers=1, batch_size=4, nice=10)
    try:
        got = embedder.embed(texts)
        pid, nice = embedder.worker_nice()
        assert pid != os.getpid()  # a worker process: its own interpreter and lock
        assert len(nice) > 1  # its main thread and onnxruntime's
        assert set(nice.values()) == {10}, nice
        assert thread_nice() == 0  # the caller keeps its priority
        assert thread_nice(threading.main_thread().native_id) == 0
        # a worker that dies is replaced; the batch is embedded by the new one
        os.kill(pid, signal.SIGKILL)
        again = embedder.embed(texts[:2])
        assert embedder.worker_nice()[0] != pid
    finally:
        embedder.close()
    want = minilm.embed(texts)
    assert got.shape == (9, 384)
    np.testing.assert_allclose(got, want, atol=2e-5)
    np.testing.assert_allclose(again, want[:2], atol=2e-5)
    assert embedder.model_id == minilm.model_id
    assert embedder.dimension == minilm.dimension
