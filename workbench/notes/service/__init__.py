"""The note search service: an HTTP API (FastAPI) and an MCP tool server, sharing one core.

Needs the ``serve`` extra (``pip install 'thermal-workbench[serve]'``).

==================  ==========================================================================
module              job
==================  ==========================================================================
``app``             the FastAPI application: wires routers, error handlers, lifespan
``routers/``        ``notes`` (search, CRUD, import), ``admin`` (reindex, validate), ``health``
``dependencies``    FastAPI dependencies: services, caller (bearer token), pooled connection
``auth``            tokens from the environment or a tokens file; the first-start local token
``services``        what a running server holds (pool, tokens, jobs) and the shared search call
``jobs``            background reindex jobs with progress, one at a time
``startup``         wait for the database with backoff, migrate, open the pool
``settings``        the service's environment variables
``schemas``         request and response bodies
``errors``          JSON error bodies and the exception-to-status map
``tools``           the MCP tool server (``search_notes`` at ``/mcp``)
``gate``            token, size cap, per-owner admission and body deadline, from the headers
``bodies``          request bodies parsed off the event loop within a memory bound
``transfer``        bodies read within a cap and a deadline, answers sent in paced pieces
``fairness``        each owner's share of the database (per-owner slots)
``embedder``        background embedding of writes in a low-priority worker process
``memory``          giving memory back after large requests (glibc), the import memory bound
``protocol``        uvicorn's h11 protocol answering unparsable requests in JSON
==================  ==========================================================================
"""

from __future__ import annotations

from workbench.notes.service.app import create_app
from workbench.notes.service.auth import Principal, TokenRegistry, load_tokens
from workbench.notes.service.services import Services, start_services
from workbench.notes.service.settings import ServiceSettings
from workbench.notes.service.startup import wait_for_database
from workbench.notes.service.tools import create_tools_app

__all__ = [
    "Principal",
    "ServiceSettings",
    "Services",
    "TokenRegistry",
    "create_app",
    "create_tools_app",
    "load_tokens",
    "start_services",
    "wait_for_database",
]
