"""The discretised counterflow model of a two-stream heat exchanger in UA mode.

Used by :class:`workbench.components.exchangers.ihx.component.HeatExchanger` with ``ua``: both streams are
the working fluid, and where their properties vary strongly (transcritical R744 from the gas
cooler outlet against the suction, R290 near its critical point) one mean capacity rate per
stream misses the curvature of ``T(h)``: on R744 at UA 100 W/K it gave 6 % less heat than a
400-segment model. Here, as in the gas cooler (:mod:`workbench.components.exchangers.gas_cooler.model`):

1. Each stream's temperature is tabulated on :data:`TABLE_NODES` equal enthalpy steps (plus
   its saturation points) over the whole range the exchanger can reach: the hot stream from
   ``h_hot(T_cold,in)`` up to its inlet, the cold stream from its inlet up to
   ``h_cold(T_hot,in)``, on the inlet isobar and, with a pressure drop, on the outlet isobar
   (the temperature along the path is ``T_in(h) + x (T_out(h) - T_in(h))``, ``x`` the fraction
   of the stream's enthalpy change, as in the gas cooler).
2. For a heat flow ``Q`` the exchanger is cut into :data:`SEGMENTS` slices of equal heat
   ``Q / N``; at node ``k`` (counted from the hot inlet) the hot stream has
   ``h_hot,in - k Q / (N m_hot)`` and the cold stream, in counterflow,
   ``h_cold,in + (N - k) Q / (N m_cold)``; each slice is a counterflow exchanger with constant
   capacity rates::

       UA_req(Q) = sum_k (Q / N) / LMTD(dT_k, dT_k+1)        [W/K]

3. ``Q`` solves ``UA_req(Q) = z_ua UA`` on ``(0, Q_max)`` by Brent's method,
   ``Q_max = min(m_hot (h_hot,in - h_hot(T_cold,in)), m_cold (h_cold(T_hot,in) - h_cold,in))``;
   a profile that touches or crosses inside the exchanger needs an unbounded conductance.

Within 0.5 % of a 400-segment model on every node (``tests/test_internal_hx_ua.py`` rebuilds
it with PropsSI) for R744 and R290. The tables are remembered per stream state
(:data:`TABLE_CACHE_SIZE`), so the finite-difference columns of the outlet unknowns and of the
other stream's flow reuse them.

References
----------
Incropera, DeWitt, Bergman, Lavine, Fundamentals of Heat and Mass Transfer, 6th ed., sec. 11.3
(LMTD of a counterflow slice).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from workbench.components.exchangers.zones.counterflow import find_root
from workbench.fluids import FluidBackend

__all__ = [
    "SEGMENTS",
    "TABLE_CACHE_SIZE",
    "TABLE_NODES",
    "IhxResult",
    "StreamTables",
    "ihx_heat_flow",
]

SEGMENTS = 120
"""Slices of equal heat of the solved exchanger."""

TABLE_NODES = 48
"""Equal enthalpy steps of each stream's temperature table."""

TABLE_MARGIN = 0.02
"""Share of the enthalpy range [-] a table extends beyond it at both ends, so that the
finite-difference columns of the inlet enthalpies (a shift of 1e-7 relative) reuse it."""

TABLE_CACHE_SIZE = 16
"""Stream tables remembered (two per state: the Jacobian's columns revisit a few)."""

_LARGE = 1e30
"""Conductance [W/K] standing for an unbounded one (a pinch or crossing inside)."""


@dataclass(frozen=True)
class IhxResult:
    """Heat flow of the exchanger and its profile.

    Attributes
    ----------
    q : float
        Heat flow from the hot to the cold stream [W].
    q_max : float
        The end-temperature limit of the heat flow [W].
    min_dt : float
        Smallest hot-minus-cold temperature difference on the solved profile [K].
    """

    q: float
    q_max: float
    min_dt: float


