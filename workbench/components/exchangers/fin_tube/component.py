"""Fin-and-tube condensers and evaporators from their geometry: the solver's variants.

A ``Condenser`` or ``Evaporator`` with ``"geometry": {"kind": "fin_tube", ...}`` (or
``"microchannel"``) is built by :class:`FinTubeCondenser` / :class:`FinTubeEvaporator`
(``register_variant``); the two kinds share the march. They are the
UA coils (:mod:`workbench.components.exchangers.coils.component`) with the zone model replaced
by the segment march (:mod:`workbench.components.exchangers.fin_tube.march`); the equations,
superheat, subcooling and the outlet and saturation specs are the same::

    0 = p_out - p_in + z_dp * c_dp * dp_march(p_in, h_in, m)                 (pressure_drop)
    0 = h_out - h_in -/+ Q_march(p_in, h_in, m) / m                          (heat_transfer)
    0 = T_ref(p_ref) - t_cond_k   or   T_ref(p_ref) - t_evap_k              (saturation_temperature)
    0 = h_out - h(p_out, T_sub(p_out) - subcooling_k)                       (subcooling)
    0 = h_out - h(p_out, T_dew(p_out) + superheat_k)                        (superheat)

``dp_march`` already carries the ``refrigerant_pressure_drop`` factor ``c_dp``; the march's own
pressure profile (the falling saturation temperature) uses the same drop. Superheat and
subcooling are judged at the outlet pressure.

Air: ``air_inlet_temp_c`` (or ``secondary_inlet_temp_k``), ``air_inlet_rh`` (default 0, dry),
``air_pressure_pa`` (101325), ``secondary_mass_flow_kg_s`` or ``air_volume_flow_m3_s`` (moist
air at the inlet), times ``fan_speed``. ``correlation_factors`` (``air_side``,
``refrigerant_side``, ``air_pressure_drop``, ``refrigerant_pressure_drop``; default 1)
multiply the air coefficient, the film coefficient and the two pressure drops.

Jacobian: forward differences over the ports (:meth:`Component.jacobian`); the march is kept
by its inputs ``(m, p_in, h_in, z_dp)``, so differencing an outlet column costs no march.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from workbench.components.base import Component, StepFunction, register_variant
from workbench.components.catalog.specs import OBJECT_NUMBER_KEYS
from workbench.components.exchangers.coils.component import Coil, Condenser, Evaporator
from workbench.components.exchangers.fin_tube.air_side import AirInlet, AirSide, air_side
from workbench.components.exchangers.fin_tube.geometry import (
    CoilGeometry,
    GeometryKeyError,
    parse_geometry,
)
from workbench.components.exchangers.fin_tube.march import MarchResult, march
from workbench.components.exchangers.fin_tube.outputs import (
    geometric_outputs,
    geometric_warnings,
)
from workbench.components.exchangers.fin_tube.saturated_air import moist_temperature
from workbench.components.exchangers.fin_tube.tube_side import molar_mass_g_mol, tube_fluid
from workbench.components.exchangers.zones.heat_flow import ZoneResult
from workbench.components.exchangers.zones.profile import ProfileCheck
from workbench.correlations import humid_air as ha
from workbench.errors import FluidPropertyError
from workbench.fluids.transport import transport_for

__all__ = ["CORRELATION_FACTORS", "FinTubeCondenser", "FinTubeEvaporator", "GeometricCoil"]

CORRELATION_FACTORS: tuple[str, ...] = OBJECT_NUMBER_KEYS["correlation_factors"]
"""Keys of a coil's ``correlation_factors`` object (issue 40 contract), each default 1."""

_MEMO = 8
"""Marches kept per coil (the base point and the differenced inlet columns)."""


