"""Helpers shared by the note-search benchmarks.

A throwaway embedded database, a disk cache of embeddings, and the ``docs/benchmarks.md``
section writer.

Run the scripts from the checkout's root as modules (``python -m benchmarks.bench_notes_scale``)
with the package installed (``pip install -e .``); nothing here edits ``sys.path``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psycopg

from benchmarks.bench_docs import BENCHMARKS_MD, machine_line, write_section
from workbench.notes import db
from workbench.notes.embeddings import EmbeddingProvider
from workbench.notes.migrations import migrate

__all__ = [
    "BENCHMARKS_MD",
    "REPO",
    "CachedProvider",
    "bench_database",
    "default_cache_dir",
    "machine_line",
    "write_section",
]

REPO = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def bench_database(keep_home: Path | None = None) -> Iterator[psycopg.Connection]:
    """A migrated database: on ``DATABASE_URL`` if set, else on a throwaway embedded server.

    The connection's ``info.dsn`` is the database's conninfo (for a server started on it).
    """
    if os.environ.get(db.ENV_DATABASE_URL):
        admin = db.with_database(os.environ[db.ENV_DATABASE_URL], "postgres")
        home = None
    else:
        home = keep_home or Path(tempfile.mkdtemp(prefix="wb-bench-"))
        admin = db.with_database(db.start_embedded(home), "postgres")
    name = f"bench_{uuid.uuid4().hex[:10]}"
    url = db.create_database(admin, name)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            migrate(conn)
            yield conn
    finally:
        db.drop_database(admin, name)
        if home is not None and keep_home is None:
            db.stop_embedded(home)
            shutil.rmtree(home, ignore_errors=True)


def default_cache_dir() -> Path:
    """``$WORKBENCH_BENCH_CACHE`` or ``~/.cache/workbench-bench`` (outside the repository)."""
    env = os.environ.get("WORKBENCH_BENCH_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "workbench-bench"


class CachedProvider(EmbeddingProvider):
    """A real model's embeddings, kept in a ``.npz`` file keyed by the sha256 of each text.

    Re-running a benchmark then skips the model for texts it embedded before (the vectors are
    the model's own). ``misses`` counts the texts the model embedded in this run.
    """

    def __init__(self, model: EmbeddingProvider, path: Path) -> None:
        self.model = model
        self.model_id, self.dimension = model.model_id, model.dimension
        self.batch_size = 256
        self.path = path
        self.misses = 0
        self._vectors: dict[str, np.ndarray] = {}
        if path.is_file():
            with np.load(path) as data:
                self._vectors = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        todo = [i for i, k in enumerate(keys) if k not in self._vectors]
        if todo:
            fresh = self.model.embed([texts[i] for i in todo])
            for i, vec in zip(todo, fresh, strict=True):
                self._vectors[keys[i]] = vec
            self.misses += len(todo)
        return np.stack([self._vectors[k] for k in keys])

    def save(self) -> None:
        """Write the cache file (atomically)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp.npz")
        keys = list(self._vectors)
        np.savez(tmp, keys=np.array(keys), vectors=np.stack([self._vectors[k] for k in keys]))
        tmp.replace(self.path)
