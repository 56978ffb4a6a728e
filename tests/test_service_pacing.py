"""Refused bodies are paid for in time (issue 42, the hostile tenant's junk bodies).

:class:`~workbench.notes.service.pacing.DrainBudget` on a clock of the test's own, then the
gate itself as an ASGI application: a sender without a token that keeps pushing bodies waits,
before its next body is read, while an owner's request passes the gate meanwhile (shown by the
order of events, not by timing).
"""

from __future__ import annotations

import anyio
import pytest

from workbench.notes.service.auth import Principal, TokenRegistry
from workbench.notes.service.gate import DRAIN_BYTES, Gate
from workbench.notes.service.pacing import REFUSAL_BYTES, DrainBudget
from workbench.notes.service.settings import ServiceSettings

MIB = 1024 * 1024
ALICE = "alice-pace-token-0123456789"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_service_drain_budget_makes_a_sender_over_it_wait() -> None:
    clock = Clock()
    budget = DrainBudget(rate=MIB, burst=4 * MIB, clock=clock)
    for _ in range(4):  # the burst: four refused MiB answered at once
        assert budget.wait_s(None) == 0.0
        budget.charge(None, MIB)
    assert budget.wait_s(None) == 0.0  # at zero, not yet owing
    budget.charge(None, MIB)
    assert budget.wait_s(None) == pytest.approx(1.0)  # owes 1 MiB at 1 MiB/s
    clock.now += 0.5
    assert budget.wait_s(None) == pytest.approx(0.5)
    # another sender (an owner) has a budget of its own
    assert budget.wait_s("alice") == 0.0
    clock.now += 0.5
    assert budget.wait_s(None) == 0.0
    # a refusal without a body still costs REFUSAL_BYTES; the level never rises over the burst
    budget.charge("bob", 0)
    assert budget.level("bob") == pytest.approx(4 * MIB - REFUSAL_BYTES)
    clock.now += 3600
    assert budget.level("bob") == pytest.approx(4 * MIB)


def test_service_drain_budget_bounds_the_waits() -> None:
    clock = Clock()
    budget = DrainBudget(rate=MIB, burst=MIB, max_wait_s=2.0, max_held=1, clock=clock)
    budget.charge(None, 11 * MIB)  # owes 10 MiB: 10 s, but a refusal waits at most 2 s
    assert budget.wait_s(None) == 2.0
    budget.held = 1  # one refusal waits already: the next is answered at once, reading nothing
    assert budget.wait_s(None) is None
    assert budget.wait_s("alice") == 0.0  # within its budget, an owner never waits


def _scope(path: str, token: str | None, length: int) -> dict:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(length).encode())]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return {
        "type": "http",
        "method": "POST",
        "path": path,
        "headers": headers,
        "query_string": b"",
    }


@pytest.mark.anyio
async def test_service_gate_makes_a_junk_sender_wait_while_an_owner_passes() -> None:
    events: list[str] = []

    async def app(scope, receive, send) -> None:  # what a passed request reaches
        events.append(f"app {scope['path']}")
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    registry = TokenRegistry([(ALICE, Principal("alice"), "t")])
    gate = Gate(app, ServiceSettings(database_url="postgresql://x@/y"), lambda scope: registry)
    gate.drains = DrainBudget(rate=8 * MIB, burst=MIB, max_wait_s=5.0)

    def junk(name: str):
        sent = 0

        async def receive() -> dict:
            nonlocal sent
            events.append(f"{name} read")
            sent += 256 * 1024
            return {"type": "http.request", "body": b"x" * 256 * 1024, "more_body": True}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                events.append(f"{name} {message['status']}")

        return receive, send

    # the first junk body is read (1 MiB and a piece) and answered 401 at once ...
    receive, send = junk("junk1")
    await gate(_scope("/api/notes/import", None, 16 * MIB), receive, send)
    assert events[-1] == "junk1 401"
    assert events.count("junk1 read") == DRAIN_BYTES // (256 * 1024) + 1
    assert gate.drains.level(None) < 0  # the sender owes its budget now
    events.clear()

    async def owner() -> None:
        body = iter([{"type": "http.request", "body": b"", "more_body": False}])

        async def receive() -> dict:
            return next(body)

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                events.append(f"alice {message['status']}")

        await gate(_scope("/api/notes/search", ALICE, 0), receive, send)

    # ... the second waits for the budget before any of its body is read; the owner's request
    # passes the gate meanwhile
    async with anyio.create_task_group() as tg:
        receive, send = junk("junk2")
        tg.start_soon(gate, _scope("/api/notes/import", None, 16 * MIB), receive, send)
        await anyio.sleep(0)
        assert gate.drains.held == 1
        assert "junk2 read" not in events
        await owner()
        assert events == ["app /api/notes/search", "alice 200"]
    assert events[2] == "junk2 read"
    assert events[-1] == "junk2 401"
    assert gate.drains.held == 0
