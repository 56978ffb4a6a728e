"""The gas cooler's temperature tables, built once per pressure level and reused.

Read by :mod:`workbench.components.gas_cooler_model`. Above the critical pressure the
refrigerant's temperature along its isobar is tabulated on nodes found by stepping the
*temperature* up from the secondary inlet temperature (the pinch-limit enthalpy ``h_lim =
h(p_out, T_sec,in)``), each step sized by the slope of the last segment so that it spans about
one target enthalpy step ``dh``, and flashing ``h(p, T)`` (every node an exact state); a step
that overshoots by more than :data:`MAX_STEP_OVERSHOOT` target steps (cp rising towards the
pseudo-critical temperature) is halved.

The node sequence depends on the pressure level and the secondary inlet only, not on the
inlet enthalpy: the table for an inlet enthalpy ``h_in`` is the nodes below ``h_in`` and the
inlet node ``(h_in, T(p, h_in))``. So one :class:`IsobarLevel` per pressure level serves every
inlet enthalpy a solve visits there (Newton's iterates at a controlled pressure, the Jacobian's
enthalpy and flow columns, the result tables), extended by further steps when an inlet lies
above its last node. The target step is ``dh = (h_ref - h_lim) / M`` (``M`` =
``profile_segments``) with ``h_ref = h(p_out, T_ref)``, ``T_ref = max(T_sec,in, T_crit) +``
:data:`REFERENCE_SPAN_K`: ``M`` segments span the pseudo-critical bend whatever the inlet, and
the table, hence the model, is a function of the state alone (a warm start meets the same
discretisation as a cold one). The first step is the mean slope of that span times ``dh``.
Pressures within :data:`LEVEL_TOLERANCE` (relative) are one level (a solved pressure differs
from its target by rounding, 1e-5 Pa: the temperatures move by 1e-11 K). The table moves
continuously with ``h_in``: when the inlet passes a node, the segment between them has shrunk
to nothing; and continuously with the pressure (every step is a smooth function of it), so the
Jacobian's pressure column sees the change of the isobar.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict

import numpy as np

from workbench.fluids import FluidBackend

__all__ = [
    "LEVEL_TOLERANCE",
    "MAX_STEP_OVERSHOOT",
    "REFERENCE_SPAN_K",
    "IsobarCurve",
    "IsobarLevel",
    "TableCache",
    "TemperatureTable",
]

MAX_STEP_OVERSHOOT = 1.5
"""A temperature step whose enthalpy step exceeds this many target steps is halved."""

LEVEL_TOLERANCE = 1e-9
"""Pressures this close (relative) share one level's tables."""

REFERENCE_SPAN_K = 60.0
"""``T_ref - max(T_sec,in, T_crit)`` [K]: the span whose enthalpy ``M`` target steps divide."""

LEVELS_KEPT = 8
"""Pressure levels a gas cooler keeps (a solve visits a few: the start, the line search, the
Jacobian's pressure column at each)."""

TABLES_PER_LEVEL = 8
"""Tables (one per inlet state) a level keeps for the Jacobian's columns to revisit."""