class GeometricCoil(Coil):
    """A condenser or evaporator whose heat flow and pressure drop come from its geometry."""

    geometry: CoilGeometry

    @classmethod
    def check_geometry(cls, geometry: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The first problem of a ``geometry`` object as ``(".key", reason)``; [] when valid."""
        try:
            parse_geometry(geometry)
        except GeometryKeyError as exc:
            return [(f".{exc.key}" if exc.key else "", exc.reason)]
        return []

    def configure(self) -> None:
        """Parse the geometry, the air inlet and the factors; then the UA coil's set-up.

        Raises
        ------
        SpecificationError
            A geometry key that does not make a coil (named as ``geometry.<key>``), a
            ``condenser_bank``, a missing air inlet or flow, an unknown correlation factor or
            a fluid without transport properties.
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
        super().configure()
        self.ua_mode = True
        self.outlet_spec_given = self.has(self.outlet_spec)
        if not self.has_secondary:
            raise self.error(
                "a coil from geometry needs air_inlet_temp_c or secondary_inlet_temp_k"
            )
        self.air_inlet = self._air_inlet()
        if not self.has("internal_volume_m3"):  # the geometry's (again after a sweep's change)
            par["internal_volume_m3"] = self.geometry.internal_volume_m3
        try:
            self.transport = transport_for(self.fluid)
        except FluidPropertyError as exc:
            raise self.error(str(exc)) from None
        self.molar_mass = molar_mass_g_mol(self.transport)
        self.air: AirSide = air_side(
            self.geometry, self.air_inlet, self.correlation_factors["air_side"]
        )
        self._march_cache: dict[tuple[float, float, float, float], MarchResult] = {}

    def _air_inlet(self) -> AirInlet:
        """The entering air from the coil's parameters (module docstring)."""
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
                "a coil from geometry needs secondary_mass_flow_kg_s or air_volume_flow_m3_s"
            )
        return AirInlet(self.t_sec_in, w, p_air, m_air * float(par["fan_speed"]))

    # -- the march -------------------------------------------------------------------------
    def march(self, x: np.ndarray) -> MarchResult:
        """The segment march at the inlet state of ``x`` (kept by its inputs).

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
        t_in = float(self.fluid.T_ph(inlet.p, inlet.h))
        g = self.geometry
        m_tube = max(inlet.m / g.circuits, 1e-7) / g.ports
        tube = tube_fluid(
            self.transport, inlet.p, inlet.h, t_in, self.molar_mass, m_tube, g.inner_diameter_m
        )
        cf = self.correlation_factors
        result = march(
            self.geometry,
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

    def zones(self, x: np.ndarray) -> ZoneResult:
        """The march as the UA coil's zone result: heat flow (hot to cold) [W] and zones."""
        r = self.march(x)
        q = r.q if not self.refrigerant_is_hot else -r.q
        t_air_out = self.air_outlet(r)[0]
        sign = 1.0 if self.refrigerant_is_hot else -1.0
        min_dt = min(sign * (t_r - self.t_sec_in) for _p, _h, t_r in r.profile)
        return ZoneResult(q, r.h_out, t_air_out, r.zones, min_dt, math.inf)

    def air_outlet(self, r: MarchResult) -> tuple[float, float]:
        """Mixed air outlet temperature [K] and humidity ratio [kg/kg_da] of a march."""
        inl = self.air_inlet
        m_da = inl.dry_mass_flow_kg_s
        h_out = inl.enthalpy_j_kg - r.q / m_da
        w_out = inl.w - r.condensate_kg_s / m_da
        return moist_temperature(h_out, w_out), w_out

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

    def outputs(self, x: np.ndarray) -> dict[str, float | None]:
        """The UA coil's outputs with the march's, the air's and the geometry's (``outputs``)."""
        out = super().outputs(x)
        out.update(geometric_outputs(self, x))
        return out

    def check(self, x: np.ndarray) -> list[str]:
        """Heat flowing the wrong way, or the refrigerant outlet past the air inlet."""
        problems = []
        q = self.heat_flow(x)
        label = f"{self.type_name} {self.name!r}"
        if q < -1e-6 * max(1.0, abs(q)):
            role = "releases" if self.refrigerant_is_hot else "absorbs"
            problems.append(
                f"{label}: refrigerant {role} {q:.1f} W (negative): heat would flow the wrong way"
            )
        outlet = self.port(x, "outlet")
        t_out = float(self.fluid.T_ph(outlet.p, outlet.h))
        sign = 1.0 if self.refrigerant_is_hot else -1.0
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


@register_variant("Condenser", "microchannel")
@register_variant("Condenser", "fin_tube")
class FinTubeCondenser(GeometricCoil, Condenser):
    """Fin-and-tube or microchannel condenser from its geometry (module docstring)."""


@register_variant("Evaporator", "microchannel")
@register_variant("Evaporator", "fin_tube")
class FinTubeEvaporator(GeometricCoil, Evaporator):
    """Fin-and-tube or microchannel evaporator, dry, partly wet or wet (module docstring)."""
