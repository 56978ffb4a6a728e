"""Refused bodies are paid for in time: a sender that keeps pushing them waits for its answers.

The gate (:mod:`.gate`) reads and drops up to ``DRAIN_BYTES`` (1 MiB) of a refused request's
body, so that the client can read its answer (401, 429, 503 ``busy``) instead of a reset
connection. That reading is what a refusal costs the server, and a client that ignores the
answer and sends 16 MiB bodies back to back makes the server read 1 MiB per refusal, as fast as
it can send: the kernel's copies and the event loop's reading take CPU time from every owner's
searches. Measured (``bench_service_load --hostile --attack junk``, 2 cores): two clients without
a token and one with a token pushing 16 MiB bodies got some 75 refusals a second, and another
owner's search p95 rose 2.5 to 4.2 times; its thread waited for a core, not for a slot or a lock
(``embed_runq`` in the ``Server-Timing`` header with ``WORKBENCH_TIMING_SCHED=1``).

:class:`DrainBudget` gives each sender a budget of refused bytes: a token bucket of
:data:`RATE_BYTES` per second, :data:`BURST_BYTES` at once, per owner, and one for all requests
without a known token together (they cannot be told apart). A refusal whose sender is over its
budget waits, before its body is read, until the budget is paid back (at most
:data:`MAX_WAIT_S`); meanwhile its body stays in the kernel's buffers (flow control), so the wait
costs a socket and a timer, and a client sending one body after another is slowed to the
budget. Every refusal costs at least :data:`REFUSAL_BYTES`, so a client calling back to back
over the open rate is slowed too. A client that follows ``Retry-After`` never waits. At most :data:`MAX_HELD` refusals wait at once in a process; beyond that, one over its
budget is answered at once without its body being read (the kernel may reset the connection).
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["BURST_BYTES", "MAX_HELD", "MAX_WAIT_S", "RATE_BYTES", "REFUSAL_BYTES", "DrainBudget"]

RATE_BYTES = 1024 * 1024
"""Refused bytes a sender may have read per second on average [bytes/s]: about one refused
16 MiB junk body a second per sender (4 MiB/s let three junk clients cost another owner's
search p95 up to 2.4x beside the other pacing; 1 MiB/s: 1.3 to 1.9x, 2026-11-28)."""

BURST_BYTES = 16 * 1024 * 1024
"""Refused bytes a sender may have read at once before it waits [bytes]."""

REFUSAL_BYTES = 64 * 1024
"""What a refusal costs its sender's budget at least, with no body [bytes]: a client calling
back to back without reading ``Retry-After`` (a ``/readyz`` flood over the open rate) gets at
most ``RATE_BYTES / REFUSAL_BYTES`` (16) refusals a second answered at once."""

MAX_WAIT_S = 5.0
"""Longest wait of one refusal for its sender's budget [s]."""

MAX_HELD = 64
"""Refusals waiting for their sender's budget at once in a process [-]."""


class DrainBudget:
    """Each sender's budget of refused bytes read (event loop only; module docstring).

    Parameters
    ----------
    rate : float
        Bytes per second a sender's budget refills [bytes/s].
    burst : float
        Most bytes in a sender's budget [bytes].
    max_wait_s : float
        Longest wait of one refusal [s].
    max_held : int
        Refusals waiting at once [-].
    clock : callable, optional
        Monotonic clock [s] (tests give their own).
    """

    def __init__(
        self,
        rate: float = RATE_BYTES,
        burst: float = BURST_BYTES,
        *,
        max_wait_s: float = MAX_WAIT_S,
        max_held: int = MAX_HELD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_wait_s = max_wait_s
        self.max_held = max_held
        self.clock = clock
        self.held = 0
        self._level: dict[str | None, tuple[float, float]] = {}

    def level(self, sender: str | None) -> float:
        """Bytes left in ``sender``'s budget now (negative: owed) [bytes]."""
        level, stamp = self._level.get(sender, (self.burst, self.clock()))
        now = self.clock()
        level = min(self.burst, level + (now - stamp) * self.rate)
        self._level[sender] = (level, now)
        return level

    def wait_s(self, sender: str | None) -> float | None:
        """How long a refusal of ``sender`` waits before its body is read [s].

        ``sender`` is the owner, None without a known token. 0 within the budget; None when the
        sender is over its budget and :data:`MAX_HELD` refusals already wait (then answer at
        once, reading no body).
        """
        level = self.level(sender)
        if level >= 0:
            return 0.0
        if self.held >= self.max_held:
            return None
        return min(self.max_wait_s, -level / self.rate)

    def charge(self, sender: str | None, read: int) -> None:
        """Charge a refusal of ``sender`` that read ``read`` bytes of its body [bytes].

        At least :data:`REFUSAL_BYTES` are taken from the budget.
        """
        level = self.level(sender)
        self._level[sender] = (level - max(read, REFUSAL_BYTES), self.clock())
