"""A thermal coupling whose cascade heat exchanger is built from brazed plates.

A coupling with ``"geometry": {"kind": "brazed_plate", ...}`` instead of ``ua`` (issue 41) keeps
the equations of :class:`~workbench.solver.couplings.ThermalCoupling` (SI)::

    0 = h_hot,out - h_hot,in + Q / m_hot                   (hot_side)
    0 = h_cold,out - h_cold,in - efficiency * Q / m_cold   (cold_side)

with ``Q`` the root of the plate model
(:mod:`workbench.components.exchangers.plate.cascade`: the area the pieces need equals the
plates' area). The Jacobian block is the implicit function theorem on that root,
``dQ/dx = -(dA/dx) / (dA/dQ)``, both by forward differences of the area at fixed ``Q`` (one
evaluation of the pieces per inlet column, no root-find); where the area has no finite
derivative the block falls back to forward differences of the residuals.

The coupled coils take the plate's hardware:

* **volumes**: the hot coil's ``internal_volume_m3`` is the refrigerant channels' volume, the
  cold coil's the other side's (:meth:`~workbench.correlations.plate_geometry.PlateGeometry.internal_volume_m3`),
  so each circuit's charge inventory counts its side of the plates (zones by enthalpy share,
  as every coupled coil);
* **pressure drops**: each coil's ``pressure_drop`` equation takes its stream's drop through
  the plates (channels and ports, :class:`PlateDrop`), times the coil's ``z_dp``, with its
  derivatives along the six inlet unknowns (the coil's ``dp_pa`` must be left out).

The geometry's ``correlation_factors`` calibrate the film coefficients and pressure drops:
``refrigerant_*`` the hot stream's, ``secondary_*`` the cold stream's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from workbench.components.exchangers.coils.component import Coil
from workbench.components.exchangers.plate.cascade import (
    CascadePlate,
    CascadeSolution,
    CascadeState,
    cascade_range_warnings,
)
from workbench.components.exchangers.plate.spec import PlateSpec, parse_plate_spec
from workbench.components.exchangers.zones.coupled_profile import CoupledResult
from workbench.components.exchangers.zones.profile import accuracy_warning
from workbench.components.exchangers.zones.profile_memo import ProfileMemo, two_stream_check
from workbench.errors import FluidPropertyError, SpecificationError
from workbench.scenario.models import ThermalCouplingConfig
from workbench.solver.couplings import COUPLING_WARNING_RATIO, ThermalCoupling

__all__ = ["PlateCoupling", "PlateDrop"]

_Q_STEP = 1e-6
"""Share of ``Q`` by which ``dA/dQ`` is differenced (central) [-]."""


class PlateDrop:
    """One stream's pressure drop through the plates, as a coupled coil's ``pressure_drop``.

    Parameters
    ----------
    coupling : PlateCoupling
        The coupling that solves the plates.
    hot : bool
        The hot (condensing) stream, else the cold one.
    """

    def __init__(self, coupling: PlateCoupling, hot: bool) -> None:
        self.coupling, self.hot = coupling, hot

    def value(self, x: np.ndarray) -> float:
        """Pressure drop of the stream [Pa] at ``x`` (0 without heat flow)."""
        sol = self.coupling.solution(x)
        if sol is None:
            return 0.0
        return sol.dp_hot if self.hot else sol.dp_cold

    def derivatives(self, x: np.ndarray) -> list[tuple[int, float]]:
        """``(column, d dp / d x_column)`` along the six inlet unknowns [Pa per unit of x]."""
        lin = self.coupling.linearised(x)
        if lin is None:
            return []
        cols = self.coupling.inlet_columns()
        return list(zip(cols, lin[2] if self.hot else lin[3], strict=True))


class PlateCoupling(ThermalCoupling):
    """A thermal coupling built from a brazed plate geometry (module docstring).

    Raises
    ------
    ScenarioError
        The geometry is invalid (each key at ``thermal_couplings[i].geometry.<key>``).
    SpecificationError
        A coupled coil that gives ``internal_volume_m3`` or ``dp_pa`` (the plates give them),
        or a fluid without transport properties.
    """

    def __init__(self, index: int, config: ThermalCouplingConfig, hot: Coil, cold: Coil) -> None:
        super().__init__(index, config, hot, cold)
        for coil, is_hot in ((hot, True), (cold, False)):
            for clash in ("internal_volume_m3", "dp_pa"):
                if coil.has(clash) and float(coil.params[clash]) != 0.0:
                    raise SpecificationError(
                        f"{coil.path or coil.name}.{clash}: the coupled {coil.type_name} "
                        f"{coil.name!r} takes it from {self.name}.geometry (brazed_plate): "
                        "remove it"
                    )
            coil.external_pressure_drop = PlateDrop(self, is_hot)
        self.reconfigure(config)

    def reconfigure(self, config: ThermalCouplingConfig) -> None:
        """Read the geometry (at construction, and for a sweep's or a calibration's value).

        Raises
        ------
        ScenarioError
            The geometry is invalid.
        SpecificationError
            A fluid without transport properties.
        """
        super().reconfigure(config)
        self.spec: PlateSpec = parse_plate_spec(config.geometry or {}, self.name)
        try:
            self.plate = CascadePlate(
                self.spec, self.hot.fluid, self.cold.fluid, float(config.efficiency)
            )
        except FluidPropertyError as exc:
            raise SpecificationError(f"{self.name}.geometry: {exc}") from None
        g = self.spec.geometry
        self.hot.params["internal_volume_m3"] = g.internal_volume_m3("refrigerant")
        self.cold.params["internal_volume_m3"] = g.internal_volume_m3("secondary")
        self._state: tuple[tuple[float, ...], CascadeState, float] | None = None
        self._lin: tuple[tuple[float, ...], Any] | None = None
        self._isobaric_memo = ProfileMemo()

    # -- the root ---------------------------------------------------------------------------------
    def _plate_solved(self, x: np.ndarray) -> tuple[tuple[float, ...], CascadeState, float]:
        """The inlet states at ``x``, the plates there and their heat flow [W] (remembered)."""
        key = self._inlets(x)
        if self._state is not None and self._state[0] == key:
            return self._state
        m_h, p_h, h_h, m_c, p_c, h_c = key
        state = self.plate.state((p_h, h_h, m_h), (p_c, h_c, m_c))
        q = state.solve(self._predicted_q(key))
        self._q_last = q or None
        self._state = (key, state, q)
        return self._state

    def _solved(self, x: np.ndarray) -> Any:
        """The plates' root in place of the UA zone model's (the residuals read ``[2]``)."""
        return self._plate_solved(x)

    def solution(self, x: np.ndarray) -> CascadeSolution | None:
        """The solved plates at ``x``: pieces, UA, pressure drops (None without heat flow)."""
        _key, state, q = self._plate_solved(x)
        return state.solution(q) if q > 0.0 else None

    def heat_flow(self, x: np.ndarray) -> CoupledResult:
        """Heat flows with the pieces as zones and the smallest difference (results, checks)."""
        _key, state, q = self._plate_solved(x)
        eff = float(self.config.efficiency)
        if q <= 0.0:
            return CoupledResult(0.0, 0.0, state.profile.t_hi - state.profile.t_ci, [], 0.0)
        sol = state.solution(q)
        zones = [(p.q, p.ua) for p in sol.pieces]
        return CoupledResult(q, eff * q, sol.min_dt, zones, state.q_max)

    # -- the Jacobian -----------------------------------------------------------------------------
    def inlet_columns(self) -> list[int]:
        """The hot and cold inlet ``m``, ``p``, ``h`` unknowns."""
        return self._inlet_cols()

    def linearised(
        self, x: np.ndarray
    ) -> tuple[float, list[float], list[float], list[float]] | None:
        """``Q`` [W] and the derivatives of ``Q`` and both pressure drops along the inlets.

        ``dQ/dx_i = -(dA/dx_i) / (dA/dQ)``, ``d dp/dx_i = (d dp/dx_i)_Q + (d dp/dQ) dQ/dx_i``;
        forward differences along each inlet at fixed ``Q`` (steps of 1e-7 of the value),
        central along ``Q``. None where they have no finite value (no heat flow, a pinch).
        """
        key, state, q = self._plate_solved(x)
        if self._lin is not None and self._lin[0] == key:
            return self._lin[1]  # type: ignore[no-any-return]
        out: tuple[float, list[float], list[float], list[float]] | None = None
        try:
            out = self._differences(key, state, q)
        except (FluidPropertyError, ValueError, ZeroDivisionError, OverflowError):
            out = None
        self._lin = (key, out)
        return out

    def _differences(
        self, key: tuple[float, ...], state: CascadeState, q: float
    ) -> tuple[float, list[float], list[float], list[float]] | None:
        if q <= 0.0:
            return None
        dq = _Q_STEP * q
        if q + dq >= state.q_max:
            return None
        up, down = state.solution(q + dq), state.solution(q - dq)
        base = state.solution(q)
        da_dq = (up.area - down.area) / (2.0 * dq)
        dh_dq = (up.dp_hot - down.dp_hot) / (2.0 * dq)
        dc_dq = (up.dp_cold - down.dp_cold) / (2.0 * dq)
        if not (math.isfinite(da_dq) and da_dq > 0.0):
            return None
        dqs, dhs, dcs = [], [], []
        for i, value in enumerate(key):
            step = max(1e-7 * abs(value), 1e-9)
            moved = list(key)
            moved[i] = value + step
            m_h, p_h, h_h, m_c, p_c, h_c = moved
            other = self.plate.state((p_h, h_h, m_h), (p_c, h_c, m_c))
            if not q < other.q_max:
                return None
            sol = other.solution(q)
            if not math.isfinite(sol.area):
                return None
            d_q = -(sol.area - base.area) / step / da_dq
            dqs.append(d_q)
            dhs.append((sol.dp_hot - base.dp_hot) / step + dh_dq * d_q)
            dcs.append((sol.dp_cold - base.dp_cold) / step + dc_dq * d_q)
        return q, dqs, dhs, dcs

    def implicit_jacobian(self, x: np.ndarray) -> list[tuple[int, int, float]] | None:
        """Entries (row, column, value) through the plates' root, or None (module docstring).

        :meth:`~workbench.solver.couplings.ThermalCoupling.jacobian` takes them, else forward
        differences of the residuals. ``dQ/dx`` is kept as the next root's start.
        """
        lin = self.linearised(x)
        if lin is None:
            return None
        q, dq, _dh, _dc = lin
        key = self._inlets(x)
        self._linear = (key, q, dq)
        return self._balance_entries(key, q, dq)

    # -- results ----------------------------------------------------------------------------------
    def result(self, x: np.ndarray) -> dict[str, object]:
        """The coupling's entry of ``SolveResult.couplings`` with the plates' results [SI].

        ``ua`` is the effective conductance ``sum U_k A_k`` [W/K]; the film coefficients are
        area-weighted means [W/(m^2 K)]; pressure drops [Pa] and volumes [m^3] per stream.
        """
        out = super().result(x)
        sol = self.solution(x)
        g = self.spec.geometry
        out.update(
            {
                "geometry": "brazed_plate",
                "heat_transfer_area_m2": g.heat_transfer_area_m2,
                "plates": g.plates,
                "hot_heat_transfer_coefficient": sol.mean_film(True) if sol else 0.0,
                "cold_heat_transfer_coefficient": sol.mean_film(False) if sol else 0.0,
                "hot_pressure_drop": sol.dp_hot if sol else 0.0,
                "cold_pressure_drop": sol.dp_cold if sol else 0.0,
                "hot_internal_volume": g.internal_volume_m3("refrigerant"),
                "cold_internal_volume": g.internal_volume_m3("secondary"),
            }
        )
        return out

    def conductance(self, x: np.ndarray) -> float:
        """The plates' effective conductance ``sum U_k A_k`` [W/K] at ``x`` (0 without heat)."""
        sol = self.solution(x)
        return sol.ua if sol is not None else 0.0

    def warnings(self, x: np.ndarray) -> list[str]:
        """The fine profile far from the plates' effective conductance, or not computable.

        The fine profile is taken with both streams at their inlet pressures, as the plates'
        model takes them (the crossing check and ``profile_min_temperature_difference`` take
        the solved outlet pressures, :meth:`profile_check`); and the correlations used outside
        their fitted ranges
        (:func:`~workbench.components.exchangers.plate.cascade.cascade_range_warnings`).
        """
        hi, ho = self.hot.port(x, "inlet"), self.hot.port(x, "outlet")
        ci, co = self.cold.port(x, "inlet"), self.cold.port(x, "outlet")
        check, why = two_stream_check(
            self._isobaric_memo,
            self.hot.fluid,
            (hi, ho._replace(p=hi.p)),
            (ci, co._replace(p=ci.p)),
            cold_fluid=self.cold.fluid,
        )
        if why:
            return [f"{self.name}: {why}"]
        sol = self.solution(x)
        if check is None or sol is None:
            return []
        label = f"{self.name} (cascade heat exchanger, brazed_plate)"
        found = cascade_range_warnings(self._plate_solved(x)[1], sol, label)
        text = accuracy_warning(
            label,
            check,
            sol.ua,
            note=self._near_critical_note(x),
            ratio_limit=COUPLING_WARNING_RATIO,
        )
        return [text, *found] if text else found
