"""What every exchanger from its geometry shares: hardware, air, the kept march, checks.

Who reads it: the solver-facing classes of
:mod:`workbench.components.exchangers.fin_tube.component` (condenser, evaporator, gas cooler),
which mix :class:`GeometricExchanger` in front of the UA model they extend. It parses the
``geometry`` and ``correlation_factors`` objects and the air inlet once per ``configure``,
keeps the march by its inputs ``(m, p_in, h_in, z_dp)`` and gives the parts of the UA model's
interface the solver's start and results read (``ua_total``, ``secondary_capacity_rate``,
``pressure_drop``) from the hardware.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from workbench.components.base import Component, StepFunction
from workbench.components.catalog.specs import CORRELATION_FACTORS_BY_KIND
from workbench.components.exchangers.fin_tube.air_side import AirInlet, AirSide, air_side
from workbench.components.exchangers.fin_tube.geometry import (
    CoilGeometry,
    GeometryKeyError,
    parse_geometry,
)
from workbench.components.exchangers.fin_tube.march import MarchResult, march
from workbench.components.exchangers.fin_tube.outputs import geometric_warnings
from workbench.components.exchangers.fin_tube.supercritical import SupercriticalFluid
from workbench.components.exchangers.fin_tube.tube_side import (
    TubeFluid,
    molar_mass_g_mol,
    tube_fluid,
)
from workbench.components.exchangers.zones.profile import NEAR_CRITICAL, ProfileCheck
from workbench.correlations import humid_air as ha
from workbench.correlations.saturated_air import moist_temperature
from workbench.errors import FluidPropertyError
from workbench.fluids.transport import Transport, transport_for

__all__ = ["CORRELATION_FACTORS", "GeometricExchanger"]

CORRELATION_FACTORS: tuple[str, ...] = CORRELATION_FACTORS_BY_KIND["fin_tube"]
"""Keys of a coil's ``correlation_factors`` object (issue 40 contract), each default 1."""

_MEMO = 8
"""Marches kept per exchanger (the base point and the differenced inlet columns)."""