class TemperatureTable:
    """Refrigerant temperature on enthalpy nodes at the inlet and outlet pressure.

    Attributes
    ----------
    h : list of float
        Node enthalpies [J/kg], ascending, the last one ``h_in``.
    t_in, t_out : list of float
        Temperature at each node on the inlet and the outlet isobar [K].
    kinks : frozenset of float
        Node enthalpies where the profile has a kink (the saturation points below the
        critical pressure) [J/kg].
    isobaric : bool
        Both temperature lists are equal (no pressure drop).
    """

    def __init__(
        self,
        h: list[float],
        t_in: list[float],
        t_out: list[float],
        kinks: frozenset[float] = frozenset(),
    ) -> None:
        self.h, self.t_in, self.t_out, self.kinks = h, t_in, t_out, kinks
        self.isobaric = t_in is t_out or t_in == t_out
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The nodes as arrays: ``h`` [J/kg], ``t_in`` and ``t_out`` [K] (made once)."""
        if self._arrays is None:
            t_in = np.asarray(self.t_in)
            t_out = t_in if self.isobaric else np.asarray(self.t_out)
            self._arrays = (np.asarray(self.h), t_in, t_out)
        return self._arrays

    def temperature(self, j: int, x: float) -> float:
        """Temperature at node ``j`` at path fraction ``x`` (0: inlet isobar, 1: outlet) [K]."""
        return self.t_in[j] + x * (self.t_out[j] - self.t_in[j])

    def at(self, h: float, x: float) -> float:
        """Temperature at enthalpy ``h`` (linear between nodes) at path fraction ``x`` [K]."""
        nodes = self.h
        j = bisect.bisect_left(nodes, h) - 1
        j = min(max(j, 0), len(nodes) - 2)
        w = (h - nodes[j]) / (nodes[j + 1] - nodes[j])
        return (1.0 - w) * self.temperature(j, x) + w * self.temperature(j + 1, x)


class IsobarCurve:
    """Temperature nodes of one supercritical isobar, stepped up from its cold end on demand.

    Parameters
    ----------
    p : float
        Pressure [Pa].
    cold : tuple of float
        The first node ``(h [J/kg], T [K])``.
    dh : float
        Target enthalpy step [J/kg].
    max_nodes : int
        Nodes the curve may hold at most.
    first_step, min_step : float
        The first temperature step, and the smallest a step is halved to [K].
    """

    def __init__(
        self,
        p: float,
        cold: tuple[float, float],
        dh: float,
        max_nodes: int,
        first_step: float,
        min_step: float,
    ) -> None:
        self.p, self.dh, self.max_nodes = p, dh, max_nodes
        self.h, self.t = [cold[0]], [cold[1]]
        self.min_step = min_step  # a step is not halved below this [K]
        self.step = first_step  # the next temperature step [K]

    def up_to(
        self, fluid: FluidBackend, hot: tuple[float, float]
    ) -> tuple[list[float], list[float]]:
        """Nodes ``(h [J/kg], T [K])`` from the cold end to ``hot = (h, T)``, that one last.

        Steps further up the isobar (``h(p, T)`` flashes) while the next node lies below
        ``hot``; nodes within ``1e-6`` of the temperature span below ``hot`` are left out.
        """
        h_hi, t_hi = hot
        hs, ts = self.h, self.t
        t_lo = ts[0]
        limit = t_hi - 1e-6 * (t_hi - t_lo)
        dh, step, p = self.dh, self.step, self.p
        while ts[-1] + step < limit and len(hs) < self.max_nodes:
            t = ts[-1] + step
            h = float(fluid.h_pT(p, t))
            if h - hs[-1] > MAX_STEP_OVERSHOOT * dh and step > self.min_step:
                step *= 0.5  # cp rose inside the step (towards the pseudo-critical temperature)
                continue
            hs.append(h)
            ts.append(t)
            step = (t - ts[-2]) / (h - hs[-2]) * dh  # the local slope sizes the next step
        self.step = step
        k = bisect.bisect_left(ts, limit)
        return [*hs[:k], h_hi], [*ts[:k], t_hi]


class IsobarLevel:
    """The temperature tables of one pressure level, for any inlet enthalpy.

    Parameters
    ----------
    p_in, dp : float
        Inlet pressure and pressure drop [Pa].
    t_sec : float
        Secondary inlet temperature [K] (the cold end of the outlet isobar).
    segments : int
        Target number of segments ``M``.
    h_lim : float
        Pinch-limit enthalpy ``h(p_out, T_sec,in)`` [J/kg].
    t_in_at_lim : float
        Temperature on the inlet isobar at ``h_lim`` [K] (used with a pressure drop).
    h_ref, t_ref : float
        The reference state ``(h(p_out, T_ref) [J/kg], T_ref [K])`` (module docstring).
    """

    def __init__(
        self,
        p_in: float,
        dp: float,
        t_sec: float,
        segments: int,
        h_lim: float,
        t_in_at_lim: float,
        h_ref: float,
        t_ref: float,
    ) -> None:
        self.p_in, self.dp, self.t_sec, self.segments = p_in, dp, t_sec, segments
        self.h_lim = h_lim
        self.dh: float = (h_ref - h_lim) / segments
        cap = 8 * segments
        min_step = 1e-6 * (t_ref - t_sec)
        self.outlet: IsobarCurve = IsobarCurve(
            p_in - dp,
            (h_lim, t_sec),
            self.dh,
            cap,
            (t_ref - t_sec) / segments,
            min_step,
        )
        self.inlet: IsobarCurve | None = (
            None
            if dp == 0.0
            else IsobarCurve(
                p_in, (h_lim, t_in_at_lim), self.dh, cap, (t_ref - t_in_at_lim) / segments, min_step
            )
        )
        self._tables: OrderedDict[tuple[float, float], TemperatureTable] = OrderedDict()

    def serves(self, p_in: float, dp: float, t_sec: float, segments: int) -> bool:
        """Whether this level's nodes make the table at these inputs (any inlet enthalpy)."""
        if dp != self.dp or t_sec != self.t_sec or segments != self.segments:
            return False
        return abs(p_in - self.p_in) <= LEVEL_TOLERANCE * abs(self.p_in)

    def table(self, fluid: FluidBackend, p_in: float, h_in: float, t_in: float) -> TemperatureTable:
        """The table from ``h_lim`` to the inlet ``(h_in [J/kg], t_in [K])`` at ``p_in`` [Pa].

        Raises
        ------
        FluidPropertyError
            A (p, T) flash failed (right at the critical point).
        """
        key = (p_in, h_in)
        found = self._tables.get(key)
        if found is not None:
            return found
        dp = self.dp
        t_out_at_in = t_in if dp == 0.0 else float(fluid.T_ph(p_in - dp, h_in))
        hs, ts = self.outlet.up_to(fluid, (h_in, t_out_at_in))
        if self.inlet is None:
            table = TemperatureTable(hs, ts, ts)
        else:
            h_curve, t_curve = self.inlet.up_to(fluid, (h_in, t_in))
            nodes = sorted(set(hs) | set(h_curve))
            table = TemperatureTable(
                nodes,
                [float(v) for v in np.interp(nodes, h_curve, t_curve)],
                [float(v) for v in np.interp(nodes, hs, ts)],
            )
        self._tables[key] = table
        if len(self._tables) > TABLES_PER_LEVEL:
            self._tables.popitem(last=False)
        return table


class TableCache:
    """A gas cooler's temperature tables: one :class:`IsobarLevel` per pressure level.

    Below the critical pressure (tables with saturation points) whole tables are kept per
    inlet state in :attr:`tables`. :attr:`levels_built` counts the levels started (each
    steps up its isobars once, however many inlet states it serves).
    """

    def __init__(self) -> None:
        self.levels: list[IsobarLevel] = []
        self.tables: OrderedDict[tuple[float, ...], TemperatureTable] = OrderedDict()
        self.levels_built = 0

    def level(self, p_in: float, dp: float, t_sec: float, segments: int) -> IsobarLevel | None:
        """The kept level that serves these inputs (the newest first), or None."""
        for level in reversed(self.levels):
            if level.serves(p_in, dp, t_sec, segments):
                return level
        return None

    def add(self, level: IsobarLevel) -> IsobarLevel:
        """Keep a new level (the oldest of :data:`LEVELS_KEPT` goes); return it."""
        self.levels.append(level)
        self.levels_built += 1
        if len(self.levels) > LEVELS_KEPT:
            del self.levels[0]
        return level
