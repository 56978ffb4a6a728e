"""Dependencies shared by the routers: the services, the caller, a pooled connection.

:data:`CallerDep` also holds one of the caller's database slots for the request
(:class:`~.fairness.OwnerSlots`): an owner's requests beyond its share wait for its own earlier
ones, in the event loop, before they take a worker thread or a connection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from typing import Annotated

import psycopg
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from workbench.notes.service import timing
from workbench.notes.service.auth import Principal
from workbench.notes.service.errors import ApiError
from workbench.notes.service.services import Services

__all__ = [
    "AdminDep",
    "CallerDep",
    "ConnectionDep",
    "PrincipalDep",
    "ServicesDep",
    "bearer_scheme",
    "get_caller",
    "get_connection",
    "get_principal",
    "get_services",
    "require_admin",
]

bearer_scheme = HTTPBearer(
    auto_error=False,
    description="A token of WORKBENCH_API_TOKENS, WORKBENCH_ADMIN_TOKEN or the tokens file.",
)
_CHALLENGE = {"WWW-Authenticate": "Bearer"}


async def get_services(request: Request) -> Services:
    """The running services (503 while the server is starting or stopping)."""
    services = getattr(request.app.state, "services", None)
    if services is None or services.closed:
        raise ApiError(503, "starting", "the service is starting or stopping; retry shortly")
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


async def get_principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
    services: ServicesDep,
) -> Principal:
    """The caller of the bearer token (401 when it is missing or unknown).

    The gate (:mod:`.gate`) has looked the token up already; its principal is taken from the
    request's state.
    """
    found = getattr(request.state, "principal", None)
    if isinstance(found, Principal):
        return found
    if credentials is None or not credentials.credentials:
        raise ApiError(
            401,
            "unauthorized",
            "missing bearer token: send 'Authorization: Bearer <token>'",
            headers=_CHALLENGE,
        )
    principal = services.tokens.lookup(credentials.credentials)
    if principal is None:
        raise ApiError(
            401,
            "unauthorized",
            "unknown bearer token",
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    return principal


PrincipalDep = Annotated[Principal, Depends(get_principal)]
"""The caller, holding none of its owner's slots (writes take them for their transaction)."""


async def get_caller(principal: PrincipalDep, services: ServicesDep) -> AsyncIterator[Principal]:
    """The caller, holding one of its owner's slots until the route's function returns."""
    async with AsyncExitStack() as stack:
        with timing.phase("slot"):
            await stack.enter_async_context(services.slots.slot(principal.owner))
        yield principal


CallerDep = Annotated[Principal, Depends(get_caller, scope="function")]
"""The caller holding one of its owner's slots while the route's function runs.

The slot (and :data:`ConnectionDep`'s connection) is released when the function returns, before
the answer is sent: a client that reads its answer slowly holds its owner's admission of the
gate (:mod:`.gate`), not a database slot or a pooled connection."""


def require_admin(principal: CallerDep) -> Principal:
    """The caller, if it holds the administrator token (403 otherwise)."""
    if not principal.admin:
        raise ApiError(
            403, "forbidden", f"owner {principal.owner!r} is not an administrator of this service"
        )
    return principal


AdminDep = Annotated[Principal, Depends(require_admin)]


def get_connection(services: ServicesDep, principal: CallerDep) -> Iterator[psycopg.Connection]:
    """A pooled autocommit connection for one request, holding one of the caller's slots.

    The slot is the owner's share over every process on the database
    (:class:`~.fairness.SharedBudget`); the owner counts as present (:mod:`.presence`).
    """
    if services.presence is not None:
        services.presence.seen(principal.owner)
    with services.pool.connection() as conn, services.budget.hold(conn, principal.owner):
        yield conn


ConnectionDep = Annotated[psycopg.Connection, Depends(get_connection, scope="function")]
