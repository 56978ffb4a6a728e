"""The gas cooler's temperature tables, built once per pressure level and reused.

Read by :mod:`workbench.components.exchangers.gas_cooler.model`. Above the critical pressure the
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

**Pressure tangents.** Every node of an isobaric level (no pressure drop) is a smooth function
of the pressure: ``T_j`` through the step sizes, ``h_j = h(p, T_j)``. Where the backend gives
``cp`` and ``(dh/dp)_T`` with each (p, T) state
(:meth:`~workbench.fluids.coolprop.supercritical.CoolPropSupercritical.h_pT_slopes`, no further
property call), the level carries ``dT_j/dp`` and ``dh_j/dp`` forward through its steps::

    dh_j/dp   = (dh/dp)_T(p, T_j) + cp(p, T_j) dT_j/dp
    dT_j+1/dp = dT_j/dp + d(step_j)/dp,    step_j = (T_j - T_j-1) / (h_j - h_j-1) dh

(the target step ``dh = (h_ref - h_lim) / M`` with its own derivative; a halved step halves
its derivative). A pressure within :data:`SHIFT_REACH` (relative) of a kept level, the
Jacobian's pressure column ``p (1 + 1e-7)`` above all, then gets that level's nodes moved to
first order, ``(h_j + dh_j/dp dp, T_j + dT_j/dp dp)`` (a :class:`~workbench.components.exchangers.gas_cooler.levels.ShiftedLevel`): no
isobar is stepped for it, and the table equals a freshly stepped one to second order in ``dp``
(``tests/test_gas_cooler_tangent.py``: 1e-13 relative at ``1e-7 p``).
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from workbench.fluids import FluidBackend

__all__ = [
    "LEVEL_TOLERANCE",
    "MAX_STEP_OVERSHOOT",
    "REFERENCE_SPAN_K",
    "SHIFT_REACH",
    "IsobarCurve",
    "IsobarLevel",
    "TemperatureTable",
    "keep_table",
    "slopes_of",
]

MAX_STEP_OVERSHOOT = 1.5
"""A temperature step whose enthalpy step exceeds this many target steps is halved."""

LEVEL_TOLERANCE = 1e-9
"""Pressures this close (relative) share one level's tables."""

REFERENCE_SPAN_K = 60.0
"""``T_ref - max(T_sec,in, T_crit)`` [K]: the span whose enthalpy ``M`` target steps divide."""

TABLES_PER_LEVEL = 8
"""Tables (one per inlet state) a level keeps for the Jacobian's columns to revisit."""

SHIFT_REACH = 1e-6
"""A pressure this close (relative) to a kept level with pressure tangents gets its nodes moved
to first order (:class:`ShiftedLevel`) instead of new isobars."""

Slopes = Callable[[float, float], "tuple[float, float, float] | None"]
"""``(p [Pa], T [K]) -> (h [J/kg], cp [J/(kg K)], (dh/dp)_T [J/(kg Pa)])`` or None: a
backend's ``h_pT_slopes`` (CoolProp's HEOS,
:meth:`~workbench.fluids.coolprop.supercritical.CoolPropSupercritical.h_pT_slopes`)."""


