"""What a geometric coil reports: capacities, air outlet, pressure drops, coefficients, warnings.

Who reads it: :class:`~workbench.components.exchangers.fin_tube.component.GeometricCoil`'s
``outputs`` and ``warnings``, after a solve. Output names (SI, issue 40's contract names
first):

* ``capacity`` (total, from the UA coil's outputs) [W], ``sensible_capacity`` and
  ``latent_capacity`` [W] (the air's sensible and latent heat change, positive when the air is
  cooled and dried; a condenser's sensible capacity is negative, the air is heated),
  ``sensible_heat_ratio`` [-], ``condensate_kg_s`` [kg/s];
* ``air_outlet_temperature`` [K] (also ``secondary_outlet_temperature``, as the UA coils
  name it), ``air_outlet_rh`` [-], ``air_outlet_humidity_ratio`` [kg/kg_da];
* ``air_pressure_drop`` and ``refrigerant_pressure_drop`` [Pa] (``pressure_drop`` is the
  latter, as for every coil);
* ``ua`` (effective, the sum over the segments of ``1/(R_o + R_i)``, dry basis) [W/K],
  ``air_heat_transfer_coefficient`` and ``refrigerant_heat_transfer_coefficient`` (area
  mean) [W/(m^2 K)], ``fin_efficiency`` and ``surface_efficiency`` (dry) [-],
  ``wet_fraction`` [-], ``internal_volume`` [m^3], ``air_reynolds`` [-],
  ``min_surface_temperature`` [K], ``segments`` [-];
* ``air_inlet_rh`` [-] and ``air_mass_flow`` [kg/s] of the entering air.

Warnings name the coil: the fin correlation's range at the solved point, a surface below
0 C (frosting, not modelled) and a pressure near the critical one.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from workbench.components.base import PortState
from workbench.components.exchangers.fin_tube.air_side import AirInlet, AirSide
from workbench.components.exchangers.fin_tube.geometry import CoilGeometry
from workbench.components.exchangers.fin_tube.march import MarchResult
from workbench.components.exchangers.zones.profile import NEAR_CRITICAL, near_critical_note
from workbench.correlations import humid_air as ha
from workbench.fluids import FluidBackend

__all__ = ["GeometricCoilView", "fan_power", "geometric_outputs", "geometric_warnings"]


class GeometricCoilView(Protocol):
    """What the outputs read of a geometric coil (the component module implements it)."""

    name: str
    fluid: FluidBackend
    params: dict[str, Any]
    refrigerant_is_hot: bool
    geometry: CoilGeometry
    air: AirSide
    air_inlet: AirInlet
    correlation_factors: dict[str, float]

    @property
    def type_name(self) -> str:
        """``Condenser`` or ``Evaporator``."""
        ...

    def march(self, x: np.ndarray) -> MarchResult:
        """The segment march at ``x``."""
        ...

    def air_outlet(self, r: MarchResult) -> tuple[float, float]:
        """Mixed air outlet temperature [K] and humidity ratio [kg/kg_da]."""
        ...

    def port(self, x: np.ndarray, port: str) -> PortState:
        """State of a port."""
        ...

    def has(self, name: str) -> bool:
        """True when the scenario gave parameter ``name``."""
        ...


FROST_K = 273.15
"""Surface temperature below which frost forms [K]."""


def geometric_outputs(coil: GeometricCoilView, x: np.ndarray) -> dict[str, float | None]:
    """The geometric coil's own outputs (module docstring) at the solved ``x``.

    Parameters
    ----------
    coil : GeometricCoilView
        The coil.
    x : numpy.ndarray
        The solved unknowns [SI].
    """
    r = coil.march(x)
    inl = coil.air_inlet
    t_out, w_out = coil.air_outlet(r)
    m_da = inl.dry_mass_flow_kg_s
    sensible = m_da * inl.cp_j_kg_k * (inl.t_k - t_out)
    latent = r.q - sensible
    rh_out = ha.relative_humidity(t_out, w_out, inl.p_pa) if w_out > 0 else 0.0
    air = coil.air
    dp_air = air.pressure_drop(
        coil.geometry, t_out, w_out, coil.correlation_factors["air_pressure_drop"]
    )
    fan = fan_power(coil, dp_air)
    return {
        "fan_power": fan,
        "sensible_capacity": sensible,
        "latent_capacity": latent,
        "sensible_heat_ratio": sensible / r.q if r.q != 0 else None,
        "condensate_kg_s": r.condensate_kg_s,
        "air_outlet_temperature": t_out,
        "secondary_outlet_temperature": t_out,
        "secondary_heat_flow": r.q if not coil.refrigerant_is_hot else -r.q,
        "air_outlet_rh": rh_out,
        "air_outlet_humidity_ratio": w_out,
        "air_inlet_rh": float(coil.params.get("air_inlet_rh", 0.0)),
        "air_mass_flow": inl.mass_flow_kg_s,
        "air_pressure_drop": dp_air,
        "refrigerant_pressure_drop": r.dp,
        "ua": r.ua,
        "air_heat_transfer_coefficient": air.h_w_m2_k,
        "refrigerant_heat_transfer_coefficient": r.h_i_mean,
        "fin_efficiency": air.fin_efficiency,
        "surface_efficiency": air.surface_efficiency,
        "wet_fraction": r.wet_fraction,
        "internal_volume": coil.geometry.internal_volume_m3,
        "air_reynolds": air.reynolds,
        "min_surface_temperature": r.t_surface_min,
        "segments": float(coil.geometry.segments),
    }


def geometric_warnings(coil: GeometricCoilView, x: np.ndarray) -> list[str]:
    """Range, frosting and near-critical warnings naming the coil.

    Parameters
    ----------
    coil : GeometricCoilView
        The coil.
    x : numpy.ndarray
        The solved unknowns [SI].
    """
    label = f"{coil.type_name} {coil.name!r}"
    out: list[str] = []
    p_in = coil.port(x, "inlet").p
    if p_in >= NEAR_CRITICAL * coil.fluid.p_crit and coil.type_name != "GasCooler":
        out.append(f"{label}: {near_critical_note(coil.fluid, p_in, coil.refrigerant_is_hot)}")
        return out
    out += [f"{label}: air side {m}" for m in coil.air.messages]
    r = coil.march(x)
    if not coil.refrigerant_is_hot and r.t_surface_min < FROST_K:
        out.append(
            f"{label}: the coldest surface is at {r.t_surface_min - 273.15:.1f} C, below 0 C: "
            "the coil frosts (frost growth is not modelled)"
        )
    return out


def fan_power(coil: GeometricCoilView, air_pressure_drop_pa: float) -> float | None:
    """The coil's fan power [W]: ``fan_power_w`` as given, else from the pressure it fans.

    With ``fan_efficiency`` (and no ``fan_power_w``): ``V_in (dp_air + dp_ext) / eta``, the
    inlet air volume ``V_in`` [m3/s] (moist air at the inlet state), the coil's air-side
    pressure drop ``dp_air`` and ``fan_external_pressure_pa`` [Pa]. None when neither is given.
    """
    if coil.has("fan_power_w"):
        return float(coil.params["fan_power_w"])
    if not coil.has("fan_efficiency"):
        return None
    inl = coil.air_inlet
    volume = inl.mass_flow_kg_s / ha.density(inl.t_k, inl.w, inl.p_pa)
    dp = air_pressure_drop_pa + float(coil.params["fan_external_pressure_pa"])
    return volume * dp / float(coil.params["fan_efficiency"])
