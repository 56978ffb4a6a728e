"""Servers and clients of the gate tests (issue 42): a pytest plugin.

``tests/test_service_gate.py`` (who and how big: slow uploads, junk bodies, requests in flight)
and ``tests/test_service_gate_shares.py`` (what an owner may hold: list pages, the budget over
both servers, ``/readyz``, one hand-over per search, the tool server's errors) load it with
``pytest_plugins``; each test module gets its own API and tool server (module scope) on a
throwaway database, with the real query model.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from service_gate_helpers import WatchingProvider, gate_tokens

from workbench.notes.service.app import create_app
from workbench.notes.service.services import Services, start_services
from workbench.notes.service.serving import ServerThread
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.tools import create_tools_app

pytest_plugins = ["notes_fixtures"]


@pytest.fixture(scope="module")
def watcher(minilm) -> WatchingProvider:
    return WatchingProvider(minilm)


@pytest.fixture(scope="module")
def settings(module_db_url: str) -> ServiceSettings:
    return ServiceSettings(
        database_url=module_db_url,
        db_wait_s=10,
        pool_size=8,
        owner_connections=1,
        owner_requests=4,
        max_imports=2,
        owner_imports=1,
        max_writes=2,
        body_timeout_s=2.0,
        ready_interval_s=1.0,
        open_rate=30.0,
    )


@pytest.fixture(scope="module")
def services(settings: ServiceSettings, watcher: WatchingProvider) -> Iterator[Services]:
    running = start_services(settings, gate_tokens(), provider=watcher)
    watcher.url, watcher.budget = settings.database_url, running.budget
    yield running
    running.close()


@pytest.fixture(scope="module")
def server(services: Services) -> Iterator[ServerThread]:
    with ServerThread(create_app(services)) as srv:
        yield srv


@pytest.fixture(scope="module")
def tool_services(settings: ServiceSettings, minilm) -> Iterator[Services]:
    """The tool server's own services: its own pool, as another process would have."""
    running = start_services(settings, gate_tokens(), provider=minilm)
    yield running
    running.close()


@pytest.fixture(scope="module")
def tool_server(tool_services: Services) -> Iterator[ServerThread]:
    with ServerThread(create_tools_app(tool_services)) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(server: ServerThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c
