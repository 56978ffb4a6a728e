"""Thermal couplings between circuits, as blocks of the Newton system.

A coupling ``{hot_circuit, cold_circuit, ua, efficiency}`` joins the hot circuit's condenser
that has no secondary stream of its own (no ``air_inlet_temp_c`` / ``secondary_inlet_temp_k``)
to the cold circuit's evaporator without a secondary stream: a cascade heat exchanger where
the hot circuit condenses and the cold circuit evaporates. Exactly one such coil must exist
on each side.

The exchanger is counterflow with conductance ``ua`` [W/K], solved zone by zone on both
refrigerant profiles (:func:`workbench.components.zones.coupled_heat_flow`). Of the heat
``Q`` leaving the hot refrigerant, ``efficiency * Q`` reaches the cold refrigerant and
``(1 - efficiency) * Q`` is lost to ambient (reported). Equations (SI)::

    0 = h_hot,out - h_hot,in + Q / m_hot                   (hot_side)
    0 = h_cold,out - h_cold,in - efficiency * Q / m_cold   (cold_side)

The Jacobian block is differentiated through the zone model's root by the implicit function
theorem, as the coils' (:mod:`workbench.components.coil_jacobian`): with ``UA_z(Q, x)`` the
zones' conductance at heat flow ``Q`` for the inlet states ``x`` (the hot and cold inlet
``m``, ``p``, ``h``), ``dQ/dx = -(dUA_z/dx) / (dUA_z/dQ)``; the partials are differences of
``UA_z`` at the solved ``Q`` (one profile evaluation each, a few property calls), where a
difference of ``Q`` itself ran a Brent root-find per column (12,600 property calls for a
cold solve of ``cascade_v2``). At the pinch (``UA_z`` unbounded) it falls back to those
differences. The residuals' ``Q`` comes from a safeguarded Newton iteration in
``s = -ln(1 - Q/Q_max)`` (:func:`_solve_q`), the same root as the bracketed search of
:func:`~workbench.components.zones.coupled_heat_flow` in a few profile evaluations instead of
about twenty; that search is the fallback and gives the results (4,085 property calls).

These replace the coils' own heat-transfer equations, so the two circuits become one system:
each circuit gains one equation and keeps its charge spec (``subcooling_k`` or ``t_cond_k`` on
the coupled condenser, ``superheat_k`` on the coupled evaporator with an ideal valve).

Like every other exchanger, the solved cascade exchanger is checked on a fine temperature
profile (:func:`workbench.components.profile.two_stream_profile`, both refrigerant streams
linear in enthalpy and pressure): a crossing the zone model missed makes the result not
converged, with the place and size of the crossing; a zone model whose heat flow
needs a conductance more than 10 % away from ``ua`` on the fine profile (unless the exchanger
is pinched, :data:`~workbench.components.profile.PINCHED_K`), or a profile that cannot be
computed, is a warning. The fine profile's smallest difference is reported as
``profile_min_temperature_difference``.
"""

from __future__ import annotations

import numpy as np

from workbench.components.base import Component, Equation, StepFunction
from workbench.components.coils import Coil
from workbench.components.counterflow import counterflow_ua
from workbench.components.pinch_root import root_in_s
from workbench.components.profile import (
    ProfileCheck,
    ProfileMemo,
    accuracy_warning,
    crossing_problem,
    near_critical_note,
    two_stream_check,
)
from workbench.components.zones import CoupledResult, coupled_heat_flow, enthalpy_at
from workbench.errors import FluidPropertyError, SpecificationError
from workbench.fluids import FluidBackend
from workbench.scenario.models import ThermalCouplingConfig

__all__ = ["ThermalCoupling", "find_coupled_coils"]


