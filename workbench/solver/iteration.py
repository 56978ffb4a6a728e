"""The bookkeeping every iteration loop shares: the stop test, the stop reason, the history.

Newton and Picard record into one :class:`IterationLog`; a strategy that chains them (the
``fallback``) passes the same log along, so iterations, history and the budget are counted
once. Why a run stopped is a :class:`StopReason`, never text to be parsed: the message is for
people, the reason for code.
"""

from __future__ import annotations

import enum
import logging
import time
from dataclasses import dataclass, field

import numpy as np

from workbench.errors import FluidPropertyError

__all__ = ["NUMERIC_FAILURES", "IterationLog", "StopReason"]

NUMERIC_FAILURES: tuple[type[Exception], ...] = (
    FluidPropertyError,
    ValueError,
    ZeroDivisionError,
    OverflowError,
    RuntimeError,
    np.linalg.LinAlgError,
)
"""What a trial evaluation away from the solution may raise (a property outside its range, a
singular matrix, an overflow): a side calculation that meets one gives up, the solve goes on."""

log = logging.getLogger("workbench.solver")


class StopReason(enum.StrEnum):
    """Why a solve stopped (``SolveResult.stop_reason``; the JSON value is the string)."""

    NOT_STARTED = "not_started"
    """No iteration loop ran yet."""
    CONVERGED = "converged"
    """Every scaled residual is below the tolerance."""
    MAX_ITERATIONS = "max_iterations"
    """``solver.max_iterations`` iterations were used (all phases of a strategy together)."""
    TIMEOUT = "timeout"
    """``solver.timeout_ms`` passed."""
    PROPERTY_FAILURE = "property_failure"
    """A fluid property call failed at the start, during a sweep or along every Newton trial."""
    SINGULAR = "singular"
    """The Newton step is not finite (singular Jacobian)."""
    PHYSICALLY_IMPOSSIBLE = "physically_impossible"
    """The equations are satisfied but a physical check failed (see ``SolveResult.problems``)."""


@dataclass
class IterationLog:
    """What the iteration loops of one solve did.

    Attributes
    ----------
    x : ndarray
        Last iterate [SI].
    max_iterations : int
        Iterations allowed to the whole solve (every phase of a strategy together).
    converged : bool
        Whether the largest scaled residual fell below the tolerance.
    iterations : int
        Iterations taken (Newton iterations plus Picard sweeps).
    history : list of float
        Largest scaled residual before each iteration, and at the end.
    reason : StopReason
        Why the last loop stopped.
    message : str
        The same for people, with details.
    methods : list of str
        The loops run, in order (``newton``, ``picard``).
    level : int
        Logging level of the per-iteration lines (INFO when ``solver.verbose``, else DEBUG).
    """

    x: np.ndarray
    max_iterations: int = 100
    converged: bool = False
    iterations: int = 0
    history: list[float] = field(default_factory=list)
    reason: StopReason = StopReason.NOT_STARTED
    message: str = ""
    methods: list[str] = field(default_factory=list)
    level: int = logging.DEBUG
    last: tuple[np.ndarray, np.ndarray] | None = None
    """The last point tested and its scaled residuals (the result reuses them)."""

    @property
    def remaining(self) -> int:
        """Iterations left of the solve's budget."""
        return max(self.max_iterations - self.iterations, 0)

    def stop(self, x: np.ndarray, reason: StopReason, message: str) -> IterationLog:
        """Record that the loop stopped at ``x`` for ``reason``; return self."""
        self.x, self.reason, self.message = x, reason, message
        self.converged = reason is StopReason.CONVERGED
        return self

    def should_stop(
        self, x: np.ndarray, f: np.ndarray, tolerance: float, deadline: float | None, label: str
    ) -> bool:
        """Record the largest scaled residual of ``f``; True when converged or out of time."""
        norm = float(np.max(np.abs(f))) if f.size else 0.0
        self.history.append(norm)
        self.last = (x, f)
        log.log(self.level, "%s %d: max scaled residual %.3e", label, self.iterations, norm)
        if norm < tolerance:
            self.stop(x, StopReason.CONVERGED, "converged")
            return True
        if deadline is not None and time.perf_counter() > deadline:
            self.stop(x, StopReason.TIMEOUT, "timeout_ms reached")
            return True
        return False

    def finish(self, x: np.ndarray, f: np.ndarray | None, tolerance: float) -> IterationLog:
        """Close a loop that used up its iterations at ``x`` with residuals ``f``."""
        self.history.append(float(np.max(np.abs(f))) if f is not None and f.size else float("inf"))
        if self.history[-1] < tolerance:
            return self.stop(x, StopReason.CONVERGED, "converged")
        return self.stop(
            x,
            StopReason.MAX_ITERATIONS,
            f"max_iterations ({self.max_iterations}) reached",
        )
