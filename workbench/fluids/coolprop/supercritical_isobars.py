"""Remembered supercritical states by isobar, for Newton starts next to a new state.

Read by :mod:`workbench.fluids.coolprop.supercritical`. Most supercritical states a solve asks for lie
on an isobar it has visited already, next to states found there: a gas cooler's temperature
table steps along its isobar, the fine profile of a solved exchanger samples it, a Jacobian
column moves one state along it. :class:`IsobarAnchors` keeps the states of the last
:data:`ISOBARS_KEPT` pressures (exactly equal pressures: one isobar) sorted along the isobar,
so that the two states around a new one are found by bisection (about a microsecond, where
a scan through every remembered state costs up to 50), and the Newton iteration starts from
the cubic through both (values and slopes along the isobar, :func:`hermite`): between two
states a few kJ/kg apart the start is off by 1e-6 where the first-order move from one of them
is off by 1e-3, which saves one or two (rho, T) updates of the iteration.
"""

from __future__ import annotations

import bisect

__all__ = [
    "ISOBARS_KEPT",
    "ISOBAR_STATES",
    "SPAN_REACH",
    "IsobarAnchors",
    "SuperState",
    "hermite",
]

SuperState = tuple[float, float, float, float, float, float]
"""A state above the critical pressure Newton may start from: p, h, T, rho, (dT/dh)_p and
(drho/dh)_p (a first-order start along the isobar)."""

ISOBARS_KEPT = 12
"""Isobars whose states are kept (the oldest started goes)."""

ISOBAR_STATES = 256
"""States one isobar keeps at most (beyond, it starts again from the newest)."""

SPAN_REACH = 4.0
"""A second state farther from the nearest one than this many times the distance to the new
state is not used for the cubic start [-] (extrapolating far is worse than the first order)."""


def hermite(x: float, x0: float, x1: float, y0: float, y1: float, s0: float, s1: float) -> float:
    """The cubic through ``(x0, y0)`` and ``(x1, y1)`` with slopes ``s0``, ``s1``, at ``x``."""
    span = x1 - x0
    u = (x - x0) / span
    u2 = u * u
    u3 = u2 * u
    return (
        (2.0 * u3 - 3.0 * u2 + 1.0) * y0
        + (u3 - 2.0 * u2 + u) * span * s0
        + (3.0 * u2 - 2.0 * u3) * y1
        + (u3 - u2) * span * s1
    )


class IsobarAnchors:
    """Supercritical states by exact pressure, each isobar's sorted by enthalpy."""

    def __init__(self) -> None:
        # per pressure: the enthalpies (sorted), the temperatures in the same order and the states
        self._h: dict[float, list[float]] = {}
        self._t: dict[float, list[float]] = {}
        self._states: dict[float, list[SuperState]] = {}

    def add(self, state: SuperState) -> None:
        """Keep ``state`` on its isobar (replacing one at the same enthalpy)."""
        p, h = state[0], state[1]
        hs = self._h.get(p)
        if hs is None or len(hs) >= ISOBAR_STATES:
            if hs is None and len(self._h) >= ISOBARS_KEPT:
                oldest = next(iter(self._h))
                del self._h[oldest], self._t[oldest], self._states[oldest]
            hs = self._h[p] = []
            self._t[p] = []
            self._states[p] = []
        ts, states = self._t[p], self._states[p]
        i = bisect.bisect_left(hs, h)
        if i < len(hs) and hs[i] == h:
            states[i] = state
            ts[i] = state[2]
            return
        hs.insert(i, h)
        ts.insert(i, state[2])
        states.insert(i, state)

    def around(
        self, p: float, x: float, by_t: bool, reach: float
    ) -> tuple[SuperState, SuperState | None] | None:
        """The nearest state on the isobar ``p`` to ``x`` and a second one for a cubic start.

        Parameters
        ----------
        p : float
            Pressure [Pa] (exactly that of the kept states).
        x : float
            Enthalpy [J/kg], or temperature [K] when ``by_t``.
        by_t : bool
            ``x`` is a temperature.
        reach : float
            The nearest state must be within this share [-] of its own enthalpy (for a
            temperature the enthalpy distance to first order, ``(T - T0) / (dT/dh)_p``).

        Returns
        -------
        tuple or None
            The nearest state and the second (of the neighbour on the other side and the next
            state on the same side, the one nearer to ``x``, within :data:`SPAN_REACH` times
            the distance from the nearest; None when there is none); None when the isobar
            holds no state within ``reach``.
        """
        keys = (self._t if by_t else self._h).get(p)
        if not keys:
            return None
        states = self._states[p]
        i = bisect.bisect_left(keys, x)
        n = len(keys)
        below = states[i - 1] if i > 0 else None
        above = states[i] if i < n else None
        k = 2 if by_t else 1
        if below is None or (above is not None and above[k] - x < x - below[k]):
            near, other, j = above, below, i + 1
        else:
            near, other, j = below, above, i - 2
        if near is None:
            return None
        gap = abs(x - near[k])
        if by_t:
            if not near[4] > 0.0:
                return None
            gap /= near[4]
        if gap > reach * max(abs(near[1]), 1.0):
            return None
        # the second: of the neighbour on the other side and the next state on this side, the
        # one nearer to x, within SPAN_REACH times the distance from the nearest
        reach_x = SPAN_REACH * abs(x - near[k])
        second = None
        for cand in (other, states[j] if 0 <= j < n else None):
            if (
                cand is not None
                and cand[4] > 0.0
                and 0.0 < abs(cand[k] - near[k]) <= reach_x
                and (second is None or abs(cand[k] - x) < abs(second[k] - x))
            ):
                second = cand
        return near, second