def find_coupled_coils(
    index: int, config: ThermalCouplingConfig, coils: list[tuple[int, Coil]]
) -> tuple[Coil, Coil]:
    """The hot circuit's free condenser and the cold circuit's free evaporator.

    Raises
    ------
    SpecificationError
        When a side has no candidate or more than one.
    """
    sides = []
    for circuit, hot in ((config.hot_circuit, True), (config.cold_circuit, False)):
        kind = "Condenser" if hot else "Evaporator"
        found = [
            c
            for cid, c in coils
            if cid == circuit and c.refrigerant_is_hot == hot and not c.has_secondary
        ]
        if len(found) != 1:
            names = ", ".join(repr(c.name) for c in found) or "none"
            raise SpecificationError(
                f"thermal_couplings[{index}]: circuit {circuit} needs exactly one {kind} without "
                f"a secondary stream (no air_inlet_temp_c / secondary_inlet_temp_k) to be the "
                f"coupled side; found {names}"
            )
        sides.append(found[0])
    return sides[0], sides[1]


class ThermalCoupling:
    """One thermal coupling (see module docstring)."""

    def __init__(self, index: int, config: ThermalCouplingConfig, hot: Coil, cold: Coil) -> None:
        self.config = config
        self.index = index
        self.name = f"thermal_couplings[{index}]"
        self.hot, self.cold = hot, cold
        self._q_last: float | None = None
        self._memo: tuple[tuple[float, ...], CoupledResult] | None = None
        self._fast: tuple[tuple[float, ...], float] | None = None
        self._profile_memo = ProfileMemo()
        hot.couple()
        cold.couple()
        self.local_vars = sorted(set(hot.local_vars) | set(cold.local_vars))

    @property
    def _local(self) -> list[int]:
        return self.local_vars

    def heat_flow(self, x: np.ndarray) -> CoupledResult:
        """Heat flows of the exchanger at ``x`` (remembered for the last inlet states)."""
        h, c = self.hot.port(x, "inlet"), self.cold.port(x, "inlet")
        key = (h.p, h.h, h.m, c.p, c.h, c.m)
        if self._memo is not None and self._memo[0] == key:
            return self._memo[1]
        result = coupled_heat_flow(
            self.hot.fluid,
            (h.p, h.h, h.m),
            (c.p, c.h, c.m),
            float(self.config.ua),
            float(self.config.efficiency),
            q_guess=self._q_last,
            cold_fluid=self.cold.fluid,
        )
        self._q_last = result.q or None
        self._memo = (key, result)
        return result

    def equations(self) -> tuple[Equation, ...]:
        """The energy balances of both refrigerant sides (see the module docstring)."""
        return (Equation("hot_side", "enthalpy"), Equation("cold_side", "enthalpy"))

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """The hot-side and cold-side energy balances [J/kg] (module docstring)."""
        hi, ho = self.hot.port(x, "inlet"), self.hot.port(x, "outlet")
        ci, co = self.cold.port(x, "inlet"), self.cold.port(x, "outlet")
        q = self._q(x)
        eff = float(self.config.efficiency)
        return np.array([ho.h - hi.h + q / hi.m, co.h - ci.h - eff * q / ci.m])

    def _q(self, x: np.ndarray) -> float:
        """The heat flow [W] the residuals use: :func:`_solve_q`, else the bracketed search.

        The same root as :meth:`heat_flow` (to 1e-12 of the pinch limit), found by a
        safeguarded Newton iteration in ``s = -ln(1 - Q/Q_max)`` in a few profile evaluations
        where :func:`~workbench.components.zones.coupled_heat_flow`'s Brent search takes about
        twenty.
        """
        h, c = self.hot.port(x, "inlet"), self.cold.port(x, "inlet")
        key = (h.p, h.h, h.m, c.p, c.h, c.m)
        if self._memo is not None and self._memo[0] == key:
            return self._memo[1].q
        if self._fast is not None and self._fast[0] == key:
            return self._fast[1]
        try:
            q = _solve_q(
                self.hot.fluid,
                x,
                self._inlet_cols(),
                float(self.config.efficiency),
                float(self.config.ua),
                self._q_last,
            )
        except (FluidPropertyError, ValueError, ZeroDivisionError):
            q = None
        if q is None:
            return self.heat_flow(x).q
        self._q_last = q or None
        self._fast = (key, q)
        return q

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Entries (row, column, value): implicit-function derivatives of ``Q`` (module docstring).

        Forward differences of the whole block where the zones' conductance has no finite
        derivative at the solved heat flow (no heat flow, the pinch).
        """
        entries = self._implicit_jacobian(x, step)
        if entries is None:
            return Component.jacobian(self, x, f0, step)  # type: ignore[arg-type]
        return entries

    def _implicit_jacobian(
        self, x: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]] | None:
        eff = float(self.config.efficiency)
        fluid = self.hot.fluid
        hp, cp = self.hot.ports, self.cold.ports
        cols = self._inlet_cols()
        try:
            q = self._q(x)
            if not q > 0.0:
                return None
            base = _zones_ua(fluid, x, cols, eff, q)
            dq_step = 1e-7 * q
            dua_dq = (_zones_ua(fluid, x, cols, eff, q + dq_step) - base) / dq_step
            if not (np.isfinite(base) and np.isfinite(dua_dq) and dua_dq > 0.0):
                return None
            dq = {}
            for col in cols:
                xi = float(x[col])
                d = step(col, xi)
                x[col] = xi + d
                try:
                    ua1 = _zones_ua(fluid, x, cols, eff, q)
                finally:
                    x[col] = xi
                if not np.isfinite(ua1):
                    return None
                dq[col] = -(ua1 - base) / d / dua_dq
        except (FluidPropertyError, ValueError, ZeroDivisionError):
            return None
        m_h, m_c = float(x[cols[0]]), float(x[cols[3]])
        entries = [(0, hp["outlet"].h, 1.0), (1, cp["outlet"].h, 1.0)]
        for col, d_q in dq.items():
            hot_row = d_q / m_h
            cold_row = -eff * d_q / m_c
            if col == cols[2]:
                hot_row -= 1.0
            if col == cols[5]:
                cold_row -= 1.0
            if col == cols[0]:
                hot_row -= q / (m_h * m_h)
            if col == cols[3]:
                cold_row += eff * q / (m_c * m_c)
            entries += [(0, col, hot_row), (1, col, cold_row)]
        return entries

    def _inlet_cols(self) -> list[int]:
        """The hot and cold inlet ``m``, ``p``, ``h`` unknowns."""
        hp, cp = self.hot.ports, self.cold.ports
        return [
            hp["inlet"].m,
            hp["inlet"].p,
            hp["inlet"].h,
            cp["inlet"].m,
            cp["inlet"].p,
            cp["inlet"].h,
        ]

    def balance_w(self, x: np.ndarray) -> float:
        """Model heat into the cold circuit minus heat out of the hot one [W] (= -loss)."""
        r = self.heat_flow(x)
        return r.q_cold - r.q

    def result(self, x: np.ndarray) -> dict[str, object]:
        """The coupling's entry of ``SolveResult.couplings``."""
        r = self.heat_flow(x)
        return {
            "coupling": self.name,
            "hot_circuit": self.config.hot_circuit,
            "cold_circuit": self.config.cold_circuit,
            "hot_component": self.hot.name,
            "cold_component": self.cold.name,
            "ua": float(self.config.ua),
            "efficiency": float(self.config.efficiency),
            "heat_from_hot_w": r.q,
            "heat_to_cold_w": r.q_cold,
            "loss_to_ambient_w": r.q - r.q_cold,
            "min_temperature_difference": r.min_dt,
            "profile_min_temperature_difference": (
                check.min_dt if (check := self.profile_check(x)[0]) is not None else None
            ),
        }

    def check(self, x: np.ndarray) -> list[str]:
        """Temperatures crossing in the zone model, else on the fine temperature profile."""
        r = self.heat_flow(x)
        if r.q > 0 and r.min_dt < -1e-6:
            return [f"{self.name}: temperatures cross in the cascade heat exchanger"]
        check = self.profile_check(x)[0]
        if check is None:
            return []
        text = crossing_problem(
            f"{self.name} (cascade heat exchanger {self.hot.name!r} / {self.cold.name!r})",
            check,
            (f"hot side ({self.hot.name!r})", f"cold side ({self.cold.name!r})"),
            note=self._near_critical_note(x),
        )
        return [text] if text else []

    def warnings(self, x: np.ndarray) -> list[str]:
        """A zone model far from the fine profile, or a profile that could not be checked."""
        check, why = self.profile_check(x)
        if why:
            return [f"{self.name}: {why}"]
        if check is None:
            return []
        text = accuracy_warning(
            f"{self.name} (cascade heat exchanger)",
            check,
            float(self.config.ua),
            note=self._near_critical_note(x),
        )
        return [text] if text else []

    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """Both solved refrigerant streams on a fine grid (None without heat flow), or why not."""
        return two_stream_check(
            self._profile_memo,
            self.hot.fluid,
            (self.hot.port(x, "inlet"), self.hot.port(x, "outlet")),
            (self.cold.port(x, "inlet"), self.cold.port(x, "outlet")),
            cold_fluid=self.cold.fluid,
        )

    def _near_critical_note(self, x: np.ndarray) -> str:
        return near_critical_note(self.hot.fluid, self.hot.port(x, "inlet").p)


