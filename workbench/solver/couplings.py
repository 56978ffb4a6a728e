"""Thermal couplings between circuits, as blocks of the Newton system.

A coupling ``{hot_circuit, cold_circuit, ua, efficiency}`` joins the hot circuit's condenser
that has no secondary stream of its own (no ``air_inlet_temp_c`` / ``secondary_inlet_temp_k``)
to the cold circuit's evaporator without a secondary stream: a cascade heat exchanger where
the hot circuit condenses and the cold circuit evaporates. Exactly one such coil must exist
on each side.

The exchanger is counterflow with conductance ``ua`` [W/K], solved zone by zone on both
refrigerant profiles, each side in its own circuit's fluid
(:mod:`workbench.components.exchangers.zones.coupled_profile`). Of the heat ``Q`` leaving the hot refrigerant,
``efficiency * Q`` reaches the cold refrigerant and ``(1 - efficiency) * Q`` is lost to
ambient (reported). Equations (SI)::

    0 = h_hot,out - h_hot,in + Q / m_hot                   (hot_side)
    0 = h_cold,out - h_cold,in - efficiency * Q / m_cold   (cold_side)

``Q`` is the root of ``UA_z(Q, x) = ua`` (``UA_z`` the zones' conductance, ``x`` the hot and
cold inlet ``m``, ``p``, ``h``), found by Newton's method from a start predicted by the last
Jacobian (``Q + dQ/dx (x - x_last)``, close to second order along a Newton step); a residual
evaluation solves it once and the Jacobian at the same ``x`` reuses it. The Jacobian block is
differentiated through that root by the implicit function theorem, as the coils'
(:mod:`workbench.components.exchangers.coils.jacobian`): ``dQ/dx = -(dUA_z/dx) / (dUA_z/dQ)``, with
``dUA_z/dx`` analytic from the same profile
(:func:`~workbench.components.exchangers.zones.coupled_jacobian.coupled_sensitivity`, on the cuts of the root's
last evaluation when that is within 1e-6 of the root in ``s``): no root-find per column. Within 1e-6 of the pinch limit ``Q_max`` the derivatives are those of ``Q_max``; only
where neither exists (no heat flow, the edge of an internal pinch) the block falls back to
forward differences.

A Newton step keeps at least :data:`~workbench.components.exchangers.zones.step_share.GAP_KEPT` of the
exchanger's driving temperature difference, the hot side's minus the cold side's saturation
(dew) temperature at their inlets (:meth:`ThermalCoupling.step_fraction`, applied by
:func:`workbench.solver.newton.limit_step`): a cold start puts the coupled coils 8 K apart
around the midpoint of the stages, where the exchanger is often pinched (its heat flow is the
hot stream cooled to the cold inlet, hardly depending on that difference), and the Newton step
from there closes the difference or reverses it (cascade_v2: 8 K to -8.5 K), where the heat
flow collapses and the trial fails.

A coupling that gives the exchanger's plates (``"geometry": {"kind": "brazed_plate", ...}``)
instead of ``ua`` is a :class:`~workbench.solver.plate_coupling.PlateCoupling`: the same
equations with ``Q`` from the plates.

These replace the coils' own heat-transfer equations, so the two circuits become one system:
each circuit gains one equation and keeps its charge spec (``subcooling_k`` or ``t_cond_k`` on
the coupled condenser, ``superheat_k`` on the coupled evaporator with an ideal valve).

Like every other exchanger, the solved cascade exchanger is checked on a fine temperature
profile (:func:`workbench.components.exchangers.zones.profile.two_stream_profile`, both refrigerant streams
linear in enthalpy and pressure): a crossing the zone model missed makes the result not
converged, with the place and size of the crossing; a zone model whose heat flow
needs a conductance more than 1 % (:data:`COUPLING_WARNING_RATIO`) away from ``ua`` on the
fine profile (unless the exchanger is pinched, :data:`~workbench.components.exchangers.zones.profile.PINCHED_K`), or a profile that cannot be
computed, is a warning. The fine profile's smallest difference is reported as
``profile_min_temperature_difference``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.components.base import Component, Equation, StepFunction
from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.zones.coupled_jacobian import (
    coupled_sensitivity,
    evaluated_near,
)
from workbench.components.exchangers.zones.coupled_profile import (
    CoupledProfile,
    CoupledResult,
    SaturationMemo,
    coupled_root,
)
from workbench.components.exchangers.zones.profile import (
    ProfileCheck,
    accuracy_warning,
    crossing_problem,
    near_critical_note,
)
from workbench.components.exchangers.zones.profile_memo import ProfileMemo, two_stream_check
from workbench.components.exchangers.zones.step_share import kept_fraction
from workbench.errors import FluidPropertyError, SpecificationError
from workbench.scenario.models import ThermalCouplingConfig

__all__ = ["COUPLING_WARNING_RATIO", "ThermalCoupling", "find_coupled_coils"]

COUPLING_WARNING_RATIO = 0.01
"""A cascade exchanger whose solved heat flow needs a conductance more than this share [-] away
from ``ua`` on the fine profile gets a warning (a coil's threshold is 10 %). The zone model
follows the fine profile to 0.1 % (the curved segments' sub-cuts,
:data:`~workbench.components.exchangers.zones.coupled_profile.SUB_CUTS`); before them a cascade could be 3 %
off, a 0.3 % error in its COP, and say nothing."""


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
        # the last inlet states with their profile and heat flow; the last linearisation
        self._memo: tuple[tuple[float, ...], CoupledProfile, float] | None = None
        self._result: tuple[tuple[float, ...], CoupledResult] | None = None
        self._linear: tuple[tuple[float, ...], float, list[float]] | None = None
        self._saturation = SaturationMemo()
        self._profile_memo = ProfileMemo()
        hot.couple()
        cold.couple()
        self.local_vars = sorted(set(hot.local_vars) | set(cold.local_vars))

    def reconfigure(self, config: ThermalCouplingConfig) -> None:
        """Take a changed configuration (a sweep's or a calibration's value), forget the rest."""
        self.config = config
        self._q_last = None
        self._memo = self._result = self._linear = None
        self._profile_memo = ProfileMemo()

    @property
    def _local(self) -> list[int]:
        return self.local_vars

    def _inlets(self, x: np.ndarray) -> tuple[float, ...]:
        """The hot and cold inlet ``m`` [kg/s], ``p`` [Pa], ``h`` [J/kg] at ``x``."""
        return tuple(float(x[c]) for c in self._inlet_cols())

    def heat_flow(self, x: np.ndarray) -> CoupledResult:
        """Heat flows of the exchanger at ``x`` with its zones and pinch (for results, checks)."""
        key, profile, q = self._solved(x)
        if self._result is not None and self._result[0] == key:
            return self._result[1]
        eff = float(self.config.efficiency)
        if q > 0.0:
            _total, zones, min_dt = profile.conductance(q)
            result = CoupledResult(q, eff * q, min_dt, zones, profile.q_max)
        else:
            result = CoupledResult(0.0, 0.0, profile.t_hi - profile.t_ci, [], 0.0)
        self._result = (key, result)
        return result

    def _solved(self, x: np.ndarray) -> tuple[tuple[float, ...], CoupledProfile, float]:
        """The inlet states at ``x``, their profile and heat flow [W] (remembered for the last).

        The root of :func:`~workbench.components.exchangers.zones.coupled_profile.coupled_heat_flow` without its
        zones (the residuals need only ``Q``), from :meth:`_predicted_q`.
        """
        key = self._inlets(x)
        if self._memo is not None and self._memo[0] == key:
            return self._memo
        m_h, p_h, h_h, m_c, p_c, h_c = key
        profile = CoupledProfile(
            self.hot.fluid,
            self.cold.fluid,
            (p_h, h_h, m_h),
            (p_c, h_c, m_c),
            float(self.config.efficiency),
            self._saturation,
        )
        q = coupled_root(profile, float(self.config.ua or 0.0), self._predicted_q(key))
        self._q_last = q or None
        self._memo = (key, profile, q)
        return self._memo

    def _predicted_q(self, key: tuple[float, ...]) -> float | None:
        """The heat flow [W] to start the root from: the last linearisation moved to ``key``.

        ``Q + sum(dQ/dx_i (x_i - x_i,last))`` from the last Jacobian (a Newton iteration's
        step is what that Jacobian predicted, so this is close to second order), else the last
        heat flow.
        """
        if self._linear is not None:
            x0, q0, dq = self._linear
            q = q0 + sum(d * (a - b) for d, a, b in zip(dq, key, x0))
            if q > 0.0:
                return q
        return self._q_last

    def equations(self) -> tuple[Equation, ...]:
        """The energy balances of both refrigerant sides (see the module docstring)."""
        return (Equation("hot_side", "enthalpy"), Equation("cold_side", "enthalpy"))

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """The hot-side and cold-side energy balances [J/kg] (module docstring)."""
        hi, ho = self.hot.port(x, "inlet"), self.hot.port(x, "outlet")
        ci, co = self.cold.port(x, "inlet"), self.cold.port(x, "outlet")
        q = self._solved(x)[2]
        eff = float(self.config.efficiency)
        return np.array([ho.h - hi.h + q / hi.m, co.h - ci.h - eff * q / ci.m])

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Entries (row, column, value): implicit-function derivatives of ``Q`` (module docstring).

        Forward differences of the whole block where the zones' conductance has no finite
        derivative at the solved heat flow (no heat flow, the pinch, the edge of an internal
        pinch).
        """
        entries = self.implicit_jacobian(x)
        if entries is None:
            return Component.jacobian(self, x, f0, step)  # type: ignore[arg-type]
        return entries

    def implicit_jacobian(self, x: np.ndarray) -> list[tuple[int, int, float]] | None:
        """The block by the implicit function theorem, or None where it has no finite value.

        ``dQ/dx`` from :func:`~workbench.components.exchangers.zones.coupled_jacobian.coupled_sensitivity`
        at the heat flow the residuals solved (remembered), then the chain rule through the
        two energy balances. Kept as the start of the next root-find (:meth:`_predicted_q`).
        The derivatives are taken on the profile of the root's last evaluation when that is
        within :data:`~workbench.components.exchangers.zones.coupled_jacobian.REUSE_S` of the root in ``s``
        (:func:`~workbench.components.exchangers.zones.coupled_jacobian.evaluated_near`: the root's last Newton
        step is not evaluated, and the cuts there cost a property call each).
        """
        try:
            key, profile, q = self._solved(x)
            q_at = evaluated_near(profile, q)
            dq = (
                coupled_sensitivity(profile, q_at, float(self.config.ua or 0.0))
                if q > 0.0
                else None
            )
        except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
            return None
        if dq is None:
            return None
        self._linear = (key, q, dq)
        return self._balance_entries(key, q, dq)

    def _balance_entries(
        self, key: tuple[float, ...], q: float, dq: Sequence[float]
    ) -> list[tuple[int, int, float]]:
        """The two energy balances' entries from ``Q`` [W] and ``dQ/dx`` along the six inlets.

        ``key`` holds the inlets ``(m, p, h)`` hot then cold; the chain rule through
        ``Q / m_hot`` and ``efficiency * Q / m_cold`` (module docstring).
        """
        eff = float(self.config.efficiency)
        hp, cp = self.hot.ports, self.cold.ports
        cols = self._inlet_cols()
        m_h, m_c = key[0], key[3]
        entries = [(0, hp["outlet"].h, 1.0), (1, cp["outlet"].h, 1.0)]
        for col, d_q in zip(cols, dq, strict=True):
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

    def step_fraction(self, xs: list[float], ds: list[float], alpha: float) -> float:
        """The largest fraction up to ``alpha`` of the step ``ds`` from ``xs`` that keeps the gap.

        The gap is the hot inlet's minus the cold inlet's dew temperature [K];
        :func:`~workbench.components.exchangers.zones.step_share.kept_fraction` keeps
        :data:`~workbench.components.exchangers.zones.step_share.GAP_KEPT` of it.
        """
        hp, cp = self.hot.ports["inlet"].p, self.cold.ports["inlet"].p
        if ds[hp] == 0.0 and ds[cp] == 0.0:
            return alpha
        hot, cold = self.hot.fluid, self.cold.fluid

        def gap(t: float) -> float:
            return float(hot.T_sat(xs[hp] + t * ds[hp])) - float(cold.T_sat(xs[cp] + t * ds[cp]))

        return kept_fraction(gap, alpha)

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

    def conductance(self, x: np.ndarray) -> float:
        """The exchanger's conductance [W/K]: ``ua`` (a coupling built from hardware: its own)."""
        del x
        return float(self.config.ua or 0.0)

    def result(self, x: np.ndarray) -> dict[str, object]:
        """The coupling's entry of ``SolveResult.couplings``."""
        r = self.heat_flow(x)
        return {
            "coupling": self.name,
            "hot_circuit": self.config.hot_circuit,
            "cold_circuit": self.config.cold_circuit,
            "hot_component": self.hot.name,
            "cold_component": self.cold.name,
            "ua": self.conductance(x),
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
            float(self.config.ua or 0.0),
            note=self._near_critical_note(x),
            ratio_limit=COUPLING_WARNING_RATIO,
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
