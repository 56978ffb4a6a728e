"""The FastAPI application: wires the routers, the error handlers and the lifespan only.

``create_app(services)`` serves already started :class:`~.services.Services` (the ``workbench
serve`` command waits for the database first); ``create_app()`` without them starts them in the
lifespan, for ``uvicorn --factory workbench.notes.service.app:create_app``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from starlette.types import Scope

from workbench.notes.service.auth import TokenRegistry
from workbench.notes.service.errors import install_error_handlers
from workbench.notes.service.gate import Gate
from workbench.notes.service.import_pacing import ImportPacing
from workbench.notes.service.routers import admin, health, notes
from workbench.notes.service.services import Services, start_services
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.timing import ServerTiming

__all__ = ["create_app"]

_DESCRIPTION = """Hybrid keyword + semantic search over engineering notes.

Send `Authorization: Bearer <token>` on every `/api` route. A caller sees and searches only its
own notes; reindex and validate need the administrator token. Errors are JSON:
`{"error": CODE, "message": TEXT}`.

Limits: request bodies up to `WORKBENCH_MAX_BODY_BYTES` for imports (16 MiB by default), 2 MiB
for a create or replace (larger ones answer 413 before they are read), arriving within
`WORKBENCH_BODY_TIMEOUT_S` (408 beyond); each owner's requests in flight, imports and writes are
capped (429); text fields must not hold the NUL character (U+0000) or lone
surrogates, which PostgreSQL cannot store (422). Titles and snippets of search results are
HTML-escaped: the only markup in them is `<b>` around matched words of the snippet."""


def create_app(services: Services | None = None) -> FastAPI:
    """Build the application.

    Parameters
    ----------
    services : Services, optional
        Started services; they are closed when the application stops. None: started (and
        closed) by the application's lifespan from the environment.
    """
    settings = services.settings if services is not None else ServiceSettings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        running = services or await anyio.to_thread.run_sync(start_services, settings)
        app.state.services = running
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(running.close)

    app = FastAPI(
        title="Thermal Workbench note search",
        version="1",
        description=_DESCRIPTION,
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.add_middleware(ServerTiming)  # the whole time in the application
    # outermost: headers only
    app.add_middleware(Gate, settings=settings, tokens=_tokens_of, imports=_imports_of)
    app.include_router(health.router)
    app.include_router(notes.router)
    app.include_router(admin.router)
    return app


def _tokens_of(scope: Scope) -> TokenRegistry | None:
    """The token registry of the running services (None while starting or stopping)."""
    services = getattr(scope["app"].state, "services", None)
    if services is None or services.closed:
        return None
    return services.tokens


def _imports_of(scope: Scope) -> ImportPacing | None:
    """The pacing of imports of the running services (None while starting or stopping)."""
    services = getattr(scope["app"].state, "services", None)
    if services is None or services.closed:
        return None
    pacing: ImportPacing | None = services.imports
    return pacing
