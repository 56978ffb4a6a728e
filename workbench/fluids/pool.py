"""Backends lent to one owner at a time, so that a solve owns what it mutates.

A property backend is not thread-safe (a CoolProp ``AbstractState`` holds the last flash) and
counts its calls. :func:`lease_backend` lends an idle backend of the right fluid to one caller
for the duration of a ``with`` block, or makes a new one when none is idle; nobody else uses
it meanwhile, so threads solving at once each hold their own and never wait for one another.
Backends are returned idle (at most :data:`MAX_IDLE` per fluid); their remembered states stay,
which is harmless: every remembered value is keyed by its exact inputs. Call counts are never
reset by a borrower: a solve reads the difference of :attr:`FluidBackend.stats` over its run.

Making a CoolProp backend costs about as much as a whole cold solve of a four-component cycle
(both measured in docs/benchmarks.md), so reusing idle ones keeps that price off every solve
of a sweep.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from workbench.fluids.base import FluidBackend
from workbench.fluids.names import resolve_backend, resolve_fluid

__all__ = ["MAX_IDLE", "BackendMaker", "BackendPool"]

MAX_IDLE = 8
"""Idle backends kept per (fluid, backend, tabular); more are dropped when returned."""


BackendMaker = Callable[..., FluidBackend]
"""Makes a new backend: called as ``make(fluid, backend, tabular=...)`` (as ``get_backend``)."""


class BackendPool:
    """Idle backends by (fluid, backend, tabular); see the module docstring.

    Parameters
    ----------
    make : callable
        Makes a backend when none is idle (:func:`workbench.fluids.get_backend`).
    max_idle : int
        Idle backends kept per key.
    """

    def __init__(self, make: BackendMaker, max_idle: int = MAX_IDLE) -> None:
        self.make = make
        self.max_idle = max_idle
        self._idle: dict[tuple[str, str, bool], list[FluidBackend]] = {}
        self._lock = threading.Lock()  # held only to take or return one backend

    @contextmanager
    def lease(
        self, fluid: str, backend: str | None = None, *, tabular: bool = False
    ) -> Iterator[FluidBackend]:
        """Lend a backend for ``fluid`` to the ``with`` block (arguments as :func:`get_backend`).

        Raises
        ------
        UnknownFluidError
            Unknown fluid or backend name.
        """
        name = resolve_backend(backend)
        key = (resolve_fluid(fluid, name), name, bool(tabular) and name == "CoolProp")
        with self._lock:
            idle = self._idle.get(key)
            lent = idle.pop() if idle else None
        if lent is None:
            lent = self.make(key[0], key[1], tabular=key[2])
        try:
            yield lent
        finally:
            with self._lock:
                idle = self._idle.setdefault(key, [])
                if len(idle) < self.max_idle:
                    idle.append(lent)