class StreamTables:
    """Temperature on enthalpy nodes of one stream, at its inlet and outlet pressure.

    Attributes
    ----------
    h : numpy.ndarray
        Node enthalpies, ascending [J/kg].
    t_in, t_out : numpy.ndarray
        Temperature at each node on the inlet and the outlet isobar [K] (the same array
        without a pressure drop).
    """

    def __init__(self, h: np.ndarray, t_in: np.ndarray, t_out: np.ndarray) -> None:
        self.h, self.t_in, self.t_out = h, t_in, t_out

    def temperature(self, h: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Temperature [K] at enthalpies ``h`` [J/kg] and path fractions ``x`` [-]."""
        t_in: np.ndarray = np.asarray(np.interp(h, self.h, self.t_in))
        if self.t_out is self.t_in:
            return t_in
        t_out: np.ndarray = np.asarray(np.interp(h, self.h, self.t_out))
        out: np.ndarray = t_in + x * (t_out - t_in)
        return out


def _isobar(fluid: FluidBackend, p: float, nodes: np.ndarray) -> np.ndarray:
    return np.array([float(fluid.T_ph(p, float(h))) for h in nodes])


def _nodes(
    fluid: FluidBackend, pressures: tuple[float, ...], h_lo: float, h_hi: float
) -> np.ndarray:
    hs = set(np.linspace(h_lo, h_hi, TABLE_NODES + 1).tolist())
    for p in pressures:
        if p < 0.999 * fluid.p_crit:
            hs.update(h for h in (float(fluid.h_liq(p)), float(fluid.h_vap(p))) if h_lo < h < h_hi)
    return np.array(sorted(hs))


class TableCache:
    """The last :data:`TABLE_CACHE_SIZE` stream tables, keyed by pressures and enthalpy range.

    A table serves any range inside the one it was built for, and is built
    :data:`TABLE_MARGIN` wider than asked.
    """

    def __init__(self) -> None:
        self._tables: OrderedDict[tuple[float, float, float, float], StreamTables] = OrderedDict()

    def get(
        self, fluid: FluidBackend, p_in: float, p_out: float, h_lo: float, h_hi: float
    ) -> StreamTables:
        """The tables of a stream from ``p_in`` to ``p_out`` [Pa] over ``[h_lo, h_hi]`` [J/kg]."""
        for key, found in reversed(self._tables.items()):
            if key[0] == p_in and key[1] == p_out and key[2] <= h_lo and h_hi <= key[3]:
                span = h_hi - h_lo
                if key[3] - key[2] <= (1.0 + 4.0 * TABLE_MARGIN) * span:  # not much coarser
                    self._tables.move_to_end(key)
                    return found
        margin = TABLE_MARGIN * (h_hi - h_lo)
        h_lo, h_hi = h_lo - margin, h_hi + margin
        key = (p_in, p_out, h_lo, h_hi)
        pressures = (p_in,) if p_out == p_in else (p_in, p_out)
        nodes = _nodes(fluid, pressures, h_lo, h_hi)
        t_in = _isobar(fluid, p_in, nodes)
        t_out = t_in if p_out == p_in else _isobar(fluid, p_out, nodes)
        table = StreamTables(nodes, t_in, t_out)
        self._tables[key] = table
        if len(self._tables) > TABLE_CACHE_SIZE:
            self._tables.popitem(last=False)
        return table


def _required_ua(
    hot: StreamTables,
    cold: StreamTables,
    h_hot_in: float,
    h_cold_in: float,
    m_hot: float,
    m_cold: float,
) -> Callable[[float], tuple[float, float]]:
    k = np.arange(SEGMENTS + 1, dtype=float) / SEGMENTS  # hot path fraction from its inlet

    def ua_and_pinch(q: float) -> tuple[float, float]:
        t_hot = hot.temperature(h_hot_in - k * q / m_hot, k)
        t_cold = cold.temperature(h_cold_in + (1.0 - k) * q / m_cold, 1.0 - k)
        dt = t_hot - t_cold
        min_dt = float(np.min(dt))
        if min_dt <= 0.0:
            return _LARGE, min_dt
        a, b = dt[:-1], dt[1:]
        ratio = a / b
        close = np.abs(ratio - 1.0) < 1e-6
        safe = np.where(close, 2.0, ratio)
        lmtd = np.where(close, 0.5 * (a + b), (a - b) / np.log(safe))
        return float(np.sum((q / SEGMENTS) / lmtd)), min_dt

    return ua_and_pinch


def ihx_heat_flow(
    fluid: FluidBackend,
    cache: TableCache,
    hot: tuple[float, float, float, float],
    cold: tuple[float, float, float, float],
    limits: tuple[float, float],
    ua: float,
    q_guess: float | None = None,
) -> IhxResult:
    """Heat flow [W] of the discretised counterflow exchanger (see the module docstring).

    Parameters
    ----------
    fluid : FluidBackend
        Properties of both streams.
    cache : TableCache
        The exchanger's tables.
    hot, cold : tuple of float
        ``(m [kg/s], p_in [Pa], p_out [Pa], h_in [J/kg])`` of each stream.
    limits : tuple of float
        ``h_hot(p, T_cold,in)`` and ``h_cold(p, T_hot,in)`` [J/kg]: where each stream would
        reach the other's inlet temperature.
    ua : float
        Available conductance [W/K].
    q_guess : float, optional
        The last solution, to bracket the root near it [W].

    Returns
    -------
    IhxResult
        The heat flow, its end-temperature limit and the profile's smallest difference.
    """
    m_h, ph_in, ph_out, hh_in = hot
    m_c, pc_in, pc_out, hc_in = cold
    h_hot_lim, h_cold_lim = limits
    q_max = min(m_h * (hh_in - h_hot_lim), m_c * (h_cold_lim - hc_in))
    if q_max <= 0.0 or ua <= 0.0:
        return IhxResult(0.0, max(q_max, 0.0), 0.0)
    t_hot = cache.get(fluid, ph_in, ph_out, h_hot_lim, hh_in)
    t_cold = cache.get(fluid, pc_in, pc_out, hc_in, h_cold_lim)
    required = _required_ua(t_hot, t_cold, hh_in, hc_in, m_h, m_c)
    q = find_root(lambda q: required(q)[0] - ua, q_max, q_guess)
    return IhxResult(q, q_max, required(q)[1])