def _zones_ua(
    fluid: FluidBackend, x: np.ndarray, cols: list[int], efficiency: float, q: float
) -> float:
    """Conductance [W/K] the cascade exchanger's zones need for heat flow ``q`` [W] at ``x``.

    The profile of :func:`workbench.components.zones.coupled_heat_flow` at a given heat flow:
    both streams cut at their saturation boundaries, each piece a counterflow zone
    (``q_k / LMTD_k``); ``cols`` are the hot and cold inlet ``m``, ``p``, ``h`` unknowns.
    ``inf`` at or past the pinch.
    """
    m_h, p_h, h_hi, m_c, p_c, h_ci = (float(x[c]) for c in cols)
    hl_h, hv_h, hl_c, hv_c = fluid.h_liq(p_h), fluid.h_vap(p_h), fluid.h_liq(p_c), fluid.h_vap(p_c)
    dh_h, dh_c = q / m_h, efficiency * q / m_c
    h_co = h_ci + dh_c
    xis = {0.0, 1.0}
    for hb in (hv_h, hl_h):
        if h_hi - dh_h < hb < h_hi:
            xis.add((h_hi - hb) / dh_h)
    for cb in (hv_c, hl_c):
        if h_ci < cb < h_co:
            xis.add((h_co - cb) / dh_c)
    points = sorted(xis)
    dts = [fluid.T_ph(p_h, h_hi - xi * dh_h) - fluid.T_ph(p_c, h_co - xi * dh_c) for xi in points]
    return float(
        sum(
            counterflow_ua(q * (points[k + 1] - points[k]), dts[k], dts[k + 1])
            for k in range(len(points) - 1)
        )
    )


