"""Helpers shared by the note-search benchmarks: a throwaway embedded database and the
``docs/benchmarks.md`` section writer."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run from a checkout without installing the package
    sys.path.insert(0, str(REPO))

from bench_docs import BENCHMARKS_MD, machine_line, write_section  # noqa: E402, F401

from workbench.notes import db  # noqa: E402
from workbench.notes.migrations import migrate  # noqa: E402


@contextlib.contextmanager
def bench_database(keep_home: Path | None = None) -> Iterator[psycopg.Connection]:
    """A migrated database: on ``DATABASE_URL`` if set, else on a throwaway embedded server."""
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