class GeometricExchanger(Component):
    """The shared part of the exchangers from geometry (module docstring).

    The class it is mixed into provides ``t_sec_in`` [K], ``has_secondary`` and
    ``refrigerant_is_hot``.
    """

    geometry: CoilGeometry
    air: AirSide
    air_inlet: AirInlet
    transport: Transport
    correlation_factors: dict[str, float]
    t_sec_in: float
    has_secondary: bool
    refrigerant_is_hot: bool

    @classmethod
    def check_geometry(cls, geometry: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The first problem of a ``geometry`` object as ``(".key", reason)``; [] when valid."""
        try:
            parse_geometry(geometry)
        except GeometryKeyError as exc:
            return [(f".{exc.key}" if exc.key else "", exc.reason)]
        return []

    def parse_hardware(self) -> None:
        """Parse ``geometry`` and ``correlation_factors`` (before the UA model's ``configure``).

        Raises
        ------
        SpecificationError
            A geometry key that does not make a coil (named as ``geometry.<key>``), ``z_ua``
            or a ``condenser_bank`` given, an unknown or non-positive correlation factor.
        """
        par = self.params
        try:
            self.geometry = parse_geometry(par["geometry"])
        except GeometryKeyError as exc:
            raise self.error(str(exc)) from None
        if self.has("condenser_bank"):
            raise self.error("condenser_bank is not used with a geometry: give the whole coil")
        if self.has("z_ua"):
            raise self.error("z_ua is not used with a geometry: use correlation_factors")
        factors = par.get("correlation_factors") or {}
        if not isinstance(factors, Mapping):
            raise self.error("correlation_factors: must be an object")
        for key, value in factors.items():
            if key not in CORRELATION_FACTORS:
                raise self.error(
                    f"correlation_factors.{key}: unknown; known: {', '.join(CORRELATION_FACTORS)}"
                )
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise self.error(f"correlation_factors.{key}: must be a positive number")
        self.correlation_factors = {k: float(factors.get(k, 1.0)) for k in CORRELATION_FACTORS}

    def configure_hardware(self) -> None:
        """The air inlet, the volume, the transport properties and the air side (after it).

        Raises
        ------
        SpecificationError
            No air inlet temperature or flow, or a fluid without transport properties.
        """
        par = self.params
        if not self.has_secondary:
            raise self.error(
                "an exchanger from geometry needs air_inlet_temp_c or secondary_inlet_temp_k"
            )
        self.air_inlet = self._air_inlet()
        if not self.has("internal_volume_m3"):  # the geometry's (again after a sweep's change)
            par["internal_volume_m3"] = self.geometry.internal_volume_m3
        try:
            self.transport = transport_for(self.fluid)
        except FluidPropertyError as exc:
            raise self.error(str(exc)) from None
        self.molar_mass = molar_mass_g_mol(self.transport)
        self.air = air_side(self.geometry, self.air_inlet, self.correlation_factors["air_side"])
        self._march_cache: dict[tuple[float, float, float, float], MarchResult] = {}

    def _air_inlet(self) -> AirInlet:
        """The entering air from the parameters (moist-air mass flow times ``fan_speed``)."""
        par = self.params
        p_air = float(par.get("air_pressure_pa", ha.P_ATM))
        rh = float(par.get("air_inlet_rh", 0.0))
        w = ha.humidity_ratio(self.t_sec_in, rh, p_air) if rh > 0.0 else 0.0
        if self.has("secondary_mass_flow_kg_s"):
            m_air = float(par["secondary_mass_flow_kg_s"])
        elif self.has("air_volume_flow_m3_s"):
            m_air = float(par["air_volume_flow_m3_s"]) * ha.density(self.t_sec_in, w, p_air)
            par["secondary_mass_flow_kg_s"] = m_air
            self.given["secondary_mass_flow_kg_s"] = m_air
        else:
            raise self.error(
                "an exchanger from geometry needs secondary_mass_flow_kg_s or air_volume_flow_m3_s"
            )
        return AirInlet(self.t_sec_in, w, p_air, m_air * float(par["fan_speed"]))

    # -- the march -------------------------------------------------------------------------
    def march(self, x: np.ndarray) -> MarchResult:
        """The segment march at the inlet state of ``x`` (kept by its inputs).

        Below 98 % of the critical pressure the refrigerant side is the two-phase
        :class:`~workbench.components.exchangers.fin_tube.tube_side.TubeFluid`, above it the
        single-phase :class:`~workbench.components.exchangers.fin_tube.supercritical.SupercriticalFluid`.

        Raises
        ------
        FluidPropertyError
            A state of the march is outside the fluid's range.
        """
        inlet = self.port(x, "inlet")
        z_dp = self.factor(x, "z_dp")
        key = (inlet.m, inlet.p, inlet.h, z_dp)
        found = self._march_cache.get(key)
        if found is not None:
            return found
        g = self.geometry
        tube: TubeFluid | SupercriticalFluid
        if inlet.p >= NEAR_CRITICAL * self.fluid.p_crit:
            tube = SupercriticalFluid(self.transport, self.fluid)
        else:
            t_in = float(self.fluid.T_ph(inlet.p, inlet.h))
            m_tube = max(inlet.m / g.circuits, 1e-7) / g.ports
            tube = tube_fluid(
                self.transport,
                inlet.p,
                inlet.h,
                t_in,
                self.molar_mass,
                m_tube,
                g.inner_diameter_m,
                g.two_phase_friction == "friedel",
            )
        cf = self.correlation_factors
        result = march(
            g,
            self.air,
            tube,
            inlet.m,
            inlet.p,
            inlet.h,
            not self.refrigerant_is_hot,
            cf["refrigerant_side"],
            z_dp * cf["refrigerant_pressure_drop"],
        )
        if len(self._march_cache) >= _MEMO:
            self._march_cache.pop(next(iter(self._march_cache)))
        self._march_cache[key] = result
        return result

    def pressure_drop(self, x: np.ndarray, m: float) -> float:
        """Refrigerant pressure drop of the march [Pa] (``z_dp`` and its factor included)."""
        return self.march(x).dp

    def air_outlet(self, r: MarchResult) -> tuple[float, float]:
        """Mixed air outlet temperature [K] and humidity ratio [kg/kg_da] of a march."""
        inl = self.air_inlet
        m_da = inl.dry_mass_flow_kg_s
        h_out = inl.enthalpy_j_kg - r.q / m_da
        w_out = inl.w - r.condensate_kg_s / m_da
        return moist_temperature(h_out, w_out), w_out

    def min_temperature_difference(self, r: MarchResult) -> float:
        """Smallest refrigerant-to-air-inlet temperature difference along the path [K]."""
        sign = 1.0 if self.refrigerant_is_hot else -1.0
        return min(sign * (t_r - self.t_sec_in) for _p, _h, t_r in r.profile)

    def ua_total(self, x: np.ndarray) -> float:
        """Conductance for the solver's start [W/K]: air side against a 3000 W/(m^2 K) film.

        A fixed estimate, not the march (the start's states may be far from the coil's);
        the outputs report the march's effective ``ua``.
        """
        g = self.geometry
        return 1.0 / (
            1.0 / self.air.conductance_w_k
            + 1.0 / (3000.0 * g.inner_area_m2)
            + g.wall_resistance_k_w
        )

    def secondary_cp(self) -> float:
        """Moist-air specific heat per kg of moist air at the inlet [J/(kg K)]."""
        return self.air_inlet.cp_j_kg_k / (1.0 + self.air_inlet.w)

    def secondary_capacity_rate(self) -> float:
        """Air capacity rate ``m_a c_p`` [W/K]."""
        return self.air_inlet.mass_flow_kg_s * self.secondary_cp()

    def jacobian(
        self, x: np.ndarray, f0: np.ndarray, step: StepFunction
    ) -> list[tuple[int, int, float]]:
        """Forward differences over the ports (:meth:`Component.jacobian`)."""
        return Component.jacobian(self, x, f0, step)

    def profile_check(self, x: np.ndarray) -> tuple[ProfileCheck | None, str | None]:
        """No zone-model profile: the march is the profile."""
        return None, None

    def check(self, x: np.ndarray) -> list[str]:
        """Heat flowing the wrong way, or the refrigerant outlet past the air inlet."""
        problems = []
        inlet, outlet = self.port(x, "inlet"), self.port(x, "outlet")
        sign = 1.0 if self.refrigerant_is_hot else -1.0
        q = sign * inlet.m * (inlet.h - outlet.h)
        label = f"{self.type_name} {self.name!r}"
        if q < -1e-6 * max(1.0, abs(q)):
            role = "releases" if self.refrigerant_is_hot else "absorbs"
            problems.append(
                f"{label}: refrigerant {role} {q:.1f} W (negative): heat would flow the wrong way"
            )
        t_out = float(self.fluid.T_ph(outlet.p, outlet.h))
        if sign * (t_out - self.t_sec_in) < -1e-6 and q > 0:
            problems.append(
                f"{label}: refrigerant outlet {t_out - 273.15:.2f} C is "
                f"{'below' if self.refrigerant_is_hot else 'above'} the air inlet "
                f"{self.t_sec_in - 273.15:.2f} C: temperatures cross"
            )
        return problems

    def warnings(self, x: np.ndarray) -> list[str]:
        """Correlation ranges, frosting, near-critical pressure (``outputs`` module)."""
        return geometric_warnings(self, x)