def slopes_of(fluid: FluidBackend) -> Slopes | None:
    """The backend's ``h_pT_slopes`` method, or None when it has none."""
    found: Slopes | None = getattr(fluid, "h_pT_slopes", None)
    return found


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
    tangent : tuple of float, optional
        ``(dh_cold/dp, d(dh)/dp)`` [J/(kg Pa)]: the pressure derivatives of the cold end's
        enthalpy (at its fixed temperature) and of the target step; the curve then carries
        every node's ``dh_j/dp`` and ``dT_j/dp`` (module docstring), as long as the backend
        gives the slopes (:attr:`h_p` is None otherwise). ``first_step`` must not depend on
        the pressure.
    """

    def __init__(
        self,
        p: float,
        cold: tuple[float, float],
        dh: float,
        max_nodes: int,
        first_step: float,
        min_step: float,
        tangent: tuple[float, float] | None = None,
    ) -> None:
        self.p, self.dh, self.max_nodes = p, dh, max_nodes
        self.h, self.t = [cold[0]], [cold[1]]
        self.min_step = min_step  # a step is not halved below this [K]
        self.step = first_step  # the next temperature step [K]
        # pressure derivatives of the nodes, the target step and the next step (None: none)
        self.h_p: list[float] | None = None if tangent is None else [tangent[0]]
        self.t_p: list[float] = [0.0]
        self.dh_p = 0.0 if tangent is None else tangent[1]
        self.step_p = 0.0

    def extend(self, fluid: FluidBackend, limit: float, shift: float = 0.0) -> None:
        """Step further up the isobar (``h(p, T)`` flashes) while the next node lies below ``limit``.

        ``shift`` [Pa]: the condition is taken on the nodes moved by ``shift`` to first order
        (a shifted level's curve), so that it sees the nodes a curve stepped at
        ``p + shift`` would have.
        """
        hs, ts, h_ps, t_ps = self.h, self.t, self.h_p, self.t_p
        dh, step, p = self.dh, self.step, self.p
        step_p, dh_p = self.step_p, self.dh_p
        sloped = slopes_of(fluid) if h_ps is not None else None
        while (
            ts[-1] + t_ps[-1] * shift + step + step_p * shift < limit and len(hs) < self.max_nodes
        ):
            t = ts[-1] + step
            if sloped is not None:
                found = sloped(p, t)
                if found is None:
                    sloped, h_ps = None, None
                    self.h_p = None
                    h = float(fluid.h_pT(p, t))
                else:
                    h, cp, h_pt = found
            else:
                h = float(fluid.h_pT(p, t))
            if h - hs[-1] > MAX_STEP_OVERSHOOT * dh and step > self.min_step:
                step *= 0.5  # cp rose inside the step (towards the pseudo-critical temperature)
                step_p *= 0.5
                continue
            hs.append(h)
            ts.append(t)
            span_t, span_h = t - ts[-2], h - hs[-2]
            ratio = span_t / span_h
            if h_ps is not None:
                t_p = t_ps[-1] + step_p
                h_p = h_pt + cp * t_p
                h_ps.append(h_p)
                t_ps.append(t_p)
                ratio_p = (t_p - t_ps[-2] - ratio * (h_p - h_ps[-2])) / span_h
                step_p = ratio_p * dh + ratio * dh_p
            else:
                t_ps.append(0.0)
            step = ratio * dh  # the local slope sizes the next step
        self.step, self.step_p = step, step_p

    def up_to(
        self, fluid: FluidBackend, hot: tuple[float, float]
    ) -> tuple[list[float], list[float]]:
        """Nodes ``(h [J/kg], T [K])`` from the cold end to ``hot = (h, T)``, that one last.

        Steps further up the isobar while the next node lies below ``hot``; nodes within
        ``1e-6`` of the temperature span below ``hot`` are left out.
        """
        h_hi, t_hi = hot
        ts = self.t
        limit = t_hi - 1e-6 * (t_hi - ts[0])
        self.extend(fluid, limit)
        k = bisect.bisect_left(ts, limit)
        return [*self.h[:k], h_hi], [*ts[:k], t_hi]

    def shifted_up_to(
        self, fluid: FluidBackend, hot: tuple[float, float], shift: float
    ) -> tuple[list[float], list[float]] | None:
        """:meth:`up_to` for the isobar at ``p + shift``: the nodes moved to first order.

        None when the curve has no pressure derivatives (:attr:`h_p` is None).
        """
        h_hi, t_hi = hot
        limit = t_hi - 1e-6 * (t_hi - self.t[0])
        self.extend(fluid, limit, shift)
        h_ps = self.h_p
        if h_ps is None:
            return None
        ts = [t + t_p * shift for t, t_p in zip(self.t, self.t_p, strict=True)]
        k = bisect.bisect_left(ts, limit)
        hs = [h + h_p * shift for h, h_p in zip(self.h[:k], h_ps[:k], strict=True)]
        return [*hs, h_hi], [*ts[:k], t_hi]


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
    tangent : tuple of float, optional
        ``(dh_lim/dp, dh_ref/dp)`` [J/(kg Pa)] at their fixed temperatures: the level then
        carries pressure derivatives (without a pressure drop only) and serves nearby
        pressures as a :class:`~workbench.components.exchangers.gas_cooler.levels.ShiftedLevel`.
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
        tangent: tuple[float, float] | None = None,
    ) -> None:
        self.p_in, self.dp, self.t_sec, self.segments = p_in, dp, t_sec, segments
        self.h_lim, self.t_ref = h_lim, t_ref
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
            None
            if tangent is None or dp != 0.0
            else (tangent[0], (tangent[1] - tangent[0]) / segments),
        )
        self.inlet: IsobarCurve | None = (
            None
            if dp == 0.0
            else IsobarCurve(
                p_in, (h_lim, t_in_at_lim), self.dh, cap, (t_ref - t_in_at_lim) / segments, min_step
            )
        )
        self._tables: OrderedDict[tuple[float, float], TemperatureTable] = OrderedDict()

    @classmethod
    def start(
        cls,
        fluid: FluidBackend,
        p_in: float,
        dp: float,
        t_sec: float,
        segments: int,
        h_lim: float,
        t_ref: float,
    ) -> IsobarLevel:
        """A new level: the reference state, the inlet isobar's cold end and the tangents.

        Parameters as for the class; ``h_lim`` is ``h(p_in - dp, t_sec)``. Without a pressure
        drop and with a backend that gives slopes (:func:`slopes_of`) the level carries pressure derivatives.

        Raises
        ------
        FluidPropertyError
            A flash failed.
        """
        p_out = p_in - dp
        t_in_at_lim = t_sec if dp == 0.0 else float(fluid.T_ph(p_in, h_lim))
        tangent: tuple[float, float] | None = None
        sloped = slopes_of(fluid) if dp == 0.0 else None
        if sloped is not None:
            ref = sloped(p_out, t_ref)
            lim = sloped(p_out, t_sec)
            if ref is not None and lim is not None:
                tangent = (lim[2], ref[2])
                h_ref = ref[0]
            else:
                h_ref = float(fluid.h_pT(p_out, t_ref))
        else:
            h_ref = float(fluid.h_pT(p_out, t_ref))
        return cls(p_in, dp, t_sec, segments, h_lim, t_in_at_lim, h_ref, t_ref, tangent)

    def serves(self, p_in: float, dp: float, t_sec: float, segments: int) -> bool:
        """Whether this level's nodes make the table at these inputs (any inlet enthalpy)."""
        if dp != self.dp or t_sec != self.t_sec or segments != self.segments:
            return False
        return abs(p_in - self.p_in) <= LEVEL_TOLERANCE * abs(self.p_in)

    def shifts_to(self, p_in: float, dp: float, t_sec: float, segments: int) -> bool:
        """Whether a :class:`ShiftedLevel` of this one serves these inputs (pressure tangents)."""
        if dp != self.dp or t_sec != self.t_sec or segments != self.segments:
            return False
        return self.outlet.h_p is not None and abs(p_in - self.p_in) <= SHIFT_REACH * abs(self.p_in)

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
        return keep_table(self._tables, key, table)


def keep_table(
    tables: OrderedDict[tuple[float, float], TemperatureTable],
    key: tuple[float, float],
    table: TemperatureTable,
) -> TemperatureTable:
    """Keep ``table`` under ``key`` (the oldest of :data:`TABLES_PER_LEVEL` goes); return it."""
    tables[key] = table
    if len(tables) > TABLES_PER_LEVEL:
        tables.popitem(last=False)
    return table
