"""Shared fixtures of the note-store tests: a throwaway embedded PostgreSQL and databases.

Import the fixtures into a test module with ``pytest_plugins = ["tests.notes_fixtures"]`` or
``from tests.notes_fixtures import *``. The server lives for the test session in a temporary
``WORKBENCH_HOME`` and is stopped and deleted at the end; every test module (or test) gets its own
database, created empty and dropped afterwards, so no DDL runs at import time.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from workbench.notes import db
from workbench.notes.migrations import migrate

__all__ = [
    "fresh_db_url",
    "make_database",
    "migrated_conn",
    "minilm",
    "module_db_url",
    "pg_admin_url",
]


@pytest.fixture(scope="session")
def pg_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary WORKBENCH_HOME for the session's embedded server."""
    return tmp_path_factory.mktemp("workbench-home")


@pytest.fixture(scope="session")
def pg_admin_url(pg_home: Path) -> Iterator[str]:
    """URL of the ``postgres`` database of a throwaway embedded server (stopped at the end)."""
    url = db.start_embedded(pg_home)
    admin = db.with_database(url, "postgres")
    yield admin
    db.stop_embedded(pg_home)


def make_database(admin_url: str, prefix: str = "t") -> tuple[str, str]:
    """Create an empty database with a unique name; returns (name, conninfo)."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    return name, db.create_database(admin_url, name)


@pytest.fixture
def fresh_db_url(pg_admin_url: str) -> Iterator[str]:
    """An empty database for one test."""
    name, url = make_database(pg_admin_url)
    yield url
    db.drop_database(pg_admin_url, name)


@pytest.fixture(scope="module")
def module_db_url(pg_admin_url: str) -> Iterator[str]:
    """A fully migrated database shared by the tests of one module."""
    name, url = make_database(pg_admin_url, "m")
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
    yield url
    db.drop_database(pg_admin_url, name)


@pytest.fixture
def migrated_conn(pg_admin_url: str) -> Iterator[psycopg.Connection]:
    """An autocommit connection to a fresh, fully migrated database for one test."""
    name, url = make_database(pg_admin_url)
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
        yield conn
    db.drop_database(pg_admin_url, name)


@pytest.fixture(scope="session")
def minilm():
    """The local offline embedding model (loaded once per session, network access forbidden)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from workbench.notes.embeddings import LocalMiniLMProvider

    return LocalMiniLMProvider()