def _solve_q(
    fluid: FluidBackend,
    x: np.ndarray,
    cols: list[int],
    efficiency: float,
    ua: float,
    q_guess: float | None,
) -> float | None:
    """The heat flow [W] at which the zones need ``ua``, or None (the caller searches).

    :func:`~workbench.components.pinch_root.root_in_s` on :func:`_zones_ua`, with the
    ``Q_max`` (both streams' end-temperature limits) of
    :func:`~workbench.components.zones.coupled_heat_flow`, whose bracketed search it replaces
    (to the same ``1e-12 Q_max``). None without a positive ``Q_max`` or when it does not
    settle.
    """
    m_h, p_h, h_hi, m_c, p_c, h_ci = (float(x[c]) for c in cols)
    t_hi, t_ci = fluid.T_ph(p_h, h_hi), fluid.T_ph(p_c, h_ci)
    if t_hi <= t_ci or ua <= 0.0 or m_h <= 0.0 or m_c <= 0.0 or efficiency <= 0.0:
        return None
    hl_h, hv_h, hl_c, hv_c = fluid.h_liq(p_h), fluid.h_vap(p_h), fluid.h_liq(p_c), fluid.h_vap(p_c)
    tl_h, tv_h = fluid.T_ph(p_h, hl_h), fluid.T_ph(p_h, hv_h)
    tl_c, tv_c = fluid.T_ph(p_c, hl_c), fluid.T_ph(p_c, hv_c)
    q_max = min(
        m_h * (h_hi - enthalpy_at(fluid, p_h, t_ci, hl_h, hv_h, tl_h, tv_h)),
        m_c * (enthalpy_at(fluid, p_c, t_hi, hl_c, hv_c, tl_c, tv_c) - h_ci) / efficiency,
    )
    return root_in_s(lambda q: _zones_ua(fluid, x, cols, efficiency, q), q_max, ua, q_guess)
